"""The tournament's data: an event, its players and the boards of each round, as immutable
values.  :class:`Tournament` is one consistent snapshot (as read from the database) and
answers every question the pairing, tiebreak and export code asks: scores, colours, who met
whom, which rounds are complete.

Results are stored per board.  A board either has two players (``white``, ``black``) and,
once entered, one of :data:`GAME_RESULTS`, or one player and a bye kind of :data:`BYE_KINDS`
(its points are fixed by the kind; a bye has no result to enter).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from randomchess.tournament.errors import ResultError, TournamentError, UnknownPlayerError

System = Literal["swiss", "rr", "drr", "knockout"]
SetupPolicy = Literal["round", "board"]
Status = Literal["registration", "running", "closed"]

SYSTEMS: tuple[str, ...] = ("swiss", "rr", "drr")
SETUP_POLICIES: tuple[str, ...] = ("round", "board")
# Where a round's setups come from: the committed salt alone, or the salt and the digits
# drawn in the playing hall when the round is revealed (docs/shuffler.md §6).
SetupSource = Literal["salt", "hall"]
SETUP_SOURCES: tuple[str, ...] = ("salt", "hall")
# The preparation windows an organiser may choose (minutes; 0: none).
PREP_MINUTES: tuple[int, ...] = (0, 5, 10, 15)

# Canonical result codes of a played (or forfeited) game, White's score first.
WHITE_WINS, BLACK_WINS, DRAW = "1-0", "0-1", "1/2-1/2"
WHITE_FORFEIT_WIN, BLACK_FORFEIT_WIN, DOUBLE_FORFEIT = "+-", "-+", "--"
GAME_RESULTS: dict[str, tuple[Fraction, Fraction]] = {
    WHITE_WINS: (Fraction(1), Fraction(0)),
    BLACK_WINS: (Fraction(0), Fraction(1)),
    DRAW: (Fraction(1, 2), Fraction(1, 2)),
    WHITE_FORFEIT_WIN: (Fraction(1), Fraction(0)),
    BLACK_FORFEIT_WIN: (Fraction(0), Fraction(1)),
    DOUBLE_FORFEIT: (Fraction(0), Fraction(0)),
}
FORFEITS = frozenset({WHITE_FORFEIT_WIN, BLACK_FORFEIT_WIN, DOUBLE_FORFEIT})

# Byes, with the TRF-16 letters: the pairing-allocated bye (U, a win's points), a requested
# half-point bye (H), a full-point bye (F) and a zero-point bye (Z: absent, withdrawn, or a
# late entry's missed round).
PAB, HALF_BYE, FULL_BYE, ZERO_BYE = "U", "H", "F", "Z"
BYE_KINDS: dict[str, Fraction] = {
    PAB: Fraction(1),
    HALF_BYE: Fraction(1, 2),
    FULL_BYE: Fraction(1),
    ZERO_BYE: Fraction(0),
}
REQUESTABLE_BYES = (HALF_BYE, ZERO_BYE, FULL_BYE)

_RESULT_ALIASES = {
    "1-0": WHITE_WINS, "0-1": BLACK_WINS, "1/2-1/2": DRAW, "1/2": DRAW, "=": DRAW,
    "½-½": DRAW, "0.5-0.5": DRAW, "+-": WHITE_FORFEIT_WIN, "+/-": WHITE_FORFEIT_WIN,
    "1f-0f": WHITE_FORFEIT_WIN, "-+": BLACK_FORFEIT_WIN, "-/+": BLACK_FORFEIT_WIN,
    "0f-1f": BLACK_FORFEIT_WIN, "--": DOUBLE_FORFEIT, "-/-": DOUBLE_FORFEIT,
    "0f-0f": DOUBLE_FORFEIT,
}


def parse_result(text: str) -> str:
    """The canonical code of a typed result: ``1-0``, ``0-1``, ``1/2`` (or ``=``), and the
    forfeits ``+-`` (White wins by forfeit), ``-+`` and ``--`` (both lose)."""
    code = _RESULT_ALIASES.get(text.strip().lower().replace(" ", ""))
    if code is None:
        raise ResultError(
            f"unknown result {text!r}; write 1-0, 0-1, 1/2, or a forfeit +-, -+ or --",
            es=f"resultado desconocido {text!r}; escriba 1-0, 0-1, 1/2, o una incomparecencia "
               "+-, -+ o --"
        )
    return code


def check_name(text: str, what: str = "name", limit: int = 80) -> str:
    """``text`` in NFC, stripped; ``TournamentError`` if empty, too long or with controls."""
    text = unicodedata.normalize("NFC", text).strip()
    if not text:
        raise TournamentError(f"the {what} must not be empty",
                              es=f"el campo «{what}» no puede estar vacío")
    if len(text) > limit:
        raise TournamentError(f"the {what} has {len(text)} characters; at most {limit}",
                              es=f"el campo «{what}» tiene {len(text)} caracteres; como máximo "
                                 f"{limit}")
    if any(unicodedata.category(c) in ("Cc", "Cf") for c in text):
        raise TournamentError(f"the {what} must not contain control characters",
                              es=f"el campo «{what}» no puede contener caracteres de control")
    return text


@dataclass(frozen=True)
class Player:
    """A registered player.  ``number`` is the pairing number (TRF starting rank), given by
    rating order when registration closes; before that it is the registration order."""

    number: int
    name: str
    rating: int | None = None
    fide_id: str | None = None
    federation: str | None = None
    joined_round: int = 1  # late entries join from a later round
    withdrawn_round: int | None = None  # not paired from this round on


@dataclass(frozen=True)
class Board:
    """One board of one round: a game, or a bye (``black is None``, ``bye`` set)."""

    round: int
    board: int
    white: int
    black: int | None
    result: str | None = None
    bye: str | None = None
    setup: int | None = None  # setup number, None for a variant without numbered setups
    fen: str = ""  # "" while a hall event's round waits for its reveal
    game_id: str | None = None  # the online game, when played on the server

    @property
    def is_bye(self) -> bool:
        return self.black is None

    @property
    def finished(self) -> bool:
        return self.is_bye or self.result is not None

    def points(self, player: int) -> Fraction:
        if self.is_bye:
            assert self.bye is not None
            return BYE_KINDS[self.bye]
        if self.result is None:
            return Fraction(0)
        white, black = GAME_RESULTS[self.result]
        return white if player == self.white else black

    def opponent(self, player: int) -> int | None:
        if self.is_bye:
            return None
        return self.black if player == self.white else self.white

    @property
    def played(self) -> bool:
        """A game played over the board (not a bye, not a forfeit, result entered)."""
        return not self.is_bye and self.result is not None and self.result not in FORFEITS


@dataclass(frozen=True)
class Entry:
    """One player's round as tiebreaks and TRF see it."""

    round: int
    opponent: int | None  # None: no opponent (bye, absence)
    colour: str | None  # "w", "b" or None
    points: Fraction
    played: bool  # over the board
    code: str  # TRF result letter: 1 = 0 + - U H F Z


