"""FEN reading and writing: plain FEN, X-FEN, Shredder-FEN, 9x9 and the MRC adjustment field
(RULES.md §2.5, §4.9, D-14, D-23), and a typed error naming the fault for every bad input."""

from __future__ import annotations

import pytest

from conftest import load_cases
from randomchess import FenError, Position, get_variant

CASES = load_cases("chess960_s1_d3.jsonl") + load_cases("mrc_s1_d3.jsonl")


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_round_trip_of_every_case(case: dict[str, object]) -> None:
    xfen, shredder = str(case["xfen"]), str(case["fen"])
    pos = Position(shredder, str(case["variant"]))
    assert Position(xfen, str(case["variant"])).fen() == pos.fen()
    assert pos.fen(shredder=True) == shredder
    if case["variant"] == "chess960":
        assert pos.fen() == xfen  # X-FEN by default on 8x8
    else:
        assert pos.fen() == shredder  # file letters on 9x9 (D-14)
    assert Position(pos.fen(), str(case["variant"])).fen() == pos.fen()


def test_orthodox_fen_is_byte_identical() -> None:
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    assert Position(fen, "chess").fen() == fen
    assert Position(fen, "chess").fen(shredder=True).split()[2] == "HAha"


def test_castling_letters_in_any_order() -> None:
    a = Position("r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1", "chess960")
    b = Position("r3k2r/8/8/8/8/8/8/R3K2R w AhHa - 0 1", "chess960")
    assert a.fen() == b.fen() == "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"


def test_nine_by_nine_kq_means_outermost_rooks() -> None:
    # D-14: K = i-side rook (g-castling), Q = a-side rook (c-castling).
    pos = Position("rr2k3r/9/9/9/9/9/9/9/R3K1R1R w KQkq - 0 1", "mrc")
    assert pos.fen().split()[2] == "IAia"


def test_inner_rook_gets_its_file_letter_in_xfen() -> None:
    pos = Position("4k3/8/8/8/8/8/8/RR2K3 w B - 0 1", "chess960")
    assert pos.fen().split()[2] == "B"
    pos = Position("4k3/8/8/8/8/8/8/RR2K3 w A - 0 1", "chess960")
    assert pos.fen().split()[2] == "Q"


def test_en_passant_written_only_when_a_legal_capture_exists() -> None:
    # D-23: read either convention; write the square only when the capture is legal.
    pos = Position("4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1", "chess960")
    pos.push_uci("d2d4")
    assert pos.fen().split()[3] == "d3"
    quiet = Position("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1", "chess960")
    quiet.push_uci("d2d4")
    assert quiet.fen().split()[3] == "-"
    assert Position("4k3/8/8/8/3P4/8/8/4K3 b - d3 0 1", "chess960").fen().split()[3] == "-"
    # A pinned capturer makes the en passant capture illegal.
    pinned = Position("8/8/8/8/k2Pp2R/8/8/4K3 b - d3 0 1", "chess960")
    assert pinned.fen().split()[3] == "-"
    assert [pinned.uci(m) for m in pinned.legal_moves() if pinned.is_en_passant(m)] == []


def test_adjustment_field_round_trip() -> None:
    fen = get_variant("mrc").setup_fen("RBKNQBNMR")
    assert fen.split()[6] == "ABCDEFGHIabcdefghi"
    pos = Position(fen, "mrc")
    assert pos.fen() == fen
    pos.push_uci("d1e3")
    assert pos.fen().split()[6] == "ABCEFGHIabcdefghi"
    assert Position(pos.fen(), "mrc").fen() == pos.fen()
    assert Position(fen.rsplit(" ", 1)[0] + " -", "mrc").fen() == fen.rsplit(" ", 1)[0]


def test_short_fens_get_defaults() -> None:
    assert Position("4k3/8/8/8/8/8/8/4K3", "chess960").fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"


