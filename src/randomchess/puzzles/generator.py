"""The engine-driven puzzle generator (docs/puzzles.md).

A candidate is a position just after a mistake (in engine self-play from a random setup, a
server game or an imported PGN game).  It becomes a puzzle when the side to move has a
single clearly winning line:

* at the first move the best line wins decisively (a mate in at most ``max_mate``, or at
  least ``win_min`` winning chances) and the second best is much worse (for a mate: it does
  not mate; otherwise its winning chances are ``gap`` points lower, lichess's criterion);
* the solution goes on with the opponent's best reply and the solver's next move for as long
  as that move is again the only one (every move of a mate puzzle must be; the last step of
  a mate accepts any mate);
* it is not a plain material grab: a lone recapture on the square the opponent has just
  taken on is no puzzle;
* all of it holds again at the deeper ``verify_depth`` search, and the puzzle kept is the
  deeper search's line.

Themes come from :mod:`randomchess.puzzles.themes`.  Engines are any
:class:`~randomchess.analysis.core.Analyser`; :func:`open_engine` picks Stockfish for
Chess960 and Fairy-Stockfish for MRC (whose root Bishop Adjustments the project's UCI client
searches itself)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from randomchess.analysis.core import Analyser, Limit, Line, Score
from randomchess.pieces import BLACK, MINISTER, PAWN, WHITE
from randomchess.position import Move, Position
from randomchess.puzzles.model import Puzzle
from randomchess.puzzles.themes import attacked_by_piece, tag, value
from randomchess.startpos import setup_count, setup_from_number
from randomchess.variants import get_variant


@dataclass(frozen=True)
class Criteria:
    scan_depth: int = 10
    verify_depth: int = 16
    play_depth: int = 5
    win_min: float = 75.0  # winning chances (0..100) of the best move: about +3 pawns
    gap: float = 35.0  # winning chances the second best must lose
    max_mate: int = 5
    max_steps: int = 4  # solver's moves of a puzzle won otherwise than by mate


# Depths per variant: Stockfish on 8x8 is several times faster than Fairy-Stockfish on 9x9.
CRITERIA = {
    "chess960": Criteria(scan_depth=11, verify_depth=16, play_depth=5),
    "mrc": Criteria(scan_depth=9, verify_depth=13, play_depth=4),
}


def deeper(criteria: Criteria, plies: int = 4) -> Criteria:
    """The re-verification's criteria: searches ``plies`` deeper than ``criteria`` decide."""
    return Criteria(scan_depth=criteria.verify_depth, verify_depth=criteria.verify_depth + plies,
                    play_depth=criteria.play_depth, win_min=criteria.win_min, gap=criteria.gap,
                    max_mate=criteria.max_mate, max_steps=criteria.max_steps)


def mover_win(pos: Position, score: Score) -> float:
    """Winning chances of the side to move in ``pos``."""
    return (score if pos.turn == WHITE else score.negated()).win_percent()


def mover_mate(pos: Position, score: Score) -> int | None:
    """N when the side to move mates in N, else None."""
    if score.mate is None or (score.mate > 0) != (pos.turn == WHITE):
        return None
    return abs(score.mate)


def _first(pos: Position, line: Line) -> Move | None:
    return pos.parse_uci(line.pv[0]) if line.pv else None


