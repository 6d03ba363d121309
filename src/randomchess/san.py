"""Standard Algebraic Notation in English and Spanish, for every variant.

The writer is strict and the parser lenient (``0-0``, ``e8Q``, ``exd6 e.p.``, ``Ng1-f3``,
trailing ``+``/``#``/``!?``), so that ``parse_san(pos, san(pos, m)) == m`` for every legal
move.  Two kinds of move have their own forms (docs/notation.md):

* castling is ``variant.castle_san``: ``O-O``/``O-O-O`` on 8x8 (h-side / a-side, wherever the
  king starts, RULES.md §2.7), ``O-O-Og``/``O-O-Oc`` on 9x9 (§4.7); never ``Kg1``;
* a Bishop Adjustment is ``B=X`` with X the partner, plus the bishop's file and then the
  partner's file only when needed to tell two legal adjustments apart (D-19);
* a gating move (PM-CRC, docs/rules.md D-32) is the move's SAN plus ``/`` and the gated
  piece, Seirawan style (``Nc3/Q``); castling adds the gate square (``O-Og/Qe1``), as
  Fairy-Stockfish writes it.  The author's ``Mc3(Qd1)`` form is read too.

Spanish uses R (rey) D T A C M; note R is the *king* there and the rook in English, so the
language is a parameter and is only ever guessed when the guess cannot be wrong
(:func:`parse_san` with ``lang=None``).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Literal

from randomchess.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    LanguageError,
)
from randomchess.geometry import FILE_LETTERS
from randomchess.pieces import (
    BISHOP,
    KIND_BY_LETTER,
    KIND_BY_SPANISH_LETTER,
    KING,
    KNIGHT,
    PAWN,
    PIECE_COLOR,
    PIECE_TYPES,
    PieceKind,
    make_piece,
)
from randomchess.position import Move, Position
from randomchess.variants import Variant, get_variant

__all__ = [
    "LANGUAGES",
    "Language",
    "language_of_letters",
    "parse_san",
    "piece_letter",
    "push_san",
    "san",
    "san_and_push",
    "variation_san",
]

Language = Literal["en", "es"]
LANGUAGES: tuple[Language, ...] = ("en", "es")

_LETTER_TO_KIND: dict[str, dict[str, PieceKind]] = {
    "en": dict(KIND_BY_LETTER),
    "es": dict(KIND_BY_SPANISH_LETTER),
}


@cache
def _language_evidence(kinds: frozenset[PieceKind]) -> tuple[frozenset[str], frozenset[str]]:
    """Letters that settle the language on their own among the pieces ``kinds`` of a
    variant: in chess K Q B N are English only and D T A C L Spanish only; R (rook / rey),
    M and P are shared.  (In Capablanca chess A and C are English letters too.)"""
    en = {PIECE_TYPES[k].letter for k in kinds}
    es = {PIECE_TYPES[k].spanish for k in kinds} | ({"L"} if BISHOP in kinds else set())
    return frozenset(en - es), frozenset(es - en)


def _check_lang(lang: str) -> Language:
    if lang == "en":
        return "en"
    if lang == "es":
        return "es"
    raise LanguageError(f"unknown notation language {lang!r}; use 'en' or 'es'")


def piece_letter(kind: PieceKind, lang: Language = "en") -> str:
    """The upper-case letter of ``kind`` in ``lang`` (``R`` is the rook in English, the king
    in Spanish)."""
    t = PIECE_TYPES[kind]
    return t.letter if _check_lang(lang) == "en" else t.spanish


def language_of_letters(letters: str, variant: str | Variant = "chess") -> Language | None:
    """The language that upper-case piece ``letters`` can only be in, among the pieces of
    ``variant``, or ``None`` if they fit both (only R, M, P) or neither (a mix); used to
    infer a game's notation."""
    only_en, only_es = _language_evidence(get_variant(variant).kinds)
    en = not only_en.isdisjoint(letters)  # the sets hold upper-case letters only
    es = not only_es.isdisjoint(letters)
    if en != es:
        return "en" if en else "es"
    return None


