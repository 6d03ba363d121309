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
            key = (variant, pos.zobrist, token)
            hit = cache.get(key)
            if hit is None:
                try:
                    move = parse_san(pos, token, "en")
                except ValueError:
                    return None
                hit = (move, pos.uci(move))
                if len(cache) >= _CACHE_LIMIT:
                    cache.clear()
                cache[key] = hit
            # the key (counts.position_int), its commonest case inline: no en passant
            # square and no MRC adjustment right, where it is the position's hash itself
            pair = (pos.zobrist if pos.ep_square is None and not pos.adjust_rights
                    else position_int(pos), hit[1])
            if pair not in seen:
                seen.add(pair)
                pairs.append(pair)
            pos.push(hit[0])
            ply += 1
        return pairs
