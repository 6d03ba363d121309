"""Setup numbering, draws and verifiable draws.

RULES.md §2.1, §2.4 (Chess960), §4.3, §4.8 (MRC), §6 (castling); docs/shuffler.md (draws).
"""

from __future__ import annotations

import hashlib
import hmac
import math
import re
from collections import Counter
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest

from randomchess import startpos
from randomchess.startpos import (
    CHESS960_SETUPS,
    MAURA_NUMBER,
    MRC_SETUPS,
    ORTHODOX_NUMBER,
    CommitmentError,
    NotASetupError,
    SeedError,
    SetupNumberError,
    SetupPool,
    chess960_number,
    chess960_rank,
    commitment,
    draw_random,
    draw_seeded,
    format_salt_file,
    iter_rounds,
    localize_rank,
    mrc_number,
    mrc_rank,
    parse_rank,
    parse_salt,
    parse_salt_file,
    round_setups,
    setup_count,
    setup_from_fen,
    setup_from_number,
    setup_from_rank,
    verify_commitment,
)
from randomchess.variants import get_variant

DOCS = Path(__file__).resolve().parents[1] / "docs" / "shuffler.md"
SALT = bytes(range(32))
EVENT = "Example Open 2025"

# --- numbering: known values -----------------------------------------------------------------

# RULES.md §2.4 worked examples (never seed 003's faulty 000-015 table).
CHESS960_KNOWN = {
    0: "BBQNNRKR",
    1: "BQNBNRKR",
    2: "BQNNRBKR",
    3: "BQNNRKRB",
    4: "QBBNNRKR",
    16: "BBNQNRKR",
    518: "RNBQKBNR",
    534: "RNBKQBNR",
    959: "RKRNNQBB",
}
# RULES.md §4.8 checked values of the project MRC-Id.
MRC_KNOWN = {0: "BBQMNNRKR", 1: "BQBMNNRKR", 36: "BBMQNNRKR", 8226: "RNBMKQBNR", 15119: "RKRNNMQBB"}


@pytest.mark.parametrize(("number", "rank"), CHESS960_KNOWN.items())
def test_chess960_known_numbers(number: int, rank: str) -> None:
    assert chess960_rank(number) == rank
    assert chess960_number(rank) == number


@pytest.mark.parametrize(("number", "rank"), MRC_KNOWN.items())
def test_mrc_known_numbers(number: int, rank: str) -> None:
    assert mrc_rank(number) == rank
    assert mrc_number(rank) == number


def test_standard_numbers() -> None:
    assert chess960_rank(ORTHODOX_NUMBER) == get_variant("chess").fixed_rank
    assert mrc_rank(MAURA_NUMBER) == get_variant("modern").fixed_rank


# --- numbering: all setups ---------------------------------------------------------------------


def _all_setups(variant: str) -> set[str]:
    """Every legal back rank, by brute force over the army's permutations."""
    v = get_variant(variant)
    return {"".join(p) for p in set(permutations(v.army)) if v.is_setup("".join(p))}


def test_all_960_round_trip_and_cover_every_setup() -> None:
    ranks = [chess960_rank(n) for n in range(CHESS960_SETUPS)]
    assert [chess960_number(r) for r in ranks] == list(range(CHESS960_SETUPS))
    assert set(ranks) == _all_setups("chess960")  # a bijection onto the 960 setups (§2.1)


def test_all_15120_round_trip_and_cover_every_setup() -> None:
    ranks = [mrc_rank(n) for n in range(MRC_SETUPS)]
    assert [mrc_number(r) for r in ranks] == list(range(MRC_SETUPS))
    assert set(ranks) == _all_setups("mrc")  # a bijection onto the 15,120 setups (§4.3)