# ------------------------------------------------------------------------------ writing
def san(pos: Position, move: Move, lang: Language = "en") -> str:
    """The SAN of the legal ``move`` in ``pos``, with ``+`` or ``#`` (strict form)."""
    body = _san_body(pos, move, _check_lang(lang))
    pos.push(move)
    try:
        return body + _suffix_after(pos)
    finally:
        pos.pop()


def san_and_push(pos: Position, move: Move, lang: Language = "en") -> str:
    """:func:`san` of ``move``, which is then played on ``pos`` (one push instead of two)."""
    body = _san_body(pos, move, _check_lang(lang))
    pos.push(move)
    return body + _suffix_after(pos)


def _suffix_after(pos: Position) -> str:
    """``+``, ``#`` or nothing for the position just reached."""
    if not pos.is_check():
        return ""
    return "#" if not pos.legal_moves() else "+"


def _moves_to(pos: Position, to: int, kind: PieceKind) -> list[Move]:
    """The legal ordinary moves (no castling, no adjustment) of the side to move's ``kind``
    onto ``to``, every promotion included, found from ``to`` backwards instead of by
    generating every legal move.  The same rules as ``Position._generate``: king steps are
    tested with the king lifted, other men keep to their pin line and answer a single check,
    en passant is tried on the board (RULES.md §1; checked against legal_moves() in
    tests/test_san.py)."""
    us = pos.turn
    target = pos.board[to]
    if target and PIECE_COLOR[target] == us:
        return []
    if kind == KING:
        return _king_moves_to(pos, to)
    checkers, evasion, pins = pos._checks_and_pins(pos.kings[us], us)
    if checkers > 1:
        return []
    if kind == PAWN:
        return _pawn_moves_to(pos, to, evasion, pins)
    # Every movement is symmetric, so the men that reach ``to`` are those a man of this
    # kind standing on ``to`` would reach.
    board = pos.board
    t = pos._t
    piece = make_piece(kind, us)
    froms: list[int] = []
    leaps = t.leaps[kind]
    if leaps is not None:
        froms = [s for s in leaps[to] if board[s] == piece]
    rays = t.slide_rays.get(kind)
    if rays is not None:
        for ray in rays[to]:
            for s in ray:
                q = board[s]
                if q:
                    if q == piece:
                        froms.append(s)
                    break
    made = t.moves  # every Move(a, b), made once per board size
    return [made[s][to] for s in froms if _may_reach(s, to, evasion, pins)]


def _may_reach(frm: int, to: int, evasion: frozenset[int] | None,
               pins: dict[int, frozenset[int]]) -> bool:
    """Whether a man on ``frm`` may land on ``to``: on its pin line, and answering the
    check (``evasion``: the squares that do) if there is one."""
    allowed = pins.get(frm)
    if evasion is not None:
        allowed = evasion if allowed is None else allowed & evasion
    return allowed is None or to in allowed


def _king_moves_to(pos: Position, to: int) -> list[Move]:
    """The king's step onto ``to``, if it is one and the square is safe with the king
    lifted off its own."""
    us = pos.turn
    board = pos.board
    ksq = pos.kings[us]
    if to not in pos._t.king_leaps[ksq]:
        return []
    piece = board[ksq]
    board[ksq] = 0
    try:
        safe = not pos.is_attacked(to, us ^ 1)
    finally:
        board[ksq] = piece
    return [pos._t.moves[ksq][to]] if safe else []


