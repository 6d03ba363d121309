"""The project's own engine as an :class:`~randomchess.analysis.core.Analyser`.

It plays every variant the rules core knows, Bishop Adjustments included (they are ordinary
moves to its search).  Multi-PV is done the simple way: line k is a fresh search of the root
with the first k-1 lines' moves left out (the transposition table is kept, so it is cheap).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from randomchess.analysis.core import (
    MATE_CP,
    Limit,
    Line,
    OnLines,
    Score,
    check_multipv,
    make_line,
)
from randomchess.engine import Info, Limits, Searcher
from randomchess.engine.search import MATE, MATE_BOUND
from randomchess.position import Move, Position

FULL_STRENGTH = 8


def engine_score(pos: Position, score: int) -> Score:
    """Our search's side-to-move score as a White-point-of-view :class:`Score`."""
    if score >= MATE_BOUND:
        return Score.from_mover(pos, mate=(MATE - score + 1) // 2)
    if score <= -MATE_BOUND:
        mate = -((MATE + score) // 2)
        return Score.from_mover(pos, mate=mate) if mate else Score.from_mover(pos, cp=-MATE_CP)
    return Score.from_mover(pos, cp=score)


class OwnEngine:
    """randomchess's search at full strength (level 8)."""

    name = "randomchess"

    def __init__(self, hash_mb: int = 32) -> None:
        self._searcher = Searcher(hash_mb=hash_mb, level=FULL_STRENGTH)
        self._lock = threading.Lock()
        self._stopped = False

    def supports(self, variant_key: str) -> bool:
        return True

    def analyse(self, pos: Position, limit: Limit, multipv: int = 1,
                on_lines: OnLines | None = None, game_keys: Sequence[int] = ()) -> list[Line]:
        check_multipv(multipv)
        with self._lock:
            self._stopped = False
            legal = pos.legal_moves()
            lines: list[Line] = []
            searcher = self._searcher
            limit = limit.split(min(multipv, len(legal)))
            excluded: list[Move] = []
            for rank in range(1, min(multipv, len(legal)) + 1):
                if self._stopped and lines:
                    break
                def report(info: Info, rank: int = rank) -> None:
                    if on_lines is not None and info.pv:
                        partial = make_line(pos, rank, info.depth, engine_score(pos, info.score),
                                            info.pv, info.nodes, info.time_ms)
                        on_lines([*lines, partial])

                result = searcher.search(pos, Limits(depth=limit.depth, movetime=limit.movetime),
                                         game_keys=game_keys, on_info=report,
                                         exclude=frozenset(excluded))
                if result.move is None:
                    break
                pv = result.pv if result.pv and result.pv[0] == result.move else [result.move]
                lines.append(make_line(pos, rank, result.depth, engine_score(pos, result.score),
                                       pv, result.nodes, result.time_ms))
                excluded.append(result.move)
            if on_lines is not None and lines:
                on_lines(list(lines))
            return lines

    def new_game(self) -> None:
        """Forget everything searched so far (transposition table, histories)."""
        with self._lock:
            self._searcher.new_game()

    def stop(self) -> None:
        self._stopped = True
        self._searcher.stop()

    def close(self) -> None:
        self.stop()
