"""Start positions: numbering, fair draws and verifiable (committed) draws.

* Chess960 setups are numbered 0-959 with Scharnagl's scheme (RULES.md §2.4, D-25): 518 is
  ``RNBQKBNR``.  MRC setups carry the project's own MRC-Id 0-15,119 (RULES.md §4.8, D-20):
  Maura's ``RNBMKQBNR`` is 8226.  Both directions are computed, never looked up.
* A draw picks uniformly from a :class:`SetupPool` (a variant's setups, optionally only the
  MRC setups with same- or opposite-coloured bishops, optionally without the orthodox/Maura
  array).  The default source is :mod:`secrets`; a seed gives a reproducible draw.
* A verifiable draw derives every round's setups from a secret salt committed to before the
  event, so that anyone can check them afterwards.  The exact derivation, which an independent
  implementation can follow, is in ``docs/shuffler.md``; this module is its reference.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import secrets
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations
from typing import Any, Literal

from randomchess.errors import LanguageError, NotASetupError, RandomChessError
from randomchess.geometry import FILE_LETTERS
from randomchess.pieces import KIND_BY_LETTER, KIND_BY_SPANISH_LETTER, PIECE_TYPES
from randomchess.variants import (
    PAIR_NUMBERINGS,
    VARIANTS,
    Numbering,
    Variant,
    get_variant,
    numbered_variant_keys,
)

__all__ = [
    "CHESS960_SETUPS",
    "CRC_SETUPS",
    "DOUBLE960_SETUPS",
    "DOUBLE_MRC_SETUPS",
    "HALL_ALPHABET",
    "HALL_MAX_DIGITS",
    "HALL_MIN_DIGITS",
    "MAURA_NUMBER",
    "MRC_SETUPS",
    "ORTHODOX_NUMBER",
    "SALT_BYTES",
    "BishopFilter",
    "CommitmentError",
    "HallInputError",
    "Language",
    "NotASetupError",
    "NumberedSetup",
    "RoundError",
    "SaltFile",
    "SeedError",
    "SetupNumberError",
    "SetupPool",
    "SetupPoolError",
    "chess960_number",
    "chess960_rank",
    "commitment",
    "draw_random",
    "draw_seeded",
    "format_salt_file",
    "hall_draw",
    "hall_round_key",
    "iter_rounds",
    "localize_rank",
    "mrc_number",
    "mrc_rank",
    "new_salt",
    "numbered_variant",
    "parse_hall_input",
    "parse_rank",
    "parse_salt",
    "parse_salt_file",
    "random_rank",
    "round_setup",
    "round_setups",
    "setup_count",
    "setup_from_fen",
    "setup_from_label",
    "setup_from_number",
    "setup_from_rank",
    "standard_and_mirror",
    "verify_commitment",
]

CHESS960_SETUPS = 960
MRC_SETUPS = 15_120
CRC_SETUPS = 1_680
DOUBLE960_SETUPS = CHESS960_SETUPS**2  # 921,600: a Chess960 array per side
DOUBLE_MRC_SETUPS = MRC_SETUPS**2  # 228,614,400: an MRC array per side
ORTHODOX_NUMBER = 518  # RNBQKBNR (RULES.md §2.4)
MAURA_NUMBER = 8226  # RNBMKQBNR (RULES.md §4.8)
SALT_BYTES = 32

BishopFilter = Literal["any", "same", "opposite"]
Language = Literal["en", "es"]

# Knight placements among the five squares left after bishops, queen (and minister), §2.4.
_KNIGHT_TABLE: tuple[tuple[int, int], ...] = tuple(combinations(range(5), 2))
# MRC-Id step 1: the 36 bishop file pairs (i < j) of files 0..8 in lexicographic order (§4.8).
_MRC_BISHOP_PAIRS: tuple[tuple[int, int], ...] = tuple(combinations(range(9), 2))

# How many arrays each numbering (``Variant.numbering``) counts.
_COUNTS: dict[Numbering, int] = {"scharnagl": CHESS960_SETUPS, "mrc": MRC_SETUPS,
                                  "crc": CRC_SETUPS, "pm-crc": CRC_SETUPS,
                                  "double-scharnagl": DOUBLE960_SETUPS,
                                  "double-mrc": DOUBLE_MRC_SETUPS}
# CRC-Id (docs/rules.md): the MRC-Id on 8 files without the minister: the 28 bishop file
# pairs in lexicographic order, then the queen among the 6 squares left, then the knights.
_CRC_BISHOP_PAIRS: tuple[tuple[int, int], ...] = tuple(combinations(range(8), 2))
# The numberings whose bishops may share a colour, and their bishop pairs.
_BISHOP_PAIRS: dict[Numbering, tuple[tuple[int, int], ...]] = {"mrc": _MRC_BISHOP_PAIRS,
                                                              "crc": _CRC_BISHOP_PAIRS,
                                                              "pm-crc": _CRC_BISHOP_PAIRS}


class SetupNumberError(RandomChessError):
    """A setup number outside its variant's range (or a variant that has no numbering)."""


class SetupPoolError(RandomChessError):
    """A pool filter that does not apply, or a draw from an empty pool."""


class RoundError(RandomChessError):
    """A round number, round list or board count that cannot be."""


class CommitmentError(RandomChessError):
    """A salt, salt file or commitment that is malformed or does not match."""


class SeedError(RandomChessError):
    """A seed that UTF-8 cannot encode (the key of a seeded draw is UTF-8(seed))."""