def _pawn_moves_to(pos: Position, to: int, evasion: frozenset[int] | None,
                   pins: dict[int, frozenset[int]]) -> list[Move]:
    """The pawn moves onto ``to``: a capture, one or two steps, en passant, every
    promotion."""
    board = pos.board
    us = pos.turn
    them = us ^ 1
    t = pos._t
    files = pos.geometry.files
    piece = make_piece(PAWN, us)
    fwd = t.forward[us]
    out: list[Move] = []
    froms: list[int] = []
    if board[to]:
        froms = [s for s in t.pawn_attacks[them][to] if board[s] == piece]
    else:
        one = to - fwd
        if 0 <= one < len(board):
            if board[one] == piece:
                froms.append(one)
            elif not board[one]:
                two = one - fwd
                if 0 <= two < len(board) and board[two] == piece and \
                        two // files == t.pawn_start_rank[us]:
                    froms.append(two)
        if to == pos.ep_square:
            out.extend(t.moves[s][to] for s in t.pawn_attacks[them][to]
                       if board[s] == piece and pos._en_passant_is_safe(s, to))
    promotes = to // files == t.promotion_rank[us]
    for s in froms:
        if not _may_reach(s, to, evasion, pins):
            continue
        if promotes:
            out.extend(Move(s, to, k) for k in pos.variant.promotions)
        else:
            out.append(t.moves[s][to])
    return out


def _san_body(pos: Position, move: Move, lang: Language) -> str:
    g = pos.geometry
    board = pos.board
    frm, to = move.from_square, move.to_square
    piece = board[frm] if 0 <= frm < len(board) and 0 <= to < len(board) else 0
    if not piece or pos.color_at(frm) != pos.turn:
        raise IllegalMoveError(f"no {'white' if pos.turn == 0 else 'black'} piece on "
                               f"{_square_name(pos, frm)} for move {_move_text(pos, move)}")
    if move.promotion and pos.is_gating(move):
        return _gating_san(pos, move, lang)
    target = board[to]
    if target and pos.color_at(to) == pos.turn:  # castling or a Bishop Adjustment
        legal = pos.legal_moves()
        if move not in legal:
            raise IllegalMoveError(f"illegal move {pos.uci(move)} in {pos.fen()}")
        if pos.is_castling(move):
            return pos.variant.castle_san_for(to < frm)
        return _adjustment_san(pos, move, lang, legal)
    kind = pos.piece_type_at(frm)
    rivals = _moves_to(pos, to, kind)
    if move not in rivals:
        raise IllegalMoveError(f"illegal move {_move_text(pos, move)} in {pos.fen()}")
    capture = bool(target) or (kind == PAWN and to == pos.ep_square
                               and g.file_of(frm) != g.file_of(to))
    if kind == PAWN:
        text = (g.name(frm)[0] + "x" if capture else "") + g.name(to)
        if move.promotion:
            text += "=" + piece_letter(move.promotion, lang)
        return text
    text = piece_letter(kind, lang)
    if kind != KING:
        others = [m.from_square for m in rivals if m.from_square != frm]
        if others:
            same_file = any(g.file_of(s) == g.file_of(frm) for s in others)
            same_rank = any(g.rank_of(s) == g.rank_of(frm) for s in others)
            if not same_file:
                text += FILE_LETTERS[g.file_of(frm)]
            elif not same_rank:
                text += g.name(frm)[1:]
            else:
                text += g.name(frm)
    return text + ("x" if capture else "") + g.name(to)


def _gating_san(pos: Position, move: Move, lang: Language) -> str:
    """``Nc3/Q``, ``Kxe2/Q``, ``O-Og/Qe1`` (D-32): the base move's SAN, disambiguated among
    every legal move of the same kind onto the same square, then the gate."""
    g = pos.geometry
    legal = pos.legal_moves()
    if move not in legal:
        raise IllegalMoveError(f"illegal move {pos.uci(move)} in {pos.fen()}")
    base, gsq = pos.gating_base(move)
    gate = "/" + piece_letter(move.promotion, lang)
    if pos.is_castling(base):
        return pos.variant.castle_san_for(base.to_square < base.from_square) + gate + g.name(gsq)
    frm, to = base.from_square, base.to_square
    kind = pos.piece_type_at(frm)
    text = piece_letter(kind, lang)
    if kind != KING:
        others = {m.from_square for m in legal if m.to_square == to and m.from_square != frm
                  and pos.piece_type_at(m.from_square) == kind
                  and pos.color_at(to) != pos.turn}
        if others:
            same_file = any(g.file_of(s) == g.file_of(frm) for s in others)
            same_rank = any(g.rank_of(s) == g.rank_of(frm) for s in others)
            if not same_file:
                text += FILE_LETTERS[g.file_of(frm)]
            elif not same_rank:
                text += g.name(frm)[1:]
            else:
                text += g.name(frm)
    return text + ("x" if pos.board[to] else "") + g.name(to) + gate


