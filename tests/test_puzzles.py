"""Puzzles (issue 33): the engine-driven generator on hand-made positions, theme tags, the
judging of an attempt, and the shipped starter set (integrity here; a deeper engine
re-verification in the slow test)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from randomchess.analysis.core import Analyser, Limit
from randomchess.errors import RandomChessError
from randomchess.position import Position
from randomchess.puzzles.generator import (
    CRITERIA,
    Criteria,
    PuzzleFinder,
    deeper,
    holds,
    mover_win,
    open_engine,
)
from randomchess.puzzles.model import (
    PUZZLE_VARIANTS,
    THEMES,
    Puzzle,
    PuzzleError,
    check_attempt,
    read_jsonl,
    shipped_puzzles,
)
from randomchess.puzzles.themes import is_fork, is_pin


@pytest.fixture(scope="module", params=PUZZLE_VARIANTS)
def finder(request: pytest.FixtureRequest) -> Iterator[tuple[str, PuzzleFinder]]:
    engine: Analyser = open_engine(request.param)
    # Stockfish for Chess960, Fairy-Stockfish for MRC: both installed on the test machines
    assert engine.name in ("stockfish", "fairy-stockfish"), engine.name
    try:
        yield request.param, PuzzleFinder(engine, CRITERIA[request.param])
    finally:
        engine.close()


# Back-rank mates in two: the doubled rooks' first one checks, the other mates.
MATE_IN_2 = {
    "chess960": ("r5k1/5ppp/8/8/8/8/4RPPP/4R1K1 w - - 0 1", ["e2e8", "a8e8", "e1e8"]),
    "mrc": ("r7k/6ppp/9/9/9/9/9/4R1PPP/4R3K w - - 0 1", ["e2e9", "a9e9", "e1e9"]),
}
# Two hanging rooks, each taken by the queen: two winning moves, so no single winning line.
TWO_WINS = {
    "chess960": "6k1/5pp1/7p/7r/r7/7P/5PP1/3Q2K1 w - - 0 1",
    "mrc": "7k1/6pp1/8p/8r/9/r8/8P/6PP1/3Q3K1 w - - 0 1",
}


def test_a_mate_in_two_is_found_and_tagged(finder: tuple[str, PuzzleFinder]) -> None:
    variant, f = finder
    fen, solution = MATE_IN_2[variant]
    puzzle = f.find(Position(fen, variant), source="test")
    assert puzzle is not None
    assert puzzle.variant == variant
    assert puzzle.moves == solution
    assert {"mate", "mateIn2"} <= set(puzzle.themes)
    assert puzzle.mate == 2
    puzzle.validate()


def test_two_winning_moves_are_no_puzzle(finder: tuple[str, PuzzleFinder]) -> None:
    variant, f = finder
    pos = Position(TWO_WINS[variant], variant)
    assert f.find(pos) is None
    # ... while the quick search does see both win
    lines = f.analyser.analyse(pos, Limit(depth=f.criteria.scan_depth), multipv=2)
    assert len(lines) == 2
    assert all(mover_win(pos, line.score) >= f.criteria.win_min for line in lines)


def test_a_random_setup_castling_mate_is_tagged_castling(
        finder: tuple[str, PuzzleFinder]) -> None:
    variant, f = finder
    if variant != "chess960":
        # MRC's castling mate: the king b1 castles far side (king c1, rook d1)
        fen = "2rkr4/2p1p4/9/9/9/9/9/9/RK7 w A - 0 1"
    else:
        fen = "2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1"
    pos = Position(fen, variant)
    puzzle = f.find(pos)
    assert puzzle is not None
    first = pos.parse_uci(puzzle.moves[0])
    assert pos.is_castling(first)
    assert {"castling", "mate", "mateIn1"} <= set(puzzle.themes)


def test_a_plain_recapture_is_no_puzzle(finder: tuple[str, PuzzleFinder]) -> None:
    """Black has just taken a knight on d4 with the queen; taking the queen back wins, but
    that is a plain recapture, not a puzzle (the same position without that last capture
    is a puzzle: the queen simply hangs)."""
    variant, f = finder
    fen = {"chess960": "6k1/5ppp/8/8/3q4/8/3R1PPP/6K1 w - - 0 1",
           "mrc": "7k1/6ppp/9/9/9/3q5/9/3R2PPP/7K1 w - - 0 1"}[variant]
    last = {"chess960": "d8d4", "mrc": "d9d4"}[variant]
    pos = Position(fen, variant)
    assert f.find(pos, last_move=last) is None
    hanging = f.find(pos, last_move=None)
    assert hanging is not None and "hangingPiece" in hanging.themes


def test_only_the_deeper_search_decides() -> None:
    """A finder whose deep search sees no puzzle keeps none, whatever the quick one saw."""

    class Shallow(PuzzleFinder):
        def solution(self, pos: Position, depth: int, last_move: str | None = None
                     ) -> tuple[list, bool] | None:  # type: ignore[type-arg]
            if depth == self.criteria.verify_depth:
                return None
            return super().solution(pos, depth, last_move)

    engine = open_engine("chess960")
    try:
        f = Shallow(engine, Criteria(scan_depth=6, verify_depth=8))
        fen, _ = MATE_IN_2["chess960"]
        assert f.find(Position(fen, "chess960")) is None
    finally:
        engine.close()


# ------------------------------------------------------------------------- themes
def test_fork_and_pin_tags() -> None:
    # the knight on c7 forks king e8 and rook a8 (undefended, worth more)
    pos = Position("r3k3/2N5/8/8/8/8/8/4K3 b - - 0 1", "chess960")
    assert is_fork(pos, pos.geometry.parse_square("c7"))
    # the bishop on b5 pins the knight d7 to the king e8
    pos = Position("4k3/3n4/8/1B6/8/8/8/4K3 b - - 0 1", "chess960")
    assert is_pin(pos, pos.geometry.parse_square("b5"))
    assert not is_fork(pos, pos.geometry.parse_square("b5"))


def test_prime_minister_promotion_is_tagged() -> None:
    from randomchess.puzzles.themes import tag

    pos = Position("k8/6P2/9/9/9/9/9/9/K8 w - - 0 1", "mrc")
    move = pos.parse_uci("g8g9m")
    themes = tag(pos, [move], mate=False)
    assert {"promotion", "primeMinisterPromotion"} <= set(themes)


# ------------------------------------------------------------------------- attempts
def _mate2(variant: str = "chess960") -> Puzzle:
    fen, moves = MATE_IN_2[variant]
    return Puzzle(variant=variant, fen=fen, moves=moves, themes=["mate", "mateIn2", "short"])


def test_check_attempt_right_wrong_and_finished() -> None:
    p = _mate2()
    step = check_attempt(p, ["e2e8"])
    assert step.correct and not step.solved and step.reply == "a8e8"
    step = check_attempt(p, ["e2e8", "e1e8"])
    assert step.correct and step.solved
    step = check_attempt(p, ["e2e7"])
    assert not step.correct and step.expected == "e2e8"
    with pytest.raises(RandomChessError):
        check_attempt(p, ["e2e9"])  # no such square: refused as in a game
    with pytest.raises(RandomChessError):
        check_attempt(p, ["e2d3"])  # a rook does not move so
    with pytest.raises(PuzzleError):
        check_attempt(p, ["e2e8", "e1e8", "g1f1"])


def test_any_mate_is_accepted_at_the_last_step() -> None:
    # mate in 1 with the rook on e8 or, equally, ...: two mating moves, both accepted
    p = Puzzle(variant="chess960", fen="6k1/5ppp/8/8/8/8/5PPP/3RR1K1 w - - 0 1",
               moves=["e1e8"], themes=["mate", "mateIn1", "oneMove"])
    assert check_attempt(p, ["e1e8"]).solved
    assert check_attempt(p, ["d1d8"]).solved
    assert not check_attempt(p, ["d1d7"]).correct


def test_bad_records_are_refused() -> None:
    good = _mate2().as_dict()
    for change, what in [({"variant": "chess"}, "variant"), ({"moves": ["e2e8", "a8e8"]},
                                                             "odd number"),
                         ({"moves": ["e2e8", "a8e8", "e1e7"]}, "checkmate"),
                         ({"moves": ["e2e7", "a8e8", "e1e8"]}, "illegal"),
                         ({"themes": ["nonsense"]}, "themes"), ({"fen": "8/8 w"}, "FEN"),
                         ({"rating": 50}, "rating")]:
        with pytest.raises(PuzzleError, match=what):
            Puzzle.from_dict({**good, **change})
    with pytest.raises(PuzzleError, match="line 2"):
        read_jsonl([_mate2().to_json(), "{"])


# ------------------------------------------------------------------------- shipped set
@pytest.mark.parametrize("variant", PUZZLE_VARIANTS)
def test_shipped_set_is_valid(variant: str) -> None:
    """Every shipped puzzle parses, its solution is legal move by move (first move
    included), ends with the solver's move, mates when tagged mate, and ids are unique."""
    puzzles = shipped_puzzles(variant)
    assert puzzles, f"no shipped {variant} puzzles"
    ids = set()
    for p in puzzles:
        assert p.variant == variant
        p.validate()
        pos = p.position()
        assert pos.is_legal(pos.parse_uci(p.moves[0]))
        assert set(p.themes) <= set(THEMES)
        assert p.id not in ids
        ids.add(p.id)
        if p.last_move is not None:
            assert len(p.last_move) >= 4


@pytest.mark.slow
@pytest.mark.parametrize("variant", PUZZLE_VARIANTS)
def test_shipped_set_holds_at_a_deeper_search(variant: str) -> None:
    """Each shipped puzzle is found again, with the same first move, by a search 4 plies
    deeper than the one that made it (docs/puzzles.md)."""
    engine = open_engine(variant)
    try:
        f = PuzzleFinder(engine, deeper(CRITERIA[variant]))
        failures = [p.id for p in shipped_puzzles(variant) if not holds(f, p)]
    finally:
        engine.close()
    assert not failures, f"{len(failures)} puzzles fail a deeper search: {failures[:20]}"


def test_a_bishop_adjustment_is_tagged() -> None:
    from randomchess.puzzles.themes import tag
    from randomchess.startpos import setup_from_number

    pos = Position(setup_from_number("mrc", 291).fen, "mrc")  # bishops on the same colour
    adjustments = [m for m in pos.legal_moves() if pos.is_adjustment(m)]
    assert adjustments
    assert "adjustment" in tag(pos, [adjustments[0]], mate=False)
    ordinary = next(m for m in pos.legal_moves() if not pos.is_adjustment(m))
    assert "adjustment" not in tag(pos, [ordinary], mate=False)