def test_chess960_setups_satisfy_their_constraints() -> None:
    # RULES.md §2.1: bishops on opposite colours, king between the rooks, Black mirrors White.
    for n in range(CHESS960_SETUPS):
        setup = setup_from_number("chess960", n)
        rank = setup.rank
        b1, b2 = (i for i, c in enumerate(rank) if c == "B")
        r1, r2 = (i for i, c in enumerate(rank) if c == "R")
        assert (b1 + b2) % 2 == 1
        assert r1 < rank.index("K") < r2
        rows = setup.fen.split()[0].split("/")
        assert rows[0] == rank.lower()
        assert rows[1] == "p" * 8 and rows[6] == "P" * 8 and rows[7] == rank


def test_mrc_setups_satisfy_their_constraints() -> None:
    # RULES.md §4.3: king between the rooks, bishops free, Black is the point reflection.
    for n in range(0, MRC_SETUPS, 7):
        setup = setup_from_number("mrc", n)
        rank = setup.rank
        r1, r2 = (i for i, c in enumerate(rank) if c == "R")
        assert r1 < rank.index("K") < r2
        rows = setup.fen.split()[0].split("/")
        assert rows[0] == rank[::-1].lower()
        # Point reflection keeps every square's colour: Black's bishops match White's.
        black_bishops = [8 - i for i, c in enumerate(rows[0]) if c == "b"]
        assert sorted(black_bishops) == [i for i, c in enumerate(rank) if c == "B"]


def test_mrc_bishop_filters() -> None:
    # RULES.md §4.3: 8,400 opposite + 6,720 same-coloured = 15,120.
    same, opposite = SetupPool("mrc", "same"), SetupPool("mrc", "opposite")
    assert (len(same), len(opposite)) == (6720, 8400)
    assert set(same.numbers).isdisjoint(opposite.numbers)
    assert all(setup_from_number("mrc", n).bishops_same_colour for n in same.numbers[::11])
    assert not any(setup_from_number("mrc", n).bishops_same_colour for n in opposite.numbers[::11])
    assert MAURA_NUMBER in same  # Maura's bishops are on c and g, both dark


def test_chess960_matches_python_chess() -> None:
    chess = pytest.importorskip("chess")
    for n in range(CHESS960_SETUPS):
        board = chess.Board.from_chess960_pos(n)
        rank = "".join(board.piece_at(sq).symbol() for sq in range(8))  # type: ignore[union-attr]
        assert chess960_rank(n) == rank


@pytest.mark.parametrize(
    ("variant", "number"),
    [("chess960", -1), ("chess960", 960), ("mrc", -1), ("mrc", 15120), ("chess960", True)],
)
def test_numbers_out_of_range(variant: str, number: int) -> None:
    with pytest.raises(SetupNumberError):
        setup_from_number(variant, number)


def test_unnumbered_variant() -> None:
    with pytest.raises(SetupNumberError, match="not numbered"):
        setup_count("chess")
    assert setup_count("Chess960") == 960 and setup_count("mrc") == 15120


@pytest.mark.parametrize(
    ("variant", "rank", "why"),
    [
        ("chess960", "KRBBQNNR", "between the two rooks"),  # king outside the rooks
        ("chess960", "RBQBKNNR", "opposite colours"),  # bishops b1 and d1, both light
        ("chess960", "RNBQKBN", "8 pieces"),
        ("chess960", "RNBQKBNM", "in some order"),
        ("mrc", "RNBQKBNR", "9 pieces"),
        ("mrc", "KRNBMQBNR", "between the two rooks"),
    ],
)
def test_not_a_setup(variant: str, rank: str, why: str) -> None:
    with pytest.raises(NotASetupError, match=why):
        setup_from_rank(variant, rank)


# --- letters -----------------------------------------------------------------------------------


def test_spanish_letters() -> None:
    # RULES.md letters: R = rey, D = dama, T = torre, A = alfil, C = caballo, M = ministro.
    assert localize_rank("RNBQKBNR", "es") == "TCADRACT"
    assert localize_rank("RNBMKQBNR", "es") == "TCAMRDACT"
    assert parse_rank("TCADRACT", "es") == "RNBQKBNR"
    assert parse_rank("tclmrdact", "es") == "RNBMKQBNR"  # FIDE's L for alfil is read too
    assert setup_from_number("chess960", 518).localized("es") == "TCADRACT"
    with pytest.raises(NotASetupError):
        parse_rank("RNBQKBNX")


