"""Game outcomes and draw claims under the FIDE Laws (RULES.md §1.4-1.7, D-16, D-22, D-24).

Every rule has a position that triggers it and one that nearly does."""

from __future__ import annotations

import random

import pytest

from randomchess.errors import IllegalMoveError
from randomchess.game import (
    Game,
    GameOverError,
    Outcome,
    Termination,
    _men,
    can_checkmate,
    is_dead_position,
)
from randomchess.pieces import BISHOP, BLACK, KNIGHT, WHITE
from randomchess.position import Position
from randomchess.variants import get_variant

KNIGHT_DANCE = ["Nf3", "Nf6", "Ng1", "Ng8"]


def play(game: Game, *sans: str) -> None:
    for text in sans:
        game.push_san(text)


def after(game: Game, text: str) -> Outcome | None:
    """The outcome after playing ``text``."""
    game.push_san(text)
    return game.outcome


# ---------------------------------------------------------------- §1.4 checkmate, stalemate
def test_checkmate_ends_the_game() -> None:
    game = Game()
    play(game, "f3", "e5", "g4")
    assert game.outcome is None
    out = game.push(game.position.parse_uci("d8h4"))
    assert out == Outcome(Termination.CHECKMATE, BLACK)
    assert game.result() == "0-1" and str(out) == "Black wins by checkmate"
    with pytest.raises(GameOverError):
        game.push_san("a3")
    assert game.legal_moves() == []


def test_check_with_an_escape_is_not_mate() -> None:
    game = Game()
    play(game, "f3", "e6", "Nc3")
    assert after(game, "Qh4+") is None  # g2-g3 blocks
    assert game.position.is_check()


def test_stalemate() -> None:
    game = Game("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1")
    assert after(game, "Qf7") == Outcome(Termination.STALEMATE, None)
    assert game.result() == "1/2-1/2"


def test_nearly_stalemate_black_pawn_can_move() -> None:
    game = Game("7k/8/6K1/8/8/8/p7/5Q2 w - - 0 1")
    assert after(game, "Qf7") is None


def test_start_position_already_over() -> None:
    assert Game("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").outcome == \
        Outcome(Termination.STALEMATE, None)
    assert Game("4k3/8/8/8/8/8/8/4K3 w - - 0 1").result() == "1/2-1/2"


# ---------------------------------------------------------------- §1.7 dead position
@pytest.mark.parametrize("fen", [
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",  # bare kings
    "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",  # a single knight
    "4k3/8/8/8/8/8/8/4KB2 w - - 0 1",  # K+B vs K
    "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",  # bishops of both sides on one colour
    "4k3/8/8/8/8/8/1B6/B3K3 w - - 0 1",  # ... however many
])
def test_dead_position_by_material(fen: str) -> None:
    pos = Position(fen)
    assert is_dead_position(pos)
    assert not can_checkmate(pos, WHITE) and not can_checkmate(pos, BLACK)
    assert Game(fen).outcome == Outcome(Termination.DEAD_POSITION, None)


@pytest.mark.parametrize("fen", [
    "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1",  # K+N+N vs K: a mate exists (§1.7)
    "4kn2/8/8/8/8/8/8/4KB2 w - - 0 1",  # K+B vs K+N
    "4kn2/8/8/8/8/8/8/4KN2 w - - 0 1",  # K+N vs K+N
    "4kb2/8/8/8/8/8/8/4KB2 w - - 0 1",  # opposite-coloured bishops
    "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",  # a pawn
    "4k3/8/8/8/8/8/8/4KR2 w - - 0 1",  # a rook
])
def test_nearly_dead_positions_go_on(fen: str) -> None:
    assert not is_dead_position(Position(fen))
    assert Game(fen).outcome is None


