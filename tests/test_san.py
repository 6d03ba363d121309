"""SAN: writing equals python-chess on 8x8 (Chess960 included), round trips in every variant
and both languages, lenient input, castling and Bishop Adjustment forms (RULES.md §2.7, §4.7,
D-19)."""

from __future__ import annotations

import random

import chess
import pytest

from randomchess.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from randomchess.position import Move, Position
from randomchess.san import (
    language_of_letters,
    parse_san,
    piece_letter,
    push_san,
    san,
    variation_san,
)
from randomchess.variants import get_variant

MAURA_BAR = "rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w KQkq - 0 1 ABCDEFGHIabcdefghi"
# RULES.md §4.10: bishops b1/f1 (light) with rook, king, queen and knight partners.
MRC_RK = "rmnbqnkbr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RBKNQBNMR w AIai - 0 1 ABCDEFGHIabcdefghi"


def random_rank(variant: str, rng: random.Random) -> str:
    v = get_variant(variant)
    army = list(v.army)
    while True:
        rng.shuffle(army)
        rank = "".join(army)
        if v.is_setup(rank):
            return rank


def playout_positions(variant: str, seed: int, games: int, plies: int):
    """Positions along seeded random games; captures and promotions are favoured so the
    endgame forms (promotion, en passant, disambiguation) turn up often."""
    rng = random.Random(seed)
    v = get_variant(variant)
    for _ in range(games):
        if v.is_random:
            fen = v.setup_fen(random_rank(variant, rng))
        else:  # Maura's array, with the optional bishop rule in every other game (§3)
            fen = v.setup_fen(v.army if v.fixed_rank is None else v.fixed_rank,
                              adjustment=v.has_adjustment and rng.random() < 0.5)
        pos = Position(fen, v)
        for _ in range(plies):
            moves = pos.legal_moves()
            if not moves:
                break
            yield pos
            special = [m for m in moves if pos.is_capture(m) or m.promotion
                       or pos.is_castling(m) or pos.is_adjustment(m)]
            pool = special if special and rng.random() < 0.5 else moves
            pos.push(rng.choice(pool))


def to_chess(move: Move) -> chess.Move:
    # 8x8 squares and piece kinds are numbered as in python-chess.
    return chess.Move(move.from_square, move.to_square, move.promotion or None)


@pytest.mark.parametrize("variant,seed", [("chess", 1), ("chess960", 2), ("chess960", 3)])
def test_san_equals_python_chess(variant: str, seed: int) -> None:
    seen = 0
    for pos in playout_positions(variant, seed, games=12, plies=120):
        board = chess.Board(pos.fen(shredder=True), chess960=True)
        ours = {m: san(pos, m) for m in pos.legal_moves()}
        theirs = {Move(m.from_square, m.to_square, m.promotion or 0): board.san(m)
                  for m in board.legal_moves}
        assert ours == theirs, pos.fen()
        seen += 1
    assert seen > 1000


@pytest.mark.parametrize("variant,seed,games", [
    ("chess960", 4, 10), ("mrc", 5, 12), ("modern", 6, 10),
])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_round_trip_every_legal_move(variant: str, seed: int, games: int, lang: str) -> None:
    positions = 0
    kinds = {"castling": 0, "adjustment": 0, "promotion": 0}
    for pos in playout_positions(variant, seed, games=games, plies=130):
        positions += 1
        for m in pos.legal_moves():
            text = san(pos, m, lang)  # type: ignore[arg-type]
            assert parse_san(pos, text, lang) == m, (pos.fen(), text)  # type: ignore[arg-type]
            kinds["castling"] += pos.is_castling(m)
            kinds["adjustment"] += pos.is_adjustment(m)
            kinds["promotion"] += bool(m.promotion)
    assert positions >= 800
    assert kinds["castling"] and kinds["promotion"]
    if variant in ("mrc", "modern"):
        assert kinds["adjustment"]


def test_round_trip_language_inference() -> None:
    # lang=None must never pick a wrong move: whatever it returns equals the move written.
    for pos in playout_positions("mrc", 8, games=3, plies=60):
        for m in pos.legal_moves():
            for lang in ("en", "es"):
                text = san(pos, m, lang)  # type: ignore[arg-type]
                try:
                    assert parse_san(pos, text, None) == m
                except AmbiguousMoveError:
                    assert language_of_letters(text) is None and "R" in text


