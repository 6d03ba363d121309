"""Engine matches: a referee, and Elo with its error margin.

The engines are :class:`~randomchess.analysis.uci_client.UciClient` processes, the client
analysis uses too (Fairy-Stockfish gets the shipped variants.ini).  Each setup is played
twice with colours swapped.  The referee is the rules core's :class:`~randomchess.game.Game`:
every move an engine returns is checked, and the game ends by mate, stalemate, a dead
position, threefold repetition, the 50-move rule (automatic, as in engine matches), a loss
on time, an illegal move or a ply cap (adjudicated as a draw).
Engines that cannot read the Bishop Adjustment (Fairy-Stockfish) get the position after the
last adjustment as a FEN without the adjustment field, and the moves since (RULES.md §4.9).
"""

from __future__ import annotations

import math
import queue
import random
import shlex
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from randomchess.analysis.uci_client import EngineError, UciClient
from randomchess.game import Game
from randomchess.pgn import Node, PgnGame, write_game
from randomchess.pieces import WHITE
from randomchess.position import Move, Position
from randomchess.variants import Variant, get_variant

# Opening lines for classical chess, so that two deterministic engines do not replay one game.
CLASSICAL_OPENINGS = (
    "e2e4 e7e5 g1f3 b8c6", "e2e4 c7c5 g1f3 d7d6", "e2e4 e7e6 d2d4 d7d5",
    "e2e4 c7c6 d2d4 d7d5", "d2d4 d7d5 c2c4 e7e6", "d2d4 g8f6 c2c4 g7g6",
    "d2d4 g8f6 c2c4 e7e6", "c2c4 e7e5 b1c3 g8f6", "g1f3 d7d5 g2g3 g8f6",
    "e2e4 e7e5 f1c4 g8f6", "e2e4 d7d5 e4d5 d8d5", "d2d4 d7d5 c2c4 c7c6",
    "e2e4 c7c5 b1c3 b8c6", "e2e4 e7e5 g1f3 g8f6", "d2d4 f7f5 g2g3 g8f6",
    "e2e4 g7g6 d2d4 f8g7", "c2c4 c7c5 g1f3 g8f6", "e2e4 d7d6 d2d4 g8f6",
    "d2d4 g8f6 g1f3 d7d5", "e2e4 e7e5 b1c3 g8f6", "d2d4 e7e6 c2c4 f8b4",
    "e2e4 c7c5 c2c3 g8f6", "e2e4 b8c6 d2d4 d7d5", "b2b3 e7e5 c1b2 b8c6",
    "g2g3 d7d5 f1g2 g8f6",
)

SELF_COMMAND = [sys.executable, "-m", "randomchess", "uci"]
KNOWN_ENGINES = {
    "self": SELF_COMMAND,
    "randomchess": SELF_COMMAND,
    # sunfish's PyPI package installs sunfish-uci beside this interpreter (a venv's bin/).
    "sunfish": [str(Path(sys.executable).with_name("sunfish-uci"))],
    "stockfish": ["/usr/games/stockfish"],
    "fairy-stockfish": ["/usr/games/fairy-stockfish"],
}


@dataclass
class EngineSpec:
    """How to start one engine: its command, the options to set, and what it understands."""

    name: str
    command: list[str]
    options: dict[str, str] = field(default_factory=dict)
    reads_adjustment: bool = True  # False: send positions after a BAR as a plain FEN
    # A fixed time per move for this engine whatever the match's control (0: the match's):
    # the level calibration gives the server's per-move time to our levels and a shorter
    # one to the strength-limited anchors.
    movetime_ms: int = 0
    fairy: bool = False  # Fairy-Stockfish: given the shipped variants.ini

    @classmethod
    def parse(cls, text: str, options: dict[str, str] | None = None) -> EngineSpec:
        """``self``, ``sunfish``, ``stockfish``, ``fairy-stockfish`` or a command line."""
        command = KNOWN_ENGINES.get(text) or shlex.split(text)
        name = text if text in KNOWN_ENGINES else command[0].rsplit("/", 1)[-1]
        reads = "fairy" not in name and "stockfish" not in name
        return cls(name, list(command), dict(options or {}), reads, fairy="fairy" in name)


@dataclass
class Player:
    """An engine of a match, started: how it was asked for, and its process."""

    spec: EngineSpec
    client: UciClient

    @classmethod
    def start(cls, spec: EngineSpec) -> Player:
        # Hash stays at the engine's default, as the shipped level ratings were measured.
        return cls(spec, UciClient(spec.name, spec.command, fairy=spec.fairy,
                                   reads_adjustment=spec.reads_adjustment,
                                   options=spec.options, hash_mb=None))

    def close(self) -> None:
        self.client.close()


