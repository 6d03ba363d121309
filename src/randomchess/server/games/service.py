"""The game service: the one place where requests, the rules, the database, the clocks, the
engine pool and the WebSocket hub meet.

Every action follows the same path (``act``): take the game as this process last committed
or read it, let a function of :mod:`live` decide the changes, commit them with an optimistic
version check, and only then answer and publish.  The game in memory is a cache keyed by the
row's version: when another process committed first, the version check fails and the game is
read again, so the database stays the one durable record.  A per-game lock avoids needless
retries inside one process.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from randomchess.clock import Bonus, Kind, TimeControl
from randomchess.db import DB_ERRORS, now_ms
from randomchess.engine.evaluate import evaluate, is_drawish_material
from randomchess.errors import RandomChessError
from randomchess.pieces import Color
from randomchess.position import Position
from randomchess.server.engines.service import EngineService, create_engine_service
from randomchess.server.games import preview
from randomchess.server.games.contract import (
    GAME_ACTIONS,
    GameAction,
    GameStateDict,
    GameStatus,
    TerminationName,
    state_frame,
)
from randomchess.server.games.hub import Hub
from randomchess.server.games.live import COLOR_BY_NAME, COLOR_NAMES, LiveGame, hash_secret
from randomchess.server.games.store import GameChanges, GameRecord, Store
from randomchess.server.http.deps import Database, db_timeout
from randomchess.server.http.errors import ApiError, termination_words
from randomchess.server.http.guards import check_game_id
from randomchess.server.http.ratelimit import RateLimiter, SharedRateLimiter
from randomchess.server.http.settings import Settings
from randomchess.startpos import (
    SetupPool,
    draw_random,
    numbered_variant,
    random_rank,
    setup_from_fen,
    setup_from_number,
)
from randomchess.variants import get_variant

log = logging.getLogger("randomchess.server")
T = TypeVar("T")
Decide = Callable[[LiveGame, int], GameChanges]

_CACHE_SIZE = 4096
_LOCK_STRIPES = 256
_RETRIES = 8
_FLAG_GRACE_MS = 1000  # a flag this late is taken over by any process
_ENGINE_GRACE_MS = 3000  # ... and a computer move this much past the longest think
_STOP_PART_S = 5.0  # the longest one part of the service may take to stop
_FULL_GC_EVERY = 100  # middle-generation passes per full pass (Python's default: 10)


@dataclass(frozen=True)
class NewGame:
    """What the creator of a game is told once: its seat and, for a friend game, the invite
    (both empty for a game made ahead: its maker holds them)."""

    game: LiveGame
    color: str  # white | black | both (hot seat)
    token: str
    invite: str | None


@dataclass(frozen=True)
class SeatHashes:
    """A friend's game made ahead (an event's hall round, issue 30): its id and the SHA-256
    of White's seat token and of Black's invitation.  The game is created with them; the
    secrets were shown once, to whoever made them, and are stored nowhere."""

    game_id: str
    white_hash: str
    invite_hash: str


class _Stale(Exception):
    """The engine's move was for a position that no longer stands."""


@dataclass(frozen=True, slots=True)
class _Seats:
    """A new game's id and seats: the creator's colour, the computer's, the creator's seat
    token and a friend's invitation (in clear, given once), and what is stored (hashes)."""

    game_id: str
    mine: str
    computer: str | None
    token: str
    invite: str | None
    tokens: dict[str, str | None]
    invite_hash: str | None


def _new_seats(opponent: str, color: str, premade: SeatHashes | None) -> _Seats:
    mine = color if color in COLOR_BY_NAME else secrets.choice(COLOR_NAMES)
    other = COLOR_NAMES[COLOR_BY_NAME[mine] ^ 1]
    token = secrets.token_urlsafe(32)  # 256 bits
    invite = None
    tokens: dict[str, str | None] = {"white": None, "black": None}
    computer = None
    if opponent == "hotseat":
        mine = "both"
        tokens = {"white": hash_secret(token), "black": hash_secret(token)}
    else:
        tokens[mine] = hash_secret(token)
        if opponent == "computer":
            computer = other
        else:
            invite = secrets.token_urlsafe(16)  # 128 bits
    game_id, invite_hash = secrets.token_urlsafe(9), hash_secret(invite) if invite else None
    if premade is not None:
        assert opponent == "friend" and mine == "white"
        game_id, invite_hash = premade.game_id, premade.invite_hash
        tokens["white"], token, invite = premade.white_hash, "", None
    return _Seats(game_id, mine, computer, token, invite, tokens, invite_hash)


