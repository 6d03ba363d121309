"""Durable knock-out events (issue 34): the steps of :mod:`randomchess.tournament.knockout`
on the tournament store, each one transaction of :class:`TournamentStore` (so results and
bids survive ``kill -9`` as soon as the call returns).

``create`` -> ``add_player`` (the store's) ... -> ``start`` (seeds) -> (``open_round`` ->
``set_result`` / ``set_bid`` ...) x rounds -> ``close`` (the salt revealed) -> ``verify``.
A game's row is written when the game is due: its colours, setup and clock are then known
(an Armageddon by bidding once both bids are in); its result fills it later.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from randomchess.db import now_ms, schema, snapshot
from randomchess.startpos import verify_commitment
from randomchess.tournament import setups as event_setups
from randomchess.tournament.errors import (
    EventClosedError,
    RegistrationError,
    TournamentError,
    VerificationError,
)
from randomchess.tournament.knockout import (
    Bid,
    Bracket,
    Format,
    Game,
    KnockoutError,
    Match,
    build,
    check_result,
    colours,
    derive_setup,
    make_format,
    parse_bid,
    rounds_needed,
    used_before,
)
from randomchess.tournament.knockout_groups import Qualifier, qualifiers
from randomchess.tournament.model import GAME_RESULTS, Event, Tournament, parse_result
from randomchess.tournament.store import Created, TournamentStore, Verification

formats_t = schema.knockout_formats
games_t = schema.knockout_games
bids_t = schema.knockout_bids
players_t = schema.tournament_players
events_t = schema.tournaments


@dataclass(frozen=True)
class KnockoutEvent:
    """A consistent snapshot of a knock-out event: the event and its players, the format,
    the games written so far and the bids."""

    tournament: Tournament
    format: Format
    games: tuple[Game, ...]
    bids: tuple[Bid, ...]

    @property
    def event(self) -> Event:
        return self.tournament.event

    @property
    def started(self) -> bool:
        return self.event.status != "registration"

    @property
    def opened(self) -> int:
        """The rounds opened so far."""
        return max((g.round for g in self.games), default=0)

    @cached_property
    def bracket(self) -> Bracket:
        if not self.started:
            raise RegistrationError("the bracket is drawn when registration closes (start)",
                                    es="el cuadro se forma al cerrar la inscripción (inicio)")
        return build(self.format, len(self.tournament.players), self.games, self.bids)

    def name(self, player: int | None) -> str:
        return "?" if player is None else self.tournament.player(player).name


def _format(row: object) -> Format:
    r = row._mapping  # type: ignore[attr-defined]
    stages = [s for s in str(r["tiebreaks"]).split(";") if s]
    return make_format(int(r["games"]), "", stages, str(r["armageddon"]), str(r["setups"]),
                       str(r["seeding"]))


def read(conn: Connection, t: Tournament) -> KnockoutEvent:
    """The knock-out snapshot of ``t`` (read on ``conn``)."""
    eid = t.event.id
    row = conn.execute(select(formats_t).where(formats_t.c.tournament_id == eid)).first()
    if t.event.system != "knockout" or row is None:
        raise KnockoutError(f"{t.event.name!r} is not a knock-out event",
                            es=f"{t.event.name!r} no es una eliminatoria")
    fmt = _format(row)
    fmt = Format(fmt.games, t.event.time_control, fmt.tiebreaks, fmt.armageddon, fmt.setups,
                 fmt.seeding)
    games = tuple(
        Game(r.round, r.match, r.game, r.white, r.black, r.result, r.setup, r.fen,
             r.time_control, r.black_time_control, r.game_id)
        for r in conn.execute(select(games_t).where(games_t.c.tournament_id == eid)
                              .order_by(games_t.c.round, games_t.c.match, games_t.c.game)))
    bids = tuple(Bid(r.round, r.match, r.player, r.seconds)
                 for r in conn.execute(select(bids_t).where(bids_t.c.tournament_id == eid)
                                       .order_by(bids_t.c.round, bids_t.c.match, bids_t.c.at)))
    return KnockoutEvent(t, fmt, games, bids)


def _where(eid: str, rnd: int, match: int, game: int) -> tuple[ColumnElement[bool], ...]:
    return (games_t.c.tournament_id == eid, games_t.c.round == rnd, games_t.c.match == match,
            games_t.c.game == game)


class KnockoutStore:
    """The knock-out steps on a :class:`TournamentStore` (its database and transactions)."""

    def __init__(self, store: TournamentStore) -> None:
        self.store = store

    def create(self, name: str, games: int, tiebreaks: Sequence[str] = (),
               armageddon: str | None = None, setups: str = "match",
               seeding: str = "rating", **options: object) -> Created:
        """A knock-out event in registration; ``options`` are the store's ``create``
        settings (variant, time_control, exclude_standard, bishops, no_repeat,
        initial_colour, organiser, salt, eval_band)."""
        fmt = make_format(games, "", tiebreaks, armageddon, setups, seeding)
        return self.store.create(name, knockout=fmt, **options)  # type: ignore[arg-type]

    def from_groups(self, groups: Sequence[str], top: int, name: str, games: int,
                    tiebreaks: Sequence[str] = (), armageddon: str | None = None,
                    setups: str = "match", **options: object
                    ) -> tuple[Created, list[Qualifier]]:
        """A knock-out event seeded by the top ``top`` places of each closed Swiss or
        round-robin event of ``groups`` (ids or names), by their standings and tiebreaks
        (:func:`randomchess.tournament.knockout_groups.qualifiers`): its players entered in
        seed order (seeding ``entered``), the groups and places logged.  The event is left in
        registration, as any new event: ``start`` draws the bracket.  The variant is the
        first group's unless ``options`` give one."""
        sources = [self.store.load(self.store.resolve(g)) for g in groups]
        seeds = qualifiers(sources, top)
        make_format(games, "", tiebreaks, armageddon, setups, "entered")  # checked first
        if sources:
            options.setdefault("variant", sources[0].event.variant)
        created = self.create(name, games, tiebreaks, armageddon, setups, "entered",
                              **options)
        eid = created.event.id

        def step(conn: Connection, t: Tournament) -> None:
            for number, q in enumerate(seeds, 1):
                p = q.player
                conn.execute(insert(players_t).values(
                    tournament_id=eid, number=number, name=p.name, rating=p.rating,
                    fide_id=p.fide_id, federation=p.federation, joined_round=1,
                    withdrawn_round=None))
                self.store._log(conn, eid, "qualified", new=f"{number} {p.name}"[:64],
                                reason=f"{q.event} place {q.place} ({sources[q.group].event.id})")

        self.store._step(eid, step)
        return created, seeds

    def load(self, event_id: str, reveal: bool = False) -> KnockoutEvent:
        """A consistent snapshot (all its statements read one state of the database)."""
        with snapshot(self.store.engine) as conn:
            t = self.store._load(conn, event_id, reveal)
            return read(conn, t)

    def start(self, event_id: str) -> KnockoutEvent:
        """Close registration: seeds 1..n by rating (then name) or in the order of entry,
        and the bracket's rounds."""

        def step(conn: Connection, t: Tournament) -> None:
            ko = read(conn, t)
            if t.event.status != "registration":
                raise RegistrationError("registration is closed already",
                                        es="la inscripción ya está cerrada")
            rounds_needed(len(t.players))  # 2-256 players
            order = sorted(t.players, key=lambda p: p.number)
            if ko.format.seeding == "rating":
                order.sort(key=lambda p: (-(p.rating or 0), p.name.casefold(), p.number))
            conn.execute(delete(players_t).where(players_t.c.tournament_id == event_id))
            for seed, p in enumerate(order, 1):
                conn.execute(insert(players_t).values(
                    tournament_id=event_id, number=seed, name=p.name, rating=p.rating,
                    fide_id=p.fide_id, federation=p.federation, joined_round=1,
                    withdrawn_round=None))
            conn.execute(update(events_t).where(events_t.c.id == event_id).values(
                status="running", rounds=rounds_needed(len(t.players))))
            self.store._log(conn, event_id, "start", new=f"{len(t.players)} players")

        self.store._step(event_id, step)
        return self.load(event_id)

    def open_round(self, event_id: str) -> int:
        """Open the next round of the bracket (every match of the round before decided):
        each match's first game is written with its setup.  The round's number."""

        def step(conn: Connection, t: Tournament) -> int:
            ko = read(conn, t)
            if t.event.status != "running":
                raise RegistrationError("registration is still open: start the event first",
                                        es="la inscripción sigue abierta: inicie antes el "
                                           "torneo")
            rnd = ko.opened + 1
            if rnd > t.event.rounds:
                raise KnockoutError(f"all {t.event.rounds} rounds of the bracket are open",
                                    es=f"las {t.event.rounds} rondas del cuadro están "
                                       "abiertas")
            if rnd > 1:
                _check_decided(ko, rnd - 1)
            for m in ko.bracket.rounds[rnd - 1]:
                self._schedule(conn, ko, m)
            self.store._log(conn, event_id, "ko-open", rnd)
            return rnd

        return self.store._step(event_id, step)

    def _schedule(self, conn: Connection, ko: KnockoutEvent, m: Match) -> Game | None:
        """Write the match's next game when it is due and not written yet."""
        if m.status != "playing" or m.next is None or m.top is None or m.bottom is None:
            return None
        if any(g.game == m.next.game for g in m.games):
            return None
        e = ko.event
        assert e.salt is not None
        white, black = colours(ko.format, m.next, m.top, m.bottom, e.initial_colour, m.bids)
        unit_of = {s.game: s.unit for s in ko.format.slots()}
        used = used_before(ko.games, m.round, m.number, unit_of, m.next.unit) \
            if e.no_repeat else []
        setup = derive_setup(e, e.salt, m.round, m.number, m.next.unit, used)
        black_tc = None
        if m.next.armageddon and ko.format.armageddon is not None:
            bid = m.bid(black)
            black_tc = ko.format.armageddon.black_control(None if bid is None else bid.seconds)
        game = Game(m.round, m.number, m.next.game, white, black,
                    setup=None if setup is None else setup.number,
                    fen=event_setups.start_fen(e, setup), time_control=m.next.time_control,
                    black_time_control=black_tc)
        conn.execute(insert(games_t).values(
            tournament_id=e.id, round=game.round, match=game.match, game=game.game,
            white=white, black=black, result=None, setup=game.setup, fen=game.fen,
            time_control=game.time_control, black_time_control=black_tc, game_id=None))
        return game

    def set_result(self, event_id: str, rnd: int, match: int, game: int,
                   result: str) -> Match:
        """Enter the result of the match's next game; the match's following game is
        written when due, and a decided match sends its winner on.  The match after it."""
        code = parse_result(result)

        def step(conn: Connection, t: Tournament) -> Match:
            ko = read(conn, t)
            _check_open(ko, rnd)
            check_result(ko.bracket.match(rnd, match), game, code)
            conn.execute(update(games_t).where(*_where(event_id, rnd, match, game))
                         .values(result=code))
            self.store._log(conn, event_id, "ko-result", rnd, match, None, f"{game} {code}")
            ko = read(conn, t)
            self._schedule(conn, ko, ko.bracket.match(rnd, match))
            return read(conn, t).bracket.match(rnd, match)

        return self.store._step(event_id, step)

    def set_bid(self, event_id: str, rnd: int, match: int, player: int, bid: str) -> Bid:
        """Record a player's Armageddon bid (the time accepted to take Black), final; with
        both bids in, the Armageddon is written with its colours and clocks."""

        def step(conn: Connection, t: Tournament) -> Bid:
            ko = read(conn, t)
            _check_open(ko, rnd)
            arm = ko.format.armageddon
            if arm is None or not arm.bidding:
                raise KnockoutError("this event's Armageddon has fixed times: no bids",
                                    es="el Armagedón de este torneo tiene tiempos fijos: sin "
                                       "pujas")
            m = ko.bracket.match(rnd, match)
            _check_bidder(ko, m, player)
            seconds = parse_bid(bid, arm.base_seconds)
            conn.execute(insert(bids_t).values(tournament_id=event_id, round=rnd,
                                               match=match, player=player, seconds=seconds,
                                               at=now_ms()))
            self.store._log(conn, event_id, "ko-bid", rnd, match, None,
                            f"{player} {seconds}")
            ko = read(conn, t)
            self._schedule(conn, ko, ko.bracket.match(rnd, match))
            return Bid(rnd, match, player, seconds)

        return self.store._step(event_id, step)

    # --- online games (issue 34): a match's games played on the server -----------------------

    def link_game(self, event_id: str, rnd: int, match: int, game: int, game_id: str) -> None:
        """Attach the server game ``game_id`` to a written game without a result (the match's
        next game)."""

        def step(conn: Connection, t: Tournament) -> None:
            ko = read(conn, t)
            _check_open(ko, rnd)
            g = next((g for g in ko.games if (g.round, g.match, g.game) == (rnd, match, game)),
                     None)
            if g is None or g.result is not None or g.game_id is not None:
                raise KnockoutError(f"round {rnd} match {match} game {game} cannot start an "
                                    "online game",
                                    es=f"la partida {game} del match {match} de la ronda {rnd} "
                                       "no puede empezar en línea")
            conn.execute(update(games_t).where(*_where(event_id, rnd, match, game))
                         .values(game_id=game_id))
            self.store._log(conn, event_id, "online", rnd, match, None,
                            f"{game} {game_id}"[:64])

        self.store._step(event_id, step)

    @staticmethod
    def _ended_online(conn: Connection, event_id: str) -> list[tuple[int, int, int, str, str]]:
        """(round, match, game, game id, the server game's result) of the games whose online
        game has ended and whose result is not recorded yet."""
        server = schema.games
        rows = conn.execute(
            select(games_t.c.round, games_t.c.match, games_t.c.game, games_t.c.game_id,
                   server.c.result)
            .join(server, server.c.id == games_t.c.game_id)
            .where(games_t.c.tournament_id == event_id, games_t.c.result.is_(None),
                   server.c.status == "ended")
            .order_by(games_t.c.round, games_t.c.match, games_t.c.game)).all()
        return [(int(r[0]), int(r[1]), int(r[2]), str(r[3]), str(r[4] or "*")) for r in rows]

    def sync_online(self, event_id: str) -> int:
        """Games whose online game has ended take its result, final, and the match goes on
        (its next game written when due, a decided match's winner in the next round); a
        game whose online game was aborted is freed, to be opened online again.  One step;
        the number of games changed.  Writes nothing when there is nothing to record."""
        with self.store.engine.connect() as conn:
            if not self._ended_online(conn, event_id):
                return 0

        def step(conn: Connection, t: Tournament) -> int:
            ended = self._ended_online(conn, event_id)
            for rnd, match, game, game_id, result in ended:
                if result in GAME_RESULTS:
                    conn.execute(update(games_t).where(*_where(event_id, rnd, match, game))
                                 .values(result=result))
                    self.store._log(conn, event_id, "online-result", rnd, match, None,
                                    f"{game} {result}", f"game {game_id}")
                    ko = read(conn, t)
                    self._schedule(conn, ko, ko.bracket.match(rnd, match))
                else:
                    conn.execute(update(games_t).where(*_where(event_id, rnd, match, game))
                                 .values(game_id=None))
                    self.store._log(conn, event_id, "online-aborted", rnd, match, game_id,
                                    None, f"game {game_id} ended without a result")
            return len(ended)

        try:
            return self.store._step(event_id, step)
        except EventClosedError:
            return 0

    def close(self, event_id: str) -> KnockoutEvent:
        """Close the event once the final is decided, and reveal the salt."""

        def step(conn: Connection, t: Tournament) -> None:
            ko = read(conn, t)
            if t.event.status != "running":
                raise RegistrationError("the event has not started",
                                        es="el torneo no ha empezado")
            _check_decided(ko, len(ko.bracket.rounds))
            conn.execute(update(events_t).where(events_t.c.id == event_id)
                         .values(status="closed", closed_at=now_ms()))
            assert t.event.salt is not None
            self.store._log(conn, event_id, "close", new=t.event.salt.hex())

        self.store._step(event_id, step)
        return self.load(event_id)


