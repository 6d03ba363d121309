"""Events and accounts (issue 30, docs/tournaments.md "Events and accounts"): the account that
created an event is its organiser, the organiser adds co-arbiters by account name, and the
public list of events.

The organiser secret stays the other door: an event made without an account has no staff row
and is run with the secret alone; one made by an account is run from any browser signed in
as that account (or one of its co-arbiters), and with the secret as well.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sqlalchemy import delete, func, insert, select
from sqlalchemy.engine import Connection, Engine

from randomchess.db import now_ms, schema
from randomchess.tournament.errors import StaffError, UnknownEventError

staff_t = schema.tournament_staff
events_t = schema.tournaments
players_t = schema.tournament_players
boards_t = schema.tournament_boards
users_t = schema.users

Role = Literal["organiser", "arbiter"]
ORGANISER: Role = "organiser"
ARBITER: Role = "arbiter"
# At most this many co-arbiters per event; and this many events per list.
MAX_ARBITERS = 20
LIST_LIMIT = 200


@dataclass(frozen=True)
class Summary:
    """One line of the list of events."""

    id: str
    name: str
    variant: str
    system: str
    rounds: int
    status: str
    players: int
    paired_rounds: int
    created_at: int
    organiser: str | None
    role: Role | None = None  # the asking account's role (its own list only)


@dataclass(frozen=True)
class StaffList:
    organiser: str | None
    arbiters: list[str]


def add_owner(conn: Connection, event_id: str, user_id: int) -> None:
    """The event's organiser: the account that created it (inside the creation's
    transaction)."""
    conn.execute(insert(staff_t).values(tournament_id=event_id, user_id=user_id,
                                        role=ORGANISER, added_at=now_ms()))


class Staff:
    """Who runs which event, and the list of events, on one database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def role_of(self, event_id: str, user_id: int) -> Role | None:
        with self.engine.connect() as conn:
            role = conn.execute(select(staff_t.c.role).where(
                staff_t.c.tournament_id == event_id, staff_t.c.user_id == user_id)).scalar()
        return None if role is None else ARBITER if role == ARBITER else ORGANISER

    def staff(self, event_id: str) -> StaffList:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(users_t.c.name, staff_t.c.role)
                .join(users_t, users_t.c.id == staff_t.c.user_id)
                .where(staff_t.c.tournament_id == event_id)
                .order_by(staff_t.c.added_at, users_t.c.name_key)).all()
        organiser = next((str(r.name) for r in rows if r.role == ORGANISER), None)
        return StaffList(organiser, [str(r.name) for r in rows if r.role == ARBITER])

    def add_arbiter(self, event_id: str, name: str) -> StaffList:
        """Add the account ``name`` as a co-arbiter: it can then pair, enter and correct
        results and close the event, but not change who runs it."""
        with self.engine.begin() as conn:
            self._exists(conn, event_id)
            uid = self._account(conn, name)
            role = conn.execute(select(staff_t.c.role).where(
                staff_t.c.tournament_id == event_id, staff_t.c.user_id == uid)).scalar()
            if role == ORGANISER:
                raise StaffError(f"{name} is the event's organiser already",
                                 es=f"{name} ya es el organizador del torneo")
            if role == ARBITER:
                raise StaffError(f"{name} is a co-arbiter already",
                                 es=f"{name} ya es coárbitro")
            count = conn.execute(select(func.count()).select_from(staff_t).where(
                staff_t.c.tournament_id == event_id, staff_t.c.role == ARBITER)).scalar()
            if int(count or 0) >= MAX_ARBITERS:
                raise StaffError(f"an event has at most {MAX_ARBITERS} co-arbiters",
                                 es=f"un torneo tiene como mucho {MAX_ARBITERS} coárbitros")
            conn.execute(insert(staff_t).values(tournament_id=event_id, user_id=uid,
                                                role=ARBITER, added_at=now_ms()))
            _log(conn, event_id, "add-arbiter", name)
        return self.staff(event_id)

    def remove_arbiter(self, event_id: str, name: str) -> StaffList:
        with self.engine.begin() as conn:
            self._exists(conn, event_id)
            uid = self._account(conn, name)
            gone = conn.execute(delete(staff_t).where(
                staff_t.c.tournament_id == event_id, staff_t.c.user_id == uid,
                staff_t.c.role == ARBITER)).rowcount
            if gone != 1:
                raise StaffError(f"{name} is not a co-arbiter of this event",
                                 es=f"{name} no es coárbitro de este torneo")
            _log(conn, event_id, "remove-arbiter", name)
        return self.staff(event_id)

    @staticmethod
    def _exists(conn: Connection, event_id: str) -> None:
        if conn.execute(select(events_t.c.id).where(events_t.c.id == event_id)).first() is None:
            raise UnknownEventError(f"no event with id {event_id!r}",
                                    es=f"no hay ningún torneo con id {event_id!r}")

    @staticmethod
    def _account(conn: Connection, name: str) -> int:
        uid = conn.execute(select(users_t.c.id).where(
            users_t.c.name_key == name.strip().lower())).scalar()
        if uid is None:
            raise StaffError(f"no account is named {name!r}",
                             es=f"ninguna cuenta se llama {name!r}")
        return int(uid)

    # --- the lists ------------------------------------------------------------------------

    def listing(self) -> list[Summary]:
        """The newest events of every status (at most LIST_LIMIT of each)."""
        out: list[Summary] = []
        for status in ("registration", "running", "closed"):
            out += self._summaries(events_t.c.status == status)
        return out

    def events_of(self, user_id: int) -> list[Summary]:
        """The events the account organises or arbitrates, newest first."""
        return self._summaries(staff_t.c.user_id == user_id, mine=True)

    def _summaries(self, where: object, mine: bool = False) -> list[Summary]:
        organiser = (select(users_t.c.name).join(staff_t, staff_t.c.user_id == users_t.c.id)
                     .where(staff_t.c.tournament_id == events_t.c.id,
                            staff_t.c.role == ORGANISER).scalar_subquery())
        players = (select(func.count()).select_from(players_t)
                   .where(players_t.c.tournament_id == events_t.c.id).scalar_subquery())
        paired = (select(func.coalesce(func.max(boards_t.c.round), 0))
                  .where(boards_t.c.tournament_id == events_t.c.id).scalar_subquery())
        columns = [events_t.c.id, events_t.c.name, events_t.c.variant, events_t.c.system,
                   events_t.c.rounds, events_t.c.status, players.label("players"),
                   paired.label("paired"), events_t.c.created_at,
                   organiser.label("organiser")]
        query = select(*columns, staff_t.c.role) if mine else select(*columns)
        if mine:
            query = query.join(staff_t, staff_t.c.tournament_id == events_t.c.id)
        query = query.where(where).order_by(  # type: ignore[arg-type]
            events_t.c.created_at.desc()).limit(LIST_LIMIT)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [Summary(r.id, r.name, r.variant, r.system, int(r.rounds), r.status,
                        int(r.players), int(r.paired), int(r.created_at), r.organiser,
                        (r.role if mine else None)) for r in rows]


def _log(conn: Connection, event_id: str, action: str, name: str) -> None:
    conn.execute(insert(schema.tournament_log).values(
        tournament_id=event_id, at=now_ms(), action=action, new=name[:64]))