class HallInputError(RandomChessError):
    """A hall input (the public digits of a reveal) that is empty, too short or too long,
    or has a character outside :data:`HALL_ALPHABET`.  ``reason`` names which:
    ``empty``, ``alphabet``, ``short`` or ``long``."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


# --- numbering -----------------------------------------------------------------------------


def _check_number(number: int, count: int, variant: str) -> None:
    if isinstance(number, bool) or not isinstance(number, int):
        raise SetupNumberError(f"setup number must be an integer, not {number!r}")
    if not 0 <= number < count:
        raise SetupNumberError(
            f"{number} is out of range: {variant} setups are numbered 0-{count - 1}"
        )


def _fill(squares: list[str], index: int, piece: str) -> None:
    """Put ``piece`` on the ``index``-th empty square (counted from the a-file, from 0)."""
    empty = [i for i, c in enumerate(squares) if c == ""]
    squares[empty[index]] = piece


def _finish(squares: list[str], knights: int) -> str:
    """Place the knights by the §2.4 table row ``knights`` and R, K, R on the last three."""
    empty = [i for i, c in enumerate(squares) if c == ""]
    for k in _KNIGHT_TABLE[knights]:
        squares[empty[k]] = "N"
    for i, piece in zip((i for i, c in enumerate(squares) if c == ""), "RKR", strict=True):
        squares[i] = piece
    return "".join(squares)


def chess960_rank(number: int) -> str:
    """White's back rank (a-file first) of Chess960 setup ``number`` (Scharnagl, §2.4)."""
    _check_number(number, CHESS960_SETUPS, "chess960")
    return _scharnagl_rank(number)


def _scharnagl_rank(number: int) -> str:
    squares = [""] * 8
    n, light = divmod(number, 4)
    squares[2 * light + 1] = "B"  # b, d, f, h
    n, dark = divmod(n, 4)
    squares[2 * dark] = "B"  # a, c, e, g
    n, queen = divmod(n, 6)
    _fill(squares, queen, "Q")
    return _finish(squares, n)


def mrc_rank(number: int) -> str:
    """White's back rank (a-file first) of MRC setup ``number`` (project MRC-Id, §4.8)."""
    _check_number(number, MRC_SETUPS, "mrc")
    return _mrc_rank(number)


def _mrc_rank(number: int) -> str:
    squares = [""] * 9
    n, pair = divmod(number, 36)
    for i in _MRC_BISHOP_PAIRS[pair]:
        squares[i] = "B"
    n, queen = divmod(n, 7)
    _fill(squares, queen, "Q")
    n, minister = divmod(n, 6)
    _fill(squares, minister, "M")
    return _finish(squares, n)


def _crc_rank(number: int) -> str:
    squares = [""] * 8
    n, pair = divmod(number, 28)
    for i in _CRC_BISHOP_PAIRS[pair]:
        squares[i] = "B"
    n, queen = divmod(n, 6)
    _fill(squares, queen, "Q")
    return _finish(squares, n)


def _take(squares: list[str], target: str) -> int:
    """Undo one ``_fill``: ``target``'s index among the squares still holding a letter.

    Walking the forward algorithm backwards, the squares that still hold letters are exactly
    the ones that were empty when ``target`` was placed; the square is then cleared.
    """
    empty = [i for i, c in enumerate(squares) if c]
    i = squares.index(target)
    squares[i] = ""
    return empty.index(i)


def _knight_row(squares: list[str]) -> int:
    left = [c for c in squares if c]
    knights = tuple(i for i, c in enumerate(left) if c == "N")
    return _KNIGHT_TABLE.index((knights[0], knights[1]))


def _checked_rank(variant: Variant, rank: str) -> str:
    rank = rank.strip()
    if not variant.is_setup(rank):
        raise NotASetupError(f"{rank!r} is not a {variant.key} setup: {_why_not(variant, rank)}")
    return rank


def _why_not(variant: Variant, rank: str) -> str:
    if variant.independent_sides:
        halves = rank.split("/")
        if len(halves) != 2:
            return "write White's array and Black's, a-file first, as WHITE/BLACK"
        bad = next((h for h in halves if not variant.is_setup(f"{h}/{h}")), halves[0])
        return _why_not_one(variant, bad)
    return _why_not_one(variant, rank)


def _why_not_one(variant: Variant, rank: str) -> str:
    if len(rank) != variant.files:
        return f"a {variant.key} back rank has {variant.files} pieces, not {len(rank)}"
    if sorted(rank) != sorted(variant.army):
        return f"the pieces must be {''.join(sorted(variant.army))} in some order"
    king, rooks = rank.index("K"), [i for i, c in enumerate(rank) if c == "R"]
    if not rooks[0] < king < rooks[-1]:
        return "the king must stand between the two rooks"
    return "the bishops must stand on squares of opposite colours"


def chess960_number(rank: str) -> int:
    """The Scharnagl number of Chess960 back rank ``rank`` (``NotASetupError`` if none)."""
    return _scharnagl_number(_checked_rank(get_variant("chess960"), rank))


def _scharnagl_number(rank: str) -> int:
    bishops = [i for i, c in enumerate(rank) if c == "B"]
    light = next(i for i in bishops if i % 2 == 1) // 2
    dark = next(i for i in bishops if i % 2 == 0) // 2
    squares = _restore(rank, bishops)
    queen = _take(squares, "Q")
    return 96 * _knight_row(squares) + 16 * queen + 4 * dark + light


def _restore(rank: str, removed: Iterable[int]) -> list[str]:
    """``rank`` as a list with the squares ``removed`` cleared."""
    gone = set(removed)
    return ["" if i in gone else c for i, c in enumerate(rank)]


