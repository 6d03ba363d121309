"""Search: iterative deepening principal-variation search with a transposition table,
quiescence, null move, late-move reductions, check extension and time management.

The searcher works on a private copy of the position, so a search that is stopped midway
(``stop``, time, nodes) can simply be abandoned.  Moves are the rules core's
:class:`~randomchess.position.Move`, so castling and Bishop Adjustments are searched like any
other move.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final

from randomchess.engine import endgame
from randomchess.engine.evaluate import (
    evaluate,
    incremental_weights,
    is_drawish_material,
    material_value,
    per_variant,
)
from randomchess.pieces import (
    BLACK,
    KING,
    PAWN,
    PIECE_CODE_LIMIT,
    PIECE_COLOR,
    PIECE_KIND,
    PIECE_TYPES,
    QUEEN,
    WHITE,
    make_piece,
)
from randomchess.position import Move, Position
from randomchess.variants import Variant

MATE: Final = 30000
MATE_BOUND: Final = MATE - 1000  # scores beyond this are mates
INF: Final = 32000
MAX_PLY: Final = 100

# TT bound flags
_EXACT, _LOWER, _UPPER = 0, 1, 2

# Pruning margins (centipawns) and reductions, gathered here to tune.
REVERSE_FUTILITY_MARGIN: Final = 110  # per ply of remaining depth, depth <= 3
FUTILITY_MARGIN: Final = (0, 150, 300)  # by depth, for quiet moves at frontier nodes
QS_DELTA: Final = 200  # quiescence delta pruning
NULL_MIN_DEPTH: Final = 3
LATE_MOVE_COUNT: Final = (0, 6, 12, 20)  # quiet moves tried at depth 1..3 in non-PV nodes
TIME_CHECK_NODES: Final = 128  # nodes between looks at the clock (a node limit is exact)
# Static scores kept by Zobrist key: iterative deepening and quiescence meet the same
# positions again and again, and the evaluation is more than half of a node's time.
EVAL_CACHE_ENTRIES: Final = 1 << 18
MOVE_OVERHEAD_MS = 40  # process and pipe latency allowed for per move (the least assumed)
# With ``go movetime`` no clock can run out: what is kept back only covers the stop (the
# clock is looked at every TIME_CHECK_NODES nodes, a few ms) and the bestmove line.  The
# latency measured through the UCI layer is about 3 ms (bench/engine_bench.py --latency);
# Stockfish, too, searches the whole movetime.  An explicit ``Move Overhead`` replaces it.
MOVETIME_OVERHEAD_MS = 10


@dataclass(frozen=True)
class Level:
    """A playing level: how deep it looks and how far from the best move it may stray."""

    depth: int  # iteration limit (0 = none)
    nodes: int  # node limit per move (0 = none)
    margin: int  # chooses at random among root moves within this many centipawns of the best
    description: str


# Levels 1-8 (documented in docs/engine.md).  Levels below 8 score every root move with a
# full window so they can choose among near-best moves; level 8 plays the best move found.
# Spaced by measurement (docs/engine.md, "Level ratings"): the margin moves the strength far
# more than the depth (at three plies 95 cp instead of 70 costs about 340 Elo), so each step
# changes both a little.
LEVELS: dict[int, Level] = {
    1: Level(1, 4_000, 120, "beginner: one ply, often misses what it hangs"),
    2: Level(2, 8_000, 120, "novice: two plies, loose"),
    3: Level(3, 20_000, 95, "casual: three plies, loose"),
    4: Level(3, 20_000, 70, "club: three plies, small inaccuracies"),
    5: Level(4, 60_000, 35, "strong club: four plies"),
    6: Level(5, 150_000, 15, "advanced: five plies, nearly exact"),
    7: Level(0, 0, 4, "expert: the whole time, almost always the best move"),
    8: Level(0, 0, 0, "full strength: the whole time allowed"),
}
DEFAULT_LEVEL = 8


@dataclass
class Limits:
    """What ends a search (UCI ``go`` parameters; times in milliseconds)."""

    depth: int = 0
    nodes: int = 0
    movetime: int = 0
    wtime: int | None = None
    btime: int | None = None
    winc: int = 0
    binc: int = 0
    movestogo: int = 0
    infinite: bool = False


@dataclass
class Info:
    """Progress report after each iteration (and the final one)."""

    depth: int
    seldepth: int
    score: int  # centipawns, or a mate score beyond MATE_BOUND
    nodes: int
    time_ms: int
    pv: list[Move] = field(default_factory=list)

    @property
    def mate_in(self) -> int | None:
        """Moves to mate (negative: being mated), or None for a centipawn score."""
        if self.score >= MATE_BOUND:
            return (MATE - self.score + 1) // 2
        if self.score <= -MATE_BOUND:
            return -((MATE + self.score) // 2)
        return None

    @property
    def nps(self) -> int:
        return self.nodes * 1000 // max(self.time_ms, 1)


@dataclass
class Result:
    """The outcome of a search: the move to play (None only when there is no legal move)."""

    move: Move | None
    score: int
    depth: int
    nodes: int
    pv: list[Move]
    time_ms: int


def time_budget(remaining: int, inc: int, movestogo: int = 0,
                overhead: int = MOVE_OVERHEAD_MS) -> tuple[int, int]:
    """(soft, hard) thinking time in milliseconds for a move with ``remaining`` on the clock.

    A reserve of four overheads plus two increments is never planned for, so the clock
    settles above it instead of drifting towards zero; once the clock is down to the
    reserve a move costs at most 80 % of what the increment gives back after the overhead
    (``overhead`` is the GUI's and the pipe's latency per move, as observed).  The hard
    limit aborts the tree; the soft one ends the iterations."""
    overhead = max(0, overhead)
    moves_left = min(movestogo, 50) if movestogo > 0 else 30
    reserve = 4 * overhead + 2 * inc
    usable = max(0, remaining - reserve)
    base = usable / moves_left + 0.75 * inc
    refill = 0.8 * max(0, inc - overhead)
    hard = min(2.5 * base, 0.3 * usable + refill, remaining - 2 * overhead)
    soft = min(0.6 * base, hard)
    return max(1, int(soft)), max(1, int(hard))


_TTEntry = tuple[int, int, int, int, "Move | None", int]


class _Stop(Exception):
    """Raised inside the tree when time, nodes or ``stop`` end the search."""


class _CaptureTables:
    """Per-geometry tables for the quiescence capture generator."""

    def __init__(self, variant: Variant) -> None:
        g = variant.geometry
        self.leaps: dict[int, tuple[tuple[int, ...], ...]] = {}
        self.slides: dict[int, tuple[tuple[tuple[int, ...], ...], ...]] = {}
        for kind, t in PIECE_TYPES.items():
            if kind == PAWN:
                continue
            if t.leaps:
                self.leaps[kind] = g.leaps(t.leaps)
            self.slides[kind] = tuple(g.rays(d) for d in t.slides)
        self.pawn_attacks = (g.leaps(((-1, 1), (1, 1))), g.leaps(((-1, -1), (1, -1))))
        self.forward = (g.files, -g.files)
        self.last_rank = (g.ranks - 1, 0)
        self.files = g.files
        self.values = [0] * PIECE_CODE_LIMIT
        for kind in variant.kinds | {KING}:
            v = material_value(variant, kind) if kind != KING else 20000
            self.values[make_piece(kind, WHITE)] = self.values[make_piece(kind, BLACK)] = v
        # Static exchange evaluation: from a target square, the rays with the kinds that
        # slide along them and the leap tables with the kinds that leap so (colourless).
        directions: dict[tuple[int, int], set[int]] = {}
        leap_sets: dict[tuple[tuple[int, int], ...], set[int]] = {}
        for kind, t in PIECE_TYPES.items():
            if kind == PAWN:
                continue
            for d in t.slides:
                directions.setdefault(d, set()).add(kind)
            if t.leaps:
                leap_sets.setdefault(tuple(sorted(t.leaps)), set()).add(kind)
        ray_tables = [(g.rays(d), frozenset(k)) for d, k in directions.items()]
        self.see_rays = tuple(
            tuple((rays[sq], kinds) for rays, kinds in ray_tables if rays[sq])
            for sq in range(g.size)
        )
        self.see_leaps = tuple((g.leaps(offsets), frozenset(k))
                               for offsets, k in leap_sets.items())


_capture_tables = per_variant(_CaptureTables)


def _least_attacker(board: list[int], t: _CaptureTables, sq: int, side: int) -> int:
    """The square of ``side``'s least valuable piece attacking ``sq`` (-1: none)."""
    values = t.values
    best_sq = -1
    best_v = 1 << 30
    pawn = make_piece(PAWN, side)
    kind_of = PIECE_KIND
    color_of = PIECE_COLOR
    for s in t.pawn_attacks[side ^ 1][sq]:
        if board[s] == pawn:
            return s
    for table, kinds in t.see_leaps:
        for s in table[sq]:
            p = board[s]
            if color_of[p] == side and kind_of[p] in kinds and values[p] < best_v:
                best_v = values[p]
                best_sq = s
    for ray, kinds in t.see_rays[sq]:
        for s in ray:
            p = board[s]
            if p:
                if color_of[p] == side and kind_of[p] in kinds and values[p] < best_v:
                    best_v = values[p]
                    best_sq = s
                break
    return best_sq


