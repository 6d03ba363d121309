"""The accounts wing's dependencies: what the account and lobby routes share in one process
(:class:`Players`, ``app.state.players``) and the signed-in session read from the cookie.

Every database call of the wing goes through :meth:`Players.run`, the server's one bounded
door (:class:`randomchess.server.http.deps.Database`): with the database down the account,
player, lobby and statistics routes answer the catalogue's 503 like the game routes.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import Request

from randomchess.server.accounts.passwords import PasswordPool
from randomchess.server.accounts.store import (
    AccountError,
    Accounts,
    NewSession,
    Session,
    check_login,
    check_name,
    check_password,
    hash_password,
    same_secret,
)
from randomchess.server.games.live import LiveGame
from randomchess.server.games.service import GameService
from randomchess.server.http.errors import ApiError
from randomchess.server.http.ratelimit import TokenBuckets

log = logging.getLogger("randomchess.server.accounts")

SESSION_COOKIE = "rc_session"
CSRF_COOKIE = "rc_csrf"
CSRF_HEADER = "x-csrf-token"


class Players:
    """What the account routes share in one process (``app.state.players``)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.db = service.db
        store = service.store
        self.accounts = Accounts(store.engine, getattr(store, "_write_lock", None))
        settings = service.settings
        # The server's one rate-limit mechanism (ratelimit.py), in Redis when configured.
        self.limits = TokenBuckets(settings.redis_url)
        # (attempts, window in ms): a bucket of that many tokens refilled over the window
        self.login_per_address = (settings.login_per_minute, 60_000)
        self.login_per_name = (settings.account_attempts_per_15min, 15 * 60_000)
        self.signup_per_address = (settings.signup_per_hour, 60 * 60_000)
        self.passwords = PasswordPool(settings.password_workers, settings.password_queue)

    async def on_game_end(self, live: LiveGame) -> None:
        r = live.record
        try:
            # not bounded: a background task of the game's end, which nobody waits on
            await self.db.run(self.accounts.rate_ended_game, r.id, r.variant, r.result,
                              bounded=False)
        except Exception:
            log.exception("rating game %s failed", r.id)

    # ----------------------------------------------------------------- passwords
    # The database's part through the bounded door, Argon2 in the password pool: a log-in
    # flood waits (or is refused) there, never in the database's threads.
    async def sign_up(self, name: str, password: str) -> NewSession:
        check_name(name)
        digest = await self.passwords.run(hash_password, password)
        new: NewSession = await self.run(self.accounts.create_user, name, digest)
        return new

    async def log_in(self, name: str, password: str) -> NewSession:
        """A new session for the right name and password; an unknown name costs one
        verification too and gets the same answer as a wrong password."""
        record = await self.run(self.accounts.login_record, name)
        ok, new_digest = await self.passwords.run(
            check_login, None if record is None else record[2], password)
        if record is None or not ok:
            raise AccountError(401, "account.wrong_login")
        new: NewSession = await self.run(self.accounts.start_session, record[0], record[1],
                                         new_digest)
        return new

    async def _check_password(self, s: Session, password: str) -> None:
        stored = await self.run(self.accounts.password_hash, s.user_id)
        ok, _ = await self.passwords.run(check_login, stored, password)
        if not ok:
            raise AccountError(403, "account.wrong_password")

    async def change_password(self, s: Session, old: str, new: str) -> NewSession:
        """Every session of the account ends; this client gets a new one."""
        check_password(new)
        await self._check_password(s, old)
        digest = await self.passwords.run(hash_password, new)
        out: NewSession = await self.run(self.accounts.replace_password, s, digest)
        return out

    async def delete_account(self, s: Session, password: str) -> None:
        await self._check_password(s, password)
        await self.run(self.accounts.delete_account, s)

    async def run(self, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` through the bounded door: 503 if the database is down or slow; an
        :class:`AccountError` (an ApiError) is answered as it is."""
        return await self.db.run(fn, *args)


def players_of(request: Request) -> Players:
    players: Players = request.app.state.players
    return players


async def current_session(request: Request) -> Session | None:
    """The session of the request's cookie, if it is a live one."""
    return await players_of(request).run(  # type: ignore[no-any-return]
        players_of(request).accounts.session, request.cookies.get(SESSION_COOKIE))


async def changing_session(request: Request) -> Session:
    """The session of a cookie-authenticated state change, its CSRF token checked."""
    s = await current_session(request)
    if s is None:
        raise ApiError(401, "account.login_required")
    if not same_secret(request.headers.get(CSRF_HEADER), s.csrf):
        raise ApiError(403, "account.csrf")
    return s
