"""Themed puzzle candidates (issue 33, docs/puzzles.md "Themed candidates"): the rules
core's pre-filter, the search for the opponent's blunders that let a themed move win, the
theme filter of the generator, and the ``--theme`` option's errors in English and Spanish."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from randomchess.analysis.core import Analyser
from randomchess.cli import main
from randomchess.position import Position
from randomchess.puzzles.generator import (
    CRITERIA,
    PuzzleFinder,
    generate,
    open_engine,
    promising,
    theme_possible,
    themed_blunders,
    themed_moves,
    themed_setup,
)
from randomchess.startpos import setup_from_number

# Black to move; the bishop on d5 is all that shields the d-file.  Once it leaves, White's
# castling (king b1 to c1, rook a1 to d1) mates: the king d8 is boxed in by its own rooks
# and pawns.  Any other reply (the king stepping to d7, say) leaves Black winning.
SHIELD = "2rkr3/2p1p3/8/3b4/8/8/8/RK6 b A - 0 1"


@pytest.fixture(scope="module")
def engine() -> Iterator[Analyser]:
    analyser = open_engine("chess960")
    try:
        yield analyser
    finally:
        analyser.close()


def test_themed_moves_are_read_by_the_rules_core() -> None:
    pos = Position(SHIELD, "chess960")
    pos.push_uci("d5e6")
    assert [pos.uci(m) for m in themed_moves(pos, "castling")] == ["b1a1"]
    assert themed_moves(pos, "adjustment") == []
    start = Position(setup_from_number("mrc", 291).fen, "mrc")  # bishops on one colour
    assert themed_moves(start, "adjustment")
    assert all(start.is_adjustment(m) for m in themed_moves(start, "adjustment"))
    assert themed_moves(start, "castling") == []
    promoting = Position("k8/6P2/9/9/9/9/9/9/K8 w - - 0 1", "mrc")
    assert [promoting.uci(m) for m in themed_moves(promoting, "primeMinisterPromotion")] == \
        ["g8g9m"]
    with pytest.raises(ValueError):
        themed_moves(pos, "fork")


def test_promising_means_check_capture_or_a_new_attack() -> None:
    pos = Position(SHIELD, "chess960")
    pos.push_uci("d5e6")
    (castle,) = themed_moves(pos, "castling")
    assert promising(pos, castle)  # it checks (and mates)
    # the same castling with the d-file shut by a black pawn: no check, nothing attacked
    shut = Position("2rkr3/2p1p3/3p4/8/8/8/8/RK6 w A - 0 1", "chess960")
    (castle,) = themed_moves(shut, "castling")
    assert not promising(shut, castle)
    # a start position's adjustments attack nothing
    start = Position(setup_from_number("mrc", 291).fen, "mrc")
    assert not any(promising(start, m) for m in themed_moves(start, "adjustment"))


def test_a_themed_game_ends_when_the_theme_can_no_longer_happen() -> None:
    start = Position(setup_from_number("mrc", 291).fen, "mrc")
    assert theme_possible(start, "adjustment") and theme_possible(start, "castling")
    assert not theme_possible(Position("2rkr3/2p1p3/8/8/8/8/8/RK6 w - - 0 1", "chess960"),
                              "castling")
    # the bishops on opposite colours: no adjustment in the whole game
    opposite = Position(setup_from_number("mrc", 0).fen, "mrc")
    assert not opposite.adjust_rights
    assert not theme_possible(opposite, "adjustment")
    assert theme_possible(Position("k8/6P2/9/9/9/9/9/9/K8 w - - 0 1", "mrc"),
                          "primeMinisterPromotion")


@pytest.mark.parametrize("variant", ["chess960", "mrc"])
def test_themed_setups(variant: str) -> None:
    """Castling games start with the kings on d or f (where a castling rook lands);
    adjustment games with both bishops of a colour (the only setups that have it)."""
    rng = random.Random(3)
    for _ in range(20):
        pos = themed_setup(variant, "castling", rng)
        assert "abcdefghi"[pos.geometry.file_of(pos.kings[0])] in "df"
        assert pos.castling
    if variant == "mrc":
        assert all(themed_setup(variant, "adjustment", rng).adjust_rights for _ in range(20))


def test_a_blunder_that_allows_a_castling_mate_is_a_candidate(engine: Analyser) -> None:
    pos = Position(SHIELD, "chess960")
    criteria = CRITERIA["chess960"]
    found = list(themed_blunders(engine, pos, "castling", criteria, random.Random(1),
                                 per_ply=len(pos.legal_moves())))
    assert found
    lasts = {last for _, last in found}
    assert "d8d7" not in lasts  # the king's step keeps Black winning: no candidate
    assert all(last.startswith("d5") or last[:2] in ("c8", "e8") for last in lasts), lasts
    # each candidate is a puzzle whose first move castles (a mate, or when the bishop can
    # interpose, the win of it), tagged so
    finder = PuzzleFinder(engine, criteria)
    for after, last in found:
        puzzle = finder.find(after, last_move=last)
        assert puzzle is not None and puzzle.last_move == last
        assert puzzle.moves[0] == "b1a1"
        assert "castling" in puzzle.themes


def test_generate_with_a_theme_keeps_only_that_theme(engine: Analyser) -> None:
    plain = Position("r5k1/5ppp/8/8/8/8/4RPPP/4R1K1 w - - 0 1", "chess960")  # mate in 2
    castle = Position(SHIELD, "chess960")
    castle.push_uci("d5c4")  # castling wins the bishop that must interpose on d3
    stream = [((plain, "a7a8"), "test"), ((castle, "d5c4"), "test")]
    finder = PuzzleFinder(engine, CRITERIA["chess960"])
    (puzzle,) = generate(finder, stream, 5, theme="castling")
    assert "castling" in puzzle.themes and puzzle.last_move == "d5c4"
    assert len(list(generate(finder, stream, 5))) == 2  # without a theme both are puzzles


@pytest.mark.parametrize(("lang", "variant", "theme", "said"), [
    ("en", "chess960", "fork",
     "Unknown theme 'fork': the themes are castling, adjustment, primeMinisterPromotion."),
    ("es", "chess960", "fork",
     "Tema desconocido 'fork': los temas son castling, adjustment, primeMinisterPromotion."),
    ("en", "chess960", "adjustment",
     "The theme adjustment does not exist in chess960 (only in mrc)."),
    ("es", "chess960", "primeMinisterPromotion",
     "El tema primeMinisterPromotion no existe en chess960 (solo en mrc)."),
])
def test_theme_option_errors(tmp_path: Path, lang: str, variant: str, theme: str,
                             said: str) -> None:
    out = tmp_path / "p.jsonl"
    r = CliRunner().invoke(main, ["puzzles", "generate", "--variant", variant, "--count", "1",
                                  "--out", str(out), "--theme", theme, "--lang", lang,
                                  "--quiet"])
    assert r.exit_code == 1
    assert said in " ".join(r.output.split())
    assert not out.exists()  # refused before any engine started