def mrc_number(rank: str) -> int:
    """The project MRC-Id of MRC back rank ``rank`` (``NotASetupError`` if none)."""
    return _mrc_number(_checked_rank(get_variant("mrc"), rank))


def _mrc_number(rank: str) -> int:
    bishops = tuple(i for i, c in enumerate(rank) if c == "B")
    pair = _MRC_BISHOP_PAIRS.index((bishops[0], bishops[1]))
    squares = _restore(rank, bishops)
    queen = _take(squares, "Q")
    minister = _take(squares, "M")
    return ((_knight_row(squares) * 6 + minister) * 7 + queen) * 36 + pair


def _crc_number(rank: str) -> int:
    bishops = tuple(i for i, c in enumerate(rank) if c == "B")
    pair = _CRC_BISHOP_PAIRS.index((bishops[0], bishops[1]))
    squares = _restore(rank, bishops)
    queen = _take(squares, "Q")
    return (_knight_row(squares) * 6 + queen) * 28 + pair


def _pair_rank(pair: Numbering) -> Callable[[int], str]:
    # Independent arrays (docs/rules.md): number = count * White's number + Black's, each
    # side's array numbered by the one-array scheme (Black's read from Black's side when
    # the scheme's variant is reverse-symmetric, MRC); the setup is WHITE/BLACK, a-file first.
    one, from_black_side = PAIR_NUMBERINGS[pair]
    count = _COUNTS[one]

    def rank(number: int) -> str:
        white, black = divmod(number, count)
        theirs = _RANK_OF[one](black)
        return f"{_RANK_OF[one](white)}/{theirs[::-1] if from_black_side else theirs}"
    return rank


def _pair_number(pair: Numbering) -> Callable[[str], int]:
    one, from_black_side = PAIR_NUMBERINGS[pair]
    count = _COUNTS[one]

    def number(setup: str) -> int:
        white, _, black = setup.partition("/")
        theirs = black[::-1] if from_black_side else black
        return count * _NUMBER_OF[one](white) + _NUMBER_OF[one](theirs)
    return number


# Each numbering's two directions, for arrays already checked to be the variant's.
_RANK_OF: dict[Numbering, Callable[[int], str]] = {
    "scharnagl": _scharnagl_rank, "mrc": _mrc_rank, "crc": _crc_rank,
    # PM-CRC: the CRC-Id with the minister in the queen's place (docs/rules.md).
    "pm-crc": lambda n: _crc_rank(n).replace("Q", "M")}
_NUMBER_OF: dict[Numbering, Callable[[str], int]] = {
    "scharnagl": _scharnagl_number, "mrc": _mrc_number, "crc": _crc_number,
    "pm-crc": lambda rank: _crc_number(rank.replace("M", "Q"))}
for _pair in PAIR_NUMBERINGS:
    _RANK_OF[_pair] = _pair_rank(_pair)
    _NUMBER_OF[_pair] = _pair_number(_pair)


def side_count(variant: Variant) -> int:
    """How many arrays one side of independent ``variant`` has (960 in Double Fischer
    Random, 15,120 in Double MRC): a setup's number is this many times White's plus Black's."""
    return _COUNTS[PAIR_NUMBERINGS[_numbering(variant)][0]]


def numbered_variant(variant: str | Variant) -> Variant:
    """``variant`` if its setups are numbered (``Variant.numbering``: Chess960, MRC);
    ``SetupNumberError`` if not."""
    v = get_variant(variant)
    if v.numbering is None:
        raise SetupNumberError(f"{v.key} setups are not numbered; numbered variants: "
                               f"{', '.join(numbered_variant_keys())}")
    return v


def _numbering(v: Variant) -> Numbering:
    assert v.numbering is not None  # numbered_variant(v) has checked it
    return v.numbering


def setup_count(variant: str | Variant) -> int:
    """How many setups the numbered ``variant`` has (960 or 15,120)."""
    return _COUNTS[_numbering(numbered_variant(variant))]


def standard_and_mirror(variant: str | Variant) -> tuple[int, int]:
    """The numbers of the variant's standard array (``position startpos``: Chess960 518,
    MRC Maura's 8226) and of its mirror image, the same rank read from the other side
    (Chess960 534 ``RNBKQBNR``, MRC 8406 ``RNBQKMBNR``), from the variant's data."""
    v = numbered_variant(variant)
    standard = v.startpos_rank
    assert standard is not None  # every random variant names one (variants.py)
    number = _NUMBER_OF[_numbering(v)]
    return number(standard), number(standard[::-1])


# --- letters -------------------------------------------------------------------------------

_TO_SPANISH = {t.letter: t.spanish for t in PIECE_TYPES.values()}
_FROM_SPANISH = {s: PIECE_TYPES[k].letter for s, k in KIND_BY_SPANISH_LETTER.items()}
_FROM_ENGLISH = {e: e for e in KIND_BY_LETTER}


def localize_rank(rank: str, lang: Language = "en") -> str:
    """``rank`` written with ``lang``'s piece letters: ``RNBQKBNR`` is ``TCADRACT`` in Spanish."""
    if lang == "en":
        return rank
    if lang == "es":
        return "".join(_TO_SPANISH.get(c, c) if c != "/" else c for c in rank)
    raise LanguageError(f"unknown language {lang!r}; use 'en' or 'es'")


def parse_rank(text: str, lang: Language = "en") -> str:
    """A back rank typed with ``lang``'s letters, as English letters (``ValueError`` if bad)."""
    table = {**(_FROM_SPANISH if lang == "es" else _FROM_ENGLISH), "/": "/"}
    try:
        return "".join(table[c] for c in text.strip().upper())
    except KeyError as e:
        raise NotASetupError(f"unknown piece letter {e.args[0]!r} in {text!r} ({lang})") from None


