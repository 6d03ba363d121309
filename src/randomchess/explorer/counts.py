"""What a game adds to the explorer: one (position, move) pair per ply of its main line.

A position's key is a 64-bit Zobrist hash (16 hex digits) of what its FEN says without the
two move counters, so that transpositions within a setup meet: the placement, the side to
move, the castling rights, the en passant square only when an en passant capture is legal
(D-23) and the MRC adjustment field (RULES.md §4.9).  The hash is the one the position keeps
up to date as moves are played (``Position.zobrist``, fixed seeds per board size), with the
two things the FEN leaves out taken back out, so a key costs a few operations per ply
instead of writing a FEN (issue 33: writing FENs was half of the import's time).  Two
positions of one setup meeting on one key by chance is a 1 in 2^64 event per pair.

A game counts at most once for a pair, however often it came back to that position and
played that move; only the first ``MAX_PLIES`` plies count (the explorer is about openings,
and the table stays a bounded size per game).  Each count is kept apart by the game's speed
class and rating band, so that the explorer can be filtered by both."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from randomchess.pieces import BLACK, WHITE
from randomchess.position import Move, Position
from randomchess.startpos import setup_from_fen, setup_from_rank

MAX_PLIES = 60
RESULTS = ("1-0", "1/2-1/2", "0-1")
BAND = 200  # rating band width: a game's band is the mean of both ratings, rounded down
NO_BAND = -1  # a game without both ratings
NO_SPEED = ""  # a game whose speed class is not known
SPEEDS = ("bullet", "blitz", "rapid", "classical", "correspondence")


class ExplorerError(ValueError):
    """A game the explorer cannot take (no result, not from a numbered setup...)."""


def position_int(pos: Position) -> int:
    """The key of ``pos`` as an unsigned 64-bit integer (see the module's text)."""
    h = pos.zobrist
    t = pos._t
    ep = pos.ep_square
    if ep is not None and not pos.has_legal_en_passant():
        h ^= t.z_ep[ep]
    rights = pos.adjust_rights
    if rights:
        # A colour whose right is kept but whose unmoved squares are all gone writes no
        # adjustment field in the FEN, as if the right were lost.
        for c in (WHITE, BLACK):
            if rights >> c & 1 and not pos.unmoved & pos._home_masks[c]:
                h ^= t.z_adjust[c]
    return h


def key_text(h: int) -> str:
    return f"{h:016x}"


def position_key(pos: Position) -> str:
    """The stored key of ``pos``: 16 hex digits."""
    return key_text(position_int(pos))


def game_pairs(start: Position, moves: Iterable[Move]) -> list[tuple[int, str]]:
    """The (position key, UCI move) pairs of a main line from ``start`` (which is not
    changed), each once, for the first ``MAX_PLIES`` plies."""
    pos = start.copy(stack=False)
    seen: set[tuple[int, str]] = set()
    out = []
    for ply, move in enumerate(moves):
        if ply >= MAX_PLIES:
            break
        pair = (position_int(pos), pos.uci(move))
        if pair not in seen:
            seen.add(pair)
            out.append(pair)
        pos.push(move)
    return out


def setup_number(variant: str, start_fen: str) -> int:
    """The number of the numbered setup a game started from (``ExplorerError`` if none).

    A Chess960 start written exactly as its setup's FEN (as ``Position.fen`` writes it) is
    known from Black's back rank, a third of the time of reading the whole FEN (the
    import meets a new setup every other game, issue 33); anything else is read whole."""
    if variant == "chess960":
        try:
            setup = setup_from_rank(variant, start_fen.split("/", 1)[0].upper())
            if setup.fen == start_fen:
                return setup.number
        except ValueError:
            pass
    try:
        return setup_from_fen(start_fen, variant).number
    except ValueError as e:
        raise ExplorerError(f"not a numbered start position: {e}") from None


_TIME_CONTROL = re.compile(r"\s*(\d+)(?:\+(\d+))?\s*")


def speed_of(time_control: str | None) -> str:
    """The speed class of a PGN ``TimeControl`` tag ("600+5", seconds), or ``NO_SPEED``."""
    from randomchess.accounts.ratings import speed_class

    if not time_control:
        return NO_SPEED
    if "/" in time_control:
        days = time_control.split("/", 1)[1]  # lichess writes "1/259200" for 3 days a move
        return "correspondence" if days.strip().isdigit() else NO_SPEED
    m = _TIME_CONTROL.fullmatch(time_control)
    if m is None:
        return NO_SPEED
    return speed_class(int(m.group(1)) * 1000, int(m.group(2) or 0) * 1000)


def band_of(white: int | None, black: int | None) -> int:
    """The rating band of a game between players rated ``white`` and ``black``."""
    if not white or not black:
        return NO_BAND
    return (white + black) // 2 // BAND * BAND


def elo(text: str | None) -> int | None:
    """A rating tag's value ("1834"; "?" or "-" for none)."""
    if text is None:
        return None
    text = text.strip()
    return int(text) if text.isdigit() and 0 < int(text) < 5000 else None


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What the list of games behind a move shows of a game (PGN tags, or this server's)."""

    white: str = "?"
    black: str = "?"
    date: str = ""
    event: str = ""
    game_id: str | None = None  # this server's game

    @classmethod
    def from_headers(cls, headers: dict[str, str]) -> GameInfo:
        def tag(name: str, size: int) -> str:
            return (headers.get(name) or "?").strip()[:size] or "?"

        date = (headers.get("Date") or headers.get("UTCDate") or "").strip()[:10]
        return cls(tag("White", 100), tag("Black", 100), "" if "?" in date[:4] else date,
                   (headers.get("Event") or "").strip()[:100])


# (variant, number, position, move, speed, band)
CountKey = tuple[str, int, int, str, str, int]
# (variant, number, speed, band): the part of a count's key that a whole game shares
GroupKey = tuple[str, int, str, int]
# games, White wins, draws, Black wins, sum of the games' mean ratings, games with ratings
COLUMNS = ("games", "white_wins", "draws", "black_wins", "rating_sum", "rated")


@dataclass
class Tally:
    """Counts kept in memory before one transaction writes them, grouped by what a game
    shares (GroupKey), then by (position, move) pair -> [games, White wins, draws, Black
    wins, rating sum, rated games].  The pairs a reader made are the inner keys as they are:
    no key is built per ply (issue 33: the import's speed)."""

    groups: dict[GroupKey, dict[tuple[int, str], list[int]]] = field(default_factory=dict)
    games: int = 0
    # each game, for the list behind a move: its row of explorer_games (but its id) and pairs
    rows: list[tuple[dict[str, object], list[tuple[int, str]]]] = field(default_factory=list)

    @property
    def counts(self) -> dict[CountKey, list[int]]:
        """Every count by its whole key (CountKey)."""
        return {(v, n, key, uci, speed, band): row
                for (v, n, speed, band), group in self.groups.items()
                for (key, uci), row in group.items()}

    def add_pairs(self, variant: str, number: int, pairs: Iterable[tuple[int, str]],
                  result: str, speed: str = NO_SPEED, white: int | None = None,
                  black: int | None = None, info: GameInfo | None = None) -> None:
        """Add one game given by its (position, move) pairs, each pair once."""
        column = 1 + RESULTS.index(result)
        band = band_of(white, black)
        pairs = list(pairs)
        i = info or GameInfo()
        self.rows.append(({"variant": variant, "number": number, "white": i.white,
                           "black": i.black, "white_elo": white, "black_elo": black,
                           "result": result, "date": i.date, "event": i.event,
                           "speed": speed, "band": band, "game_id": i.game_id}, pairs))
        rating, rated = ((white + black) // 2, 1) if band != NO_BAND and white and black \
            else (0, 0)
        first = [1, 0, 0, 0, rating, rated]
        first[column] = 1
        group = self.groups.get((variant, number, speed, band))
        if group is None:
            group = self.groups[(variant, number, speed, band)] = {}
        for pair in pairs:
            row = group.get(pair)
            if row is None:
                group[pair] = first.copy()
            else:
                row[0] += 1
                row[column] += 1
                row[4] += rating
                row[5] += rated
        self.games += 1

    def add_game(self, variant: str, number: int, start: Position, moves: Iterable[Move],
                 result: str, speed: str = NO_SPEED, white: int | None = None,
                 black: int | None = None, info: GameInfo | None = None) -> None:
        if result not in RESULTS:
            raise ExplorerError(f"the game has no result ({result!r})")
        self.add_pairs(variant, number, game_pairs(start, moves), result, speed, white, black,
                       info)

    def clear(self) -> None:
        self.groups.clear()
        self.rows.clear()
        self.games = 0
