"""``GET /api/variants``: the variant metadata the browser draws boards from.

Everything is read from the rules core's ``Variant`` entries and piece table, so a new entry
in ``VARIANTS`` is served without a change here: board size, pieces with their letters in
English and Spanish, castling files and SAN, promotion set, Bishop Adjustment partners and
the setup family.  The shapes are pydantic models, so the OpenAPI schema shows them.
"""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel

from randomchess.geometry import FILE_LETTERS
from randomchess.pieces import KIND_BY_LETTER, PAWN, PIECE_TYPES, PieceKind
from randomchess.startpos import SetupPool, SetupPoolError, setup_count
from randomchess.variants import VARIANTS, Variant


class PieceInfo(BaseModel):
    """One kind of piece: FEN letter (English, lower case as chessground's role letter),
    SAN letters in both languages and names."""

    letter: str
    letter_es: str
    name: str
    name_es: str


class CastlingSide(BaseModel):
    """Where king and rook end when castling on one side, and its SAN."""

    san: str
    king_file: str
    rook_file: str


class SetupFamily(BaseModel):
    """How start positions are made: one fixed array, or random arrays under constraints."""

    random: bool
    fixed_rank: str | None
    default_rank: str  # the array of ``position startpos`` / the default game
    army: str
    numbering: str | None  # "scharnagl", "mrc" or none
    symmetry: str  # "mirror" or "reverse" (Black's array)
    bishops_opposite: bool
    opposite_colours: list[str]
    # empty edge files and ranks around the armies (IFRC: 1; the army is files - 2 x margin)
    margin: int
    # Numbered families only (else none / false): how many setups, the number of the
    # standard array ("exclude the standard array" leaves it out of a pool) and whether a
    # pool may keep only same- or opposite-coloured bishops (docs/shuffler.md).
    count: int | None
    standard_number: int | None
    bishop_filter: bool


class Description(BaseModel):
    """What players are told about a variant beyond its name, per language (empty: nothing)."""

    en: str
    es: str


class VariantInfo(BaseModel):
    key: str
    name: str  # the PGN [Variant] name
    aliases: list[str]
    files: int
    ranks: int
    file_letters: str
    pieces: list[PieceInfo]  # pawn first, then the army's kinds, then promotion-only kinds
    promotions: list[str]  # FEN letters, in the order a promotion menu shows them
    castling_a_side: CastlingSide
    castling_far_side: CastlingSide
    castling_notation: str  # "xfen" (KQkq) or "files" (always file letters, 9 files)
    adjustment_partners: list[str]  # FEN letters; empty = no Bishop Adjustment
    # FEN letters of the pieces each side holds in hand at the start, entering by gating on
    # the square a piece first leaves (PM-CRC: ["q"]; docs/rules.md D-31); empty = none.
    hand: list[str]
    setup: SetupFamily
    default_fen: str
    engine: bool  # playable against the built-in engine
    description: Description  # e.g. CRC's inferred castling squares (RULES.md D-18)
    # The name shown to players per language (empty: the browser's catalogue, else ``name``);
    # set by a variants file's ``display_name`` (docs/variants.md).
    display_name: Description


def _piece(kind: PieceKind) -> PieceInfo:
    t = PIECE_TYPES[kind]
    return PieceInfo(letter=t.letter.lower(), letter_es=t.spanish, name=t.name,
                     name_es=t.spanish_name)


def _kinds_in_order(v: Variant) -> list[PieceKind]:
    ordered: list[PieceKind] = [PAWN]
    for kind in [KIND_BY_LETTER[c] for c in v.army] + list(v.hand_kinds) + list(v.promotions):
        if kind not in ordered:
            ordered.append(kind)
    return ordered


def _side(v: Variant, a_side: bool) -> CastlingSide:
    king, rook = v.castle_a if a_side else v.castle_h
    return CastlingSide(san=v.castle_san_for(a_side), king_file=FILE_LETTERS[king],
                        rook_file=FILE_LETTERS[rook])


def _numbering(v: Variant) -> tuple[int | None, int | None, bool]:
    if v.numbering is None:
        return None, None, False
    try:
        SetupPool(v, "same")
    except SetupPoolError:
        bishop_filter = False
    else:
        bishop_filter = True
    excluded = SetupPool(v, exclude_standard=True).excluded
    return setup_count(v), excluded[0] if excluded else None, bishop_filter


def variant_info(v: Variant) -> VariantInfo:
    """The browser-facing description of ``v``."""
    count, standard, bishop_filter = _numbering(v)
    return VariantInfo(
        key=v.key, name=v.pgn_name, aliases=list(v.aliases), files=v.files, ranks=v.ranks,
        file_letters=FILE_LETTERS[: v.files],
        pieces=[_piece(k) for k in _kinds_in_order(v)],
        promotions=[PIECE_TYPES[k].letter.lower() for k in v.promotions],
        castling_a_side=_side(v, True), castling_far_side=_side(v, False),
        castling_notation=v.castling_notation,
        adjustment_partners=sorted(PIECE_TYPES[k].letter.lower() for k in v.adjustment_partners),
        hand=[c.lower() for c in v.hand],
        setup=SetupFamily(
            random=v.is_random, fixed_rank=v.fixed_rank,
            default_rank=v.fixed_rank or v.startpos_rank or "", army=v.army,
            numbering=v.numbering, symmetry=v.symmetry, bishops_opposite=v.bishops_opposite,
            opposite_colours=list(v.opposite_colours), margin=v.margin,
            count=count, standard_number=standard, bishop_filter=bishop_filter,
        ),
        default_fen=v.default_fen, engine=v.engine,
        description=Description(en=v.description[0], es=v.description[1]),
        display_name=Description(en=v.display_name[0], es=v.display_name[1]),
    )


router = APIRouter()


@router.get("/api/variants", response_model=list[VariantInfo])
async def list_variants() -> list[VariantInfo]:
    """Every registered variant, in registry order."""
    return [variant_info(v) for v in VARIANTS.values()]
