"""PGN for every variant: a streaming reader with per-game errors, and a writer.

Reading keeps tags, comments (``{}`` and ``;``), NAGs (``$n`` and ``!``/``?`` glyphs) and
variations.  A file is read game by game (only one game's text is in memory at a time).  A
malformed or illegal game yields a :class:`PgnGame` whose ``error`` says where and why (game
number, line, column, ply and move); the reader then goes on with the next game.

Variants come from the ``Variant`` tag (RULES.md §2.7, D-26): ``Chess960`` is written, and
``Chess 960``, ``Fischerandom``, ``Fischer Random`` and ``FRC`` are read too; MRC is written
``Modern Random Chess`` (``MRC`` is read), Maura's game ``Modern``.  ``Standard`` and
``From Position`` (lichess) are orthodox chess.  Without a tag the ``FEN`` decides: a 9x9
board is MRC, castling rights an orthodox array cannot have make it Chess960.

Movetext is SAN in English or Spanish (:mod:`randomchess.san`); with ``lang=None`` each
game's language is taken from the piece letters it uses (English when they fit both, as the
PGN standard asks).
"""

from __future__ import annotations

import bisect
import functools
import io
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal, TextIO

from randomchess.errors import InvalidMoveError, LanguageError, RandomChessError
from randomchess.game import Game, Termination
from randomchess.pieces import WHITE
from randomchess.position import Move, Position
from randomchess.san import Language, language_of_letters, parse_san, san_and_push
from randomchess.variants import UnknownVariantError, Variant, get_variant, untagged_variants

__all__ = [
    "SEVEN_TAG_ROSTER",
    "AmbiguousLanguageError",
    "FenStyle",
    "Node",
    "PgnError",
    "PgnGame",
    "parse_game",
    "read_games",
    "variant_from_tag",
    "write_game",
    "write_games",
]

SEVEN_TAG_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_ROSTER_DEFAULTS = {"Date": "????.??.??"}
RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "*"})
_GLYPHS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
# Evaluation symbols written as words (issue 36; python-chess skips them): their NAGs.
_EVALUATION_GLYPHS = {
    "=": 10, "∞": 13, "⩲": 14, "+=": 14, "+/=": 14, "⩱": 15, "=+": 15, "=/+": 15,
    "±": 16, "+/-": 16, "∓": 17, "-/+": 17, "+-": 18, "+--": 18, "-+": 19, "--+": 19,
    "+\u2212": 18, "+\u2212\u2212": 18, "\u2212+": 19, "\u2212\u2212+": 19,  # minus signs
    "□": 7, "⨀": 22, "=/∞": 44, "⯹": 44,
}
# The non-ASCII ones may stick to the move they judge ("e4⩲"); longest first.
_STUCK_GLYPHS = sorted((g for g in _EVALUATION_GLYPHS if not g.isascii()), key=len,
                       reverse=True)
# Results as some files spell them: en or em dash, minus sign, ½ (issue 36).
_DASH = "[-\u2013\u2014\u2212]"
_RESULT_PATTERN = rf"1{_DASH}0|0{_DASH}1|(?:1/2|½){_DASH}(?:1/2|½)|\*"
_RESULT_SPELLING = re.compile(_RESULT_PATTERN)


def _standard_result(text: str) -> str | None:
    """The standard spelling of a game result written ``text``, or None if it is none."""
    if text in RESULTS:
        return text
    if _RESULT_SPELLING.fullmatch(text) is None:
        return None
    if text.startswith(("1/2", "½")):
        return "1/2-1/2"
    return "1-0" if text[0] == "1" else "0-1"
_ORTHODOX_NAMES = frozenset({"standard", "from position", "chess", "normal", "classical"})

FenStyle = Literal["xfen", "shredder"]
# The SAN language of the movetext (no PGN standard tag exists; ISO 639-1 code, docs/notation.md).
_LANGUAGE_TAG = "Language"
_LANGUAGE_NAMES: dict[str, Language] = {
    "en": "en", "eng": "en", "english": "en", "ingles": "en", "inglés": "en",
    "es": "es", "spa": "es", "spanish": "es", "espanol": "es", "español": "es",
    "castellano": "es",
}
_CHESS960_518 = Position(get_variant("chess960").setup_fen("RNBQKBNR"), "chess960").fen()


def _check_language(lang: str) -> Language:
    if lang not in ("en", "es"):
        raise LanguageError(f"unknown notation language {lang!r}; use 'en' or 'es'")
    return "en" if lang == "en" else "es"


