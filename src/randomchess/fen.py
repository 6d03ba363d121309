"""FEN, X-FEN and Shredder-FEN for every board size, plus the MRC adjustment field.

A FEN is parsed into a :class:`Setup` (what the text says, resolved against the
placement: castling letters become rook squares), and :class:`~randomchess.position.Position`
turns a Setup into a validated position.  Writing goes the other way.

Castling field (RULES.md §2.5, D-14): ``KQkq`` means the outermost rook on that side, a file
letter names a rook directly; letters may come in any order.  On 9-file boards ``K`` is the
i-side (g-castling) rook and ``Q`` the a-side (c-castling) rook.  We write X-FEN on 8x8 by
default, Shredder (file letters) on request and always on 9-file boards.

Adjustment field (RULES.md §4.9): an optional 7th field, ``-`` or the files of the
back-rank pieces that have never moved, for each side whose Bishop Adjustment right is alive
(upper case White, lower case Black).  No field at all means no right remains.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from randomchess.errors import FenError
from randomchess.geometry import FILE_LETTERS, Geometry
from randomchess.pieces import (
    BLACK,
    KIND_BY_LETTER,
    KING,
    PAWN,
    PIECE_COLOR,
    PIECE_KIND,
    PIECE_TYPES,
    ROOK,
    WHITE,
    Color,
    PieceKind,
    make_piece,
    piece_from_symbol,
    piece_symbol,
)
from randomchess.variants import Variant


@dataclass
class Setup:
    """The content of a FEN, not yet checked for legality."""

    variant: Variant
    board: list[int]
    turn: Color = WHITE
    castling_rooks: set[int] = field(default_factory=set)  # squares of rooks with a right
    ep_square: int | None = None  # the square a capturing pawn would land on
    halfmove_clock: int = 0
    fullmove_number: int = 1
    # Per side with a live Bishop Adjustment right: its never-moved back-rank squares.
    unmoved: dict[Color, frozenset[int]] = field(default_factory=dict)
    # Gating variants (Variant.hand, docs/rules.md D-31): the pieces each side holds in hand
    # and the home-rank squares a piece may still be gated on (Fairy-Stockfish's seirawan
    # FEN: ``[Qq]`` after the placement, the gate files in the castling field).
    hand: dict[Color, tuple[PieceKind, ...]] = field(default_factory=dict)
    gates: set[int] = field(default_factory=set)


def home_rank(variant: Variant, color: Color) -> int:
    """The rank index of ``color``'s pieces at the start (behind IFRC's empty edge, the 2nd)."""
    return variant.margin if color == WHITE else variant.ranks - 1 - variant.margin


def parse_placement(text: str, variant: Variant | Geometry) -> list[int]:
    """Board list (index = square) from a FEN placement field, for a variant or a bare
    board size (diagrams)."""
    g = variant if isinstance(variant, Geometry) else variant.geometry
    rows = text.split("/")
    if len(rows) != g.ranks:
        name = f"{g.files}x{g.ranks}" if isinstance(variant, Geometry) else variant.key
        raise FenError(f"placement has {len(rows)} ranks, a {name} board has {g.ranks}")
    board = [0] * g.size
    for row_index, row in enumerate(rows):
        rank = g.ranks - 1 - row_index
        file = 0
        i, n = 0, len(row)
        while i < n:
            ch = row[i]
            if "0" <= ch <= "9":  # ASCII only: '²'.isdigit() is True but int() refuses it
                j = i + 1
                while j < n and "0" <= row[j] <= "9":
                    j += 1
                digits = row[i:j]
                # No count has more than two digits (boards have at most 12 files), so a
                # huge count is refused before int() reads it (issue 13).
                if digits[0] == "0":
                    raise FenError(f"bad empty-square count {digits!r} on rank {rank + 1}")
                if len(digits) > 2:
                    raise FenError(f"rank {rank + 1} has more than {g.files} squares")
                file += int(digits)
                i = j
                continue
            if file >= g.files:
                raise FenError(f"rank {rank + 1} has more than {g.files} squares")
            try:
                piece = piece_from_symbol(ch)
            except ValueError:
                raise FenError(f"unknown piece letter {ch!r} on rank {rank + 1}") from None
            board[g.square(file, rank)] = piece
            file += 1
            i += 1
        if file != g.files:
            raise FenError(f"rank {rank + 1} has {file} squares, expected {g.files}")
    return board


def _resolve_castling(text: str, variant: Variant, board: list[int]) -> set[int]:
    """Rook squares named by the castling field; every letter must name a rook on its home
    rank beside a king on that rank, at most one rook per wing (RULES.md §2.5)."""
    g = variant.geometry
    rooks: set[int] = set()
    if text == "-":
        return rooks
    if len(set(text)) != len(text):
        raise FenError(f"castling field {text!r} repeats a letter")
    for ch in text:
        color = WHITE if ch.isupper() else BLACK
        side = "White" if color == WHITE else "Black"
        row = [g.square(f, home_rank(variant, color)) for f in range(g.files)]
        kings = [sq for sq in row if board[sq] == make_piece(KING, color)]
        if not kings:
            raise FenError(f"castling letter {ch!r}: {side}'s king is not on its home rank")
        ksq = kings[0]
        own_rooks = [sq for sq in row if board[sq] == make_piece(ROOK, color)]
        letter = ch.upper()
        if letter == "K":
            far = [sq for sq in own_rooks if sq > ksq]
            if not far:
                raise FenError(f"castling letter {ch!r}: no {side} rook on the king's far side")
            sq = far[-1]
        elif letter == "Q":
            near = [sq for sq in own_rooks if sq < ksq]
            if not near:
                raise FenError(f"castling letter {ch!r}: no {side} rook on the king's a-side")
            sq = near[0]
        elif letter in FILE_LETTERS[: g.files].upper():
            sq = row[FILE_LETTERS.index(letter.lower())]
            if sq not in own_rooks:
                raise FenError(f"castling letter {ch!r}: no {side} rook on {g.name(sq)}")
        else:
            raise FenError(f"castling field {text!r}: bad letter {ch!r}")
        wing = [r for r in rooks if r in row and (r < ksq) == (sq < ksq)]
        if wing and wing != [sq]:
            raise FenError(f"castling field {text!r} gives {side} two rooks on one wing")
        rooks.add(sq)
    return rooks


def _parse_int(text: str, name: str, minimum: int) -> int:
    # ASCII digits only: str.isdigit() accepts '²' (which int() refuses) and int() accepts
    # other scripts' digits ('٣'); neither belongs in a FEN (issue 13).
    if not text.isascii() or not text.isdigit():
        raise FenError(f"{name} {text!r} is not a number")
    if len(text) > 9:
        raise FenError(f"{name} {text[:12]}... is too large")
    value = int(text)
    if value < minimum:
        raise FenError(f"{name} {value} is below {minimum}")
    return value


def parse_fen(text: str, variant: Variant) -> Setup:
    """Read a FEN (plain, X-FEN or Shredder, with the optional adjustment field)."""
    if not isinstance(text, str):
        raise FenError("FEN must be a string")
    parts = text.split()
    if not parts:
        raise FenError("empty FEN")
    if len(parts) > 7:
        raise FenError(f"FEN has {len(parts)} fields, at most 7 are allowed")
    g = variant.geometry
    placement, hand = _split_hand(parts[0], variant)
    board = parse_placement(placement, variant)
    turn_text = parts[1] if len(parts) > 1 else "w"
    if turn_text not in ("w", "b"):
        raise FenError(f"side to move {turn_text!r} must be 'w' or 'b'")
    turn = WHITE if turn_text == "w" else BLACK
    castling_text = parts[2] if len(parts) > 2 else "-"
    gates: set[int] = set()
    if variant.has_gating:
        castling_text, gates = _split_gates(castling_text, variant, board, hand)
    castling = _resolve_castling(castling_text, variant, board)
    if variant.has_gating:
        gates |= _implied_gates(variant, board, castling, hand)
        for c in (WHITE, BLACK):
            row = _row(variant, c)
            if not hand.get(c) and any(sq in row for sq in gates):
                raise FenError(f"gating rights for {_SIDE_NAME[c]}, who has nothing in hand")
    ep_text = parts[3] if len(parts) > 3 else "-"
    ep: int | None = None
    if ep_text != "-":
        try:
            ep = g.parse_square(ep_text)
        except ValueError:
            raise FenError(f"en passant square {ep_text!r} is not a square") from None
        expected_rank = g.ranks - 3 - variant.margin if turn == WHITE else 2 + variant.margin
        if g.rank_of(ep) != expected_rank:
            raise FenError(f"en passant square {ep_text} is on the wrong rank")
        forward = g.files if turn == WHITE else -g.files  # direction of the mover's pawns
        pawn_sq, start_sq = ep - forward, ep + forward
        if board[pawn_sq] != make_piece(PAWN, turn ^ 1) or board[ep] or board[start_sq]:
            raise FenError(f"en passant square {ep_text}: no pawn can just have passed it")
    halfmove = _parse_int(parts[4], "half-move clock", 0) if len(parts) > 4 else 0
    fullmove = _parse_int(parts[5], "move number", 1) if len(parts) > 5 else 1
    unmoved: dict[Color, frozenset[int]] = {}
    if len(parts) > 6 and parts[6] != "-":
        field_text = parts[6]
        if not variant.has_adjustment:
            raise FenError(
                f"adjustment field {field_text!r}: {variant.key} has no bishop adjustment"
            )
        if len(set(field_text)) != len(field_text):
            raise FenError(f"adjustment field {field_text!r} repeats a letter")
        squares: dict[Color, set[int]] = {WHITE: set(), BLACK: set()}
        for ch in field_text:
            color = WHITE if ch.isupper() else BLACK
            if ch.lower() not in FILE_LETTERS[: g.files]:
                raise FenError(f"adjustment field: bad letter {ch!r}")
            sq = g.square(FILE_LETTERS.index(ch.lower()), home_rank(variant, color))
            piece = board[sq]
            if PIECE_COLOR[piece] != color or PIECE_KIND[piece] == PAWN:
                raise FenError(
                    f"adjustment field letter {ch!r}: no unmoved "
                    f"{'White' if color == WHITE else 'Black'} piece on {g.name(sq)}"
                )
            squares[color].add(sq)
        unmoved = {c: frozenset(s) for c, s in squares.items() if s}
    return Setup(variant, board, turn, castling, ep, halfmove, fullmove, unmoved, hand, gates)


_SIDE_NAME = ("White", "Black")


def _row(variant: Variant, color: Color) -> list[int]:
    g = variant.geometry
    return [g.square(f, home_rank(variant, color)) for f in range(g.files)]


def _split_hand(text: str, variant: Variant) -> tuple[str, dict[Color, tuple[PieceKind, ...]]]:
    """The placement without its ``[...]`` hand, and the hand (gating variants only)."""
    if not text.endswith("]") or "[" not in text:
        if "[" in text or "]" in text:
            raise FenError(f"placement {text[:40]!r}: the hand is written [..] at its end")
        return text, {}
    placement, _, inner = text[:-1].partition("[")
    if not variant.has_gating:
        raise FenError(f"{variant.key} has no pieces in hand")
    allowed = set(variant.hand_kinds)
    hand: dict[Color, list[PieceKind]] = {WHITE: [], BLACK: []}
    for ch in inner:
        kind = KIND_BY_LETTER.get(ch.upper())
        if kind is None or kind not in allowed:
            raise FenError(f"hand [{inner}]: {ch!r} is not a piece {variant.key} holds in hand")
        hand[WHITE if ch.isupper() else BLACK].append(kind)
    for c, kinds in hand.items():
        if len(kinds) > len(variant.hand_kinds) or any(
                kinds.count(k) > variant.hand_kinds.count(k) for k in kinds):
            raise FenError(f"hand [{inner}]: more pieces for {_SIDE_NAME[c]} than the "
                           f"variant's {variant.hand!r}")
    return placement, {c: tuple(sorted(k)) for c, k in hand.items() if k}


def _split_gates(text: str, variant: Variant, board: list[int],
                 hand: dict[Color, tuple[PieceKind, ...]]) -> tuple[str, set[int]]:
    """Split the castling field of a gating variant into castling letters and gate squares,
    as Fairy-Stockfish reads it: for a side with something in hand, a file letter naming a
    rook on the home rank is a castling right only when the king's square is a gate too
    (its own letter, or implied by ``K``/``Q``); any other file letter names a gate square,
    which must hold one of that side's pieces (not a pawn).  Repeated letters are allowed
    (Fairy-Stockfish 11.1 writes a castling rook's file again among the gates)."""
    if text == "-":
        return text, set()
    g = variant.geometry
    castling, gates = "", set()
    for color in (WHITE, BLACK):
        mine = [ch for ch in dict.fromkeys(text) if ch.isupper() == (color == WHITE)]
        row = _row(variant, color)
        king = next((s for s in row if board[s] == make_piece(KING, color)), None)
        king_letter = FILE_LETTERS[g.file_of(king)] if king is not None else ""
        king_gate = any(ch.upper() in "KQ" for ch in mine) or any(
            ch.lower() == king_letter for ch in mine)
        for ch in mine:
            if ch.upper() in "KQ":
                castling += ch
                continue
            if ch.lower() not in FILE_LETTERS[: g.files]:
                raise FenError(f"castling field {text!r}: bad letter {ch!r}")
            sq = row[FILE_LETTERS.index(ch.lower())]
            if board[sq] == make_piece(ROOK, color) and king is not None and (
                    king_gate or not hand.get(color)):
                castling += ch
                continue
            if PIECE_COLOR[board[sq]] != color or PIECE_KIND[board[sq]] in (PAWN, 0):
                raise FenError(f"gating letter {ch!r}: no {_SIDE_NAME[color]} piece on "
                               f"{g.name(sq)}")
            gates.add(sq)
    return castling or "-", gates


def _implied_gates(variant: Variant, board: list[int], castling: set[int],
                   hand: dict[Color, tuple[PieceKind, ...]]) -> set[int]:
    """A castling right implies gates on its rook's square and the king's (both unmoved),
    for a side with something in hand."""
    out: set[int] = set()
    for sq in castling:
        c = PIECE_COLOR[board[sq]]
        if hand.get(c):
            out.add(sq)
            out.add(next(s for s in _row(variant, c) if board[s] == make_piece(KING, c)))
    return out


def placement_fen(board: list[int], variant: Variant) -> str:
    g = variant.geometry
    rows = []
    for rank in range(g.ranks - 1, -1, -1):
        row, empty = "", 0
        for file in range(g.files):
            piece = board[g.square(file, rank)]
            if piece:
                if empty:
                    row += str(empty)
                    empty = 0
                row += piece_symbol(piece)
            else:
                empty += 1
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows)


