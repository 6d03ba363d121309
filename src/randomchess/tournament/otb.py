"""Over-the-board games of an event (issue 31): a board's scoresheet checked against the
round's drawn setup, and a round's PGN file matched to its boards.

The checks are pure (a :class:`Tournament` snapshot in, a checked game or a typed
:class:`GameEntryError` out); :class:`~randomchess.tournament.store.TournamentStore` stores
what passes, one board per transaction.
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass, field

from randomchess.errors import RandomChessError
from randomchess.position import Position
from randomchess.san import Language
from randomchess.scoresheet import Scoresheet, ScoresheetError, read_scoresheet
from randomchess.tournament.errors import GameEntryError
from randomchess.tournament.model import FORFEITS, Board, Tournament, parse_result

KINDS = {
    "MalformedTokenError": "malformed", "UnknownPieceLetterError": "piece_letter",
    "MoveNumberError": "move_number", "IllegalScoresheetMoveError": "illegal",
    "AmbiguousScoresheetMoveError": "ambiguous", "MovesAfterEndError": "moves_after_end",
    "ScoresheetResultError": "result", "ClockError": "clock",
}


@dataclass(frozen=True)
class OtbGame:
    """A stored over-the-board game: UCI moves, English SAN, clocks (seconds left after
    each ply, ``None`` where not written) and the result (``*`` while unfinished)."""

    round: int
    board: int
    moves: tuple[str, ...]
    san: tuple[str, ...]
    clocks: tuple[int | None, ...]
    result: str
    lang: str | None = None
    entered_at: int = 0

    @property
    def finished(self) -> bool:
        return self.result != "*"


def review_id(event_id: str, rnd: int, board: int) -> str:
    """The key of an over-the-board game's engine review among the games' reviews
    (``game_reviews.game_id``, 24 characters): ``otb:`` and a digest of event, round and
    board, which no server game's id can be (those have no colon)."""
    digest = hashlib.sha256(f"{event_id}/{rnd}/{board}".encode()).hexdigest()
    return f"otb:{digest[:20]}"


def game_name(rnd: int, board: int) -> tuple[str, str]:
    return f"round {rnd}, board {board}", f"ronda {rnd}, tablero {board}"


def _refuse(kind: str, rnd: int, board: int, en: str, es: str) -> GameEntryError:
    name = game_name(rnd, board)
    return GameEntryError(f"{name[0]}: {en}", es=f"{name[1]}: {es}", kind=kind, rnd=rnd,
                          board=board)


def entry_board(t: Tournament, rnd: int, board: int) -> Board:
    """The board whose game is entered: a game of two players, not a forfeit, not played
    on the server (its moves are there already)."""
    b = t.board(rnd, board)
    if b.is_bye:
        raise _refuse("bye", rnd, board, "a bye has no game", "un descanso no tiene partida")
    if b.result in FORFEITS:
        raise _refuse("forfeit", rnd, board, f"the result is a forfeit ({b.result}): no game "
                      "was played", f"el resultado es una incomparecencia ({b.result}): no "
                      "se jugó partida")
    if b.game_id is not None:
        raise _refuse("online", rnd, board, "the game was played on the server; its moves "
                      "are there already", "la partida se jugó en el servidor; sus jugadas ya "
                      "están allí")
    return b


def check_game(t: Tournament, rnd: int, board: int, text: str, *,
               lang: Language | None = None, result: str | None = None) -> Scoresheet:
    """The scoresheet ``text`` of a board, read from the round's setup and checked move by
    move; the result must agree with the one entered for the board, if any."""
    b = entry_board(t, rnd, board)
    given = None if result is None or result.strip() == "*" else parse_result(result)
    if given in FORFEITS:
        raise _refuse("result", rnd, board, "a forfeit has no moves to enter",
                      "una incomparecencia no tiene jugadas que introducir")
    if given is not None and b.result is not None and given != b.result:
        raise _refuse("result", rnd, board, f"the board's result is {b.result}, not {given}; "
                      "correct the result first", f"el resultado del tablero es {b.result}, "
                      f"no {given}; corrija antes el resultado")
    try:
        sheet = read_scoresheet(text, t.event.variant, b.fen, lang=lang,
                                result=given or b.result)
    except ScoresheetError as e:
        name = game_name(rnd, board)
        raise GameEntryError(f"{name[0]}: {e.en}", es=f"{name[1]}: {e.es}",
                             kind=KINDS.get(type(e).__name__, "invalid"), rnd=rnd,
                             board=board, ply=e.ply, number=e.number, token=e.token,
                             suggestions=e.suggestions) from None
    _check_setup(sheet, b, t.event.variant, rnd)
    return sheet


def _check_setup(sheet: Scoresheet, b: Board, variant: str, rnd: int) -> None:
    """A ``Variant`` or ``FEN`` tag must name the event's variant and the board's setup."""
    tag = sheet.headers.get("Variant")
    if tag:
        try:
            from randomchess.pgn import variant_from_tag  # PGN loads with a PGN only

            same = variant_from_tag(tag).key == variant
        except (KeyError, ValueError):
            same = False
        if not same:
            raise _refuse("variant", rnd, b.board, f"the game's Variant tag {tag!r} is not "
                          f"the event's variant {variant}", f"la etiqueta Variant {tag!r} no "
                          f"es la variante del torneo, {variant}")
    fen = sheet.headers.get("FEN")
    if fen:
        try:
            same = Position(fen, variant).fen() == Position(b.fen, variant).fen()
        except RandomChessError:
            same = False
        if not same:
            raise _refuse("setup", rnd, b.board, f"the game's FEN {fen!r} is not the round's "
                          f"setup {b.fen}", f"el FEN de la partida {fen!r} no es la posición "
                          f"de la ronda, {b.fen}")