class PuzzleFinder:
    """Turns candidate positions into puzzles with one analyser (the same engine at two
    depths)."""

    def __init__(self, analyser: Analyser, criteria: Criteria | None = None) -> None:
        self.analyser = analyser
        self.criteria = criteria or Criteria()

    # ----------------------------------------------------------------- one position
    def find(self, pos: Position, *, last_move: str | None = None,
             source: str = "selfplay") -> Puzzle | None:
        """The puzzle in ``pos`` (the solver to move), or None."""
        if not pos.legal_moves():
            return None
        quick = self.solution(pos, self.criteria.scan_depth, last_move)
        if quick is None:
            return None
        deep = self.solution(pos, self.criteria.verify_depth, last_move)
        if deep is None:
            return None
        moves, mate = deep
        board = pos.copy(stack=False)
        themes = tag(board, moves, mate=mate)
        uci = []
        for move in moves:
            uci.append(board.uci(move))
            board.push(move)
        return Puzzle(variant=pos.variant.key, fen=pos.fen(), moves=uci, themes=themes,
                      last_move=last_move, rating=initial_rating(len(moves), mate),
                      source=source)

    def _lines(self, pos: Position, depth: int, multipv: int) -> list[Line]:
        return self.analyser.analyse(pos, Limit(depth=depth), multipv=multipv)

    def _only_move(self, pos: Position, depth: int, mate_mode: bool | None,
                   first: bool) -> tuple[Move, bool] | None:
        """The one winning move of ``pos`` and whether it mates (by force), or None."""
        c = self.criteria
        legal = pos.legal_moves()
        if not legal:
            return None
        lines = self._lines(pos, depth, min(2, len(legal)))
        if not lines or not lines[0].pv:
            return None
        best = lines[0]
        second = lines[1] if len(lines) > 1 else None
        move = _first(pos, best)
        if move is None:
            return None
        mate = mover_mate(pos, best.score)
        if mate is not None and mate <= c.max_mate and mate_mode is not False:
            if mate == 1:  # any mate is accepted at the last step
                return move, True
            if second is not None and mover_mate(pos, second.score) is not None:
                return None
            return move, True
        if mate_mode:
            return None  # a mate puzzle whose mate got lost or longer
        best_w = mover_win(pos, best.score)
        second_w = mover_win(pos, second.score) if second is not None else 0.0
        if best_w < c.win_min or best_w - second_w < c.gap:
            return None
        if first and second is not None and mover_mate(pos, second.score) is not None:
            return None
        return move, False

    def solution(self, pos: Position, depth: int,
                 last_move: str | None = None) -> tuple[list[Move], bool] | None:
        """The solver's single winning line from ``pos`` at ``depth``, and whether it
        mates; None when ``pos`` is no puzzle."""
        c = self.criteria
        board = pos.copy(stack=False)
        found = self._only_move(board, depth, None, True)
        if found is None:
            return None
        move, mate = found
        if not mate and _plain_recapture(board, move, last_move):
            return None
        moves = [move]
        board.push(move)
        steps = 1
        while not board.is_checkmate():
            if not mate and steps >= c.max_steps:
                break
            replies = board.legal_moves()
            if not replies:
                break
            answer = self._lines(board, depth, 1)
            reply = _first(board, answer[0]) if answer else None
            if reply is None:
                return None if mate else (moves, False)
            board.push(reply)
            nxt = self._only_move(board, depth, mate, False)
            if nxt is None:
                if mate:
                    return None
                board.pop()
                break
            moves += [reply, nxt[0]]
            board.push(nxt[0])
            steps += 1
            if mate and steps > c.max_mate:
                return None
        if mate and not board.is_checkmate():
            return None
        return moves, mate


def holds(finder: PuzzleFinder, puzzle: Puzzle) -> bool:
    """Whether ``finder`` (a deeper one, :func:`deeper`) finds ``puzzle`` again: a single
    winning line from its position with the same first move (in a mate in one, any mate,
    as the page accepts)."""
    pos = puzzle.position()
    finder.analyser.new_game()
    again = finder.solution(pos, finder.criteria.verify_depth, puzzle.last_move)
    if again is None:
        return False
    moves, mate = again
    if moves[0] == pos.parse_uci(puzzle.moves[0]):
        return True
    return puzzle.mate == 1 and mate and len(moves) == 1


def _plain_recapture(pos: Position, move: Move, last_move: str | None) -> bool:
    """A one-move grab: taking back on the square the opponent has just captured on."""
    if last_move is None or not pos.is_capture(move):
        return False
    try:
        to = pos.geometry.parse_square(last_move[2:4])
    except ValueError:
        return False
    return to == move.to_square


def initial_rating(moves: int, mate: bool) -> float:
    """A first guess at a puzzle's rating before anyone has tried it: longer lines are
    harder, mates a little easier to see than quiet wins."""
    steps = (moves + 1) // 2
    return 1200.0 + 200.0 * (steps - 1) + (0.0 if mate else 150.0)


