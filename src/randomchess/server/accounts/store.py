"""Accounts: users, sessions, seats held by accounts and ratings, on the server's database
(tables of migration 0004; docs/accounts.md).

Passwords are hashed with Argon2id (argon2-cffi).  A session is a random 256-bit token in a
cookie; the database keeps only its SHA-256, so a leaked table opens no session.  Each session
has its own CSRF token.  Everything here blocks: the routes run it in a worker thread.
"""

from __future__ import annotations

import contextlib
import hmac
import logging
import re
import secrets
import threading
from dataclasses import dataclass
from functools import cache
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import (
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from randomchess.accounts.ratings import (
    Rating,
    RatingError,
    after_idle,
    rate_game,
    speed_class,
)
from randomchess.db import now_ms, schema
from randomchess.server.games.live import hash_secret
from randomchess.server.http.errors import ApiError

log = logging.getLogger("randomchess.server.accounts.store")

SESSION_DAYS = 30
SESSION_MS = SESSION_DAYS * 86_400_000
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{2,19}")
MIN_PASSWORD = 8
MAX_PASSWORD = 256

# The account tables of the one schema (migrations 0004, 0006).
USERS = schema.users
SESSIONS = schema.sessions
SEATS = schema.game_seats
TERMS = schema.game_terms
RATINGS = schema.ratings
CHANGES = schema.rating_changes
SEEKS = schema.seeks
GAMES = schema.games


class AccountError(ApiError, ValueError):
    """A refused account request: HTTP status and the catalogue's code, as
    :class:`ApiError` (the routes let it through as it is)."""


@dataclass(frozen=True)
class Session:
    token_hash: str
    user_id: int
    name: str
    csrf: str


@dataclass(frozen=True)
class NewSession:
    token: str  # the cookie's value, shown to this client once
    session: Session


_hasher = PasswordHasher()  # Argon2id, argon2-cffi's defaults (RFC 9106 low-memory profile)


@cache
def _dummy_hash() -> str:
    """What an unknown name is checked against, so that it costs as much as a known one."""
    return _hasher.hash(secrets.token_urlsafe(16))


def check_name(name: str) -> str:
    if not NAME_RE.fullmatch(name):
        raise AccountError(422, "account.bad_name")
    return name


def check_password(password: str) -> str:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(422, "account.bad_password", low=MIN_PASSWORD, high=MAX_PASSWORD)
    return password


def hash_password(password: str) -> str:
    """The Argon2id hash of an acceptable password (blocking: run it in the password pool)."""
    check_password(password)
    return _hasher.hash(password)


def check_login(stored: str | None, password: str) -> tuple[bool, str | None]:
    """(the password is right, a new hash to store when Argon2's parameters changed).  An
    unknown account (``stored`` None) costs one verification too and is never right
    (blocking: run it in the password pool)."""
    ok = _verify(stored if stored is not None else _dummy_hash(), password)
    if stored is None or not ok:
        return False, None
    return True, _hasher.hash(password) if _hasher.check_needs_rehash(stored) else None


def _verify(stored: str, password: str) -> bool:
    try:
        return _hasher.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


class Accounts:
    """The account tables behind plain, blocking methods."""

    def __init__(self, engine: Engine, write_lock: Any = None) -> None:
        self.engine = engine
        # SQLite has one writer: share the game store's lock (see Store).
        self._lock = write_lock if write_lock is not None else threading.Lock()

    @contextlib.contextmanager
    def _write(self) -> Any:
        with self._lock, self.engine.begin() as conn:
            yield conn

    # ----------------------------------------------------------------- users
    # Only the database's part is here: hashing and verifying passwords (Argon2id) is done
    # by the caller in the password pool (passwords.py), never in a database thread.
    def create_user(self, name: str, digest: str) -> NewSession:
        """A new account with the password hash ``digest``, and its first session."""
        check_name(name)
        try:
            with self._write() as conn:
                uid = conn.execute(insert(USERS).values(
                    name=name, name_key=name.lower(), password_hash=digest,
                    created_at=now_ms())).inserted_primary_key[0]
                return self._open_session(conn, int(uid), name)
        except IntegrityError:
            raise AccountError(409, "account.name_taken") from None

    def login_record(self, name: str) -> tuple[int, str, str] | None:
        """(id, name, password hash) of the account called ``name`` (any case)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(USERS.c.id, USERS.c.name, USERS.c.password_hash)
                               .where(USERS.c.name_key == name.lower()[:64])).first()
        return None if row is None else (int(row.id), str(row.name), str(row.password_hash))

    def start_session(self, uid: int, name: str, new_digest: str | None = None) -> NewSession:
        """A new session of a user whose password was checked; ``new_digest`` replaces the
        stored hash (Argon2's parameters changed since it was made)."""
        with self._write() as conn:
            if new_digest is not None:
                conn.execute(update(USERS).where(USERS.c.id == uid)
                             .values(password_hash=new_digest))
            return self._open_session(conn, uid, name)

    def _open_session(self, conn: Connection, uid: int, name: str) -> NewSession:
        # Expired sessions of anyone go when a session is opened: the table stays small.
        conn.execute(delete(SESSIONS).where(SESSIONS.c.created_at < now_ms() - SESSION_MS))
        token = secrets.token_urlsafe(32)
        s = Session(hash_secret(token), uid, name, secrets.token_urlsafe(32))
        conn.execute(insert(SESSIONS).values(token_hash=s.token_hash, user_id=uid,
                                             csrf=s.csrf, created_at=now_ms()))
        return NewSession(token, s)

    def session(self, token: str | None) -> Session | None:
        if not token or len(token) > 128:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                select(SESSIONS.c.token_hash, SESSIONS.c.user_id, SESSIONS.c.csrf,
                       SESSIONS.c.created_at, USERS.c.name)
                .join(USERS, USERS.c.id == SESSIONS.c.user_id)
                .where(SESSIONS.c.token_hash == hash_secret(token))).first()
        if row is None or now_ms() - row.created_at > SESSION_MS:
            return None
        return Session(row.token_hash, int(row.user_id), str(row.name), str(row.csrf))

    def log_out(self, s: Session) -> None:
        with self._write() as conn:
            conn.execute(delete(SESSIONS).where(SESSIONS.c.token_hash == s.token_hash))

    def log_out_everywhere(self, s: Session) -> None:
        with self._write() as conn:
            conn.execute(delete(SESSIONS).where(SESSIONS.c.user_id == s.user_id))

    def password_hash(self, uid: int) -> str | None:
        with self.engine.connect() as conn:
            stored = conn.execute(select(USERS.c.password_hash)
                                  .where(USERS.c.id == uid)).scalar()
        return None if stored is None else str(stored)

    def replace_password(self, s: Session, digest: str) -> NewSession:
        """The new hash; every session of the account ends; this client gets a new one."""
        with self._write() as conn:
            conn.execute(update(USERS).where(USERS.c.id == s.user_id)
                         .values(password_hash=digest))
            conn.execute(delete(SESSIONS).where(SESSIONS.c.user_id == s.user_id))
            return self._open_session(conn, s.user_id, s.name)

    def delete_account(self, s: Session) -> None:
        """The user, sessions and ratings go; the games stay, their seats anonymised (the
        password was checked by the caller)."""
        with self._write() as conn:
            conn.execute(update(SEATS).where(SEATS.c.user_id == s.user_id).values(user_id=None))
            conn.execute(update(CHANGES).where(CHANGES.c.user_id == s.user_id)
                         .values(user_id=None))
            conn.execute(delete(RATINGS).where(RATINGS.c.user_id == s.user_id))
            conn.execute(delete(SEEKS).where((SEEKS.c.user_id == s.user_id)
                                             | (SEEKS.c.target_id == s.user_id)))
            conn.execute(delete(SESSIONS).where(SESSIONS.c.user_id == s.user_id))
            conn.execute(delete(USERS).where(USERS.c.id == s.user_id))

    def user_id(self, name: str) -> int | None:
        with self.engine.connect() as conn:
            uid = conn.execute(select(USERS.c.id).where(USERS.c.name_key == name.lower())
                               ).scalar()
        return None if uid is None else int(uid)

    # ----------------------------------------------------------------- seats
    def set_terms(self, game_id: str, rated: bool, speed: str,
                  fresh_setup: bool = False) -> None:
        with self._write() as conn:
            conn.execute(insert(TERMS).values(game_id=game_id, rated=rated, speed=speed,
                                              fresh_setup=fresh_setup))

    def terms(self, game_id: str) -> tuple[bool, str, bool] | None:
        """(rated, speed class, a new random setup every game) of a game made by an account
        or the lobby; None for any other game."""
        with self.engine.connect() as conn:
            row = conn.execute(select(TERMS.c.rated, TERMS.c.speed, TERMS.c.fresh_setup)
                               .where(TERMS.c.game_id == game_id)).first()
        return None if row is None else (bool(row.rated), str(row.speed),
                                         bool(row.fresh_setup))

    def carry_over(self, old_id: str, new_id: str) -> None:
        """A rematch of ``old_id``: the same terms, and each account's seat on the other
        colour (colours are reversed)."""
        terms = self.terms(old_id)
        if terms is not None:
            self.set_terms(new_id, *terms)
        for color, uid in self.seats(old_id).items():
            if uid is not None:
                self.claim(new_id, ["black" if color == "white" else "white"], uid)

    def seats(self, game_id: str) -> dict[str, int | None]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(SEATS.c.color, SEATS.c.user_id)
                                .where(SEATS.c.game_id == game_id)).all()
        return {str(r.color): r.user_id for r in rows}

    def claim(self, game_id: str, colors: list[str], uid: int) -> None:
        """Give ``colors`` of the game to the account; 409 if another account holds one."""
        with self._write() as conn:
            held = {r.color: r.user_id for r in conn.execute(
                select(SEATS.c.color, SEATS.c.user_id).where(SEATS.c.game_id == game_id))}
            for color in colors:
                if color in held:
                    if held[color] != uid:
                        raise AccountError(409, "seat.taken")
                    continue
                conn.execute(insert(SEATS).values(game_id=game_id, color=color, user_id=uid))

    def games(self, uid: int, variant: str | None = None, speed: str | None = None,
              result: str | None = None, opponent: str | None = None,
              number: int | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """The account's games, newest first, with the filters of the profile page;
        ``result`` is ``win``, ``loss`` or ``draw`` from the account's side."""
        mine = SEATS.alias("mine")
        theirs = SEATS.alias("theirs")
        opp = USERS.alias("opp")
        q = (select(GAMES.c.id, GAMES.c.variant, GAMES.c.number, GAMES.c.status,
                    GAMES.c.result, GAMES.c.termination, GAMES.c.created_at,
                    mine.c.color, opp.c.name.label("opponent"), TERMS.c.rated, TERMS.c.speed)
             .select_from(mine.join(GAMES, GAMES.c.id == mine.c.game_id)
                          .outerjoin(theirs, (theirs.c.game_id == mine.c.game_id)
                                     & (theirs.c.color != mine.c.color))
                          .outerjoin(opp, opp.c.id == theirs.c.user_id)
                          .outerjoin(TERMS, TERMS.c.game_id == mine.c.game_id))
             .where(mine.c.user_id == uid)
             .order_by(GAMES.c.created_at.desc(), GAMES.c.id).limit(limit))
        if variant is not None:
            q = q.where(GAMES.c.variant == variant)
        if speed is not None:
            q = q.where(TERMS.c.speed == speed)
        if number is not None:
            q = q.where(GAMES.c.number == number)
        if opponent is not None:
            q = q.where(func.lower(opp.c.name) == opponent.lower())
        if result is not None:
            win = ((mine.c.color == "white") & (GAMES.c.result == "1-0")) | \
                  ((mine.c.color == "black") & (GAMES.c.result == "0-1"))
            loss = ((mine.c.color == "white") & (GAMES.c.result == "0-1")) | \
                   ((mine.c.color == "black") & (GAMES.c.result == "1-0"))
            q = q.where({"win": win, "loss": loss,
                         "draw": GAMES.c.result == "1/2-1/2"}[result])
        with self.engine.connect() as conn:
            rows = conn.execute(q).all()
        return [{"id": r.id, "variant": r.variant, "number": r.number, "status": r.status,
                 "result": r.result, "termination": r.termination, "color": r.color,
                 "opponent": r.opponent, "rated": bool(r.rated), "speed": r.speed}
                for r in rows]

    def your_turn(self, uid: int) -> list[str]:
        """The account's unfinished games where one of its seats is to move, oldest first
        (the correspondence "your turn" list; any game with a seat of the account)."""
        return [g["id"] for g in self.your_turn_details(uid)]

    def your_turn_details(self, uid: int) -> list[dict[str, Any]]:
        """:meth:`your_turn` with each game's variant, setup number, days per move and
        deadline (epoch ms by which to move; None without a running clock), the nearest
        deadline first, then the oldest."""
        games = GAMES
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games.c.id, games.c.start_fen, games.c.moves, games.c.variant,
                       games.c.number, games.c.white_ms, games.c.black_ms,
                       games.c.clock_started_at, games.c.days_per_move, SEATS.c.color)
                .join(SEATS, SEATS.c.game_id == games.c.id)
                .where(SEATS.c.user_id == uid, games.c.status != "ended")
                .order_by(games.c.updated_at, games.c.id)).all()
        out: list[dict[str, Any]] = []
        for r in rows:
            first = "white" if r.start_fen.split()[1] == "w" else "black"
            plies = len(r.moves.split())
            to_move = first if plies % 2 == 0 else ("black" if first == "white" else "white")
            if r.color != to_move or any(g["id"] == r.id for g in out):
                continue
            left = r.white_ms if to_move == "white" else r.black_ms
            deadline = None if r.clock_started_at is None or left is None \
                else int(r.clock_started_at + left)
            out.append({"id": r.id, "variant": r.variant, "number": r.number,
                        "color": to_move, "days": r.days_per_move, "deadline": deadline})
        order = {g["id"]: i for i, g in enumerate(out)}
        out.sort(key=lambda g: (g["deadline"] is None, g["deadline"] or 0, order[g["id"]]))
        return out

    def seat_names(self, game_id: str) -> dict[str, str | None]:
        """The account name holding each seat of a game (None: no account)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(SEATS.c.color, USERS.c.name)
                                .outerjoin(USERS, USERS.c.id == SEATS.c.user_id)
                                .where(SEATS.c.game_id == game_id)).all()
        names: dict[str, str | None] = {"white": None, "black": None}
        names.update({str(r.color): r.name for r in rows})
        return names

    def seat_ratings(self, game_id: str, variant: str,
                     speed: str) -> dict[str, dict[str, Any] | None]:
        """Each seat's account rating in ``variant`` and ``speed`` now (None: no account)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(SEATS.c.color, SEATS.c.user_id)
                                .where(SEATS.c.game_id == game_id,
                                       SEATS.c.user_id.is_not(None))).all()
            out: dict[str, dict[str, Any] | None] = {"white": None, "black": None}
            for r in rows:
                rating = self._rating(conn, r.user_id, variant, speed)
                out[str(r.color)] = {"rating": round(rating.rating),
                                     "provisional": rating.provisional}
        return out

    def by_colour(self, uid: int) -> dict[str, dict[str, int]]:
        """Finished games' results from the account's side, per colour."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(SEATS.c.color, GAMES.c.result)
                                .join(GAMES, GAMES.c.id == SEATS.c.game_id)
                                .where(SEATS.c.user_id == uid, GAMES.c.status == "ended")).all()
        out = {c: {"wins": 0, "draws": 0, "losses": 0} for c in ("white", "black")}
        for color, result in rows:
            won = "1-0" if color == "white" else "0-1"
            key = "draws" if result == "1/2-1/2" else "wins" if result == won else \
                "losses" if result in ("1-0", "0-1") else None
            if key is not None:
                out[color][key] += 1
        return out

    def stats(self, uid: int) -> list[dict[str, Any]]:
        """The account's finished games with a result, per variant and speed class (a game
        without terms, claimed after play, takes the class of its clock): games, wins, draws,
        losses, the score (a draw is half) and the same counts per colour."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(SEATS.c.color, GAMES.c.variant, GAMES.c.result, TERMS.c.speed,
                       GAMES.c.clock_initial_ms, GAMES.c.clock_increment_ms)
                .join(GAMES, GAMES.c.id == SEATS.c.game_id)
                .outerjoin(TERMS, TERMS.c.game_id == SEATS.c.game_id)
                .where(SEATS.c.user_id == uid, GAMES.c.status == "ended",
                       GAMES.c.result.in_(("1-0", "0-1", "1/2-1/2")))).all()
        groups: dict[tuple[str, str], dict[str, Any]] = {}
        for r in rows:
            speed = r.speed or game_speed(r.clock_initial_ms, r.clock_increment_ms)
            g = groups.setdefault((r.variant, speed), {
                "variant": r.variant, "speed": speed, "games": 0, "wins": 0, "draws": 0,
                "losses": 0, **{c: {"wins": 0, "draws": 0, "losses": 0}
                                for c in ("white", "black")}})
            won = "1-0" if r.color == "white" else "0-1"
            key = "draws" if r.result == "1/2-1/2" else "wins" if r.result == won else "losses"
            g["games"] += 1
            g[key] += 1
            g[r.color][key] += 1
        out = sorted(groups.values(), key=lambda g: (g["variant"], g["speed"]))
        for g in out:
            g["score"] = (g["wins"] + g["draws"] / 2) / g["games"]
        return out

    def rating_history(self, uid: int) -> list[dict[str, Any]]:
        """Every rating change of the account, oldest first (the profile's chart)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(CHANGES.c.game_id, CHANGES.c.before, CHANGES.c.after, GAMES.c.variant,
                       TERMS.c.speed, CHANGES.c.rated_at)
                .join(GAMES, GAMES.c.id == CHANGES.c.game_id)
                .join(TERMS, TERMS.c.game_id == CHANGES.c.game_id)
                .where(CHANGES.c.user_id == uid)
                .order_by(CHANGES.c.rated_at, CHANGES.c.game_id)).all()
        return [{"game": r.game_id, "variant": r.variant, "speed": r.speed,
                 "before": round(r.before), "rating": round(r.after), "at": r.rated_at}
                for r in rows]

    # ----------------------------------------------------------------- ratings
    def ratings(self, uid: int) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(RATINGS).where(RATINGS.c.user_id == uid)
                                .order_by(RATINGS.c.variant, RATINGS.c.speed)).all()
        now = now_ms()
        shown = [(r, _idle_grown(r, now)) for r in rows]
        return [{"variant": r.variant, "speed": r.speed, "rating": round(g.rating),
                 "rd": round(g.rd), "games": r.games, "provisional": g.provisional}
                for r, g in shown]

    def rating_changes(self, game_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(CHANGES.c.color, CHANGES.c.before, CHANGES.c.after, CHANGES.c.rd_after,
                       USERS.c.name)
                .outerjoin(USERS, USERS.c.id == CHANGES.c.user_id)
                .where(CHANGES.c.game_id == game_id).order_by(CHANGES.c.color.desc())).all()
        return [{"color": r.color, "player": r.name, "before": round(r.before),
                 "after": round(r.after), "change": round(r.after) - round(r.before),
                 "provisional": r.rd_after > 110} for r in rows]

    def rate_ended_game(self, game_id: str, variant: str, result: str | None) -> bool:
        """Rate a rated game that just ended, once: both seats must be held by two
        different accounts.  True if ratings changed."""
        terms = self.terms(game_id)
        if terms is None or not terms[0] or result is None:
            return False
        seats = self.seats(game_id)
        white, black = seats.get("white"), seats.get("black")
        if white is None or black is None or white == black:
            return False
        speed = terms[1]
        try:
            with self._write() as conn:
                # The changes' primary key makes a second rating of the game fail here.
                before = {c: self._rating(conn, u, variant, speed)
                          for c, u in (("white", white), ("black", black))}
                try:
                    after_w, after_b = rate_game(before["white"], before["black"], result)
                except RatingError:
                    return False
                for color, uid, after in (("white", white, after_w), ("black", black, after_b)):
                    conn.execute(insert(CHANGES).values(
                        game_id=game_id, color=color, user_id=uid,
                        before=before[color].rating, after=after.rating, rd_after=after.rd,
                        rated_at=now_ms()))
                    self._store_rating(conn, uid, variant, speed, before[color], after)
        except IntegrityError:
            return False  # rated already
        return True

    def rating_of(self, uid: int, variant: str, speed: str) -> Rating:
        with self.engine.connect() as conn:
            return self._rating(conn, uid, variant, speed)

    @staticmethod
    def _rating(conn: Connection, uid: int, variant: str, speed: str) -> Rating:
        row = conn.execute(select(RATINGS).where(
            RATINGS.c.user_id == uid, RATINGS.c.variant == variant,
            RATINGS.c.speed == speed)).first()
        return Rating() if row is None else _idle_grown(row, now_ms())

    @staticmethod
    def _store_rating(conn: Connection, uid: int, variant: str, speed: str, old: Rating,
                      new: Rating) -> None:
        values = dict(rating=new.rating, rd=new.rd, volatility=new.volatility,
                      games=new.games, updated_at=now_ms())
        if old.games == 0:
            conn.execute(insert(RATINGS).values(user_id=uid, variant=variant, speed=speed,
                                                **values))
        else:
            conn.execute(update(RATINGS).where(
                RATINGS.c.user_id == uid, RATINGS.c.variant == variant,
                RATINGS.c.speed == speed).values(**values))


def _idle_grown(row: Any, now: int) -> Rating:
    """A stored rating as of ``now``: its deviation grown by the time since its last rated
    game, as lichess does (ratings.after_idle); the stored row keeps the value of that game."""
    stored = Rating(row.rating, row.rd, row.volatility, row.games)
    return after_idle(stored, max(0, now - row.updated_at) / 86_400_000)


def setup_statistics(engine: Engine, variant: str, number: int,
                     top: int = 5) -> dict[str, Any]:
    """The finished games from one numbered setup: this server's, and the over-the-board
    games of its events entered from their scoresheets (issue 31) once the board has its
    result: how many, White's score (a draw counts half) and the most common first moves
    (SAN), most played first.  An aborted game (ended with result ``*``) was never played
    out, and a forfeit is no game: they count nowhere."""
    with engine.connect() as conn:
        rows = conn.execute(select(GAMES.c.id, GAMES.c.result, GAMES.c.san,
                                   GAMES.c.termination, GAMES.c.updated_at,
                                   GAMES.c.created_at).where(
            GAMES.c.variant == variant, GAMES.c.number == number,
            GAMES.c.status == "ended", GAMES.c.result.in_(_PLAYED))
            .order_by(GAMES.c.created_at, GAMES.c.id)).all()
        latest = sorted(rows, key=lambda r: (r.updated_at, r.created_at),
                        reverse=True)[:LATEST_GAMES]
        names = _seat_names(conn, [r.id for r in latest])
        otb = _otb_games(conn, variant, number)
    played = [(str(r.result), str(r.san)) for r in rows] + otb
    points = sum({"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[r] for r, _ in played)
    firsts: dict[str, int] = {}
    for _, san in played:
        first = san.split()[:1]
        if first:
            firsts[first[0]] = firsts.get(first[0], 0) + 1
    common = sorted(firsts.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    return {"variant": variant, "number": number, "games": len(played),
            "otb_games": len(otb),
            "white_wins": sum(r == "1-0" for r, _ in played),
            "draws": sum(r == "1/2-1/2" for r, _ in played),
            "black_wins": sum(r == "0-1" for r, _ in played),
            "white_score": points / len(played) if played else None,
            "first_moves": [{"san": m, "games": n} for m, n in common],
            "game_ids": [r.id for r in rows][-100:],
            "latest": [{"id": r.id, "result": r.result, "termination": r.termination,
                        "plies": len(r.san.split()), "ended_at": r.updated_at,
                        "white": names.get((r.id, "white")),
                        "black": names.get((r.id, "black"))} for r in latest]}


LATEST_GAMES = 20


def _seat_names(conn: Connection, game_ids: list[str]) -> dict[tuple[str, str], str]:
    """(game, colour) -> the account name holding that seat, for the games given."""
    if not game_ids:
        return {}
    rows = conn.execute(select(SEATS.c.game_id, SEATS.c.color, USERS.c.name)
                        .join(USERS, USERS.c.id == SEATS.c.user_id)
                        .where(SEATS.c.game_id.in_(game_ids))).all()
    return {(r.game_id, r.color): r.name for r in rows}


_PLAYED = ("1-0", "0-1", "1/2-1/2")


def _otb_games(conn: Connection, variant: str, number: int) -> list[tuple[str, str]]:
    """(board result, English SAN) of the events' over-the-board games from the setup."""
    g, b, e = schema.tournament_games, schema.tournament_boards, schema.tournaments
    joined = g.join(b, (g.c.tournament_id == b.c.tournament_id) & (g.c.round == b.c.round)
                    & (g.c.board == b.c.board)).join(e, e.c.id == g.c.tournament_id)
    rows = conn.execute(select(b.c.result, g.c.san).select_from(joined).where(
        e.c.variant == variant, b.c.setup == number, b.c.result.in_(_PLAYED))
        .order_by(g.c.entered_at)).all()
    return [(str(r[0]), str(r[1])) for r in rows]


def same_secret(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and hmac.compare_digest(a.encode(), b.encode())


def game_speed(initial_ms: int | None, increment_ms: int | None) -> str:
    try:
        return speed_class(initial_ms, increment_ms)
    except RatingError:
        return "unlimited"