class PgnError(RandomChessError):
    """What is wrong with one game, and where: game number (1-based), line and column in
    the file, and for a bad move the ply (1-based, counted on the main line) and its text."""

    reason: str
    game: int
    line: int
    column: int
    ply: int | None
    move: str | None
    in_variation: bool

    def __init__(self, reason: str, *, game: int, line: int, column: int = 0,
                 ply: int | None = None, move: str | None = None,
                 in_variation: bool = False) -> None:
        self.reason = reason
        self.game = game
        self.line = line
        self.column = column
        self.ply = ply
        self.move = move
        self.in_variation = in_variation
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"game {self.game}, line {self.line}"
        if self.column:
            where += f", column {self.column}"
        if self.move is not None:
            ply = f"ply {self.ply}" if self.ply is not None else "move"
            if self.in_variation:
                ply += " (in a variation)"
            return f"{where}: {ply} {self.move}: {self.reason}"
        return f"{where}: {self.reason}"


class AmbiguousLanguageError(PgnError):
    """A game whose movetext reads as two different legal games, in English and in Spanish
    (``R`` is the rook in one and the king in the other), with no ``Language`` tag and no
    language given: it is reported, never guessed."""


@dataclass(init=False)
class Node:
    """A move in the movetext with its annotations.  ``variations`` are alternatives to
    this move, each a list of nodes starting from the position before it."""

    move: Move
    san: str  # as read (or as last written)
    nags: list[int]
    comment: str  # after the move
    starting_comment: str  # before the move (where a variation opens with one)
    variations: list[list[Node]]

    # Written out rather than generated by dataclass: mypyc compiles this one, and the
    # reader makes a node per move (issue 36).
    def __init__(self, move: Move, san: str = "", nags: list[int] | None = None,
                 comment: str = "", starting_comment: str = "",
                 variations: list[list[Node]] | None = None) -> None:
        self.move = move
        self.san = san
        self.nags = [] if nags is None else nags
        self.comment = comment
        self.starting_comment = starting_comment
        self.variations = [] if variations is None else variations


@dataclass
class PgnGame:
    """One game of a PGN file: tags, the start position, the move tree and the result."""

    headers: dict[str, str] = field(default_factory=dict)
    variant: Variant = field(default_factory=lambda: get_variant("chess"))
    start_fen: str = ""
    moves: list[Node] = field(default_factory=list)
    comment: str = ""  # before the first move
    result: str = "*"  # the movetext's termination marker
    number: int = 1
    line: int = 1
    offset: int = 0  # characters before the game in the file
    error: PgnError | None = None
    warnings: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.start_fen:
            self.start_fen = _fixed_start_fen(self.variant)

    def mainline(self) -> list[Move]:
        return [node.move for node in self.moves]

    def start_position(self) -> Position:
        return Position(self.start_fen, self.variant)

    def end_position(self) -> Position:
        pos = self.start_position()
        for move in self.mainline():
            pos.push(move)
        return pos

    def to_game(self, *, automatic_draws: bool = False) -> Game:
        """The main line as a :class:`Game`; ``GameOverError`` if moves go on after the Laws
        ended the game (checkmate, fivefold, 75 moves ...)."""
        game = Game(self.start_fen, self.variant, automatic_draws=automatic_draws)
        for move in self.mainline():
            game.push(move)
        return game

    @classmethod
    def from_game(cls, game: Game, headers: Mapping[str, str] | None = None) -> PgnGame:
        """A PGN record of ``game``: its moves, ``Result`` and (when over) ``Termination``."""
        tags = dict(headers or {})
        tags["Result"] = game.result()
        if game.outcome is not None:
            tags.setdefault("Termination", "time forfeit" if game.outcome.termination
                            is Termination.TIME_FORFEIT else "normal")
        return cls(headers=tags, variant=game.variant, start_fen=game.start_fen,
                   moves=[Node(m) for m in game.moves], result=game.result())


def variant_from_tag(value: str) -> Variant:
    """The variant a PGN ``Variant`` tag names (D-26); ``UnknownVariantError`` if none."""
    if " ".join(value.lower().replace("-", " ").split()) in _ORTHODOX_NAMES:
        return get_variant("chess")
    return get_variant(value)


