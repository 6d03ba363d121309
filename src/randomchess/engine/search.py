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
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

from randomchess.engine.evaluate import evaluate, is_drawish_material, material_value
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

MATE = 30000
MATE_BOUND = MATE - 1000  # scores beyond this are mates
INF = 32000
MAX_PLY = 100

# TT bound flags
_EXACT, _LOWER, _UPPER = 0, 1, 2

# Pruning margins (centipawns) and reductions, gathered here to tune.
REVERSE_FUTILITY_MARGIN = 110  # per ply of remaining depth, depth <= 3
FUTILITY_MARGIN = (0, 150, 300)  # by depth, for quiet moves at frontier nodes
QS_DELTA = 200  # quiescence delta pruning
NULL_MIN_DEPTH = 3
LATE_MOVE_COUNT = (0, 6, 12, 20)  # quiet moves tried at depth 1..3 in non-PV nodes
TIME_CHECK_NODES = 256
# Static scores kept by Zobrist key: iterative deepening and quiescence meet the same
# positions again and again, and the evaluation is more than half of a node's time.
EVAL_CACHE_ENTRIES = 1 << 18
MOVE_OVERHEAD_MS = 40  # process and pipe latency allowed for per move


@dataclass(frozen=True)
class Level:
    """A playing level: how deep it looks and how far from the best move it may stray."""

    depth: int  # iteration limit (0 = none)
    nodes: int  # node limit per move (0 = none)
    margin: int  # chooses at random among root moves within this many centipawns of the best
    description: str