def castling_fen(setup: Setup, shredder: bool = False) -> str:
    """The castling field: X-FEN on 8x8 unless ``shredder``; file letters on 9 files."""
    variant = setup.variant
    g = variant.geometry
    board = setup.board
    files_only = shredder or variant.castling_letters_are_files
    out = ""
    for color in (WHITE, BLACK):
        rank = home_rank(variant, color)
        rook = make_piece(ROOK, color)
        row_rooks = [g.square(f, rank) for f in range(g.files) if board[g.square(f, rank)] == rook]
        mine = sorted((sq for sq in setup.castling_rooks if g.rank_of(sq) == rank), reverse=True)
        king_sq = next((s for s in range(g.size) if board[s] == make_piece(KING, color)), -1)
        for sq in mine:
            letter = FILE_LETTERS[g.file_of(sq)]
            if not files_only:
                if sq > king_sq and sq == max(row_rooks):
                    letter = "k"
                elif sq < king_sq and sq == min(row_rooks):
                    letter = "q"
            out += letter.upper() if color == WHITE else letter
    return out or "-"


def gates_fen(setup: Setup, castling: str) -> str:
    """The gate letters after the castling letters ``castling`` (Fairy-Stockfish's seirawan
    FEN): every gate square except the castling rooks' squares, and the king's square unless
    the side's castling letters are ``K``/``Q``, which imply it (S-FEN)."""
    variant = setup.variant
    g = variant.geometry
    board = setup.board
    out = ""
    for color in (WHITE, BLACK):
        row = _row(variant, color)
        mine = [sq for sq in setup.castling_rooks if sq in row]
        kq = "KQ" if color == WHITE else "kq"
        implied = any(ch in kq for ch in castling)
        king = make_piece(KING, color)
        for sq in row:
            if sq not in setup.gates or sq in mine or (implied and board[sq] == king):
                continue
            letter = FILE_LETTERS[g.file_of(sq)]
            out += letter.upper() if color == WHITE else letter
    return out


