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
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection, Engine

from randomchess.db import make_engine, migrate, now_ms, schema
from randomchess.startpos import (
    SetupNumberError,
    SetupPool,
    SetupPoolError,
    new_salt,
    setup_from_number,
    verify_commitment,
)
from randomchess.startpos import commitment as make_commitment
from randomchess.tournament import berger, setups
from randomchess.tournament.errors import (
    CorrectionError,
    EventClosedError,
    PairingError,
    RegistrationError,
    ResultError,
    TournamentError,
    UnknownEventError,
    VerificationError,
)
from randomchess.tournament.knockout import Format as KnockoutFormat
from randomchess.tournament.model import (
    BYE_KINDS,
    GAME_RESULTS,
    PAB,
    REQUESTABLE_BYES,
    SETUP_POLICIES,
    SYSTEMS,
    ZERO_BYE,
    Board,
    Event,
    LogEntry,
    Player,
    Tournament,
    check_name,
    parse_result,
)
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
players_t = schema.tournament_players

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
        """A snapshot; the salt is included only once the event is closed (or ``reveal``)."""
        with self.engine.connect() as conn:
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
        return Tournament(event, players, boards, requested, log)

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
        knockout: KnockoutFormat | None = None,
    ) -> Created:
        """A new event in registration, committed to a fresh secret salt (a knock-out event
        with its ``knockout`` format: randomchess.tournament.knockout_store)."""
        name = check_name(name, "event name", 120)
        v = _checked_variant(variant)
        if knockout is not None:  # its pool and colour settings are checked as a Swiss's
            _check_format(v, "swiss", setup_policy, bishops, initial_colour, 1, False,
                          tiebreak_edition)
            system, rounds = "knockout", None
        else:
            _check_format(v, system, setup_policy, bishops, initial_colour, rounds,
                          mini_match, tiebreak_edition)
        codes = parse_tiebreaks(tiebreaks) if tiebreaks is not None else (
            () if knockout else DEFAULT_SWISS if system == "swiss" else DEFAULT_ROUND_ROBIN)
        time_control = time_control.strip()
        if len(time_control) > 64:
            raise TournamentError("the time control has more than 64 characters",
                                  es="el ritmo de juego tiene más de 64 caracteres")
        eval_digest = _band_digest(v, eval_band, exclude_standard, bishops, no_repeat, rounds)
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
                tiebreak_edition=tiebreak_edition,
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

    def close(self, event_id: str) -> Tournament:
        """Close the event (every round paired and complete) and reveal its salt."""

        def step(conn: Connection, t: Tournament) -> None:
            _not_knockout(t)
            if t.event.status != "running":
                raise RegistrationError("the event has not started",
                                        es="el torneo no ha empezado")
            if t.paired_rounds < t.event.rounds:
                raise PairingError(f"{t.paired_rounds} of {t.event.rounds} rounds paired; "
                                   "pair and play them all before closing",
                                   es=f"{t.paired_rounds} de {t.event.rounds} rondas "
                                      "emparejadas; emparéjelas y júguelas todas antes de cerrar")
            if not t.round_complete(t.paired_rounds):
                raise PairingError(f"round {t.paired_rounds} still has games without a result",
                                   es=f"la ronda {t.paired_rounds} aún tiene partidas sin "
                                      "resultado")
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
        result; an aborted game's board free) before the server records them: read only.
        The games are looked up by the ids the loaded boards hold (each read may see a newer
        commit than the one before it: SQLite reads outside a transaction)."""
        with self.engine.connect() as conn:
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

    def event_of_game(self, game_id: str) -> str | None:
        """The event whose board plays the online game ``game_id``, if any."""
        with self.engine.connect() as conn:
            return conn.execute(select(boards_t.c.tournament_id)
                                .where(boards_t.c.game_id == game_id)).scalar()

    def online_moves(self, game_id: str) -> tuple[str, list[str]] | None:
        """The start FEN and UCI moves of a server game (for the PGN export)."""
        from sqlalchemy import text

        with self.engine.connect() as conn:
            row = conn.execute(text("SELECT start_fen, moves FROM games WHERE id = :i"),
                               {"i": game_id}).first()
        if row is None:
            return None
        return str(row[0]), str(row[1]).split()


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

def _band_digest(v: Variant, eval_band: int | None, exclude_standard: bool, bishops: str,
                 no_repeat: bool, rounds: int | None) -> str | None:
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
                    eval_digest=eval_digest)
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
        tiebreak_edition=row["tiebreak_edition"],
    )


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
    drawn = setups.derive_round(e, salt, rnd, len(games), used_setups(t, rnd)) \
        if not (e.mini_match and rnd % 2 == 0) else [
            None if b.setup is None else setup_from_number(e.variant, b.setup)
            for b in t.round_boards(rnd - 1) if not b.is_bye]
    out: list[Board] = []
    for i, ((w, b), s) in enumerate(zip(games, drawn, strict=True)):
        out.append(Board(rnd, i + 1, w, b, setup=None if s is None else s.number,
                         fen=setups.start_fen(e, s)))
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
    derived = setups.derive_all(e, e.salt, counts)
    mismatches = []
    numbers: list[list[int | None]] = []
    for r, row in zip(rounds, derived, strict=True):
        games = [b for b in t.round_boards(r) if not b.is_bye]
        numbers.append([None if s is None else s.number for s in row])
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
