"""The setup preview and the rule against setup-shopping (issue 32; docs/server.md, "Setup
preview"; docs/rules.md, "no setup-shopping").

A timed game between people (and, when asked, one against the computer) does not start when
its second seat is taken: both players first see the setup for a shared countdown, the board
locked and both clocks stopped.  The countdown's end is a column (``preview_until``), so a
restarted server re-arms it from the database and never moves it.  Either side may declare
ready; the countdown ends at once only when both have.  When it ends, White's first-move
time begins (lichess's first-move timer, ``Settings.first_move_s``).

Once the setup has been shown to both (the second seat taken), a rated game can no longer be
left for free: an abort is a resignation, and a side that lets its first-move time run out
loses on time.  A casual game is aborted in both cases, as before.

Pure functions of a record and the time: nothing here touches the database or the network.
"""

from __future__ import annotations

from randomchess.accounts.ratings import RatingError, speed_class
from randomchess.pieces import Color
from randomchess.server.games.contract import GameStatus, PreviewDict
from randomchess.server.games.store import GameChanges, GameRecord
from randomchess.server.http.errors import ApiError

# The countdown per speed class (seconds), and the bounds a seek or a game may ask for.
PREVIEW_DEFAULT_S = {"ultrabullet": 20, "bullet": 20, "blitz": 20, "rapid": 60,
                     "classical": 180}
PREVIEW_MAX_S = 600
_NAMES = ("white", "black")


def default_preview_s(initial_ms: int, increment_ms: int) -> int:
    """The speed class's countdown: 20 s bullet and blitz, 60 s rapid, 180 s classical."""
    try:
        speed = speed_class(initial_ms, increment_ms)
    except RatingError:
        return 0
    return PREVIEW_DEFAULT_S.get(speed, 20)


def preview_length_ms(opponent: str, clock: tuple[int, int] | None, days: int | None,
                      asked_s: int | None, default_on: bool) -> int | None:
    """The countdown a new game gets (ms), or None for none: a timed game between people
    has the speed's default unless it asked for another length (0: none) or the server's
    ``preview`` setting is off; a game against the computer only when it asks; a
    correspondence game, a hot-seat game or one without a clock never."""
    if clock is None or days is not None or opponent == "hotseat":
        return None
    if asked_s is not None:
        return asked_s * 1000 or None
    if opponent != "friend" or not default_on:
        return None
    return default_preview_s(*clock) * 1000 or None


def running(record: GameRecord, now: int) -> bool:
    """Whether the countdown is on at ``now``."""
    return (record.preview_until is not None and now < record.preview_until
            and record.status != GameStatus.ENDED)


def shown(record: GameRecord, now: int) -> PreviewDict | None:
    """The ``preview`` field of the game's state while the countdown runs."""
    if not running(record, now) or record.preview_until is None:
        return None
    ready = record.preview_ready or ""
    return {"until": record.preview_until, "left": record.preview_until - now,
            "length": record.preview_ms or 0,
            "ready": [name for name in _NAMES if ready in (name, "both")]}


def start_changes(record: GameRecord, now: int) -> GameChanges:
    """The countdown starts as the second seat is taken (a join)."""
    if not record.preview_ms or record.preview_until is not None:
        return {}
    return {"preview_until": now + record.preview_ms}


def refuse_during(record: GameRecord, now: int) -> None:
    """409 ``preview.running`` while the countdown is on: the board is locked."""
    if running(record, now) and record.preview_until is not None:
        raise ApiError(409, "preview.running",
                       seconds=max(1, (record.preview_until - now + 999) // 1000))


def ready_changes(record: GameRecord, colors: set[Color], now: int) -> GameChanges:
    """A side declares ready; both ready ends the countdown now.  A second ``ready`` of the
    same side, or one after the countdown, is refused (409) and changes nothing."""
    if not colors:
        raise ApiError(403, "seat.wrong_token")
    if not running(record, now):
        raise ApiError(409, "preview.none")
    had = record.preview_ready or ""
    sides = {name for name in _NAMES if had in (name, "both")}
    mine = {_NAMES[c] for c in colors}
    if mine <= sides:
        raise ApiError(409, "preview.already_ready")
    sides |= mine
    if len(sides) == 2:
        return {"preview_ready": "both", "preview_until": now, "updated_at": now}
    return {"preview_ready": next(iter(sides)), "updated_at": now}


def revealed(record: GameRecord) -> bool:
    """The setup has been shown to both players: a game between people whose second seat is
    taken (rated games may no longer be left for free, docs/rules.md, "no setup-shopping")."""
    return (record.opponent == "friend" and record.invite_hash is None
            and record.white_token is not None and record.black_token is not None)


def first_move_from(record: GameRecord) -> int:
    """When the side to move's first-move time began: its last change, or the countdown's
    end if later."""
    return max(record.updated_at, record.preview_until or 0)
