"""Variants as data: board size, army, setup family, symmetry, castling, promotion and
adjustment rules, names in every protocol, and the engine's piece values.

The move generator never asks "is this MRC?"; it asks the variant for its castling files,
promotion set or adjustment partners, and the UCI engine, the match runner, the PGN reader,
the command line and the server read names and choices from here too.  A new member of the
family is a new entry in ``VARIANTS`` (docs/variants.md); :meth:`Variant.__post_init__` checks
the entry when it is built, as Fairy-Stockfish's ``check variants.ini`` does, so a
contradictory entry fails at import time rather than in the middle of a game.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cached_property
from itertools import permutations, product
from typing import Literal

from randomchess.errors import NotASetupError, RandomChessError
from randomchess.geometry import FILE_LETTERS, Geometry, geometry
from randomchess.pieces import (
    ARCHBISHOP,
    BISHOP,
    CHANCELLOR,
    KIND_BY_LETTER,
    KING,
    KNIGHT,
    MINISTER,
    PAWN,
    PIECE_TYPES,
    QUEEN,
    ROOK,
    PieceKind,
)


class UnknownVariantError(RandomChessError):
    """No variant of that name (or alias) is known."""


class VariantDefinitionError(AssertionError):
    """A ``Variant`` entry contradicts itself (a programming error, raised at import);
    ``field`` names the entry's field at fault (empty: between entries)."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


# Black's array: White's mirrored file by file, turned a half turn, or drawn on its own
# ("independent", Double Fischer Random: a setup is then "WHITE/BLACK", both a-file first).
Symmetry = Literal["mirror", "reverse", "independent"]
CastlingNotation = Literal["xfen", "files"]
# How the start arrays are numbered: Scharnagl's 0-959 (RULES.md §2.4), the MRC numbering
# (§4.8), its 8-file twin CRC-Id 0-1,679 (docs/rules.md), or none (the arrays are drawn
# uniformly but carry no number).
Numbering = Literal["scharnagl", "mrc", "crc", "pm-crc", "double-scharnagl", "double-mrc"]
# The arrays each numbering counts (startpos.py): board width, army, bishops forced opposite.
NUMBERING_ARRAYS: dict[Numbering, tuple[int, str, bool]] = {
    "scharnagl": (8, "RNBQKBNR", True),
    "mrc": (9, "RNBMKQBNR", False),
    "crc": (8, "RNBQKBNR", False),
    "pm-crc": (8, "RNBMKBNR", False),  # CRC-Id with the minister in the queen's place
    "double-scharnagl": (8, "RNBQKBNR", True),  # a Scharnagl number per side (docs/rules.md)
    "double-mrc": (9, "RNBMKQBNR", False),  # an MRC-Id per side (docs/rules.md)
}
# The numberings of independent arrays (a setup per side): each side's array is numbered by
# the one-array scheme, Black's read from Black's side when the scheme's own variant has
# reverse symmetry (MRC: ``8226/8226`` is Maura's array for both, Modern Chess's start).
PAIR_NUMBERINGS: dict[Numbering, tuple[Numbering, bool]] = {
    "double-scharnagl": ("scharnagl", False),
    "double-mrc": ("mrc", True),
}
PieceValues = tuple[tuple[PieceKind, int, int], ...]  # (kind, middlegame, endgame) centipawns


