"""A cached external engine forgets the previous game before it analyses or plays another
setup (``ucinewgame``): Fairy-Stockfish carried its hash from one 9x9 setup to the next into
scores of +5 to +15 pawns (issue 17's evaluation run), and the analysis board and the
computer levels 9-11 reuse one process per worker."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from randomchess.analysis import levels
from randomchess.analysis.core import Limit, Line, OnLines, StartTracker
from randomchess.position import Position
from randomchess.server.engines import jobs as analysis_api
from randomchess.variants import get_variant

MRC = get_variant("mrc")
A = MRC.setup_fen("RNBQKMBNR")
B = MRC.setup_fen("RBNQKMNBR")


class FakeEngine:
    name = "fake"
    id_name = "Fake 1"

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.root_bestmove: str | None = None  # as UciClient: the engine's own bestmove

    def supports(self, variant_key: str) -> bool:
        return True

    def analyse(self, pos: Position, limit: Limit, multipv: int = 1,
                on_lines: OnLines | None = None, game_keys: Sequence[int] = ()) -> list[Line]:
        self.calls.append("analyse")
        from randomchess.analysis.core import Score, make_line

        move = pos.legal_moves()[0]
        self.root_bestmove = pos.uci(move)
        return [make_line(pos, 1, 1, Score(cp=0), [move])]

    def new_game(self) -> None:
        self.calls.append("new_game")

    def stop(self) -> None: ...

    def close(self) -> None: ...


def test_the_analysis_board_engine_starts_afresh_for_another_setup(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeEngine()
    monkeypatch.setattr(analysis_api, "_engine", lambda name, variant: fake)
    monkeypatch.setattr(analysis_api, "_started", StartTracker())
    first = Position(A, MRC).legal_moves()[0]
    for fen, moves in ((A, []), (A, [Position(A, MRC).uci(first)]), (B, []), (B, []), (A, [])):
        assert "error" not in analysis_api.analyse_job("mrc", fen, moves, "fairy-stockfish",
                                                       4, 100, 1)
    # The same game's positions share the hash; another setup gets a new game first.
    assert fake.calls == ["new_game", "analyse", "analyse", "new_game", "analyse", "analyse",
                          "new_game", "analyse"]


def test_an_external_level_starts_afresh_for_another_game(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeEngine()
    monkeypatch.setattr(levels, "engine_for", lambda config, key: "fairy-stockfish")
    monkeypatch.setattr(levels, "_player", lambda config, name, level: fake)
    monkeypatch.setattr(levels, "_started", StartTracker())
    config: Any = object()
    pos = Position(A, MRC)
    m1 = pos.uci(pos.legal_moves()[0])
    pos.push_uci(m1)
    m2 = pos.uci(pos.legal_moves()[0])
    levels.external_move(config, "mrc", A, [], 11, 100)
    levels.external_move(config, "mrc", A, [m1, m2], 11, 100)  # the same game, two plies on
    levels.external_move(config, "mrc", B, [], 11, 100)  # another game
    levels.external_move(config, "mrc", A, [m1], 11, 100)  # back: not the line it last saw
    assert fake.calls == ["new_game", "analyse", "analyse", "new_game", "analyse",
                          "new_game", "analyse"]
