"""The importer's quick reading of a plain PGN game (issue 33).

Most games of a collection are plain: tag pairs, then SAN moves in English with move
numbers, perhaps comments, variations and NAGs, and a result.  Such a game is read here
without building the full game record of :mod:`randomchess.pgn`: comments and variations are
cut out of the text, and only the main line's moves are read, each through
``randomchess.san.parse_san`` on the position (so every counted move is checked legal; the
moves after the first ``MAX_PLIES``, which are not counted, are not read), with the
answer remembered for the same text in the same position (openings repeat: most moves of a
large collection's first plies are met thousands of times).  The position key of each ply
comes from the position's Zobrist hash (counts.position_int), not from a FEN.

Anything else — a Language tag, a move that is not legal English SAN, a tag this reader does
not follow, a setup that is not numbered, no result — is handed back (``None``) to the full
reader, whose verdict (the game read, or the reason it is skipped) is the importer's.  So the
quick reading changes the speed, not the counts (tests/test_explorer.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from randomchess.explorer.counts import (
    MAX_PLIES,
    RESULTS,
    ExplorerError,
    GameInfo,
    elo,
    position_int,
    setup_number,
    speed_of,
)
from randomchess.pgn import standard_result, start_fen_of, variant_from_tag
from randomchess.pieces import BISHOP, KING, KNIGHT, PAWN, PIECE_COLOR, QUEEN, ROOK, make_piece
from randomchess.position import Move, Position
from randomchess.san import parse_san

_TAG = re.compile(r'\s*\[([A-Za-z0-9_]+)\s+"([^"\\]*)"\s*\]\s*')
_COMMENT = re.compile(r"\{[^}]*\}")
_VARIATION = re.compile(r"\([^()]*\)")
_NAG = re.compile(r"\$\d+")
_NUMBER = re.compile(r"\d+\.+")
_GLYPHS = frozenset({"!", "?", "!!", "??", "!?", "?!", "+", "#", "e.p.", "ep", "=", "+-",
                     "-+", "+=", "=+", "+/-", "-/+", "∞", "±", "∓", "⩲", "⩱"})
_CACHE_LIMIT = 400_000
_PIECES = {"N": KNIGHT, "B": BISHOP, "R": ROOK, "Q": QUEEN, "K": KING}
_FAST_VARIANTS = frozenset({"chess960"})  # plain 8x8 rules: no gating, no adjustment


def push_fast(pos: Position, token: str) -> Move | None:
    """Play the commonest forms of an English SAN move without the full parser, or play
    nothing and answer None (then ``san.parse_san`` decides: the move may still be legal, or
    ambiguous, or not a move).  The forms: a pawn's step (``e4``) or capture (``exd5``) that
    does not promote and is not en passant, and a piece's move (``Nf3``, ``Bxc6``, ``Kd2``,
    check signs allowed) that exactly one man of that kind reaches (found backwards from the
    destination, as ``san._moves_to`` does).  The move is played, then taken back (None) if
    it leaves its own king attacked.  Legal moves are among the man's reaches, so a single
    reach that is legal is the one legal reading ``parse_san`` would give; anything else
    (two reaches, an illegal one, castling, promotion, en passant, a disambiguation) is
    left to it (tests/test_explorer.py compares both on every move of random games).  Only
    for variants with plain 8x8 rules (``_FAST_VARIANTS``)."""
    n = len(token)
    if n and (token[n - 1] == "+" or token[n - 1] == "#"):
        n -= 1
    if n < 2 or n > 4:
        return None
    g = pos.geometry
    to = g._name_to_square.get(token[n - 2:n], -1)
    if to < 0:
        return None
    board = pos.board
    us = pos.turn
    target = board[to]
    if target and PIECE_COLOR[target] == us:
        return None
    first = token[0]
    if n == 2 or (n == 4 and token[1] == "x" and "a" <= first <= "h"):  # a pawn
        frm = _pawn_from(pos, first, n == 2, to)
    elif n == 4 and token[1] != "x":  # a disambiguation (Nbd2, R1e1): the full parser
        return None
    else:
        frm = _piece_from(pos, _PIECES.get(first, 0), to)
    if frm < 0:
        return None
    move = pos._t.moves[frm][to]
    pos.push(move)
    if pos.is_attacked(pos.kings[us], us ^ 1):
        pos.pop()
        return None
    return move



def _pawn_from(pos: Position, file: str, step: bool, to: int) -> int:
    """The square of the pawn that steps (``step``) or captures from ``file`` onto ``to``,
    or -1 (none, or a promotion or en passant: the full parser's)."""
    g = pos.geometry
    t = pos._t
    board = pos.board
    us = pos.turn
    if to // g.files == t.promotion_rank[us] or to == pos.ep_square:
        return -1
    piece = make_piece(PAWN, us)
    if not step:
        if not board[to]:
            return -1
        for s in t.pawn_attacks[us ^ 1][to]:
            if board[s] == piece and g.square_names[s][0] == file:
                return s
        return -1
    one = to - t.forward[us]
    if board[to] or not 0 <= one < len(board):
        return -1
    if board[one] == piece:
        return one
    two = one - t.forward[us]
    if not board[one] and 0 <= two < len(board) and board[two] == piece and \
            two // g.files == t.pawn_start_rank[us]:
        return two
    return -1


def _piece_from(pos: Position, kind: int, to: int) -> int:
    """The square of the one man of ``kind`` (a piece, not a pawn) that reaches ``to``, or
    -1 (none, or more than one: the full parser decides)."""
    if not kind:
        return -1
    t = pos._t
    us = pos.turn
    if kind == KING:
        return pos.kings[us] if to in t.king_leaps[pos.kings[us]] else -1
    board = pos.board
    piece = make_piece(kind, us)
    frm = -1
    leaps = t.leaps[kind]
    if leaps is not None:
        for s in leaps[to]:
            if board[s] == piece:
                if frm >= 0:
                    return -1
                frm = s
    rays = t.slide_rays.get(kind)
    if rays is not None:
        for ray in rays[to]:
            for s in ray:
                q = board[s]
                if q:
                    if q == piece:
                        if frm >= 0:
                            return -1
                        frm = s
                    break
    return frm

@dataclass(slots=True)
class QuickGame:
    variant: str
    number: int
    pairs: list[tuple[int, str]]
    result: str
    speed: str
    white: int | None
    black: int | None
    info: GameInfo


class QuickReader:
    """Reads plain games; keeps the start positions and parsed moves it has met."""

    def __init__(self) -> None:
        self._starts: dict[tuple[str, str | None], tuple[str, int, Position] | None] = {}
        self._moves: dict[tuple[str, int, str], tuple[Move, str]] = {}

    def _start(self, tag: str, fen: str | None) -> tuple[str, int, Position] | None:
        key = (tag, fen)
        if key in self._starts:
            return self._starts[key]
        found: tuple[str, int, Position] | None = None
        try:
            variant = variant_from_tag(tag)
            if fen is None:
                start_fen = start_fen_of(variant, fen)
                pos = None if start_fen is None else Position(start_fen, variant)
            else:
                pos = Position(fen, variant)
            if pos is not None:
                found = (variant.key, setup_number(variant.key, pos.fen()), pos)
        except (ValueError, ExplorerError):
            found = None
        if len(self._starts) > 20_000:
            self._starts.clear()
        self._starts[key] = found
        return found

    def read(self, lines: list[str]) -> QuickGame | None:
        """The game of ``lines`` (one game as read_chunks gives it), or None when the full
        reader must read it."""
        headers: dict[str, str] = {}
        i = 0
        n = len(lines)
        while i < n:
            line = lines[i]
            stripped = line.strip()
            if not stripped:
                i += 1
                continue
            if stripped[0] != "[":
                break
            m = _TAG.fullmatch(line)
            if m is None:
                return None
            headers[m.group(1)] = m.group(2)
            i += 1
        if "Language" in headers or ("SetUp" in headers and headers["SetUp"] != "1"):
            return None
        tag = headers.get("Variant")
        if not tag or not tag.strip():
            return None
        start = self._start(tag, headers.get("FEN"))
        if start is None:
            return None
        text = " ".join(lines[i:])
        if "%" in text or ";" in text:
            return None
        if "{" in text:
            text = _COMMENT.sub(" ", text)
            if "{" in text or "}" in text:
                return None
        while "(" in text:
            shorter = _VARIATION.sub(" ", text)
            if shorter == text:
                return None
            text = shorter
        if ")" in text:
            return None
        if "$" in text:
            text = _NAG.sub(" ", text)
        tokens = text.split()
        if not tokens:
            return None
        last = standard_result(tokens[-1])
        if last is not None:
            tokens.pop()
        tag_result = standard_result(headers.get("Result", "").strip())
        result = tag_result if tag_result in RESULTS else last
        if result not in RESULTS:
            return None
        variant, number, pos = start
        # The start position is shared by every game from this setup: each game's moves are
        # taken back at the end (cheaper than a copy of the position).
        try:
            pairs = self._pairs(variant, pos, tokens)
        finally:
            for _ in range(len(pos.move_stack)):
                pos.pop()
        if pairs is None:
            return None
        return QuickGame(variant, number, pairs, result, speed_of(headers.get("TimeControl")),
                         elo(headers.get("WhiteElo")), elo(headers.get("BlackElo")),
                         GameInfo.from_headers(headers))

    def _pairs(self, variant: str, pos: Position,
               tokens: list[str]) -> list[tuple[int, str]] | None:
        """The (position, move) pairs of the moves ``tokens`` played on ``pos`` (left played:
        the caller takes them back), or None if a token is not a legal English SAN move."""
        cache = self._moves
        pairs: list[tuple[int, str]] = []
        seen: set[tuple[int, str]] = set()
        ply = 0
        fast = variant in _FAST_VARIANTS
        names = pos.geometry.square_names
        for token in tokens:
            if ply >= MAX_PLIES:
                break  # the moves after the counted plies are not read (docs/analysis.md)
            if token[0].isdigit():
                if token[-1] == "." and token.rstrip(".").isdigit():
                    continue  # a move number alone: "12." or "12..."
                m = _NUMBER.match(token)
                if m is not None:
                    token = token[m.end():]
                    if not token:
                        continue
                elif token.isdigit():
                    continue
                else:
                    return None  # a result inside the moves, or something else
            if token in _GLYPHS:
                continue
            # the key (counts.position_int), its commonest case inline: no en passant
            # square and no MRC adjustment right, where it is the position's hash itself
            h = (pos.zobrist if pos.ep_square is None and not pos.adjust_rights
                 else position_int(pos))
            move = push_fast(pos, token) if fast else None
            if move is not None:
                uci = names[move.from_square] + names[move.to_square]
            else:
                key = (variant, pos.zobrist, token)
                hit = cache.get(key)
                if hit is None:
                    try:
                        found = parse_san(pos, token, "en")
                    except ValueError:
                        return None
                    hit = (found, pos.uci(found))
                    if len(cache) >= _CACHE_LIMIT:
                        cache.clear()
                    cache[key] = hit
                pos.push(hit[0])
                uci = hit[1]
            pair = (h, uci)
            if pair not in seen:
                seen.add(pair)
                pairs.append(pair)
            ply += 1
        return pairs
