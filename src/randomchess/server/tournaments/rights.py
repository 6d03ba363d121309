"""Who may run an event (issue 30): the organiser secret, or the session of the organiser's
or a co-arbiter's account; shared by the tournament routes and the knock-out routes."""

from __future__ import annotations

from fastapi import Request

from randomchess.server.accounts.deps import CSRF_HEADER, SESSION_COOKIE, current_session
from randomchess.server.accounts.store import Session, same_secret
from randomchess.server.http.errors import ApiError
from randomchess.tournament.staff import ORGANISER, Role, Staff
from randomchess.tournament.store import TournamentStore


def session_of(request: Request) -> Session | None:
    """The signed-in account of the request (in the database's thread), if any."""
    players = getattr(request.app.state, "players", None)  # accounts (accounts/deps.py)
    if players is None:
        return None
    session: Session | None = players.accounts.session(request.cookies.get(SESSION_COOKIE))
    return session


def role_of(request: Request, event_id: str, secret: str | None,
            changing: bool) -> Role | None:
    """What the request may do on the event: the secret makes it the organiser; else the
    signed-in account's role, a state change needing the session's CSRF token too."""
    store: TournamentStore = request.app.state.tournaments  # made by install_tournaments
    if secret and store.check_organiser(event_id, secret):
        return ORGANISER
    s = session_of(request)
    if s is None:
        return None
    if changing and not same_secret(request.headers.get(CSRF_HEADER), s.csrf):
        raise ApiError(403, "account.csrf")
    staff: Staff = request.app.state.tournament_staff
    return staff.role_of(event_id, s.user_id)


async def creator(request: Request) -> Session | None:
    """The account creating an event (it will organise it), or None for an anonymous
    creation; a signed-in creation needs the session's CSRF token."""
    session = await current_session(request)
    if session is not None and not same_secret(request.headers.get(CSRF_HEADER),
                                               session.csrf):
        raise ApiError(403, "account.csrf")
    return session