@dataclass(frozen=True)
class Event:
    id: str
    name: str
    variant: str
    system: System
    rounds: int  # planned rounds (round robin: set when registration closes)
    time_control: str
    tiebreaks: tuple[str, ...]
    setup_policy: SetupPolicy
    mini_match: bool
    exclude_standard: bool
    bishops: str
    no_repeat: bool
    commitment: str
    status: Status
    initial_colour: str = "white"
    salt: bytes | None = None  # revealed (readable) only once the event is closed
    # Only setups evaluated within ±eval_band centipawns are drawn, by the evaluation set
    # whose digest is eval_digest (randomchess.analysis.setup_eval); None: no band.
    eval_band: int | None = None
    eval_digest: str | None = None
    version: int = 0
    created_at: int = 0
    # The FIDE tie-break regulations the standings follow: "2026" (in force from 1 March
    # 2026, the default) or "2023" (the 2023/24 text); tiebreaks.EDITIONS names them.
    tiebreak_edition: str = "2026"
    setup_source: SetupSource = "salt"
    # The organiser's own exclusions (ascending), and "only from this shortlist" (None: the
    # whole variant): both part of the pool tag every derivation names.
    excluded: tuple[int, ...] = ()
    shortlist: tuple[int, ...] | None = None
    prep_minutes: int = 0  # the preparation window after a reveal (0: none)
    # The setup preview's countdown of the event's online games, seconds (0: none; None:
    # the speed's default; issue 32).
    preview_s: int | None = None


@dataclass(frozen=True)
class Reveal:
    """A round revealed in the hall: the digits typed, when (ms since the epoch), and the
    round key they gave with the salt (hex; docs/shuffler.md §6)."""

    round: int
    input: str
    at: int
    key: str


