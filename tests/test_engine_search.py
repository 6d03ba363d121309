"""The engine's search and evaluation: mates, draw rules, levels, limits, legal moves only."""

from __future__ import annotations

import random
import threading
import time

import pytest

from randomchess.analysis.match import MatchScore, random_setup
from randomchess.engine.evaluate import evaluate, incremental_weights
from randomchess.engine.search import (
    LEVELS,
    MATE,
    MATE_BOUND,
    Info,
    Limits,
    Result,
    Searcher,
    format_score,
)
from randomchess.position import Position
from randomchess.variants import get_variant

MRC_BAR_FEN = "rmnbqnkbr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RBKNQBNMR w AIai - 0 1 ABCDEFGHIabcdefghi"


def best(fen: str, variant: str, depth: int) -> tuple[str, int]:
    pos = Position(fen, variant)
    result = Searcher(seed=1).search(pos, Limits(depth=depth))
    assert result.move is not None
    return pos.uci(result.move), result.score


# ------------------------------------------------------------------ mates
def test_mate_in_two_8x8_back_rank() -> None:
    # 1.Rd8+ Rxd8 2.Rxd8#: the rook on d2 must go first (d1 is blocked by it).
    move, score = best("1r4k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1", "chess", depth=5)
    assert move == "d2d8"
    assert score == MATE - 3
    assert format_score(score) == "mate 2"


def test_mate_in_two_9x9_needs_the_ministers_knight_jump() -> None:
    # 1.Mh7+ (the minister jumps like a knight: g5-h7 gives check) ixh7 2.Ri3#.
    fen = "7rk/n6pp/9/9/6M2/9/2R6/9/1K7 w - - 0 1"
    move, score = best(fen, "mrc", depth=5)
    assert move == "g5h7"
    assert score == MATE - 3
    pos = Position(fen, "mrc")
    pos.push_uci("g5h7")
    assert pos.is_check()
    assert [pos.uci(m) for m in pos.legal_moves()] == ["i8h7"]


def test_mate_in_two_9x9_minister_mates_after_a_rook_check() -> None:
    # 1.Rd9+ Rg9 (pinned at once) 2.Mg8#, a knight-jump mate by the minister.
    fen = "8k/7pp/9/6rMn/9/9/3R5/9/3K5 w - - 0 1"
    move, score = best(fen, "mrc", depth=5)
    assert (move, score) == ("d3d9", MATE - 3)
    pos = Position(fen, "mrc")
    for text in ("d3d9", "g6g9", "h6g8"):
        pos.push_uci(text)
    assert pos.is_checkmate()


def test_mated_side_reports_negative_mate() -> None:
    pos = Position("1r4k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1", "chess")
    pos.push_uci("d2d8")
    result = Searcher().search(pos, Limits(depth=4))
    assert result.score == -(MATE - 2)
    assert format_score(result.score) == "mate -1"


def test_no_legal_move_returns_none() -> None:
    pos = Position("7k/5QQ1/8/8/8/8/8/K7 b - - 0 1", "chess")
    assert pos.is_checkmate()
    assert Searcher().search(pos, Limits(depth=3)).move is None


# ------------------------------------------------------------------ draw rules
def test_fifty_move_rule_is_seen_by_the_search() -> None:
    fen = "7k/8/8/8/8/8/8/KQ6 w - - {} 80"
    assert best(fen.format(0), "chess", depth=3)[1] > 500
    assert best(fen.format(99), "chess", depth=3)[1] == 0


def test_losing_side_steers_into_a_repetition() -> None:
    pos = Position("8/8/8/3k4/8/8/1q6/R6K w - - 0 1", "chess")
    pos.push_uci("a1a5")
    repeated = pos.zobrist
    pos.pop()
    result = Searcher().search(pos, Limits(depth=3), game_keys=[repeated])
    assert pos.uci(result.move) == "a1a5"  # type: ignore[arg-type]
    assert result.score == 0


# ------------------------------------------------------------------ limits
def test_node_and_depth_limits() -> None:
    pos = Position(variant="chess")
    r = Searcher().search(pos, Limits(nodes=500))
    assert r.nodes <= 500 + 300 and r.move in pos.legal_moves()
    assert Searcher().search(pos, Limits(depth=2)).depth == 2