# --- the JSON object ---------------------------------------------------------------------------


def test_setup_json_fields() -> None:
    d = setup_from_number("chess960", 518).as_dict("es")
    assert d == {
        "variant": "chess960",
        "number": 518,
        "rank": "RNBQKBNR",
        "rank_localized": "TCADRACT",
        "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "castling": {"O-O": "Kg1 Rf1", "O-O-O": "Kc1 Rd1"},
    }
    m = setup_from_number("mrc", MAURA_NUMBER).as_dict()
    assert list(m) == [
        "variant", "number", "rank", "rank_localized", "fen", "castling", "bishops_same_colour",
    ]
    assert m["castling"] == {"O-O-Og": "Kg1 Rf1", "O-O-Oc": "Kc1 Rd1"}  # RULES.md §6
    assert m["bishops_same_colour"] is True


def test_castling_squares_for_black_and_in_spanish() -> None:
    setup = setup_from_number("mrc", 0)
    assert setup.castling("es", 9) == {"O-O-Og": "Rg9 Tf9", "O-O-Oc": "Rc9 Td9"}  # D-27


# --- number from a FEN -------------------------------------------------------------------------


def test_every_start_fen_gives_its_number() -> None:
    for n in range(CHESS960_SETUPS):
        assert setup_from_fen(setup_from_number("chess960", n).fen).number == n
    for n in range(0, MRC_SETUPS, 13):
        assert setup_from_fen(setup_from_number("mrc", n).fen).number == n


@pytest.mark.parametrize(
    ("fen", "number"),
    [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 518),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", 518),  # Shredder-FEN
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", 518),  # placement only
        ("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1", 0),
        ("rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w AIai - 0 1", 8226),
        ("rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w KQkq - 0 1", 8226),  # D-14
        (
            "rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w IAia - 0 1 ABCDEFGHIabcdefghi",
            8226,
        ),
    ],
)
def test_number_from_fen(fen: str, number: int) -> None:
    assert setup_from_fen(fen).number == number


@pytest.mark.parametrize(
    ("fen", "variant", "why"),
    [
        ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", None, "pawns"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1", None, "White moves first"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1", None, "castling"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", None, "en passant"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 7", None, "move number"),
        ("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", None, "mirror"),
        # Direct symmetry (Pseudo-MRC) is not MRC's point reflection (§4.3).
        ("rnbmkqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w AIai - 0 1", None, "point"),
        ("rbqbknnr/pppppppp/8/8/8/8/PPPPPPPP/RBQBKNNR w KQkq - 0 1", None, "opposite colours"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "mrc", "not a mrc board"),
        ("rnbqkmbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKQBNR w KQkq - 0 1", None, "different lengths"),
        ("rnbmkqbnr/ppppppppp/9/9/9/9/PPPPPPPPP/RNBMKQBNR w AIai - 0 1", None, "9x8"),
        ("", None, "empty"),
    ],
)
def test_not_a_start_fen(fen: str, variant: str | None, why: str) -> None:
    with pytest.raises(NotASetupError, match=why):
        setup_from_fen(fen, variant)


# --- pools and ordinary draws ------------------------------------------------------------------


def test_pools() -> None:
    assert SetupPool("chess960").tag == "chess960:any:-"
    pool = SetupPool("chess960", exclude_standard=True)
    assert pool.tag == "chess960:any:518" and len(pool) == 959 and 518 not in pool
    mrc = SetupPool("mrc", "same", exclude_standard=True)
    assert mrc.tag == "mrc:same:8226" and len(mrc) == 6719
    with pytest.raises(ValueError, match="MRC and CRC only"):
        SetupPool("chess960", "same")
    with pytest.raises(ValueError):
        SetupPool("mrc", "light")  # type: ignore[arg-type]