def _check_open(ko: KnockoutEvent, rnd: int) -> None:
    if ko.event.status == "closed":
        raise EventClosedError(f"event {ko.event.name!r} is closed: nothing changes now",
                               es=f"el torneo {ko.event.name!r} está cerrado: ya no cambia "
                                  "nada")
    if not 1 <= rnd <= ko.opened:
        raise KnockoutError(f"round {rnd} of the bracket is not open (open rounds: "
                            f"{ko.opened})",
                            es=f"la ronda {rnd} del cuadro no está abierta (rondas abiertas: "
                               f"{ko.opened})")


def _check_decided(ko: KnockoutEvent, rnd: int) -> None:
    """A typed error naming the undecided matches of round ``rnd``, if any."""
    if rnd > ko.opened:
        raise KnockoutError(f"round {rnd} of the bracket has not been opened",
                            es=f"la ronda {rnd} del cuadro no se ha abierto")
    undecided = ko.bracket.undecided(rnd)
    if undecided:
        names = ", ".join(f"{m.number} ({ko.name(m.top)} - {ko.name(m.bottom)})"
                          for m in undecided)
        raise KnockoutError(f"the bracket cannot advance: round {rnd} has undecided "
                            f"match(es) {names}",
                            es=f"el cuadro no puede avanzar: la ronda {rnd} tiene match(es) "
                               f"sin decidir {names}")


