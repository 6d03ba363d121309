"""Durable tournaments: every step of the arbiter's workflow is one database transaction.

A step starts with ``UPDATE tournaments SET version = version + 1`` (the write lock on
SQLite, the event row's lock on PostgreSQL), reads a consistent
:class:`~randomchess.tournament.model.Tournament` snapshot, validates the request against
it (a typed error, and the transaction rolled back, when it is wrong) and commits its rows:
two steps on one event never interleave.
SQLite runs with ``synchronous=FULL`` (the server's engine settings), so a step whose call
has returned survives ``kill -9`` and a power cut.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from randomchess.db import make_engine, migrate, now_ms, schema, snapshot
from randomchess.san import Language
from randomchess.scoresheet import ScoresheetError, split_pgn
from randomchess.startpos import (
    HALL_MAX_DIGITS,
    HALL_MIN_DIGITS,
    HallInputError,
    SetupNumberError,
    SetupPool,
    SetupPoolError,
    new_salt,
    parse_hall_input,
    setup_count,
    setup_from_number,
    verify_commitment,
)
from randomchess.startpos import commitment as make_commitment
from randomchess.tournament import berger, openings, otb, setups, staff

if TYPE_CHECKING:  # the analysis package loads with a review only
    from randomchess.analysis.review import Review

from randomchess.tournament.errors import (
    CorrectionError,
    EventClosedError,
    GameEntryError,
    GameExistsError,
    PairingError,
    PreparationError,
    RegistrationError,
    ResultError,
    RevealError,
    TournamentError,
    UnknownEventError,
    VerificationError,
)
from randomchess.tournament.knockout import Format as KnockoutFormat
from randomchess.tournament.model import (
    BYE_KINDS,
    FORFEITS,
    GAME_RESULTS,
    PAB,
    PREP_MINUTES,
    REQUESTABLE_BYES,
    SETUP_POLICIES,
    SETUP_SOURCES,
    SYSTEMS,
    ZERO_BYE,
    Board,
    Event,
    LogEntry,
    Player,
    Reveal,
    Tournament,
    check_name,
    parse_result,
)
from randomchess.tournament.openings import PlannedGame
from randomchess.tournament.swiss import pair_dutch
from randomchess.tournament.tiebreaks import (
    DEFAULT_EDITION,
    DEFAULT_ROUND_ROBIN,
    DEFAULT_SWISS,
    EDITIONS,
    parse_tiebreaks,
)
from randomchess.variants import Variant, get_variant

boards_t = schema.tournament_boards
byes_t = schema.tournament_byes
events_t = schema.tournaments
log_t = schema.tournament_log
games_t = schema.tournament_games
players_t = schema.tournament_players
reveals_t = schema.tournament_reveals

T = TypeVar("T")


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Created:
    event: Event
    organiser_secret: str | None


@dataclass(frozen=True)
class Verification:
    commitment_ok: bool
    rounds: list[list[int | None]]  # re-derived setup number per board
    mismatches: list[str]


class TournamentStore:
    """The tournament workflow on one database (SQLite file or PostgreSQL)."""

    def __init__(self, engine: Engine | str) -> None:
        if isinstance(engine, str):
            engine = make_engine(engine)
            self._owned = True
        else:
            self._owned = False
        self.engine = engine

    def migrate(self) -> None:
        migrate(self.engine)

    def dispose(self) -> None:
        if self._owned:
            self.engine.dispose()

    # --- reading ---------------------------------------------------------------------------

    def events(self) -> list[Event]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(events_t).order_by(events_t.c.created_at)).all()
        return [_event(r._mapping, reveal=False) for r in rows]

    def resolve(self, key: str) -> str:
        """The id of the event whose id or exact name is ``key``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(events_t.c.id).where(events_t.c.id == key)).first()
            if row is not None:
                return str(row[0])
            rows = conn.execute(select(events_t.c.id).where(events_t.c.name == key)).all()
        if len(rows) == 1:
            return str(rows[0][0])
        if rows:
            raise UnknownEventError(f"{len(rows)} events are named {key!r}; use the event id",
                                    es=f"{len(rows)} torneos se llaman {key!r}; use el id del "
                                       "torneo")
        raise UnknownEventError(f"no event with id or name {key!r}",
                                es=f"no hay ningún torneo con id o nombre {key!r}")

    def load(self, event_id: str, reveal: bool = False) -> Tournament:
        """A snapshot (its statements read one state of the database); the salt is included
        only once the event is closed (or ``reveal``)."""
        with snapshot(self.engine) as conn:
            return self._load(conn, event_id, reveal)

    def _load(self, conn: Connection, event_id: str, reveal: bool) -> Tournament:
        row = conn.execute(select(events_t).where(events_t.c.id == event_id)).first()
        if row is None:
            raise UnknownEventError(f"no event with id {event_id!r}",
                                    es=f"no hay ningún torneo con id {event_id!r}")
        event = _event(row._mapping, reveal)
        players = tuple(
            Player(r.number, r.name, r.rating, r.fide_id, r.federation, r.joined_round,
                   r.withdrawn_round)
            for r in conn.execute(select(players_t).where(players_t.c.tournament_id == event_id)
                                  .order_by(players_t.c.number))
        )
        boards = tuple(
            Board(r.round, r.board, r.white, r.black, r.result, r.bye, r.setup, r.fen,
                  r.game_id)
            for r in conn.execute(select(boards_t).where(boards_t.c.tournament_id == event_id)
                                  .order_by(boards_t.c.round, boards_t.c.board))
        )
        requested = {
            (r.round, r.player): r.kind
            for r in conn.execute(select(byes_t).where(byes_t.c.tournament_id == event_id))
        }
        log = tuple(
            LogEntry(r.id, r.at, r.action, r.round, r.board, r.old, r.new, r.reason)
            for r in conn.execute(select(log_t).where(log_t.c.tournament_id == event_id)
                                  .order_by(log_t.c.id))
        )
        reveals = tuple(
            Reveal(r.round, r.input, r.at, r.key)
            for r in conn.execute(select(reveals_t).where(reveals_t.c.tournament_id == event_id)
                                  .order_by(reveals_t.c.round))
        )
        return Tournament(event, players, boards, requested, log, reveals)

    def check_organiser(self, event_id: str, secret: str) -> bool:
        with self.engine.connect() as conn:
            row = conn.execute(select(events_t.c.organiser_hash)
                               .where(events_t.c.id == event_id)).first()
        if row is None or row[0] is None:
            return False
        return hmac.compare_digest(str(row[0]), secret_hash(secret))

    # --- writing ---------------------------------------------------------------------------

    def _step(self, event_id: str, fn: Callable[[Connection, Tournament], T],
              allow_closed: bool = False) -> T:
        """Run one workflow step in one transaction.  Its first statement bumps the event's
        version, which takes the write lock (SQLite) or the event row's lock (PostgreSQL):
        steps on one event run one after the other, each on a fresh snapshot, and a step
        that raises leaves nothing behind."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(events_t).where(events_t.c.id == event_id)
                .values(version=events_t.c.version + 1)
            ).rowcount
            if done != 1:
                raise UnknownEventError(f"no event with id {event_id!r}",
                                        es=f"no hay ningún torneo con id {event_id!r}")
            t = self._load(conn, event_id, reveal=True)
            if t.event.status == "closed" and not allow_closed:
                raise EventClosedError(f"event {t.event.name!r} is closed: nothing changes now",
                                       es=f"el torneo {t.event.name!r} está cerrado: ya no "
                                          "cambia nada")
            return fn(conn, t)

    @staticmethod
    def _log(conn: Connection, event_id: str, action: str, rnd: int | None = None,
             board: int | None = None, old: str | None = None, new: str | None = None,
             reason: str | None = None) -> None:
        conn.execute(insert(log_t).values(tournament_id=event_id, at=now_ms(), action=action,
                                          round=rnd, board=board, old=old, new=new,
                                          reason=reason))

    def create(
        self,
        name: str,
        variant: str = "chess960",
        system: str = "swiss",
        rounds: int | None = None,
        time_control: str = "",
        tiebreaks: str | Sequence[str] | None = None,
        setup_policy: str = "round",
        mini_match: bool = False,
        exclude_standard: bool = False,
        bishops: str = "any",
        no_repeat: bool = False,
        initial_colour: str = "white",
        organiser: bool = False,
        salt: bytes | None = None,
        eval_band: int | None = None,
        tiebreak_edition: str = DEFAULT_EDITION,
        setup_source: str = "salt",
        excluded: Sequence[int] = (),
        shortlist: Sequence[int] | None = None,
        prep_minutes: int = 0,
        preview_s: int | None = None,
        owner: int | None = None,
        knockout: KnockoutFormat | None = None,
    ) -> Created:
        """A new event in registration, committed to a fresh secret salt; ``owner``: the
        account (users.id) that organises it (issue 30); a knock-out event with its
        ``knockout`` format (randomchess.tournament.knockout_store)."""
        name = check_name(name, "event name", 120)
        v = _checked_variant(variant)
        if knockout is not None:  # its pool and colour settings are checked as a Swiss's
            _check_format(v, "swiss", setup_policy, bishops, initial_colour, 1, False,
                          tiebreak_edition)
            system, rounds = "knockout", None
        else:
            _check_format(v, system, setup_policy, bishops, initial_colour, rounds,
                          mini_match, tiebreak_edition)
        _check_hall(v, setup_source, prep_minutes, system)
        _check_preview(preview_s)
        excluded, shortlist = _check_pool(v, exclude_standard, bishops, no_repeat, rounds,
                                          excluded, shortlist)
        codes = parse_tiebreaks(tiebreaks) if tiebreaks is not None else (
            () if knockout else DEFAULT_SWISS if system == "swiss" else DEFAULT_ROUND_ROBIN)
        time_control = time_control.strip()
        if len(time_control) > 64:
            raise TournamentError("the time control has more than 64 characters",
                                  es="el ritmo de juego tiene más de 64 caracteres")
        eval_digest = _band_digest(v, eval_band, exclude_standard, bishops, no_repeat, rounds,
                                   excluded, shortlist)
        salt = new_salt() if salt is None else salt
        commitment = make_commitment(salt, name)
        secret = secrets.token_urlsafe(24) if organiser else None
        event_id = secrets.token_hex(5)
        created = now_ms()
        with self.engine.begin() as conn:
            conn.execute(insert(events_t).values(
                id=event_id, name=name, variant=v.key, system=system, rounds=rounds or 0,
                time_control=time_control, tiebreaks=",".join(codes),
                setup_policy=setup_policy, mini_match=mini_match,
                exclude_standard=exclude_standard, bishops=bishops, no_repeat=no_repeat,
                initial_colour=initial_colour, salt=salt, commitment=commitment,
                eval_band=eval_band, eval_digest=eval_digest,
                tiebreak_edition=tiebreak_edition, setup_source=setup_source,
                excluded=_numbers_text(excluded), prep_minutes=prep_minutes,
                preview_s=preview_s,
                shortlist=None if shortlist is None else _numbers_text(shortlist),
                organiser_hash=secret_hash(secret) if secret else None,
                status="registration", version=0, created_at=created, closed_at=None,
            ))
            if knockout is not None:
                conn.execute(insert(schema.knockout_formats).values(
                    tournament_id=event_id, games=knockout.games,
                    tiebreaks=";".join(s.spec for s in knockout.tiebreaks),
                    armageddon=knockout.armageddon.spec if knockout.armageddon else "",
                    setups=knockout.setups, seeding=knockout.seeding))
            self._log(conn, event_id, "create", new=commitment)
            if owner is not None:
                staff.add_owner(conn, event_id, owner)
        return Created(self.load(event_id).event, secret)

    def add_player(self, event_id: str, name: str, rating: int | None = None,
                   fide_id: str | None = None, federation: str | None = None) -> Player:
        """Register a player; after the start, a late entry (Swiss only) from the next round,
        its missed rounds counted as zero-point byes."""
        name = check_name(name, "player name", 80)
        if rating is not None and not 0 <= rating <= 3500:
            raise RegistrationError(f"rating {rating} is outside 0-3500",
                                    es=f"el Elo {rating} está fuera de 0-3500")
        if fide_id is not None:
            fide_id = fide_id.strip() or None
            if fide_id is not None and not (fide_id.isdigit() and len(fide_id) <= 12):
                raise RegistrationError(f"a FIDE id is up to 12 digits, not {fide_id!r}",
                                        es=f"un id FIDE tiene hasta 12 cifras, no {fide_id!r}")
        if federation is not None:
            federation = federation.strip().upper() or None
            if federation is not None and not (len(federation) == 3 and federation.isalpha()):
                raise RegistrationError(f"a federation is 3 letters (ESP, FRA), not "
                                        f"{federation!r}",
                                        es="una federación son 3 letras (ESP, FRA), no "
                                           f"{federation!r}")

        def step(conn: Connection, t: Tournament) -> Player:
            joined = 1
            if t.event.status == "running":
                if t.event.system != "swiss":
                    raise RegistrationError("registration is closed: a round robin takes no "
                                            "late entries",
                                            es="la inscripción está cerrada: un todos contra "
                                               "todos no admite inscripciones tardías")
                joined = t.paired_rounds + 1
                if joined > t.event.rounds:
                    raise RegistrationError("every round is paired: too late to enter",
                                            es="todas las rondas están emparejadas: demasiado "
                                               "tarde para inscribirse")
            if any(p.name.casefold() == name.casefold() for p in t.players):
                raise RegistrationError(f"{name!r} is registered already",
                                        es=f"{name!r} ya está inscrito")
            number = max((p.number for p in t.players), default=0) + 1
            player = Player(number, name, rating, fide_id, federation, joined)
            conn.execute(insert(players_t).values(
                tournament_id=event_id, number=number, name=name, rating=rating,
                fide_id=fide_id, federation=federation, joined_round=joined,
                withdrawn_round=None))
            self._log(conn, event_id, "late-entry" if joined > 1 else "register",
                      new=f"{number} {name}"[:64])
            return player

        return self._step(event_id, step)

    def withdraw(self, event_id: str, number: int) -> Player:
        """Withdraw a player: not paired from the next round on (before the start: the
        registration is cancelled)."""

        def step(conn: Connection, t: Tournament) -> Player:
            p = t.player(number)
            if p.withdrawn_round is not None:
                raise RegistrationError(f"{p.name} withdrew already (from round "
                                        f"{p.withdrawn_round})",
                                        es=f"{p.name} ya se retiró (desde la ronda "
                                           f"{p.withdrawn_round})")
            key = (players_t.c.tournament_id == event_id, players_t.c.number == number)
            if t.event.status == "registration":
                conn.execute(delete(byes_t).where(byes_t.c.tournament_id == event_id,
                                                  byes_t.c.player == number))
                conn.execute(delete(players_t).where(*key))
                self._log(conn, event_id, "unregister", old=f"{number} {p.name}"[:64])
                return p
            rnd = t.paired_rounds + 1
            conn.execute(update(players_t).where(*key).values(withdrawn_round=rnd))
            conn.execute(delete(byes_t).where(byes_t.c.tournament_id == event_id,
                                              byes_t.c.player == number,
                                              byes_t.c.round >= rnd))
            self._log(conn, event_id, "withdraw", rnd, new=str(number))
            return replace(p, withdrawn_round=rnd)

        return self._step(event_id, step)

    def request_bye(self, event_id: str, number: int, rnd: int, kind: str = "H") -> None:
        """A bye the player asks for in a future round: H (half point, the default), Z
        (zero) or F (full point, as the regulations allow)."""
        kind = kind.strip().upper()
        if kind not in REQUESTABLE_BYES:
            raise TournamentError(f"a requested bye is H, Z or F, not {kind!r}",
                                  es=f"un descanso pedido es H, Z o F, no {kind!r}")

        def step(conn: Connection, t: Tournament) -> None:
            p = t.player(number)
            if t.event.system != "swiss":
                raise PairingError("a round robin has no byes: a player who cannot play "
                                   "loses by forfeit",
                                   es="un todos contra todos no tiene descansos: quien no puede "
                                      "jugar pierde por incomparecencia")
            if rnd <= t.paired_rounds:
                raise PairingError(f"round {rnd} is paired already; byes are requested "
                                   "before the pairing",
                                   es=f"la ronda {rnd} ya está emparejada; los descansos se "
                                      "piden antes del emparejamiento")
            if rnd > t.event.rounds:
                raise PairingError(f"the event has {t.event.rounds} rounds, not {rnd}",
                                   es=f"el torneo tiene {t.event.rounds} rondas, no {rnd}")
            if t.event.mini_match and rnd % 2 == 0:
                raise PairingError("in mini-matches a bye is requested for the match's first "
                                   f"round ({rnd - 1})",
                                   es="en minimatches el descanso se pide para la primera ronda "
                                      f"del match ({rnd - 1})")
            if not t.active_in(p, rnd):
                raise PairingError(f"{p.name} does not play round {rnd}",
                                   es=f"{p.name} no juega la ronda {rnd}")
            if (rnd, number) in t.byes:
                raise PairingError(f"{p.name} has a bye in round {rnd} already",
                                   es=f"{p.name} ya tiene un descanso en la ronda {rnd}")
            conn.execute(insert(byes_t).values(tournament_id=event_id, round=rnd,
                                               player=number, kind=kind))
            self._log(conn, event_id, "bye", rnd, new=f"{number} {kind}")

        self._step(event_id, step)

    def start(self, event_id: str) -> Tournament:
        """Close registration: pairing numbers by rating (then name), a round robin's rounds
        fixed by its size."""

        def step(conn: Connection, t: Tournament) -> None:
            _not_knockout(t)
            if t.event.status != "registration":
                raise RegistrationError("registration is closed already",
                                        es="la inscripción ya está cerrada")
            if len(t.players) < 2:
                raise RegistrationError(f"{len(t.players)} player(s) registered; at least 2",
                                        es=f"{len(t.players)} jugador(es) inscrito(s); al menos 2")
            order = sorted(t.players, key=lambda p: (-(p.rating or 0), p.name.casefold(),
                                                     p.number))
            renumber = {p.number: i + 1 for i, p in enumerate(order)}
            conn.execute(delete(players_t).where(players_t.c.tournament_id == event_id))
            for p in order:
                conn.execute(insert(players_t).values(
                    tournament_id=event_id, number=renumber[p.number], name=p.name,
                    rating=p.rating, fide_id=p.fide_id, federation=p.federation,
                    joined_round=1, withdrawn_round=None))
            conn.execute(delete(byes_t).where(byes_t.c.tournament_id == event_id))
            for (rnd, number), kind in sorted(t.byes.items()):
                conn.execute(insert(byes_t).values(tournament_id=event_id, round=rnd,
                                                   player=renumber[number], kind=kind))
                # the log's earlier entry names the registration number: say where it went
                self._log(conn, event_id, "bye-number", rnd, old=f"{number} {kind}",
                          new=f"{renumber[number]} {kind}")
            values: dict[str, Any] = {"status": "running"}
            if t.event.system != "swiss":
                n = berger.rounds_needed(len(t.players), t.event.system == "drr")
                values["rounds"] = n * (2 if t.event.mini_match else 1)
            conn.execute(update(events_t).where(events_t.c.id == event_id).values(**values))
            self._log(conn, event_id, "start", new=f"{len(t.players)} players")

        self._step(event_id, step)
        return self.load(event_id)

    def pair(self, event_id: str) -> list[Board]:
        """Pair the next round and draw its setups (one transaction)."""
        self.sync_online(event_id)

        def step(conn: Connection, t: Tournament) -> list[Board]:
            assert t.event.salt is not None
            planned = plan_round(t, t.event.salt)
            for b in planned:
                conn.execute(insert(boards_t).values(
                    tournament_id=event_id, round=b.round, board=b.board, white=b.white,
                    black=b.black, result=b.result, bye=b.bye, setup=b.setup, fen=b.fen,
                    game_id=None))
            self._log(conn, event_id, "pair", planned[0].round if planned else None,
                      new=f"{len(planned)} boards")
            return planned

        return self._step(event_id, step)

    def reveal(self, event_id: str, rnd: int, hall_input: str,
               online: Sequence[PlannedGame] | None = None,
               rated: bool = False) -> tuple[Reveal, list[Board]]:
        """Reveal round ``rnd`` of a hall event: its setups drawn from the salt and the
        digits drawn in the hall (docs/shuffler.md §6), committed before this returns.  A
        round is revealed once: a second reveal (or two at once) is refused with its reason,
        and the refusal is logged.  ``online``: the games (openings.plan) the server opens
        itself when the preparation window ends, ``rated`` or not, for this round and a
        mini-match's replay round; the request is committed with the reveal."""
        digits = checked_hall_input(hall_input)

        def step(conn: Connection, t: Tournament) -> tuple[Reveal, list[Board]]:
            _check_revealable(t, rnd)
            e = t.event
            assert e.salt is not None
            games = [b for b in t.round_boards(rnd) if not b.is_bye]
            drawn = setups.derive_round(e, e.salt, rnd, len(games), used_setups(t, rnd),
                                        digits)
            key = setups.round_key(e, e.salt, rnd, digits).hex()
            reveal = Reveal(rnd, digits, now_ms(), key)
            conn.execute(insert(reveals_t).values(tournament_id=event_id, round=rnd,
                                                  input=digits, at=reveal.at, key=key))
            out = []
            for b, s in zip(games, drawn, strict=True):
                assert s is not None
                conn.execute(update(boards_t).where(
                    boards_t.c.tournament_id == event_id, boards_t.c.round == rnd,
                    boards_t.c.board == b.board).values(setup=s.number, fen=s.fen))
                out.append(replace(b, setup=s.number, fen=s.fen))
            self._log(conn, event_id, "reveal", rnd, new=digits, reason=f"key {key}")
            if online is not None:
                due = reveal.at + e.prep_minutes * minute_ms()
                for r in sorted({rnd} | {g.round for g in online}):
                    conn.execute(insert(schema.tournament_openings).values(
                        tournament_id=event_id, round=r, state="waiting", due_at=due,
                        rated=rated, games=openings.games_json(
                            [g for g in online if g.round == r])))
                    self._log(conn, event_id, "online-due", r, new=str(due),
                              reason="games open when the preparation window ends")
            return reveal, out

        try:
            return self._step(event_id, step)
        except RevealError as exc:
            if exc.reason == "already":
                with self.engine.begin() as conn:
                    self._log(conn, event_id, "reveal-refused", rnd, new=digits,
                              reason=str(exc))
            raise
        except IntegrityError:  # the reveals' primary key: another reveal won the race
            raise _already(rnd, None) from None

    def set_result(self, event_id: str, rnd: int, board: int, result: str) -> Board:
        """Enter a board's result.  A result already entered is final: change it only with
        :meth:`correct` and a reason."""
        code = parse_result(result)

        def step(conn: Connection, t: Tournament) -> Board:
            return self._enter_result(conn, event_id, t, rnd, board, code)

        return self._step(event_id, step)

    def set_results(self, event_id: str, rnd: int,
                    results: Sequence[tuple[int, str]]) -> list[Board]:
        """Enter several boards' results of round ``rnd`` in one step: all of them, or none
        (a typed error) when one is malformed, for an unknown board or a bye, entered twice,
        or already entered."""
        codes = [(board, parse_result(result)) for board, result in results]
        boards = [board for board, _ in codes]
        twice = sorted({b for b in boards if boards.count(b) > 1})
        if twice:
            raise ResultError(f"board {twice[0]} of round {rnd} is given twice",
                              es=f"el tablero {twice[0]} de la ronda {rnd} aparece dos veces")

        def step(conn: Connection, t: Tournament) -> list[Board]:
            return [self._enter_result(conn, event_id, t, rnd, board, code)
                    for board, code in codes]

        return self._step(event_id, step)

    def _enter_result(self, conn: Connection, event_id: str, t: Tournament, rnd: int,
                      board: int, code: str) -> Board:
        """A first result for a board (inside a step): refused for a bye or a board that
        has one already (a change is a correction)."""
        b = t.board(rnd, board)
        _check_revealed(t, rnd)
        if b.is_bye:
            raise ResultError(f"board {board} of round {rnd} is a bye "
                              f"({b.bye}) for {t.player(b.white).name}: no result",
                              es=f"el tablero {board} de la ronda {rnd} es un descanso "
                                 f"({b.bye}) de {t.player(b.white).name}: sin resultado")
        if b.result is not None:
            raise ResultError(
                f"board {board} of round {rnd} has the result {b.result} already; a "
                "change is a correction and needs a reason",
                es=f"el tablero {board} de la ronda {rnd} ya tiene el resultado {b.result}; "
                   "un cambio es una corrección y necesita un motivo")
        self._write_result(conn, event_id, b, code)
        self._log(conn, event_id, "result", rnd, board, None, code)
        return replace(b, result=code)

    def correct(self, event_id: str, rnd: int, board: int, result: str, reason: str) -> Board:
        """Change an entered result; the reason is kept in the event's log."""
        code = parse_result(result)
        why = reason.strip()
        if not why:
            raise CorrectionError("a correction needs a reason (it is kept in the log)",
                                  es="una corrección necesita un motivo (se guarda en el "
                                     "registro)")
        if len(why) > 500:
            raise CorrectionError("the reason has more than 500 characters",
                                  es="el motivo tiene más de 500 caracteres")

        def step(conn: Connection, t: Tournament) -> Board:
            b = t.board(rnd, board)
            if b.is_bye:
                raise ResultError(f"board {board} of round {rnd} is a bye: no result",
                                  es=f"el tablero {board} de la ronda {rnd} es un descanso: sin "
                                     "resultado")
            if b.result is None:
                raise CorrectionError(f"board {board} of round {rnd} has no result yet: enter "
                                      "it as a result, not a correction",
                                      es=f"el tablero {board} de la ronda {rnd} aún no tiene "
                                         "resultado: introdúzcalo como resultado, no como "
                                         "corrección")
            if b.result == code:
                raise CorrectionError(f"board {board} of round {rnd} is {code} already",
                                      es=f"el tablero {board} de la ronda {rnd} ya es {code}")
            self._write_result(conn, event_id, b, code)
            self._log(conn, event_id, "correct", rnd, board, b.result, code, why)
            return replace(b, result=code)

        return self._step(event_id, step)

    @staticmethod
    def _write_result(conn: Connection, event_id: str, b: Board, code: str) -> None:
        conn.execute(update(boards_t).where(
            boards_t.c.tournament_id == event_id, boards_t.c.round == b.round,
            boards_t.c.board == b.board).values(result=code))

    def close(self, event_id: str, early: str | None = None) -> Tournament:
        """Close the event (every round paired and complete) and reveal its salt.

        ``early`` (the arbiter's reason) closes it after the last complete round instead,
        when no further round can or will be played, e.g. a Swiss round with no legal
        pairing (docs/tournaments.md, "Ending an event early"): the event's number of
        rounds becomes the number played, and the log keeps the planned number and the
        reason."""

        def step(conn: Connection, t: Tournament) -> None:
            _not_knockout(t)
            if t.event.status != "running":
                raise RegistrationError("the event has not started",
                                        es="el torneo no ha empezado")
            short = t.paired_rounds < t.event.rounds
            if short and early is None:
                raise PairingError(f"{t.paired_rounds} of {t.event.rounds} rounds paired; "
                                   "pair and play them all before closing, or close early "
                                   "with a reason (--early)",
                                   es=f"{t.paired_rounds} de {t.event.rounds} rondas "
                                      "emparejadas; emparéjelas y júguelas todas antes de "
                                      "cerrar, o cierre antes con un motivo (--early)")
            if t.paired_rounds == 0:
                raise PairingError("no round has been played", es="no se ha jugado ninguna ronda")
            if not t.round_complete(t.paired_rounds):
                raise PairingError(f"round {t.paired_rounds} still has games without a result",
                                   es=f"la ronda {t.paired_rounds} aún tiene partidas sin "
                                      "resultado")
            if short:
                assert early is not None
                if not early.strip():
                    raise PairingError("closing early needs the arbiter's reason",
                                       es="cerrar antes de tiempo exige el motivo del árbitro")
                conn.execute(update(events_t).where(events_t.c.id == event_id)
                             .values(rounds=t.paired_rounds))
                self._log(conn, event_id, "close-early", old=str(t.event.rounds),
                          new=str(t.paired_rounds), reason=early.strip())
            conn.execute(update(events_t).where(events_t.c.id == event_id)
                         .values(status="closed", closed_at=now_ms()))
            assert t.event.salt is not None
            self._log(conn, event_id, "close", new=t.event.salt.hex())

        self._step(event_id, step)
        return self.load(event_id)

    def link_game(self, event_id: str, rnd: int, board: int, game_id: str) -> None:
        """Attach the online game of a board (its seats' tokens live in the games table,
        hashed)."""
        def step(conn: Connection, t: Tournament) -> None:
            b = t.board(rnd, board)
            check_playable(t, rnd, now_ms())
            if b.is_bye or b.result is not None or b.game_id is not None:
                raise ResultError(f"board {board} of round {rnd} cannot start an online game",
                                  es=f"el tablero {board} de la ronda {rnd} no puede empezar una "
                                     "partida en línea")
            conn.execute(update(boards_t).where(
                boards_t.c.tournament_id == event_id, boards_t.c.round == rnd,
                boards_t.c.board == board).values(game_id=game_id))
            self._log(conn, event_id, "online", rnd, board, None, game_id)

        self._step(event_id, step)

    def sync_online(self, event_id: str) -> int:
        """Boards whose online game has ended take its result, final; a board whose game was
        aborted is freed, so that it can be opened online again (one step; the number of
        boards changed).  Reads the server's ``games`` table, so the offline command line
        sees games that ended on the server too.  Writes nothing when there is nothing to
        record: viewing an event is never a write."""
        with self.engine.connect() as conn:
            if not self._ended_online(conn, event_id):
                return 0

        def step(conn: Connection, t: Tournament) -> int:
            ended = self._ended_online(conn, event_id)
            for rnd, board, game_id, result in ended:
                b = t.board(rnd, board)
                if result in GAME_RESULTS:
                    self._write_result(conn, event_id, b, result)
                    self._log(conn, event_id, "online-result", rnd, board, None, result,
                              f"game {game_id}")
                else:
                    conn.execute(update(boards_t).where(
                        boards_t.c.tournament_id == event_id, boards_t.c.round == rnd,
                        boards_t.c.board == board).values(game_id=None))
                    self._log(conn, event_id, "online-aborted", rnd, board, game_id, None,
                              f"game {game_id} ended without a result")
            return len(ended)

        try:
            return self._step(event_id, step)
        except EventClosedError:
            return 0

    @staticmethod
    def _ended_online(conn: Connection, event_id: str) -> list[tuple[int, int, str, str]]:
        """(round, board, game id, the game's result) of the boards whose online game has
        ended and whose result is not recorded yet."""
        games = schema.games
        rows = conn.execute(
            select(boards_t.c.round, boards_t.c.board, boards_t.c.game_id, games.c.result)
            .join(games, games.c.id == boards_t.c.game_id)
            .where(boards_t.c.tournament_id == event_id, boards_t.c.result.is_(None),
                   games.c.status == "ended")
            .order_by(boards_t.c.round, boards_t.c.board)).all()
        return [(int(r[0]), int(r[1]), str(r[2]), str(r[3] or "*")) for r in rows]

    def load_live(self, event_id: str) -> Tournament:
        """:meth:`load` with the online games that have ended shown as they ended (their
        result; an aborted game's board free) before the server records them: read only,
        the event and its games read in one snapshot."""
        with snapshot(self.engine) as conn:
            t = self._load(conn, event_id, reveal=False)
            open_games = {b.game_id: b for b in t.boards
                          if b.game_id is not None and b.result is None}
            if not open_games:
                return t
            games = schema.games
            ended = {str(r[0]): str(r[1] or "*") for r in conn.execute(
                select(games.c.id, games.c.result).where(
                    games.c.id.in_(list(open_games)), games.c.status == "ended")).all()}
        if not ended:
            return t
        boards = []
        for b in t.boards:
            result = ended.get(b.game_id) if b.game_id is not None and b.result is None \
                else None
            if result is not None:
                b = replace(b, result=result) if result in GAME_RESULTS else \
                    replace(b, game_id=None)
            boards.append(b)
        return replace(t, boards=tuple(boards))

    # --- over-the-board games (issue 31) ---------------------------------------------------

    def enter_game(self, event_id: str, rnd: int, board: int, text: str, *,
                   lang: Language | None = None, result: str | None = None,
                   replace_game: bool = False) -> otb.OtbGame:
        """Store a board's game typed from its scoresheet, checked move by move from the
        round's setup (:func:`~randomchess.tournament.otb.check_game`).  A finished game
        enters the board's result when it has none; a game stored already is replaced only
        with ``replace_game``.  Closed events take games too (their results stay)."""

        def step(conn: Connection, t: Tournament) -> otb.OtbGame:
            return self._enter_game(conn, event_id, t, rnd, board, text, lang, result,
                                    "replace" if replace_game else "keep")[0]

        return self._step(event_id, step, allow_closed=True)

    def _enter_game(self, conn: Connection, event_id: str, t: Tournament, rnd: int,
                    board: int, text: str, lang: Language | None, result: str | None,
                    policy: str) -> tuple[otb.OtbGame, bool]:
        """Check and store a board's game; ``policy`` for a game stored already: ``keep``
        (refuse), ``replace``, or ``extend`` (a relay: only the same game, longer or ended,
        replaces it).  The game, and whether anything changed."""
        sheet = otb.check_game(t, rnd, board, text, lang=lang, result=result)
        key = (games_t.c.tournament_id == event_id, games_t.c.round == rnd,
               games_t.c.board == board)
        old = conn.execute(select(games_t.c.moves, games_t.c.result).where(*key)).first()
        game = otb.otb_game(sheet, rnd, board, now_ms())
        if old is not None and policy == "keep":
            plies = len(str(old[0]).split())
            raise GameExistsError(
                f"round {rnd}, board {board} has its game already ({plies} plies, {old[1]}); "
                "enter it again with replace to replace it",
                es=f"la ronda {rnd}, tablero {board} ya tiene su partida ({plies} medias "
                   f"jugadas, {old[1]}); introdúzcala de nuevo con reemplazar para "
                   "sustituirla", kind="exists", rnd=rnd, board=board)
        if old is not None and policy == "extend":
            before = tuple(str(old[0]).split())
            if not otb.check_extends(before, game, rnd, board) or \
                    (before == game.moves and old[1] == game.result):
                return game, False
        if sheet.result != "*" and t.board(rnd, board).result is None:
            self._enter_result(conn, event_id, t, rnd, board, sheet.result)
        conn.execute(delete(games_t).where(*key))
        conn.execute(insert(games_t).values(
            tournament_id=event_id, round=rnd, board=board, moves=" ".join(game.moves),
            san=" ".join(game.san), clocks=" ".join("-" if c is None else str(c)
                                                    for c in game.clocks),
            result=game.result, lang=game.lang, entered_at=game.entered_at))
        if policy != "extend":
            self._log(conn, event_id, "game-replace" if old is not None else "game", rnd,
                      board, None if old is None else f"{len(str(old[0]).split())} {old[1]}",
                      f"{len(game.moves)} {game.result}")
        return game, True

    def relay_round(self, event_id: str, rnd: int, text: str) -> otb.RelayReport:
        """One look at a round's live PGN file (an e-board program's, rewritten as games go
        on): each game matched to its board is stored when it is the stored game continued
        (or new); a game the rules refuse, or one that is not the game relayed before, is
        flagged in the event's log for the arbiter and changes nothing."""
        games = self._round_file(text)
        t = self.load(event_id)
        t.board(rnd, 1)
        report = otb.RelayReport(rnd)
        for m, (tags, body) in zip(otb.match_games(t, rnd, [g[0] for g in games]), games,
                                   strict=True):
            if m.board is None:
                report.unmatched.append(m)
                continue
            board = m.board

            def step(conn: Connection, t: Tournament, board: int = board, tags: dict[str, str]
                     = tags, body: str = body) -> tuple[otb.OtbGame, bool]:
                return self._enter_game(conn, event_id, t, rnd, board, _pgn_text(tags, body),
                                        None, tags.get("Result"), "extend")

            try:
                game, changed = self._step(event_id, step, allow_closed=True)
            except GameEntryError as e:
                report.flagged.append((m, e))
                self._flag(event_id, rnd, board, e)
                continue
            (report.updated if changed else report.unchanged).append(game)
        return report

    def _flag(self, event_id: str, rnd: int, board: int, e: GameEntryError) -> None:
        """Log a relayed game the arbiter must look at (once per distinct problem)."""

        def step(conn: Connection, t: Tournament) -> None:
            last = [x for x in t.log if x.action == "relay-flag" and x.round == rnd
                    and x.board == board]
            if not last or last[-1].reason != str(e):
                self._log(conn, event_id, "relay-flag", rnd, board, None, e.kind[:64], str(e))

        self._step(event_id, step, allow_closed=True)

    @staticmethod
    def _round_file(text: str) -> list[tuple[dict[str, str], str]]:
        try:
            games = split_pgn(text)
        except ScoresheetError as e:
            raise GameEntryError(e.en, es=e.es, kind="not_pgn") from None
        if not any(tags for tags, _ in games):
            raise GameEntryError("the file is not PGN: no game has tags (White, Black)",
                                 es="el archivo no es PGN: ninguna partida tiene etiquetas "
                                    "(White, Black)", kind="not_pgn")
        return games

    def otb_games(self, event_id: str) -> dict[tuple[int, int], otb.OtbGame]:
        """The event's stored over-the-board games by (round, board)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(games_t).where(games_t.c.tournament_id == event_id)
                                .order_by(games_t.c.round, games_t.c.board)).all()
        return {(r.round, r.board): otb.OtbGame(
            r.round, r.board, tuple(str(r.moves).split()), tuple(str(r.san).split()),
            tuple(None if c == "-" else int(c) for c in str(r.clocks).split()), r.result,
            r.lang, r.entered_at) for r in rows}

    def import_round(self, event_id: str, rnd: int, text: str, *,
                     lang: Language | None = None, replace_game: bool = False,
                     ) -> otb.ImportReport:
        """Enter a round's games from one PGN file, each matched to its board by the
        players' names or its ``Board`` tag; each game is stored (or refused) on its own,
        and the report says what matched nothing and which boards still lack a game."""
        games = self._round_file(text)
        t = self.load(event_id)
        t.board(rnd, 1)  # an unpaired round is refused before anything is read
        report = otb.ImportReport(rnd)
        for m, (tags, body) in zip(otb.match_games(t, rnd, [g[0] for g in games]), games,
                                   strict=True):
            if m.board is None:
                report.unmatched.append(m)
                continue
            try:
                report.entered.append(self.enter_game(
                    event_id, rnd, m.board, _pgn_text(tags, body), lang=lang,
                    result=tags.get("Result"), replace_game=replace_game))
            except GameEntryError as e:
                report.refused.append((m, e))
        stored = self.otb_games(event_id)
        report.missing = [b.board for b in self.load(event_id).round_boards(rnd)
                          if not b.is_bye and b.game_id is None and (rnd, b.board) not in stored
                          and b.result not in FORFEITS]
        return report

    def review_of(self, game_id: str) -> Review | None:
        """The engine review stored for the server game ``game_id``, or for an over-the-board
        game under :func:`~randomchess.tournament.otb.review_id` (issue 31's bulletin writes
        it as comments), or ``None``."""
        import json

        from randomchess.analysis.review import Review

        with self.engine.connect() as conn:
            row = conn.execute(select(schema.game_reviews.c.review)
                               .where(schema.game_reviews.c.game_id == game_id)).first()
        if row is None:
            return None
        try:
            return Review.from_dict(json.loads(row[0]))
        except (ValueError, KeyError, TypeError, AssertionError):
            return None

    def event_of_game(self, game_id: str) -> str | None:
        """The event whose board (or knock-out game) plays the online game ``game_id``, if
        any."""
        ko_games = schema.knockout_games
        with self.engine.connect() as conn:
            return conn.execute(select(boards_t.c.tournament_id)
                                .where(boards_t.c.game_id == game_id)).scalar() or \
                conn.execute(select(ko_games.c.tournament_id)
                             .where(ko_games.c.game_id == game_id)).scalar()

    def online_moves(self, game_id: str) -> tuple[str, list[str]] | None:
        """The start FEN and UCI moves of a server game (for the PGN export)."""
        from sqlalchemy import text

        with self.engine.connect() as conn:
            row = conn.execute(text("SELECT start_fen, moves FROM games WHERE id = :i"),
                               {"i": game_id}).first()
        if row is None:
            return None
        return str(row[0]), str(row[1]).split()


def checked_hall_input(text: str) -> str:
    """The digits of a hall input (docs/shuffler.md §6), or a :class:`RevealError` in both
    languages saying what is wrong with them."""
    try:
        return parse_hall_input(text)
    except HallInputError as exc:
        es = {
            "empty": "la entrada de la sala está vacía: escriba las cifras sorteadas en la sala",
            "alphabet": "la entrada de la sala solo puede tener las cifras 0-9 (los dados 1-6 "
                        "también son cifras)",
            "short": f"la entrada de la sala necesita al menos {HALL_MIN_DIGITS} cifras",
            "long": f"la entrada de la sala tiene como máximo {HALL_MAX_DIGITS} cifras",
        }[exc.reason]
        raise RevealError(str(exc), es=es, reason=exc.reason) from None


def _already(rnd: int, old: Reveal | None) -> RevealError:
    when = "" if old is None else f" at {_utc(old.at)} with the digits {old.input}"
    cuando = "" if old is None else f" a las {_utc(old.at)} con las cifras {old.input}"
    return RevealError(f"round {rnd} was revealed already{when}; a reveal cannot be undone "
                       "or repeated",
                       es=f"la ronda {rnd} ya se reveló{cuando}; una revelación no se puede "
                          "deshacer ni repetir", reason="already")


def _utc(ms: int) -> str:
    """A time of the event's record, as ISO 8601 UTC to the second (TRF, log, messages)."""
    import datetime

    return datetime.datetime.fromtimestamp(ms / 1000, datetime.UTC).strftime(
        "%Y-%m-%dT%H:%M:%SZ")