def otb_game(sheet: Scoresheet, rnd: int, board: int, at: int) -> OtbGame:
    return OtbGame(rnd, board, tuple(sheet.uci()), tuple(m.san for m in sheet.moves),
                   tuple(sheet.clocks()), sheet.result, sheet.lang, at)


# --- a round's PGN file ----------------------------------------------------------------------


def _key(name: str) -> str:
    """A name compared loosely: no accents, case, commas or repeated spaces
    (``Pérez, Ana`` = ``perez ana``)."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    return " ".join(text.replace(",", " ").replace(".", " ").split())


def _names(t: Tournament, number: int) -> set[str]:
    name = _key(t.player(number).name)
    words = name.split()
    return {name, " ".join(reversed(words)), " ".join(words[-1:] + words[:-1])}


@dataclass
class Match:
    """One game of the file: the board it was matched to, or why none."""

    index: int  # 1-based position in the file
    white: str
    black: str
    board: int | None = None
    reason_en: str = ""
    reason_es: str = ""


@dataclass
class ImportReport:
    """What a round's PGN import did: games entered, games matched to no board, games whose
    board refused them (with the error), and boards left without a game."""

    round: int
    entered: list[OtbGame] = field(default_factory=list)
    unmatched: list[Match] = field(default_factory=list)
    refused: list[tuple[Match, GameEntryError]] = field(default_factory=list)
    missing: list[int] = field(default_factory=list)


def match_games(t: Tournament, rnd: int, games: list[dict[str, str]]) -> list[Match]:
    """Each game's board: by both players' names (any order of given name and surname,
    accents and case ignored), else by its ``Board`` tag when the names fit nobody."""
    boards = [b for b in t.round_boards(rnd) if not b.is_bye]
    out: list[Match] = []
    for i, tags in enumerate(games, 1):
        m = Match(i, tags.get("White", "?"), tags.get("Black", "?"))
        w, bl = _key(m.white), _key(m.black)
        named = [b for b in boards if w in _names(t, b.white) and b.black is not None
                 and bl in _names(t, b.black)]
        swapped = [b for b in boards if b.black is not None and w in _names(t, b.black)
                   and bl in _names(t, b.white)]
        number = tags.get("Board", "").strip()
        if named:
            m.board = named[0].board
        elif swapped:
            m.reason_en = f"the players are on board {swapped[0].board} with the colours " \
                          "the other way round"
            m.reason_es = f"los jugadores están en el tablero {swapped[0].board} con los " \
                          "colores al revés"
        elif number.isdigit() and any(b.board == int(number) for b in boards):
            m.board = int(number)
        else:
            m.reason_en = f"no board of round {rnd} has {m.white} - {m.black}" + \
                          (f" and there is no board {number}" if number else "")
            m.reason_es = f"ningún tablero de la ronda {rnd} tiene {m.white} - {m.black}" + \
                          (f" y no hay tablero {number}" if number else "")
        out.append(m)
    _flag_duplicates(out)
    return out


@dataclass
class RelayReport:
    """One look at a round's live PGN file: games stored anew or longer, games as before,
    games matched to no board, and games flagged for the arbiter (nothing stored)."""

    round: int
    updated: list[OtbGame] = field(default_factory=list)
    unchanged: list[OtbGame] = field(default_factory=list)
    unmatched: list[Match] = field(default_factory=list)
    flagged: list[tuple[Match, GameEntryError]] = field(default_factory=list)


def check_extends(before: tuple[str, ...], game: OtbGame, rnd: int, board: int) -> bool:
    """Whether a relayed game continues the game relayed before (``False``: it is that
    game cut short, as a file caught half-written or a take-back on the e-board gives:
    nothing to store).  Another game under the same board (an e-board misread, a reset
    board, a wrong file) is refused, never shown in its place."""
    diff = next((i for i, (a, b) in enumerate(zip(before, game.moves, strict=False), 1)
                 if a != b), None)
    if diff is None:
        return len(game.moves) >= len(before)
    raise _refuse("contradiction", rnd, board,
                  f"the relayed game is not the one relayed before: it differs at ply {diff}",
                  f"la partida retransmitida no es la de antes: difiere en la media jugada "
                  f"{diff}")


def _flag_duplicates(matches: list[Match]) -> None:
    """A board two games of the file claim takes neither: which one is right is the
    arbiter's decision."""
    seen: dict[int, int] = {}
    for m in matches:
        if m.board is not None:
            seen[m.board] = seen.get(m.board, 0) + 1
    for m in matches:
        if m.board is not None and seen[m.board] > 1:
            m.reason_en = f"{seen[m.board]} games of the file match board {m.board}"
            m.reason_es = f"{seen[m.board]} partidas del archivo corresponden al tablero " \
                          f"{m.board}"
            m.board = None