def _square_name(pos: Position, sq: int) -> str:
    return pos.geometry.name(sq) if 0 <= sq < pos.geometry.size else f"square {sq}"


def _move_text(pos: Position, move: Move) -> str:
    try:
        return pos.uci(move)
    except (IndexError, ValueError):
        return repr(move)


def _adjustment_san(pos: Position, move: Move, lang: Language, legal: list[Move]) -> str:
    """``B=X``, ``Bc=X`` or ``Bc=Xb`` (D-19): the shortest form no other legal adjustment
    shares."""
    g = pos.geometry
    frm, to = move.from_square, move.to_square
    partner = pos.piece_type_at(to)
    rivals = [m for m in legal if m != move and pos.is_adjustment(m)
              and pos.piece_type_at(m.to_square) == partner]
    text = piece_letter(BISHOP, lang)
    if rivals:
        text += FILE_LETTERS[g.file_of(frm)]
    text += "=" + piece_letter(partner, lang)
    if any(m.from_square == frm for m in rivals):
        text += FILE_LETTERS[g.file_of(to)]
    return text


def variation_san(pos: Position, moves: list[Move], lang: Language = "en") -> str:
    """A line of legal moves as numbered SAN (``1. e4 e5 2. Nf3``); ``pos`` is unchanged."""
    board = pos.copy(stack=False)
    parts: list[str] = []
    for i, move in enumerate(moves):
        if not board.is_legal(move):
            raise IllegalMoveError(f"illegal move {board.uci(move)} at ply {i + 1} of the line")
        if board.turn == 0:
            parts.append(f"{board.fullmove_number}.")
        elif i == 0:
            parts.append(f"{board.fullmove_number}...")
        parts.append(san_and_push(board, move, lang))
    return " ".join(parts)


# ------------------------------------------------------------------------------ parsing
_ANNOTATION = re.compile(r"[+#‡†]*(?:\s*(?:e\.p\.?|ep)(?![A-Za-z]))?[+#‡†]*(?:[!?]{1,2})?[+#‡†]*$")
_CASTLING = re.compile(r"([O0o])-([O0o])(?:-([O0o]))?([a-l])?")
_MAURA_CASTLING = re.compile(r"[O0o]-([A-Z])-[O0o]")
_ADJUSTMENT = re.compile(r"([A-Z])([a-l])?=([A-Z])([A-Z]|[a-l])?")
_UCI = re.compile(r"[a-l](?:1[0-2]|[1-9])[a-l](?:1[0-2]|[1-9])[a-z]?")
_MOVE = re.compile(
    r"(?P<piece>[A-Z])?(?P<file>[a-l])?(?P<rank>1[0-2]|[1-9])?[-x:]?"
    r"(?P<to>[a-l](?:1[0-2]|[1-9]))(?:=?\(?(?P<promo>[A-Za-z])\)?)?"
)


# A gating move: ``Nc3/Q``, ``O-Og/Qe1`` (Seirawan), or the author's ``Mc3(Qd1)`` (D-32).
_SQUARE = r"[a-l](?:1[0-2]|[1-9])"
_GATE = re.compile(
    rf"(?P<base>.+?)(?:/(?P<piece>[A-Z])(?P<square>{_SQUARE})?"
    rf"|\((?P<piece2>[A-Z])(?P<square2>{_SQUARE})\))"
)


# The longest SAN with every lenient extra is ~20 characters (``Nb12xc10=Q+!? e.p.``);
# anything much longer is refused before the patterns scan it (issue 13).
_MAX_SAN = 40