# --- setups --------------------------------------------------------------------------------


@dataclass(frozen=True)
class NumberedSetup:
    """One numbered start array of a variant: its number, back rank and derived facts."""

    variant: Variant
    number: int
    rank: str  # White's back rank, a-file first, English letters

    @property
    def fen(self) -> str:
        return self.variant.setup_fen(self.rank)

    @property
    def placement(self) -> str:
        return self.fen.split(" ", 1)[0]

    @property
    def bishops_same_colour(self) -> bool:
        return self.variant.bishops_same_colour(self.rank)

    @property
    def label(self) -> str:
        """The number as players write it: ``518``, or ``518/123`` (White's Scharnagl number,
        Black's) for Double Fischer Random."""
        if self.variant.independent_sides:
            return "/".join(map(str, divmod(self.number, side_count(self.variant))))
        return str(self.number)

    def localized(self, lang: Language = "en") -> str:
        return localize_rank(self.rank, lang)

    def castling(self, lang: Language = "en", rank: int | None = None) -> dict[str, str]:
        """Final squares of each castling, far side first: ``{"O-O": "Kg1 Rf1", ...}``.

        The destinations are the same whatever the array (RULES.md §2.2, §4.5, §6); ``rank``
        (default: White's home rank, 1, or 2 in IFRC) gives Black's (8 or 9, D-27).
        """
        if rank is None:
            rank = self.variant.margin + 1
        king, rook = localize_rank("K", lang), localize_rank("R", lang)
        out = {}
        for san, (k, r) in (
            (self.variant.castle_san[1], self.variant.castle_h),
            (self.variant.castle_san[0], self.variant.castle_a),
        ):
            out[san] = f"{king}{FILE_LETTERS[k]}{rank} {rook}{FILE_LETTERS[r]}{rank}"
        return out

    def as_dict(self, lang: Language = "en") -> dict[str, object]:
        """The JSON object of ``randomchess draw`` (field names are a published interface)."""
        out: dict[str, object] = {
            "variant": self.variant.key,
            "number": self.number,
            "rank": self.rank,
            "rank_localized": self.localized(lang),
            "fen": self.fen,
            "castling": self.castling(),
        }
        if not self.variant.bishops_opposite:  # MRC: the bishops may share a colour
            out["bishops_same_colour"] = self.bishops_same_colour
        if self.variant.independent_sides:  # Double Fischer Random: "518/123"
            out["label"] = self.label
        return out


def setup_from_number(variant: str | Variant, number: int) -> NumberedSetup:
    """Setup ``number`` of ``variant`` (``SetupNumberError`` when out of range)."""
    v = numbered_variant(variant)
    _check_number(number, setup_count(v), v.key)
    return NumberedSetup(v, number, _RANK_OF[_numbering(v)](number))


def setup_from_label(variant: str | Variant, label: str) -> NumberedSetup:
    """The setup a player's number names: ``"518"``, or ``"518/123"`` in Double Fischer
    Random (White's Scharnagl number, then Black's); ``SetupNumberError`` if malformed."""
    v = numbered_variant(variant)
    parts = label.strip().split("/")
    if not all(p.isascii() and p.isdigit() and len(p) <= 9 for p in parts) or len(parts) != (
            2 if v.independent_sides else 1):
        form = "a number"
        if v.independent_sides:
            one = PAIR_NUMBERINGS[_numbering(v)][0]
            form = ("two Scharnagl numbers, e.g. 518/123" if one == "scharnagl" else
                    f"two {one.upper()} numbers, White's then Black's, e.g. "
                    f"{standard_and_mirror(v)[0] // side_count(v)}/123")
        raise SetupNumberError(f"{label!r} is not a {v.key} setup number: write {form}")
    if v.independent_sides:
        white, black = (int(p) for p in parts)
        count = side_count(v)
        one = PAIR_NUMBERINGS[_numbering(v)][0]
        for n in (white, black):
            _check_number(n, count, f"each side's {one}")
        return setup_from_number(v, white * count + black)
    return setup_from_number(v, int(parts[0]))


def setup_from_rank(variant: str | Variant, rank: str) -> NumberedSetup:
    """The numbered setup whose White back rank is ``rank`` (``NotASetupError`` if none)."""
    v = numbered_variant(variant)
    number = _NUMBER_OF[_numbering(v)](_checked_rank(v, rank))
    return NumberedSetup(v, number, rank.strip())


_MAX_FILES = len(FILE_LETTERS)


def _expand_row(row: str) -> list[str]:
    """A placement rank as one entry per square; counts are ASCII digits, each bounded by
    the widest board before it is expanded (issue 13: '99999999' must cost nothing)."""
    out: list[str] = []
    for run in re.findall(r"[0-9]+|[^0-9]", row):
        if run[0] in "0123456789":
            if len(run) > 2 or len(out) + int(run) > _MAX_FILES:
                raise NotASetupError(
                    f"rank {row[:20]!r} has more squares than any board ({_MAX_FILES})"
                )
            out.extend("" for _ in range(int(run)))
        elif not run.isascii() or not run.isalpha():
            raise NotASetupError(f"unknown piece letter {run!r} in {row!r}")
        else:
            out.append(run)
    if len(out) > _MAX_FILES:
        raise NotASetupError(f"rank {row[:20]!r} has more squares than any board ({_MAX_FILES})")
    return out


