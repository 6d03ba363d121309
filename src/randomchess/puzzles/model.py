"""A puzzle: a position with the side to move to find a single winning line.

``fen`` is the position the solver sees (the solver is the side to move), ``last_move`` the
opponent's move that led to it (shown on the board; None when unknown), ``moves`` the
solution in UCI: the solver's moves at even indices, the opponent's forced replies at odd
ones, always ending with a solver's move.  In a mate puzzle any move that mates is accepted
at the last step (:func:`check_attempt`)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from importlib import resources

from randomchess.errors import RandomChessError
from randomchess.position import Position
from randomchess.variants import get_variant

PUZZLE_VARIANTS = ("chess960", "mrc")
THEMES = ("mate", "mateIn1", "mateIn2", "mateIn3", "mateIn4", "mateIn5", "advantage",
          "fork", "pin", "castling", "adjustment", "promotion", "primeMinisterPromotion",
          "hangingPiece", "oneMove", "short", "long")
DEFAULT_RATING = 1500.0


class PuzzleError(RandomChessError, ValueError):
    """A puzzle record that is not a valid puzzle (bad FEN, illegal solution, bad field)."""


@dataclass
class Puzzle:
    variant: str
    fen: str
    moves: list[str]
    themes: list[str] = field(default_factory=list)
    last_move: str | None = None
    rating: float = DEFAULT_RATING
    source: str = "selfplay"
    id: str = ""

    def __post_init__(self) -> None:
        if not self.id:
            self.id = puzzle_id(self.variant, self.fen, self.moves)

    @property
    def mate(self) -> int | None:
        """N of a mate in N, None for a puzzle won otherwise."""
        for theme in self.themes:
            if theme.startswith("mateIn"):
                return int(theme[6:])
        return None

    def position(self) -> Position:
        return Position(self.fen, self.variant)

    def as_dict(self) -> dict[str, object]:
        return {"id": self.id, "variant": self.variant, "fen": self.fen,
                "last_move": self.last_move, "moves": list(self.moves),
                "themes": list(self.themes), "rating": round(self.rating),
                "source": self.source}

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Puzzle:
        try:
            moves = data["moves"]
            themes = data.get("themes", [])
            last = data.get("last_move")
            rating = data.get("rating", DEFAULT_RATING)
            if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
                raise PuzzleError("moves must be a list of UCI strings")
            if not isinstance(themes, list) or not all(isinstance(t, str) for t in themes):
                raise PuzzleError("themes must be a list of strings")
            if last is not None and not isinstance(last, str):
                raise PuzzleError("last_move must be a UCI string or null")
            if not isinstance(rating, (int, float)):
                raise PuzzleError("rating must be a number")
            puzzle = cls(variant=str(data["variant"]), fen=str(data["fen"]),
                         moves=list(moves), themes=list(themes), last_move=last,
                         rating=float(rating), source=str(data.get("source", "selfplay")),
                         id=str(data.get("id", "")))
        except KeyError as exc:
            raise PuzzleError(f"missing field {exc}") from None
        puzzle.validate()
        return puzzle

    def validate(self) -> None:
        """Raise :class:`PuzzleError` unless every field is valid and the solution is legal,
        ends with the solver's move, and (mate themes) ends in checkmate."""
        if self.variant not in PUZZLE_VARIANTS:
            raise PuzzleError(f"unknown puzzle variant {self.variant!r}")
        if not self.moves or len(self.moves) % 2 == 0:
            raise PuzzleError("a solution has an odd number of moves (the solver's last)")
        unknown = [t for t in self.themes if t not in THEMES]
        if unknown:
            raise PuzzleError(f"unknown themes {unknown}")
        if not 400 <= self.rating <= 3500:
            raise PuzzleError(f"rating {self.rating} out of range")
        try:
            pos = Position(self.fen, self.variant)
        except RandomChessError as exc:
            raise PuzzleError(f"bad FEN: {exc}") from None
        for text in self.moves:
            try:
                pos.push_uci(text)
            except RandomChessError as exc:
                raise PuzzleError(f"illegal solution move {text}: {exc}") from None
        if self.mate is not None:
            if not pos.is_checkmate():
                raise PuzzleError("a mate puzzle's solution does not end in checkmate")
            if self.mate != (len(self.moves) + 1) // 2:
                raise PuzzleError("mate count does not match the solution's length")


def puzzle_id(variant: str, fen: str, moves: Sequence[str]) -> str:
    digest = hashlib.sha256(f"{variant}|{fen}|{' '.join(moves)}".encode()).hexdigest()
    return digest[:12]


@dataclass(frozen=True)
class AttemptStep:
    """The verdict on the moves a solver has played so far."""

    correct: bool  # every move so far is right
    solved: bool  # ... and the puzzle is finished
    reply: str | None  # the opponent's answer to play next (None when solved or wrong)
    expected: str | None  # the solution's move at the first wrong step (None when correct)


def check_attempt(puzzle: Puzzle, played: Sequence[str]) -> AttemptStep:
    """Judge the solver's ``played`` moves (the solver's moves only, in UCI).

    Each must be legal (``IllegalMoveError`` from the rules core, as on the game page,
    otherwise); the last step of a mate puzzle accepts any mate.  Moves are compared as the
    rules core reads them (a castling written king-takes-rook or king-two-squares is one
    move)."""
    pos = puzzle.position()
    solution = puzzle.moves
    steps = (len(solution) + 1) // 2
    if len(played) > steps:
        raise PuzzleError(f"this puzzle takes {steps} moves, not {len(played)}")
    for i, text in enumerate(played):
        move = pos.parse_uci(text)  # IllegalMoveError / UciError: refused as in a game
        expected = pos.parse_uci(solution[2 * i])
        last = 2 * i == len(solution) - 1
        if move != expected:
            pos.push(move)
            if not (last and puzzle.mate is not None and pos.is_checkmate()):
                return AttemptStep(False, False, None, solution[2 * i])
            pos.pop()
        pos.push(move)
        if last:
            return AttemptStep(True, True, None, None)
        pos.push_uci(solution[2 * i + 1])
    reply = solution[2 * len(played) - 1] if played else None
    return AttemptStep(True, False, reply, None)


def read_jsonl(lines: Iterator[str] | Sequence[str]) -> list[Puzzle]:
    out = []
    for n, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise PuzzleError(f"line {n}: not JSON ({exc})") from None
        if not isinstance(data, dict):
            raise PuzzleError(f"line {n}: not an object")
        try:
            out.append(Puzzle.from_dict(data))
        except PuzzleError as exc:
            raise PuzzleError(f"line {n}: {exc}") from None
    return out


def shipped_puzzles(variant: str) -> list[Puzzle]:
    """The starter set shipped with the package for ``variant`` (docs/puzzles.md)."""
    v = get_variant(variant).key
    if v not in PUZZLE_VARIANTS:
        raise PuzzleError(f"no puzzles for {variant!r}")
    res = resources.files("randomchess.puzzles").joinpath("data", f"{v}.jsonl")
    if not res.is_file():
        return []
    return read_jsonl(res.read_text(encoding="utf-8").splitlines())