def parse_san(pos: Position, text: str, lang: Language | None = "en") -> Move:
    """The legal move written ``text`` in ``pos``.

    ``lang`` is ``"en"`` (default) or ``"es"``.  With ``None`` the language is inferred: a
    letter only one language uses decides it; text readable both ways (``Re2`` is a rook
    move in English and a king move in Spanish) is accepted only when exactly one reading is
    a legal move.  Coordinates (``e2e4``, ``e1h1``) are accepted as a last resort.

    Raises ``InvalidMoveError`` (malformed), ``IllegalMoveError`` (no such legal move) or
    ``AmbiguousMoveError`` (more than one; also for an undecidable language guess).
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"SAN must be a string, not {type(text).__name__}")
    if len(text) > _MAX_SAN:
        raise InvalidMoveError(f"move text too long ({len(text)} characters): {text[:20]!r}...")
    if lang is not None:
        return _parse(pos, text, _check_lang(lang))
    guess = language_of_letters(text, pos.variant)
    if guess is not None:
        return _parse(pos, text, guess)
    readings: dict[Move, Language] = {}
    errors: list[ValueError] = []
    for candidate in LANGUAGES:
        try:
            readings.setdefault(_parse(pos, text, candidate), candidate)
        except (IllegalMoveError, AmbiguousMoveError, InvalidMoveError) as exc:
            errors.append(exc)
    if len(readings) == 1:
        return next(iter(readings))
    if len(readings) > 1:
        raise AmbiguousMoveError(
            f"{text!r} is a different legal move in English and in Spanish; give the language"
        )
    raise errors[0]


def push_san(pos: Position, text: str, lang: Language | None = "en") -> Move:
    """Parse ``text`` with :func:`parse_san`, play it, and return the move."""
    move = parse_san(pos, text, lang)
    pos.push(move)
    return move


def _parse(pos: Position, text: str, lang: Language) -> Move:
    raw = text
    if pos.variant.has_gating and ("/" in text or "(" in text):
        gm = _GATE.fullmatch(_ANNOTATION.sub("", text.strip()).strip())
        if gm is not None:
            return _parse_gating(pos, raw, gm, lang)
    m = _MOVE.fullmatch(text)  # the common case first: a plain move, no annotation
    if m is None and text[-1:] in ("+", "#") and len(text) > 1:
        m = _MOVE.fullmatch(text, 0, len(text) - 1)  # the next commonest: Nf3+, Qxf7#
        if m is not None:
            text = text[:-1]
    if m is not None:
        uci_like = False  # decided only when it matters (issue 36): see below
    else:
        text = _ANNOTATION.sub("", text.strip()).strip()
        if not text:
            raise InvalidMoveError(f"empty move {raw!r}")
        m = _CASTLING.fullmatch(text)
        if m:
            return _parse_castling(pos, raw, pos.legal_moves(), 3 if m.group(3) else 2,
                                   m.group(4))
        m = _MAURA_CASTLING.fullmatch(text)
        if m:
            return _parse_maura_castling(pos, raw, pos.legal_moves(), m.group(1), lang)
        m = _ADJUSTMENT.fullmatch(text)
        if m:
            return _parse_adjustment(pos, raw, pos.legal_moves(), m, lang)
        uci_like = _UCI.fullmatch(text) is not None
        m = _MOVE.fullmatch(text)
    if m:
        try:
            return _parse_ordinary(pos, raw, m, lang)
        except IllegalMoveError as exc:
            if not (uci_like or _UCI.fullmatch(text) is not None):
                raise
            # Long algebraic for pawns is SAN-shaped; anything else (b1c3, e1h1) is UCI.
            try:
                return pos.parse_uci(text)
            except ValueError:
                raise exc from None
    if uci_like:
        return pos.parse_uci(text)
    raise InvalidMoveError(f"malformed move {raw!r}")


def _parse_gating(pos: Position, raw: str, gm: re.Match[str], lang: Language) -> Move:
    """The legal gating move whose base move is written ``base`` and whose gate is the piece
    (and square) after ``/`` or in brackets."""
    g = pos.geometry
    letter = gm.group("piece") or gm.group("piece2")
    square = gm.group("square") or gm.group("square2")
    kind = _kind(letter, lang, raw)
    try:
        gsq = g.parse_square(square) if square else None
    except ValueError as exc:
        raise InvalidMoveError(f"malformed move {raw!r}: {exc}") from None
    legal = [m for m in pos.legal_moves() if m.promotion == kind and pos.is_gating(m)
             and (gsq is None or pos.gating_base(m)[1] == gsq)]
    base = gm.group("base")
    castle = _CASTLING.fullmatch(base)
    if castle:
        file_letter, three = castle.group(4), castle.group(3) is not None
        matches = []
        for m in legal:
            b = pos.gating_base(m)[0]
            if not pos.is_castling(b):
                continue
            kdest = pos.castling_squares(b.to_square)[0]
            if (FILE_LETTERS[g.file_of(kdest)] != file_letter if file_letter is not None
                    else (b.to_square < b.from_square) != three):
                continue
            matches.append(m)
        return _unique(pos, raw, matches, " (no such gating)")
    mm = _MOVE.fullmatch(base)
    if mm is None or mm.group("promo") or not mm.group("piece"):
        raise InvalidMoveError(f"malformed move {raw!r}")
    moved = _kind(mm.group("piece"), lang, raw)
    to = g.parse_square(mm.group("to"))
    file_text, rank_text = mm.group("file"), mm.group("rank")
    matches = [
        m for m in legal if pos.piece_type_at(m.from_square) == moved and m.to_square == to
        and not pos.is_castling(m)
        and (file_text is None or FILE_LETTERS[g.file_of(m.from_square)] == file_text)
        and (rank_text is None or g.rank_of(m.from_square) == int(rank_text) - 1)
    ]
    return _unique(pos, raw, matches, " (no such gating)")


def _kind(letter: str, lang: Language, raw: str) -> PieceKind:
    kind = _LETTER_TO_KIND[lang].get(letter)
    if kind is None:
        name = "English" if lang == "en" else "Spanish"
        raise InvalidMoveError(f"{raw!r}: {letter!r} is not a piece letter in {name}")
    return kind


def _unique(pos: Position, raw: str, matches: list[Move], what: str = "") -> Move:
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise IllegalMoveError(f"illegal move {raw!r}{what} in {pos.fen()}")
    options = ", ".join(sorted(pos.uci(m) for m in matches))
    raise AmbiguousMoveError(f"ambiguous move {raw!r} ({options}) in {pos.fen()}")


def _parse_castling(pos: Position, raw: str, legal: list[Move], o_count: int,
                    file_letter: str | None) -> Move:
    # With a file suffix (O-O-Oc, O-O-Og) the suffix names the king's destination file;
    # without, O-O-O is the a-side and O-O the far side on every board (RULES.md §2.7, §4.7).
    g = pos.geometry
    matches = []
    for m in legal:
        if m.promotion or not pos.is_castling(m):  # (a castling with a gate: /Q, D-32)
            continue
        if file_letter is not None:
            kdest = pos.castling_squares(m.to_square)[0]
            if FILE_LETTERS[g.file_of(kdest)] != file_letter:
                continue
        elif (m.to_square < m.from_square) != (o_count == 3):
            continue
        matches.append(m)
    return _unique(pos, raw, matches, " (no such castling is legal)")


def _parse_maura_castling(pos: Position, raw: str, legal: list[Move], letter: str,
                          lang: Language) -> Move:
    # Maura's 0-M-0 / 0-Q-0 name the wing by the piece that starts there, which only a fixed
    # array defines (RULES.md §3); read through that array.
    v = pos.variant
    if v.fixed_rank is None:
        raise InvalidMoveError(f"{raw!r}: this castling form needs a fixed start array")
    kind = _kind(letter, lang, raw)
    row = v.fixed_rank if pos.turn == 0 else v.black_rank(v.fixed_rank).upper()
    wanted = PIECE_TYPES[kind].letter
    if wanted not in row or wanted == "K":
        raise InvalidMoveError(f"{raw!r}: no {PIECE_TYPES[kind].name} in the start array")
    a_side = row.index(wanted) < row.index("K")
    return _parse_castling(pos, raw, legal, 3 if a_side else 2, None)


def _parse_adjustment(pos: Position, raw: str, legal: list[Move], m: re.Match[str],
                      lang: Language) -> Move:
    g = pos.geometry
    if _kind(m.group(1), lang, raw) != BISHOP:
        raise InvalidMoveError(f"malformed move {raw!r}")
    bishop_file, partner_letter, extra = m.group(2), m.group(3), m.group(4)
    partner = _kind(partner_letter, lang, raw)
    candidates = [
        mv for mv in legal if pos.is_adjustment(mv)
        and (bishop_file is None or FILE_LETTERS[g.file_of(mv.from_square)] == bishop_file)
    ]
    if extra is not None and extra.isupper():
        # Maura's B=QN / B=MN: the knight on the far side of the bishop from that Q or M.
        if _kind(extra, lang, raw) != KNIGHT:
            raise InvalidMoveError(f"malformed adjustment {raw!r}")
        named = partner
        matches = [
            mv for mv in candidates if pos.piece_type_at(mv.to_square) == KNIGHT
            and 0 <= 2 * mv.from_square - mv.to_square < g.size
            and g.rank_of(2 * mv.from_square - mv.to_square) == g.rank_of(mv.from_square)
            and pos.piece_type_at(2 * mv.from_square - mv.to_square) == named
            and pos.color_at(2 * mv.from_square - mv.to_square) == pos.turn
        ]
        return _unique(pos, raw, matches, " (no such bishop adjustment)")
    matches = [
        mv for mv in candidates if pos.piece_type_at(mv.to_square) == partner
        and (extra is None or FILE_LETTERS[g.file_of(mv.to_square)] == extra)
    ]
    return _unique(pos, raw, matches, " (no such bishop adjustment)")


def _parse_ordinary(pos: Position, raw: str, m: re.Match[str], lang: Language) -> Move:
    g = pos.geometry
    piece_letter_text, file_text, rank_text, to_text, promo_text = m.groups()
    kind = _kind(piece_letter_text, lang, raw) if piece_letter_text else PAWN
    try:
        to = g.parse_square(to_text)
        frm_file = FILE_LETTERS.index(file_text) if file_text else None
        frm_rank = int(rank_text) - 1 if rank_text else None
    except ValueError as exc:
        raise InvalidMoveError(f"malformed move {raw!r}: {exc}") from None
    if frm_file is not None and frm_file >= g.files:
        raise InvalidMoveError(f"malformed move {raw!r}: no file {file_text!r} here")
    promotion = 0
    if promo_text:
        promotion = _kind(promo_text.upper(), lang, raw)
        if kind != PAWN or promotion in (PAWN, KING):
            raise InvalidMoveError(f"malformed move {raw!r}: bad promotion")
        if promotion not in pos.variant.promotions:
            raise IllegalMoveError(
                f"{raw!r}: {pos.variant.key} does not promote to {PIECE_TYPES[promotion].name}"
            )
    candidates = _moves_to(pos, to, kind)
    if frm_file is not None or frm_rank is not None:
        candidates = [
            mv for mv in candidates
            if (frm_file is None or g.file_of(mv.from_square) == frm_file)
            and (frm_rank is None or g.rank_of(mv.from_square) == frm_rank)
        ]
    matches = [mv for mv in candidates if mv.promotion == promotion]
    if not matches and kind == PAWN and not promotion and candidates:
        raise IllegalMoveError(f"{raw!r}: a promotion needs the piece (e.g. =Q)")
    return _unique(pos, raw, matches)
