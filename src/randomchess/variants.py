"""Variants as data: board size, army, setup family, symmetry, castling and adjustment rules.

The move generator never asks "is this MRC?"; it asks the variant for its castling files,
promotion set or adjustment partners.  A new member of the family (Pseudo-MRC, Chess8400,
CRC, PMRC ...) is a new entry in ``VARIANTS``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from randomchess.geometry import FILE_LETTERS, Geometry, geometry
from randomchess.pieces import (
    BISHOP,
    KING,
    KNIGHT,
    MINISTER,
    PIECE_TYPES,
    QUEEN,
    ROOK,
    PieceKind,
)


class UnknownVariantError(ValueError):
    """No variant of that name (or alias) is known."""


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
    fixed_rank: str | None = None  # the one start array of a non-random variant
    symmetry: str = "mirror"  # "mirror": a1<->a8 file by file; "reverse": a1<->i9 point reflection
    bishops_opposite: bool = True  # setup constraint (Chess960: yes, MRC: no)
    # Bishop Adjustment partners (RULES.md §3, BAR-3); empty = the variant has no adjustment.
    adjustment_partners: frozenset[PieceKind] = field(default_factory=frozenset)
    # Classical chess may also read and write castling as the king's two-square step (e1g1).
    classical_uci: bool = False
    aliases: tuple[str, ...] = ()

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
    def castling_letters_are_files(self) -> bool:
        """On 9-file boards castling rights are written as file letters (D-14)."""
        return self.files != 8

    def black_rank(self, white_rank: str) -> str:
        """Black's home rank, a-file first, for White's ``white_rank`` (RULES.md §2.1, §4.3)."""
        rank = white_rank.lower()
        return rank[::-1] if self.symmetry == "reverse" else rank

    def is_setup(self, rank: str) -> bool:
        """Whether ``rank`` (White's back rank, a-file first) is a legal start array here."""
        if len(rank) != self.files or sorted(rank) != sorted(self.army):
            return False
        if self.fixed_rank is not None:
            return rank == self.fixed_rank
        king = rank.index("K")
        rooks = [i for i, c in enumerate(rank) if c == "R"]
        if not (rooks and rooks[0] < king < rooks[-1]):
            return False
        if self.bishops_opposite:
            b1, b2 = (i for i, c in enumerate(rank) if c == "B")
            return (b1 + b2) % 2 == 1
        return True

    def bishops_same_colour(self, rank: str) -> bool:
        b = [i for i, c in enumerate(rank) if c == "B"]
        return len(b) == 2 and (b[0] - b[1]) % 2 == 0

    def setup_fen(self, rank: str, adjustment: bool | None = None) -> str:
        """The start FEN for White's back rank ``rank``.

        ``adjustment`` decides whether the Bishop Adjustment right is in play (the 7th FEN
        field, RULES.md §4.9).  By default it is on exactly when the variant has the rule,
        the array's bishops share a colour (BAR-1) and the variant is random (Maura's fixed
        array uses it only by agreement, RULES.md §3).
        """
        if not self.is_setup(rank):
            raise ValueError(f"{rank!r} is not a {self.key} start array")
        if adjustment is None:
            adjustment = self.is_random and self.has_adjustment and self.bishops_same_colour(rank)
        if adjustment and not (self.has_adjustment and self.bishops_same_colour(rank)):
            raise ValueError(f"{self.key} array {rank!r} has no bishop adjustment")
        pawns = "P" * self.files
        gap = str(self.files)
        rows = [self.black_rank(rank), pawns.lower()] + [gap] * (self.ranks - 4) + [pawns, rank]
        letters = FILE_LETTERS[: self.files]
        if self.castling_letters_are_files:
            rooks = [i for i, c in enumerate(rank) if c == "R"]
            black = self.black_rank(rank)
            black_rooks = [i for i, c in enumerate(black) if c == "r"]
            castling = "".join(letters[i].upper() for i in reversed(rooks)) + "".join(
                letters[i] for i in reversed(black_rooks)
            )
        else:
            castling = "KQkq"
        fen = f"{'/'.join(rows)} w {castling} - 0 1"
        if adjustment:
            fen += " " + letters.upper() + letters
        return fen

    @property
    def start_fen(self) -> str:
        """The start FEN of a fixed-array variant (``ValueError`` for random ones)."""
        if self.fixed_rank is None:
            raise ValueError(f"{self.key} has no single start position; draw one")
        return self.setup_fen(self.fixed_rank)

    def castle_san_for(self, a_side: bool) -> str:
        return self.castle_san[0] if a_side else self.castle_san[1]


_STANDARD_PROMOTIONS = (QUEEN, ROOK, BISHOP, KNIGHT)
_MODERN_PROMOTIONS = (QUEEN, MINISTER, ROOK, BISHOP, KNIGHT)
_MODERN_PARTNERS = frozenset({KNIGHT, QUEEN, MINISTER})
_MRC_PARTNERS = frozenset({KNIGHT, QUEEN, MINISTER, ROOK, KING})

VARIANTS: dict[str, Variant] = {
    v.key: v
    for v in (
        Variant(
            key="chess", pgn_name="Standard", files=8, ranks=8, army="RNBQKBNR",
            promotions=_STANDARD_PROMOTIONS, castle_a=(2, 3), castle_h=(6, 5),
            castle_san=("O-O-O", "O-O"), fixed_rank="RNBQKBNR", classical_uci=True,
            aliases=("standard", "classical", "normal", "orthodox"),
        ),
        Variant(
            key="chess960", pgn_name="Chess960", files=8, ranks=8, army="RNBQKBNR",
            promotions=_STANDARD_PROMOTIONS, castle_a=(2, 3), castle_h=(6, 5),
            castle_san=("O-O-O", "O-O"),
            aliases=("chess 960", "fischerandom", "fischer random", "frc", "960"),
        ),
        # Maura's Modern Chess; the optional bishop rule is in play only when the start
        # FEN carries the adjustment field (Variant.setup_fen(..., adjustment=True)).
        Variant(
            key="modern", pgn_name="Modern", files=9, ranks=9, army="RNBMKQBNR",
            promotions=_MODERN_PROMOTIONS, castle_a=(2, 3), castle_h=(6, 5),
            castle_san=("O-O-Oc", "O-O-Og"), fixed_rank="RNBMKQBNR", symmetry="reverse",
            bishops_opposite=False, adjustment_partners=_MODERN_PARTNERS,
            aliases=("modern chess", "maura"),
        ),
        Variant(
            key="mrc", pgn_name="Modern Random Chess", files=9, ranks=9, army="RNBMKQBNR",
            promotions=_MODERN_PROMOTIONS, castle_a=(2, 3), castle_h=(6, 5),
            castle_san=("O-O-Oc", "O-O-Og"), symmetry="reverse", bishops_opposite=False,
            adjustment_partners=_MRC_PARTNERS,
            aliases=("modern random chess", "modern random", "ajedrez aleatorio moderno"),
        ),
        # RULES.md §5: MRC with direct (file-by-file) symmetry.
        Variant(
            key="pseudo-mrc", pgn_name="Pseudo Modern Random Chess", files=9, ranks=9,
            army="RNBMKQBNR", promotions=_MODERN_PROMOTIONS, castle_a=(2, 3), castle_h=(6, 5),
            castle_san=("O-O-Oc", "O-O-Og"), bishops_opposite=False,
            adjustment_partners=_MRC_PARTNERS, aliases=("pseudo mrc", "pmrc9"),
        ),
        # RULES.md §5: "9x9 FRC", the opposite-bishop subset of Pseudo-MRC (no adjustment).
        Variant(
            key="chess8400", pgn_name="Chess8400", files=9, ranks=9, army="RNBMKQBNR",
            promotions=_MODERN_PROMOTIONS, castle_a=(2, 3), castle_h=(6, 5),
            castle_san=("O-O-Oc", "O-O-Og"), aliases=("chess 8400", "9x9 frc"),
        ),
        # RULES.md §5: Prime Ministers Random Chess, 9 files x 8 ranks, castling to b/c and
        # h/g; promotion set assumed as Modern Chess ([R] in RULES.md).
        Variant(
            key="pmrc", pgn_name="Prime Ministers Random Chess", files=9, ranks=8,
            army="RNBMKQBNR", promotions=_MODERN_PROMOTIONS, castle_a=(1, 2), castle_h=(7, 6),
            castle_san=("O-Ob", "O-Oh"), aliases=("prime ministers random chess",),
        ),
    )
}


def normalize_variant_name(name: str) -> str:
    return " ".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


def get_variant(name: str | Variant) -> Variant:
    """The variant called ``name`` (its key, PGN name or an alias, any case)."""
    if isinstance(name, Variant):
        return name
    wanted = normalize_variant_name(name)
    for v in VARIANTS.values():
        names = (v.key, v.pgn_name, *v.aliases)
        if wanted in {normalize_variant_name(n) for n in names}:
            return v
    raise UnknownVariantError(
        f"unknown variant {name!r}; known: {', '.join(sorted(VARIANTS))}"
    )


def piece_letters(kinds: tuple[PieceKind, ...]) -> str:
    return "".join(PIECE_TYPES[k].letter for k in kinds)