# ------------------------------------------------------------------------------ reading
def read_games(source: TextIO | str | os.PathLike[str], *,
               lang: Language | None = None) -> Iterator[PgnGame]:
    """The games of a PGN file (a path or an open text file), one at a time.

    Every game is yielded, broken ones too: check ``game.error``.  ``lang`` is the SAN
    language, or ``None`` to infer it game by game.
    """
    if isinstance(source, (str, os.PathLike)):
        with open(source, encoding="utf-8-sig", errors="replace") as handle:
            yield from _read(handle, lang)
    else:
        yield from _read(source, lang)


def parse_game(text: str, *, lang: Language | None = None) -> PgnGame:
    """The first game in the PGN ``text``; ``PgnError`` if there is none or it is broken."""
    for game in _read(io.StringIO(text), lang):
        if game.error is not None:
            raise game.error
        return game
    raise PgnError("no game found", game=1, line=1)


_TAG_LINE = re.compile(r'\s*\[\s*[A-Za-z0-9_]+\s+"(?:[^"\\]|\\.)*"\s*\]\s*')


def _read(handle: TextIO, lang: Language | None) -> Iterator[PgnGame]:
    for lines, number, start_line, offset in read_chunks(handle):
        yield _parse_chunk(lines, number, start_line, offset, lang)


def read_chunks(handle: TextIO) -> Iterator[tuple[list[str], int, int, int]]:
    """The games of a PGN stream as text, unparsed: (lines, game number, first line,
    character offset), as :func:`read_games` splits them; :func:`parse_chunk` reads one.
    The explorer's importer reads the plain ones its own faster way (issue 33)."""
    number = 0
    chunk: list[str] = []
    start_line = start_offset = 0
    line_no = offset = 0
    in_brace = seen_moves = ended = False
    for line in handle:
        line_no += 1
        stripped = line.strip()
        starts_tags = stripped.startswith("[")
        # An unclosed comment ends at the next line that is a whole tag pair, so that one
        # broken game cannot swallow the rest of the file.
        boundary = (starts_tags and not in_brace) or \
            (in_brace and _TAG_LINE.fullmatch(line) is not None) or \
            (not stripped and ended and not in_brace)
        if boundary and chunk and seen_moves:
            number += 1
            yield chunk, number, start_line, start_offset
            chunk = []
            in_brace = seen_moves = ended = False
        if not chunk:
            if not stripped:
                offset += len(line)
                continue
            start_line, start_offset = line_no, offset
        chunk.append(line)
        offset += len(line)
        if starts_tags and not seen_moves and not in_brace:
            continue
        if stripped.startswith("%") and not in_brace:
            continue
        in_brace, text = _strip_comments(line, in_brace)
        if text.strip():
            seen_moves = True
            ended = _standard_result(text.split()[-1]) is not None
        elif in_brace:
            seen_moves = True
    if chunk:
        number += 1
        yield chunk, number, start_line, start_offset


def _strip_comments(line: str, in_brace: bool) -> tuple[bool, str]:
    """The line's text outside comments, and whether a brace comment is still open."""
    if not in_brace and "{" not in line and ";" not in line:
        return False, line  # the common line: nothing to strip
    out: list[str] = []
    i, n = 0, len(line)
    while i < n:
        if in_brace:
            j = line.find("}", i)
            if j < 0:
                return True, "".join(out)
            in_brace = False
            out.append(" ")
            i = j + 1
            continue
        brace, semi = line.find("{", i), line.find(";", i)
        if semi >= 0 and (brace < 0 or semi < brace):
            out.append(line[i:semi])
            return False, "".join(out)
        if brace < 0:
            out.append(line[i:])
            return False, "".join(out)
        out.append(line[i:brace])
        in_brace = True
        i = brace + 1
    return in_brace, "".join(out)


_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
# A tag pair whose value lacks its closing quote, alone on its line (python-chess reads the
# game on; issue 36): the value runs to the end of the line, less a closing bracket.
_UNCLOSED_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*?)\s*\]?')
# One regex for the whole movetext, scanned with finditer: whitespace matches nothing and is
# skipped; a brace comment is one token (an unclosed one falls through to "brace").
_TOKEN = re.compile(r"""
    (?P<result>(?:""" + _RESULT_PATTERN + r""")(?=[\s(){};]|$))
  | (?P<gated>[A-Za-z][^\s{}();$!?]*\([A-Z][a-l](?:1[0-2]|[1-9])\)[+#]*)
  | (?P<word>[^\s{}();$!?0-9.*%][^\s{}();$!?]*)
  | (?P<number>[0-9]+\s*\.+)
  | (?P<comment>\{[^}]*\})
  | (?P<brace>\{)
  | (?P<semi>;[^\n]*)
  | (?P<escape>^%[^\n]*)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<nag>\$[0-9]+)
  | (?P<dots>\.+)
  | (?P<glyph>[!?]{1,2})
  | (?P<digits>[^\s{}();$!?]+)
  | (?P<other>\S)
""", re.VERBOSE | re.MULTILINE)