@dataclass(frozen=True)
class Variant:
    """The rules that distinguish one member of the family from another."""

    key: str  # short machine name: chess, chess960, modern, mrc ...
    pgn_name: str  # written in PGN [Variant]
    files: int
    ranks: int
    army: str  # White's back-rank pieces in any order (English letters)
    promotions: tuple[PieceKind, ...]
    # Castling destinations as file indexes: (king, rook) for the a-side and for the far side.
    castle_a: tuple[int, int]
    castle_h: tuple[int, int]
    castle_san: tuple[str, str]  # (a-side, far side) SAN
    # Engine material values; every kind of the army and of the promotion set needs one.
    piece_values: PieceValues
    fixed_rank: str | None = None  # the one start array of a non-random variant
    # mirror: a1<->a8 file by file; reverse: a1<->i9 reflection; independent: its own array
    symmetry: Symmetry = "mirror"
    bishops_opposite: bool = True  # setup constraint (Chess960: yes, MRC: no)
    # Further pairs of letters that must start on squares of opposite colours (CRC: Q, A).
    opposite_colours: tuple[str, ...] = ()
    # Bishop Adjustment partners (RULES.md §3, BAR-3); empty = the variant has no adjustment.
    adjustment_partners: frozenset[PieceKind] = field(default_factory=frozenset)
    # Castling is written as the king's step (e1g1, f1i1) by default (Position.uci) and the
    # variant is played with UCI_Chess960 off.  Every fixed-array variant reads that form.
    classical_uci: bool = False
    # FEN castling letters: X-FEN (KQkq for outermost rooks) or always files (D-14, 9 files).
    castling_notation: CastlingNotation = "xfen"
    aliases: tuple[str, ...] = ()
    numbering: Numbering | None = None
    # UCI: our engine offers the variant under its key (and ``uci_aliases``) when
    # ``engine`` is set; ``uci_name`` is what Fairy-Stockfish calls it (None: unknown there),
    # played with UCI_Chess960 on when the variant is random or castles 960-style.
    engine: bool = False
    uci_aliases: tuple[str, ...] = ()
    uci_name: str | None = None
    random_version: str | None = None  # key of the random variant UCI_Chess960 turns this into
    startpos_rank: str | None = None  # `position startpos` in a random variant (518, Maura)
    # PGN: a game with a FEN but no [Variant] tag, on this variant's board size, is read as
    # this variant (or as its random version when the FEN's castling rights say so).
    pgn_untagged: bool = False
    # Empty edge files and ranks around the armies (IFRC: 1): the army stands on the
    # files within, on the rank ``margin`` from each side's edge, its pawns just in front.
    margin: int = 0
    # What players are told about the variant beyond its name, (English, Spanish): the
    # rules a player could not guess, such as inferred castling squares (D-18).
    description: tuple[str, str] = ("", "")
    # The name shown to players, (English, Spanish); empty: the PGN name (the browser's own
    # catalogue names the built-in variants; a variants file names its own, docs/variants.md).
    display_name: tuple[str, str] = ("", "")
    # Pieces each side holds in hand at the start (English letters, PM-CRC: "Q"): they enter
    # only by gating, Seirawan style (docs/rules.md D-31): when a piece first leaves its
    # home-rank square, one of them may be placed on the square it vacated, as part of the
    # same move.  Empty: no hand, no gating.
    hand: str = ""

    def __post_init__(self) -> None:
        if _CHECKED.get():
            _check_variant(self)

    def __hash__(self) -> int:
        # Variants key the per-variant caches of the hot paths: hash the key, not 30 fields.
        return hash(self.key)

    @property
    def geometry(self) -> Geometry:
        return geometry(self.files, self.ranks)

    @property
    def is_random(self) -> bool:
        return self.fixed_rank is None

    @property
    def has_adjustment(self) -> bool:
        return bool(self.adjustment_partners)

    @property
    def has_gating(self) -> bool:
        """Whether pieces wait in hand and enter by gating (``hand``)."""
        return bool(self.hand)

    @cached_property
    def hand_kinds(self) -> tuple[PieceKind, ...]:
        """The kinds of the pieces each side starts with in hand, one per piece."""
        return tuple(KIND_BY_LETTER[c] for c in self.hand)

    @property
    def castling_letters_are_files(self) -> bool:
        """Whether castling rights are always written as file letters (9 files, D-14)."""
        return self.castling_notation == "files"

    @cached_property
    def kinds(self) -> frozenset[PieceKind]:
        """Every kind that can stand on this variant's board."""
        return frozenset({PAWN, *self.promotions, *(KIND_BY_LETTER[c] for c in self.army),
                          *self.hand_kinds})

    def piece_value(self, kind: PieceKind) -> tuple[int, int]:
        """(middlegame, endgame) material value of ``kind`` in centipawns; 0 for the king."""
        for k, mg, eg in self.piece_values:
            if k == kind:
                return mg, eg
        if kind == KING:
            return 0, 0
        raise KeyError(f"{self.key} has no value for {PIECE_TYPES[kind].name}")

    @property
    def independent_sides(self) -> bool:
        """Whether each side has its own array (a setup is then ``WHITE/BLACK``)."""
        return self.symmetry == "independent"

    def black_rank(self, white_rank: str) -> str:
        """Black's home rank, a-file first, for White's ``white_rank`` (RULES.md §2.1, §4.3);
        for independent sides, the part of the setup ``WHITE/BLACK`` after the slash."""
        if self.independent_sides:
            return white_rank.partition("/")[2].lower()
        rank = white_rank.lower()
        return rank[::-1] if self.symmetry == "reverse" else rank

    def white_rank(self, setup: str) -> str:
        """White's home rank of ``setup`` (the setup itself unless the sides are independent)."""
        return setup.partition("/")[0] if self.independent_sides else setup

    def is_setup(self, rank: str) -> bool:
        """Whether ``rank`` (White's back rank, a-file first; ``WHITE/BLACK`` for independent
        sides) is a legal start array here."""
        if self.fixed_rank is not None:
            return rank == self.fixed_rank
        return self._follows_setup_rules(rank)

    def _follows_setup_rules(self, rank: str) -> bool:
        if self.independent_sides:
            halves = rank.split("/")
            return len(halves) == 2 and all(self._follows_one_array(h) for h in halves)
        return self._follows_one_array(rank)

    def _follows_one_array(self, rank: str) -> bool:
        if len(rank) != len(self.army) or sorted(rank) != sorted(self.army):
            return False
        king = rank.index("K")
        rooks = [i for i, c in enumerate(rank) if c == "R"]
        if not (rooks and rooks[0] < king < rooks[-1]):
            return False
        pairs = (("BB",) if self.bishops_opposite else ()) + self.opposite_colours
        return all(_opposite_colours(rank, pair) for pair in pairs)

    def setups(self) -> Iterator[str]:
        """Every start array, in sorted order (a fixed variant has one)."""
        if self.fixed_rank is not None:
            yield self.fixed_rank
            return
        arrays = sorted(r for r in {"".join(p) for p in permutations(self.army)}
                        if self._follows_one_array(r))
        if self.independent_sides:
            yield from (f"{w}/{b}" for w, b in product(arrays, arrays))
        else:
            yield from arrays

    def random_setup(self, rng: random.Random) -> str:
        """A start array drawn uniformly (each side's for independent sides): the army is
        shuffled until it follows the setup rules, so every legal array is equally likely."""
        pieces = list(self.army)

        def one() -> str:
            while True:
                rng.shuffle(pieces)
                rank = "".join(pieces)
                if self._follows_one_array(rank):
                    return rank

        return f"{one()}/{one()}" if self.independent_sides else one()

    def bishops_same_colour(self, rank: str) -> bool:
        """Whether the bishops of ``rank`` share a colour (White's; for independent sides,
        either side's: each side then has its own Bishop Adjustment right, BAR-1)."""
        return any(self.side_bishops_same_colour(rank, black) for black in (False, True))

    def side_bishops_same_colour(self, rank: str, black: bool) -> bool:
        """Whether one side's bishops share a colour in setup ``rank`` (BAR-1)."""
        own = self.black_rank(rank) if black else self.white_rank(rank)
        b = [i for i, c in enumerate(own.upper()) if c == "B"]
        return len(b) == 2 and (b[0] - b[1]) % 2 == 0

    def setup_fen(self, rank: str, adjustment: bool | None = None) -> str:
        """The start FEN for White's back rank ``rank``.

        ``adjustment`` decides whether the Bishop Adjustment right is in play (the 7th FEN
        field, RULES.md §4.9).  By default it is on exactly when the variant has the rule,
        the array's bishops share a colour (BAR-1) and the variant is random (Maura's fixed
        array uses it only by agreement, RULES.md §3).
        """
        if not self.is_setup(rank):
            raise NotASetupError(f"{rank!r} is not a {self.key} start array")
        if adjustment is None:
            adjustment = self.is_random and self.has_adjustment and self.bishops_same_colour(rank)
        if adjustment and not (self.has_adjustment and self.bishops_same_colour(rank)):
            raise NotASetupError(f"{self.key} array {rank!r} has no bishop adjustment")
        white, black = self.white_rank(rank), self.black_rank(rank)
        pawns = "P" * len(white)
        m, gap = self.margin, str(self.files)
        rows = [gap] * m + [self._row(black), self._row(pawns.lower())] + [gap] * (
            self.ranks - 4 - 2 * m) + [self._row(pawns), self._row(white)] + [gap] * m
        letters = FILE_LETTERS[: self.files]
        if self.castling_letters_are_files:
            rooks = [i + m for i, c in enumerate(white) if c == "R"]
            black_rooks = [i + m for i, c in enumerate(black) if c == "r"]
            castling = "".join(letters[i].upper() for i in reversed(rooks)) + "".join(
                letters[i] for i in reversed(black_rooks)
            )
        else:
            castling = "KQkq"
        placement = "/".join(rows)
        if self.has_gating:
            # Seirawan FEN (Fairy-Stockfish): the hand after the placement, and after each
            # side's castling letters a gate on every other home square (KQ stand for the
            # rooks' and the king's squares).
            placement += f"[{self.hand}{self.hand.lower()}]"
            gates = ["".join(letters[i + m] for i, c in enumerate(rank.upper()) if c not in "RK")
                     for rank in (white, black)]
            castling = f"KQ{gates[0].upper()}kq{gates[1]}"
        fen = f"{placement} w {castling} - 0 1"
        if adjustment:
            # Every home square of a side whose bishops share a colour (BAR-1): both sides
            # or neither under mirror or reverse symmetry, each on its own when independent.
            fen += " " + "".join(
                letters.upper() if black == 0 else letters for black in (0, 1)
                if self.side_bishops_same_colour(rank, bool(black)))
        return fen

    def _row(self, pieces: str) -> str:
        """A FEN row of ``pieces`` with the margin's empty files on both sides."""
        edge = str(self.margin) if self.margin else ""
        return f"{edge}{pieces}{edge}"

    @property
    def start_fen(self) -> str:
        """The start FEN of a fixed-array variant (``ValueError`` for random ones)."""
        if self.fixed_rank is None:
            raise NotASetupError(f"{self.key} has no single start position; draw one")
        return self.setup_fen(self.fixed_rank)

    @property
    def default_fen(self) -> str:
        """The position ``position startpos`` means: the fixed array, or ``startpos_rank``."""
        rank = self.fixed_rank or self.startpos_rank
        assert rank is not None  # _check_variant: every random variant names one
        return self.setup_fen(rank)

    def castle_san_for(self, a_side: bool) -> str:
        return self.castle_san[0] if a_side else self.castle_san[1]

    @property
    def uci_chess960(self) -> bool:
        """Whether an engine needs UCI_Chess960 on to play this variant."""
        return not self.classical_uci