# ---------------------------------------------------------------------------- castling
def test_castling_960_names_by_side_not_king_file() -> None:
    # SP 3 BQNNRKRB: O-O swaps f1/g1 (RULES.md §2.2).
    pos = Position("bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1", "chess960")
    castle = pos.parse_uci("f1g1")
    assert san(pos, castle) == "O-O"
    assert parse_san(pos, "O-O") == parse_san(pos, "0-0") == castle
    # SP 74 NNRKBBQR: O-O-O swaps d1/c1.
    pos = Position("nnrkbbqr/pppppppp/8/8/8/8/PPPPPPPP/NNRKBBQR w KQkq - 0 1", "chess960")
    assert san(pos, pos.parse_uci("d1c1")) == "O-O-O"
    assert parse_san(pos, "0-0-0") == pos.parse_uci("d1c1")


def test_king_move_is_not_castling() -> None:
    # King f1, h-side rook h1: Kg1 is an ordinary move and O-O is castling (RULES.md §2.7).
    pos = Position("4k3/8/8/8/8/8/8/5K1R w K - 0 1", "chess960")
    assert parse_san(pos, "Kg1") == Move(5, 6)
    assert parse_san(pos, "O-O") == Move(5, 7)
    assert san(pos, Move(5, 6)) == "Kg1"
    assert san(pos, Move(5, 7)) == "O-O"


def test_rook_only_castling() -> None:
    pos = Position("4k3/8/8/8/8/8/8/R1K5 w A - 0 1", "chess960")
    move = parse_san(pos, "O-O-O")
    assert san(pos, move) == "O-O-O"
    pos.push(move)
    assert pos.fen().startswith("4k3/8/8/8/8/8/8/2KR4 b")


def test_nine_by_nine_castling_forms() -> None:
    # RULES.md §4.5 example: f1g1 is g-castling by transposition.
    pos = Position("mqrknrbnb/ppppppppp/9/9/9/9/9/PPPPPPPPP/BNBRNKRQM w GDfc - 0 1", "mrc")
    g_castle = pos.parse_uci("f1g1")
    assert san(pos, g_castle) == "O-O-Og"
    for text in ("O-O-Og", "0-0-0g", "O-O", "0-0", "O-O-Og+"):
        assert parse_san(pos, text) == g_castle
    with pytest.raises(IllegalMoveError):
        parse_san(pos, "O-O-Oc")
    with pytest.raises(IllegalMoveError):
        parse_san(pos, "O-O-O")


def test_maura_castling_names() -> None:
    # Maura writes 0-M-0 (minister side) and 0-Q-0 (queen side); White's minister side is
    # the a-side, Black's is the g-side (RULES.md §3).
    pos = Position("r3k3r/ppppppppp/9/9/9/9/9/PPPPPPPPP/R3K3R w KQkq - 0 1", "modern")
    assert pos.is_castling(parse_san(pos, "0-M-0"))
    assert san(pos, parse_san(pos, "0-M-0")) == "O-O-Oc"
    assert san(pos, parse_san(pos, "O-Q-O")) == "O-O-Og"
    pos.push(parse_san(pos, "a3"))
    assert san(pos, parse_san(pos, "0-M-0")) == "O-O-Og"
    pos = Position("r3k3r/ppppppppp/9/9/9/9/9/PPPPPPPPP/R3K3R w KQkq - 0 1", "mrc")
    with pytest.raises(InvalidMoveError):
        parse_san(pos, "0-M-0")


# ---------------------------------------------------------------------------- adjustment
def test_adjustment_san_maura() -> None:
    pos = Position(MAURA_BAR, "modern")
    adjustments = {pos.uci(m): san(pos, m) for m in pos.legal_moves() if pos.is_adjustment(m)}
    # Two knight swaps (c1-b1, g1-h1) share B=N, so the bishop's file tells them apart (D-19).
    assert adjustments == {"c1b1": "Bc=N", "c1d1": "B=M", "g1f1": "B=Q", "g1h1": "Bg=N"}
    assert parse_san(pos, "B=MN") == pos.parse_uci("c1b1")  # Maura's minister's knight
    assert parse_san(pos, "B=QN") == pos.parse_uci("g1h1")
    assert parse_san(pos, "c1d1") == pos.parse_uci("c1d1")  # coordinates (RULES.md §4.7)
    with pytest.raises(AmbiguousMoveError):
        parse_san(pos, "B=N")
    assert san(pos, pos.parse_uci("g1f1"), "es") == "A=D"
    assert parse_san(pos, "L=D", "es") == parse_san(pos, "A=D", "es") == pos.parse_uci("g1f1")