class _Abort(Exception):
    pass


class _GameParser:
    def __init__(self, lines: list[str], number: int, start_line: int, offset: int,
                 lang: Language | None) -> None:
        self.game = PgnGame(number=number, line=start_line, offset=offset)
        self.text = "".join(lines)
        self.start_line = start_line
        self.lang = lang
        self.start: Position | None = None  # the start position, once built
        self.line_starts = [0]
        for m in re.finditer("\n", self.text):
            self.line_starts.append(m.end())

    def where(self, index: int) -> tuple[int, int]:
        i = bisect.bisect_right(self.line_starts, index) - 1
        return self.start_line + i, index - self.line_starts[i] + 1

    def fail(self, reason: str, index: int, **kw: object) -> _Abort:
        line, column = self.where(index)
        self.game.error = PgnError(reason, game=self.game.number, line=line, column=column,
                                   **kw)  # type: ignore[arg-type]
        return _Abort()

    def parse(self) -> PgnGame:
        try:
            body = self.parse_tags()
            self.setup()
            self.tokens = self.tokenize(body)
            self.resolve_language()
        except _Abort:
            return self.game
        if self.lang is not None:
            self.game = self.read_moves(self.lang)
            return self.game
        if not any(kind == "word" and "R" in value for kind, value, _ in self.tokens):
            self.game = self.read_moves("en")  # no letter that means one thing in each language
            return self.game
        # R is the rook in English and the king in Spanish: read both ways (issue 13).
        english = self.read_moves("en")
        spanish = self.read_moves("es")
        if english.error is None and spanish.error is None:
            self.game = english
            ply, text = _first_difference(english.moves, spanish.moves)
            if ply is not None:
                english.error = AmbiguousLanguageError(
                    f"the moves read as two different games in English and in Spanish (ply "
                    f"{ply}: {text!r}); add a [Language \"es\"] or [Language \"en\"] tag or "
                    "give the language (lang= / --lang)",
                    game=english.number, line=english.line)
        elif spanish.error is None:
            self.game = spanish
            spanish.warnings.append("read as Spanish (R = rey): in English a move is illegal")
        else:
            self.game = english
            if english.error is not None and english.error.move is not None:
                error = english.error
                error.reason = error.reason + " (read as English; pass lang='es' / " \
                    "--lang es or add [Language \"es\"] for Spanish)"
                error.args = (str(error),)
        return self.game

    def read_moves(self, lang: Language) -> PgnGame:
        """Read the movetext in ``lang`` into a fresh copy of the game's record."""
        base = self.game
        self.game = PgnGame(headers=base.headers, variant=base.variant,
                            start_fen=base.start_fen, number=base.number, line=base.line,
                            offset=base.offset, warnings=list(base.warnings))
        self.lang = lang
        try:
            if self.start is None:
                self.start = _start_position(self.game.variant, self.game.start_fen)
            pos = self.start.copy(stack=False)
            self.i = 0
            self.parse_line(pos, self.game.moves)
            self.check_result()
        except _Abort:
            pass
        record, self.game = self.game, base
        return record

    # -------------------------------------------------------------- tags and setup
    def parse_tags(self) -> int:
        """Read the tag section; return where the movetext starts.  Blank lines between tag
        pairs (ChessBase writes them) are part of the section, and ``%`` escape lines and
        ``;`` comment lines in it are skipped, as python-chess and lichess do (issue 36)."""
        index = 0
        comment_at = None  # where ``;`` comment lines not followed by a tag pair start
        for line in self.text.splitlines(keepends=True):
            rest = line.strip()
            if rest.startswith(";") and comment_at is None:
                comment_at = index
            if not rest or rest[0] in "%;":
                index += len(line)
                continue
            if not rest.startswith("["):
                break
            comment_at = None
            matches = list(_TAG.finditer(rest))
            leftover = _TAG.sub("", rest).strip()
            if not matches or leftover:
                unclosed = _UNCLOSED_TAG.fullmatch(rest)
                if unclosed is None:
                    raise self.fail(f"malformed tag pair {rest!r}", index)
                matches = [unclosed]
                line_no = self.where(index)[0]
                self.game.warnings.append(f"line {line_no}: tag pair without its closing "
                                          f"quote {rest!r}, read to the end of the line")
            for m in matches:
                value = m.group(2).replace('\\"', '"').replace("\\\\", "\\")
                if m.group(1) == "Result":
                    value = _standard_result(value.strip()) or value  # "½-½", "1 en-dash 0"
                self.game.headers[m.group(1)] = value
            index += len(line)
        return index if comment_at is None else comment_at  # a comment before the moves

    def setup(self) -> None:
        headers = self.game.headers
        tag = headers.get("Variant")
        fen = headers.get("FEN")
        try:
            if tag is not None and tag.strip():
                variant = variant_from_tag(tag)
            else:
                variant = _infer_variant(fen)
                if variant.key == "mrc":
                    self.game.warnings.append("no Variant tag: read as Modern Random Chess")
        except UnknownVariantError:
            raise self.fail(f"unsupported variant {tag!r}", 0) from None
        self.game.variant = variant
        if fen is None:
            if variant.key == "chess960":
                # python-chess writes a game from the standard array (SP 518) this way.
                self.game.start_fen = _CHESS960_518
                return
            if variant.is_random:
                raise self.fail(f"a {variant.pgn_name} game needs a FEN tag", 0)
            self.game.start_fen = _fixed_start_fen(variant)
            return
        try:
            self.start = Position(fen, variant)
            self.game.start_fen = self.start.fen()
        except ValueError as exc:
            raise self.fail(f"bad FEN tag: {exc}", 0) from None

    # -------------------------------------------------------------- movetext
    def tokenize(self, start: int) -> list[tuple[str, str, int]]:
        tokens: list[tuple[str, str, int]] = []
        append = tokens.append
        for m in _TOKEN.finditer(self.text, start):
            kind = m.lastgroup
            if kind == "word" or kind == "digits":
                word = m.group()
                if not word.isascii():
                    # An evaluation symbol stuck to its move ("e4⩲") is a NAG of its own.
                    stuck = next((g for g in _STUCK_GLYPHS
                                  if word.endswith(g) and len(word) > len(g)), None)
                    if stuck is not None:
                        append(("word", word[:-len(stuck)], m.start()))
                        append(("word", stuck, m.end() - len(stuck)))
                        continue
                append(("word", word, m.start()))
            elif kind == "gated":
                # The PM-CRC author's gate, "Mc3(Qd1)" (docs/rules.md D-32), is one move in
                # a gating variant; elsewhere it is a move and a one-move variation.
                word = m.group()
                if self.game.variant.has_gating:
                    append(("word", word, m.start()))
                else:
                    cut = word.index("(")
                    append(("word", word[:cut], m.start()))
                    append(("open", "(", m.start() + cut))
                    append(("word", word[cut + 1:word.index(")")], m.start() + cut + 1))
                    append(("close", ")", m.start() + word.index(")")))
            elif kind == "number" or kind == "dots" or kind == "escape":
                continue
            elif kind == "comment":
                append(("comment", m.group()[1:-1].strip(), m.start()))
            elif kind == "semi":
                append(("comment", m.group()[1:].strip(), m.start()))
            elif kind == "brace":
                raise self.fail("unterminated comment", m.start())
            elif kind == "other":
                raise self.fail(f"unexpected character {m.group()!r}", m.start())
            else:
                append((kind, m.group(), m.start()))  # type: ignore[arg-type]
        return tokens

    def resolve_language(self) -> None:
        if self.lang is not None:
            return
        tag = self.game.headers.get(_LANGUAGE_TAG)
        if tag is not None and tag.strip():
            named = _LANGUAGE_NAMES.get(tag.strip().lower())
            if named is None:
                raise self.fail(f"unknown Language tag {tag!r}: use \"en\" or \"es\"", 0)
            self.lang = named
            return
        variant = self.game.variant
        found = {language_of_letters(v, variant) for v in {v for kind, v, _ in self.tokens
                                                           if kind == "word"}}
        found.discard(None)
        if len(found) > 1:
            raise self.fail("the moves mix English and Spanish piece letters", 0)
        self.lang = found.pop() if found else None


    def label(self, pos: Position, text: str) -> str:
        dots = "." if pos.turn == WHITE else "..."
        return f"{pos.fullmove_number}{dots} {text}"

    def parse_line(self, pos: Position, nodes: list[Node]) -> None:
        """Read the movetext into ``nodes`` (the main line).  Variations are kept on a stack
        of their own, not in Python's: a file may nest them thousands deep (issue 36)."""
        depth = 0
        pushed = 0  # moves of the current line pushed on ``pos``
        pending = ""  # a comment waiting for the next move
        # For every open variation: the enclosing line, its pushed count and pending
        # comment, the move the variation is an alternative to, and the variation.
        stack: list[tuple[list[Node], int, str, Node]] = []
        tokens = self.tokens
        while self.i < len(tokens):
            kind, value, index = tokens[self.i]
            self.i += 1
            if kind == "comment":
                if nodes and not pending:
                    nodes[-1].comment = _join(nodes[-1].comment, value)
                elif depth == 0 and not nodes:
                    self.game.comment = _join(self.game.comment, value)
                else:
                    pending = _join(pending, value)
            elif kind in ("nag", "glyph"):
                if not nodes:
                    raise self.fail(f"annotation {value!r} before any move", index)
                if kind == "nag" and (len(value) > 4 or int(value[1:]) > 255):
                    raise self.fail(f"bad NAG {value[:12]!r}: NAGs are $0 to $255", index)
                nodes[-1].nags.append(int(value[1:]) if kind == "nag" else _GLYPHS[value])
            elif kind == "open":
                if not nodes:
                    raise self.fail("variation before any move", index)
                pos.pop()
                stack.append((nodes, pushed, pending, nodes[-1]))
                nodes, pushed, pending = [], 0, ""
                depth += 1
            elif kind == "close":
                if depth == 0:
                    raise self.fail("')' without a matching '('", index)
                for _ in range(pushed):
                    pos.pop()
                variation = nodes
                nodes, pushed, pending, last = stack.pop()
                pos.push(last.move)
                last.variations.append(variation)
                depth -= 1
            elif kind == "result":
                if depth:
                    raise self.fail("result inside a variation", index)
                self.game.result = _standard_result(value) or value
                rest = [t for t in tokens[self.i:] if t[0] != "comment"]
                if rest:
                    self.game.warnings.append(
                        f"line {self.where(rest[0][2])[0]}: text after the result ignored")
                self.i = len(tokens)
            elif value in _EVALUATION_GLYPHS:
                if not nodes:
                    raise self.fail(f"annotation {value!r} before any move", index)
                nodes[-1].nags.append(_EVALUATION_GLYPHS[value])
            elif value in ("e.p.", "ep"):
                continue
            elif value.isascii() and value.isdigit():
                continue  # a move number without its dot (ASCII digits only, issue 13)
            else:
                node = self.parse_move(pos, value, index, depth)
                node.starting_comment, pending = pending, ""
                nodes.append(node)
                pos.push(node.move)
                pushed += 1
        if depth:
            raise self.fail("unterminated variation", len(self.text) - 1)

    def parse_move(self, pos: Position, text: str, index: int, depth: int) -> Node:
        try:
            if text in ("--", "Z0", "0000", "@@@@"):
                raise InvalidMoveError("null moves are not supported")
            move = parse_san(pos, text, self.lang or "en")
        except ValueError as exc:
            ply = len(self.game.moves) + 1 if depth == 0 else None
            raise self.fail(str(exc), index, ply=ply, move=self.label(pos, text),
                            in_variation=depth > 0) from None
        return Node(move, text)

    def check_result(self) -> None:
        tag = self.game.headers.get("Result")
        if tag is not None and tag != self.game.result and self.game.result != "*":
            self.game.warnings.append(
                f"Result tag {tag!r} differs from the movetext's {self.game.result!r}")
        if tag is not None and self.game.result == "*" and tag in RESULTS:
            self.game.result = tag