@pytest.mark.parametrize(
    ("fen", "variant", "message"),
    [
        ("", "chess960", "empty FEN"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 - extra", "mrc", "at most 7"),
        ("4k3/8/8/8/8/8/4K3 w - - 0 1", "chess960", "7 ranks"),
        ("4k3/8/8/8/8/8/8/4K4 w - - 0 1", "chess960", "rank 1 has 9 squares"),
        ("4k3/8/8/8/8/8/8/4K2 w - - 0 1", "chess960", "rank 1 has 7 squares"),
        ("4k3/8/8/8/8/8/8/4X3 w - - 0 1", "chess960", "unknown piece letter 'X' on rank 1"),
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "chess960", "side to move"),
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "chess960", "no White rook on the king's far side"),
        ("4k3/8/8/8/8/8/8/4K3 w B - 0 1", "chess960", "no White rook on b1"),
        ("4k3/8/8/8/8/8/8/RR2K3 w AB - 0 1", "chess960", "two rooks on one wing"),
        ("4k3/8/8/8/8/8/8/R3K3 w AA - 0 1", "chess960", "repeats a letter"),
        ("4k3/8/8/8/8/8/4K3/R7 w A - 0 1", "chess960", "king is not on its home rank"),
        ("4k3/8/8/8/8/8/8/R3K3 w Z - 0 1", "chess960", "bad letter 'Z'"),
        ("4k3/8/8/8/8/8/8/4K3 w - e4 0 1", "chess960", "wrong rank"),
        ("4k3/8/8/8/8/8/8/4K3 w - z9 0 1", "chess960", "not a square"),
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "chess960", "no pawn can just have passed it"),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "chess960", "half-move clock"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", "chess960", "move number 0 is below 1"),
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", "chess960", "White must have exactly one king"),
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "chess960", "found 2"),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "chess960", "pawn on a1"),
        ("4k3/8/8/8/8/8/8/4K2r w - - 0 1", "chess960", None),  # legal: white in check
        ("4k3/8/8/8/8/8/8/4R2K w - - 0 1", "chess960", "side not to move is in check"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 A", "chess960", "has no bishop adjustment"),
        ("4k4/9/9/9/9/9/9/9/4K4 w - - 0 1 A", "mrc", "no unmoved White piece on a1"),
        ("4k4/9/9/9/9/9/9/9/4K4 w - - 0 1 Z", "mrc", "bad letter 'Z'"),
        ("4k4/9/9/9/9/9/9/9/4K4 w - - 0 1", "chess960", "9 ranks"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "mrc", "8 ranks"),
        ("4k3/8/8/8/8/8/8/03K4 w - - 0 1", "chess960", "bad empty-square count"),
    ],
)
def test_malformed_fen_raises_a_typed_error(fen: str, variant: str, message: str | None) -> None:
    if message is None:
        assert Position(fen, variant).is_check()
        return
    with pytest.raises(FenError, match=message):
        Position(fen, variant)
    assert issubclass(FenError, ValueError)


# --- issue 13: bounded counts and ASCII digits ------------------------------------------------
@pytest.mark.parametrize(
    "fen",
    [
        "99999999/8/8/8/8/8/8/4K2k w - - 0 1",  # one count far beyond the board
        "8/8/8/8/8/8/8/4K2k1" + "9" * 40 + " w - - 0 1",
        "8/8/8/8/8/8/8/4K2k9 w - - 0 1",
        "8/8/8/8/8/8/8/44K2k w - - 0 1",  # a two-digit count read as 44, not 4 then 4
    ],
)
def test_empty_square_counts_are_bounded_by_the_board(fen: str) -> None:
    import tracemalloc

    tracemalloc.start()
    try:
        with pytest.raises(FenError, match=r"rank 1|rank 8"):
            Position(fen, "chess960")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000  # nothing was expanded square by square


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/8/8/8/8/4K2k w - - ² 1",  # '²'.isdigit() is True, int('²') fails
        "8/8/8/8/8/8/8/4K2k w - - 0 ¹",
        "8/8/8/8/8/8/8/4K2k w - - \u0663 1",  # Arabic-Indic three: int() would accept it
        "8/8/8/8/8/8/8/4K2k w - - 0 \u0661",
        "8/8/8/8/8/8/8/RNBQKBN² w - - 0 1",
        "8/8/8/8/8/8/8/4K2k³ w - - 0 1",
        "8/8/8/8/8/8/8/4K2k\u0661 w - - 0 1",
        "8/8/8/8/8/8/8/4K\uff12k w - - 0 1",  # full-width 2
    ],
)
def test_only_ascii_digits_count(fen: str) -> None:
    with pytest.raises(FenError):
        Position(fen, "chess960")