def _check_revealable(t: Tournament, rnd: int) -> None:
    """``RevealError`` unless round ``rnd`` of ``t`` is paired and waits for its reveal."""
    e = t.event
    if e.setup_source != "hall":
        raise RevealError("this event's setups come from the salt alone: nothing is revealed "
                          "in the hall",
                          es="las posiciones de este torneo salen solo de la sal: no se "
                             "revela nada en la sala")
    old = t.reveal_of(rnd)
    if old is not None:
        raise _already(rnd, old)
    if e.mini_match and rnd % 2 == 0:
        raise RevealError(f"round {rnd} replays round {rnd - 1}'s setups: nothing to reveal",
                          es=f"la ronda {rnd} repite las posiciones de la ronda {rnd - 1}: "
                             "nada que revelar")
    if not 1 <= rnd <= t.paired_rounds:
        raise RevealError(f"round {rnd} is not paired (paired rounds: {t.paired_rounds}); "
                          "pair it, then reveal its setup",
                          es=f"la ronda {rnd} no está emparejada (rondas emparejadas: "
                             f"{t.paired_rounds}); emparéjela y luego revele su posición")
    if not t.awaits_reveal(rnd):
        raise RevealError(f"round {rnd} has no game: nothing to reveal",
                          es=f"la ronda {rnd} no tiene partidas: nada que revelar")