# Levels 1-8 (documented in docs/engine.md).  Levels below 8 score every root move with a
# full window so they can choose among near-best moves; level 8 plays the best move found.
LEVELS: dict[int, Level] = {
    1: Level(1, 2_000, 400, "beginner: one ply, often misses what it hangs"),
    2: Level(1, 4_000, 200, "novice: one ply, fewer blunders"),
    3: Level(2, 8_000, 120, "casual: two plies"),
    4: Level(3, 20_000, 70, "club: three plies, small inaccuracies"),
    5: Level(4, 60_000, 35, "strong club: four plies"),
    6: Level(5, 150_000, 15, "advanced: five plies, nearly exact"),
    7: Level(8, 400_000, 0, "expert: eight plies at most"),
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


@cache
def _capture_tables(variant: Variant) -> _CaptureTables:
    return _CaptureTables(variant)


_LMR = [[0] * 64 for _ in range(64)]
for _d in range(1, 64):
    for _i in range(1, 64):
        _LMR[_d][_i] = int(0.5 + math.log(_d) * math.log(_i) / 2.2)


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
        self._first_iteration = False
        self.nodes = 0
        self.new_game()

    # ------------------------------------------------------------------ configuration
    def set_hash(self, hash_mb: int) -> None:
        """Size the table: a Python dict entry costs about 200 bytes."""
        self.tt_capacity = max(1, hash_mb) * 1_000_000 // 200
        self.tt: dict[int, tuple[int, int, int, Move | None]] = {}

    def new_game(self) -> None:
        self.tt.clear()
        self._eval_cache: dict[int, int] = {}
        self.history: dict[tuple[int, int], int] = {}
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
    ) -> Result:
        """Search ``pos`` within ``limits`` and return the best move found.

        ``game_keys`` are the Zobrist keys (``Position.zobrist``) of the earlier positions of
        the game, so the search scores a repetition as a draw.  ``on_info`` is called after
        every completed iteration."""
        limits = limits or Limits()
        level = LEVELS.get(self.level, LEVELS[DEFAULT_LEVEL])
        self._stopped = False
        self.nodes = 0
        self.seldepth = 0
        self._start = time.monotonic()
        self._soft, self._hard = self._time_budget(pos, limits)
        self._node_limit = limits.nodes or level.nodes
        if limits.nodes and level.nodes:
            self._node_limit = min(limits.nodes, level.nodes)
        max_depth = limits.depth or MAX_PLY - 4
        if level.depth:
            max_depth = min(max_depth, level.depth)
        self._margin = level.margin
        pos = pos.copy(stack=False)
        self._rep: dict[int, int] = {}
        for k in game_keys:
            self._rep[k] = self._rep.get(k, 0) + 1
        self.killers = [[None, None] for _ in range(MAX_PLY + 2)]
        # Age the history so old games do not dominate ordering.
        for hk in self.history:
            self.history[hk] //= 8

        self._root_color = pos.turn
        root_moves = self._legal(pos)
        if not root_moves:
            return Result(None, -MATE if pos.is_check() else 0, 0, 0, [], 0)
        self._root_scores: dict[Move, int] = {}
        best = root_moves[0]
        best_score = -INF
        pv: list[Move] = [best]
        depth_done = 0
        score = 0
        for depth in range(1, max_depth + 1):
            self._root_best: Move | None = None
            self._first_iteration = depth == 1
            try:
                score = self._root(pos, root_moves, depth, score)
            except _Stop:
                if self._root_best is not None and depth > 1:
                    best = self._root_best
                    pv = [best]
                break
            depth_done = depth
            best_score = score
            pv = self._extract_pv(pos, root_moves)
            best = pv[0]
            if on_info is not None:
                on_info(Info(depth, self.seldepth, score, self.nodes, self._elapsed_ms(), pv))
            if abs(score) >= MATE_BOUND and depth > 2 and not limits.infinite and \
                    MATE - abs(score) <= depth:
                break  # a forced mate found with a full-width search cannot get better
            if len(root_moves) == 1 and self._soft:
                break
            if self._soft and self._elapsed_ms() >= self._soft:
                break
        if self._margin and self._root_scores:
            best = self._choose_with_margin(best)
            if best != pv[0]:
                pv = [best]
        if best_score == -INF:
            best_score = score
        return Result(best, best_score, depth_done, self.nodes, pv, self._elapsed_ms())

    # ------------------------------------------------------------------ time
    def _time_budget(self, pos: Position, limits: Limits) -> tuple[int, int]:
        """(soft, hard) limits in milliseconds; 0 means none.  Soft ends the iterations,
        hard aborts the tree."""
        if limits.infinite:
            return 0, 0
        if limits.movetime:
            t = max(1, limits.movetime - MOVE_OVERHEAD_MS)
            return t, t
        remaining = limits.wtime if pos.turn == WHITE else limits.btime
        if remaining is None:
            return 0, 0
        inc = limits.winc if pos.turn == WHITE else limits.binc
        moves_left = limits.movestogo if limits.movestogo else 30
        usable = max(1, remaining - MOVE_OVERHEAD_MS)
        base = usable / moves_left + inc * 0.8
        soft = min(base * 0.8, usable * 0.25)
        hard = min(base * 2.5, usable * 0.5)
        return max(1, int(soft)), max(1, int(hard))

    def _elapsed_ms(self) -> int:
        return int((time.monotonic() - self._start) * 1000)

    def _check_limits(self) -> None:
        if self._stopped:
            raise _Stop
        if self._first_iteration:
            return  # always finish depth 1, so even 1 ms yields a searched move
        if self._node_limit and self.nodes >= self._node_limit:
            raise _Stop
        if self._hard and (time.monotonic() - self._start) * 1000 >= self._hard:
            raise _Stop

    # ------------------------------------------------------------------ root
    def _root(self, pos: Position, moves: list[Move], depth: int, prev: int) -> int:
        """Search the root moves; the best one so far goes first next time."""
        key = pos.zobrist
        entry = self.tt.get(key)
        hash_move = entry[3] if entry else None
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
        self._rep[key] = self._rep.get(key, 0) + 1
        try:
            for i, move in enumerate(moves):
                pos.push(move)
                try:
                    if full_window:
                        # Exact scores for every move that may be chosen: anything below
                        # best - margin is out of the running and may fail low.
                        floor = max(-INF, best_score - self._margin - 1)
                        score = -self._negamax(pos, depth - 1, -INF, -floor, 1, True)
                    elif i == 0:
                        score = -self._negamax(pos, depth - 1, -beta, -alpha, 1, True)
                    else:
                        score = -self._negamax(pos, depth - 1, -alpha - 1, -alpha, 1, True)
                        if alpha < score < beta:
                            score = -self._negamax(pos, depth - 1, -beta, -alpha, 1, True)
                finally:
                    pos.pop()
                if full_window:
                    self._root_scores[move] = score
                if score > best_score:
                    best_score = score
                    best_move = move
                    if score > alpha:
                        alpha = score
                        self._root_best = move
                        if score >= beta:
                            break
        finally:
            self._rep[key] -= 1
        # Best move to the front for the next iteration, then the rest in their order.
        moves.remove(best_move)
        moves.insert(0, best_move)
        flag = _EXACT if best_score < beta else _LOWER
        self._store(key, depth, flag, best_score, best_move, 0)
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
                entry = self.tt.get(pos.zobrist)
                if entry is None or entry[3] is None:
                    break
                move = entry[3]
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
        tt = self.tt
        old = tt.get(key)
        if old is not None and old[0] > depth and flag != _EXACT:
            return
        if old is None and len(tt) >= self.tt_capacity:
            tt.clear()  # simple and cheap; the next iteration refills what matters
        tt[key] = (depth, flag, score, move)

    def _negamax(self, pos: Position, depth: int, alpha: int, beta: int, ply: int,
                 null_ok: bool) -> int:
        self.nodes += 1
        if self.nodes % TIME_CHECK_NODES == 0:
            self._check_limits()
        if ply > self.seldepth:
            self.seldepth = ply
        pv_node = beta - alpha > 1
        in_check = pos.is_check()

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
            return self._quiesce(pos, alpha, beta, ply)

        entry = self.tt.get(key)
        hash_move = None
        if entry is not None:
            e_depth, e_flag, e_score, hash_move = entry
            if e_depth >= depth and not pv_node:
                if e_score >= MATE_BOUND:
                    e_score -= ply
                elif e_score <= -MATE_BOUND:
                    e_score += ply
                if e_flag == _EXACT or (e_flag == _LOWER and e_score >= beta) or \
                        (e_flag == _UPPER and e_score <= alpha):
                    return e_score

        static = -INF if in_check else self._evaluate(pos)
        if not pv_node and not in_check and abs(beta) < MATE_BOUND:
            # Reverse futility: far above beta near the leaves, assume it holds.
            if depth <= 3 and static - REVERSE_FUTILITY_MARGIN * depth >= beta:
                return static
            # Null move: give the opponent a free move; if we still beat beta, prune.
            if null_ok and depth >= NULL_MIN_DEPTH and static >= beta and \
                    self._has_pieces(pos):
                r = 2 + depth // 4
                pos.push_null()
                self._rep[key] = self._rep.get(key, 0) + 1
                try:
                    score = -self._negamax(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, False)
                finally:
                    self._rep[key] -= 1
                    pos.pop()
                if score >= beta:
                    return beta if score >= MATE_BOUND else score

        moves = self._legal(pos)
        if not moves:
            return -MATE + ply if in_check else 0
        self._order(pos, moves, hash_move, ply)

        board = pos.board
        us = pos.turn
        them = us ^ 1
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
                pos.push(move)
                gives_check = pos.is_check()
                if quiet and not gives_check and best_move is not None and \
                        move != hash_move:
                    if futile:
                        pos.pop()
                        continue
                    if not pv_node and depth < len(LATE_MOVE_COUNT) and \
                            len(quiet_tried) >= LATE_MOVE_COUNT[depth]:
                        pos.pop()
                        continue
                try:
                    if i == 0:
                        score = -self._negamax(pos, depth - 1, -beta, -alpha, ply + 1, True)
                    else:
                        reduction = 0
                        if quiet and depth >= 3 and i >= 3 and not in_check and \
                                not gives_check and move not in killers:
                            reduction = _LMR[min(depth, 63)][min(i, 63)]
                            if pv_node:
                                reduction -= 1
                            reduction = max(0, min(reduction, depth - 2))
                        score = -self._negamax(pos, depth - 1 - reduction, -alpha - 1, -alpha,
                                               ply + 1, True)
                        if reduction and score > alpha:
                            score = -self._negamax(pos, depth - 1, -alpha - 1, -alpha,
                                                   ply + 1, True)
                        if alpha < score < beta:
                            score = -self._negamax(pos, depth - 1, -beta, -alpha, ply + 1, True)
                finally:
                    pos.pop()
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
        if best_score >= beta:
            flag = _LOWER
        elif best_score > orig_alpha:
            flag = _EXACT
        else:
            flag = _UPPER
        self._store(key, depth, flag, best_score, best_move, ply)
        return best_score

    def _evaluate(self, pos: Position) -> int:
        cache = self._eval_cache
        score = cache.get(pos.zobrist)
        if score is None:
            if len(cache) >= EVAL_CACHE_ENTRIES:
                cache.clear()
            score = cache[pos.zobrist] = evaluate(pos)
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
        k = (board[move.from_square], move.to_square)
        h[k] = min(h.get(k, 0) + bonus, 1_000_000)
        for m in tried:
            k = (board[m.from_square], m.to_square)
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

        def score(m: Move) -> int:
            if m == hash_move:
                return 100_000_000
            p = board[m.from_square]
            q = board[m.to_square]
            if PIECE_COLOR[q] == them:
                s = 10_000_000 + values[q] * 16 - values[p] // 16
                if m.promotion:
                    s += values[m.promotion]
                return s
            if m.promotion:
                return 10_000_000 + values[m.promotion] * 16 if m.promotion == QUEEN \
                    else -1_000_000
            if PIECE_KIND[p] == PAWN and m.to_square == ep:
                return 10_000_000 + values[PAWN] * 15
            if m == killers[0]:
                return 9_000_000
            if m == killers[1]:
                return 8_000_000
            if q:  # castling or a Bishop Adjustment: try early among the quiet moves
                return 7_000_000
            return history.get((p, m.to_square), 0)

        moves.sort(key=score, reverse=True)

    # ------------------------------------------------------------------ quiescence
    def _quiesce(self, pos: Position, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes % TIME_CHECK_NODES == 0:
            self._check_limits()
        if ply > self.seldepth:
            self.seldepth = ply
        stand = self._evaluate(pos)
        if stand >= beta or ply >= MAX_PLY:
            return stand
        if stand > alpha:
            alpha = stand
        t = _capture_tables(pos.variant)
        us = pos.turn
        them = us ^ 1
        for victim_value, move in self._captures(pos, t):
            if stand + victim_value + QS_DELTA <= alpha and not move.promotion:
                continue
            pos.push(move)
            if pos.is_attacked(pos.kings[us], them):
                pos.pop()
                continue
            try:
                score = -self._quiesce(pos, -beta, -alpha, ply + 1)
            finally:
                pos.pop()
            if score > alpha:
                alpha = score
                if score >= beta:
                    return score
        return alpha

    @staticmethod
    def _captures(pos: Position, t: _CaptureTables) -> list[tuple[int, Move]]:
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
        out.sort(key=lambda x: (x[0], x[1]), reverse=True)
        return [(v, m) for v, _, m in out]


def format_score(score: int) -> str:
    """UCI score text: ``cp N`` or ``mate N``."""
    if score >= MATE_BOUND:
        return f"mate {(MATE - score + 1) // 2}"
    if score <= -MATE_BOUND:
        return f"mate {-((MATE + score) // 2)}"
    return f"cp {score}"