def _opposite_colours(rank: str, pair: str) -> bool:
    a, b = pair[0], pair[1]
    if a == b:
        squares = [i for i, c in enumerate(rank) if c == a]
        return len(squares) == 2 and (squares[0] - squares[1]) % 2 == 1
    return (rank.index(a) - rank.index(b)) % 2 == 1


# Off only inside unchecked_variants(): variant_file.py builds a candidate entry to list all
# of its problems at once (variant_problems) rather than stop at the first.
_CHECKED: ContextVar[bool] = ContextVar("variant_checks", default=True)


@contextmanager
def unchecked_variants() -> Iterator[None]:
    """Build ``Variant`` values without the checks, to collect their problems afterwards."""
    token = _CHECKED.set(False)
    try:
        yield
    finally:
        _CHECKED.reset(token)


def _check_variant(v: Variant) -> None:
    """Refuse an entry whose facts contradict each other (like ``check variants.ini``)."""
    for name, why in variant_problems(v):
        raise VariantDefinitionError(f"variant {v.key!r}: {why}", name)


def variant_problems(v: Variant) -> Iterator[tuple[str, str]]:
    """Every contradiction of the entry ``v`` as (field, why): the checks every entry passes,
    built in or read from a variants file (variant_file.py).  A board or army that cannot
    be built stops the checks that need it."""
    try:
        v.geometry  # noqa: B018 - builds and checks the board size
    except ValueError as exc:
        wide = not 2 <= v.files <= len(FILE_LETTERS)
        yield ("files" if wide else "ranks"), (
            f"{exc}: at most {len(FILE_LETTERS)} files and 12 ranks")
        return
    inner = v.files - 2 * v.margin
    if not (v.margin >= 0 and inner >= 3 and v.ranks - 2 * v.margin >= 5):
        yield "margin", "the margin must leave at least 3 files and 5 ranks for the armies"
        return
    if len(v.army) != inner or any(c not in KIND_BY_LETTER for c in v.army):
        yield "army", f"army {v.army!r} must name {inner} pieces by their English letters"
        return
    if v.army.count("K") != 1 or v.army.count("R") != 2 or "P" in v.army:
        yield "army", "the army needs one king, two rooks (castling) and no pawn"
        return
    if not v.promotions or any(k in (PAWN, KING) or k not in PIECE_TYPES for k in v.promotions):
        yield "promotions", "promotions must be a non-empty set of pieces other than pawn and king"
        return
    yield from _castling_problems(v)
    yield from _setup_problems(v)
    yield from _rule_problems(v)