def _check_revealed(t: Tournament, rnd: int) -> None:
    if t.awaits_reveal(rnd):
        raise PreparationError(f"round {rnd}'s setup is not revealed yet: reveal it in the "
                               "hall first",
                               es=f"la posición de la ronda {rnd} aún no se ha revelado: "
                                  "revélela antes en la sala")


def minute_ms() -> int:
    """A preparation window's minute, in ms: 60 000.  ``RANDOMCHESS_PREP_MINUTE_MS`` makes
    it shorter for the tests' fast countdowns (docs/server.md); never set it for an event."""
    raw = os.environ.get("RANDOMCHESS_PREP_MINUTE_MS", "")
    return int(raw) if raw.isdigit() and int(raw) > 0 else 60_000


def window_end(t: Tournament, rnd: int) -> int | None:
    """When the preparation window of round ``rnd`` ends (ms), None without a window."""
    r = t.reveal_of(rnd if not (t.event.mini_match and rnd % 2 == 0) else rnd - 1)
    if r is None or not t.event.prep_minutes:
        return None
    return r.at + t.event.prep_minutes * minute_ms()


def check_playable(t: Tournament, rnd: int, now: int) -> None:
    """``PreparationError`` while round ``rnd``'s games may not start: setup not revealed,
    or the preparation window not over."""
    _check_revealed(t, rnd)
    end = window_end(t, rnd)
    if end is not None and now < end:
        left = (end - now + 999) // 1000
        raise PreparationError(f"the preparation window of round {rnd} ends at {_utc(end)} "
                               f"({left} s from now): the games open then",
                               es=f"la ventana de preparación de la ronda {rnd} termina a las "
                                  f"{_utc(end)} (dentro de {left} s): las partidas se abren "
                                  "entonces")