def _first_difference(a: list[Node], b: list[Node]) -> tuple[int | None, str]:
    """The first main-line ply (1-based) where two readings of one movetext differ."""
    for ply, (x, y) in enumerate(zip(a, b, strict=False), 1):
        if x.move != y.move:
            return ply, x.san
    if len(a) != len(b):
        return min(len(a), len(b)) + 1, ""
    if _tree(a) != _tree(b):
        return 0, "in a variation"
    return None, ""


def _tree(nodes: list[Node]) -> list[object]:
    """The moves of a move tree in order, each variation between "(" and ")" (built without
    recursion: variations may nest thousands deep, issue 36)."""
    out: list[object] = []
    work: list[Node | str] = list(reversed(nodes))
    while work:
        item = work.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        out.append(item.move)
        for variation in reversed(item.variations):
            work.append(")")
            work.extend(reversed(variation))
            work.append("(")
    return out


def _parse_chunk(lines: list[str], number: int, start_line: int, offset: int,
                 lang: Language | None) -> PgnGame:
    return _GameParser(lines, number, start_line, offset, lang).parse()


parse_chunk = _parse_chunk  # one game of read_chunks, read in full
standard_result = _standard_result


@functools.lru_cache(maxsize=64)
def _fixed_start_fen(variant: Variant) -> str:
    """``variant.start_fen``, worked out once per variant (every record starts with it)."""
    return variant.start_fen