@dataclass(frozen=True)
class LogEntry:
    seq: int
    at: int
    action: str
    round: int | None
    board: int | None
    old: str | None
    new: str | None
    reason: str | None


@dataclass(frozen=True)
class Tournament:
    """A consistent snapshot of one event."""

    event: Event
    players: tuple[Player, ...]
    boards: tuple[Board, ...]
    byes: dict[tuple[int, int], str] = field(default_factory=dict)  # (round, player) -> kind
    log: tuple[LogEntry, ...] = ()
    reveals: tuple[Reveal, ...] = ()

    # --- lookups -------------------------------------------------------------------------

    def reveal_of(self, rnd: int) -> Reveal | None:
        return next((r for r in self.reveals if r.round == rnd), None)

    def awaits_reveal(self, rnd: int) -> bool:
        """Is round ``rnd`` paired in a hall event, with setups still to reveal?"""
        return self.event.setup_source == "hall" and any(
            not b.is_bye and b.fen == "" for b in self.round_boards(rnd))

    def player(self, number: int) -> Player:
        for p in self.players:
            if p.number == number:
                return p
        known = ", ".join(str(p.number) for p in self.players) or "none"
        raise UnknownPlayerError(f"no player number {number} in this event (players: {known})",
                                 es=f"no hay jugador con el número {number} en este torneo "
                                    f"(jugadores: {known})")

    @property
    def paired_rounds(self) -> int:
        return max((b.round for b in self.boards), default=0)

    @property
    def completed_rounds(self) -> int:
        """The last round whose every board has its result (standings use it by default)."""
        last = self.paired_rounds
        return last if last == 0 or self.round_complete(last) else last - 1

    def round_boards(self, rnd: int) -> list[Board]:
        return sorted((b for b in self.boards if b.round == rnd), key=lambda b: b.board)

    def round_complete(self, rnd: int) -> bool:
        boards = self.round_boards(rnd)
        return bool(boards) and all(b.finished for b in boards)

    def board(self, rnd: int, number: int) -> Board:
        for b in self.boards:
            if b.round == rnd and b.board == number:
                return b
        if rnd < 1 or rnd > self.paired_rounds:
            raise ResultError(f"round {rnd} has not been paired (paired rounds: "
                              f"{self.paired_rounds})",
                              es=f"la ronda {rnd} no está emparejada (rondas emparejadas: "
                                 f"{self.paired_rounds})")
        raise ResultError(f"round {rnd} has no board {number} "
                          f"(boards 1-{len(self.round_boards(rnd))})",
                          es=f"la ronda {rnd} no tiene tablero {number} (tableros "
                             f"1-{len(self.round_boards(rnd))})")

    def active_in(self, player: Player, rnd: int) -> bool:
        """Is ``player`` in the event in round ``rnd`` (joined, not withdrawn)?"""
        return player.joined_round <= rnd and (
            player.withdrawn_round is None or rnd < player.withdrawn_round
        )

    # --- per-player history ----------------------------------------------------------------

    def entry(self, number: int, rnd: int) -> Entry:
        """Player ``number``'s round ``rnd`` (a paired round): a board, or a zero-point bye
        when the player was not in the event that round."""
        for b in self.boards:
            if b.round != rnd or number not in (b.white, b.black):
                continue
            if b.is_bye:
                assert b.bye is not None
                return Entry(rnd, None, None, BYE_KINDS[b.bye], False, b.bye)
            colour = "w" if number == b.white else "b"
            pts = b.points(number)
            if b.result is None:
                code = "*"
            elif b.result in FORFEITS:
                code = "+" if pts else "-"
            else:
                code = {Fraction(1): "1", Fraction(1, 2): "=", Fraction(0): "0"}[pts]
            return Entry(rnd, b.opponent(number), colour, pts, b.played, code)
        return Entry(rnd, None, None, Fraction(0), False, ZERO_BYE)

    def entries(self, number: int, upto: int | None = None) -> list[Entry]:
        last = self.paired_rounds if upto is None else upto
        return [self.entry(number, r) for r in range(1, last + 1)]

    def score(self, number: int, upto: int | None = None) -> Fraction:
        return sum((e.points for e in self.entries(number, upto)), Fraction(0))

    def met(self, a: int, b: int) -> bool:
        return any({a, b} == {x.white, x.black} for x in self.boards)

    def iter_games(self) -> Iterator[Board]:
        yield from (b for b in sorted(self.boards, key=lambda b: (b.round, b.board))
                    if not b.is_bye)