@dataclass
class TimeControl:
    """Base and increment in milliseconds, or a fixed time per move."""

    base_ms: int = 10_000
    inc_ms: int = 100
    movetime_ms: int = 0

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``40+0.4`` (seconds + increment) or ``movetime=200`` (ms per move)."""
        if text.startswith("movetime="):
            return cls(0, 0, int(text.split("=", 1)[1]))
        base, _, inc = text.partition("+")
        return cls(int(float(base) * 1000), int(float(inc or 0) * 1000))

    def __str__(self) -> str:
        if self.movetime_ms:
            return f"movetime={self.movetime_ms}"
        return f"{self.base_ms / 1000:g}+{self.inc_ms / 1000:g}"


@dataclass
class MatchGame:
    """One finished game of a match (the server's stored game is ``server.store.GameRecord``)."""

    white: str
    black: str
    variant: Variant
    start_fen: str
    moves: list[Move]
    result: str  # "1-0", "0-1", "1/2-1/2"
    termination: str
    adjustments: tuple[int, int] = (0, 0)  # Bishop Adjustments played by White, Black
    opening: str = ""


def play_game(
    white: Player, black: Player, start_fen: str, variant: Variant, tc: TimeControl,
    opening: list[str] | None = None, max_plies: int = 400, time_grace_ms: int = 1000,
) -> MatchGame:
    """Play one game between two started engines and return its record.

    The referee is a :class:`~randomchess.game.Game` with automatic draws, as engine matches
    are run: it ends the game at mate, stalemate, a dead position, threefold repetition or
    the 50-move rule; a fallen flag is judged by :meth:`Game.flag` (FIDE 6.9)."""
    game = Game(start_fen, variant, automatic_draws=True)
    start = game.start_position()
    engines = (white, black)
    for e in engines:
        e.client.start_game(variant)
    adjustments = [0, 0]
    clocks = [tc.base_ms, tc.base_ms]
    # After an adjustment, engines that cannot read one restart from the position after it.
    plain_start = (start_fen, 0)
    for text in opening or []:
        game.push_uci(text)
    while True:
        if game.outcome is not None:
            result, termination = game.result(), game.outcome.termination.value
            break
        if len(game.moves) >= max_plies:
            result, termination = "1/2-1/2", "adjudication: move limit"
            break
        pos = game.position
        side = pos.turn
        engine = engines[side]
        command = _position_command(engine.spec.reads_adjustment, start, game.moves,
                                    plain_start, variant)
        movetime = engine.spec.movetime_ms or tc.movetime_ms
        if movetime:
            go = f"go movetime {movetime}"
            timeout = movetime / 1000 * 3 + 10
        else:
            go = (f"go wtime {max(clocks[0], 1)} btime {max(clocks[1], 1)} "
                  f"winc {tc.inc_ms} binc {tc.inc_ms}")
            timeout = clocks[side] / 1000 + 10
        go += engine.client.searchmoves(pos)  # Fairy-Stockfish in PM-CRC: only our moves
        t0 = time.monotonic()
        try:
            text, _score = engine.client.bestmove(command, go, timeout)
        except EngineError:
            result = "0-1" if side == WHITE else "1-0"
            termination = f"{engine.spec.name} failed"
            break
        used = int((time.monotonic() - t0) * 1000)
        if not movetime:
            clocks[side] += tc.inc_ms - used
            if clocks[side] < -time_grace_ms:
                outcome = game.flag(side)
                result, termination = outcome.result(), outcome.termination.value
                break
            clocks[side] = max(clocks[side], 1)
        try:
            move = pos.parse_uci(text)
        except ValueError:
            result = "0-1" if side == WHITE else "1-0"
            termination = f"illegal move {text} by {engine.spec.name}"
            break
        adjusting = pos.is_adjustment(move)
        if adjusting:
            adjustments[side] += 1
        game.push(move)
        if adjusting:
            plain_start = (pos.fen(), len(game.moves))
    return MatchGame(white.spec.name, black.spec.name, variant, start_fen, list(game.moves),
                      result, termination, (adjustments[0], adjustments[1]),
                      " ".join(opening or []))


def _position_command(reads_adjustment: bool, start: Position, moves: list[Move],
                      plain_start: tuple[str, int], variant: Variant) -> str:
    chess960 = None if not variant.classical_uci else False
    if reads_adjustment or not variant.has_adjustment:
        base, first, pos = start.fen(), 0, start.copy(stack=False)
    else:
        fen, first = plain_start
        # Strip the adjustment field (RULES.md §4.9): these engines cannot read it.
        base = " ".join(fen.split()[:6])
        pos = Position(fen, variant)
    texts = []
    for m in moves[first:]:
        texts.append(pos.uci(m, chess960=chess960))
        pos.push(m)
    if first == 0 and variant.fixed_rank is not None and variant.classical_uci and \
            base == Position(variant=variant).fen():
        head = "position startpos"
    else:
        head = f"position fen {base}"
    return head + (" moves " + " ".join(texts) if texts else "")


def random_setup(variant: Variant, rng: random.Random, adjustment: bool | None = None) -> str:
    """The start FEN of a random legal array of ``variant`` (uniform over arrays)."""
    if variant.fixed_rank is not None:
        return variant.start_fen
    while True:
        rank = variant.random_setup(rng)
        if adjustment and not variant.bishops_same_colour(rank):
            continue
        if adjustment is False:
            return variant.setup_fen(rank, adjustment=False)
        return variant.setup_fen(rank)


@dataclass
class MatchScore:
    """Wins, draws and losses of the first engine."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def elo(self) -> tuple[float, float]:
        """Elo difference and its 95 % error margin (normal approximation per game)."""
        n = self.games
        if not n:
            return 0.0, 0.0
        mu = self.score
        var = (self.wins * (1 - mu) ** 2 + self.draws * (0.5 - mu) ** 2
               + self.losses * mu ** 2) / n
        se = math.sqrt(var / n)
        lo, hi = _elo(mu - 1.96 * se), _elo(mu + 1.96 * se)
        return _elo(mu), (hi - lo) / 2

    def add(self, result: str, first_is_white: bool) -> None:
        if result == "1/2-1/2":
            self.draws += 1
        elif (result == "1-0") == first_is_white:
            self.wins += 1
        else:
            self.losses += 1

    def __str__(self) -> str:
        elo, margin = self.elo()
        return (f"+{self.wins} ={self.draws} -{self.losses} ({self.score * 100:.1f}%), "
                f"Elo {elo:+.0f} ± {margin:.0f}")


def _elo(score: float) -> float:
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def run_match(
    first: EngineSpec, second: EngineSpec, variant: str | Variant, games: int,
    tc: TimeControl, seed: int | None = None, concurrency: int = 1,
    adjustment: bool | None = None, on_game: Callable[[MatchGame, MatchScore], None] | None
    = None, max_plies: int = 400,
) -> tuple[MatchScore, list[MatchGame]]:
    """Play ``games`` games (rounded up to pairs), each setup twice with colours swapped."""
    v = get_variant(variant)
    rng = random.Random(seed)
    pairs = (games + 1) // 2
    jobs: queue.Queue[tuple[int, str, list[str], bool]] = queue.Queue()
    for i in range(pairs):
        opening: list[str] = []
        if v.key == "chess":
            fen = v.start_fen
            opening = CLASSICAL_OPENINGS[i % len(CLASSICAL_OPENINGS)].split()
        else:
            fen = random_setup(v, rng, adjustment)
        jobs.put((2 * i, fen, opening, True))
        jobs.put((2 * i + 1, fen, opening, False))
    score = MatchScore()
    records: list[tuple[int, MatchGame]] = []
    lock = threading.Lock()
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            a, b = Player.start(first), Player.start(second)
        except (OSError, EngineError) as exc:
            errors.append(exc)
            return
        try:
            while True:
                try:
                    index, fen, opening, first_white = jobs.get_nowait()
                except queue.Empty:
                    return
                white, black = (a, b) if first_white else (b, a)
                rec = play_game(white, black, fen, v, tc, opening, max_plies)
                with lock:
                    score.add(rec.result, first_white)
                    records.append((index, rec))
                    if on_game is not None:
                        on_game(rec, score)
        except BaseException as exc:  # reported to the caller after the threads end
            errors.append(exc)
        finally:
            a.close()
            b.close()

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(max(1, concurrency))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors and not records:
        raise EngineError(str(errors[0]))
    return score, [r for _, r in sorted(records, key=lambda x: x[0])]


def game_pgn(rec: MatchGame, event: str = "randomchess match", round_: str = "?",
             time_control: str = "-") -> str:
    """The game as PGN (:func:`randomchess.pgn.write_game`): the seven tags, ``Variant``,
    ``SetUp`` and ``FEN`` for a setup, ``TimeControl``, and a ``Termination`` that names
    the ending (``checkmate``, ``threefold repetition``, ``time forfeit`` ...)."""
    record = PgnGame(
        headers={
            "Event": event, "Site": "?", "Date": time.strftime("%Y.%m.%d"),
            "Round": round_, "White": rec.white, "Black": rec.black, "Result": rec.result,
            "TimeControl": time_control, "Termination": rec.termination,
            **({"Opening": rec.opening} if rec.opening else {}),
        },
        variant=rec.variant, start_fen=rec.start_fen, moves=[Node(m) for m in rec.moves],
        result=rec.result,
    )
    return write_game(record, columns=79)