def _check_bidder(ko: KnockoutEvent, m: Match, player: int) -> None:
    where = f"round {m.round} match {m.number}"
    donde = f"ronda {m.round} match {m.number}"
    if player not in (m.top, m.bottom) or m.status in ("waiting", "bye"):
        raise KnockoutError(f"player {player} does not play {where}",
                            es=f"el jugador {player} no juega el {donde}")
    if m.bid(player) is not None:
        raise KnockoutError(f"{ko.name(player)} has bid already in {where}: a bid is final",
                            es=f"{ko.name(player)} ya ha pujado en el {donde}: una puja es "
                               "definitiva")
    if m.status != "bids":
        raise KnockoutError(f"{where} is not at its Armageddon: bids are made when the "
                            "tie-breaks end level",
                            es=f"el {donde} no está en su Armagedón: se puja cuando los "
                               "desempates acaban igualados")


def verify(ko: KnockoutEvent, lang: str = "en") -> Verification:
    """Re-derive every game's setup from the revealed salt (closed events only): the
    numbers per round in game order, and the mismatches in ``lang``."""
    e = ko.event
    if e.salt is None:
        raise VerificationError("the salt is revealed when the event is closed; "
                                "verify afterwards",
                                es="la sal se revela al cerrar el torneo; verifique después")
    try:
        verify_commitment(e.salt, e.name, e.commitment)
    except ValueError as exc:
        raise VerificationError(
            str(exc), es="el compromiso no coincide: esta sal y este nombre del torneo no dan "
                         f"el compromiso publicado ({exc})") from exc
    unit_of = {s.game: s.unit for s in ko.format.slots()}
    rounds: list[list[int | None]] = [[] for _ in range(ko.opened)]
    mismatches: list[str] = []
    for g in ko.games:
        unit = unit_of[g.game]
        used = used_before(ko.games, g.round, g.match, unit_of, unit) if e.no_repeat else []
        s = derive_setup(e, e.salt, g.round, g.match, unit, used)
        number = None if s is None else s.number
        rounds[g.round - 1].append(number)
        if g.setup != number or g.fen != event_setups.start_fen(e, s):
            mismatches.append(
                f"ronda {g.label} match {g.match}: guardada {g.setup}, obtenida {number}"
                if lang == "es" else
                f"round {g.label} match {g.match}: stored {g.setup}, derived {number}")
    return Verification(True, rounds, mismatches)


__all__ = ["KnockoutEvent", "KnockoutStore", "TournamentError", "read", "verify"]