def see(pos: Position, move: Move) -> int:
    """Static exchange evaluation of a capture: the material the side to move wins (in
    centipawns) if both sides keep recapturing on the target square with their least
    valuable piece and may stop when it suits them.  X-rays are seen (a piece removed
    uncovers the slider behind it); pins and promotions on the way are not."""
    t = _capture_tables(pos.variant)
    values = t.values
    board = list(pos.board)
    to = move.to_square
    victim = board[to]
    if PIECE_COLOR[victim] == pos.turn:
        return 0  # castling or a Bishop Adjustment: nothing is taken
    gain = [values[victim] if victim else values[PAWN]]  # empty target: en passant
    if not victim:
        board[to - t.forward[pos.turn]] = 0
    attacker = values[board[move.from_square]]
    board[move.from_square] = 0
    side = pos.turn ^ 1
    while True:
        sq = _least_attacker(board, t, to, side)
        if sq < 0:
            break
        gain.append(attacker - gain[-1])
        attacker = values[board[sq]]
        board[sq] = 0
        side ^= 1
    while len(gain) > 1:
        last = gain.pop()
        gain[-1] = -max(-gain[-1], last)
    return gain[0]


_LMR = [[0] * 64 for _ in range(64)]
for _d in range(1, 64):
    for _i in range(1, 64):
        _LMR[_d][_i] = int(0.5 + math.log(_d) * math.log(_i) / 2.2)