class GameService:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store = Store(settings.db_url, settings.db_timeout_s)
        self.db = Database(self.store.engine, settings.db_timeout_s)
        self.hub = Hub(settings.redis_url)
        self.hub.resync = self._resync_watchers  # after a Redis blip (wrapped by the lobby)
        self.engine: EngineService | None = None
        # The creation limit; every limit is a token bucket of randomchess.server.http.ratelimit.
        self.rate: RateLimiter = RateLimiter(settings.create_per_minute, settings.create_burst) \
            if not settings.redis_url else \
            SharedRateLimiter(settings.create_per_minute, settings.create_burst,
                              settings.redis_url)
        self._cache: OrderedDict[str, LiveGame] = OrderedDict()
        self._locks = [asyncio.Lock() for _ in range(_LOCK_STRIPES)]
        self._timers: dict[str, asyncio.TimerHandle] = {}
        # The setup previews' ends (server/games/preview.py), armed from the stored end.
        self._previews: dict[str, asyncio.TimerHandle] = {}
        self._thinking: set[tuple[str, int]] = set()
        self._swept: dict[str, int] = {}  # game id -> version the last sweep examined
        self._tasks: set[asyncio.Task[Any]] = set()
        self._started = False
        # Awaited (in the background) once per game, by the process that committed its end.
        self.end_hooks: list[Callable[[LiveGame], Awaitable[None]]] = []
        # Awaited at the end of start (e.g. the tournament rounds' opening timers, issue 30).
        self.start_hooks: list[Callable[[], Awaitable[None]]] = []
        # Awaited at stop (the routers' own connections, e.g. the account rate limits').
        self.close_hooks: list[Callable[[], Awaitable[None]]] = []
        # Run in the background from start to stop (the routers' own sweeps, e.g. the
        # review of over-the-board games stored by other processes).
        self.background_hooks: list[Callable[[], Awaitable[None]]] = []
        # Whether a game is rated (the accounts set it; without them no game is): the rule
        # against setup-shopping depends on it (server/games/preview.py).
        self.rated_of: Callable[[str], Awaitable[bool]] | None = None

    # ----------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        await self._db(self.store.migrate, bounded=False)
        grace = int(self.settings.heartbeat_s * 3000)
        shifted = await self._db(self.store.resume_clocks, now_ms(), grace, bounded=False)
        if shifted:
            log.info("resumed %d clocks; the time the server was down is not charged", shifted)
        self.engine = create_engine_service(self.settings.engine_workers,
                                            self.settings.redis_url, self.settings.engine_queue)
        await self.engine.start()
        await self.hub.start()
        self._started = True
        self._spawn(self._heartbeat())
        self._spawn(self._sweep_forever())
        for hook in self.background_hooks:
            self._spawn(hook())
        for record in await self._db(self.store.unfinished, bounded=False):
            try:
                live = self._remember(self._live(record))
            except RandomChessError:
                log.exception("game %s cannot be replayed; left as it is", record.id)
                continue
            self._schedule(live)
        for hook in self.start_hooks:
            await hook()
        # What exists now (modules, the app, the games just resumed) lives as long as the
        # process: keep it out of the collector's full passes, which under load paused the
        # event loop for up to 300 ms (bench/server_load.py).  The games in memory hold
        # almost no reference cycles, so full passes over them are made rare as well.
        gc.freeze()
        young, middle, _ = gc.get_threshold()
        gc.set_threshold(young, middle, _FULL_GC_EVERY)

    async def stop(self) -> None:
        self._started = False
        for timers in (self._timers, self._previews):
            for handle in timers.values():
                handle.cancel()
            timers.clear()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        # Each part gets a bounded time: a connection to a Redis that went away must not
        # hold the process's stop.
        closers: list[Callable[[], Awaitable[Any]]] = [self.hub.stop, self.rate.close,
                                                       *self.close_hooks]
        if self.engine is not None:
            closers.insert(0, self.engine.close)
        for close in closers:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(_STOP_PART_S):
                    await close()
        with contextlib.suppress(Exception):
            await self._db(self.store.heartbeat, now_ms())
        self.store.close()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _heartbeat(self) -> None:
        while True:
            try:
                await self._db(self.store.heartbeat, now_ms())
            except ApiError as e:  # the database is down or slow: said once a second
                log.warning("heartbeat failed: %s", e.detail)
            except Exception:
                log.exception("heartbeat failed")
            await asyncio.sleep(self.settings.heartbeat_s)

    async def _sweep_forever(self) -> None:
        """Take over what a dead process stranded (issue 28): every ``sweep_s`` this
        process looks for flags that should have fallen and computer moves owed and stale,
        whoever armed them; acting on them is safe from any process (each commit names the
        version it read; a duplicate engine answer is dropped as stale)."""
        while True:
            await asyncio.sleep(self.settings.sweep_s)
            try:
                await self._sweep()
            except ApiError as e:  # the database is down or slow: the next sweep retries
                log.warning("sweep failed: %s", e.detail)
            except Exception:
                log.exception("sweep failed")

    async def _sweep(self) -> None:
        now = now_ms()
        stale = max(self.settings.engine_movetime_ms, 2000) + _ENGINE_GRACE_MS
        first_move = int(self.settings.first_move_s * 1000)
        found = await self._db(self.store.overdue, now, _FLAG_GRACE_MS, stale, first_move)
        # A game examined at this version owes nothing new: an idle game against the
        # computer with the human to move is looked at once, not every second.
        seen, examined = self._swept, {}
        try:
            for game_id, version in found:
                if game_id in self._timers:
                    continue  # this process times it
                if seen.get(game_id) != version:
                    await self._take_over(game_id)
                examined[game_id] = version
        finally:
            self._swept = examined

    async def _take_over(self, game_id: str) -> None:
        try:
            live = await self.current(game_id)  # commits a fallen flag first
        except ApiError as e:
            if e.status == 503:
                raise
            return  # e.g. 409: the flag fell as this process committed it
        if live.ended:
            return
        r = live.record
        if (r.opponent == "friend" and len(live.moves) < 2 and r.days_per_move is None
                and r.clock_initial_ms is not None
                and now_ms() - preview.first_move_from(r) >= self.settings.first_move_s * 1000):
            # A side never made its first move: aborted, as the abort button would, or in a
            # rated game after the setup was shown, lost on time (docs/rules.md).
            rated = await self.is_rated(game_id)
            with contextlib.suppress(ApiError):
                await self.act(game_id,
                               lambda g, now: g.no_first_move_changes(now, rated))
            return
        if live.computer == live.turn:
            self._schedule(live)  # a no-op if this process is thinking already

    async def _db(self, fn: Callable[..., T], *args: Any, bounded: bool = True) -> T:
        """Run a blocking store call through the server's one bounded door to the database
        (:class:`randomchess.server.http.deps.Database`)."""
        return await self.db.run(fn, *args, bounded=bounded)

    async def _resync_watchers(self, keys: list[str]) -> None:
        """After a lost Redis subscription is back: each watched game's newest state to
        this worker's sockets (what they missed while Redis was away)."""
        for key in keys:
            try:
                live = await self.load(key)
            except ApiError:  # not a game (the lobby's key), or the database is down
                continue
            await self.hub.deliver_local(key, state_frame(live.state(now_ms())))

    async def is_rated(self, game_id: str) -> bool:
        return False if self.rated_of is None else await self.rated_of(game_id)

    async def ping(self) -> None:
        await self._db(self.store.ping)

    # ----------------------------------------------------------------- reading
    def _live(self, record: GameRecord) -> LiveGame:
        return LiveGame(record, automatic_draws=self.settings.automatic_draws)

    def _remember(self, live: LiveGame) -> LiveGame:
        self._cache[live.record.id] = live
        self._cache.move_to_end(live.record.id)
        while len(self._cache) > _CACHE_SIZE:
            self._cache.popitem(last=False)
        return live

    async def load(self, game_id: str) -> LiveGame:
        """The game as committed now (404 if there is no such game)."""
        check_game_id(game_id)  # before the driver sees it (PostgreSQL refuses NUL bytes)
        record = await self._db(self.store.load, game_id)
        if record is None:
            raise ApiError(404, "game.not_found")
        cached = self._cache.get(game_id)
        if cached is None:
            return self._remember(self._live(record))
        # Versions only grow: a read that started before this process's own commit must
        # not take the game back.
        if record.version > cached.version:
            cached.sync(record)
        return cached

    async def current(self, game_id: str) -> LiveGame:
        """The game as committed now, with any ending that is due (a fallen flag nobody's
        timer noticed: another worker took the last move) committed first."""
        live = await self.load(game_id)
        if live.due_changes(now_ms()) is not None:
            with contextlib.suppress(ApiError):
                await self.act(game_id, _no_action)
            live = await self.load(game_id)
        return live

    async def state(self, game_id: str) -> GameStateDict:
        return (await self.current(game_id)).state(now_ms())

    async def pgn(self, game_id: str, site: str, tags: dict[str, str] | None = None) -> str:
        from randomchess.server.games.pgn_export import export_pgn

        return export_pgn(await self.load(game_id), site, tags)

    # ----------------------------------------------------------------- writing
    async def act(self, game_id: str, decide: Decide) -> LiveGame:
        """Decide and commit one change; the caller is answered only after the commit."""
        async with self._locks[hash(game_id) % _LOCK_STRIPES]:
            live = self._cache.get(game_id)
            fresh = live is None
            if live is None:
                live = await self.load(game_id)
            for _ in range(_RETRIES):
                now = now_ms()
                due = live.due_changes(now)
                try:
                    changes = due if due is not None else decide(live, now)
                except ApiError:
                    if fresh:
                        raise
                    # Refused on what this process knew: another worker may have moved
                    # on since, so judge again on the committed row.
                    live, fresh = await self.load(game_id), True
                    continue
                before = live.record
                if not await self._update(game_id, before.version, changes):
                    # Another process committed first: read the row and decide again.
                    live, fresh = await self.load(game_id), True
                    continue
                if live.record is before:  # else a read already brought the commit in
                    live.sync(before.with_changes({**changes, "version": before.version + 1}))
                self._remember(live)
                self._schedule(live)
                # Watchers hear of it while the mover is answered: a slow socket must not
                # hold the answer (each state carries its version, so order is recoverable).
                # The state is encoded once for all of them (and the version's part of it
                # once for the answer too: LiveGame.state_json).
                self.hub.publish_state_soon(game_id, live.state_json(now_ms()))
                if live.ended and before.status != GameStatus.ENDED:
                    for hook in self.end_hooks:
                        self._spawn(hook(live))
                if due is not None:
                    r = live.record
                    if r.termination == TerminationName.TIME_FORFEIT:
                        raise ApiError(409, "game.time_up", result=r.result)
                    raise ApiError(409, "game.ended_before",
                                   termination=termination_words(r.termination),
                                   result=r.result)
                return live
        raise ApiError(409, "game.busy")

    async def _update(self, game_id: str, version: int, changes: GameChanges) -> bool:
        pending = self.store.submit_update(game_id, version, changes)
        if pending is None:
            return await self._db(self.store.update, game_id, version, changes)
        # The store's writer thread commits it; no worker thread needs to wait for that.
        # Given up on after the timeout: not run if the writer has not started it (503),
        # else committed or not, which the next read tells.
        try:
            async with asyncio.timeout(self.settings.db_timeout_s):
                return await asyncio.wrap_future(pending) == 1
        except TimeoutError:
            raise db_timeout(self.settings.db_timeout_s) from None
        except DB_ERRORS as e:
            log.warning("database error: %s", e)
            raise ApiError(503, "db.down") from None

    def _schedule(self, live: LiveGame) -> None:
        """Arm the flag timer and wake the engine when the computer is to move."""
        if not self._started:
            return
        gid = live.record.id
        for timers in (self._timers, self._previews):
            old = timers.pop(gid, None)
            if old is not None:
                old.cancel()
        due = live.flag_at()
        loop = asyncio.get_running_loop()
        if due is not None:
            delay = max(0.0, (due - now_ms()) / 1000) + 0.005
            self._timers[gid] = loop.call_later(
                delay, lambda: self._spawn(self._flag(gid)))
        if preview.running(live.record, now_ms()) and live.record.preview_until is not None:
            # Armed from the stored end (after a restart too): the countdown's end is
            # pushed to the watchers, and the computer may then move.
            delay = max(0.0, (live.record.preview_until - now_ms()) / 1000) + 0.005
            self._previews[gid] = loop.call_later(
                delay, lambda: self._spawn(self._preview_over(gid)))
            return
        if not live.ended and live.computer == live.turn:
            key = (gid, live.record.version)
            if key not in self._thinking:
                self._thinking.add(key)
                self._spawn(self._computer_move(live, key))

    async def _preview_over(self, game_id: str) -> None:
        self._previews.pop(game_id, None)
        with contextlib.suppress(ApiError):
            live = await self.load(game_id)
            self._schedule(live)
            await self.hub.publish(game_id, live.state(now_ms()))

    async def _flag(self, game_id: str) -> None:
        self._timers.pop(game_id, None)
        with contextlib.suppress(ApiError):
            await self._while_db_down(lambda: self.act(game_id, _no_action))

    async def _while_db_down(self, step: Callable[[], Any], tries: int = 60) -> Any:
        """``step()``, tried again each second while the database is down (503): a move of
        the computer or a flag fall must not be lost to an outage nobody retries."""
        for _ in range(tries - 1):
            try:
                return await step()
            except ApiError as e:
                if e.status != 503:
                    raise
                await asyncio.sleep(1.0)
        return await step()

    async def _computer_move(self, live: LiveGame, key: tuple[str, int]) -> None:
        try:
            assert self.engine is not None
            r = live.record
            color = live.turn  # read now: the game in memory moves on while the engine thinks
            moves = list(live.moves)
            clocks = live.clocks_at(now_ms()) if r.clock_started_at is not None else None
            uci = await self.engine.best_move(
                r.variant, r.start_fen, moves, r.level or self.settings.default_level,
                self.settings.engine_movetime_ms, clocks, live.increment_now(),
                key=f"move:{key[0]}:{key[1]}")
            if uci is None:
                return

            def decide(g: LiveGame, now: int) -> GameChanges:
                if g.record.version != key[1]:
                    raise _Stale
                return g.move_changes({color}, uci, now)

            await self._while_db_down(lambda: self.act(r.id, decide))
        except (_Stale, ApiError):
            pass
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("engine move failed in game %s", key[0])
        finally:
            self._thinking.discard(key)

    # ----------------------------------------------------------------- creating
    async def create(self, variant: str, setup: int | str, opponent: str, level: int | None,
                     color: str, clock: tuple[int, int] | None,
                     days: int | None = None, control: TimeControl | None = None,
                     preview_s: int | None = None,
                     black_initial_ms: int | None = None,
                     premade: SeatHashes | None = None,
                     setup_pending: bool = False) -> NewGame:
        """A new game; ``days`` makes it a correspondence game (``clock`` is then the days
        in ms, and its deadline runs from the start, or from the friend's join).  A
        ``control`` (multi-period, delay) replaces ``clock``.  ``preview_s``: the setup
        preview's length (None: the speed's default for a game between people, none
        against the computer; 0: none).  ``black_initial_ms``: Black's own first period (an
        Armageddon's odds), the rest of the control as White's.  ``premade``: a friend's
        game with White's seat taken, made ahead (its id and seats' hashes).
        ``setup_pending``: a friend's game whose setup the join fixes
        (server/games/commit.py): its start until then is provisional, and its ``number``
        null."""
        if control is not None:
            clock, stored = _clock_columns(control)
        else:
            stored = None
        try:
            v = get_variant(variant)
        except ValueError as e:
            raise ApiError.wrap(422, e) from None
        number, start_fen = _resolve_setup(v.key, setup)
        if setup_pending:
            number = None
        if opponent == "computer" and level is not None:
            await self.check_level(v.key, level)
        s = _new_seats(opponent, color, premade)
        mine, computer, token, invite, tokens = s.mine, s.computer, s.token, s.invite, s.tokens
        game_id, invite_hash = s.game_id, s.invite_hash
        now = now_ms()
        preview_ms = preview.preview_length_ms(opponent, clock, days, preview_s,
                                               self.settings.preview)
        record = GameRecord(
            id=game_id, variant=v.key, number=number, start_fen=start_fen,
            fen=start_fen, moves="", san="", clock_log="",
            status=GameStatus.WAITING if invite_hash else GameStatus.PLAYING, result=None,
            termination=None,
            opponent=opponent,
            level=(level or self.settings.default_level) if computer else None,
            computer_color=computer, white_token=tokens["white"], black_token=tokens["black"],
            invite_hash=invite_hash,
            clock_initial_ms=clock[0] if clock else None,
            clock_increment_ms=clock[1] if clock else None,
            white_ms=clock[0] if clock else None,
            black_ms=(black_initial_ms or clock[0]) if clock else None,
            clock_started_at=now if days is not None and invite_hash is None else None,
            draw_offer=None, takeback_offer=None, version=0,
            created_at=now, updated_at=now, days_per_move=days, time_control=stored,
            preview_ms=preview_ms,
            # Against the computer the countdown starts now, the computer ready.
            preview_until=now + preview_ms if preview_ms and computer else None,
            preview_ready=computer if preview_ms and computer else None,
            black_initial_ms=black_initial_ms if clock and days is None else None,
        )
        live = self._live(record)
        if live.game.outcome is not None:  # a start position that is already dead
            record = record.with_changes(live.ending_changes(live.game.outcome, now))
            live.sync(record)
        await self._db(self.store.insert, record)
        live = self._remember(live)
        self._schedule(live)
        return NewGame(live, mine, token, invite)

    async def check_level(self, variant: str, level: int) -> None:
        """422 unless this server's engines offer ``level`` for ``variant`` (1..8 always;
        9, 10 and 11 = maximum where an external engine plays it)."""
        from randomchess.analysis.levels import MAXIMUM, levels_by_variant

        if 1 <= level <= 8:
            return
        if not 1 <= level <= MAXIMUM:
            raise ApiError(422, "level.out_of_range", maximum=MAXIMUM)
        engines = await self.engine.levels() if self.engine is not None else {}
        offered = levels_by_variant(engines).get(variant, [])
        if not offered:
            raise ApiError(422, "level.no_computer", variant=variant)
        if level not in offered:
            raise ApiError(422, "level.needs_engine", level=level, low=offered[0],
                           high=offered[-1])

    async def join(self, game_id: str, invite: str,
                   start: tuple[int, str] | None = None) -> tuple[str, str]:
        """Claim the invited seat: its colour and a fresh token (once only).  ``start``:
        the (setup number, FEN) a pending setup becomes in the same commit (a verifiable
        draw fixed by the join, server/games/commit.py)."""
        token = secrets.token_urlsafe(32)
        seat: list[str] = []

        def decide(g: LiveGame, now: int) -> GameChanges:
            r = g.record
            if r.invite_hash is None:
                raise ApiError(409, "invite.used")
            if not secrets.compare_digest(hash_secret(invite), r.invite_hash):
                raise ApiError(403, "invite.wrong")
            color = "black" if r.black_token is None else "white"
            seat[:] = [color]
            changes: GameChanges = {
                "invite_hash": None, "updated_at": now,
                "status": GameStatus.ENDED if g.ended else GameStatus.PLAYING}
            if color == "black":
                changes["black_token"] = hash_secret(token)
            else:
                changes["white_token"] = hash_secret(token)
            if r.days_per_move is not None and not g.ended and r.clock_started_at is None:
                changes["clock_started_at"] = now  # a correspondence deadline starts now
            if start is not None and not g.ended and not g.moves:
                changes.update({"number": start[0], "start_fen": start[1], "fen": start[1]})
            if not g.ended:
                changes.update(preview.start_changes(r, now))  # the setup preview begins
            return changes

        await self.act(game_id, decide)
        return seat[0], token

    async def reseat(self, game_id: str, color: str) -> str:
        """A fresh token for the seat ``color`` (white or black), given to a player the
        caller has identified otherwise (a knock-out player who proved their seat of the
        match's earlier game, issue 34): any earlier token of that seat stops working.  An
        invited seat not taken yet is taken as :meth:`join` takes it."""
        token = secrets.token_urlsafe(32)

        def decide(g: LiveGame, now: int) -> GameChanges:
            r = g.record
            changes: GameChanges = {"updated_at": now}
            if color == "black" and r.black_token is None:
                changes["invite_hash"] = None
                changes["status"] = GameStatus.ENDED if g.ended else GameStatus.PLAYING
                if not g.ended:
                    changes.update(preview.start_changes(r, now))
            if color == "black":
                changes["black_token"] = hash_secret(token)
            else:
                changes["white_token"] = hash_secret(token)
            return changes

        await self.act(game_id, decide)
        return token

    # ----------------------------------------------------------------- player actions
    async def perform(self, game_id: str, action: GameAction, token: str,
                      move: str | None = None, lag: int = 0) -> LiveGame:
        """Run a named action (``move``, ``resign``, ``draw-offer`` ...) for a seat token;
        ``lag`` is a move's reported network lag (lag compensation, docs/server.md)."""
        def decide(g: LiveGame, now: int) -> GameChanges:
            colors = g.colors_of(token)
            if not colors:
                raise ApiError(403, "seat.wrong_token")
            if action == "move":
                if move is None:
                    raise ApiError(422, "move.missing")
                return g.move_changes(colors, move, now, lag=lag)
            if action == "draw-claim":
                return g.draw_claim_changes(colors, now, move)
            if action == "draw-offer":
                changes = g.draw_offer_changes(colors, now)
                if g.computer is not None and changes.get("status") != GameStatus.ENDED:
                    if _computer_accepts_draw(g.pos, len(g.moves)):
                        return g.agreement_changes(now)
                    return {"draw_offer": None, "updated_at": now}
                return changes
            handler = _SIMPLE_ACTIONS.get(action)
            if handler is None:
                raise ApiError(404, "game.unknown_action", action=action)
            return handler(g, colors, now)

        return await self.act(game_id, decide)