def _dead_by_the_list(pos: Position) -> bool:
    """RULES.md §1.7 read off the list of men, without is_dead_position's count of codes."""
    if pos.gates:
        return False
    men = _men(pos, WHITE) + _men(pos, BLACK)
    if not men or (len(men) == 1 and men[0][1] == KNIGHT):
        return True
    if all(kind == BISHOP for _, kind in men):
        return len({pos.geometry.is_dark(sq) for sq, _ in men}) == 1 and \
            not (pos.adjustment_pairs(WHITE) or pos.adjustment_pairs(BLACK))
    return False


@pytest.mark.parametrize("variant", ["chess960", "mrc"])
def test_dead_position_count_agrees_with_the_list(variant: str) -> None:
    """The count of codes that answers most calls (issue 36) never changes an answer: random
    moves played on until little is left, judged both ways after every move."""
    rng = random.Random(36)
    dead = 0
    for _ in range(12):
        v = get_variant(variant)
        pos = Position(v.setup_fen(v.random_setup(rng)), v)
        for _ in range(500):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
            assert is_dead_position(pos) == _dead_by_the_list(pos), pos.fen()
            dead += is_dead_position(pos)
    assert dead  # some playouts got there, so both answers were seen


def test_minister_never_dead() -> None:
    # A Prime Minister mates on its own (RULES.md §1.7).
    pos = Position("4k4/9/9/9/9/9/9/9/4KM3 w - - 0 1", "mrc")
    assert not is_dead_position(pos)
    assert can_checkmate(pos, WHITE) and not can_checkmate(pos, BLACK)


def test_dead_position_after_capture() -> None:
    game = Game("4k3/8/8/8/8/8/3r4/3BK3 w - - 0 1")
    assert game.outcome is None
    assert after(game, "Kxd2") == Outcome(Termination.DEAD_POSITION, None)


def test_take_back_leaves_the_outcome_pop_judges_again() -> None:
    game = Game("4k3/8/8/8/8/8/3r4/3BK3 w - - 0 1")
    after(game, "Kxd2")
    dead = game.outcome
    assert dead == Outcome(Termination.DEAD_POSITION, None)
    fen = game.position.fen()
    game.take_back()
    assert game.outcome is dead and game.position.fen() == "4k3/8/8/8/8/8/3r4/3BK3 w - - 0 1"
    game.outcome = None
    assert after(game, "Kxd2") == dead and game.position.fen() == fen
    game.pop()
    assert game.outcome is None and game.repetitions() == 1


def test_bishop_adjustment_keeps_bishops_alive_d16() -> None:
    # White's unmoved bishop e1 (dark) may still swap with its unmoved king d1 and reach a
    # light square, so "all bishops on one colour" must not fire (D-16).
    live = "4k4/9/9/9/4b4/9/9/9/3KB4 w - - 0 1 DE"
    pos = Position(live, "mrc")
    assert pos.adjustment_pairs(WHITE)
    assert not is_dead_position(pos)
    assert can_checkmate(pos, WHITE) and can_checkmate(pos, BLACK)
    assert Game(live, "mrc").outcome is None
    # The same placement with no adjustment right left is dead.
    spent = "4k4/9/9/9/4b4/9/9/9/3KB4 w - - 0 1"
    assert is_dead_position(Position(spent, "mrc"))
    assert Game(spent, "mrc").outcome == Outcome(Termination.DEAD_POSITION, None)
    # Playing the adjustment puts the bishops on opposite colours: not dead.
    game = Game(live, "mrc")
    assert after(game, "B=K") is None
    assert not is_dead_position(game.position)