def test_adjustment_partner_file_needed() -> None:
    # A knight on each side of one bishop: Bc=Nb / Bc=Nd (D-19).
    fen = "rnbnkqbmr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBNKQBMR w AIai - 0 1 ABCDEFGHIabcdefghi"
    pos = Position(fen, "mrc")
    texts = sorted(san(pos, m) for m in pos.legal_moves() if pos.is_adjustment(m))
    assert texts == ["B=M", "B=Q", "Bc=Nb", "Bc=Nd"]
    for text in texts:
        assert san(pos, parse_san(pos, text)) == text


def test_adjustment_rook_and_king() -> None:
    pos = Position(MRC_RK, "mrc")
    texts = {pos.uci(m): san(pos, m) for m in pos.legal_moves() if pos.is_adjustment(m)}
    assert texts == {"b1a1": "B=R", "b1c1": "B=K", "f1e1": "B=Q", "f1g1": "B=N"}
    spanish = {pos.uci(m): san(pos, m, "es") for m in pos.legal_moves() if pos.is_adjustment(m)}
    assert spanish == {"b1a1": "A=T", "b1c1": "A=R", "f1e1": "A=D", "f1g1": "A=C"}
    # In Spanish R is the king: A=R swaps with the king, not the rook.
    assert parse_san(pos, "A=R", "es") == pos.parse_uci("b1c1")
    assert parse_san(pos, "B=R", "en") == pos.parse_uci("b1a1")


def test_adjustment_giving_check_has_suffix() -> None:
    # D-3: an adjustment may give check; here the queen lands on the black king's file.
    pos = Position("4k4/9/9/9/9/9/9/9/3KBQ3 w - - 0 1 DEF", "mrc")
    move = pos.parse_uci("e1f1")
    assert pos.is_adjustment(move)
    assert san(pos, move) == "B=Q+"
    assert parse_san(pos, "B=Q+") == parse_san(pos, "B=Q") == move


# ---------------------------------------------------------------------------- lenient input
@pytest.mark.parametrize("text", [
    "exd6", "exd6 e.p.", "exd6e.p.", "exd6ep", "e5xd6", "e5d6", "exd6!?", "exd6+", "e:d6",
])
def test_en_passant_spellings(text: str) -> None:
    pos = Position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
    assert parse_san(pos, text) == Move(36, 43)


@pytest.mark.parametrize("text,uci", [
    ("e8=Q", "e7e8q"), ("e8Q", "e7e8q"), ("e8q", "e7e8q"), ("e8(Q)", "e7e8q"), ("e8=N+", "e7e8n"),
    ("e7e8q", "e7e8q"), ("e8=R!", "e7e8r"), ("Pe8=B", "e7e8b"),
])
def test_promotion_spellings(text: str, uci: str) -> None:
    pos = Position("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1")
    assert parse_san(pos, text) == pos.parse_uci(uci)


def test_promotion_to_minister_on_9x9() -> None:
    pos = Position("9/4P2k1/9/9/9/9/9/9/4K4 w - - 0 1", "mrc")
    move = parse_san(pos, "e9=M")
    assert move.promotion == 7
    assert san(pos, move) == "e9=M"
    assert san(pos, move, "es") == "e9=M"
    with pytest.raises(IllegalMoveError):
        parse_san(Position("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1"), "e8=M")


def test_promotion_piece_is_required() -> None:
    pos = Position("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1")
    with pytest.raises(IllegalMoveError, match="promotion"):
        parse_san(pos, "e8")


@pytest.mark.parametrize("text", ["Ng1-f3", "Ngf3", "N1f3", "Ng1f3", "Nf3", "g1f3", "Nf3!!",
                                  "Nxf3"])
def test_long_algebraic_and_coordinates(text: str) -> None:
    pos = Position()
    assert parse_san(pos, text) == Move(6, 21)


def test_disambiguation_file_rank_square() -> None:
    # Three queens on a1, a3 and c1 can all reach b2; python-chess agrees on every string.
    pos = Position("8/8/8/7k/8/Q7/8/Q1Q4K w - - 0 1")
    board = chess.Board(pos.fen())
    for m in pos.legal_moves():
        assert san(pos, m) == board.san(to_chess(m))
    assert san(pos, pos.parse_uci("a1b2")) == "Qa1b2"
    assert san(pos, pos.parse_uci("a3b2")) == "Q3b2"
    assert san(pos, pos.parse_uci("c1b2")) == "Qcb2"


