"""Knock-out events (issue 34): the bracket, its matches and their tie-breaks, as pure values
computed from the games entered so far.  docs/tournaments.md ("Knock-out events") describes
the format and docs/shuffler.md §5 the setups' derivation.

* **Bracket**: the entrants are seeds 1..n (their pairing numbers, given by rating or in the
  order of entry); the bracket has the next power of two of places, filled in the standard
  order (8 places: 1-8, 4-5, 2-7, 3-6), so that the missing places are the top seeds'
  opponents: the top seeds get the byes.  The winners of matches 2k-1 and 2k meet in match k
  of the next round.
* **Match**: N games, then the organiser's tie-break stages (each a number of games at its
  own time control), then an Armageddon game.  A stage ends as soon as one player cannot be
  caught; a stage that ends level sends the match to the next stage.  Colours alternate
  game by game from game 1, where the better seed has the event's initial colour.
* **Armageddon**: a draw counts as Black winning the match.  Fixed times (White's and
  Black's time controls), or bidding: each player bids the time they accept to take Black
  (at most the base time, White's clock); the lower bid takes Black with that time, and on
  equal bids the better seed takes Black.
* **Setups**: one per match stage (policy ``match``) or one per pair of games of a stage
  (policy ``pair``), and one for the Armageddon, numbered 1, 2, ... through the match (the
  match's *setup units*).  Unit u of match m in round R is the event's verifiable draw
  ``setup(R, 100·m + u)`` (:func:`setup_board`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from randomchess.startpos import NumberedSetup, round_setup
from randomchess.tournament import setups as event_setups
from randomchess.tournament.errors import TournamentError
from randomchess.tournament.model import (
    BLACK_FORFEIT_WIN,
    BLACK_WINS,
    DOUBLE_FORFEIT,
    DRAW,
    GAME_RESULTS,
    Event,
)

SetupUnit = Literal["match", "pair"]
Seeding = Literal["rating", "entered"]
MatchStatus = Literal["waiting", "bye", "playing", "bids", "decided"]

SETUP_UNITS: tuple[str, ...] = ("match", "pair")
SEEDINGS: tuple[str, ...] = ("rating", "entered")
MAX_GAMES = 20  # games of one stage
MAX_STAGES = 8  # tie-break stages before the Armageddon
MAX_UNITS = 99  # setup units of one match: board number 100·match + unit stays readable
MAX_PLAYERS = 256


class KnockoutError(TournamentError):
    """A knock-out step that cannot be: a game out of order, a round that cannot open yet,
    a bid out of turn."""


class FormatError(KnockoutError):
    """A malformed knock-out format: games, tie-break stages, Armageddon, setups, seeding."""


class BidError(KnockoutError):
    """A malformed Armageddon bid: not a number, negative, fractional, over the base time."""


# --- the format ------------------------------------------------------------------------------

_CONTROL = re.compile(r"[^\s;,]{1,64}")
_BASE = re.compile(r"(\d{1,5})(\+\d{1,3})?")


def _check_control(text: str, what: str) -> str:
    text = text.strip()
    if not _CONTROL.fullmatch(text):
        raise FormatError(
            f"{what}: a time control is 1-64 characters without spaces, ';' or ',' "
            f"(for example 600+5), not {text!r}",
            es=f"{what}: un ritmo de juego tiene 1-64 caracteres sin espacios, ';' ni ',' "
               f"(por ejemplo 600+5), no {text!r}")
    return text


@dataclass(frozen=True)
class Stage:
    """A stage of a match: ``games`` games at ``time_control`` (the PGN TimeControl text)."""

    games: int
    time_control: str

    @property
    def spec(self) -> str:
        return f"{self.games}:{self.time_control}"


def parse_stage(text: str) -> Stage:
    """A tie-break stage written ``GAMES:TIME_CONTROL``, for example ``2:600+5``."""
    count, sep, control = text.strip().partition(":")
    if not sep or not count.strip().isdigit():
        raise FormatError(f"a tie-break stage is GAMES:TIME_CONTROL (for example 2:600+5), "
                            f"not {text!r}",
                            es="una fase de desempate es PARTIDAS:RITMO (por ejemplo 2:600+5), "
                               f"no {text!r}")
    games = int(count)
    if not 1 <= games <= MAX_GAMES:
        raise FormatError(f"a stage has 1-{MAX_GAMES} games, not {games}",
                            es=f"una fase tiene 1-{MAX_GAMES} partidas, no {games}")
    return Stage(games, _check_control(control, "tie-break"))


@dataclass(frozen=True)
class Armageddon:
    """The last game of a tied match.  Fixed: ``white`` and ``black`` are the two sides'
    time controls.  Bidding: ``white`` is the base time control (seconds, an optional
    ``+increment``), White's clock; Black plays with the lower bid and the same increment."""

    bidding: bool
    white: str
    black: str = ""

    @property
    def spec(self) -> str:
        return f"bid:{self.white}" if self.bidding else f"fixed:{self.white},{self.black}"

    @property
    def base_seconds(self) -> int:
        m = _BASE.fullmatch(self.white)
        assert m is not None
        return int(m[1])

    def black_control(self, bid: int | None) -> str:
        """Black's time control (bidding: the winning bid with the base's increment)."""
        if not self.bidding:
            return self.black
        m = _BASE.fullmatch(self.white)
        assert m is not None and bid is not None
        return f"{bid}{m[2] or ''}"