_SIMPLE_ACTIONS: dict[GameAction, Callable[[LiveGame, set[Color], int], GameChanges]] = {
    "resign": LiveGame.resign_changes,
    "draw-accept": LiveGame.draw_accept_changes,
    "draw-decline": LiveGame.draw_decline_changes,
    "takeback-offer": LiveGame.takeback_offer_changes,
    "takeback-accept": LiveGame.takeback_accept_changes,
    "takeback-decline": LiveGame.takeback_decline_changes,
    "ready": lambda g, colors, now: preview.ready_changes(g.record, colors, now),
}
ACTIONS: tuple[GameAction, ...] = GAME_ACTIONS
assert set(ACTIONS) == {"move", "draw-claim", "draw-offer", *_SIMPLE_ACTIONS}


def _clock_columns(control: TimeControl) -> tuple[tuple[int, int] | None, str | None]:
    """(initial ms, increment ms) and the ``time_control`` column of a game with
    ``control``: a simple control needs no column (the two numbers say it all)."""
    if control.kind != Kind.CLOCK:
        return None, None
    first = control.periods[0]
    increment = first.bonus_ms if first.bonus == Bonus.INCREMENT else 0
    return (control.initial_ms, increment), None if control.simple else control.pgn()


def _no_action(g: LiveGame, now: int) -> GameChanges:
    raise ApiError(409, "game.nothing_to_do")