def test_errors() -> None:
    pos = Position()
    with pytest.raises(InvalidMoveError):
        parse_san(pos, "")
    with pytest.raises(InvalidMoveError):
        parse_san(pos, "Xe4")
    with pytest.raises(InvalidMoveError):
        parse_san(pos, "hello")
    with pytest.raises(IllegalMoveError):
        parse_san(pos, "e5")
    with pytest.raises(IllegalMoveError):
        parse_san(pos, "O-O")
    with pytest.raises(IllegalMoveError):
        parse_san(pos, "Ke2")
    with pytest.raises(IllegalMoveError):
        san(pos, Move(12, 36))  # e2e5 is not a move
    with pytest.raises(AmbiguousMoveError):
        parse_san(Position("k7/8/8/8/8/8/8/2N1K1N1 w - - 0 1"), "Ne2")
    for exc in (InvalidMoveError, IllegalMoveError, AmbiguousMoveError):
        assert issubclass(exc, ValueError)


# ---------------------------------------------------------------------------- Spanish
def test_spanish_letters() -> None:
    pos = Position()
    assert san(pos, pos.parse_uci("g1f3"), "es") == "Cf3"
    assert parse_san(pos, "Cf3", "es") == pos.parse_uci("g1f3")
    assert piece_letter(6, "es") == "R" and piece_letter(4, "es") == "T"
    assert piece_letter(3, "es") == "A" and piece_letter(5, "es") == "D"
    walker = pos.copy()
    line = [walker.push_uci(u) for u in ("e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6",
                                         "d7c6", "e1h1")]
    assert variation_san(pos, line, "es") == \
        "1. e4 e5 2. Cf3 Cc6 3. Ab5 a6 4. Axc6 dxc6 5. O-O"
    assert variation_san(pos, line) == "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O"
    assert pos.fen() == Position().fen()


def test_spanish_king_is_r() -> None:
    # Re2: English rook to e2, Spanish king to e2.
    pos = Position("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert parse_san(pos, "Re2", "es") == pos.parse_uci("e1e2")
    with pytest.raises(IllegalMoveError):
        parse_san(pos, "Re2", "en")
    assert parse_san(pos, "Ra2", "en") == pos.parse_uci("a1a2")
    # Inference: only the Spanish reading is legal, so it is taken; Rd2 is legal both ways.
    assert parse_san(pos, "Re2", None) == pos.parse_uci("e1e2")
    assert parse_san(pos, "Ra5", None) == pos.parse_uci("a1a5")
    with pytest.raises(AmbiguousMoveError, match="English and in Spanish"):
        parse_san(pos, "Rd1", None)
    with pytest.raises(InvalidMoveError):
        parse_san(pos, "Kd1", "es")  # K is no Spanish letter
    with pytest.raises(InvalidMoveError):
        parse_san(pos, "Td1", "en")


def test_language_of_letters() -> None:
    assert language_of_letters("Nf3") == "en"
    assert language_of_letters("Cf3") == "es"
    assert language_of_letters("Re1") is None
    assert language_of_letters("e4") is None
    assert language_of_letters("Nf3 Cf6") is None


def test_push_san_and_unknown_language() -> None:
    pos = Position()
    assert push_san(pos, "e4") == Move(12, 28)
    assert pos.turn == 1
    with pytest.raises(ValueError):
        san(pos, Move(52, 36), "fr")  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", ["chess", "chess960", "mrc", "modern", "caparandom"])
def test_moves_to_agrees_with_legal_moves(variant: str) -> None:
    """The SAN reader and writer find the moves onto one square from that square backwards
    (issue 13, speed); over thousands of positions, with checks, pins and en passant, they
    are exactly the legal moves of that kind onto that square."""
    from randomchess.pieces import PIECE_TYPES
    from randomchess.san import _moves_to

    seen = 0
    for pos in playout_positions(variant, 13, 8, 100):
        legal = [m for m in pos.legal_moves()
                 if not pos.is_castling(m) and not pos.is_adjustment(m)]
        by_target: dict[tuple[int, int], list[Move]] = {}
        for m in legal:
            by_target.setdefault((m.to_square, pos.piece_type_at(m.from_square)), []).append(m)
        for kind in PIECE_TYPES:
            for to in range(pos.geometry.size):
                expected = sorted(by_target.get((to, kind), []))
                assert sorted(_moves_to(pos, to, kind)) == expected, (pos.fen(), kind, to)
                seen += len(expected)
    assert seen > 2_000


def test_long_text_is_refused_before_any_pattern_runs() -> None:
    """Issue 13 fuzzing: a 200,000-character 'move' took seconds in the annotation pattern."""
    pos = Position()
    for text in ("e" + "9" * 200_000, "Ng1-" + "9" * 200_000, "O-" * 100_000):
        for lang in ("en", "es", None):
            with pytest.raises(InvalidMoveError, match="too long"):
                parse_san(pos, text, lang)  # type: ignore[arg-type]
    assert parse_san(pos, "  Nf3!? ") == parse_san(pos, "Nf3")