def setup_from_fen(fen: str, variant: str | Variant | None = None) -> NumberedSetup:
    """The numbered setup a start FEN shows, for an 8x8 (Chess960) or 9x9 (MRC) board.

    Without ``variant`` the board size decides.  ``NotASetupError`` says what is wrong when
    the FEN is not a start position of that variant: pieces moved, Black not White's mirror
    (Chess960) or point reflection (MRC), castling rights missing, Black to move, etc.
    """
    if not isinstance(fen, str):
        raise NotASetupError(f"a FEN is a string, not {type(fen).__name__}")
    fields = fen.split()
    if not fields:
        raise NotASetupError("empty FEN")
    texts = fields[0].partition("[")[0].split("/")  # without a gating variant's hand
    if len(texts) > _MAX_FILES:
        raise NotASetupError(f"a placement of {len(texts)} ranks is bigger than any board")
    rows = [_expand_row(r) for r in texts]
    files = len(rows[0])
    if any(len(r) != files for r in rows):
        raise NotASetupError(f"ranks of different lengths in {fields[0]!r}")
    size = f"{files}x{len(rows)}"
    if variant is None:
        by_size = {f"{n.files}x{n.ranks}": n for n in reversed(VARIANTS.values())
                   if n.numbering is not None}
        if size not in by_size:
            raise NotASetupError(f"a {size} board is neither Chess960 (8x8) nor MRC (9x9)")
        variant = by_size[size]
    v = numbered_variant(variant)
    if size != f"{v.files}x{v.ranks}":
        raise NotASetupError(f"a {size} board is not a {v.key} board ({v.files}x{v.ranks})")
    # Empty squares vanish in the join: IFRC's margin files leave its 8 pieces.
    rank = "".join(rows[-1 - v.margin])
    if v.independent_sides:
        rank = f"{rank}/{''.join(rows[0]).upper()}"
    if not v.is_setup(rank):
        raise NotASetupError(
            f"White's back rank {rank or '(empty)'} is not a {v.key} setup: {_why_not(v, rank)}"
        )
    setup = setup_from_rank(v, rank)
    expected = setup.fen.split()
    if fields[0].partition("[")[0] != expected[0].partition("[")[0]:
        black = v.black_rank(rank)
        reflection = "point reflection" if v.symmetry == "reverse" else "mirror image"
        if "".join(rows[v.margin]) != black:
            why = f"Black's back rank must be {black}, the {reflection} of White's"
        else:
            why = "the pawns must stand on their start ranks and nothing else on the board"
        raise NotASetupError(f"not a {v.key} start position: {why}")
    if v.has_gating:
        return _check_start_hand(v, setup, fields)
    _check_start_fields(v, setup, fields[1:])
    return setup


def _check_start_hand(v: Variant, setup: NumberedSetup, fields: list[str]) -> NumberedSetup:
    """A gating variant's start (PM-CRC): the full hand, a gate on every home square."""
    expected = setup.fen.split()
    if fields[0] != expected[0]:
        hand = expected[0].partition("[")[2][:-1]
        raise NotASetupError(f"not a {v.key} start position: the hands must be [{hand}]")
    if len(fields) >= 3:
        letters = FILE_LETTERS[: v.files]
        if sorted(fields[2]) not in (sorted(expected[2]), sorted(letters.upper() + letters)):
            raise NotASetupError(f"not a start position: castling and gating field {fields[2]!r}"
                                 f" must be {expected[2]!r}")
        fields = [*fields[:2], "KQkq", *fields[3:]]
    _check_start_fields(v, setup, fields[1:])
    return setup


def _check_start_fields(v: Variant, setup: NumberedSetup, fields: list[str]) -> None:
    if fields and fields[0] != "w":
        raise NotASetupError("not a start position: White moves first")
    if len(fields) >= 2:
        m = v.margin
        rooks = [FILE_LETTERS[i + m] for i, c in enumerate(v.white_rank(setup.rank)) if c == "R"]
        black_rooks = [FILE_LETTERS[i + m] for i, c in enumerate(v.black_rank(setup.rank))
                       if c == "r"]
        full = {"".join(sorted(r.upper() for r in rooks) + sorted(black_rooks)), "KQkq"}
        if "".join(sorted(fields[1], key=lambda c: (c.islower(), c))) not in {
            "".join(sorted(f, key=lambda c: (c.islower(), c))) for f in full
        }:
            raise NotASetupError(
                f"not a start position: castling field {fields[1]!r} does not give both sides "
                f"both castling rights (write KQkq or "
                f"{''.join(r.upper() for r in reversed(rooks))}{''.join(reversed(black_rooks))})"
            )
    if len(fields) >= 3 and fields[2] != "-":
        raise NotASetupError("not a start position: no en passant capture is possible")
    if len(fields) >= 4 and fields[3] != "0":
        raise NotASetupError("not a start position: the half-move clock must be 0")
    if len(fields) >= 5 and fields[4] != "1":
        raise NotASetupError("not a start position: the move number must be 1")
    if len(fields) >= 6:
        # MRC's adjustment field (RULES.md §4.9): in a start position every piece is unmoved.
        expected = setup.fen.split()
        if len(fields) > 6 or len(expected) < 7 or sorted(fields[5]) != sorted(expected[6]):
            raise NotASetupError(f"not a start position: unexpected field {fields[5]!r}")


# --- pools and draws -----------------------------------------------------------------------