# --------------------------------------------------------------------- candidates
Candidate = tuple[Position, str]  # the position and the opponent's move that led to it


def random_setup(variant: str, rng: random.Random) -> Position:
    v = get_variant(variant)
    setup = setup_from_number(v, rng.randrange(setup_count(v)))
    return Position(setup.fen, v)


def selfplay_candidates(analyser: Analyser, variant: str, rng: random.Random,
                        criteria: Criteria, max_plies: int = 160) -> Iterator[Candidate]:
    """One noisy engine game from a random setup of ``variant``; yields the positions
    just after a mistake (a random move, or a move the shallow search rates 20 winning
    points worse than the best)."""
    pos = random_setup(variant, rng)
    analyser.new_game()
    decided = 0
    for ply in range(max_plies):
        legal = pos.legal_moves()
        if not legal:
            return
        lines = analyser.analyse(pos, Limit(depth=criteria.play_depth),
                                 multipv=min(3, len(legal)))
        if not lines or not lines[0].pv:
            return
        best_w = mover_win(pos, lines[0].score)
        roll = rng.random()
        mistake = False
        if roll < 0.10:
            move = rng.choice(legal)
            mistake = True
        elif roll < 0.35 and len(lines) > 1:
            pick = lines[rng.randrange(1, len(lines))]
            move = pos.parse_uci(pick.pv[0])
            mistake = mover_win(pos, pick.score) < best_w - 20
        else:
            move = pos.parse_uci(lines[0].pv[0])
        text = pos.uci(move)
        pos.push(move)
        if mistake and ply >= 4:
            yield pos.copy(stack=False), text
        decided = decided + 1 if best_w > 97 or best_w < 3 else 0
        if decided >= 8:
            return


def game_candidates(analyser: Analyser, start: Position, moves: Sequence[Move],
                    criteria: Criteria) -> Iterator[Candidate]:
    """The positions of a played game just after a move that threw away 25 winning
    points (a shallow search of every position)."""
    pos = start.copy(stack=False)
    analyser.new_game()
    before: float | None = None  # the mover's winning chances before its move
    for move in moves:
        if not pos.is_legal(move):
            return
        text = pos.uci(move)
        pos.push(move)
        if not pos.legal_moves():
            return
        lines = analyser.analyse(pos, Limit(depth=criteria.play_depth), multipv=1)
        if not lines:
            return
        now = mover_win(pos, lines[0].score)
        if before is not None and now - (100.0 - before) >= 25:
            yield pos.copy(stack=False), text
        before = now


# --------------------------------------------------------------------- generating
Progress = Callable[[int, int], None]  # (puzzles found, candidates examined)


def generate(finder: PuzzleFinder, candidates: Iterable[tuple[Candidate, str]], count: int,
             seen: set[str] | None = None, progress: Progress | None = None,
             theme: str | None = None) -> Iterator[Puzzle]:
    """Up to ``count`` new puzzles from ``candidates`` ((position, last move), source);
    one per distinct FEN, none already in ``seen`` (ids or FENs); with ``theme``, only
    puzzles tagged with it."""
    seen = set() if seen is None else seen
    found = examined = 0
    for (pos, last), source in candidates:
        if found >= count:
            return
        key = " ".join(pos.fen().split()[:4])
        if key in seen:
            continue
        seen.add(key)
        examined += 1
        puzzle = finder.find(pos, last_move=last, source=source)
        if puzzle is not None and theme is not None and theme not in puzzle.themes:
            puzzle = None
        if puzzle is not None and puzzle.id not in seen:
            seen.add(puzzle.id)
            found += 1
            yield puzzle
        if progress is not None:
            progress(found, examined)


def selfplay_stream(analyser: Analyser, variant: str, seed: int,
                    criteria: Criteria) -> Iterator[tuple[Candidate, str]]:
    """Candidates from endless self-play games (seeded)."""
    rng = random.Random(seed)
    while True:
        for candidate in selfplay_candidates(analyser, variant, rng, criteria):
            yield candidate, "selfplay"