def _pgn_text(tags: dict[str, str], body: str) -> str:
    """A game of a round's file as the scoresheet reader takes it: the tags that must agree
    with the board (FEN, Variant), then the movetext."""
    head = "".join(f'[{k} "{v}"]\n' for k, v in tags.items() if k in ("FEN", "Variant"))
    return head + "\n" + body


def _not_knockout(t: Tournament) -> None:
    """The Swiss and round-robin steps refuse a knock-out event (its steps are
    randomchess.tournament.knockout_store's)."""
    if t.event.system == "knockout":
        raise PairingError(f"{t.event.name!r} is a knock-out event: its rounds open, and its "
                           "results are entered, match by match (tournament bracket, "
                           "game-result, bid)",
                           es=f"{t.event.name!r} es una eliminatoria: sus rondas se abren, y "
                              "sus resultados se introducen, match a match (tournament "
                              "bracket, game-result, bid)")


def _checked_variant(variant: str) -> Variant:
    """The event's variant: known, with numbered setups or one start position."""
    try:
        v = get_variant(variant)
    except (KeyError, ValueError) as e:
        raise TournamentError(f"unknown variant {variant!r}",
                              es=f"variante desconocida {variant!r}") from e
    if not setups.is_numbered(v.key):
        try:
            v.start_fen  # noqa: B018 - raises for random families without numbering
        except ValueError:
            raise TournamentError(
                f"{v.key} setups are not numbered, so no verifiable draw exists for it; "
                "use chess960, mrc, or a variant with one start position",
                es=f"las posiciones de {v.key} no están numeradas, así que no hay sorteo "
                   "verificable; use chess960, mrc o una variante con una sola posición "
                   "inicial"
            ) from None
    return v


