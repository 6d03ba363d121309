"""What an analysis returns, whichever engine made it: scores, lines and search limits.

Scores are kept from White's point of view (as lichess shows them and as ``[%eval]``
comments are written); ``win_percent`` turns one into White's winning chances with the
logistic model lichess fits to its games (docs/engine.md, "Analysis").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from randomchess.errors import RandomChessError
from randomchess.pieces import WHITE
from randomchess.position import Move, Position
from randomchess.san import san

# lichess's fit of the winning chances to the centipawn score (lila, WinPercent.scala).
WIN_PERCENT_SLOPE = 0.00368208
MATE_CP = 100_000  # a mate, as a centipawn figure for sorting (nearer mates score higher)


class AnalysisError(RandomChessError, ValueError):
    """A bad analysis request (limit, multi-PV count, position) or an engine failure."""


@dataclass(frozen=True)
class Score:
    """An evaluation from White's point of view: centipawns, or moves to mate (positive:
    White mates, negative: Black mates; never 0)."""

    cp: int | None = None
    mate: int | None = None

    def __post_init__(self) -> None:
        if (self.cp is None) == (self.mate is None) or self.mate == 0:
            raise AnalysisError("a score is either centipawns or a mate, not both nor neither")

    @classmethod
    def from_mover(cls, pos: Position, cp: int | None = None, mate: int | None = None) -> Score:
        """A score the engine gave from the side to move's point of view, turned to White's."""
        sign = 1 if pos.turn == WHITE else -1
        if mate is not None:
            if mate == 0:  # the side to move is mated: a lost figure, not a mate count
                return cls(cp=-sign * MATE_CP)
            return cls(mate=sign * mate)
        assert cp is not None
        return cls(cp=sign * cp)

    def negated(self) -> Score:
        return Score(mate=-self.mate) if self.mate is not None else Score(cp=-(self.cp or 0))

    def sort_key(self) -> int:
        """A number ordering scores from White's best to White's worst (higher: better)."""
        if self.mate is not None:
            if self.mate > 0:
                return MATE_CP - self.mate
            return -MATE_CP - self.mate
        assert self.cp is not None
        return self.cp

    def for_mover(self, turn: int) -> int:
        """``sort_key`` from the point of view of ``turn`` (0 White, 1 Black)."""
        return self.sort_key() if turn == WHITE else -self.sort_key()

    def win_percent(self) -> float:
        """White's winning chances, 0..100 (lichess's model: mates count as won/lost)."""
        if self.mate is not None:
            return 100.0 if self.mate > 0 else 0.0
        cp = max(-1000, min(1000, self.cp or 0))
        return 50 + 50 * (2 / (1 + math.exp(-WIN_PERCENT_SLOPE * cp)) - 1)

    def pgn(self) -> str:
        """The figure of a ``[%eval ...]`` comment: ``0.35``, ``-1.20``, ``#3``, ``#-2``."""
        if self.mate is not None:
            return f"#{self.mate}"
        return f"{(self.cp or 0) / 100:.2f}"

    def as_dict(self) -> dict[str, int | None]:
        return {"cp": self.cp, "mate": self.mate}


@dataclass
class Line:
    """One principal variation: its rank (1 = best), depth, score and moves."""

    multipv: int
    depth: int
    score: Score
    pv: list[str]  # UCI, as the rules core writes it
    san: list[str]  # English SAN of the same moves
    nodes: int = 0
    time_ms: int = 0

    def as_dict(self) -> dict[str, object]:
        return {"multipv": self.multipv, "depth": self.depth, "score": self.score.as_dict(),
                "pv": self.pv, "san": self.san, "nodes": self.nodes, "time_ms": self.time_ms}


@dataclass(frozen=True)
class Limit:
    """What ends one analysis: a depth, a time in milliseconds, or both (first reached)."""

    depth: int = 0
    movetime: int = 0

    def __post_init__(self) -> None:
        if self.depth < 0 or self.movetime < 0 or self.depth > 60 or \
                self.movetime > 600_000:
            raise AnalysisError(f"bad limit: depth {self.depth}, movetime {self.movetime} ms")
        if not self.depth and not self.movetime:
            raise AnalysisError("an analysis needs a depth or a movetime")

    def split(self, parts: int) -> Limit:
        """The same depth, the time shared among ``parts`` searches."""
        if not self.movetime or parts <= 1:
            return self
        return Limit(self.depth, max(10, self.movetime // parts))


OnLines = Callable[[list[Line]], None]


class Analyser(Protocol):
    """An engine that analyses positions of the variants it ``supports``."""

    name: str

    def supports(self, variant_key: str) -> bool: ...

    def analyse(self, pos: Position, limit: Limit, multipv: int = 1,
                on_lines: OnLines | None = None, game_keys: Sequence[int] = ()) -> list[Line]:
        """The best ``multipv`` lines, best first; ``on_lines`` gets partial results."""
        ...

    def new_game(self) -> None: ...

    def stop(self) -> None: ...

    def close(self) -> None: ...


class StartTracker:
    """The start FEN each cached engine last worked from: before another one the engine gets
    ``new_game()`` (``ucinewgame``), so no hash crosses from one setup to the next (it did for
    Fairy-Stockfish on 9x9).  Positions of the same game keep the engine's hash."""

    def __init__(self) -> None:
        self._started: dict[object, str] = {}

    def enter(self, key: object, analyser: Analyser, start_fen: str) -> None:
        if self._started.get(key) != start_fen:
            analyser.new_game()
            self._started[key] = start_fen

    def clear(self) -> None:
        self._started.clear()


def make_line(pos: Position, rank: int, depth: int, score: Score, moves: Sequence[Move],
              nodes: int = 0, time_ms: int = 0) -> Line:
    """A :class:`Line` from rules-core moves, with UCI and SAN written from ``pos``."""
    board = pos.copy(stack=False)
    pv: list[str] = []
    sans: list[str] = []
    for move in moves:
        if not board.is_legal(move):
            break
        pv.append(board.uci(move))
        sans.append(san(board, move))
        board.push(move)
    return Line(rank, depth, score, pv, sans, nodes, time_ms)


def check_multipv(multipv: int) -> int:
    if not 1 <= multipv <= 5:
        raise AnalysisError(f"multipv must be 1..5, not {multipv}")
    return multipv


@dataclass
class Result:
    """A finished analysis of one position (what the API and the review keep)."""

    engine: str
    fen: str
    lines: list[Line] = field(default_factory=list)

    @property
    def best(self) -> Line | None:
        return self.lines[0] if self.lines else None