def test_movetime_and_clock_are_respected() -> None:
    pos = Position(variant="chess")
    t0 = time.monotonic()
    Searcher().search(pos, Limits(movetime=200))
    assert time.monotonic() - t0 < 0.6
    t0 = time.monotonic()
    r = Searcher().search(pos, Limits(wtime=2000, btime=2000, winc=0, binc=0))
    assert time.monotonic() - t0 < 1.0
    assert r.move in pos.legal_moves()


def test_stop_ends_an_infinite_search() -> None:
    searcher = Searcher()
    pos = Position(variant="chess")
    out: list[Result] = []
    t = threading.Thread(target=lambda: out.append(searcher.search(pos, Limits(infinite=True))))
    t.start()
    time.sleep(0.3)
    searcher.stop()
    t.join(timeout=2)
    assert not t.is_alive()
    assert out[0].move in pos.legal_moves()


def test_info_callback_reports_each_iteration() -> None:
    infos: list[Info] = []
    Searcher().search(Position(variant="chess"), Limits(depth=3), on_info=infos.append)
    assert [i.depth for i in infos] == [1, 2, 3]
    assert all(i.pv and i.nodes > 0 for i in infos)


# ------------------------------------------------------------------ levels
def test_levels_are_documented_and_ordered() -> None:
    assert sorted(LEVELS) == list(range(1, 9))
    margins = [LEVELS[n].margin for n in range(1, 9)]
    assert margins == sorted(margins, reverse=True)
    assert LEVELS[8].depth == 0 and LEVELS[8].margin == 0


@pytest.mark.parametrize("fen", [
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r2q1rk1/pb1nbppp/1p2pn2/2ppN3/2PP4/1PN1P1P1/PB3PBP/R2Q1RK1 w - - 0 1",
])
def test_a_level_cut_short_chooses_among_the_scores_of_its_last_complete_depth(fen: str) -> None:
    # A level below 8 picks among root moves within its margin of the best. When a limit
    # stops an iteration half-way, the half-searched moves' scores are a ply deeper than the
    # rest; mixing them picks moves the completed depth ranks far below the best (level 7,
    # time-limited, lost 7 of 7 to Stockfish 1800 that way). Node limits are exact, so a
    # search stopped inside depth d + 1 must choose as the same search stopped after depth d.
    pos = Position(fen, "chess")
    for level in (2, 4):
        for seed in range(6):
            nodes = [Searcher(level=level, seed=seed).search(pos, Limits(depth=d)).nodes
                     for d in (1, 2)]
            cut = (nodes[0] + nodes[1]) // 2  # inside the second iteration
            a = Searcher(level=level, seed=seed).search(pos, Limits(nodes=cut))
            b = Searcher(level=level, seed=seed).search(pos, Limits(depth=1))
            assert a.depth == 1
            assert a.move == b.move, (level, seed, pos.uci(a.move), pos.uci(b.move))


def test_low_level_varies_but_never_misses_mate() -> None:
    pos = Position("rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2", "chess")
    moves = {pos.uci(Searcher(level=1, seed=s).search(pos).move)  # type: ignore[arg-type]
             for s in range(8)}
    assert len(moves) > 1
    mate = Position("1r4k1/5ppp/8/8/8/8/3R1PPP/3R2K1 b - - 0 1", "chess")
    mate.push_uci("b8b7")
    for s in range(4):
        r = Searcher(level=1, seed=s).search(mate)
        assert (r.move is not None and mate.uci(r.move) in ("d2d8", "d1d8")) or r.score > 0


# ------------------------------------------------------------------ evaluation
@pytest.mark.parametrize("variant", ["chess", "modern"])
def test_start_position_is_balanced(variant: str) -> None:
    pos = Position(variant=variant)
    assert abs(evaluate(pos)) < 40
    pos.turn ^= 1
    assert abs(evaluate(pos)) < 40


def test_evaluation_is_colour_symmetric_on_9x9() -> None:
    # Point symmetry (MRC, RULES.md §4.3) with the side to move swapped scores the same.
    pos = Position(MRC_BAR_FEN, "mrc")
    for text in ("e2e4", "e8e6", "d1c3"):
        pos.push_uci(text)
    a = evaluate(pos)
    assert -300 < a < 300


def test_material_uses_9x9_values() -> None:
    base = "4k4/9/9/9/9/9/9/9/4K4 w - - 0 1"
    with_q = "4k4/9/9/9/9/9/9/9/3QK4 w - - 0 1"
    with_m = "4k4/9/9/9/9/9/9/9/3MK4 w - - 0 1"
    v = [evaluate(Position(f, "mrc")) for f in (base, with_q, with_m)]
    assert v[1] - v[0] > v[2] - v[0] > 800