def _castling_problems(v: Variant) -> Iterator[tuple[str, str]]:
    for name, (kf, rf) in (("castle_a", v.castle_a), ("castle_h", v.castle_h)):
        if not (0 <= kf < v.files and 0 <= rf < v.files and abs(kf - rf) == 1):
            yield name, "castling destinations must be adjacent files on the board"
            return
    if not (v.castle_a[0] < v.castle_a[1] and v.castle_h[1] < v.castle_h[0]):
        yield "castle_a", "castling puts the rook on the king's inner side"


def _setup_problems(v: Variant) -> Iterator[tuple[str, str]]:
    for pair in v.opposite_colours:
        if len(pair) != 2 or any(c not in v.army for c in pair):
            yield "opposite_colours", f"opposite_colours pair {pair!r} must name two army letters"
            return
    if v.fixed_rank is not None and not v._follows_setup_rules(v.fixed_rank):
        yield "fixed_rank", f"fixed array {v.fixed_rank!r} breaks the setup rules"
    if v.fixed_rank is None and (v.startpos_rank is None or not v.is_setup(v.startpos_rank)):
        yield "startpos_rank", "a random variant names a legal startpos_rank"
    if v.independent_sides and not v.is_random:
        yield "symmetry", "independent arrays are random"
    if (v.numbering in PAIR_NUMBERINGS) != (v.numbering is not None and v.independent_sides):
        yield "numbering", ("the pair numberings (double-scharnagl, double-mrc), and only they, "
                            "number independent arrays")
    elif v.numbering is not None and not v.is_random:
        yield "numbering", "only random variants are numbered"
    elif v.numbering is not None:
        files, army, opposite = NUMBERING_ARRAYS[v.numbering]
        if (len(v.army), sorted(v.army), v.bishops_opposite, v.opposite_colours) != (
                files, sorted(army), opposite, ()):
            yield "numbering", (
                f"the {v.numbering} numbering counts the arrays of {army} on {files} files "
                f"with {'opposite' if opposite else 'any'} bishops, not this army's")


def _rule_problems(v: Variant) -> Iterator[tuple[str, str]]:
    army_kinds = {KIND_BY_LETTER[c] for c in v.army}
    if v.adjustment_partners and ("B" not in v.army or v.adjustment_partners - army_kinds):
        yield "adjustment_partners", "adjustment needs bishops, and partners that are in the army"
    if any(c not in KIND_BY_LETTER or c in "KP" for c in v.hand):
        yield "hand", f"hand {v.hand!r} must name pieces other than king and pawn"
        return
    if v.hand and v.independent_sides:
        yield "hand", "gating needs one array for both sides"
    valued = {k for k, _, _ in v.piece_values}
    missing = v.kinds - valued - {KING}
    if missing:
        yield "piece_values", "no engine value for " + ", ".join(
            PIECE_TYPES[k].name for k in sorted(missing))
    if v.classical_uci and v.is_random:
        yield "classical_uci", ("a random variant cannot write castling as the king's step "
                                "(classical UCI)")
    if v.random_version is not None and not v.fixed_rank:
        yield "random_version", "only a fixed variant has a random version"