def _computer_accepts_draw(pos: Position, plies: int) -> bool:
    """The computer takes a draw with no winning material left, or late in a level game."""
    return is_drawish_material(pos) or (plies >= 60 and abs(evaluate(pos)) <= 30)


def _resolve_setup(variant: str, setup: int | str) -> tuple[int | None, str]:
    """(setup number or None, start FEN) for a creation request; 422 with the reason."""
    v = get_variant(variant)
    try:
        if isinstance(setup, str) and setup.strip().isdigit():
            # str.isdigit() also takes '²' and other scripts' digits: ASCII only (issue 13).
            if not setup.strip().isascii():
                raise ApiError(422, "setup.ascii_digits")
            setup = int(setup.strip())
        if setup == "random":
            if v.numbering is not None:
                chosen = draw_random(SetupPool(v))[0]
                return chosen.number, chosen.fen
            if v.is_random:  # random arrays without numbers (Capablanca Random, PMRC ...)
                return None, v.setup_fen(random_rank(v))
            return None, v.setup_fen(v.fixed_rank or "")
        if isinstance(setup, int):
            numbered_variant(v)
            chosen = setup_from_number(v, setup)
            return chosen.number, chosen.fen
        pos = Position(setup, v)
    except ValueError as e:
        raise ApiError.wrap(422, e, "setup.bad") from None
    if not pos.legal_moves():
        raise ApiError(422, "setup.no_legal_move")
    fen = pos.fen()
    number = None
    if v.is_random:
        try:
            number = setup_from_fen(fen, v).number
        except ValueError:
            number = None  # a position from a game, not a start array
    return number, fen