def test_random_draw_uses_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def fake_randbelow(n: int) -> int:
        calls.append(n)
        return n - 1

    monkeypatch.setattr(startpos.secrets, "randbelow", fake_randbelow)
    pool = SetupPool("chess960", exclude_standard=True)
    assert [s.number for s in draw_random(pool, 3)] == [959] * 3
    assert calls == [959] * 3


def test_random_draws_stay_in_the_pool() -> None:
    pool = SetupPool("mrc", "opposite", exclude_standard=True)
    assert all(s.number in pool for s in draw_random(pool, 200))


def test_seeded_draws_are_reproducible() -> None:
    pool = SetupPool("chess960")
    first = [s.number for s in draw_seeded(pool, "42", 20)]
    assert first == [s.number for s in draw_seeded(pool, "42", 20)]
    assert first[:3] == [635, 930, 895]  # docs/shuffler.md §7
    assert first != [s.number for s in draw_seeded(pool, "43", 20)]
    # Draw i does not depend on how many are asked for.
    assert [s.number for s in draw_seeded(pool, "42", 5)] == first[:5]


def _chi_square_critical(dof: int, z: float = 4.265) -> float:
    """Wilson-Hilferty upper quantile (z = 4.265 is p = 1e-5): a safe bound, no scipy."""
    return dof * (1 - 2 / (9 * dof) + z * math.sqrt(2 / (9 * dof))) ** 3


def _chi_square(counts: Counter[int], cells: int, draws: int) -> float:
    expected = draws / cells
    return sum((counts.get(c, 0) - expected) ** 2 / expected for c in range(cells))


def test_seeded_chess960_draws_are_uniform() -> None:
    draws = 960 * 40
    counts = Counter(s.number for s in draw_seeded(SetupPool("chess960"), "uniformity", draws))
    assert _chi_square(counts, 960, draws) < _chi_square_critical(959)