_STANDARD_PROMOTIONS = (QUEEN, ROOK, BISHOP, KNIGHT)
_MODERN_PROMOTIONS = (QUEEN, MINISTER, ROOK, BISHOP, KNIGHT)
_CAPABLANCA_PROMOTIONS = (QUEEN, CHANCELLOR, ARCHBISHOP, ROOK, BISHOP, KNIGHT)
_MODERN_PARTNERS = frozenset({KNIGHT, QUEEN, MINISTER})
_MRC_PARTNERS = frozenset({KNIGHT, QUEEN, MINISTER, ROOK, KING})
_CRC_PARTNERS = frozenset({KNIGHT, QUEEN, ROOK, KING})  # MRC's, less the absent minister
_PMCRC_PARTNERS = frozenset({KNIGHT, MINISTER, ROOK, KING})  # MRC's, less the queen in hand

# Engine material, (middlegame, endgame) centipawns.  8x8: the usual engine values, with the
# minister between rook and queen (the author's 8x8 scale, RULES.md §4.2: M = 8); 9x9: the
# author's guide values (§4.2: Q 11, M 10, R 7, B 4, N 4, P 1); 10x8: H.G. Muller's
# measured Capablanca values (Q 9.5, C 9, A 8.75, R 5, B 3.5, N 3, P 1), at the 8x8 scale.
VALUES_8X8: PieceValues = (
    (PAWN, 90, 110), (KNIGHT, 320, 300), (BISHOP, 330, 320), (ROOK, 480, 530),
    (QUEEN, 950, 950), (MINISTER, 820, 820),
)
VALUES_9X9: PieceValues = (
    (PAWN, 90, 110), (KNIGHT, 400, 380), (BISHOP, 400, 400), (ROOK, 680, 720),
    (QUEEN, 1100, 1100), (MINISTER, 1000, 1000),
)
VALUES_10X8: PieceValues = (
    (PAWN, 90, 110), (KNIGHT, 300, 290), (BISHOP, 340, 340), (ROOK, 480, 530),
    (QUEEN, 920, 950), (CHANCELLOR, 870, 900), (ARCHBISHOP, 850, 840),
)
_MODERN_SAN = ("O-O-Oc", "O-O-Og")

