"""A game in memory: the stored record replayed through the rules core, and every player
action as a pure function from (game, seat, time) to the column changes that commit it.

Nothing here touches the database or the network, so the rules of play are testable alone
and the service can retry an action on a fresh record when a concurrent writer wins.
"""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from randomchess.errors import RandomChessError
from randomchess.pieces import BLACK, WHITE, Color
from randomchess.position import Move, Position
from randomchess.san import parse_san, san
from randomchess.server import outcome
from randomchess.server.outcome import COLOR_NAMES, Outcome
from randomchess.server.store import GameRecord
from randomchess.variants import get_variant

COLOR_BY_NAME = {"white": WHITE, "black": BLACK}


class ApiError(Exception):
    """A refused request: HTTP status and the reason shown to the client."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _matches(secret: str, stored: str | None) -> bool:
    # Compare digests of equal length in constant time; a missing seat never matches.
    return stored is not None and hmac.compare_digest(hash_secret(secret), stored)


@dataclass
class LiveGame:
    """A record with its position, repetition keys and SAN, rebuilt from the stored moves."""

    record: GameRecord
    pos: Position
    keys: list[Hashable]  # position key after each ply, the start position first
    moves: list[str]
    sans: list[str]
    legal: list[Move]

    @classmethod
    def replay(cls, record: GameRecord, previous: LiveGame | None = None) -> LiveGame:
        """Rebuild ``record``; reuse ``previous`` when its moves are a prefix (one push per
        new move instead of a full replay)."""
        moves = record.moves.split()
        if previous is not None and previous.record.start_fen == record.start_fen and \
                previous.moves == moves[: len(previous.moves)]:
            pos = previous.pos.copy()
            keys = list(previous.keys)
            done = len(previous.moves)
        else:
            pos = Position(record.start_fen, get_variant(record.variant))
            keys = [pos.key()]
            done = 0
        for text in moves[done:]:
            pos.push(pos.parse_uci(text))
            keys.append(pos.key())
        return cls(record, pos, keys, moves, record.san.split(), pos.legal_moves())

    # ----------------------------------------------------------------- seats
    def colors_of(self, token: str) -> set[Color]:
        """The colours ``token`` may play: one, both (hot seat) or none."""
        out: set[Color] = set()
        if _matches(token, self.record.white_token):
            out.add(WHITE)
        if _matches(token, self.record.black_token):
            out.add(BLACK)
        return out

    @property
    def ended(self) -> bool:
        return self.record.status == "ended"

    @property
    def computer(self) -> Color | None:
        c = self.record.computer_color
        return None if c is None else COLOR_BY_NAME[c]

    # ----------------------------------------------------------------- clocks
    def clocks_at(self, now: int) -> tuple[int, int] | None:
        """(white, black) milliseconds left at ``now``, the running side charged."""
        r = self.record
        if r.white_ms is None or r.black_ms is None:
            return None
        left = [r.white_ms, r.black_ms]
        if r.clock_started_at is not None and not self.ended:
            left[self.pos.turn] -= max(0, now - r.clock_started_at)
        return left[0], left[1]

    def flag_at(self) -> int | None:
        """Epoch ms at which the side to move runs out of time, if its clock runs."""
        r = self.record
        if r.clock_started_at is None or self.ended or r.white_ms is None or r.black_ms is None:
            return None
        return r.clock_started_at + (r.white_ms, r.black_ms)[self.pos.turn]

    # ----------------------------------------------------------------- state
    def state(self, now: int) -> dict[str, Any]:
        """The public state (``GET /api/games/{id}``): no secret, the same for everyone."""
        r = self.record
        pos = self.pos
        clocks = self.clocks_at(now)
        claims = [] if self.ended else outcome.claimable(pos, self.keys)
        players = {name: "human" for name in COLOR_NAMES}
        if r.computer_color:
            players[r.computer_color] = "computer"
        return {
            "id": r.id,
            "variant": r.variant,
            "number": r.number,
            "start_fen": r.start_fen,
            "fen": pos.fen(),
            "moves": self.moves,
            "san": self.sans,
            "status": r.status,
            "result": r.result,
            "termination": r.termination,
            "winner": None if r.result is None else
            {"1-0": "white", "0-1": "black"}.get(r.result),
            "clocks": None if clocks is None else {
                "white": clocks[0],
                "black": clocks[1],
                "running": None if r.clock_started_at is None or self.ended
                else COLOR_NAMES[pos.turn],
                "initial": r.clock_initial_ms,
                "increment": r.clock_increment_ms,
            },
            "to_move": COLOR_NAMES[pos.turn],
            "legal_moves": [] if self.ended else [pos.uci(m) for m in self.legal],
            "check": pos.is_check(),
            "ply": len(self.moves),
            "opponent": r.opponent,
            "level": r.level,
            "players": players,
            "invite_open": r.invite_hash is not None,
            "draw_offer": r.draw_offer,
            "takeback_offer": r.takeback_offer,
            "claimable": claims,
            "version": r.version,
        }

    # ----------------------------------------------------------------- helpers
    def _acting(self, colors: set[Color], action: str) -> Color:
        """The colour a seat acts as: its own, or the side to move for the hot seat."""
        if not colors:
            raise ApiError(403, "wrong token for this game")
        if len(colors) == 1:
            return next(iter(colors))
        return self.pos.turn

    def _live(self) -> None:
        if self.ended:
            raise ApiError(409, f"the game is over ({self.record.result}, "
                                f"{self.record.termination})")

    def _charged(self, now: int) -> dict[str, Any]:
        """Clock columns with the running side charged up to ``now`` and stopped."""
        left = self.clocks_at(now)
        if left is None:
            return {}
        return {"white_ms": max(0, left[0]), "black_ms": max(0, left[1]),
                "clock_started_at": None}

    def _ending(self, result: Outcome, now: int) -> dict[str, Any]:
        return {**self._charged(now), "status": "ended", "result": result.result,
                "termination": result.termination, "draw_offer": None,
                "takeback_offer": None, "updated_at": now}

    def _loss_for(self, loser: Color, termination: str) -> Outcome:
        # FIDE 6.9 / 5.1.2: no win for a side that could not mate by any legal series.
        if outcome.can_mate(self.pos, loser ^ 1):
            return outcome.win_for(loser ^ 1, termination)
        return Outcome(termination, None)

    def flag_changes(self, now: int) -> dict[str, Any] | None:
        """The game ends on time when the running side's flag has fallen by ``now``."""
        due = self.flag_at()
        if due is None or now < due:
            return None
        return self._ending(self._loss_for(self.pos.turn, outcome.TIME_FORFEIT), now)

    def parse_move(self, text: str) -> Move:
        """UCI first (``e2e4``, ``e1h1``), then SAN in either language; 409 with the reason."""
        if not isinstance(text, str) or not text.strip() or len(text) > 32:
            raise ApiError(409, "illegal move: empty or overlong move text")
        try:
            return self.pos.parse_uci(text.strip())
        except RandomChessError as uci_error:
            try:
                return parse_san(self.pos, text, None)
            except RandomChessError as san_error:
                reason = san_error if text.strip()[0].isupper() or "-" in text else uci_error
                raise ApiError(409, f"illegal move {text!r}: {reason}") from None

    # ----------------------------------------------------------------- actions
    def move_changes(self, colors: set[Color], text: str, now: int,
                     claim: bool = False, auto_threefold: bool = False) -> dict[str, Any]:
        """Play ``text`` for a seat; with ``claim`` the move is written as a draw claim
        (FIDE 9.2.1) and refused unless the claim is valid."""
        self._live()
        if not colors:
            raise ApiError(403, "wrong token for this game")
        if self.pos.turn not in colors:
            raise ApiError(409, f"not your turn: {COLOR_NAMES[self.pos.turn]} to move")
        move = self.parse_move(text)
        if claim and not outcome.claimable_with(self.pos, self.keys, move):
            raise ApiError(409, "no draw to claim with that move (threefold repetition or "
                                "fifty-move rule)")
        r = self.record
        us = self.pos.turn
        changes: dict[str, Any] = {"updated_at": now, "takeback_offer": None}
        left = self.clocks_at(now)
        clock_entry = ""
        if left is not None:
            mine = left[us]
            if r.clock_started_at is not None:
                mine += r.clock_increment_ms or 0
            both = [left[0], left[1]]
            both[us] = mine
            changes.update(white_ms=both[0], black_ms=both[1])
            clock_entry = str(mine)
            # Clocks start once each side has made its first move (as on lichess).
            changes["clock_started_at"] = now if len(self.moves) + 1 >= 2 else None
        if r.draw_offer is not None and r.draw_offer != COLOR_NAMES[us]:
            changes["draw_offer"] = None  # a move declines the opponent's offer
        written = san(self.pos, move)
        pos = self.pos.copy()
        pos.push(move)
        keys = [*self.keys, pos.key()]
        moves = [*self.moves, pos_uci(self.pos, move)]
        log = [*r.clock_log.split(), clock_entry or "-"]
        changes.update(fen=pos.fen(), moves=" ".join(moves),
                       san=" ".join([*self.sans, written]), clock_log=" ".join(log))
        if r.status == "waiting" and r.invite_hash is None:
            changes["status"] = "playing"
        end = outcome.automatic(pos, keys)
        if end is None and claim:
            end = Outcome(outcome.claimable(pos, keys)[0], None)
        if end is None and auto_threefold and outcome.THREEFOLD in outcome.claimable(pos, keys):
            end = Outcome(outcome.THREEFOLD, None)
        if end is not None:
            changes.update(status="ended", result=end.result, termination=end.termination,
                           clock_started_at=None, draw_offer=None)
        return changes

    def resign_changes(self, colors: set[Color], now: int) -> dict[str, Any]:
        self._live()
        loser = self._acting(colors, "resign")
        return self._ending(self._loss_for(loser, outcome.RESIGNATION), now)

    def draw_offer_changes(self, colors: set[Color], now: int) -> dict[str, Any]:
        self._live()
        me = self._acting(colors, "draw-offer")
        offer = self.record.draw_offer
        if offer == COLOR_NAMES[me ^ 1]:
            return self._ending(Outcome(outcome.AGREEMENT, None), now)
        if offer == COLOR_NAMES[me]:
            raise ApiError(409, "you have already offered a draw")
        return {"draw_offer": COLOR_NAMES[me], "updated_at": now}

    def _answering(self, colors: set[Color], offer: str | None, what: str) -> Color:
        self._live()
        if not colors:
            raise ApiError(403, "wrong token for this game")
        if offer is None:
            raise ApiError(409, f"there is no {what} offer to answer")
        offerer = COLOR_BY_NAME[offer]
        if offerer ^ 1 not in colors:
            raise ApiError(409, f"you cannot answer your own {what} offer")
        return offerer ^ 1

    def draw_accept_changes(self, colors: set[Color], now: int) -> dict[str, Any]:
        self._answering(colors, self.record.draw_offer, "draw")
        return self._ending(Outcome(outcome.AGREEMENT, None), now)

    def draw_decline_changes(self, colors: set[Color], now: int) -> dict[str, Any]:
        self._answering(colors, self.record.draw_offer, "draw")
        return {"draw_offer": None, "updated_at": now}

    def draw_claim_changes(self, colors: set[Color], now: int, move: str | None,
                           auto_threefold: bool = False) -> dict[str, Any]:
        """FIDE 9.2/9.3: only the side to move claims, now or with the move it names."""
        self._live()
        if not colors:
            raise ApiError(403, "wrong token for this game")
        if self.pos.turn not in colors:
            raise ApiError(409, "only the player to move may claim a draw")
        if move is not None:
            return self.move_changes(colors, move, now, claim=True,
                                     auto_threefold=auto_threefold)
        claims = outcome.claimable(self.pos, self.keys)
        if not claims:
            raise ApiError(409, "no draw to claim: the position has not occurred three times "
                                "and fewer than 50 moves were made without a capture or "
                                "pawn move")
        return self._ending(Outcome(claims[0], None), now)

    def takeback_changes(self, requester: Color, now: int) -> dict[str, Any]:
        """Undo ``requester``'s last move (and the reply to it, if any)."""
        n = len(self.moves)
        plies = 0
        turn = self.pos.turn
        if n >= 1 and turn != requester:
            plies = 1
        elif n >= 2 and turn == requester:
            plies = 2
        if plies == 0 or n - plies < 0:
            raise ApiError(409, "there is no move of yours to take back")
        r = self.record
        pos = self.pos.copy()
        for _ in range(plies):
            pos.pop()
        keep = n - plies
        changes: dict[str, Any] = {
            **self._charged(now),
            "fen": pos.fen(), "moves": " ".join(self.moves[:keep]),
            "san": " ".join(self.sans[:keep]),
            "clock_log": " ".join(r.clock_log.split()[:keep]),
            "draw_offer": None, "takeback_offer": None, "updated_at": now,
        }
        if r.white_ms is not None:
            changes["clock_started_at"] = now if keep >= 2 else None
        return changes

    def takeback_offer_changes(self, colors: set[Color], now: int) -> dict[str, Any]:
        self._live()
        me = self._acting(colors, "takeback-offer")
        if len(colors) == 2:  # hot seat: the player at the board takes back the last move
            me = self.pos.turn ^ 1
            return self.takeback_changes(me, now)
        if self.computer is not None:  # the computer always agrees
            return self.takeback_changes(me, now)
        self.takeback_changes(me, now)  # 409 now if there is nothing to take back
        if self.record.takeback_offer == COLOR_NAMES[me]:
            raise ApiError(409, "you have already asked to take back")
        return {"takeback_offer": COLOR_NAMES[me], "updated_at": now}

    def takeback_accept_changes(self, colors: set[Color], now: int) -> dict[str, Any]:
        me = self._answering(colors, self.record.takeback_offer, "takeback")
        return self.takeback_changes(me ^ 1, now)

    def takeback_decline_changes(self, colors: set[Color], now: int) -> dict[str, Any]:
        self._answering(colors, self.record.takeback_offer, "takeback")
        return {"takeback_offer": None, "updated_at": now}

    def repetition_count(self) -> int:
        return Counter(self.keys)[self.keys[-1]]


def pos_uci(pos: Position, move: Move) -> str:
    return pos.uci(move)