# --------------------------------------------------------------------- themed candidates
# The themes no engine self-play finds by chance (docs/puzzles.md, "Themed candidates"), and
# the variants they exist in.
THEME_VARIANTS: dict[str, tuple[str, ...]] = {
    "castling": ("chess960", "mrc"),
    "adjustment": ("mrc",),
    "primeMinisterPromotion": ("mrc",),
}


def themed_moves(pos: Position, theme: str) -> list[Move]:
    """The legal moves of ``pos`` that make ``theme``: castling, a Bishop Adjustment, or a
    promotion to the Prime Minister."""
    legal = pos.legal_moves()
    if theme == "castling":
        return [m for m in legal if pos.is_castling(m)]
    if theme == "adjustment":
        return [m for m in legal if pos.is_adjustment(m)]
    if theme == "primeMinisterPromotion":
        return [m for m in legal if m.promotion == MINISTER
                and pos.piece_type_at(m.from_square) == PAWN]
    raise ValueError(f"unknown theme: {theme}")


def _moved_squares(pos: Position, move: Move) -> list[int]:
    """The squares of the solver's pieces that ``move`` (before it is played) puts
    somewhere new."""
    if pos.is_castling(move):
        return list(pos.castling_squares(move.to_square))
    if pos.is_adjustment(move):
        return [move.from_square, move.to_square]
    return [move.to_square]


def promising(pos: Position, move: Move) -> bool:
    """The rules core's cheap guess that ``move`` may win: it checks, captures, or puts a
    piece where it attacks an enemy piece (not a pawn) that is undefended or worth more."""
    if pos.gives_check(move) or pos.is_capture(move):
        return True
    squares = _moved_squares(pos, move)
    after = pos.copy(stack=False)
    us = after.turn
    after.push(move)
    them = us ^ 1
    for sq in squares:
        kind = after.piece_type_at(sq)
        if not kind or after.color_at(sq) != us:
            continue
        mine = value(after, kind)
        for s in attacked_by_piece(after, sq):
            target = after.piece_type_at(s)
            if after.color_at(s) != them or target == PAWN:
                continue
            if value(after, target) > mine or not after.is_attacked(s, them):
                return True
    return False


def _engine_says_themed(analyser: Analyser, pos: Position, theme: str, depth: int,
                        win_min: float = 60.0, gap: float = 20.0) -> Move | None:
    """A short search's opinion: the best move, when it makes ``theme`` and wins (more
    loosely than the puzzle criteria, which decide later)."""
    legal = pos.legal_moves()
    if not legal:
        return None
    lines = analyser.analyse(pos, Limit(depth=depth), multipv=min(2, len(legal)))
    return _themed_win(pos, lines, theme, win_min, gap)


def _themed_win(pos: Position, lines: Sequence[Line], theme: str, win_min: float,
                gap: float) -> Move | None:
    if not lines or not lines[0].pv:
        return None
    move = _first(pos, lines[0])
    if move is None or move not in themed_moves(pos, theme):
        return None
    if mover_mate(pos, lines[0].score) is not None:
        return move
    best = mover_win(pos, lines[0].score)
    second = mover_win(pos, lines[1].score) if len(lines) > 1 else 0.0
    return move if best >= win_min and best - second >= gap else None


def theme_possible(pos: Position, theme: str) -> bool:
    """Whether ``theme`` can still happen in the game: a castling right or a Bishop
    Adjustment right with an unmoved pair is left (a promotion always can)."""
    if theme == "castling":
        return pos.castling != 0
    if theme == "adjustment":
        return any(pos.adjustment_pairs(c) for c in (WHITE, BLACK))
    return True


def themed_setup(variant: str, theme: str, rng: random.Random) -> Position:
    """A random setup where ``theme`` can happen (the Bishop Adjustment only exists in the
    setups whose bishops share a colour); for castling, one whose kings stand on a file a
    castling rook lands on (d or f), where castling can check once the file opens."""
    while True:
        pos = random_setup(variant, rng)
        if theme == "adjustment" and not pos.adjust_rights:
            continue
        if theme == "castling":
            files = {pos.variant.castle_a[1], pos.variant.castle_h[1]}
            if pos.geometry.file_of(pos.kings[WHITE]) not in files:
                continue
        return pos