VARIANTS: dict[str, Variant] = {
    v.key: v
    for v in (
        Variant(
            key="chess", pgn_name="Standard", files=8, ranks=8, army="RNBQKBNR",
            promotions=_STANDARD_PROMOTIONS, castle_a=(2, 3), castle_h=(6, 5),
            castle_san=("O-O-O", "O-O"), fixed_rank="RNBQKBNR", classical_uci=True,
            piece_values=VALUES_8X8, aliases=("standard", "classical", "normal", "orthodox"),
            engine=True, uci_name="chess", random_version="chess960", pgn_untagged=True,
        ),
        Variant(
            key="chess960", pgn_name="Chess960", files=8, ranks=8, army="RNBQKBNR",
            promotions=_STANDARD_PROMOTIONS, castle_a=(2, 3), castle_h=(6, 5),
            castle_san=("O-O-O", "O-O"), piece_values=VALUES_8X8,
            aliases=("chess 960", "fischerandom", "fischer random", "frc", "960"),
            numbering="scharnagl", engine=True, uci_aliases=("fischerandom",),
            uci_name="chess", startpos_rank="RNBQKBNR",
        ),
        # Maura's Modern Chess; the optional bishop rule is in play only when the start
        # FEN carries the adjustment field (Variant.setup_fen(..., adjustment=True)).
        Variant(
            key="modern", pgn_name="Modern", files=9, ranks=9, army="RNBMKQBNR",
            promotions=_MODERN_PROMOTIONS, castle_a=(2, 3), castle_h=(6, 5),
            castle_san=_MODERN_SAN, fixed_rank="RNBMKQBNR", symmetry="reverse",
            bishops_opposite=False, adjustment_partners=_MODERN_PARTNERS,
            castling_notation="files", piece_values=VALUES_9X9,
            aliases=("modern chess", "maura"),
            engine=True, uci_name="modern", random_version="mrc",
        ),
        Variant(
            key="mrc", pgn_name="Modern Random Chess", files=9, ranks=9, army="RNBMKQBNR",
            promotions=_MODERN_PROMOTIONS, castle_a=(2, 3), castle_h=(6, 5),
            castle_san=_MODERN_SAN, symmetry="reverse", bishops_opposite=False,
            adjustment_partners=_MRC_PARTNERS, castling_notation="files",
            piece_values=VALUES_9X9,
            aliases=("modern random chess", "modern random", "ajedrez aleatorio moderno"),
            numbering="mrc", engine=True, uci_name="modern", startpos_rank="RNBMKQBNR",
            pgn_untagged=True,
        ),
        # RULES.md §5: MRC with direct (file-by-file) symmetry.
        Variant(
            key="pseudo-mrc", pgn_name="Pseudo Modern Random Chess", files=9, ranks=9,
            army="RNBMKQBNR", promotions=_MODERN_PROMOTIONS, castle_a=(2, 3),
            castle_h=(6, 5), castle_san=_MODERN_SAN, bishops_opposite=False,
            adjustment_partners=_MRC_PARTNERS, castling_notation="files",
            piece_values=VALUES_9X9, aliases=("pseudo mrc", "pmrc9"), uci_name="modern",
            startpos_rank="RNBMKQBNR",
        ),
        # RULES.md §5: "9x9 FRC", the opposite-bishop subset of Pseudo-MRC (no adjustment).
        Variant(
            key="chess8400", pgn_name="Chess8400", files=9, ranks=9, army="RNBMKQBNR",
            promotions=_MODERN_PROMOTIONS, castle_a=(2, 3), castle_h=(6, 5),
            castle_san=_MODERN_SAN, castling_notation="files", piece_values=VALUES_9X9,
            aliases=("chess 8400", "9x9 frc"), uci_name="modern", startpos_rank="RNBMKBNRQ",
        ),
        # RULES.md §5: Prime Ministers Random Chess, 9 files x 8 ranks, castling to b/c and
        # h/g; promotion set assumed as Modern Chess ([R] in RULES.md).  Engine values: the
        # 8x8 scale, as the evaluator used for every board under 81 squares.
        Variant(
            key="pmrc", pgn_name="Prime Ministers Random Chess", files=9, ranks=8,
            army="RNBMKQBNR", promotions=_MODERN_PROMOTIONS, castle_a=(1, 2), castle_h=(7, 6),
            castle_san=("O-Ob", "O-Oh"), castling_notation="files", piece_values=VALUES_8X8,
            aliases=("prime ministers random chess",), startpos_rank="RNBQKMNBR",
        ),
        # Contemporary Random Chess: the MRC principles on 8x8 (RULES.md §5).  1,680 arrays
        # (D-17); "short castling to both sides", squares inferred as K b / R c and
        # K g / R f (D-18): change castle_a / castle_h when a source confirms them.
        Variant(
            key="crc", pgn_name="Contemporary Random Chess", files=8, ranks=8,
            army="RNBQKBNR", promotions=_STANDARD_PROMOTIONS, castle_a=(1, 2),
            castle_h=(6, 5), castle_san=("O-Ob", "O-Og"), symmetry="reverse",
            bishops_opposite=False, adjustment_partners=_CRC_PARTNERS,
            piece_values=VALUES_8X8,
            aliases=("contemporary random chess", "contemporary random", "mrc64",
                     "ajedrez aleatorio contemporaneo"),
            numbering="crc", engine=True, startpos_rank="RNBQKBNR",
            description=(
                "The Modern Random Chess principles on the 8x8 board: the king between the "
                "rooks, bishops anywhere (the Bishop Adjustment when they share a colour), "
                "Black's array a half-turn of White's. Castling is short to both sides: "
                "O-Ob puts the king on b and the rook on c, O-Og the king on g and the rook "
                "on f. These squares are inferred from the author's principle; no source "
                "states them.",
                "Los principios del Ajedrez Moderno Aleatorio en el tablero de 8x8: el rey "
                "entre las torres, los alfiles en cualquier casilla (el Ajuste del Alfil "
                "cuando comparten color), la fila negra es la blanca girada media vuelta. "
                "El enroque es corto hacia ambos lados: O-Ob lleva el rey a b y la torre a "
                "c, O-Og el rey a g y la torre a f. Estas casillas se deducen del principio "
                "del autor; ninguna fuente las indica.",
            ),
        ),
        # Prime Ministers Contemporary Random Chess: CRC with the Prime Minister in the array
        # instead of the queen; the queen waits in hand and enters by gating, Seirawan style
        # (docs/rules.md D-31..D-36).  Arrays drawn and numbered as CRC's (the M in the Q's
        # place); promotion to any piece of the army or the hand (D-35).
        Variant(
            key="pmcrc", pgn_name="Prime Ministers Contemporary Random Chess", files=8,
            ranks=8, army="RNBMKBNR", hand="Q", promotions=_MODERN_PROMOTIONS,
            castle_a=(1, 2), castle_h=(6, 5), castle_san=("O-Ob", "O-Og"),
            symmetry="reverse", bishops_opposite=False, adjustment_partners=_PMCRC_PARTNERS,
            piece_values=VALUES_8X8,
            aliases=("pm-crc", "prime ministers contemporary random chess",
                     "prime ministers contemporary random",
                     "ajedrez aleatorio contemporaneo de primeros ministros"),
            numbering="pm-crc", engine=True, startpos_rank="RNBMKBNR",
            description=(
                "Contemporary Random Chess with the Prime Minister (M: bishop + knight) in "
                "the array instead of the queen. The queen waits in hand: when a piece leaves "
                "its starting square on the back rank for the first time, the queen may be "
                "placed on the square it left, in the same move (written Nc3/Q; with "
                "castling, on the king's or the rook's square, O-Og/Qe1). Castling as CRC: "
                "O-Ob puts the king on b and the rook on c, O-Og the king on g and the rook "
                "on f (inferred squares). A Bishop Adjustment is no chance to gate.",
                "Ajedrez Aleatorio Contemporáneo con el Primer Ministro (M: alfil + caballo) "
                "en la fila inicial en lugar de la dama. La dama espera en la mano: cuando "
                "una pieza deja por primera vez su casilla inicial de la primera fila, la "
                "dama puede colocarse en la casilla que dejó, en la misma jugada (se escribe "
                "Cc3/D; con el enroque, en la casilla del rey o de la torre, O-Og/De1). "
                "Enroque como en el CRC: O-Ob lleva el rey a b y la torre a c, O-Og el rey a "
                "g y la torre a f (casillas deducidas). Un Ajuste del Alfil no permite "
                "introducir la dama.",
            ),
        ),
        # Double Fischer Random Chess: each side its own Chess960 array (921,600 setups,
        # numbered by a Scharnagl number per side, "518/123"; docs/rules.md).  Any 960
        # engine plays it: the arrays come with the X-FEN / Shredder-FEN.
        Variant(
            key="double960", pgn_name="Double Fischer Random Chess", files=8, ranks=8,
            army="RNBQKBNR", promotions=_STANDARD_PROMOTIONS, castle_a=(2, 3),
            castle_h=(6, 5), castle_san=("O-O-O", "O-O"), symmetry="independent",
            piece_values=VALUES_8X8,
            aliases=("double fischer random", "double chess960", "double 960",
                     "ajedrez 960 doble"),
            numbering="double-scharnagl", engine=True, uci_name="chess",
            startpos_rank="RNBQKBNR/RNBQKBNR",
            description=(
                "Chess960 in which each side gets its own random array: White's and Black's "
                "back ranks are drawn separately, so they usually differ. Setups are "
                "numbered by the pair of Scharnagl numbers, White's first (518/518 is "
                "classical chess).",
                "Ajedrez 960 en el que cada bando recibe su propia posición aleatoria: las "
                "filas de blancas y negras se sortean por separado, así que casi siempre son "
                "distintas. Las posiciones se numeran con el par de números de Scharnagl, "
                "primero el de blancas (518/518 es el ajedrez clásico).",
            ),
        ),
        # Double Modern Random Chess: each side its own MRC array (15,120 x 15,120 setups,
        # numbered by an MRC-Id per side, Black's read from Black's side: "8226/8226" is
        # Modern Chess; docs/rules.md), the Bishop Adjustment for a side whose own bishops
        # share a colour (BAR-1).
        Variant(
            key="double-mrc", pgn_name="Double Modern Random Chess", files=9, ranks=9,
            army="RNBMKQBNR", promotions=_MODERN_PROMOTIONS, castle_a=(2, 3),
            castle_h=(6, 5), castle_san=_MODERN_SAN, symmetry="independent",
            bishops_opposite=False, adjustment_partners=_MRC_PARTNERS,
            castling_notation="files", piece_values=VALUES_9X9,
            aliases=("double modern random chess", "double mrc",
                     "ajedrez aleatorio moderno doble"),
            numbering="double-mrc", engine=True, uci_name="modern",
            startpos_rank="RNBMKQBNR/RNBQKMBNR",
            description=(
                "Modern Random Chess in which each side gets its own random array, drawn "
                "separately. Setups are numbered by the pair of MRC numbers, White's first, "
                "each read from its own side: 8226/8226 is Modern Chess. A side whose two "
                "bishops stand on one colour has the Bishop Adjustment, whatever the other "
                "side's array.",
                "Ajedrez Moderno Aleatorio en el que cada bando recibe su propia posición "
                "aleatoria, sorteada por separado. Las posiciones se numeran con el par de "
                "números MRC, primero el de blancas, cada uno leído desde su propio lado: "
                "8226/8226 es el Ajedrez Moderno. Un bando cuyos dos alfiles están en casillas "
                "del mismo color tiene el Ajuste del Alfil, sea cual sea la posición del otro.",
            ),
        ),
        # International Fischer Random Chess: Chess960's arrays inside a 10x10 board with
        # empty edges (pieces on the 2nd rank, pawns on the 3rd), 960 setups numbered as
        # Chess960's; castling squares shifted one file into the b-i frame (K d / R e,
        # K h / R g) and promotion on the last rank: decisions in docs/rules.md.
        Variant(
            key="ifrc", pgn_name="International Fischer Random Chess", files=10, ranks=10,
            army="RNBQKBNR", promotions=_STANDARD_PROMOTIONS, castle_a=(3, 4),
            castle_h=(7, 6), castle_san=("O-O-O", "O-O"), margin=1,
            piece_values=VALUES_8X8,
            aliases=("international fischer random chess", "international fischer random",
                     "ajedrez 960 internacional"),
            numbering="scharnagl", engine=True, startpos_rank="RNBQKBNR",
            description=(
                "Chess960 on the 10x10 international board: the pieces on the 2nd rank and "
                "the pawns on the 3rd, nothing on the edge files and ranks. Castling squares "
                "are Chess960's shifted one file to the right (no source gives them): O-O-O "
                "puts the king on d and the rook on e, O-O the king on h and the rook on g. "
                "Pawns step two squares from their start rank and promote on the last rank.",
                "Ajedrez 960 en el tablero internacional de 10x10: las piezas en la 2.ª fila "
                "y los peones en la 3.ª, nada en las columnas y filas del borde. Las "
                "casillas de enroque son las del 960 desplazadas una columna a la derecha "
                "(ninguna fuente las da): O-O-O lleva el rey a d y la torre a e, O-O el rey "
                "a h y la torre a g. Los peones avanzan dos casillas desde su fila inicial y "
                "coronan en la última fila.",
            ),
        ),
        # Capablanca chess (10x8) as Fairy-Stockfish plays it: the king castles three files
        # to c or i, the rook lands beside it on d or h (docs/rules.md, Capablanca).
        Variant(
            key="capablanca", pgn_name="Capablanca", files=10, ranks=8, army="RNABQKBCNR",
            promotions=_CAPABLANCA_PROMOTIONS, castle_a=(2, 3), castle_h=(8, 7),
            castle_san=("O-O-O", "O-O"), fixed_rank="RNABQKBCNR", classical_uci=True,
            piece_values=VALUES_10X8, aliases=("capablanca chess",), engine=True,
            uci_name="capablanca", random_version="caparandom", pgn_untagged=True,
        ),
        # Capablanca Random Chess as pychess.org and Fairy-Stockfish play it: king between
        # the rooks, bishops and also queen and archbishop on opposite colours (48,000
        # arrays), castling as in Chess960 onto Capablanca's squares (docs/rules.md).
        Variant(
            key="caparandom", pgn_name="Capablanca Random", files=10, ranks=8,
            army="RNABQKBCNR", promotions=_CAPABLANCA_PROMOTIONS, castle_a=(2, 3),
            castle_h=(8, 7), castle_san=("O-O-O", "O-O"), opposite_colours=("QA",),
            piece_values=VALUES_10X8,
            aliases=("capablanca random", "capablanca random chess", "crc10"),
            engine=True, uci_name="caparandom", startpos_rank="RNBQCKABNR",
        ),
    )
}