def test_dead_position_matches_the_two_one_sided_tests() -> None:
    # Dead (both sides) is exactly "neither side can mate" over random sparse material.
    rng = random.Random(11)
    checked = 0
    while checked < 400:
        board = ["."] * 64
        squares = rng.sample(range(64), 2 + rng.randint(0, 4))
        board[squares[0]], board[squares[1]] = "K", "k"
        for sq in squares[2:]:
            board[sq] = rng.choice("NBBNbbnPpRq" if rng.random() < 0.2 else "NBnb")
        if any(board[s] in "Pp" for s in list(range(8)) + list(range(56, 64))):
            continue
        rows = []
        for r in range(7, -1, -1):
            row = "".join(board[r * 8: r * 8 + 8])
            for n in range(8, 0, -1):
                row = row.replace("." * n, str(n))
            rows.append(row)
        try:
            pos = Position("/".join(rows) + " w - - 0 1")
        except ValueError:
            continue
        assert is_dead_position(pos) == (not can_checkmate(pos, WHITE)
                                          and not can_checkmate(pos, BLACK)), pos.fen()
        checked += 1


# ---------------------------------------------------------------- §1.5 repetition
def test_threefold_is_a_claim_and_fivefold_automatic() -> None:
    game = Game()
    play(game, *KNIGHT_DANCE)  # start position, 2nd time
    assert game.repetitions() == 2 and not game.can_claim_draw()
    play(game, "Nf3", "Nf6", "Ng1")
    ng8 = game.position.parse_uci("f6g8")
    # 9.2.1: the named move would make the third appearance.
    assert game.can_claim_threefold_repetition(ng8)
    assert not game.can_claim_threefold_repetition(game.position.parse_uci("h7h6"))
    assert not game.can_claim_draw()
    game.push(ng8)
    assert game.repetitions() == 3 and game.outcome is None  # FIDE: no automatic end
    assert game.can_claim_draw()
    play(game, *KNIGHT_DANCE)  # 4th: still going
    assert game.repetitions() == 4 and game.outcome is None
    play(game, "Nf3", "Nf6", "Ng1")
    assert game.outcome is None
    assert after(game, "Ng8") == Outcome(Termination.FIVEFOLD_REPETITION, None)


def test_claim_draw_without_a_move() -> None:
    game = Game()
    play(game, *KNIGHT_DANCE, *KNIGHT_DANCE)
    out = game.claim_draw()
    assert out == Outcome(Termination.THREEFOLD_REPETITION, None, WHITE)
    assert game.result() == "1/2-1/2"


def test_incorrect_claim_continues_the_game() -> None:
    game = Game()
    play(game, *KNIGHT_DANCE)
    assert game.claim_draw() is None
    assert game.outcome is None and len(game.moves) == 4


def test_claim_with_named_move_records_it() -> None:
    game = Game()
    play(game, *KNIGHT_DANCE, "Nf3", "Nf6", "Ng1")
    out = game.claim_draw(game.position.parse_uci("f6g8"))
    assert out == Outcome(Termination.THREEFOLD_REPETITION, None, BLACK)
    assert len(game.moves) == 8


def test_incorrect_claim_with_move_plays_the_move_9_5_3() -> None:
    game = Game()
    play(game, *KNIGHT_DANCE, "Nf3", "Nf6", "Ng1")
    assert game.claim_draw(game.position.parse_uci("h7h6")) is None
    assert game.outcome is None and len(game.moves) == 8
    with pytest.raises(IllegalMoveError):
        game.claim_draw(game.position.parse_uci("e2e4").__class__(12, 44))  # e2e6


def test_automatic_draws_switch_d22() -> None:
    game = Game(automatic_draws=True)
    play(game, *KNIGHT_DANCE, "Nf3", "Nf6", "Ng1")
    assert game.outcome is None
    assert after(game, "Ng8") == Outcome(Termination.THREEFOLD_REPETITION, None)
    game = Game("4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80", automatic_draws=True)
    assert after(game, "Ra2") == Outcome(Termination.FIFTY_MOVES, None)