def parse_armageddon(text: str) -> Armageddon:
    """``fixed:WHITE,BLACK`` (for example ``fixed:300,240``) or ``bid:BASE`` (for example
    ``bid:300`` or ``bid:300+2``; seconds)."""
    kind, sep, rest = text.strip().partition(":")
    base = _BASE.fullmatch(rest.strip())
    if sep and kind == "bid":
        if base is None or int(base[1]) < 1:
            raise FormatError(f"a bidding Armageddon's base time is seconds with an optional "
                                f"+increment (for example bid:300+2), not {rest!r}",
                                es="el tiempo base de un Armagedón por pujas son segundos con "
                                   f"un incremento opcional (por ejemplo bid:300+2), no {rest!r}")
        return Armageddon(True, rest.strip())
    if sep and kind == "fixed" and rest.count(",") == 1:
        white, black = rest.split(",")
        return Armageddon(False, _check_control(white, "Armageddon"),
                          _check_control(black, "Armageddon"))
    raise FormatError(f"an Armageddon is fixed:WHITE,BLACK (for example fixed:300,240) or "
                        f"bid:BASE (for example bid:300), not {text!r}",
                        es="un Armagedón es fixed:BLANCAS,NEGRAS (por ejemplo fixed:300,240) "
                           f"o bid:BASE (por ejemplo bid:300), no {text!r}")


@dataclass(frozen=True)
class Slot:
    """A game a match may need: its number in the match (from 1), its stage (0: the match
    games, 1...: the tie-break stages, the Armageddon last), its setup unit, its time
    control."""

    game: int
    stage: int
    unit: int
    time_control: str
    armageddon: bool = False


@dataclass(frozen=True)
class Format:
    """How every match of the event is played."""

    games: int
    time_control: str
    tiebreaks: tuple[Stage, ...] = ()
    armageddon: Armageddon | None = None
    setups: str = "match"
    seeding: str = "rating"

    @property
    def stages(self) -> tuple[Stage, ...]:
        return (Stage(self.games, self.time_control), *self.tiebreaks)

    def slots(self) -> tuple[Slot, ...]:
        """Every game a match can have, in order."""
        out: list[Slot] = []
        unit = 0
        for index, stage in enumerate(self.stages):
            for k in range(stage.games):
                fresh = k == 0 if self.setups == "match" else k % 2 == 0
                unit += fresh
                out.append(Slot(len(out) + 1, index, unit, stage.time_control))
        if self.armageddon is not None:
            out.append(Slot(len(out) + 1, len(self.stages), unit + 1, self.armageddon.white,
                            armageddon=True))
        return tuple(out)

    def slot(self, game: int) -> Slot:
        slots = self.slots()
        if not 1 <= game <= len(slots):
            raise KnockoutError(f"a match has games 1-{len(slots)}, not {game}",
                                es=f"un match tiene las partidas 1-{len(slots)}, no {game}")
        return slots[game - 1]