def normalize_variant_name(name: str) -> str:
    return " ".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


def _names() -> dict[str, Variant]:
    """Every name of every entry, checked to be unique, and the links between entries."""
    out: dict[str, Variant] = {}
    for v in VARIANTS.values():
        r = VARIANTS.get(v.random_version or v.key)
        if r is None or (r.is_random and (r.files, r.ranks, sorted(r.army)) !=
                         (v.files, v.ranks, sorted(v.army))):
            raise VariantDefinitionError(f"{v.key}: random_version {v.random_version!r} is "
                                         "not a random variant of the same board and army")
        for n in (v.key, v.pgn_name, *v.aliases):
            other = out.setdefault(normalize_variant_name(n), v)
            if other is not v:
                raise VariantDefinitionError(f"name {n!r} of {v.key} also names {other.key}")
    return out


_BY_NAME = _names()


def register_variants(variants: Iterable[Variant]) -> None:
    """Add checked entries (a variants file, variant_file.py) to ``VARIANTS`` and the names
    ``get_variant`` knows; the names across all entries are checked again, and nothing is
    added when they clash."""
    new = list(variants)
    for v in new:
        if v.key in VARIANTS:
            raise VariantDefinitionError(f"duplicate key {v.key!r}", "key")
    before = dict(VARIANTS)
    VARIANTS.update((v.key, v) for v in new)
    try:
        names = _names()
    except VariantDefinitionError:
        VARIANTS.clear()
        VARIANTS.update(before)
        raise
    _BY_NAME.clear()
    _BY_NAME.update(names)


def get_variant(name: str | Variant) -> Variant:
    """The variant called ``name`` (its key, PGN name or an alias, any case)."""
    if isinstance(name, Variant):
        return name
    found = _BY_NAME.get(normalize_variant_name(name)) if isinstance(name, str) else None
    if found is None:
        raise UnknownVariantError(
            f"unknown variant {name!r}; known: {', '.join(sorted(VARIANTS))}"
        )
    return found


def engine_variant_names() -> tuple[str, ...]:
    """The UCI_Variant choices of our engine, in registry order."""
    return tuple(n for v in VARIANTS.values() if v.engine for n in (v.key, *v.uci_aliases))


def numbered_variant_keys() -> tuple[str, ...]:
    """Variants whose start arrays are numbered (the ``randomchess draw`` choices)."""
    return tuple(v.key for v in VARIANTS.values() if v.numbering is not None)


def untagged_variants(ranks: int) -> tuple[Variant, ...]:
    """The variants a FEN of ``ranks`` rows without a variant name may be read as."""
    return tuple(v for v in VARIANTS.values() if v.pgn_untagged and v.ranks == ranks)


def piece_letters(kinds: tuple[PieceKind, ...]) -> str:
    return "".join(PIECE_TYPES[k].letter for k in kinds)