class NumbersBelow(Sequence[int]):
    """``0 .. count - 1`` without ``excluded``, ascending, as a sequence that is not listed:
    the ``i``-th number is found by stepping over the excluded ones below it."""

    def __init__(self, count: int, excluded: Iterable[int] = ()) -> None:
        self.limit = count
        self.excluded = tuple(sorted({n for n in excluded if 0 <= n < count}))
        self._gone = frozenset(self.excluded)

    def __len__(self) -> int:
        return self.limit - len(self.excluded)

    def _at(self, index: int) -> int:
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        n = index
        for e in self.excluded:  # ascending: each excluded number at or below n shifts it
            if e > n:
                break
            n += 1
        return n

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return tuple(self._at(i) for i in range(*index.indices(len(self))))
        return self._at(index)

    def __contains__(self, number: object) -> bool:
        return isinstance(number, int) and 0 <= number < self.limit and number not in self._gone

    def __iter__(self) -> Iterator[int]:
        return (n for n in range(self.limit) if n not in self._gone)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, NumbersBelow):
            return (self.limit, self.excluded) == (other.limit, other.excluded)
        return isinstance(other, tuple) and len(other) == len(self) and tuple(self) == other

    __hash__ = None  # type: ignore[assignment]


class SetupPool:
    """The setups a draw picks from: eligible numbers of a variant, in ascending order.

    ``bishops`` keeps only MRC setups whose bishops share a colour (6,720) or do not (8,400);
    ``exclude_standard`` drops the orthodox array (Chess960 518) or Maura's (MRC 8226).
    """

    def __init__(
        self,
        variant: str | Variant,
        bishops: BishopFilter = "any",
        exclude_standard: bool = False,
    ) -> None:
        self.variant = numbered_variant(variant)
        if bishops not in ("any", "same", "opposite"):
            raise SetupPoolError(
                f"bishops must be 'any', 'same' or 'opposite', not {bishops!r}")
        if bishops != "any" and self.variant.numbering not in _BISHOP_PAIRS:
            raise SetupPoolError(f"the bishop filter applies to MRC and CRC only "
                                 f"({self.variant.key} setups always have opposite-coloured "
                                 "bishops)")
        self.bishops: BishopFilter = bishops
        self.exclude_standard = exclude_standard

    @property
    def excluded(self) -> tuple[int, ...]:
        if not self.exclude_standard:
            return ()
        # The orthodox array (Chess960 518) or Maura's (MRC 8226): ``position startpos``.
        standard = self.variant.startpos_rank
        assert standard is not None  # every random variant names one (variants.py)
        return (_NUMBER_OF[_numbering(self.variant)](standard),)

    @cached_property
    def numbers(self) -> Sequence[int]:
        """The eligible numbers, ascending: all but the excluded ones without a bishop filter
        (not listed: Double MRC has 228 million), else a tuple."""
        count = setup_count(self.variant)
        keep = {"any": None, "same": True, "opposite": False}[self.bishops]
        if keep is None:
            return NumbersBelow(count, self.excluded)
        excluded = set(self.excluded)
        return tuple(
            n for n in range(count) if n not in excluded and self._same_colour(n) == keep
        )

    def _same_colour(self, number: int) -> bool:
        """Whether setup ``number``'s bishops share a colour (its pair is its number's
        remainder, MRC-Id and CRC-Id alike)."""
        pairs = _BISHOP_PAIRS[_numbering(self.variant)]
        i, j = pairs[number % len(pairs)]
        return (i + j) % 2 == 0

    @property
    def tag(self) -> str:
        """The pool's name inside every derivation message (docs/shuffler.md)."""
        excluded = ",".join(map(str, self.excluded)) or "-"
        return f"{self.variant.key}:{self.bishops}:{excluded}"

    def __len__(self) -> int:
        return len(self.numbers)

    @cached_property
    def _number_set(self) -> Sequence[int] | frozenset[int]:
        numbers = self.numbers
        return numbers if isinstance(numbers, NumbersBelow) else frozenset(numbers)

    def __contains__(self, number: object) -> bool:
        return number in self._number_set

    def __repr__(self) -> str:
        return f"SetupPool({self.tag!r}, {len(self)} setups)"

    def setup(self, index: int) -> NumberedSetup:
        """The ``index``-th eligible setup (0-based, ascending numbers)."""
        return setup_from_number(self.variant, self.numbers[index])


def draw_random(pool: SetupPool, count: int = 1) -> list[NumberedSetup]:
    """``count`` independent uniform draws from ``pool`` using :func:`secrets.randbelow`."""
    return [pool.setup(secrets.randbelow(len(pool))) for _ in range(count)]


_SYSTEM_RANDOM = random.SystemRandom()


def random_rank(variant: str | Variant, rng: random.Random | None = None) -> str:
    """White's back rank of a random variant drawn uniformly from all its start arrays,
    numbered or not (Capablanca Random's 48,000 have no numbering to draw from).

    The army is shuffled (every permutation equally likely, so every distinct array too) until
    the array follows the variant's setup rules: rejection keeps the draw uniform over the
    arrays that do.  At least one array in ten passes for every registered variant, so no
    table of the arrays is built.  The source is the operating system's (``secrets``) unless
    ``rng`` is given.
    """
    v = get_variant(variant)
    if not v.is_random:
        raise SetupPoolError(f"{v.key} has one fixed start array, not random ones")
    return v.random_setup(rng if rng is not None else _SYSTEM_RANDOM)


_SEED_DOMAIN = b"randomchess-seed-v1"
_DRAW_DOMAIN = b"randomchess-draw-v1"
_COMMIT_DOMAIN = b"randomchess-commit-v1"


def _message(*parts: str | bytes) -> bytes:
    return b"\x00".join(p if isinstance(p, bytes) else p.encode("utf-8") for p in parts)