def hand_fen(setup: Setup) -> str:
    """``[Qq]``: the pieces in hand, White's then Black's (gating variants only)."""
    out = "".join(PIECE_TYPES[k].letter for k in setup.hand.get(WHITE, ()))
    out += "".join(PIECE_TYPES[k].letter.lower() for k in setup.hand.get(BLACK, ()))
    return f"[{out}]"


def adjustment_fen(setup: Setup) -> str:
    g = setup.variant.geometry
    out = ""
    for color in (WHITE, BLACK):
        for sq in sorted(setup.unmoved.get(color, ())):
            letter = FILE_LETTERS[g.file_of(sq)]
            out += letter.upper() if color == WHITE else letter
    return out or "-"


def format_fen(setup: Setup, *, shredder: bool = False, ep_legal: bool = True,
               adjustment_field: bool | None = None) -> str:
    """Write ``setup`` as FEN.  ``ep_legal`` says whether to write its en passant square
    (callers pass whether a legal en passant capture exists, D-23).  The adjustment field
    is written when a side still has a right, or when ``adjustment_field`` asks for it."""
    g = setup.variant.geometry
    ep = g.name(setup.ep_square) if setup.ep_square is not None and ep_legal else "-"
    placement = placement_fen(setup.board, setup.variant)
    castling = castling_fen(setup, shredder)
    if setup.variant.has_gating:
        placement += hand_fen(setup)
        gates = gates_fen(setup, castling)
        letters = castling.strip("-") + gates
        # Per side: castling letters, then gate letters (``KQBCDFGkqbcdfg``).
        castling = "".join(c for c in castling if c.isupper()) + "".join(
            c for c in gates if c.isupper()) + "".join(
            c for c in castling if c.islower()) + "".join(
            c for c in gates if c.islower()) if letters else "-"
    fen = " ".join((
        placement,
        "w" if setup.turn == WHITE else "b",
        castling,
        ep,
        str(setup.halfmove_clock),
        str(setup.fullmove_number),
    ))
    if adjustment_field or (adjustment_field is None and setup.unmoved):
        fen += " " + adjustment_fen(setup)
    return fen