def test_repetition_en_passant_only_when_legal() -> None:
    # After ...d7-d5 White may take en passant; when the placement comes back that chance is
    # gone, so it is a different position (9.2.3.1, D-23).
    game = Game("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    play(game, "d5")
    play(game, "Ke2", "Ke7", "Ke1", "Ke8")
    assert game.repetitions() == 1
    # Without a pawn able to take, the double step leaves no en passant right to count.
    game = Game("4k3/3p4/8/8/4P3/8/8/4K3 b - - 0 1")
    play(game, "d5")
    play(game, "Ke2", "Ke7", "Ke1", "Ke8")
    assert game.repetitions() == 2


def test_repetition_castling_rights() -> None:
    # Rh1-g1-h1 restores the placement but not the castling right (9.2.3.2).
    game = Game()
    play(game, "Nf3", "Nf6", "Rg1", "Ng8", "Rh1", "Nf6", "Ng1", "Ng8")
    assert game.position.fen().split()[0] == Position().fen().split()[0]
    assert game.repetitions() == 1
    game = Game()
    play(game, "Nf3", "Nf6", "Ng1", "Ng8")
    assert game.repetitions() == 2


def test_repetition_adjustment_rights_d10() -> None:
    # An MRC knight beside its unmoved bishop leaves and comes back: the board is the same,
    # the adjustment with that knight is gone (D-10).
    fen = "rnbnkqbmr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBNKQBMR w AIai - 0 1 ABCDEFGHIabcdefghi"
    game = Game(fen, "mrc")
    play(game, "Nbc3", "Nbc7", "Nb1", "Nb9")
    assert game.repetitions() == 1
    game = Game(fen, "mrc")
    play(game, "e3", "e7", "Ke2", "Ke8", "Ke1", "Ke9")
    # The king moved, so castling and the king partner are gone: first time again.
    assert game.repetitions() == 1
    game = Game(fen, "mrc")
    play(game, "e3", "e7", "Qe2", "Qe8", "Qf1", "Qf9")
    assert game.repetitions() == 1  # the queen was a partner of the g-bishop
    play(game, "Qe2", "Qe8", "Qf1", "Qf9")
    assert game.repetitions() == 2


# ---------------------------------------------------------------- §1.6 50 and 75 moves
def test_fifty_move_claims() -> None:
    at_100 = Game("4k3/8/8/8/8/8/4P3/R3K3 w - - 100 80")
    assert at_100.can_claim_fifty_moves() and at_100.outcome is None
    assert at_100.claim_draw() == Outcome(Termination.FIFTY_MOVES, None, WHITE)
    at_99 = Game("4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80")
    assert not at_99.can_claim_draw()
    assert at_99.can_claim_fifty_moves(at_99.position.parse_uci("a1a2"))
    assert not at_99.can_claim_fifty_moves(at_99.position.parse_uci("e2e3"))  # pawn move
    assert at_99.claim_draw(at_99.position.parse_uci("a1a2")) == \
        Outcome(Termination.FIFTY_MOVES, None, WHITE)
    at_98 = Game("4k3/8/8/8/8/8/4P3/R3K3 w - - 98 80")
    assert not at_98.can_claim_fifty_moves(at_98.position.parse_uci("a1a2"))


def test_seventyfive_moves_automatic() -> None:
    game = Game("4k3/8/8/8/8/8/4P3/R3K3 w - - 149 80")
    assert after(game, "Ra2") == Outcome(Termination.SEVENTYFIVE_MOVES, None)
    nearly = Game("4k3/8/8/8/8/8/4P3/R3K3 w - - 148 80")
    assert after(nearly, "Ra2") is None
    zeroing = Game("4k3/8/8/8/8/8/4P3/R3K3 w - - 149 80")
    assert after(zeroing, "e4") is None
    assert Game("4k3/8/8/8/8/8/4P3/R3K3 w - - 150 80").outcome == \
        Outcome(Termination.SEVENTYFIVE_MOVES, None)


def test_mate_on_the_150th_ply_wins_d24() -> None:
    game = Game("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 80")
    assert after(game, "Ra8") == Outcome(Termination.CHECKMATE, WHITE)


def test_stalemate_on_the_150th_ply_is_stalemate_d24() -> None:
    game = Game("7k/8/6K1/8/8/8/8/5Q2 w - - 149 80")
    assert after(game, "Qf7") == Outcome(Termination.STALEMATE, None)


def test_castling_and_adjustment_do_not_reset_the_clock_d9() -> None:
    game = Game("4k3/8/8/8/8/8/8/4K2R w K - 10 30")
    game.push_san("O-O")
    assert game.position.halfmove_clock == 11
    game = Game("4k4/9/9/9/9/9/9/9/3KB4 w - - 10 30 DE", "mrc")
    game.push_san("B=K")
    assert game.position.halfmove_clock == 11


# ---------------------------------------------------------------- resignation, time, agreement
def test_resignation() -> None:
    game = Game()
    assert game.resign() == Outcome(Termination.RESIGNATION, BLACK, WHITE)
    assert game.result() == "0-1"
    with pytest.raises(GameOverError):
        game.agree_draw()


def test_resignation_against_bare_king_is_a_draw() -> None:
    game = Game("4k3/8/8/8/8/8/8/Q3K3 b - - 0 1")
    out = game.resign(WHITE)
    assert out == Outcome(Termination.RESIGNATION, None, WHITE)
    assert str(out) == "Draw: White resigned but Black cannot checkmate"


@pytest.mark.parametrize("fen,winner", [
    ("4k3/8/8/8/8/8/8/Q3K2n w - - 0 1", None),  # a queen can always take or block
    ("4k3/8/8/8/8/8/8/R3K2n w - - 0 1", BLACK),  # a rook can block: Ka1 Rb1 Nc2 Kb3 mates
    ("4k3/8/8/8/8/8/8/R3K2b w - - 0 1", None),  # a rook never helps a lone bishop
    ("4k3/8/8/8/8/8/P7/4K2n w - - 0 1", BLACK),  # the pawn can block: K+N can mate
    ("4k3/8/8/8/8/8/8/4K1nn w - - 0 1", BLACK),  # two knights can mate
    ("3bk3/8/8/8/8/8/8/4KB2 w - - 0 1", BLACK),  # opposite bishops: a mate exists
    ("2b1k3/8/8/8/8/8/8/Q3K3 w - - 0 1", None),  # a queen never helps a lone bishop
    ("4k3/8/8/8/8/8/8/4KN1b w - - 0 1", BLACK),  # K+B vs K+N: the knight may block
    ("4k3/8/8/8/8/8/7p/Q3K3 w - - 0 1", BLACK),  # a pawn may promote
])
def test_flag_fall(fen: str, winner: int | None) -> None:
    game = Game(fen)
    assert game.flag(WHITE) == Outcome(Termination.TIME_FORFEIT, winner, WHITE)


def test_agreement() -> None:
    game = Game()
    assert game.agree_draw() == Outcome(Termination.AGREEMENT, None)
    assert str(game.outcome) == "Draw by agreement"


def test_pop_reopens_and_keeps_counts() -> None:
    game = Game()
    play(game, "f3", "e5", "g4", "Qh4")
    assert game.is_over
    game.pop()
    assert not game.is_over
    play(game, "Qh4")
    assert game.outcome is not None and game.outcome.termination is Termination.CHECKMATE
    game = Game()
    play(game, *KNIGHT_DANCE, *KNIGHT_DANCE)
    game.pop()
    play(game, "Ng8")
    assert game.repetitions() == 3


def test_record_helpers() -> None:
    game = Game("bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1", "chess960")
    play(game, "O-O", "O-O")
    assert game.san_moves() == ["O-O", "O-O"]
    assert game.result() == "*"
    assert "chess960" in repr(game)
    assert Game.from_position(game.position).start_fen == game.position.fen()
    assert Termination.CHECKMATE.is_automatic and not Termination.FIFTY_MOVES.is_automatic
    with pytest.raises(ValueError):
        game.resign(3)