def _check_format(v: Variant, system: str, setup_policy: str, bishops: str,
                  initial_colour: str, rounds: int | None, mini_match: bool,
                  tiebreak_edition: str) -> None:
    """The event's format, each setting refused with its reason in both languages."""
    if system not in SYSTEMS:
        raise TournamentError(f"unknown system {system!r}; use {', '.join(SYSTEMS)}",
                              es=f"sistema desconocido {system!r}; use {', '.join(SYSTEMS)}")
    if setup_policy not in SETUP_POLICIES:
        raise TournamentError(f"unknown setup policy {setup_policy!r}; use "
                              f"{', '.join(SETUP_POLICIES)}",
                              es=f"política de posiciones desconocida {setup_policy!r}; use "
                                 f"{', '.join(SETUP_POLICIES)}")
    if bishops not in ("any", "same", "opposite"):
        raise TournamentError(f"bishops must be any, same or opposite, not {bishops!r}",
                              es=f"los alfiles son any, same u opposite, no {bishops!r}")
    if bishops != "any":
        try:  # the setup pool knows where the bishop filter applies (MRC's numbering)
            SetupPool(v, "same")
        except (SetupPoolError, SetupNumberError):
            raise TournamentError(
                f"the bishop filter does not apply to {v.key} setups",
                es=f"el filtro de alfiles no se aplica a las posiciones de {v.key}") from None
    if initial_colour not in ("white", "black"):
        raise TournamentError(f"initial colour must be white or black, not "
                              f"{initial_colour!r}",
                              es=f"el color inicial es white o black, no {initial_colour!r}")
    if system == "swiss":
        if rounds is None or not 1 <= rounds <= 99:
            raise TournamentError("a Swiss event needs its number of rounds (1-99)",
                                  es="un suizo necesita su número de rondas (1-99)")
        if mini_match and rounds % 2:
            raise TournamentError("mini-matches need an even number of rounds",
                                  es="los minimatches necesitan un número par de rondas")
    elif rounds is not None:
        raise TournamentError("a round robin's rounds follow from the number of players; "
                              "leave the rounds out",
                              es="las rondas de un todos contra todos salen del número de "
                                 "jugadores; no las indique")
    if mini_match and system == "drr":
        raise TournamentError("a double round robin already plays each pairing twice; "
                              "use a single round robin with mini-matches",
                              es="un doble todos contra todos ya juega cada emparejamiento "
                                 "dos veces; use un todos contra todos sencillo con "
                                 "minimatches")
    if tiebreak_edition not in EDITIONS:
        raise TournamentError(f"unknown tie-break edition {tiebreak_edition!r}; use "
                              f"{', '.join(EDITIONS)}",
                              es=f"edición de desempates desconocida {tiebreak_edition!r}; "
                                 f"use {', '.join(EDITIONS)}")