def make_format(games: int, time_control: str = "", tiebreaks: Sequence[str] = (),
                armageddon: str | None = None, setups: str = "match",
                seeding: str = "rating") -> Format:
    """The checked format: a typed error, in English and Spanish, for each bad setting."""
    if not 1 <= games <= MAX_GAMES:
        raise FormatError(f"a match has 1-{MAX_GAMES} games, not {games}",
                            es=f"un match tiene 1-{MAX_GAMES} partidas, no {games}")
    if setups not in SETUP_UNITS:
        raise FormatError(f"match setups are 'match' or 'pair', not {setups!r}",
                            es=f"las posiciones de un match son 'match' o 'pair', no {setups!r}")
    if seeding not in SEEDINGS:
        raise FormatError(f"seeding is 'rating' or 'entered', not {seeding!r}",
                            es=f"la siembra es 'rating' o 'entered', no {seeding!r}")
    if len(tiebreaks) > MAX_STAGES:
        raise FormatError(f"at most {MAX_STAGES} tie-break stages, not {len(tiebreaks)}",
                            es=f"como máximo {MAX_STAGES} fases de desempate, no "
                               f"{len(tiebreaks)}")
    if armageddon is None or not armageddon.strip():
        raise FormatError("a knock-out needs an Armageddon as its last tie-break, so that "
                            "every match has a winner (for example --armageddon bid:300)",
                            es="una eliminatoria necesita un Armagedón como último desempate, "
                               "para que todo match tenga ganador (por ejemplo --armageddon "
                               "bid:300)")
    fmt = Format(games, time_control.strip(), tuple(parse_stage(s) for s in tiebreaks),
                 parse_armageddon(armageddon), setups, seeding)
    if fmt.slots()[-1].unit > MAX_UNITS:
        raise FormatError(f"a match would need more than {MAX_UNITS} setups",
                            es=f"un match necesitaría más de {MAX_UNITS} posiciones")
    return fmt


# --- bids ------------------------------------------------------------------------------------

_NUMBER = re.compile(r"[+-]?\d+(?:\.\d*)?|[+-]?\d+:\d{2}")


def parse_bid(text: str, base_seconds: int) -> int:
    """An Armageddon bid in whole seconds (``240``) or minutes:seconds (``4:00``): at least
    0, at most the base time."""
    raw = text.strip()
    if not _NUMBER.fullmatch(raw):
        raise BidError(f"a bid is a number of seconds (240) or minutes:seconds (4:00), "
                            f"not {text!r}",
                            es="una puja es un número de segundos (240) o minutos:segundos "
                               f"(4:00), no {text!r}")
    if raw.startswith("-") and raw.strip("-0.:") != "":
        raise BidError(f"a bid cannot be negative ({raw})",
                            es=f"una puja no puede ser negativa ({raw})")
    body = raw.lstrip("+-")
    if ":" in body:
        minutes, seconds = body.split(":")
        if int(seconds) > 59:
            raise BidError(f"{raw}: the seconds run 00-59",
                                es=f"{raw}: los segundos van de 00 a 59")
        value = Fraction(int(minutes) * 60 + int(seconds))
    else:
        value = Fraction(body)
    if value.denominator != 1:
        raise BidError(f"a bid is whole seconds, not {raw}",
                            es=f"una puja son segundos enteros, no {raw}")
    if value > base_seconds:
        raise BidError(f"a bid of {value} s is over the base time of {base_seconds} s",
                            es=f"una puja de {value} s supera el tiempo base de "
                               f"{base_seconds} s")
    return int(value)


# --- the bracket -----------------------------------------------------------------------------


def bracket_size(entrants: int) -> int:
    """Places in the bracket: the power of two at or above ``entrants`` (at least 2)."""
    if not 2 <= entrants <= MAX_PLAYERS:
        raise KnockoutError(f"a knock-out has 2-{MAX_PLAYERS} players, not {entrants}",
                            es=f"una eliminatoria tiene 2-{MAX_PLAYERS} jugadores, no "
                               f"{entrants}")
    size = 2
    while size < entrants:
        size *= 2
    return size


def rounds_needed(entrants: int) -> int:
    return bracket_size(entrants).bit_length() - 1


