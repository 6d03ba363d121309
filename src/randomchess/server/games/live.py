"""A game in memory: the stored record with its :class:`~randomchess.game.Game`, and every
player action as a function from (game, seat, time) to the column changes that commit it.

The rules of how a game ends (automatic endings, draw claims, resignation, agreement, flag
fall) are the core's :class:`Game`; this module only turns its outcomes into columns and
back.  Nothing here touches the database or the network.  An action may try moves on the
game (to judge a claim or the position after a move) but leaves it as it found it: the game
changes only when a committed record is applied with :meth:`LiveGame.sync`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterator
from contextlib import contextmanager

from randomchess.clock import NO_CLOCK, Bonus, TimeControl
from randomchess.errors import RandomChessError
from randomchess.game import Game, Outcome, Termination
from randomchess.pieces import BLACK, WHITE, Color
from randomchess.position import Move, Position
from randomchess.san import parse_san, san
from randomchess.server.games import preview
from randomchess.server.games.contract import (
    TERMINATION_NAMES,
    ClockDict,
    ClockLabelDict,
    GameStateDict,
    GameStatus,
    TerminationName,
)
from randomchess.server.games.store import GameChanges, GameRecord
from randomchess.server.http.errors import COLOR_WORDS, ApiError, ErrorCode, termination_words

COLOR_NAMES = ("white", "black")
# Lag compensation (issue 32, docs/server.md): the most of a move's time given back for the
# lag the mover's page reported, per move.
LAG_CAP_MS = 500
COLOR_BY_NAME = {"white": WHITE, "black": BLACK}
RESULT_WINNERS = {"1-0": "white", "0-1": "black"}

# The API's names of the terminations (contract.TerminationName; docs/server.md) and back.
_TERMINATIONS: dict[str, Termination] = {name: t for t, name in TERMINATION_NAMES.items()}
_DRAW_REFUSALS: tuple[ErrorCode, ErrorCode] = ("draw.no_offer", "draw.own_offer")
_TAKEBACK_REFUSALS: tuple[ErrorCode, ErrorCode] = ("takeback.no_offer", "takeback.own_offer")


_dumps = json.JSONEncoder(separators=(",", ":")).encode


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _matches(digest: str, stored: str | None) -> bool:
    # Compare digests of equal length in constant time; a missing seat never matches.
    return stored is not None and hmac.compare_digest(digest, stored)


def control_of(record: GameRecord) -> TimeControl:
    """A stored game's control: its ``time_control`` column, or (a game stored before 0008,
    or a simple one) the control its clock columns say."""
    if record.days_per_move is not None:
        return TimeControl.correspondence(record.days_per_move)
    if record.time_control is not None:
        return TimeControl.parse(record.time_control)
    if record.clock_initial_ms is None:
        return NO_CLOCK
    return TimeControl.fischer(record.clock_initial_ms, record.clock_increment_ms or 0)


def _ending(outcome: Outcome) -> GameChanges:
    return {"status": GameStatus.ENDED, "result": outcome.result(),
            "termination": TERMINATION_NAMES[outcome.termination]}


class LiveGame:
    """A committed record and the game its moves reach.

    The service keeps one per game in memory and brings it up to date with :meth:`sync`
    after every commit, so a move costs one push, not a replay of the game.
    """

    def __init__(self, record: GameRecord, automatic_draws: bool = False) -> None:
        self.record = record
        self.game = Game(record.start_fen, record.variant, automatic_draws=automatic_draws)
        self.moves: list[str] = []  # UCI, as stored
        self.sans: list[str] = []
        self._public: GameStateDict | None = None
        self._public_json: str | None = None  # its JSON but the clocks and the preview
        self._fen: tuple[tuple[int, int, int], str] | None = None  # see _fen_of
        self._set_control(record)
        self.sync(record)

    @property
    def pos(self) -> Position:
        return self.game.position

    @property
    def version(self) -> int:
        return self.record.version

    # ----------------------------------------------------------------- keeping up
    def sync(self, record: GameRecord) -> None:
        """Make this the game of ``record``: pop the moves it took back and push the ones it
        adds (a fresh game only when the start differs), then take its stored ending."""
        game = self.game
        moves = record.moves.split()
        if (record.start_fen, record.variant) != (self.record.start_fen, self.record.variant):
            game = self.game = Game(record.start_fen, record.variant,
                                    automatic_draws=game.automatic_draws)
            self.moves = []
        same = 0
        for mine, theirs in zip(self.moves, moves, strict=False):
            if mine != theirs:
                break
            same += 1
        while len(self.moves) > same:
            game.pop()
            self.moves.pop()
        for text in moves[same:]:
            # The record decides whether the game is over; a stored game goes on past an
            # ending a changed setting would now declare (see ``due_changes``).
            game.outcome = None
            game.push(game.position.parse_uci(text))
            self.moves.append(text)
        if record.status == GameStatus.ENDED and record.termination in _TERMINATIONS:
            # An ending by action (resignation, agreement, claim, flag) is a stored value.
            winner = RESULT_WINNERS.get(record.result or "")
            game.outcome = Outcome(_TERMINATIONS[record.termination],
                                   None if winner is None else COLOR_BY_NAME[winner])
        self.sans = record.san.split()
        if (record.time_control, record.days_per_move, record.clock_initial_ms) != (
                self.record.time_control, self.record.days_per_move,
                self.record.clock_initial_ms):
            self._set_control(record)
        self.record = record
        self._public = None
        self._public_json = None

    @contextmanager
    def _trying(self) -> Iterator[Game]:
        """The game, to try moves and endings on; put back as it was afterwards."""
        game = self.game
        moves, outcome = game.moves, game.outcome  # (a new list each time it is read)
        try:
            yield game
        finally:
            while game.plies > len(moves):
                game.take_back()  # the outcome is put back below
            now = game.moves
            while now != moves[:len(now)]:
                game.take_back()
                now.pop()
            for move in moves[len(now):]:  # what the trial took back
                game.outcome = None
                game.push(move)
            game.outcome = outcome

    # ----------------------------------------------------------------- seats
    def colors_of(self, token: str) -> set[Color]:
        """The colours ``token`` may play: one, both (hot seat) or none."""
        out: set[Color] = set()
        digest = hash_secret(token)  # once for both seats (a hot seat holds both)
        if _matches(digest, self.record.white_token):
            out.add(WHITE)
        if _matches(digest, self.record.black_token):
            out.add(BLACK)
        return out

    @property
    def ended(self) -> bool:
        return self.record.status == GameStatus.ENDED

    @property
    def computer(self) -> Color | None:
        c = self.record.computer_color
        return None if c is None else COLOR_BY_NAME[c]

    @property
    def turn(self) -> Color:
        return self.game.position.turn

    # ----------------------------------------------------------------- clocks
    # Every figure comes from the control's arithmetic (randomchess.clock); this only
    # knows where the game stores its clocks.
    def _set_control(self, record: GameRecord) -> None:
        self.control = control_of(record)
        # Its words, written once (every state carries them).
        self._control_text = self.control.pgn()
        self._label: ClockLabelDict = {"en": self.control.label("en"),
                                       "es": self.control.label("es")}

    def move_number(self) -> int:
        """The side to move's own move number (from 1), whoever moved first."""
        return len(self.moves) // 2 + 1

    def _elapsed(self, now: int) -> int | None:
        r = self.record
        if r.clock_started_at is None or self.ended:
            return None
        return max(0, now - r.clock_started_at)

    def clocks_at(self, now: int) -> tuple[int, int] | None:
        """(white, black) milliseconds the clocks show at ``now``, the running side charged
        (a simple delay is not)."""
        r = self.record
        if r.white_ms is None or r.black_ms is None:
            return None
        left = [r.white_ms, r.black_ms]
        elapsed = self._elapsed(now)
        if elapsed is not None:
            left[self.turn] = self.control.shown(left[self.turn], elapsed, self.move_number())
        return left[0], left[1]

    def delay_left(self, now: int) -> int:
        """The simple delay the running side still has at ``now`` (ms; 0 for none)."""
        elapsed = self._elapsed(now)
        return 0 if elapsed is None else self.control.delay_left(elapsed, self.move_number())

    def increment_now(self) -> int:
        """The Fischer increment the side to move earns for its move (ms)."""
        p = self.control.bonus_of(self.move_number())
        return p.bonus_ms if p.bonus == Bonus.INCREMENT else 0

    def flag_at(self) -> int | None:
        """Epoch ms at which the side to move runs out of time, if its clock runs."""
        r = self.record
        if r.clock_started_at is None or self.ended or r.white_ms is None or r.black_ms is None:
            return None
        left = (r.white_ms, r.black_ms)[self.turn]
        return r.clock_started_at + self.control.flag_after(left, self.move_number())

    # ----------------------------------------------------------------- state
    def claimable(self) -> list[TerminationName]:
        """The draws the side to move may claim now, without naming a move (FIDE 9.2.2,
        9.3.2)."""
        if self.ended:
            return []
        out: list[TerminationName] = []
        if self.game.can_claim_threefold_repetition():
            out.append(TERMINATION_NAMES[Termination.THREEFOLD_REPETITION])
        if self.game.can_claim_fifty_moves():
            out.append(TERMINATION_NAMES[Termination.FIFTY_MOVES])
        return out

    def _public_state(self) -> GameStateDict:
        # Everything but the clocks depends on the version only: built once per version.
        if self._public is None:
            r = self.record
            pos = self.game.position
            players = {name: "human" for name in COLOR_NAMES}
            if r.computer_color:
                players[r.computer_color] = "computer"
            self._public = {
                "id": r.id, "variant": r.variant, "number": r.number,
                "start_fen": r.start_fen, "fen": self._fen_of(pos), "moves": self.moves,
                "san": self.sans, "status": r.status, "result": r.result,
                "termination": r.termination,
                "winner": None if r.result is None else RESULT_WINNERS.get(r.result),
                "clocks": None, "to_move": COLOR_NAMES[pos.turn],
                "legal_moves": [] if self.ended else [pos.uci(m) for m in pos.legal_moves()],
                "check": pos.is_check(), "ply": len(self.moves), "opponent": r.opponent,
                "level": r.level, "players": players, "invite_open": r.invite_hash is not None,
                "draw_offer": r.draw_offer, "takeback_offer": r.takeback_offer,
                "claimable": self.claimable(), "version": r.version, "preview": None,
            }
        return self._public

    def _fen_of(self, pos: Position) -> str:
        """``pos.fen()``, kept for the position a move was tried on until the state of the
        game after that move is built (writing a FEN twice per move showed in the profile).
        The key is all a FEN says: the Zobrist key (everything but the clocks) and the
        clocks."""
        key = (pos.zobrist, pos.halfmove_clock, pos.fullmove_number)
        if self._fen is not None and self._fen[0] == key:
            return self._fen[1]
        fen = pos.fen()
        self._fen = (key, fen)
        return fen

    def state(self, now: int) -> GameStateDict:
        """The public state (``GET /api/games/{id}``): no secret, the same for everyone."""
        public = self._public_state()
        countdown = preview.shown(self.record, now)
        if countdown is not None:
            public = {**public, "preview": countdown}
        clocks = self._clocks(now)
        if clocks is None:
            return public
        return {**public, "clocks": clocks}

    def _clocks(self, now: int) -> ClockDict | None:
        clocks = self.clocks_at(now)
        if clocks is None:
            return None
        r = self.record
        return {
            "white": clocks[0], "black": clocks[1],
            "running": None if r.clock_started_at is None or self.ended
            else COLOR_NAMES[self.turn],
            "initial": r.clock_initial_ms, "increment": r.clock_increment_ms,
            # Correspondence: the days per move and the running side's deadline (epoch ms).
            "days": r.days_per_move,
            "deadline": None if r.days_per_move is None else self.flag_at(),
            "control": self._control_text, "label": self._label,
            "delay": self.delay_left(now),
            "to_control": {name: self.control.moves_to_control(self._made(color))
                           for color, name in enumerate(COLOR_NAMES)},
        }

    def _made(self, color: Color) -> int:
        """The moves ``color`` has made (whoever moved first)."""
        n = len(self.moves)
        return n // 2 if self.turn == color else n - n // 2

    def state_json(self, now: int) -> str:
        """:meth:`state` as JSON text.  What depends on the version only is encoded once per
        version (every answer and push of it reuses the text); the clocks and the preview's
        countdown, which depend on ``now``, are encoded each time and close the object."""
        if self._public_json is None:
            public = {k: v for k, v in self._public_state().items()
                      if k not in ("clocks", "preview")}
            self._public_json = _dumps(public)[:-1]  # without its closing brace
        countdown = preview.shown(self.record, now)
        clocks = self._clocks(now)
        return (f'{self._public_json},"clocks":{"null" if clocks is None else _dumps(clocks)},'
                f'"preview":{"null" if countdown is None else _dumps(countdown)}}}')

    # ----------------------------------------------------------------- helpers
    def _acting(self, colors: set[Color]) -> Color:
        """The colour a seat acts as: its own, or the side to move for the hot seat."""
        if not colors:
            raise ApiError(403, "seat.wrong_token")
        if len(colors) == 1:
            return next(iter(colors))
        return self.turn

    def _live(self) -> None:
        if self.ended:
            raise ApiError(409, "game.over", result=self.record.result,
                           termination=termination_words(self.record.termination))

    def _charged(self, now: int) -> GameChanges:
        """Clock columns with the running side charged up to ``now`` and stopped."""
        left = self.clocks_at(now)
        if left is None:
            return {}
        return {"white_ms": max(0, left[0]), "black_ms": max(0, left[1]),
                "clock_started_at": None}

    def ending_changes(self, outcome: Outcome, now: int) -> GameChanges:
        return {**self._charged(now), **_ending(outcome), "draw_offer": None,
                "takeback_offer": None, "updated_at": now}

    def due_changes(self, now: int) -> GameChanges | None:
        """An ending owed before anything else happens: the running side's flag has fallen
        by ``now`` (FIDE 6.9), or the game reached an ending the record does not show yet
        (a start position that is already dead, a setting changed since it was stored)."""
        if self.ended:
            return None
        if self.game.outcome is not None:
            return self.ending_changes(self.game.outcome, now)
        due = self.flag_at()
        if due is not None and now >= due:
            with self._trying() as game:
                return self.ending_changes(game.flag(), now)
        return None

    def parse_move(self, text: str) -> Move:
        """UCI first (``e2e4``, ``e1h1``), then SAN in either language; 409 with the reason."""
        if not isinstance(text, str) or not text.strip() or len(text) > 32:
            raise ApiError(409, "move.empty")
        pos = self.game.position
        try:
            return pos.parse_uci(text.strip())
        except RandomChessError as uci_error:
            try:
                return parse_san(pos, text, None)
            except RandomChessError as san_error:
                reason = san_error if text.strip()[0].isupper() or "-" in text else uci_error
                raise ApiError.wrap(409, reason, "move.sent", move=text) from None

    # ----------------------------------------------------------------- actions
    def move_changes(self, colors: set[Color], text: str, now: int,
                     claim: bool = False, lag: int = 0) -> GameChanges:
        """Play ``text`` for a seat; with ``claim`` the move is written as a draw claim
        (FIDE 9.2.1, 9.3.1) and refused, changing nothing, unless the claim is correct.
        ``lag``: the mover's reported network lag (ms), given back up to LAG_CAP_MS."""
        self._live()
        if not colors:
            raise ApiError(403, "seat.wrong_token")
        preview.refuse_during(self.record, now)  # the board is locked in the preview
        us = self.turn
        if us not in colors:
            raise ApiError(409, "turn.not_yours", color=COLOR_WORDS[COLOR_NAMES[us]])
        move = self.parse_move(text)
        if claim and not self.game.can_claim_draw(move):
            raise ApiError(409, "claim.bad_move")
        r = self.record
        changes: GameChanges = {"updated_at": now, "takeback_offer": None}
        clock_entry = "-"
        if r.white_ms is not None and r.black_ms is not None:
            both = [r.white_ms, r.black_ms]
            used = self._elapsed(now) or 0
            if r.days_per_move is None:
                # Lag compensation: the mover's reported lag is not its thinking time, up
                # to LAG_CAP_MS and never more than this move took.
                used -= min(max(0, lag), LAG_CAP_MS, used)
            # The control decides: increment, delay, the next period's time at the move
            # count, the full days again (correspondence).
            both[us] = mine = self.control.after_move(
                both[us], used, self.move_number(), timed=r.clock_started_at is not None)
            changes.update({"white_ms": both[0], "black_ms": both[1]})
            clock_entry = str(mine)
            # Clocks start once each side has made its first move (as on lichess); a
            # correspondence deadline runs from the start.
            changes["clock_started_at"] = now if len(self.moves) + 1 >= 2 \
                or r.days_per_move is not None else None
        if r.draw_offer is not None and r.draw_offer != COLOR_NAMES[us]:
            changes["draw_offer"] = None  # a move declines the opponent's offer
        pos = self.game.position
        written = san(pos, move)
        uci = pos.uci(move)
        with self._trying() as game:
            end = game.claim_draw(move) if claim else game.push(move)
            fen = self._fen_of(game.position)
        changes.update({"fen": fen, "moves": " ".join([*self.moves, uci]),
                        "san": " ".join([*self.sans, written]),
                        "clock_log": " ".join([*r.clock_log.split(), clock_entry])})
        if r.status == GameStatus.WAITING and r.invite_hash is None:
            changes["status"] = GameStatus.PLAYING
        if end is not None:
            changes.update({**_ending(end), "clock_started_at": None, "draw_offer": None})
        return changes

    def resign_changes(self, colors: set[Color], now: int) -> GameChanges:
        """FIDE 5.1.2: a loss, or a draw when the opponent cannot checkmate."""
        self._live()
        loser = self._acting(colors)
        with self._trying() as game:
            return self.ending_changes(game.resign(loser), now)

    def agreement_changes(self, now: int) -> GameChanges:
        with self._trying() as game:
            return self.ending_changes(game.agree_draw(), now)

    def draw_offer_changes(self, colors: set[Color], now: int) -> GameChanges:
        self._live()
        me = self._acting(colors)
        offer = self.record.draw_offer
        if offer == COLOR_NAMES[me ^ 1]:
            return self.agreement_changes(now)
        if offer == COLOR_NAMES[me]:
            raise ApiError(409, "draw.already_offered")
        return {"draw_offer": COLOR_NAMES[me], "updated_at": now}

    def _answering(self, colors: set[Color], offer: str | None,
                   refusals: tuple[ErrorCode, ErrorCode]) -> Color:
        """The colour answering ``offer``; ``refusals``: the codes for no offer and for the
        offerer's own answer."""
        self._live()
        if not colors:
            raise ApiError(403, "seat.wrong_token")
        if offer is None:
            raise ApiError(409, refusals[0])
        offerer = COLOR_BY_NAME[offer]
        if offerer ^ 1 not in colors:
            raise ApiError(409, refusals[1])
        return offerer ^ 1

    def draw_accept_changes(self, colors: set[Color], now: int) -> GameChanges:
        self._answering(colors, self.record.draw_offer, _DRAW_REFUSALS)
        return self.agreement_changes(now)

    def draw_decline_changes(self, colors: set[Color], now: int) -> GameChanges:
        self._answering(colors, self.record.draw_offer, _DRAW_REFUSALS)
        return {"draw_offer": None, "updated_at": now}

    def draw_claim_changes(self, colors: set[Color], now: int,
                           move: str | None) -> GameChanges:
        """FIDE 9.2/9.3: only the side to move claims, now or with the move it names.  An
        incorrect claim is refused and changes nothing (no FIDE time penalty online)."""
        self._live()
        if not colors:
            raise ApiError(403, "seat.wrong_token")
        if self.turn not in colors:
            raise ApiError(409, "claim.not_your_turn")
        if move is not None:
            return self.move_changes(colors, move, now, claim=True)
        with self._trying() as game:
            outcome = game.claim_draw()
            if outcome is None:
                raise ApiError(409, "claim.none")
            return self.ending_changes(outcome, now)

    def abort_changes(self, now: int) -> GameChanges:
        """End the game without a result while a side has not moved yet."""
        if self.ended:
            raise ApiError(409, "game.over", result=self.record.result,
                           termination=termination_words(self.record.termination))
        if len(self.moves) >= 2:
            raise ApiError(409, "game.too_late_to_abort")
        return {"status": GameStatus.ENDED, "result": "*",
                "termination": TerminationName.ABORTED, "draw_offer": None,
                "takeback_offer": None, "clock_started_at": None, "invite_hash": None,
                "updated_at": now}

    def leave_changes(self, colors: set[Color], now: int, rated: bool) -> GameChanges:
        """The abort button: a rated game whose setup both players have seen is resigned
        (docs/rules.md, "no setup-shopping"); any other game is aborted
        without a result while a side has not moved."""
        if not colors:
            raise ApiError(403, "seat.wrong_token")
        if rated and preview.revealed(self.record) and not self.ended and len(self.moves) < 2:
            return self.resign_changes(colors, now)
        return self.abort_changes(now)

    def no_first_move_changes(self, now: int, rated: bool) -> GameChanges:
        """A side let its first-move time run out: in a rated game after the reveal it loses
        on time (White as well as Black, docs/rules.md); else the game is aborted, as on lichess."""
        if rated and preview.revealed(self.record) and not self.ended:
            with self._trying() as game:
                return self.ending_changes(game.flag(), now)
        return self.abort_changes(now)

    def takeback_changes(self, requester: Color, now: int) -> GameChanges:
        """Undo ``requester``'s last move (and the reply to it, if any)."""
        n = len(self.moves)
        plies = 0
        if n >= 1 and self.turn != requester:
            plies = 1
        elif n >= 2 and self.turn == requester:
            plies = 2
        if plies == 0:
            raise ApiError(409, "takeback.none")
        r = self.record
        with self._trying() as game:
            for _ in range(plies):
                game.pop()
            fen = game.position.fen()
        keep = n - plies
        log = r.clock_log.split()
        changes: GameChanges = {
            "fen": fen, "moves": " ".join(self.moves[:keep]),
            "san": " ".join(self.sans[:keep]),
            "clock_log": " ".join(log[:keep]),
            "draw_offer": None, "takeback_offer": None, "updated_at": now,
        }
        if r.white_ms is not None:
            changes.update(self._clocks_at_ply(keep, log))
            # The requester gets no time back: never more than it has left now (else
            # thinking, taking back and thinking again is unlimited time).
            left = self.clocks_at(now)
            if left is not None and requester == WHITE:
                changes["white_ms"] = min(changes.get("white_ms") or 0, left[WHITE])
            elif left is not None:
                changes["black_ms"] = min(changes.get("black_ms") or 0, left[BLACK])
            changes["clock_started_at"] = now if keep >= 2 or r.days_per_move is not None \
                else None
        return changes

    def _clocks_at_ply(self, ply: int, log: list[str]) -> GameChanges:
        """Both clocks as they stood when ply ``ply`` was reached: each side's time after
        its last move before it (the ``clock_log``), or the initial time.  A takeback puts
        them back there, as lichess does, so taken-back moves cannot farm increments."""
        initial = self.record.clock_initial_ms or 0
        left = [initial, self.record.black_initial_ms or initial]
        n = len(self.moves)
        for i in range(min(ply, len(log))):
            mover = self.turn ^ ((n - i) % 2)
            if log[i].isdigit():
                left[mover] = int(log[i])
        return {"white_ms": left[WHITE], "black_ms": left[BLACK]}

    def takeback_offer_changes(self, colors: set[Color], now: int) -> GameChanges:
        self._live()
        me = self._acting(colors)
        if len(colors) == 2:  # hot seat: the player at the board takes back the last move
            return self.takeback_changes(self.turn ^ 1, now)
        if self.computer is not None:  # the computer always agrees ...
            n = len(self.moves)
            plies = 1 if self.turn != me else 2
            if n >= 2 and n - plies < 2:  # ... but not back into the abort's first plies
                raise ApiError(409, "takeback.too_early")
            return self.takeback_changes(me, now)
        self.takeback_changes(me, now)  # 409 now if there is nothing to take back
        if self.record.takeback_offer == COLOR_NAMES[me]:
            raise ApiError(409, "takeback.already_asked")
        return {"takeback_offer": COLOR_NAMES[me], "updated_at": now}

    def takeback_accept_changes(self, colors: set[Color], now: int) -> GameChanges:
        me = self._answering(colors, self.record.takeback_offer, _TAKEBACK_REFUSALS)
        return self.takeback_changes(me ^ 1, now)

    def takeback_decline_changes(self, colors: set[Color], now: int) -> GameChanges:
        self._answering(colors, self.record.takeback_offer, _TAKEBACK_REFUSALS)
        return {"takeback_offer": None, "updated_at": now}