def themed_candidates(analyser: Analyser, variant: str, theme: str, rng: random.Random,
                      criteria: Criteria, max_plies: int = 160, per_ply: int = 12
                      ) -> Iterator[Candidate]:
    """One noisy engine game from a random setup, steered towards ``theme``; yields the
    positions where a move making it is legal and promising.

    The game avoids the themed moves itself (so castling rights and unmoved bishops last
    into the middlegame) and plays more random moves than :func:`selfplay_candidates`.
    Before each move it tries every reply of the side to move: a reply after which the
    opponent has a themed move the rules core finds promising (:func:`promising`) and a
    short search rates best and winning is a blunder, and the position after it a
    candidate (at most ``per_ply`` such searches a move).  A position of the game itself
    is one too when the game's own search rates a themed move best and winning.  A themed
    move is offered once a game: the game, avoiding it, would otherwise offer the same
    puzzle again and again.  The game ends once the theme can no longer happen
    (:func:`theme_possible`)."""
    pos = themed_setup(variant, theme, rng)
    analyser.new_game()
    decided = 0
    last: str | None = None  # the game's last move
    used: set[Move] = set()  # the themed moves already offered
    for ply in range(max_plies):
        legal = pos.legal_moves()
        if not legal or not theme_possible(pos, theme):
            return
        if ply >= 2:
            yield from themed_blunders(analyser, pos, theme, criteria, rng, per_ply, used)
        lines = analyser.analyse(pos, Limit(depth=criteria.play_depth),
                                 multipv=min(3, len(legal)))
        if not lines or not lines[0].pv:
            return
        own = _themed_win(pos, lines, theme, 60.0, 20.0)
        if ply >= 4 and last is not None and own is not None and own not in used:
            used.add(own)
            yield pos.copy(stack=False), last
        best_w = mover_win(pos, lines[0].score)
        avoid = set(themed_moves(pos, theme))
        choices = [pos.parse_uci(line.pv[0]) for line in lines if line.pv]
        choices = [m for m in choices if m not in avoid]
        roll = rng.random()
        quiet = [m for m in legal if m not in avoid]
        if not quiet:
            return
        if roll < 0.2 or not choices:
            move = rng.choice(quiet)
        elif roll < 0.45 and len(choices) > 1:
            move = choices[rng.randrange(1, len(choices))]
        else:
            move = choices[0]
        last = pos.uci(move)
        pos.push(move)
        decided = decided + 1 if best_w > 97 or best_w < 3 else 0
        if decided >= 8:
            return


def themed_blunders(analyser: Analyser, pos: Position, theme: str, criteria: Criteria,
                    rng: random.Random, per_ply: int, used: set[Move] | None = None
                    ) -> Iterator[Candidate]:
    """The replies of ``pos``'s side to move after which the opponent has a promising themed
    move that a short search rates best and winning (at most ``per_ply`` searched); none
    whose themed move is in ``used``, to which the ones offered are added."""
    used = set() if used is None else used
    hopeful: list[tuple[Position, str]] = []
    for move in pos.legal_moves():
        after = pos.copy(stack=False)
        text = after.uci(move)
        after.push(move)
        if any(m not in used and promising(after, m) for m in themed_moves(after, theme)):
            hopeful.append((after, text))
    rng.shuffle(hopeful)
    for after, text in hopeful[:per_ply]:
        win = _engine_says_themed(analyser, after, theme, criteria.play_depth)
        if win is not None and win not in used:
            used.add(win)
            yield after, text


def themed_stream(analyser: Analyser, variant: str, theme: str, seed: int,
                  criteria: Criteria) -> Iterator[tuple[Candidate, str]]:
    """Candidates for ``theme`` from endless steered self-play games (seeded)."""
    rng = random.Random(seed)
    while True:
        for candidate in themed_candidates(analyser, variant, theme, rng, criteria):
            yield candidate, "selfplay"


def open_engine(variant: str) -> Analyser:
    """The strongest installed engine for ``variant`` (Stockfish for Chess960,
    Fairy-Stockfish for MRC; our own engine when neither is there)."""
    from randomchess.analysis.engines import EngineConfig

    return EngineConfig.detect().open("auto", variant)