def _late_move_reduction(depth: int, i: int, pv_node: bool) -> int:
    """Plies to take off the ``i``-th move's search (a late quiet move), from ``_LMR``; one
    fewer at a PV node, and never down to below depth 1."""
    reduction = _LMR[min(depth, 63)][min(i, 63)]
    if pv_node:
        reduction -= 1
    return max(0, min(reduction, depth - 2))


def _bound(score: int, alpha: int, beta: int) -> int:
    """What a node's best ``score`` is for the table, given the window it was searched
    with: a lower bound (it failed high), exact, or an upper bound (it failed low)."""
    if score >= beta:
        return _LOWER
    if score > alpha:
        return _EXACT
    return _UPPER


def _tt_cutoff(entry: _TTEntry, alpha: int, beta: int, ply: int) -> int | None:
    """The stored score of a deep enough ``entry`` if it settles the node in this window
    (mate scores brought back relative to the root), else None."""
    _, _, flag, score, _, _ = entry
    if score >= MATE_BOUND:
        score -= ply
    elif score <= -MATE_BOUND:
        score += ply
    if flag == _EXACT or (flag == _LOWER and score >= beta) or \
            (flag == _UPPER and score <= alpha):
        return score
    return None


class Searcher:
    """A reusable search with its transposition table, killers and history."""

    def __init__(self, hash_mb: int = 16, level: int = DEFAULT_LEVEL,
                 seed: int | None = None) -> None:
        self.set_hash(hash_mb)
        self.level = level
        self.rng = random.Random(seed)
        # False: this engine never plays a Bishop Adjustment itself (for measuring its worth).
        self.allow_adjustment = True
        self._root_color = WHITE
        self._stopped = False
        self._stop_event: threading.Event | None = None
        self._first_iteration = False
        self._node_limit = 0
        self._next_check = TIME_CHECK_NODES
        self._root_best: Move | None = None
        self._root_best_score = -INF
        self._root_scores: dict[Move, int] = {}
        self._iter_scores: dict[Move, int] = {}
        self.move_overhead_ms = MOVE_OVERHEAD_MS  # raised by the UCI layer as observed
        self.movetime_overhead_ms = MOVETIME_OVERHEAD_MS  # kept back from a movetime
        self.nodes = 0
        self.new_game()

    # ------------------------------------------------------------------ configuration
    def set_hash(self, hash_mb: int) -> None:
        """Size the table: an entry (a tuple in a list slot) costs about 200 bytes.  Two
        tables of the same power-of-two size, indexed by the low bits of the Zobrist key:
        one keeps the deepest result of its slot (replaced by an equal or deeper one, or by
        anything once it is from an older search), the other always takes the newest."""
        self.hash_mb = max(1, hash_mb)
        entries = self.hash_mb * 1_000_000 // 200
        size = 1 << max(10, (entries // 2).bit_length() - 1)
        self.tt_capacity = 2 * size
        self._tt_mask = size - 1
        self._tt_deep: list[_TTEntry | None] = [None] * size
        self._tt_recent: list[_TTEntry | None] = [None] * size
        self._tt_generation = 0

    def tt_probe(self, key: int) -> _TTEntry | None:
        """(key, depth, flag, score, move, generation) stored for ``key``, or None."""
        i = key & self._tt_mask
        e = self._tt_deep[i]
        if e is not None and e[0] == key:
            return e
        e = self._tt_recent[i]
        if e is not None and e[0] == key:
            return e
        return None

    def new_game(self) -> None:
        self.set_hash(self.hash_mb)
        self._eval_cache: dict[int, int] = {}
        # Keyed by piece code << 8 | target square (an int: no tuple to build per lookup).
        self.history: dict[int, int] = {}
        self.killers: list[list[Move | None]] = [[None, None] for _ in range(MAX_PLY + 2)]

    def stop(self) -> None:
        """Ask a running search to return as soon as possible (thread-safe)."""
        self._stopped = True

    # ------------------------------------------------------------------ entry point
    def search(
        self,
        pos: Position,
        limits: Limits | None = None,
        game_keys: Sequence[int] = (),
        on_info: Callable[[Info], None] | None = None,
        stop_event: threading.Event | None = None,
        exclude: Collection[Move] = (),
    ) -> Result:
        """Search ``pos`` within ``limits`` and return the best move found.

        ``game_keys`` are the Zobrist keys (``Position.zobrist``) of the earlier positions of
        the game, so the search scores a repetition as a draw.  ``on_info`` is called after
        every completed iteration, and once more at the end when a limit cut an iteration
        short.  ``stop_event`` (set from another thread) stops the search like
        :meth:`stop`, and is seen even when it was set before the search began.
        ``exclude`` leaves those root moves out (multi-PV: line k without the first k-1).

        ``stop`` is honoured once depth 1 is complete, so the move is always a searched one;
        a time or node limit may cut depth 1 short once a root move has its score."""
        limits = limits or Limits()
        self._stop_event = stop_event
        max_depth = self._begin_search(pos, limits, game_keys)
        pos = pos.copy(stack=False)
        # Material, placement and phase kept by push/pop (incremental evaluation).
        pos.track_weights(incremental_weights(pos.variant))
        self._root_color = pos.turn
        root_moves = self._legal(pos)
        if exclude:
            root_moves = [m for m in root_moves if m not in exclude]
        if not root_moves:
            return Result(None, -MATE if pos.is_check() else 0, 0, 0, [], 0)
        self._order(pos, root_moves, None, 0)
        best = root_moves[0]
        best_score = -INF
        pv: list[Move] = [best]
        depth_done = 0
        score = 0
        reported = -1  # nodes at the last info sent
        stable = 0  # iterations in a row that kept the best move
        for depth in range(1, max_depth + 1):
            self._begin_iteration(depth)
            try:
                score = self._root(pos, root_moves, depth, score)
            except _Stop:
                if depth == 1:
                    self._root_scores = self._iter_scores  # nothing complete: the part done
                if self._root_best is not None:
                    if depth == 1 or self._root_best != best:
                        pv = [self._root_best]
                    best = self._root_best
                    if depth == 1 or best_score == -INF:
                        best_score = self._root_best_score
                        depth_done = 1
                break
            depth_done = depth
            self._root_scores = self._iter_scores
            prev_score = best_score
            best_score = score
            pv = self._extract_pv(pos, root_moves)
            stable = stable + 1 if pv[0] == best else 0
            best = pv[0]
            if on_info is not None:
                reported = self.nodes
                on_info(Info(depth, self.seldepth, score, self.nodes, self._elapsed_ms(), pv))
            if self._enough(depth, score, prev_score, stable, len(root_moves), limits):
                break
        if self._margin and self._root_scores:
            best = self._choose_with_margin(best)
            if best != pv[0]:
                pv = [best]
        if best_score == -INF:
            best_score = score
        elapsed = self._elapsed_ms()
        if on_info is not None and reported != self.nodes:
            # The last word when a limit ended the search: what was spent and what is played.
            on_info(Info(max(depth_done, 1), self.seldepth, best_score, self.nodes, elapsed, pv))
        return Result(best, best_score, depth_done, self.nodes, pv, elapsed)

    def _begin_search(self, pos: Position, limits: Limits, game_keys: Sequence[int]) -> int:
        """Reset the counters, limits and per-search tables for a search of ``pos``; the
        deepest iteration the limits and the level allow."""
        level = LEVELS.get(self.level, LEVELS[DEFAULT_LEVEL])
        self._stopped = False
        self._tt_generation += 1
        self.nodes = 0
        self.seldepth = 0
        self._start = time.monotonic()
        self._soft, self._hard = self._time_budget(pos, limits)
        self._node_limit = limits.nodes or level.nodes
        if limits.nodes and level.nodes:
            self._node_limit = min(limits.nodes, level.nodes)
        self._next_check = min(TIME_CHECK_NODES, self._node_limit or TIME_CHECK_NODES)
        max_depth = limits.depth or MAX_PLY - 4
        if level.depth:
            max_depth = min(max_depth, level.depth)
        self._margin = level.margin
        # Root scores for the levels' choice: those of the last completed iteration (an
        # iteration cut short has scored some moves a ply deeper than the rest).
        self._root_scores = {}
        self._iter_scores = {}
        self._rep: dict[int, int] = {}
        for k in game_keys:
            self._rep[k] = self._rep.get(k, 0) + 1
        self.killers = [[None, None] for _ in range(MAX_PLY + 2)]
        # Age the history so old games do not dominate ordering.
        for hk in self.history:
            self.history[hk] //= 8
        return max_depth

    def _enough(self, depth: int, score: int, prev_score: int, stable: int, root_moves: int,
                limits: Limits) -> bool:
        """Whether to stop iterating after ``depth``: a forced mate found, a single legal
        move, or the (soft) time spent."""
        if abs(score) >= MATE_BOUND and depth > 2 and not limits.infinite and \
                MATE - abs(score) <= depth:
            return True  # a forced mate found with a full-width search cannot get better
        if root_moves == 1 and self._soft:
            return True
        return bool(self._soft) and self._elapsed_ms() >= self._soft_limit(depth, stable,
                                                                           prev_score, score)

    # ------------------------------------------------------------------ time
    def _begin_iteration(self, depth: int) -> None:
        # A method of its own: after an assignment in search() mypy would take
        # _root_best to stay None there, and mypyc compiles that belief into a type check.
        self._root_best = None
        self._root_best_score = -INF
        self._first_iteration = depth == 1
        self._iter_scores = {}

    def _time_budget(self, pos: Position, limits: Limits) -> tuple[int, int]:
        """(soft, hard) limits in milliseconds; 0 means none.  Soft ends the iterations,
        hard aborts the tree."""
        if limits.infinite:
            return 0, 0
        if limits.movetime:
            t = max(1, limits.movetime - max(0, self.movetime_overhead_ms))
            return t, t
        overhead = max(MOVE_OVERHEAD_MS, self.move_overhead_ms)
        white = pos.turn == WHITE
        remaining = limits.wtime if white else limits.btime
        inc = limits.winc if white else limits.binc
        if remaining is None:
            # Only the other side's clock was given: a GUI's slip, but a clock all the same;
            # think as if it were ours rather than search until a stop that never comes.
            remaining = limits.btime if white else limits.wtime
            inc = inc or (limits.binc if white else limits.winc)
            if remaining is None:
                return 0, 0
        return time_budget(remaining, inc, limits.movestogo, overhead)

    def _soft_limit(self, depth: int, stable: int, prev_score: int, score: int) -> float:
        """When to stop iterating.  On a clock the soft limit stretches while the best move
        keeps changing or the score falls, and shrinks once the move has held for a few
        iterations (a fixed ``movetime`` is used whole)."""
        soft = float(self._soft)
        if self._soft == self._hard or depth < 4:
            return soft
        if stable == 0:
            factor = 1.6
        elif stable >= 3:
            factor = 0.6
        elif stable == 2:
            factor = 0.8
        else:
            factor = 1.0
        if prev_score > -INF and score < prev_score - 30:
            factor = max(factor, 1.4)
        return min(soft * factor, self._hard * 0.6)

    def _elapsed_ms(self) -> int:
        return int((time.monotonic() - self._start) * 1000)

    def _check_limits(self) -> None:
        """Called every TIME_CHECK_NODES nodes and exactly at the node limit."""
        self._next_check = self.nodes + TIME_CHECK_NODES
        limit = self._node_limit
        if limit and self._next_check > limit:
            self._next_check = limit if self.nodes < limit else self.nodes + 1
        # stop: depth 1 is completed first, so the move played has been searched.
        first = self._first_iteration
        ev = self._stop_event
        if (self._stopped or (ev is not None and ev.is_set())) and not first:
            raise _Stop
        if first and self._root_best is None:
            return  # time and nodes end depth 1 only once a root move has its score
        if limit and self.nodes >= limit:
            raise _Stop
        if self._hard and (time.monotonic() - self._start) * 1000 >= self._hard:
            raise _Stop

    # ------------------------------------------------------------------ root
    def _root(self, pos: Position, moves: list[Move], depth: int, prev: int) -> int:
        """Search the root moves; the best one so far goes first next time."""
        key = pos.zobrist
        entry = self.tt_probe(key)
        hash_move = entry[4] if entry else None
        self._order(pos, moves, hash_move, 0)
        full_window = bool(self._margin)
        alpha, beta = -INF, INF
        # Aspiration window around the previous score once it is stable enough.
        if depth >= 4 and not full_window and abs(prev) < MATE_BOUND:
            alpha, beta = prev - 40, prev + 40
        while True:
            score = self._root_window(pos, moves, depth, alpha, beta, key, full_window)
            if score <= alpha and alpha > -INF:
                alpha = -INF
                continue
            if score >= beta and beta < INF:
                beta = INF
                continue
            return score

    def _root_window(self, pos: Position, moves: list[Move], depth: int, alpha: int,
                     beta: int, key: int, full_window: bool) -> int:
        best_score = -INF
        best_move = moves[0]
        orig_alpha = alpha
        self._rep[key] = self._rep.get(key, 0) + 1
        try:
            for i, move in enumerate(moves):
                check = pos.gives_check(move)
                pos.push(move)
                try:
                    if full_window:
                        # Exact scores for every move that may be chosen: anything below
                        # best - margin is out of the running and may fail low.
                        floor = max(-INF, best_score - self._margin - 1)
                        score = -self._negamax(pos, depth - 1, -INF, -floor, 1, True, check)
                    elif i == 0:
                        score = -self._negamax(pos, depth - 1, -beta, -alpha, 1, True, check)
                    else:
                        score = -self._negamax(pos, depth - 1, -alpha - 1, -alpha, 1, True,
                                               check)
                        if alpha < score < beta:
                            score = -self._negamax(pos, depth - 1, -beta, -alpha, 1, True, check)
                finally:
                    pos.pop()
                if full_window:
                    self._iter_scores[move] = score
                if score > best_score:
                    best_score = score
                    best_move = move
                    if score > alpha:
                        alpha = score
                        self._root_best = move
                        self._root_best_score = score
                        if score >= beta:
                            break
        finally:
            self._rep[key] -= 1
        # Best move to the front for the next iteration, then the rest in their order.
        moves.remove(best_move)
        moves.insert(0, best_move)
        # A fail low (every move at or below alpha) is an upper bound, not an exact score.
        self._store(key, depth, _bound(best_score, orig_alpha, beta), best_score, best_move, 0)
        return best_score

    def _choose_with_margin(self, best: Move) -> Move:
        """Lower levels: a random move among those scored within the margin of the best."""
        scores = self._root_scores
        top = max(scores.values())
        if top >= MATE_BOUND:
            return best  # never miss a mate, even at level 1: it spoils the lesson
        candidates = [(m, s) for m, s in scores.items() if s >= top - self._margin]
        weights = [1.0 + (s - top + self._margin) / max(self._margin, 1) for _, s in candidates]
        return self.rng.choices([m for m, _ in candidates], weights=weights)[0]

    def _extract_pv(self, pos: Position, root_moves: list[Move]) -> list[Move]:
        pv = [root_moves[0]]
        pos.push(root_moves[0])
        seen = {pos.zobrist}
        try:
            while len(pv) < 32:
                entry = self.tt_probe(pos.zobrist)
                if entry is None or entry[4] is None:
                    break
                move = entry[4]
                if move not in pos.legal_moves():
                    break
                pos.push(move)
                pv.append(move)
                k = pos.zobrist
                if k in seen:
                    break
                seen.add(k)
        finally:
            for _ in pv:
                pos.pop()
        return pv

    # ------------------------------------------------------------------ tree
    def _store(self, key: int, depth: int, flag: int, score: int, move: Move | None,
               ply: int) -> None:
        # Mate scores are stored relative to this node, not the root.
        if score >= MATE_BOUND:
            score += ply
        elif score <= -MATE_BOUND:
            score -= ply
        i = key & self._tt_mask
        gen = self._tt_generation
        old = self._tt_deep[i]
        entry = (key, depth, flag, score, move, gen)
        if old is None or depth >= old[1] or old[5] != gen or \
                (old[0] == key and flag == _EXACT and old[2] != _EXACT):
            self._tt_deep[i] = entry
        else:
            self._tt_recent[i] = entry

    def _negamax(self, pos: Position, depth: int, alpha: int, beta: int, ply: int,
                 null_ok: bool, in_check: bool) -> int:
        """``in_check``: whether the side to move is in check (the parent knows it from
        ``gives_check``)."""
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._check_limits()
        if ply > self.seldepth:
            self.seldepth = ply
        pv_node = beta - alpha > 1

        if pos.halfmove_clock >= 100 and not (in_check and not pos.legal_moves()):
            return 0
        key = pos.zobrist
        if self._rep.get(key):
            return 0  # a repetition inside the tree or of the game: treat as a draw
        if is_drawish_material(pos):
            return 0
        # Mate distance pruning.
        alpha = max(alpha, -MATE + ply)
        beta = min(beta, MATE - ply - 1)
        if alpha >= beta:
            return alpha
        if ply >= MAX_PLY:
            return self._evaluate(pos)

        if in_check:
            depth += 1  # check extension
        if depth <= 0:
            return self._quiesce(pos, alpha, beta, ply, in_check)

        entry = self.tt_probe(key)
        hash_move = None
        if entry is not None:
            hash_move = entry[4]
            if entry[1] >= depth and not pv_node:
                cut = _tt_cutoff(entry, alpha, beta, ply)
                if cut is not None:
                    return cut

        static = -INF if in_check else self._evaluate(pos)
        if not pv_node and not in_check and abs(beta) < MATE_BOUND:
            cut = self._prune_before_moves(pos, key, depth, beta, ply, static, null_ok)
            if cut is not None:
                return cut
        return self._search_moves(pos, key, depth, alpha, beta, ply, in_check, pv_node, static,
                                  hash_move)

    def _search_moves(self, pos: Position, key: int, depth: int, alpha: int, beta: int,
                      ply: int, in_check: bool, pv_node: bool, static: int,
                      hash_move: Move | None) -> int:
        """The moves of a node the table and the pruning did not settle, best first, with
        futility and late-move pruning and reductions; the result goes to the table.
        (``pv_node`` is the window's before mate-distance pruning narrowed it.)"""
        board = pos.board
        us = pos.turn
        them = us ^ 1
        moves: Iterable[Move]
        if hash_move is not None and self.allow_adjustment and \
                PIECE_COLOR[board[hash_move.from_square]] == us:
            # Staged: the hash move (legal here, being stored for this very key) is tried
            # before the other moves are generated and ordered, which a cut-off spares.
            moves = self._after_hash_move(pos, hash_move, ply)
        else:
            generated = self._legal(pos)
            if not generated:
                return -MATE + ply if in_check else 0
            self._order(pos, generated, hash_move, ply)
            moves = generated
        best_score = -INF
        best_move: Move | None = None
        orig_alpha = alpha
        killers = self.killers[ply]
        quiet_tried: list[Move] = []
        futile = (not pv_node and not in_check and depth < len(FUTILITY_MARGIN)
                  and abs(alpha) < MATE_BOUND and static + FUTILITY_MARGIN[depth] <= alpha)
        self._rep[key] = self._rep.get(key, 0) + 1
        try:
            for i, move in enumerate(moves):
                target = board[move.to_square]
                quiet = not move.promotion and PIECE_COLOR[target] != them and not (
                    PIECE_KIND[board[move.from_square]] == PAWN
                    and move.to_square == pos.ep_square
                )
                gives_check = pos.gives_check(move)
                if quiet and not gives_check and best_move is not None and \
                        move != hash_move and (futile or (
                            not pv_node and depth < len(LATE_MOVE_COUNT)
                            and len(quiet_tried) >= LATE_MOVE_COUNT[depth])):
                    continue  # futility or late-move pruning, decided before playing it
                reduction = 0
                if quiet and depth >= 3 and i >= 3 and not in_check and \
                        not gives_check and move not in killers:
                    reduction = _late_move_reduction(depth, i, pv_node)
                score = self._search_move(pos, move, i == 0, depth, alpha, beta, ply,
                                          reduction, gives_check)
                if score > best_score:
                    best_score = score
                    best_move = move
                    if score > alpha:
                        alpha = score
                        if score >= beta:
                            if quiet:
                                self._reward(pos, move, depth, ply, quiet_tried)
                            break
                if quiet:
                    quiet_tried.append(move)
        finally:
            self._rep[key] -= 1
        if best_move is None:
            # Every move was pruned as futile: the static score stands in.
            return static if static > -INF else alpha
        self._store(key, depth, _bound(best_score, orig_alpha, beta), best_score, best_move,
                    ply)
        return best_score

    def _prune_before_moves(self, pos: Position, key: int, depth: int, beta: int, ply: int,
                            static: int, null_ok: bool) -> int | None:
        """The score of a non-PV node out of check that need not search its moves: reverse
        futility near the leaves, then the null move; None when it must."""
        # Reverse futility: far above beta near the leaves, assume it holds.
        if depth <= 3 and static - REVERSE_FUTILITY_MARGIN * depth >= beta:
            return static
        # Null move: give the opponent a free move; if we still beat beta, prune.
        if null_ok and depth >= NULL_MIN_DEPTH and static >= beta and self._has_pieces(pos):
            r = 2 + depth // 4
            pos.push_null()
            self._rep[key] = self._rep.get(key, 0) + 1
            try:
                score = -self._negamax(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, False,
                                       False)
            finally:
                self._rep[key] -= 1
                pos.pop()
            if score >= beta:
                return beta if score >= MATE_BOUND else score
        return None

    def _search_move(self, pos: Position, move: Move, first: bool, depth: int, alpha: int,
                     beta: int, ply: int, reduction: int, gives_check: bool) -> int:
        """The score of ``move`` (principal variation search): the first move with the whole
        window; the others with a null window, ``reduction`` plies shallower, searched again
        at full depth when they beat alpha and with the whole window when inside it."""
        pos.push(move)
        try:
            if first:
                return -self._negamax(pos, depth - 1, -beta, -alpha, ply + 1, True, gives_check)
            score = -self._negamax(pos, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1,
                                   True, gives_check)
            if reduction and score > alpha:
                score = -self._negamax(pos, depth - 1, -alpha - 1, -alpha, ply + 1, True,
                                       gives_check)
            if alpha < score < beta:
                score = -self._negamax(pos, depth - 1, -beta, -alpha, ply + 1, True, gives_check)
            return score
        finally:
            pos.pop()

    def _after_hash_move(self, pos: Position, hash_move: Move, ply: int) -> Iterator[Move]:
        """The hash move, then (only if asked for) the other legal moves in order."""
        yield hash_move
        moves = self._legal(pos)
        self._order(pos, moves, hash_move, ply)
        for move in moves:
            if move != hash_move:
                yield move

    def _evaluate(self, pos: Position) -> int:
        cache = self._eval_cache
        score = cache.get(pos.zobrist)
        if score is None:
            if len(cache) >= EVAL_CACHE_ENTRIES:
                cache.clear()
            score = cache[pos.zobrist] = endgame.adjust(pos, evaluate(pos))
        return score

    def _legal(self, pos: Position) -> list[Move]:
        moves = pos.legal_moves()
        if not self.allow_adjustment and pos.turn == self._root_color and pos.adjust_rights:
            kept = [m for m in moves if not pos.is_adjustment(m)]
            # With nothing but adjustments left the position is not lost: play one anyway.
            return kept or moves
        return moves

    def _reward(self, pos: Position, move: Move, depth: int, ply: int,
                tried: list[Move]) -> None:
        killers = self.killers[ply]
        if killers[0] != move:
            killers[1] = killers[0]
            killers[0] = move
        board = pos.board
        h = self.history
        bonus = depth * depth
        k = board[move.from_square] << 8 | move.to_square
        h[k] = min(h.get(k, 0) + bonus, 1_000_000)
        for m in tried:
            k = board[m.from_square] << 8 | m.to_square
            h[k] = h.get(k, 0) - bonus

    @staticmethod
    def _has_pieces(pos: Position) -> bool:
        """Whether the side to move has a piece besides pawns and king (zugzwang guard)."""
        board = pos.board
        return any(PIECE_KIND[board[sq]] not in (PAWN, KING) for sq in pos.piece_squares(pos.turn))

    def _order(self, pos: Position, moves: list[Move], hash_move: Move | None,
               ply: int) -> None:
        board = pos.board
        us = pos.turn
        them = us ^ 1
        values = _capture_tables(pos.variant).values
        killers = self.killers[ply]
        history = self.history
        ep = pos.ep_square

        # Every key is distinct: the move's squares break ties, so the order (and the tree)
        # does not depend on the order the core's square sets happen to list the pieces in,
        # which any push and pop may change.
        def score(m: Move) -> int:
            frm, to, promotion = m
            tie = frm << 12 | to << 4 | promotion
            if m == hash_move:
                return 100_000_000 << 20 | tie
            p = board[frm]
            q = board[to]
            if PIECE_COLOR[q] == them:
                if values[p] > values[q] and not promotion:
                    loss = see(pos, m)
                    if loss < 0:
                        # A losing capture: after the quiet moves, the smallest loss first.
                        return (-2_000_000 + loss) << 20 | tie
                s = 10_000_000 + values[q] * 16 - values[p] // 16
                if promotion:
                    s += values[promotion]
                return s << 20 | tie
            if promotion:
                return (10_000_000 + values[promotion] * 16 if promotion == QUEEN
                        else -1_000_000) << 20 | tie
            if to == ep and PIECE_KIND[p] == PAWN:
                return (10_000_000 + values[PAWN] * 15) << 20 | tie
            if m == killers[0]:
                return 9_000_000 << 20 | tie
            if m == killers[1]:
                return 8_000_000 << 20 | tie
            if q:  # castling or a Bishop Adjustment: try early among the quiet moves
                return 7_000_000 << 20 | tie
            h = history.get(p << 8 | to, 0)
            return (h if h > -1_000_000 else -1_000_000) << 20 | tie

        moves.sort(key=score, reverse=True)

    # ------------------------------------------------------------------ quiescence
    def _quiesce(self, pos: Position, alpha: int, beta: int, ply: int, in_check: bool) -> int:
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._check_limits()
        if ply > self.seldepth:
            self.seldepth = ply
        if ply >= MAX_PLY:
            return self._evaluate(pos)
        us = pos.turn
        them = us ^ 1
        if in_check:
            return self._evasions(pos, alpha, beta, ply)
        stand = self._evaluate(pos)
        if stand >= beta:
            return stand
        if stand > alpha:
            alpha = stand
        t = _capture_tables(pos.variant)
        values = t.values
        board = pos.board
        for victim_value, _, move in self._captures(pos, t):
            if stand + victim_value + QS_DELTA <= alpha and not move.promotion:
                continue
            # A capture by a piece worth more than its victim may lose material: keep it
            # only when the static exchange does not (SEE pruning).
            if values[board[move.from_square]] > victim_value and not move.promotion and \
                    see(pos, move) < 0:
                continue
            check = pos.gives_check(move)
            pos.push(move)
            if pos.is_attacked(pos.kings[us], them):
                pos.pop()
                continue
            try:
                score = -self._quiesce(pos, -beta, -alpha, ply + 1, check)
            finally:
                pos.pop()
            if score > alpha:
                alpha = score
                if score >= beta:
                    return score
        return alpha

    def _evasions(self, pos: Position, alpha: int, beta: int, ply: int) -> int:
        """Quiescence in check: no standing pat; every evasion is tried (a mate is seen)."""
        moves = pos.legal_moves()
        if not moves:
            return -MATE + ply
        key = pos.zobrist
        if self._rep.get(key):
            return 0
        self._order(pos, moves, None, ply)
        best = -INF
        self._rep[key] = self._rep.get(key, 0) + 1
        try:
            for move in moves:
                check = pos.gives_check(move)
                pos.push(move)
                try:
                    score = -self._quiesce(pos, -beta, -alpha, ply + 1, check)
                finally:
                    pos.pop()
                if score > best:
                    best = score
                    if score > alpha:
                        alpha = score
                        if score >= beta:
                            break
        finally:
            self._rep[key] -= 1
        return best

    @staticmethod
    def _captures(pos: Position, t: _CaptureTables) -> list[tuple[int, int, Move]]:
        """Pseudo-legal captures and queen promotions, most valuable victim first."""
        board = pos.board
        us = pos.turn
        them = us ^ 1
        color_of = PIECE_COLOR
        values = t.values
        out: list[tuple[int, int, Move]] = []
        files = t.files
        last = t.last_rank[us]
        fwd = t.forward[us]
        for sq in pos.piece_squares(us):
            p = board[sq]
            kind = PIECE_KIND[p]
            if kind == PAWN:
                promo = QUEEN if (sq + fwd) // files == last else 0
                for s in t.pawn_attacks[us][sq]:
                    q = board[s]
                    if color_of[q] == them:
                        out.append((values[q] + (values[QUEEN] if promo else 0),
                                    -values[p], Move(sq, s, promo)))
                if promo and not board[sq + fwd]:
                    out.append((values[QUEEN], -values[p], Move(sq, sq + fwd, promo)))
                continue
            leaps = t.leaps.get(kind)
            if leaps is not None:
                for s in leaps[sq]:
                    q = board[s]
                    if color_of[q] == them:
                        out.append((values[q], -values[p], Move(sq, s)))
            for rays in t.slides[kind]:
                for s in rays[sq]:
                    q = board[s]
                    if q:
                        if color_of[q] == them:
                            out.append((values[q], -values[p], Move(sq, s)))
                        break
        out.sort(reverse=True)  # the move itself breaks ties (see _order)
        return out


def format_score(score: int) -> str:
    """UCI score text: ``cp N`` or ``mate N``."""
    if score >= MATE_BOUND:
        return f"mate {(MATE - score + 1) // 2}"
    if score <= -MATE_BOUND:
        return f"mate {-((MATE + score) // 2)}"
    return f"cp {score}"
