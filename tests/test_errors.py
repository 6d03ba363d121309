"""Every error the library raises about bad input is a ``RandomChessError`` and a
``ValueError`` (issue 13, item 4): the classes, and the errors real bad calls raise."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable

import pytest

import randomchess
from randomchess import RandomChessError

# The library proper: everything below the engine, server and command line (those speak to
# processes and sockets and have their own error types).
LIBRARY = sorted(
    name for _, name, _ in pkgutil.iter_modules(randomchess.__path__, "randomchess.")
    if name.rsplit(".", 1)[1] not in {"engine", "server", "cli", "web", "__main__"}
)


def error_classes() -> list[type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for name in LIBRARY:
        module = importlib.import_module(name)
        for _, obj in inspect.getmembers(module, inspect.isclass):
            # AssertionErrors (VariantDefinitionError) are programming errors raised at
            # import, not answers to bad input.
            if issubclass(obj, BaseException) and obj.__module__.startswith("randomchess") \
                    and not obj.__name__.startswith("_") and not issubclass(obj, AssertionError):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return [found[k] for k in sorted(found)]


def test_the_walk_finds_the_errors() -> None:
    names = {c.__name__ for c in error_classes()}
    assert {"FenError", "PgnError", "UnknownVariantError", "NotASetupError",
            "SetupNumberError", "GameOverError"} <= names


@pytest.mark.parametrize("cls", error_classes(), ids=lambda c: c.__name__)
def test_every_public_error_class_derives_from_the_base(cls: type[BaseException]) -> None:
    assert issubclass(cls, RandomChessError) and issubclass(cls, ValueError)


def _bad_calls() -> list[tuple[str, Callable[[], object]]]:
    from randomchess import Game, Position, SetupPool, geometry, get_variant, startpos
    from randomchess.diagram import parse_placement
    from randomchess.san import piece_letter, san

    pos = Position()
    move = pos.legal_moves()[0]
    return [
        ("unknown variant", lambda: get_variant("crazyhouse")),
        ("unknown variant in Position", lambda: Position(None, "crazyhouse")),
        ("bad setup rank", lambda: get_variant("chess960").setup_fen("RNBQKBNQ")),
        ("no single start", lambda: get_variant("mrc").start_fen),
        ("bad board size", lambda: geometry(1, 40)),
        ("bishop filter outside MRC", lambda: SetupPool("chess960", "same")),
        ("unknown bishop filter", lambda: SetupPool("mrc", "light")),  # type: ignore[arg-type]
        ("unknown SAN language", lambda: san(pos, move, "fr")),  # type: ignore[arg-type]
        ("unknown letter language", lambda: piece_letter(1, "de")),  # type: ignore[arg-type]
        ("unknown rank language", lambda: startpos.localize_rank("RNBQKBNR", "fr")),  # type: ignore[arg-type]
        ("bad round list", lambda: list(startpos.iter_rounds("1-x"))),
        ("round range", lambda: list(startpos.iter_rounds("5-3"))),
        ("round zero", lambda: startpos.round_setups(
            b"\0" * startpos.SALT_BYTES, "e", 0, 1, SetupPool("chess960"))),
        ("no boards", lambda: startpos.round_setups(
            b"\0" * startpos.SALT_BYTES, "e", 1, 0, SetupPool("chess960"))),
        ("seed UTF-8 cannot encode", lambda: startpos.draw_seeded(SetupPool("chess960"),
                                                                  "\udcff")),
        ("event name UTF-8 cannot encode", lambda: startpos.commitment(
            b"\0" * startpos.SALT_BYTES, "\udcff")),
        ("bad colour", lambda: Game().resign(7)),  # type: ignore[arg-type]
        ("diagram placement", lambda: parse_placement("8/8/zz")),
    ]


@pytest.mark.parametrize(("what", "call"), _bad_calls(), ids=[w for w, _ in _bad_calls()])
def test_bad_input_raises_the_base_error(what: str, call: Callable[[], object]) -> None:
    with pytest.raises(RandomChessError):
        call()