PREVIEW_MAX_S = 600  # as a game's (server/games/preview.py)


def _check_preview(preview_s: int | None) -> None:
    """The setup preview's countdown of an event's online games: None or 0..600 seconds."""
    if preview_s is None:
        return
    if isinstance(preview_s, bool) or not isinstance(preview_s, int) or \
            not 0 <= preview_s <= PREVIEW_MAX_S:
        raise TournamentError(f"the setup preview lasts 0 to {PREVIEW_MAX_S} seconds, not "
                              f"{preview_s!r}",
                              es=f"la vista previa de la posición dura de 0 a "
                                 f"{PREVIEW_MAX_S} segundos, no {preview_s!r}")


def _check_hall(v: Variant, setup_source: str, prep_minutes: int, system: str) -> None:
    """The setup source and the preparation window, refused with their reasons."""
    if setup_source not in SETUP_SOURCES:
        raise TournamentError(f"setups come from the salt or the hall, not {setup_source!r}",
                              es="las posiciones salen de la sal (salt) o de la sala (hall), "
                                 f"no {setup_source!r}")
    if system == "knockout" and setup_source != "salt":
        raise TournamentError("a knock-out event's setups come from the salt alone (hall "
                              "reveals are for Swiss and round-robin rounds)",
                              es="las posiciones de una eliminatoria salen solo de la sal (la "
                                 "revelación en la sala es para rondas de suizo y liga)")
    if setup_source == "hall" and not setups.is_numbered(v.key):
        raise TournamentError(f"{v.key} has one start position: nothing to reveal in the hall",
                              es=f"{v.key} tiene una sola posición inicial: no hay nada que "
                                 "revelar en la sala")
    if isinstance(prep_minutes, bool) or prep_minutes not in PREP_MINUTES:
        raise TournamentError(f"a preparation window is {', '.join(map(str, PREP_MINUTES))} "
                              f"minutes, not {prep_minutes!r}",
                              es="una ventana de preparación es de "
                                 f"{', '.join(map(str, PREP_MINUTES))} minutos, no "
                                 f"{prep_minutes!r}")