@functools.lru_cache(maxsize=64)
def _start_position(variant: Variant, fen: str) -> Position:
    """The position of a start FEN without a FEN tag (the variant's array, SP 518), built
    once and copied for each game (issue 36)."""
    return Position(fen, variant)


def start_fen_of(variant: Variant, fen: str | None) -> str | None:
    """The start FEN of a game of ``variant`` with the FEN tag ``fen`` (None: a random
    variant's game without one has none; ``ValueError`` for a bad FEN), as the reader's
    set-up takes it."""
    if fen is None:
        if variant.key == "chess960":
            return _CHESS960_518
        return None if variant.is_random else variant.start_fen
    return Position(fen, variant).fen()


def _join(a: str, b: str) -> str:
    return f"{a} {b}" if a and b else a or b


def _infer_variant(fen: str | None) -> Variant:
    """The variant of a game without a Variant tag: the board size of its FEN picks an entry
    marked ``pgn_untagged`` (9 rows: MRC); a fixed variant whose castling rights are not
    its own array's is read as its random version (RULES.md §2.7)."""
    if fen is None:
        return get_variant("chess")
    rows = len(fen.split()[0].split("/")) if fen.split() else 0
    candidates = untagged_variants(rows) or (get_variant("chess"),)
    for v in candidates:
        random = get_variant(v.random_version) if v.random_version else v
        try:
            pos = Position(fen, random)
        except ValueError:
            continue
        if v.fixed_rank is None or _castles_from(pos, v.fixed_rank):
            return v
        return random
    return candidates[0]