def _uniform_below(n: int, key: bytes, message: bytes) -> int:
    """A uniform integer in [0, n) from HMAC-SHA256(key, message || 0x00 || counter).

    Rejection sampling: a 256-bit block at or above the largest multiple of ``n`` is thrown
    away and the counter (decimal ASCII, from 0) goes up, so no value is favoured.
    """
    if n <= 0:
        raise SetupPoolError("cannot draw from an empty pool")
    limit = (1 << 256) - (1 << 256) % n
    counter = 0
    while True:
        block = hmac.new(key, _message(message, str(counter)), hashlib.sha256).digest()
        value = int.from_bytes(block, "big")
        if value < limit:
            return value % n
        counter += 1


def _utf8(text: str, what: str, error: type[RandomChessError]) -> bytes:
    """UTF-8(text), or ``error`` naming what cannot be encoded: a lone surrogate, which is
    what Python makes of a command-line byte that is not UTF-8 (a Latin-1 terminal under a
    UTF-8 locale sends 0xFF for "ÿ", issue 36).  Such bytes are refused rather than taken as
    they are: the same name typed in UTF-8 elsewhere would give other bytes, other draws."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        code = ord(text[exc.start])
        if 0xDC80 <= code <= 0xDCFF:
            found = f"byte 0x{code - 0xDC00:02x}, which is not UTF-8 (a terminal in another " \
                "encoding?)"
        else:
            found = f"character U+{code:04X}, which UTF-8 cannot encode"
        raise error(f"{what} must be UTF-8 text: character {exc.start + 1} is {found}; "
                    "type it in UTF-8") from None


def draw_seeded(pool: SetupPool, seed: str, count: int = 1) -> list[NumberedSetup]:
    """``count`` reproducible draws: draw i uses key = UTF-8 ``seed`` (docs/shuffler.md);
    ``SeedError`` if UTF-8 cannot encode ``seed``."""
    key = _utf8(seed, "the seed", SeedError)
    return [
        pool.setup(_uniform_below(len(pool), key, _message(_SEED_DOMAIN, pool.tag, str(i))))
        for i in range(count)
    ]


# --- verifiable draws ----------------------------------------------------------------------


def _event_bytes(event: str) -> bytes:
    event = unicodedata.normalize("NFC", event)
    if not event.strip():
        raise CommitmentError("the event name must not be empty")
    if any(unicodedata.category(c) == "Cc" for c in event):
        raise CommitmentError("the event name must not contain control characters")
    return _utf8(event, "the event name", CommitmentError)


def new_salt() -> bytes:
    """A fresh secret salt of 32 bytes from :mod:`secrets`."""
    return secrets.token_bytes(SALT_BYTES)


def parse_salt(text: str) -> bytes:
    """The salt written as 64 hexadecimal digits (``CommitmentError`` otherwise)."""
    text = text.strip()
    if not re.fullmatch(f"[0-9a-fA-F]{{{2 * SALT_BYTES}}}", text):
        raise CommitmentError(f"a salt is {2 * SALT_BYTES} hexadecimal digits, not {text!r}")
    return bytes.fromhex(text)


def commitment(salt: bytes, event: str) -> str:
    """SHA-256("randomchess-commit-v1" 0x00 salt event), in lower-case hex."""
    if len(salt) != SALT_BYTES:
        raise CommitmentError(f"a salt is {SALT_BYTES} bytes, not {len(salt)}")
    return hashlib.sha256(_COMMIT_DOMAIN + b"\x00" + salt + _event_bytes(event)).hexdigest()


def verify_commitment(salt: bytes, event: str, published: str) -> None:
    """``CommitmentError`` unless ``salt`` and ``event`` give the ``published`` commitment."""
    if not re.fullmatch(r"[0-9a-fA-F]{64}", published.strip()):
        raise CommitmentError(f"a commitment is 64 hexadecimal digits, not {published!r}")
    if not hmac.compare_digest(commitment(salt, event), published.strip().lower()):
        raise CommitmentError(
            "commitment mismatch: this salt and event name do not give the published "
            "commitment (wrong or altered salt, commitment or event name)"
        )


def round_setups(
    salt: bytes,
    event: str,
    round_number: int,
    boards: int,
    pool: SetupPool,
    per_board: bool = False,
) -> list[NumberedSetup]:
    """The setups of round ``round_number``, one per board 1..``boards``.

    With ``per_board`` every board gets its own draw; otherwise (the usual Chess960 practice)
    all boards share the round's draw, derived with board number 0.
    """
    if len(salt) != SALT_BYTES:
        raise CommitmentError(f"a salt is {SALT_BYTES} bytes, not {len(salt)}")
    if round_number < 1:
        raise RoundError(f"rounds are numbered from 1, not {round_number}")
    if boards < 1:
        raise RoundError(f"a round has at least one board, not {boards}")
    event_bytes = _event_bytes(event)

    def derive(board: int) -> NumberedSetup:
        message = _message(_DRAW_DOMAIN, pool.tag, event_bytes, str(round_number), str(board))
        return pool.setup(_uniform_below(len(pool), salt, message))

    if not per_board:
        return [derive(0)] * boards
    return [derive(board) for board in range(1, boards + 1)]


# --- setups revealed in the hall ---------------------------------------------------------

HALL_ALPHABET = "0123456789"
HALL_MIN_DIGITS = 6  # six dice: 6^6 = 46,656 outcomes; six urn digits: 10^6
HALL_MAX_DIGITS = 64
_HALL_DOMAIN = b"randomchess-hall-v1"
_HALL_DRAW_DOMAIN = b"randomchess-hall-draw-v1"


def parse_hall_input(text: str) -> str:
    """The hall input as it enters the derivation: ``text`` without ASCII spaces, checked to
    be 6-64 characters of :data:`HALL_ALPHABET` (``HallInputError`` otherwise)."""
    digits = text.replace(" ", "")
    if not digits:
        raise HallInputError("the hall input is empty: type the digits drawn in the hall",
                             "empty")
    bad = next((c for c in digits if c not in HALL_ALPHABET), None)
    if bad is not None:
        raise HallInputError(f"the hall input may hold only the digits 0-9 (dice 1-6 are "
                             f"digits too), not {bad!r}", "alphabet")
    if len(digits) < HALL_MIN_DIGITS:
        raise HallInputError(f"the hall input has {len(digits)} digit(s); at least "
                             f"{HALL_MIN_DIGITS}", "short")
    if len(digits) > HALL_MAX_DIGITS:
        raise HallInputError(f"the hall input has {len(digits)} digits; at most "
                             f"{HALL_MAX_DIGITS}", "long")
    return digits


def hall_round_key(salt: bytes, event: str, round_number: int, hall_input: str,
                   event_tag: str) -> bytes:
    """Round ``round_number``'s key: HMAC-SHA256(salt, "randomchess-hall-v1" 0x00 event_tag
    0x00 event 0x00 round 0x00 input) (docs/shuffler.md §6).  ``event_tag`` is the tag of
    the event's pool before any setup is used (round 1's)."""
    if len(salt) != SALT_BYTES:
        raise CommitmentError(f"a salt is {SALT_BYTES} bytes, not {len(salt)}")
    if round_number < 1:
        raise RoundError(f"rounds are numbered from 1, not {round_number}")
    digits = parse_hall_input(hall_input)
    message = _message(_HALL_DOMAIN, event_tag, _event_bytes(event), str(round_number), digits)
    return hmac.new(salt, message, hashlib.sha256).digest()


def hall_draw(key: bytes, pool: SetupPool, board: int = 0) -> NumberedSetup:
    """One setup drawn with a round key: pool[uniform(key, "randomchess-hall-draw-v1" 0x00
    tag 0x00 board)], board 0 for "same setup on every board", else the board (1, 2, ...)."""
    if board < 0:
        raise RoundError(f"boards are numbered from 1 (0: every board), not {board}")
    message = _message(_HALL_DRAW_DOMAIN, pool.tag, str(board))
    return pool.setup(_uniform_below(len(pool), key, message))


def round_setup(salt: bytes, event: str, round_number: int, board: int,
                pool: SetupPool) -> NumberedSetup:
    """The one setup ``setup(round_number, board)`` of the verifiable draw: board ``board``
    of :func:`round_setups` with ``per_board`` (board 0: the round's shared setup), without
    deriving the boards before it (knock-out matches draw from board numbers 101, 102...)."""
    if len(salt) != SALT_BYTES:
        raise CommitmentError(f"a salt is {SALT_BYTES} bytes, not {len(salt)}")
    if round_number < 1:
        raise RoundError(f"rounds are numbered from 1, not {round_number}")
    if board < 0:
        raise RoundError(f"boards are numbered from 0, not {board}")
    message = _message(_DRAW_DOMAIN, pool.tag, _event_bytes(event), str(round_number),
                       str(board))
    return pool.setup(_uniform_below(len(pool), salt, message))


# --- salt files ----------------------------------------------------------------------------


def format_salt_file(salt: bytes, event: str) -> str:
    """The text of a salt file: comment lines (event, commitment), then the salt in hex."""
    return (
        "# randomchess draw salt: keep this file secret until the event is over\n"
        f"# event: {unicodedata.normalize('NFC', event)}\n"
        f"# commitment: {commitment(salt, event)}\n"
        f"{salt.hex()}\n"
    )


@dataclass(frozen=True)
class SaltFile:
    salt: bytes
    event: str | None
    commitment: str | None


def parse_salt_file(text: str) -> SaltFile:
    """Read a salt file; ``CommitmentError`` if it holds no salt or a corrupted one."""
    salt: bytes | None = None
    meta: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith("#"):
            key, sep, value = line[1:].partition(":")
            if sep:
                meta[key.strip().lower()] = value.strip()
            continue
        if salt is not None:
            raise CommitmentError("a salt file holds exactly one salt line")
        salt = parse_salt(line)
    if salt is None:
        raise CommitmentError("no salt in the salt file")
    published = meta.get("commitment")
    event = meta.get("event")
    if published is not None and event is not None:
        verify_commitment(salt, event, published)  # catches a corrupted or edited file
    return SaltFile(salt, event, published)


def iter_rounds(spec: str) -> Iterator[int]:
    """Round numbers from ``"3"``, ``"1-7"`` or ``"1,3,5-6"`` (``ValueError`` if malformed)."""
    seen: list[int] = []
    for part in spec.split(","):
        # Rounds go up to 9999, so a list like 1-999999999 cannot eat the memory.
        m = re.fullmatch(r"\s*([0-9]{1,4})\s*(?:-\s*([0-9]{1,4})\s*)?", part)
        if not m:
            raise RoundError(f"bad round list {spec!r}; write e.g. 3, 1-7 or 1,3,5-6")
        first, last = int(m[1]), int(m[2] or m[1])
        if first < 1 or last < first:
            raise RoundError(f"bad round range {part.strip()!r}; rounds are numbered from 1")
        seen.extend(range(first, last + 1))
    yield from dict.fromkeys(seen)