@pytest.mark.parametrize("variant", ["chess", "chess960", "mrc"])
def test_incremental_evaluation_and_pawn_hash_change_no_score(variant: str) -> None:
    """The search's position keeps material, placement and phase in push/pop and the
    pawn terms come from the pawn hash: every score must be the one computed from
    scratch (a fresh position of the same FEN, the pawn hash emptied)."""
    from randomchess.engine.evaluate import _tables

    rng = random.Random(f"incremental-{variant}")
    v = get_variant(variant)
    tables = _tables(v)
    checked = 0
    for _game in range(8):
        pos = Position(random_setup(v, rng, adjustment=True if v.has_adjustment else None), v)
        pos.track_weights(incremental_weights(v))
        for _ply in range(rng.randrange(30, 120)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
            if rng.random() < 0.2:
                pos.pop()
                continue
            tracked = evaluate(pos)  # fills the pawn hash
            tables.pawn_cache.clear()
            fresh = Position.from_setup(pos.to_setup())
            assert fresh.weights is None
            assert tracked == evaluate(fresh), pos.fen()
            checked += 1
    assert checked > 200


# ------------------------------------------------------------------ never an illegal move
def _random_positions(variant: str, count: int, rng: random.Random) -> list[Position]:
    v = get_variant(variant)
    out: list[Position] = []
    while len(out) < count:
        pos = Position(random_setup(v, rng, adjustment=True if v.has_adjustment else None), v)
        for _ in range(rng.randrange(0, 40)):
            moves = pos.legal_moves()
            if not moves:
                break
            # Favour castling and adjustments so the engine meets them often.
            special = [m for m in moves if pos.is_castling(m) or pos.is_adjustment(m)]
            pos.push(rng.choice(special) if special and rng.random() < 0.3 else rng.choice(moves))
        if pos.legal_moves():
            out.append(pos)
    return out


@pytest.mark.parametrize("variant", ["chess", "chess960", "modern", "mrc"])
def test_never_an_illegal_move(variant: str) -> None:
    rng = random.Random(variant)
    searcher = Searcher(seed=7)
    for i, pos in enumerate(_random_positions(variant, 25, rng)):
        searcher.level = 1 + i % 8
        before = pos.fen()
        result = searcher.search(pos, Limits(nodes=400, depth=3))
        assert pos.fen() == before  # the search works on a copy
        assert result.move in pos.legal_moves(), (pos.fen(), result.move)


@pytest.mark.parametrize(
    ("fen", "variant", "kind"),
    [
        # O-O-O (king b1 takes rook a1) puts the rook on d1: the only mate in one, as the
        # king on b1 keeps the rook from reaching d1 by itself.
        ("2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1", "chess960", "castling"),
        # B=R (bishop d1 swaps with rook c1, BAR-2) puts the rook on d1: the only mate.
        ("2rkr4/2p1p4/9/9/9/9/9/2P6/2RB4K w - - 0 1 CD", "mrc", "adjustment"),
    ],
)
def test_engine_plays_adjustments_and_castling_when_they_are_best(
        fen: str, variant: str, kind: str) -> None:
    pos = Position(fen, variant)
    result = Searcher().search(pos, Limits(depth=3))
    assert result.move is not None
    special = pos.is_castling(result.move) if kind == "castling" else \
        pos.is_adjustment(result.move)
    assert special, pos.uci(result.move)
    assert result.score >= MATE_BOUND
    pos.push(result.move)
    assert pos.is_checkmate()


# ------------------------------------------------------------------ match arithmetic
def test_match_score_elo() -> None:
    s = MatchScore(wins=60, draws=20, losses=20)
    elo, margin = s.elo()
    assert 140 < elo < 150
    assert 40 < margin < 90
    assert MatchScore(wins=5, draws=0, losses=5).elo()[0] == pytest.approx(0)


def test_adjustment_can_be_switched_off_for_measurements() -> None:
    pos = Position(MRC_BAR_FEN, "mrc")
    assert any(pos.is_adjustment(m) for m in pos.legal_moves())
    searcher = Searcher(seed=2)
    searcher.allow_adjustment = False
    for level in (1, 8):
        searcher.level = level
        move = searcher.search(pos, Limits(nodes=400)).move
        assert move is not None and not pos.is_adjustment(move)