def _castles_from(pos: Position, rank: str) -> bool:
    """Whether every castling right of ``pos`` belongs to king and rooks of array ``rank``."""
    g = pos.geometry
    rooks = {i for i, c in enumerate(rank) if c == "R"}
    for sq in range(g.size):
        if pos.castling >> sq & 1:
            color = pos.color_at(sq)
            assert color is not None  # a castling right always names a rook
            if g.file_of(sq) not in rooks or g.file_of(pos.kings[color]) != rank.index("K"):
                return False
    return True


# ------------------------------------------------------------------------------ writing
_SETUP_TAGS = ("FEN", "SetUp", "Variant")  # python-chess's order when it creates a game


def write_game(game: PgnGame | Game, *, lang: Language = "en", fen: FenStyle = "xfen",
               headers: Mapping[str, str] | None = None, columns: int = 80) -> str:
    """The game as PGN text (tags, blank line, movetext, blank line).

    The bytes are those of python-chess's exporter on the same game (docs/notation.md says
    exactly where they differ): the seven-tag roster, then the other tags in their order;
    ``FEN``/``SetUp``/``Variant`` where the game had them, else right after the roster in
    python-chess's order; movetext tokens wrapped at ``columns`` the way python-chess does.
    SAN is written strictly in ``lang`` (a Spanish game gets ``[Language "es"]``); the
    start FEN in X-FEN or Shredder-FEN on 8x8 (9x9 always uses file letters, RULES.md §4.9).
    ``headers`` add to or override the tags.
    """
    record = game if isinstance(game, PgnGame) else PgnGame.from_game(game)
    lang = _check_language(lang)
    tags = dict(record.headers)
    if headers:
        tags.update(headers)
    start = record.start_position()
    v = record.variant
    setup_tags: dict[str, str] = {}
    start_fen = start.fen(shredder=fen == "shredder")
    if v.is_random:
        # python-chess writes a Chess960 game from the standard array with no FEN (D-26).
        if not (v.key == "chess960" and start.fen() == _CHESS960_518):
            setup_tags = {"FEN": start_fen, "SetUp": "1"}
    elif start.fen() != _standard_fen(v):
        setup_tags = {"FEN": start_fen, "SetUp": "1"}
    if v.key != "chess":
        setup_tags["Variant"] = v.pgn_name
    lines = []
    for name in SEVEN_TAG_ROSTER:
        default = record.result if name == "Result" else _ROSTER_DEFAULTS.get(name, "?")
        lines.append(f'[{name} "{_escape(tags.pop(name, default))}"]')
    tags.pop(_LANGUAGE_TAG, None)
    if lang != "en":
        tags[_LANGUAGE_TAG] = lang
    if not any(name in tags for name in _SETUP_TAGS):
        lines.extend(f'[{name} "{_escape(setup_tags[name])}"]'
                     for name in _SETUP_TAGS if name in setup_tags)
        setup_tags = {}
    for name, value in tags.items():
        if name in _SETUP_TAGS:
            if name not in setup_tags:
                continue
            value = setup_tags.pop(name)
        lines.append(f'[{name} "{_escape(value)}"]')
    lines.extend(f'[{name} "{_escape(value)}"]' for name, value in setup_tags.items())
    tokens: list[str] = []
    if record.comment:
        tokens.append(_comment(record.comment))
    _line_tokens(start, record.moves, lang, tokens, True)
    tokens.append(record.result + " ")
    return "\n".join(lines) + "\n\n" + _wrap(tokens, columns) + "\n\n"