def bracket_order(size: int) -> list[int]:
    """The seeds in bracket order: 2 -> 1 2; 4 -> 1 4 2 3; 8 -> 1 8 4 5 2 7 3 6.  Each
    seed s of the half-size order is followed by its opponent size + 1 - s."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return order


@dataclass(frozen=True)
class Game:
    """A game of a match, scheduled (no result yet) or played."""

    round: int
    match: int
    game: int
    white: int
    black: int
    result: str | None = None
    setup: int | None = None
    fen: str = ""
    time_control: str = ""
    black_time_control: str | None = None  # set when Black's clock differs (Armageddon)
    game_id: str | None = None

    @property
    def label(self) -> str:
        """The PGN Round: ``3.2`` is round 3, game 2 of the match."""
        return f"{self.round}.{self.game}"


@dataclass(frozen=True)
class Bid:
    round: int
    match: int
    player: int
    seconds: int


@dataclass(frozen=True)
class Match:
    round: int
    number: int
    top: int | None  # the better seed (a smaller number)
    bottom: int | None
    status: MatchStatus
    games: tuple[Game, ...] = ()
    bids: tuple[Bid, ...] = ()
    winner: int | None = None
    next: Slot | None = None  # the next game to play (status playing or bids)

    @property
    def loser(self) -> int | None:
        if self.winner is None or self.status == "bye":
            return None
        return self.bottom if self.winner == self.top else self.top

    def score(self, player: int) -> Fraction:
        """``player``'s points over the match's games (Armageddon included)."""
        total = Fraction(0)
        for g in self.games:
            if g.result is not None and player in (g.white, g.black):
                white, black = GAME_RESULTS[g.result]
                total += white if player == g.white else black
        return total

    def bid(self, player: int) -> Bid | None:
        return next((b for b in self.bids if b.player == player), None)


def colours(fmt: Format, slot: Slot, top: int, bottom: int, initial: str = "white",
            bids: Sequence[Bid] = ()) -> tuple[int, int]:
    """(White, Black) of ``slot``: alternating from game 1 (the better seed has the
    ``initial`` colour), a bidding Armageddon by the bids (lower bid Black; equal bids: the
    better seed Black)."""
    if slot.armageddon and fmt.armageddon is not None and fmt.armageddon.bidding:
        by = {b.player: b.seconds for b in bids}
        if top not in by or bottom not in by:
            raise KnockoutError("the Armageddon's colours wait for both players' bids",
                                es="los colores del Armagedón esperan las pujas de ambos "
                                   "jugadores")
        return (top, bottom) if by[bottom] < by[top] else (bottom, top)
    top_white = (slot.game % 2 == 1) == (initial == "white")
    return (top, bottom) if top_white else (bottom, top)


def _decide(fmt: Format, top: int, bottom: int, games: dict[int, Game]
            ) -> tuple[int | None, Slot | None]:
    """(winner, None) of a decided match, or (None, the next slot to play)."""
    slots = fmt.slots()
    for index in range(len(fmt.stages)):
        stage = [s for s in slots if s.stage == index]
        lead = Fraction(0)  # top's points minus bottom's, in this stage
        for k, slot in enumerate(stage):
            if abs(lead) > len(stage) - k:
                break
            game = games.get(slot.game)
            if game is None or game.result is None:
                return None, slot
            white, black = GAME_RESULTS[game.result]
            lead += (white - black) if game.white == top else (black - white)
        if lead:
            return (top if lead > 0 else bottom), None
    last = slots[-1]
    game = games.get(last.game)
    if not last.armageddon or game is None or game.result is None:
        return None, last if last.armageddon else None
    # Armageddon: a draw counts as Black winning the match
    return (game.black if game.result in (BLACK_WINS, BLACK_FORFEIT_WIN, DRAW)
            else game.white), None


def _match(fmt: Format, rnd: int, number: int, pair: tuple[int | None, int | None],
           games: Sequence[Game], bids: Sequence[Bid]) -> Match:
    known = sorted(p for p in pair if p is not None)
    if rnd == 1 and len(known) == 1:
        return Match(rnd, number, known[0], None, "bye", winner=known[0])
    if len(known) < 2:
        return Match(rnd, number, known[0] if known else None, None, "waiting")
    top, bottom = known
    winner, slot = _decide(fmt, top, bottom, {g.game: g for g in games})
    status: MatchStatus = "decided" if winner is not None else "playing"
    if slot is not None and slot.armageddon and fmt.armageddon is not None \
            and fmt.armageddon.bidding and len(bids) < 2:
        status = "bids"
    return Match(rnd, number, top, bottom, status, tuple(games), tuple(bids), winner, slot)


@dataclass(frozen=True)
class Bracket:
    format: Format
    entrants: int
    rounds: tuple[tuple[Match, ...], ...]

    @property
    def size(self) -> int:
        return bracket_size(self.entrants)

    @property
    def champion(self) -> int | None:
        return self.rounds[-1][0].winner

    def match(self, rnd: int, number: int) -> Match:
        if not 1 <= rnd <= len(self.rounds):
            raise KnockoutError(f"the bracket has rounds 1-{len(self.rounds)}, not {rnd}",
                                es=f"el cuadro tiene las rondas 1-{len(self.rounds)}, no {rnd}")
        matches = self.rounds[rnd - 1]
        if not 1 <= number <= len(matches):
            raise KnockoutError(f"round {rnd} has matches 1-{len(matches)}, not {number}",
                                es=f"la ronda {rnd} tiene los matches 1-{len(matches)}, no "
                                   f"{number}")
        return matches[number - 1]

    def undecided(self, rnd: int) -> list[Match]:
        return [m for m in self.rounds[rnd - 1] if m.winner is None]

    def games(self) -> list[Game]:
        return [g for row in self.rounds for m in row for g in m.games]


def build(fmt: Format, entrants: int, games: Iterable[Game] = (),
          bids: Iterable[Bid] = ()) -> Bracket:
    """The bracket of ``entrants`` seeds (players 1..entrants) after ``games``."""
    size = bracket_size(entrants)
    order = [s if s <= entrants else None for s in bracket_order(size)]
    pairs: list[tuple[int | None, int | None]] = list(zip(order[::2], order[1::2], strict=True))
    by_match: dict[tuple[int, int], list[Game]] = {}
    for g in sorted(games, key=lambda g: (g.round, g.match, g.game)):
        by_match.setdefault((g.round, g.match), []).append(g)
    bid_map: dict[tuple[int, int], list[Bid]] = {}
    for b in bids:
        bid_map.setdefault((b.round, b.match), []).append(b)
    rounds: list[tuple[Match, ...]] = []
    for rnd in range(1, rounds_needed(entrants) + 1):
        row = tuple(_match(fmt, rnd, m, pair, by_match.get((rnd, m), []),
                           bid_map.get((rnd, m), []))
                    for m, pair in enumerate(pairs, 1))
        rounds.append(row)
        pairs = [(row[k].winner, row[k + 1].winner) for k in range(0, len(row) - 1, 2)]
    return Bracket(fmt, entrants, tuple(rounds))


def check_result(match: Match, game: int, result: str) -> Slot:
    """The slot of ``game`` when ``result`` can be entered for it now (the match's next
    game, its players known, its bids in); a typed error otherwise."""
    where = f"round {match.round} match {match.number}"
    donde = f"ronda {match.round} match {match.number}"
    if match.status in ("decided", "bye"):
        raise KnockoutError(f"{where} is decided already: no more games",
                            es=f"el {donde} ya está decidido: no hay más partidas")
    if match.status == "waiting":
        raise KnockoutError(f"{where} waits for its players (earlier matches undecided)",
                            es=f"el {donde} espera a sus jugadores (matches anteriores sin "
                               "decidir)")
    assert match.next is not None
    if game != match.next.game:
        raise KnockoutError(f"{where} plays game {match.next.game} next, not game {game}",
                            es=f"el {donde} juega ahora la partida {match.next.game}, no la "
                               f"{game}")
    if match.status == "bids":
        raise KnockoutError(f"{where}: the Armageddon waits for both players' bids",
                            es=f"{donde}: el Armagedón espera las pujas de ambos jugadores")
    if match.next.armageddon and result == DOUBLE_FORFEIT:
        raise KnockoutError("an Armageddon needs a winner: a double forfeit decides nothing",
                            es="un Armagedón necesita ganador: una doble incomparecencia no "
                               "decide nada")
    return match.next


# --- setups ----------------------------------------------------------------------------------


def setup_board(match: int, unit: int) -> int:
    """The board number of the verifiable draw that gives setup ``unit`` of ``match``."""
    return 100 * match + unit


def derive_setup(event: Event, salt: bytes, rnd: int, match: int, unit: int,
                 used: Iterable[int] = ()) -> NumberedSetup | None:
    """Setup ``unit`` of match ``match`` in round ``rnd``: the event's verifiable draw
    ``setup(rnd, 100·match + unit)`` from its pool (``used``: the setups the pool leaves out
    when the event has no repeats).  None for a variant without numbered setups."""
    if not event_setups.is_numbered(event.variant):
        return None
    pool = event_setups.pool_for(event, used)
    return round_setup(salt, event.name, rnd, setup_board(match, unit), pool)


def used_before(games: Iterable[Game], rnd: int, match: int, unit_of: dict[int, int],
                unit: int) -> list[int]:
    """The setups a no-repeat event has used before unit ``unit`` of match ``match``: every
    game of earlier rounds, and this match's earlier units (``unit_of``: game -> unit)."""
    out: list[int] = []
    for g in sorted(games, key=lambda g: (g.round, g.match, g.game)):
        earlier = g.round < rnd or (g.round == rnd and g.match == match
                                    and unit_of.get(g.game, 0) < unit)
        if earlier and g.setup is not None and g.setup not in out:
            out.append(g.setup)
    return out