def test_seeded_mrc_draws_are_uniform_over_features() -> None:
    # 15,120 cells would need too many draws; test the marginals a biased mapping would skew:
    # the bishop pair (36 cells), the number mod 97 and the number's top bits (32 cells).
    draws = 20_000
    numbers = [s.number for s in draw_seeded(SetupPool("mrc"), "uniformity", draws)]
    for cells, key in ((36, lambda n: n % 36), (97, lambda n: n % 97),
                       (30, lambda n: n * 30 // MRC_SETUPS)):
        counts = Counter(key(n) for n in numbers)
        assert _chi_square(counts, cells, draws) < _chi_square_critical(cells - 1)


def test_uniform_below_rejects_the_biased_tail() -> None:
    # With n just above 2**255 about half the blocks fall in the rejected tail.
    n = 2**255 + 1
    limit = 2**256 - 2**256 % n
    for i in range(64):
        key = i.to_bytes(4, "big")
        first = hmac.new(key, b"m\x000", hashlib.sha256).digest()
        if int.from_bytes(first, "big") >= limit:
            break
    else:  # pragma: no cover - probability 2**-64
        pytest.fail("no rejected block found")
    second = int.from_bytes(hmac.new(key, b"m\x001", hashlib.sha256).digest(), "big")
    value = startpos._uniform_below(n, key, b"m")
    if second < limit:
        assert value == second % n
    assert 0 <= value < n
    with pytest.raises(ValueError):
        startpos._uniform_below(0, key, b"m")


# --- verifiable draws --------------------------------------------------------------------------


def test_commitment_vector() -> None:
    expected = hashlib.sha256(b"randomchess-commit-v1\x00" + SALT + EVENT.encode()).hexdigest()
    assert commitment(SALT, EVENT) == expected
    assert expected == "38b8f5fe55719104cc6d39d40a83cc062365f0bb56bb76452695367c91625cef"


def test_commitment_normalises_unicode() -> None:
    composed, decomposed = "Torneo Peñíscola", "Torneo Pen\u0303i\u0301scola"
    assert commitment(SALT, composed) == commitment(SALT, decomposed)
    with pytest.raises(CommitmentError):
        commitment(SALT, "  ")
    with pytest.raises(CommitmentError):
        commitment(SALT, "bad\nname")
    with pytest.raises(CommitmentError):
        commitment(SALT[:16], EVENT)


def test_round_vectors_from_the_docs() -> None:
    pool = SetupPool("chess960")
    got = [round_setups(SALT, EVENT, r, 1, pool)[0].number for r in (1, 2, 3)]
    assert got == [275, 442, 305]
    mrc = round_setups(SALT, EVENT, 2, 3, SetupPool("mrc", exclude_standard=True), per_board=True)
    assert [s.number for s in mrc] == [1517, 6474, 11624]


def test_same_setup_for_every_board_or_one_per_board() -> None:
    pool = SetupPool("mrc")
    same = round_setups(SALT, EVENT, 4, 12, pool)
    assert len(same) == 12 and len({s.number for s in same}) == 1
    each = round_setups(SALT, EVENT, 4, 12, pool, per_board=True)
    assert len({s.number for s in each}) > 1
    # The pool, round and event all enter the derivation.
    assert round_setups(SALT, EVENT, 5, 1, pool) != round_setups(SALT, EVENT, 4, 1, pool)
    assert round_setups(SALT, "Other", 4, 1, pool) != same[:1]


def test_exclusion_is_honoured_over_many_rounds() -> None:
    pool = SetupPool("chess960", exclude_standard=True)
    for r in range(1, 300):
        assert round_setups(SALT, EVENT, r, 1, pool)[0].number != ORTHODOX_NUMBER


def test_commit_round_verify_and_tampering() -> None:
    salt = startpos.new_salt()
    published = commitment(salt, EVENT)
    verify_commitment(salt, EVENT, published)
    verify_commitment(salt, EVENT, published.upper())
    tampered = bytes([salt[0] ^ 1]) + salt[1:]
    with pytest.raises(CommitmentError, match="mismatch"):
        verify_commitment(tampered, EVENT, published)
    with pytest.raises(CommitmentError, match="mismatch"):
        verify_commitment(salt, EVENT + " ", published)
    bad = ("0" if published[0] != "0" else "1") + published[1:]
    with pytest.raises(CommitmentError, match="mismatch"):
        verify_commitment(salt, EVENT, bad)
    with pytest.raises(CommitmentError, match="64 hexadecimal"):
        verify_commitment(salt, EVENT, "xyz")


def test_salt_parsing_and_salt_files() -> None:
    assert parse_salt(SALT.hex().upper()) == SALT
    for bad in ("", "00", SALT.hex() + "0", "g" * 64):
        with pytest.raises(CommitmentError):
            parse_salt(bad)
    text = format_salt_file(SALT, EVENT)
    stored = parse_salt_file(text)
    assert (stored.salt, stored.event, stored.commitment) == (SALT, EVENT, commitment(SALT, EVENT))
    lines = text.splitlines()
    lines[-1] = "ff" + lines[-1][2:]
    with pytest.raises(CommitmentError, match="mismatch"):
        parse_salt_file("\n".join(lines))
    with pytest.raises(CommitmentError, match="no salt"):
        parse_salt_file("# nothing here\n")
    with pytest.raises(CommitmentError, match="exactly one"):
        parse_salt_file(SALT.hex() + "\n" + SALT.hex())


def test_round_lists() -> None:
    assert list(iter_rounds("3")) == [3]
    assert list(iter_rounds("1-4")) == [1, 2, 3, 4]
    assert list(iter_rounds("1,3,5-6,3")) == [1, 3, 5, 6]
    for bad in ("0", "3-1", "a", "1-", ""):
        with pytest.raises(ValueError):
            list(iter_rounds(bad))
    with pytest.raises(ValueError):
        round_setups(SALT, EVENT, 0, 1, SetupPool("chess960"))
    with pytest.raises(ValueError):
        round_setups(SALT, EVENT, 1, 0, SetupPool("chess960"))


# --- the documented derivation, run from the docs ----------------------------------------------


def _docs_sketch() -> dict[str, Any]:
    text = DOCS.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 1
    scope: dict[str, Any] = {}
    exec(compile(blocks[0], str(DOCS), "exec"), scope)
    return scope


def test_independent_implementation_in_the_docs_agrees() -> None:
    doc = _docs_sketch()
    assert doc["commitment"](SALT, EVENT) == commitment(SALT, EVENT)
    for variant, bishops, exclude in [
        ("chess960", "any", False),
        ("chess960", "any", True),
        ("mrc", "any", False),
        ("mrc", "same", True),
        ("mrc", "opposite", False),
    ]:
        pool = SetupPool(variant, bishops, exclude)  # type: ignore[arg-type]
        numbers, tag = doc["pool"](variant, bishops, pool.excluded)
        assert tag == pool.tag and tuple(numbers) == pool.numbers
        for r in (1, 2, 9):
            ours = round_setups(SALT, EVENT, r, 3, pool, per_board=True)
            assert [s.number for s in ours] == [
                doc["round_number"](SALT, EVENT, r, b, numbers, tag) for b in (1, 2, 3)
            ]
            shared = round_setups(SALT, EVENT, r, 1, pool)[0].number
            assert shared == doc["round_number"](SALT, EVENT, r, 0, numbers, tag)
        seeded = [s.number for s in draw_seeded(pool, "docs", 4)]
        assert seeded == [doc["seeded_number"]("docs", i, numbers, tag) for i in range(4)]


def test_docs_carry_the_numbering_algorithms_themselves() -> None:
    """Issue 29: docs/shuffler.md sent a verifier to RULES.md §2.4/§4.8, which is not in
    the repository.  The page states both numberings, and its sketch turns every number
    into the same back rank as ``startpos`` (all 960 and all 15,120)."""
    text = DOCS.read_text(encoding="utf-8")
    assert "RULES.md" not in text
    doc = _docs_sketch()
    assert [doc["chess960_rank"](n) for n in range(960)] == \
        [chess960_rank(n) for n in range(960)]
    assert [doc["mrc_rank"](n) for n in range(15120)] == [mrc_rank(n) for n in range(15120)]
    for n, rank in {**CHESS960_KNOWN, **MRC_KNOWN}.items():
        assert f"{n} = `{rank}`" in text or f"{n} `{rank}`" in text, n


def test_docs_test_vectors_are_current() -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert commitment(SALT, EVENT) in text
    for n in (275, 442, 305, 1517, 6474, 11624, 13329, 272, 635, 930, 895):
        assert f"**{n}**" in text
    same = round_setups(SALT, EVENT, 1, 2, SetupPool("mrc", "same"), per_board=True)
    assert [(s.number, s.rank) for s in same] == [(13329, "RBKBNRMNQ"), (272, "QNBMNRKRB")]


# --- issue 13: bounded counts and ASCII digits ------------------------------------------------
@pytest.mark.parametrize(
    "fen",
    [
        "99999999",
        "9999999/8",
        "8/8/8/8/8/8/8/" + "9" * 30,
        "8/8/8/8/8/8/8/RNBQKBN² w",
        "8/8/8/8/8/8/8/RNBQKBN\u0663 w",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 \u0661",
    ],
)
def test_setup_from_fen_bounds_counts_and_reads_ascii_digits(fen: str) -> None:
    import tracemalloc

    tracemalloc.start()
    try:
        with pytest.raises(NotASetupError):
            setup_from_fen(fen)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000


def test_random_rank_is_uniform_over_the_arrays_of_unnumbered_variants() -> None:
    """``random_rank`` (the server's draw for Capablanca Random, Pseudo-MRC, Chess8400,
    PMRC): every result an array of the variant, uniform over them (checked on Chess960,
    whose 960 arrays the numbering lists, and on Chess8400's king file)."""
    import random

    from randomchess.variants import get_variant

    rng = random.Random(12)
    draws = 960 * 40
    counts = Counter(startpos.chess960_number(startpos.random_rank("chess960", rng))
                     for _ in range(draws))
    assert _chi_square(counts, 960, draws) < _chi_square_critical(959)
    for key in ("caparandom", "pseudo-mrc", "chess8400", "pmrc"):
        v = get_variant(key)
        assert all(v.is_setup(startpos.random_rank(v, rng)) for _ in range(200))
    # Chess8400: how often the king stands on each file, against a count of all arrays.
    v = get_variant("chess8400")
    arrays = list(v.setups())
    assert len(arrays) == 8400
    by_file = Counter(r.index("K") for r in arrays)
    draws = 9_000
    seen = Counter(startpos.random_rank(v, rng).index("K") for _ in range(draws))
    chi = sum((seen[f] - draws * n / 8400) ** 2 / (draws * n / 8400) for f, n in by_file.items())
    assert chi < _chi_square_critical(len(by_file) - 1)
    with pytest.raises(startpos.SetupPoolError):
        startpos.random_rank("chess")


def test_numbering_follows_the_variant_entry_not_its_key() -> None:
    """Issue 12: the setup family and numbering live in ``Variant``.  An entry numbered with
    Scharnagl's or the MRC scheme under another key is numbered, pooled and read back by
    its numbering; the standard array a pool may leave out is its ``startpos_rank``."""
    from dataclasses import replace

    from randomchess.variants import VariantDefinitionError, get_variant

    fischer = replace(get_variant("chess960"), key="fischer-test", pgn_name="Fischer Test",
                      aliases=())
    assert startpos.setup_count(fischer) == 960
    assert setup_from_number(fischer, 518).rank == "RNBQKBNR"
    assert startpos.setup_from_rank(fischer, "BBQNNRKR").number == 0
    assert SetupPool(fischer, exclude_standard=True).excluded == (518,)
    assert SetupPool(fischer).tag == "fischer-test:any:-"
    with pytest.raises(startpos.SetupPoolError):
        SetupPool(fischer, "same")
    assert "bishops_same_colour" not in setup_from_number(fischer, 0).as_dict()
    modern = replace(get_variant("mrc"), key="mrc-test", pgn_name="MRC Test", aliases=(),
                     startpos_rank="RNBQKMBNR")
    assert startpos.setup_count(modern) == MRC_SETUPS
    pool = SetupPool(modern, "same", exclude_standard=True)
    assert pool.excluded == (startpos.mrc_number("RNBQKMBNR"),)
    assert len(pool) == 6720 - 1
    assert "bishops_same_colour" in setup_from_number(modern, 0).as_dict()
    # A numbering that cannot count the entry's arrays is refused when the entry is built.
    with pytest.raises(VariantDefinitionError):
        replace(get_variant("caparandom"), key="capa-test", numbering="scharnagl")
    with pytest.raises(VariantDefinitionError):
        replace(get_variant("pseudo-mrc"), key="chess8400-test", numbering="mrc",
                bishops_opposite=True)


def test_seed_and_event_that_utf8_cannot_encode_are_typed_errors() -> None:
    """Issue 36: a lone surrogate (what Python makes of a byte that is not UTF-8 on the command
    line) raised UnicodeEncodeError; the key is UTF-8(seed), so such a seed is refused."""
    pool = SetupPool("chess960")
    for seed in ("\udcff", "caf\udce9", "\ud800"):
        with pytest.raises(SeedError, match="UTF-8"):
            draw_seeded(pool, seed)
    with pytest.raises(SeedError, match="byte 0xe9"):
        draw_seeded(pool, "caf\udce9")
    with pytest.raises(SeedError, match="U\\+D800"):
        draw_seeded(pool, "\ud800")
    for event in ("\udcff", "Torneo Pe\udcf1a"):
        with pytest.raises(CommitmentError, match="UTF-8"):
            commitment(SALT, event)
        with pytest.raises(CommitmentError, match="UTF-8"):
            round_setups(SALT, event, 1, 1, pool)
        with pytest.raises(CommitmentError, match="UTF-8"):
            format_salt_file(SALT, event)
