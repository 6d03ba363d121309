"""Scoresheets typed move by move (issue 31): a game as an arbiter copies it from paper.

:func:`read_scoresheet` reads movetext in English or Spanish SAN (``Nf3`` / ``Cf3``,
``B=R`` / ``A=T``, ``O-O-Og``, ``0-0``), long algebraic (``e2-e4``, ``e2e4``, ``Cg1-f3``),
with or without check and capture marks and move numbers (``14.``, ``14...``), for any
variant and from any start position, and checks every move as it comes.  The first move
that is not legal, or that fits more than one legal move, stops the reading with a typed
:class:`ScoresheetError` naming its ply, move number and token, and what the scoresheet most
likely meant (:func:`suggest`): nothing is ever guessed silently (docs/notation.md,
"Scoresheets").

Clock times are optional: a PGN comment ``{[%clk 0:10:00]}`` or a bare ``1:45:10`` (or
``(1:45)``) after the move, as a column of the scoresheet.  The result is the board's when
the board decides it (checkmate, stalemate) and otherwise the arbiter's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from randomchess.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    RandomChessError,
)
from randomchess.pieces import KING, PAWN, PIECE_TYPES, ROOK, WHITE, PieceKind
from randomchess.position import Move, Position
from randomchess.san import LANGUAGES, Language, language_of_letters, parse_san, san, san_and_push
from randomchess.variants import Variant, get_variant

__all__ = [
    "AmbiguousScoresheetMoveError",
    "ClockError",
    "IllegalScoresheetMoveError",
    "MalformedTokenError",
    "MoveNumberError",
    "MovesAfterEndError",
    "Scoresheet",
    "ScoresheetError",
    "ScoresheetResultError",
    "SheetMove",
    "UnknownPieceLetterError",
    "read_scoresheet",
    "split_pgn",
    "suggest",
]

MAX_TEXT = 200_000  # characters of one scoresheet
MAX_PLIES = 2_000
RESULTS = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", "½-½": "1/2-1/2",
           "0.5-0.5": "1/2-1/2", "*": "*"}
_SIDE = {"en": ("White", "Black"), "es": ("blancas", "negras")}


# ------------------------------------------------------------------------------ errors
class ScoresheetError(RandomChessError):
    """A scoresheet that cannot be read, with where: ``ply`` (1-based, 0 before the first
    move), ``number`` (the move number), ``token`` as typed, ``suggestions`` (SAN in the
    sheet's language, most likely first).  ``str()`` is English, ``es`` Spanish;
    ``game`` names the game when a caller reads many (``round 3, board 2``)."""

    def __init__(self, en: str, es: str, *, ply: int = 0, number: int = 0,
                 token: str = "", suggestions: tuple[str, ...] = ()) -> None:
        super().__init__(en)
        self.en = en
        self.es = es
        self.ply = ply
        self.number = number
        self.token = token
        self.suggestions = suggestions
        self.game: str | None = None

    def localized(self, lang: str) -> str:
        """The message in ``lang`` ("en" or "es")."""
        return self.es if lang == "es" else self.en

    def __str__(self) -> str:
        return f"{self.game}: {self.en}" if self.game else self.en


class MalformedTokenError(ScoresheetError):
    """A token that is not a move, a move number, a clock time, a comment or a result."""


class UnknownPieceLetterError(ScoresheetError):
    """A move with a piece letter the sheet's language does not have (``Nf3`` in Spanish)."""


class MoveNumberError(ScoresheetError):
    """A move number out of sequence (``15.`` where move 14 is next, ``14...`` with White to
    move)."""


class IllegalScoresheetMoveError(ScoresheetError):
    """A well-formed move that is not legal in the position."""


class AmbiguousScoresheetMoveError(ScoresheetError):
    """A move that fits more than one legal move; ``suggestions`` lists them all."""


class MovesAfterEndError(ScoresheetError):
    """Moves after checkmate or stalemate, or after the result."""


class ScoresheetResultError(ScoresheetError):
    """A result the final position contradicts (a checkmate scored as a draw), or two
    results that disagree."""


class ClockError(ScoresheetError):
    """A clock time that is not ``h:mm:ss`` (or ``h:mm``), or one with no move before it."""


# ------------------------------------------------------------------------------ results
@dataclass(frozen=True)
class SheetMove:
    """One ply: the move, its SAN (English, strict), the token as typed and the clock
    (seconds left, when written)."""

    move: Move
    san: str
    token: str
    clock: int | None = None


@dataclass
class Scoresheet:
    """A checked game: start position, moves, and the result (``forced`` when the final
    position decides it)."""

    variant: Variant
    start_fen: str
    moves: list[SheetMove] = field(default_factory=list)
    result: str = "*"
    forced: bool = False
    lang: Language | None = None
    headers: dict[str, str] = field(default_factory=dict)

    def uci(self) -> list[str]:
        pos = Position(self.start_fen, self.variant)
        out = []
        for m in self.moves:
            out.append(pos.uci(m.move))
            pos.push(m.move)
        return out

    def end_position(self) -> Position:
        pos = Position(self.start_fen, self.variant)
        for m in self.moves:
            pos.push(m.move)
        return pos

    def clocks(self) -> list[int | None]:
        return [m.clock for m in self.moves]


def format_clock(seconds: int) -> str:
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


# ------------------------------------------------------------------------------ reading
_HEADER = re.compile(r'\s*\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_NUMBER = re.compile(r"([0-9]{1,4})\s*(\.\.\.|…|\.)?(.*)", re.S)  # ASCII digits, bounded
_CLOCK = re.compile(r"([0-9]{1,2}):([0-5][0-9])(?::([0-5][0-9]))?")
_CLOCK_SHAPE = re.compile(r"[0-9]+:[0-9]+(?::[0-9]+)?")  # read as a clock, then checked
_CLK_COMMENT = re.compile(r"\[%clk\s+([^\]\s]+)\s*\]")
_RESULT = re.compile(r"1-0|0-1|1/2-1/2|½-½|0\.5-0\.5|\*")
_DASHES = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u00d7": "x"})


@dataclass(frozen=True)
class _Token:
    kind: str  # move | number | dots | clock | comment | result
    text: str
    number: int = 0
    black: bool = False  # a number written N... (Black's move next)


def split_pgn(text: str) -> list[tuple[dict[str, str], str]]:
    """The games of a PGN text as (tags, movetext) pairs; text with no tags is one game.
    ``MalformedTokenError`` for a file that is not PGN (no tag section and no move)."""
    games: list[tuple[dict[str, str], str]] = []
    tags: dict[str, str] = {}
    body: list[str] = []
    for line in text.splitlines():
        m = _HEADER.match(line)
        if m and line.strip().startswith("["):
            if body and any(s.strip() for s in body):
                games.append((tags, "\n".join(body)))
                tags, body = {}, []
            tags[m.group(1)] = m.group(2).replace('\\"', '"').replace("\\\\", "\\")
            continue
        body.append(line)
    if tags or any(s.strip() for s in body):
        games.append((tags, "\n".join(body)))
    if not games:
        raise MalformedTokenError("no game in the text", "no hay ninguna partida en el texto")
    return games


def _tokens(text: str) -> Iterator[_Token]:
    """The tokens of movetext: comments, variations skipped, move numbers split off."""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c in "{(":
            close = "}" if c == "{" else ")"
            end = _closing(text, i, c, close)
            inner = text[i + 1:end]
            if c == "(" and _CLOCK_SHAPE.fullmatch(inner.strip()):
                yield _Token("clock", inner.strip())
            elif c == "{":
                yield _Token("comment", inner)
            i = end + 1
        elif c == ";":
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif c == "$":
            j = i + 1
            while j < n and text[j].isdigit():
                j += 1
            i = j
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in "{(;":
                j += 1
            yield from _word(text[i:j].translate(_DASHES))
            i = j


def _closing(text: str, start: int, opening: str, close: str) -> int:
    depth = 0
    for k in range(start, len(text)):
        if text[k] == opening:
            depth += 1
        elif text[k] == close:
            depth -= 1
            if depth == 0:
                return k
    raise MalformedTokenError(f"unclosed {opening!r} in the movetext",
                              f"{opening!r} sin cerrar en el texto de las jugadas")


_NOISE = re.compile(r"(?i)[!?+#]+|e\.?p\.?|a\.?p\.?")  # marks written apart from the move


def _word(word: str) -> Iterator[_Token]:
    """One word's tokens: move numbers glued to what follows (``14.Tc1``) are peeled off
    one by one (a loop: ``2.2.2.2...`` must not recurse)."""
    while word:
        if _NOISE.fullmatch(word):
            return
        if _RESULT.fullmatch(word):
            yield _Token("result", RESULTS[word])
            return
        if _CLOCK_SHAPE.fullmatch(word):
            yield _Token("clock", word)
            return
        if word in ("...", "…", ".."):
            yield _Token("dots", word)
            return
        m = _NUMBER.fullmatch(word)
        if not (m and (m.group(2) or not m.group(3))):
            yield _Token("move", word)
            return
        yield _Token("number", m.group(1) + (m.group(2) or ""), int(m.group(1)),
                     m.group(2) in ("...", "…"))
        word = m.group(3).strip()


def _clock_seconds(text: str) -> int | None:
    m = _CLOCK.fullmatch(text.strip())
    if m is None:
        return None
    h, mm, ss = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
    return h * 3600 + mm * 60 + ss


def sheet_language(text: str, variant: Variant) -> Language | None:
    """The language most move tokens of ``text`` can only be in (None: no evidence or a
    tie, then each move is read in whichever language gives one legal move)."""
    votes = {"en": 0, "es": 0}
    for tok in _tokens(text):
        if tok.kind != "move" or tok.text[:1] in "O0o":
            continue
        letters = "".join(c for c in tok.text if c.isupper())
        found = language_of_letters(letters, variant)
        if found is not None:
            votes[found] += 1
    if votes["en"] == votes["es"]:
        return None
    return "en" if votes["en"] > votes["es"] else "es"


def read_scoresheet(text: str, variant: str | Variant = "chess", start_fen: str | None = None,
                    *, lang: Language | None = None, result: str | None = None) -> Scoresheet:
    """The game ``text`` describes, every move checked (module docstring).  ``result`` is
    the arbiter's (``1-0``, ``0-1``, ``1/2-1/2``, ``*``); a result written at the end of
    the movetext must agree with it.  Tags before the movetext are kept in ``headers``."""
    if len(text) > MAX_TEXT:
        raise MalformedTokenError(f"the scoresheet has {len(text)} characters; at most "
                                  f"{MAX_TEXT}", f"la planilla tiene {len(text)} caracteres; "
                                  f"como máximo {MAX_TEXT}")
    v = get_variant(variant) if isinstance(variant, str) else variant
    games = split_pgn(text)
    if len(games) > 1:
        raise MalformedTokenError(f"{len(games)} games in one scoresheet",
                                  f"{len(games)} partidas en una sola planilla")
    headers, body = games[0]
    pos = Position(start_fen or v.start_fen, v)
    sheet = Scoresheet(v, pos.fen(), lang=lang or sheet_language(body, v),
                       headers=headers)
    written = _Reader(pos, sheet).read(body)
    _settle_result(sheet, pos, written, result)
    return sheet


class _Reader:
    """Plays the tokens of one scoresheet onto ``pos``, filling ``sheet``."""

    def __init__(self, pos: Position, sheet: Scoresheet) -> None:
        self.pos = pos
        self.sheet = sheet
        self.last_number = ""

    def label(self, token: str) -> str:
        """``14.Tc1`` or ``14...Tc1``: how the move reads on the sheet."""
        dots = "." if self.pos.turn == WHITE else "..."
        return f"{self.pos.fullmove_number}{dots}{token}"

    def where(self, token: str) -> dict[str, Any]:
        return {"ply": len(self.sheet.moves) + 1, "number": self.pos.fullmove_number,
                "token": token}

    def read(self, body: str) -> str | None:
        written: str | None = None
        for tok in _tokens(body):
            if written is not None and tok.kind != "comment":
                raise MovesAfterEndError(
                    f"{tok.text!r} after the result {written}",
                    f"{tok.text!r} después del resultado {written}", **self.where(tok.text))
            if tok.kind == "result":
                written = tok.text
            elif tok.kind == "number":
                self.check_number(tok)
            elif tok.kind == "clock":
                self.set_clock(tok.text)
            elif tok.kind == "comment":
                clk = _CLK_COMMENT.search(tok.text)
                if clk and self.sheet.moves:
                    self.set_clock(clk.group(1))
            elif tok.kind == "move":
                self.play(tok.text)
        return written

    def check_number(self, tok: _Token) -> None:
        pos = self.pos
        black_next = pos.turn != WHITE
        if tok.number == pos.fullmove_number and (black_next or not tok.black):
            return
        side = 1 if black_next else 0
        raise MoveNumberError(
            f"move number {tok.text} is out of sequence: move {pos.fullmove_number} is next, "
            f"{_SIDE['en'][side]} to move",
            f"el número de jugada {tok.text} está fuera de orden: toca la jugada "
            f"{pos.fullmove_number}, juegan {_SIDE['es'][side]}", **self.where(tok.text))

    def set_clock(self, text: str) -> None:
        seconds = _clock_seconds(text)
        moves = self.sheet.moves
        if seconds is None or not moves:
            raise ClockError(
                f"clock time {text!r} " + ("is not h:mm:ss" if moves else "before any move"),
                f"el tiempo de reloj {text!r} " + ("no es h:mm:ss" if moves
                                                  else "va antes de cualquier jugada"),
                ply=len(moves), number=self.pos.fullmove_number, token=text)
        last = moves[-1]
        moves[-1] = SheetMove(last.move, last.san, last.token, seconds)

    def play(self, token: str) -> None:
        pos = self.pos
        if len(self.sheet.moves) >= MAX_PLIES:
            raise MalformedTokenError(f"more than {MAX_PLIES} plies",
                                      f"más de {MAX_PLIES} medias jugadas",
                                      **self.where(token))
        if not pos.legal_moves():
            end = ("checkmate", "jaque mate") if pos.is_check() else ("stalemate", "ahogado")
            raise MovesAfterEndError(
                f"{self.label(token)}: the game was over ({end[0]}) after ply "
                f"{len(self.sheet.moves)}",
                f"{self.label(token)}: la partida ya había terminado ({end[1]}) tras la "
                f"media jugada {len(self.sheet.moves)}", **self.where(token))
        move = self.parse(token)
        self.sheet.moves.append(SheetMove(move, san_and_push(pos, move), token))

    def parse(self, token: str) -> Move:
        pos, lang = self.pos, self.sheet.lang
        try:
            return parse_san(pos, token, lang)
        except AmbiguousMoveError:
            options = _Options(pos, candidates(pos, token, lang), lang or _token_lang(token, pos))
            raise _ambiguous(self.label(token), options, self.where(token)) from None
        except IllegalMoveError:
            options = _Options(pos, suggest(pos, token, lang), lang or _token_lang(token, pos))
            raise _illegal(self.label(token), options, self.where(token)) from None
        except InvalidMoveError:
            options = _Options(pos, suggest(pos, token, lang), lang or _token_lang(token, pos))
            raise _malformed(self.label(token), token, lang, options,
                             self.where(token)) from None


def _token_lang(token: str, pos: Position) -> Language:
    """The language to write suggestions for a sheet of no settled language in."""
    return language_of_letters("".join(c for c in token if c.isupper()), pos.variant) or "en"


class _Options:
    """Suggested moves as SAN in the sheet's language, and described for each message
    language (``O-O-O (king c1, rook d1)`` / ``O-O-O (rey c1, torre d1)``)."""

    def __init__(self, pos: Position, moves: list[Move], lang: Language) -> None:
        self.san = tuple(san(pos, m, lang) for m in moves)
        self.en = [describe(pos, m, lang, "en") for m in moves]
        self.es = [describe(pos, m, lang, "es") for m in moves]


def _or(options: list[str], word: str) -> str:
    return options[0] if len(options) == 1 else \
        ", ".join(options[:-1]) + f" {word} " + options[-1]


def _illegal(label: str, options: _Options, where: dict[str, Any]) -> ScoresheetError:
    if options.san:
        en = f"{label} is illegal: did you mean {_or(options.en, 'or')}?"
        es = f"{label} es ilegal: ¿quiso decir {_or(options.es, 'o')}?"
    else:
        en = f"{label} is illegal: no legal move is like it"
        es = f"{label} es ilegal: ninguna jugada legal se le parece"
    return IllegalScoresheetMoveError(en, es, suggestions=options.san, **where)


def _ambiguous(label: str, options: _Options, where: dict[str, Any]) -> ScoresheetError:
    return AmbiguousScoresheetMoveError(
        f"{label} is ambiguous: {_or(options.en, 'or')}?",
        f"{label} es ambigua: ¿{_or(options.es, 'o')}?", suggestions=options.san, **where)


def _malformed(label: str, token: str, lang: Language | None, options: _Options,
               where: dict[str, Any]) -> ScoresheetError:
    hint_en = f" (did you mean {_or(options.en, 'or')}?)" if options.san else ""
    hint_es = f" (¿quiso decir {_or(options.es, 'o')}?)" if options.san else ""
    letter = token[:1]
    if lang is not None and letter.isupper() and letter != "O" and \
            _kind_of(letter, lang) is None and _MOVE_SHAPE.fullmatch(token):
        name_en, name_es = ("English", "inglés") if lang == "en" else ("Spanish", "español")
        return UnknownPieceLetterError(
            f"{label}: {letter!r} is not a piece letter in {name_en}{hint_en}",
            f"{label}: {letter!r} no es una letra de pieza en {name_es}{hint_es}",
            suggestions=options.san, **where)
    return MalformedTokenError(f"{label}: {token!r} is not a move{hint_en}",
                               f"{label}: {token!r} no es una jugada{hint_es}",
                               suggestions=options.san, **where)


def _settle_result(sheet: Scoresheet, pos: Position, written: str | None,
                   given: str | None) -> None:
    """The board's result after mate or stalemate, otherwise the arbiter's (docs/rules.md,
    "Over-the-board scoresheets")."""
    if given is not None and given not in RESULTS:
        raise ScoresheetResultError(f"unknown result {given!r}",
                                    f"resultado desconocido {given!r}")
    given = RESULTS.get(given or "", given)
    if written not in (None, "*") and given not in (None, "*") and written != given:
        raise ScoresheetResultError(
            f"the scoresheet says {written} but the result given is {given}",
            f"la planilla dice {written} pero el resultado indicado es {given}",
            ply=len(sheet.moves), number=pos.fullmove_number)
    claimed = given if given not in (None, "*") else written
    forced = None
    if not pos.legal_moves():
        forced = ("0-1" if pos.turn == WHITE else "1-0") if pos.is_check() else "1/2-1/2"
    if forced is not None and claimed not in (None, "*", forced):
        what = ("checkmate", "jaque mate") if pos.is_check() else ("stalemate", "ahogado")
        raise ScoresheetResultError(
            f"the game ends in {what[0]}, so the result is {forced}, not {claimed}",
            f"la partida termina en {what[1]}, así que el resultado es {forced}, no {claimed}",
            ply=len(sheet.moves), number=pos.fullmove_number)
    sheet.forced = forced is not None
    sheet.result = forced or claimed or "*"


# ------------------------------------------------------------------------------ suggestions
_MOVE_SHAPE = re.compile(
    r"(?P<piece>[A-Z])?(?P<file>[a-l])?(?P<rank>1[0-2]|[1-9])?[-x:]?"
    r"(?P<to>[a-l](?:1[0-2]|[1-9]))(?:=?\(?(?P<promo>[A-Za-z])\)?)?[+#!?]*")
_CASTLE_SHAPE = re.compile(r"[O0o]-[O0o](-[O0o])?([a-l])?[+#!?]*")
_ADJUST_SHAPE = re.compile(r"([A-Z])[a-l]?=([A-Z])[A-Za-l]?[+#!?]*")


def _kind_of(letter: str, lang: Language) -> PieceKind | None:
    for t in PIECE_TYPES.values():
        if (t.letter if lang == "en" else t.spanish) == letter:
            return t.kind
    if lang == "es" and letter == "L":
        return _kind_of("B", "en")
    return None


def _langs(lang: Language | None) -> tuple[Language, ...]:
    return LANGUAGES if lang is None else (lang, "es" if lang == "en" else "en")


def suggest(pos: Position, token: str, lang: Language | None) -> list[Move]:
    """What an illegal ``token`` most likely meant, best first (at most four): a castling
    whose king or rook lands on the named square (for a king or rook move, in either
    language); the same piece onto that square from another origin; the other language's
    reading of the letters; then any legal move onto the square (docs/notation.md)."""
    text = token.strip().translate(_DASHES)
    legal = pos.legal_moves()
    out: list[Move] = []
    if _CASTLE_SHAPE.fullmatch(text) or _ADJUST_SHAPE.fullmatch(text):
        special = pos.is_castling if text[0] in "O0o" else pos.is_adjustment
        out = [m for m in legal if special(m)]
        return out[:4]
    m = _MOVE_SHAPE.fullmatch(text)
    if m is None:
        return []
    try:
        to = pos.geometry.parse_square(m.group("to"))
    except ValueError:
        return []
    letter = m.group("piece")
    kinds = [k for k in (_kind_of(letter, x) for x in _langs(lang)) if k is not None] \
        if letter else [PAWN]
    if any(k in (KING, ROOK) for k in kinds):
        out += [mv for mv in legal if pos.is_castling(mv)
                and to in pos.castling_squares(mv.to_square)]
    for kind in kinds:
        out += [mv for mv in _onto(pos, legal, to) if pos.piece_type_at(mv.from_square) == kind]
    out += _onto(pos, legal, to)
    return _dedupe(out)[:4]


def _onto(pos: Position, legal: list[Move], to: int) -> list[Move]:
    return [mv for mv in legal if mv.to_square == to and not pos.is_castling(mv)
            and not pos.is_adjustment(mv)]


def _dedupe(moves: list[Move]) -> list[Move]:
    seen: set[Move] = set()
    out = []
    for mv in moves:
        if mv not in seen:
            seen.add(mv)
            out.append(mv)
    return out


def candidates(pos: Position, token: str, lang: Language | None) -> list[Move]:
    """Every legal move an ambiguous ``token`` fits (each language's reading when the
    language is open, every origin the disambiguation leaves)."""
    readings: list[Move] = []
    for x in LANGUAGES if lang is None else (lang,):
        try:
            readings.append(parse_san(pos, token, x))
        except AmbiguousMoveError:
            readings += _fits(pos, token, x)
        except (IllegalMoveError, InvalidMoveError):
            pass
    return _dedupe(readings)


def _fits(pos: Position, token: str, lang: Language) -> list[Move]:
    """The legal moves whose strict SAN, with its disambiguation taken away, is the
    token's (``Nd2`` fits ``Nbd2`` and ``Nfd2``)."""
    bare = re.sub(r"[+#!?x:-]", "", token.strip().translate(_DASHES))
    out = []
    for mv in pos.legal_moves():
        written = re.sub(r"[+#x]", "", san(pos, mv, lang))
        if written == bare or (len(written) > len(bare) and _drops_to(written, bare)):
            out.append(mv)
    return out


def _drops_to(written: str, bare: str) -> bool:
    """Whether ``bare`` is ``written`` less some of its disambiguating characters."""
    it = iter(written)
    return all(c in it for c in bare) and written[0] == bare[0] and written[-2:] == bare[-2:]


def describe(pos: Position, move: Move, lang: Language, words: str = "en") -> str:
    """A suggestion as the arbiter reads it: SAN in ``lang``, and for castling where king
    and rook land, in the language ``words`` (``O-O-O (king c1, rook d1)``)."""
    text = san(pos, move, lang)
    if pos.is_castling(move):
        g = pos.geometry
        king, rook = pos.castling_squares(move.to_square)
        names = ("king", "rook") if words == "en" else ("rey", "torre")
        text += f" ({names[0]} {g.name(king)}, {names[1]} {g.name(rook)})"
    return text