@functools.cache
def _standard_fen(variant: Variant) -> str:
    """The start FEN of a fixed-array variant, as Position writes it (once per variant)."""
    return Position(None, variant).fen()


def write_games(games: Iterable[PgnGame | Game], out: TextIO, **options: object) -> int:
    """Write every game to ``out`` (see :func:`write_game` for ``options``); the count."""
    count = 0
    for game in games:
        out.write(write_game(game, **options))  # type: ignore[arg-type]
        count += 1
    return count


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _comment(text: str) -> str:
    # PGN has no escape inside braces, so a closing brace cannot be kept.
    return "{ " + text.replace("}", "").strip() + " } "


def _line_tokens(pos: Position, nodes: list[Node], lang: Language, out: list[str],
                 force_number: bool) -> None:
    """Movetext tokens, each with its trailing space, as python-chess's exporter makes them.

    Variations are walked with a work list, not recursion: they may nest thousands deep
    (issue 36).  A move's number is forced at the start of a line and after a comment or
    variations, as python-chess does."""
    append = out.append
    # Work items, last first: a node to write (and whether its number is forced), a text,
    # a move to push back after its variations, or a count of moves to take back.
    work: list[tuple[Node, bool] | str | Move | int] = []

    def line(variation: list[Node], force: bool) -> None:
        work.append(len(variation))
        for k in range(len(variation) - 1, -1, -1):
            before = variation[k - 1] if k else None
            work.append((variation[k], force if before is None
                         else bool(before.comment or before.variations)))

    line(nodes, force_number)
    while work:
        item = work.pop()
        if isinstance(item, str):
            append(item)
        elif isinstance(item, Move):
            pos.push(item)
        elif isinstance(item, int):
            for _ in range(item):
                pos.pop()
        else:
            node, force = item
            if node.starting_comment:
                append(_comment(node.starting_comment))
                force = True
            if pos.turn == WHITE:
                append(f"{pos.fullmove_number}. ")
            elif force:
                append(f"{pos.fullmove_number}... ")
            append(san_and_push(pos, node.move, lang) + " ")
            if node.nags:
                out.extend(f"${nag} " for nag in sorted(node.nags))
            if node.comment:
                append(_comment(node.comment))
            if node.variations:
                pos.pop()
                work.append(node.move)
                for variation in reversed(node.variations):
                    work.append(") ")
                    line(variation, True)
                    work.append("( ")


def _wrap(tokens: list[str], columns: int) -> str:
    """python-chess's line breaking: a token that does not fit in what is left of the line
    starts a new one; lines lose their trailing space."""
    lines: list[str] = []
    current = ""
    for token in tokens:
        if columns - len(current) < len(token) and current:
            lines.append(current.rstrip())
            current = token
        else:
            current += token
    lines.append(current.rstrip())
    return "\n".join(lines).rstrip()
