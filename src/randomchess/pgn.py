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
import io
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal, TextIO

from randomchess.errors import RandomChessError
from randomchess.game import Game, Termination
from randomchess.pieces import WHITE
from randomchess.position import Move, Position
from randomchess.san import Language, language_of_letters, parse_san, san
from randomchess.variants import UnknownVariantError, Variant, get_variant, untagged_variants

__all__ = [
    "SEVEN_TAG_ROSTER",
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
_ORTHODOX_NAMES = frozenset({"standard", "from position", "chess", "normal", "classical"})

FenStyle = Literal["xfen", "shredder"]


class PgnError(RandomChessError):
    """What is wrong with one game, and where: game number (1-based), line and column in
    the file, and for a bad move the ply (1-based, counted on the main line) and its text."""

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


@dataclass
class Node:
    """A move in the movetext with its annotations.  ``variations`` are alternatives to
    this move, each a list of nodes starting from the position before it."""

    move: Move
    san: str = ""  # as read (or as last written)
    nags: list[int] = field(default_factory=list)
    comment: str = ""  # after the move
    starting_comment: str = ""  # before the move (where a variation opens with one)
    variations: list[list[Node]] = field(default_factory=list)


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
            self.start_fen = self.variant.start_fen

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
            yield _parse_chunk(chunk, number, start_line, start_offset, lang)
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
            ended = text.split()[-1] in RESULTS
        elif in_brace:
            seen_moves = True
    if chunk:
        number += 1
        yield _parse_chunk(chunk, number, start_line, start_offset, lang)


def _strip_comments(line: str, in_brace: bool) -> tuple[bool, str]:
    """The line's text outside comments, and whether a brace comment is still open."""
    out: list[str] = []
    i = 0
    while i < len(line):
        if in_brace:
            j = line.find("}", i)
            if j < 0:
                return True, "".join(out)
            in_brace = False
            out.append(" ")
            i = j + 1
            continue
        ch = line[i]
        if ch == "{":
            in_brace = True
        elif ch == ";":
            break
        else:
            out.append(ch)
        i += 1
    return in_brace, "".join(out)


_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_TOKEN = re.compile(r"""
    (?P<brace>\{)
  | (?P<semi>;[^\n]*)
  | (?P<escape>^%[^\n]*)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<nag>\$\d+)
  | (?P<result>(?:1-0|0-1|1/2-1/2|\*)(?=[\s(){};]|$))
  | (?P<number>\d+\s*\.+)
  | (?P<dots>\.+)
  | (?P<glyph>[!?]{1,2})
  | (?P<word>[^\s{}();$!?]+)
  | (?P<space>\s+)
  | (?P<other>.)
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
            pos = self.game.start_position()
            self.i = 0
            self.parse_line(pos, self.game.moves, depth=0)
            self.check_result()
        except _Abort:
            pass
        return self.game

    # -------------------------------------------------------------- tags and setup
    def parse_tags(self) -> int:
        """Read the tag section; return where the movetext starts."""
        index = 0
        for line in self.text.splitlines(keepends=True):
            if not line.strip().startswith("["):
                break
            rest = line.strip()
            matches = list(_TAG.finditer(rest))
            leftover = _TAG.sub("", rest).strip()
            if not matches or leftover:
                raise self.fail(f"malformed tag pair {rest!r}", index)
            for m in matches:
                value = m.group(2).replace('\\"', '"').replace("\\\\", "\\")
                self.game.headers[m.group(1)] = value
            index += len(line)
        return index

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
            if variant.is_random:
                raise self.fail(f"a {variant.pgn_name} game needs a FEN tag", 0)
            self.game.start_fen = variant.start_fen
            return
        try:
            self.game.start_fen = Position(fen, variant).fen()
        except ValueError as exc:
            raise self.fail(f"bad FEN tag: {exc}", 0) from None

    # -------------------------------------------------------------- movetext
    def tokenize(self, start: int) -> list[tuple[str, str, int]]:
        tokens: list[tuple[str, str, int]] = []
        text = self.text
        i = start
        while i < len(text):
            m = _TOKEN.match(text, i)
            assert m is not None and m.lastgroup is not None
            kind, value = m.lastgroup, m.group()
            if kind == "brace":
                end = text.find("}", i + 1)
                if end < 0:
                    raise self.fail("unterminated comment", i)
                tokens.append(("comment", text[i + 1:end].strip(), i))
                i = end + 1
                continue
            if kind == "semi":
                tokens.append(("comment", value[1:].strip(), i))
            elif kind == "other":
                raise self.fail(f"unexpected character {value!r}", i)
            elif kind not in ("space", "escape", "number", "dots"):
                tokens.append((kind, value, i))
            i = m.end()
        return tokens

    def resolve_language(self) -> None:
        if self.lang is not None:
            return
        variant = self.game.variant
        found = {language_of_letters(v, variant) for kind, v, _ in self.tokens if kind == "word"}
        found.discard(None)
        if len(found) > 1:
            raise self.fail("the moves mix English and Spanish piece letters", 0)
        self.lang = found.pop() if found else None

    def label(self, pos: Position, text: str) -> str:
        dots = "." if pos.turn == WHITE else "..."
        return f"{pos.fullmove_number}{dots} {text}"

    def parse_line(self, pos: Position, nodes: list[Node], depth: int) -> None:
        pushed = 0
        pending = ""
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
                nodes[-1].nags.append(int(value[1:]) if kind == "nag" else _GLYPHS[value])
            elif kind == "open":
                if not nodes:
                    raise self.fail("variation before any move", index)
                last = nodes[-1]
                pos.pop()
                variation: list[Node] = []
                self.parse_line(pos, variation, depth + 1)
                pos.push(last.move)
                last.variations.append(variation)
            elif kind == "close":
                if depth == 0:
                    raise self.fail("')' without a matching '('", index)
                break
            elif kind == "result":
                if depth:
                    raise self.fail("result inside a variation", index)
                self.game.result = value
                rest = [t for t in tokens[self.i:] if t[0] != "comment"]
                if rest:
                    self.game.warnings.append(
                        f"line {self.where(rest[0][2])[0]}: text after the result ignored")
                self.i = len(tokens)
            elif value in ("e.p.", "ep"):
                continue
            elif value.isdigit():
                continue  # a move number without its dot
            else:
                node = self.parse_move(pos, value, index, depth)
                node.starting_comment, pending = pending, ""
                nodes.append(node)
                pos.push(node.move)
                pushed += 1
        else:
            if depth:
                raise self.fail("unterminated variation", len(self.text) - 1)
        if depth:
            for _ in range(pushed):
                pos.pop()

    def parse_move(self, pos: Position, text: str, index: int, depth: int) -> Node:
        ply = len(self.game.moves) + 1 if depth == 0 else None
        label = self.label(pos, text)
        if text in ("--", "Z0", "0000", "@@@@"):
            raise self.fail("null moves are not supported", index, ply=ply, move=label,
                            in_variation=depth > 0)
        try:
            move = parse_san(pos, text, self.lang or "en")
        except ValueError as exc:
            reason = str(exc)
            if self.lang is None and "R" in text:
                reason += " (read as English; pass lang='es' / --lang es for Spanish)"
            raise self.fail(reason, index, ply=ply, move=label,
                            in_variation=depth > 0) from None
        return Node(move, text)

    def check_result(self) -> None:
        tag = self.game.headers.get("Result")
        if tag is not None and tag != self.game.result and self.game.result != "*":
            self.game.warnings.append(
                f"Result tag {tag!r} differs from the movetext's {self.game.result!r}")
        if tag is not None and self.game.result == "*" and tag in RESULTS:
            self.game.result = tag


def _parse_chunk(lines: list[str], number: int, start_line: int, offset: int,
                 lang: Language | None) -> PgnGame:
    return _GameParser(lines, number, start_line, offset, lang).parse()


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
def write_game(game: PgnGame | Game, *, lang: Language = "en", fen: FenStyle = "xfen",
               headers: Mapping[str, str] | None = None, columns: int = 80) -> str:
    """The game as PGN text (tags, blank line, movetext, blank line).

    SAN is written strictly in ``lang``; the start FEN in X-FEN or Shredder-FEN on 8x8
    (9x9 always uses file letters, RULES.md §4.9).  ``headers`` add to or override the tags.
    """
    record = game if isinstance(game, PgnGame) else PgnGame.from_game(game)
    tags = dict(record.headers)
    if headers:
        tags.update(headers)
    start = record.start_position()
    out_tags: dict[str, str] = {}
    for name in SEVEN_TAG_ROSTER:
        default = record.result if name == "Result" else _ROSTER_DEFAULTS.get(name, "?")
        out_tags[name] = tags.pop(name, default)
    for name in ("Variant", "SetUp", "FEN"):
        tags.pop(name, None)
    v = record.variant
    if v.key != "chess":
        out_tags["Variant"] = v.pgn_name
    if v.is_random or start.fen() != Position(None, v).fen():
        out_tags["SetUp"] = "1"
        out_tags["FEN"] = start.fen(shredder=fen == "shredder")
    out_tags.update(tags)
    lines = [f'[{name} "{_escape(value)}"]' for name, value in out_tags.items()]
    tokens: list[str] = []
    if record.comment:
        tokens.append(_comment(record.comment))
    _line_tokens(start, record.moves, lang, tokens, force_number=True)
    tokens.append(record.result)
    return "\n".join(lines) + "\n\n" + _wrap(tokens, columns) + "\n\n"


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
    return "{" + text.replace("}", "").strip() + "}"


def _line_tokens(pos: Position, nodes: list[Node], lang: Language, out: list[str],
                 force_number: bool) -> None:
    pushed = 0
    for node in nodes:
        if node.starting_comment:
            out.append(_comment(node.starting_comment))
            force_number = True
        if pos.turn == WHITE:
            out.append(f"{pos.fullmove_number}.")
        elif force_number:
            out.append(f"{pos.fullmove_number}...")
        force_number = False
        out.append(san(pos, node.move, lang))
        out.extend(f"${nag}" for nag in node.nags)
        if node.comment:
            out.append(_comment(node.comment))
            force_number = True
        for variation in node.variations:
            out.append("(")
            _line_tokens(pos, variation, lang, out, force_number=True)
            out.append(")")
            force_number = True
        pos.push(node.move)
        pushed += 1
    for _ in range(pushed):
        pos.pop()


def _wrap(tokens: list[str], columns: int) -> str:
    lines: list[str] = []
    current = ""
    for token in tokens:
        if token == ")" or current.endswith("("):
            candidate = current + token
        else:
            candidate = f"{current} {token}" if current else token
        if len(candidate) > columns and current:
            lines.append(current)
            current = token
        else:
            current = candidate
    if current:
        lines.append(current)
    return "\n".join(lines)