def _check_pool(v: Variant, exclude_standard: bool, bishops: str, no_repeat: bool,
                rounds: int | None, excluded: Sequence[int],
                shortlist: Sequence[int] | None) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """The organiser's exclusions and shortlist, sorted, each number checked, and the pool
    they leave big enough (at least one setup; a setup per round without repeats)."""
    if not excluded and shortlist is None:
        return (), None
    if not setups.is_numbered(v.key):
        raise TournamentError(f"{v.key} has one start position: nothing to exclude",
                              es=f"{v.key} tiene una sola posición inicial: nada que excluir")
    count = setup_count(v)
    for n in (*excluded, *(shortlist or ())):
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n < count:
            raise TournamentError(f"{n!r} is not a {v.key} setup number (0-{count - 1})",
                                  es=f"{n!r} no es un número de posición de {v.key} "
                                     f"(0-{count - 1})")
    out = tuple(sorted(set(excluded)))
    only = None if shortlist is None else tuple(sorted(set(shortlist)))
    if only is not None and not only:
        raise TournamentError("the shortlist is empty", es="la lista de posiciones está vacía")
    probe = replace(_probe_event(v.key, exclude_standard, bishops), excluded=out,
                    shortlist=only)
    left = len(setups.pool_for(probe))
    if left == 0:
        raise TournamentError("the exclusions leave no setup to draw",
                              es="las exclusiones no dejan ninguna posición que sortear")
    if no_repeat and left < (rounds or 1):
        raise TournamentError(f"only {left} setups are left: too few for {rounds} rounds "
                              "without repeats",
                              es=f"solo quedan {left} posiciones: muy pocas para {rounds} "
                                 "rondas sin repetir")
    return out, only


def _band_digest(v: Variant, eval_band: int | None, exclude_standard: bool, bishops: str,
                 no_repeat: bool, rounds: int | None, excluded: tuple[int, ...] = (),
                 shortlist: tuple[int, ...] | None = None) -> str | None:
    """The digest of the evaluation set an evaluation band draws from (None: no band),
    once the band is checked to leave enough setups."""
    if eval_band is None:
        return None
    if not setups.is_numbered(v.key):
        raise TournamentError("an evaluation band needs numbered setups (chess960, mrc)",
                              es="una banda de evaluación necesita posiciones numeradas "
                                 "(chess960, mrc)")
    if isinstance(eval_band, bool) or not 0 <= eval_band <= 10_000:
        raise TournamentError(f"an evaluation band is 0-10000 centipawns, not "
                              f"{eval_band!r}",
                              es="una banda de evaluación es de 0-10000 centipeones, no "
                                 f"{eval_band!r}")
    evals = setups.evaluation_set(v.key)
    eval_digest = evals.digest()
    probe = replace(_probe_event(v.key, exclude_standard, bishops), eval_band=eval_band,
                    eval_digest=eval_digest, excluded=excluded, shortlist=shortlist)
    left = setups.pool_for(probe)
    if len(left) < (rounds or 1) and no_repeat:
        raise TournamentError(f"only {len(left)} setups lie within ±{eval_band / 100:g}"
                              f" pawns: too few for {rounds} rounds without repeats",
                              es=f"solo {len(left)} posiciones están dentro de "
                                 f"±{eval_band / 100:g} peones: muy pocas para {rounds} "
                                 "rondas sin repetir")
    if len(left) == 0:
        raise TournamentError(f"no setup lies within ±{eval_band / 100:g} pawns",
                              es=f"ninguna posición está dentro de ±{eval_band / 100:g} "
                                 "peones")
    return eval_digest


def _event(row: Any, reveal: bool) -> Event:
    closed = row["status"] == "closed"
    return Event(
        id=row["id"], name=row["name"], variant=row["variant"], system=row["system"],
        rounds=row["rounds"], time_control=row["time_control"],
        tiebreaks=tuple(c for c in row["tiebreaks"].split(",") if c),
        setup_policy=row["setup_policy"], mini_match=bool(row["mini_match"]),
        exclude_standard=bool(row["exclude_standard"]), bishops=row["bishops"],
        no_repeat=bool(row["no_repeat"]), commitment=row["commitment"], status=row["status"],
        initial_colour=row["initial_colour"],
        salt=bytes(row["salt"]) if (closed or reveal) else None,
        version=row["version"], created_at=row["created_at"],
        eval_band=row["eval_band"], eval_digest=row["eval_digest"],
        tiebreak_edition=row["tiebreak_edition"], setup_source=row["setup_source"],
        excluded=_numbers(row["excluded"]) or (),
        shortlist=_numbers(row["shortlist"]), prep_minutes=row["prep_minutes"],
        preview_s=row.get("preview_s"),
    )


def _numbers_text(numbers: Sequence[int]) -> str | None:
    return ",".join(map(str, numbers)) or None


def _numbers(text: str | None) -> tuple[int, ...] | None:
    if text is None:
        return None
    return tuple(int(x) for x in text.split(",") if x)


def _probe_event(variant: str, exclude_standard: bool, bishops: str) -> Event:
    """An event with only the pool's settings, to size a pool before creating the event."""
    return Event(id="", name="", variant=variant, system="swiss", rounds=1, time_control="",
                 tiebreaks=(), setup_policy="round", mini_match=False,
                 exclude_standard=exclude_standard, bishops=bishops, no_repeat=False,
                 commitment="", status="registration")


# --- the round planner (pure) -----------------------------------------------------------------


def used_setups(t: Tournament, before: int) -> list[int]:
    out: list[int] = []
    for b in sorted(t.boards, key=lambda b: (b.round, b.board)):
        if b.round < before and not b.is_bye and b.setup is not None and b.setup not in out:
            out.append(b.setup)
    return out


def plan_round(t: Tournament, salt: bytes) -> list[Board]:
    """The boards of the next round: pairing (Dutch or Berger), byes and setups."""
    e = t.event
    _not_knockout(t)
    if e.status == "registration":
        raise PairingError("registration is still open: close it (start the event) first",
                           es="la inscripción sigue abierta: ciérrela antes (inicie el torneo)")
    if e.status != "running":
        raise PairingError("the event is not running",
                           es="el torneo no está en curso")
    rnd = t.paired_rounds + 1
    if rnd > e.rounds:
        raise PairingError(f"all {e.rounds} rounds are paired",
                           es=f"las {e.rounds} rondas están emparejadas")
    if rnd > 1 and not t.round_complete(rnd - 1):
        missing = [str(b.board) for b in t.round_boards(rnd - 1) if not b.finished]
        raise PairingError(f"round {rnd - 1} has no result yet on board(s) "
                           f"{', '.join(missing)}",
                           es=f"la ronda {rnd - 1} aún no tiene resultado en los tableros "
                              f"{', '.join(missing)}")
    if e.mini_match and rnd % 2 == 0:
        pairs = [(b.black, b.white) if b.black is not None else (b.white, None)
                 for b in t.round_boards(rnd - 1)]
        bye_kinds = {b.white: b.bye for b in t.round_boards(rnd - 1) if b.is_bye}
        games = [(w, b) for w, b in pairs if b is not None]
        bye_list = [(w, bye_kinds[w] or PAB) for w, b in pairs if b is None]
    elif e.system == "swiss":
        active = [p for p in t.players if t.active_in(p, rnd)]
        requested = {n: k for (r, n), k in t.byes.items() if r == rnd}
        paired = {p.number for p in active if p.number not in requested}
        result = pair_dutch(t, rnd, paired)
        games = [(w, b) for w, b in result if b is not None]
        bye_list = [(w, PAB) for w, b in result if b is None]
        bye_list += sorted(requested.items())
    else:
        cycle_round = (rnd + 1) // 2 if e.mini_match else rnd
        schedule = berger.schedule(len(t.players), e.system == "drr")
        order = sorted(t.players, key=lambda p: p.number)
        by_index = {i + 1: p.number for i, p in enumerate(order)}
        if e.system == "drr" and not _follows(t, schedule, by_index):
            # an event paired before the first cycle's last two rounds were exchanged
            schedule = berger.schedule(len(t.players), True, swap_last=False)
        games, bye_list = [], []
        for w, b in schedule[cycle_round - 1]:
            if w in by_index and b in by_index:
                games.append((by_index[w], by_index[b]))
            else:
                bye_list.append((by_index[w if w in by_index else b], ZERO_BYE))
    replay = e.mini_match and rnd % 2 == 0
    pending = e.setup_source == "hall" and not replay  # drawn when revealed in the hall
    drawn = [None] * len(games) if pending else \
        setups.derive_round(e, salt, rnd, len(games), used_setups(t, rnd)) if not replay \
        else [None if b.setup is None else setup_from_number(e.variant, b.setup)
              for b in t.round_boards(rnd - 1) if not b.is_bye]
    out: list[Board] = []
    for i, ((w, b), s) in enumerate(zip(games, drawn, strict=True)):
        out.append(Board(rnd, i + 1, w, b, setup=None if s is None else s.number,
                         fen="" if pending else setups.start_fen(e, s)))
    for j, (n, kind) in enumerate(bye_list):
        assert kind in BYE_KINDS
        out.append(Board(rnd, len(games) + j + 1, n, None, bye=kind))
    return out


def _follows(t: Tournament, schedule: list[list[tuple[int, int]]],
             by_index: dict[int, int]) -> bool:
    """Did the rounds paired so far follow ``schedule`` (a round robin's table)?"""
    step = 2 if t.event.mini_match else 1
    for rnd in range(1, t.paired_rounds + 1, step):
        cycle_round = (rnd + 1) // 2 if t.event.mini_match else rnd
        want = {frozenset((by_index.get(w), by_index.get(b)))
                for w, b in schedule[cycle_round - 1]}
        have = {frozenset((b.white, b.black)) for b in t.round_boards(rnd) if not b.is_bye}
        if not have <= want:
            return False
    return True


def _check_reveals(t: Tournament, salt: bytes, lang: str) -> list[str]:
    """The reveals of a hall event against its salt: each recorded round key re-derived
    from the salt and the recorded digits, and every round that should have one has one."""
    e = t.event
    out = []
    if e.setup_source != "hall":
        if t.reveals:
            out.append("el torneo no es de sala pero tiene revelaciones" if lang == "es"
                       else "the event's setups come from the salt, yet it records reveals")
        return out
    for r in t.reveals:
        try:
            key = setups.round_key(e, salt, r.round, r.input).hex()
        except (ValueError, TournamentError) as exc:
            key = f"({exc})"
        if key != r.key.lower():
            out.append(f"ronda {r.round}: la clave guardada {r.key} no sale de la sal y las "
                       f"cifras {r.input!r} ({key})" if lang == "es" else
                       f"round {r.round}: the recorded key {r.key} does not follow from the "
                       f"salt and the digits {r.input!r} ({key})")
    for rnd in range(1, t.paired_rounds + 1):
        games = [b for b in t.round_boards(rnd) if not b.is_bye]
        if games and t.reveal_of(rnd) is None and not (e.mini_match and rnd % 2 == 0) \
                and any(b.fen for b in games):
            out.append(f"ronda {rnd}: tiene posiciones pero ninguna revelación" if lang == "es"
                       else f"round {rnd}: setups without a reveal")
    return out


def verify(t: Tournament, lang: str = "en") -> Verification:
    """Re-derive every round's setups from the revealed salt (closed events only); the
    mismatches are described in ``lang`` ("en" or "es")."""
    e = t.event
    if e.salt is None:
        raise VerificationError("the salt is revealed when the event is closed; "
                                "verify afterwards",
                                es="la sal se revela al cerrar el torneo; verifique después")
    try:
        verify_commitment(e.salt, e.name, e.commitment)
    except ValueError as exc:
        raise VerificationError(
            str(exc), es="el compromiso no coincide: esta sal y este nombre del torneo no dan "
                         "el compromiso publicado (sal, compromiso o nombre equivocados o "
                         f"alterados; {exc})") from exc
    rounds = range(1, t.paired_rounds + 1)
    counts = [len([b for b in t.round_boards(r) if not b.is_bye]) for r in rounds]
    mismatches = _check_reveals(t, e.salt, lang)
    derived = setups.derive_all(e, e.salt, counts, {r.round: r.input for r in t.reveals})
    numbers: list[list[int | None]] = []
    for r, row in zip(rounds, derived, strict=True):
        games = [b for b in t.round_boards(r) if not b.is_bye]
        numbers.append([None if s is None else s.number for s in row])
        if t.awaits_reveal(r) and t.reveal_of(r) is None:
            continue  # not revealed yet: nothing to compare
        for b, s in zip(games, row, strict=True):
            expected = None if s is None else s.number
            fen = setups.start_fen(e, s)
            if b.setup != expected:
                mismatches.append(
                    f"ronda {r} tablero {b.board}: guardada {b.setup}, obtenida {expected}"
                    if lang == "es" else
                    f"round {r} board {b.board}: stored {b.setup}, derived {expected}")
            elif b.fen != fen:
                mismatches.append(
                    f"ronda {r} tablero {b.board}: posición {expected}, pero el FEN guardado "
                    f"{b.fen} difiere del suyo, {fen}" if lang == "es" else
                    f"round {r} board {b.board}: setup {expected}, but the stored FEN "
                    f"{b.fen} differs from its FEN {fen}")
    return Verification(True, numbers, mismatches)
