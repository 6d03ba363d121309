"""Our engine's side of the UCI protocol (``randomchess uci``): :class:`UciServer` answers a
GUI or a match runner, with one reader loop and the searches on a worker thread.  (The other
side, the client that runs external engines, is :mod:`randomchess.analysis.uci_client`.)

The reader keeps answering (``isready``, ``stop``, ``quit``) while a search runs.  Castling is
written king-takes-rook when ``UCI_Chess960`` is on and in every random variant (RULES.md
§2.6); in a fixed-array variant (chess, Capablanca, Maura's Modern chess) with the option off
it is the king's step, ``e1g1``, as Fairy-Stockfish writes it, and both forms are read.  Bad
``position`` lines are reported with ``info string`` and leave the previous position in
place; unknown commands are ignored, as the protocol asks.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TextIO

from randomchess.engine.search import (
    DEFAULT_LEVEL,
    LEVELS,
    MOVE_OVERHEAD_MS,
    MOVETIME_OVERHEAD_MS,
    Info,
    Limits,
    Searcher,
    format_score,
)
from randomchess.errors import RandomChessError
from randomchess.position import Move, Position
from randomchess.variants import UnknownVariantError, engine_variant_names, get_variant

ENGINE_NAME = "randomchess"
ENGINE_AUTHOR = "randomchess developers"
# A ``go`` whose limits could not be read still searches, this long, and answers.
MALFORMED_GO_MOVETIME_MS = 1000
_GO_INT_FIELDS = ("depth", "nodes", "movetime", "wtime", "btime", "winc", "binc",
                  "movestogo", "mate")


class UciServer:
    """The engine answering one UCI session.  Feed it lines with :meth:`handle`."""

    def __init__(self, write: Callable[[str], None] | None = None) -> None:
        self._write_raw = write or _stdout_writer(sys.stdout)
        self._lock = threading.Lock()
        self.searcher = Searcher()
        self.variant_name = "chess"
        self.chess960 = False
        self.hash_mb = 16
        self.level = DEFAULT_LEVEL
        self.position = Position(variant="chess")
        self.game_keys: list[int] = []
        self._thread: threading.Thread | None = None
        self._stop_event = threading.Event()
        self._search_stop = threading.Event()
        self._pending_clock: tuple[int, int, int] | None = None
        self.move_overhead_ms = MOVE_OVERHEAD_MS  # the ``Move Overhead`` option
        self.move_overhead_set = False  # set by the GUI: then it also applies to movetime
        # Latency the GUI charged us beyond our own thinking, learnt from its clocks: the
        # clock we were given, the increment and what we spent, per colour.
        self.observed_overhead_ms = 0
        self._last_clock: dict[int, tuple[int, int, int]] = {}

    # ------------------------------------------------------------------ output
    def send(self, line: str) -> None:
        with self._lock:
            self._write_raw(line)

    # ------------------------------------------------------------------ main loop
    def run(self, stream: TextIO) -> None:
        """Read commands until ``quit`` or end of input."""
        for line in stream:
            if not self.handle(line):
                break
        self._stop_search()

    def handle(self, line: str) -> bool:
        """Process one command line; False after ``quit``."""
        tokens = line.strip().split()
        if not tokens:
            return True
        cmd, args = tokens[0], tokens[1:]
        try:
            if cmd == "uci":
                self._uci()
            elif cmd == "isready":
                self.send("readyok")
            elif cmd == "ucinewgame":
                self._stop_search()
                self.searcher.new_game()
                self._last_clock.clear()
            elif cmd == "setoption":
                self._stop_search()
                self._setoption(args)
            elif cmd == "position":
                self._stop_search()
                self._position(args)
            elif cmd == "go":
                self._stop_search()
                self._go(args)
            elif cmd == "stop":
                self._stop_search()
            elif cmd == "quit":
                self._stop_search()
                return False
            elif cmd == "d":  # not UCI; handy when talking to the engine by hand
                self.send(f"info string fen {self.position.fen(shredder=self._shredder())}")
            # Anything else is ignored, as the protocol asks.
        except (ValueError, IndexError) as exc:
            self.send(f"info string error in {cmd!r}: {exc}")
        return True

    # ------------------------------------------------------------------ commands
    def _uci(self) -> None:
        self.send(f"id name {ENGINE_NAME}")
        self.send(f"id author {ENGINE_AUTHOR}")
        self.send("option name Hash type spin default 16 min 1 max 1024")
        self.send("option name UCI_Chess960 type check default false")
        combo = " ".join(f"var {v}" for v in engine_variant_names())
        self.send(f"option name UCI_Variant type combo default chess {combo}")
        self.send(f"option name Skill Level type spin default {DEFAULT_LEVEL} min 1 "
                  f"max {max(LEVELS)}")
        self.send("option name Bishop Adjustment type check default true")
        self.send(f"option name Move Overhead type spin default {MOVE_OVERHEAD_MS} min 0 "
                  "max 5000")
        self.send("uciok")

    def _setoption(self, args: list[str]) -> None:
        text = " ".join(args)
        if not text.startswith("name "):
            raise ValueError("expected 'setoption name <id> [value <x>]'")
        name, _, value = text[5:].partition(" value ")
        name = name.strip().lower()
        value = value.strip()
        if name == "hash":
            self.hash_mb = max(1, min(1024, int(value)))
            self.searcher.set_hash(self.hash_mb)
        elif name == "uci_chess960":
            self.chess960 = value.lower() == "true"
            self._reset_position()
        elif name == "uci_variant":
            try:
                get_variant(value)
            except UnknownVariantError as exc:
                raise ValueError(str(exc)) from None
            self.variant_name = value
            self._reset_position()
        elif name == "bishop adjustment":
            self.searcher.allow_adjustment = value.lower() != "false"
        elif name == "move overhead":
            self.move_overhead_ms = max(0, min(5000, int(value)))
            self.move_overhead_set = True
        elif name == "skill level":
            self.level = max(min(LEVELS), min(max(LEVELS), int(value)))
            self.searcher.level = self.level
        # Unknown options are ignored.

    def variant_key(self) -> str:
        """The rules in force: ``UCI_Variant``, turned random by ``UCI_Chess960``."""
        v = get_variant(self.variant_name)
        if self.chess960 and v.random_version is not None:
            return v.random_version
        return v.key

    def _start_fen(self) -> str:
        return get_variant(self.variant_key()).default_fen

    def _reset_position(self) -> None:
        self.position = Position(self._start_fen(), self.variant_key())
        self.game_keys = []

    def _position(self, args: list[str]) -> None:
        if not args:
            raise ValueError("expected 'position startpos|fen <fen> [moves ...]'")
        if "moves" in args:
            i = args.index("moves")
            spec, moves = args[:i], args[i + 1:]
        else:
            spec, moves = args, []
        variant = self.variant_key()
        try:
            if spec[0] == "startpos" and len(spec) == 1:
                pos = Position(self._start_fen(), variant)
            elif spec[0] == "fen" and len(spec) > 1:
                pos = Position(" ".join(spec[1:]), variant)
            else:
                raise ValueError("expected 'startpos' or 'fen <fen>'")
            keys = []
            for text in moves:
                keys.append(pos.zobrist)
                pos.push_uci(text)
        except (RandomChessError, ValueError) as exc:
            self.send(f"info string bad position ({variant}): {exc}")
            return
        self.position = pos
        self.game_keys = keys

    def _go(self, args: list[str]) -> None:
        limits, problems = parse_go(args)
        pos = self.position.copy(stack=False)
        if problems:
            # A GUI waits for a bestmove after every go: say what was wrong, then search.
            self.send(f"info string error in 'go': {'; '.join(problems)}")
            if not (limits.depth or limits.nodes or limits.movetime or limits.infinite
                    or limits.wtime is not None or limits.btime is not None):
                limits.movetime = MALFORMED_GO_MOVETIME_MS
        if (limits.wtime is None) != (limits.btime is None):
            self.send("info string 'go' gave one clock only; it is used for both sides")
        self._learn_overhead(pos, limits)
        self.searcher.move_overhead_ms = max(self.move_overhead_ms,
                                             self.observed_overhead_ms * 3 // 2)
        self.searcher.movetime_overhead_ms = (self.move_overhead_ms if self.move_overhead_set
                                              else MOVETIME_OVERHEAD_MS)
        keys = list(self.game_keys)
        self._stop_event.clear()
        self._search_stop = threading.Event()
        self._thread = threading.Thread(
            target=self._search_job, args=(pos, limits, keys, self._search_stop), daemon=True
        )
        self._thread.start()

    def _learn_overhead(self, pos: Position, limits: Limits) -> None:
        """Compare the clock the GUI gives now with what it should be after our last move:
        the difference is latency we are charged for (pipes, the GUI itself).  The search
        keeps that much more in hand (a decaying maximum, so one slow move counts for a
        while)."""
        white = pos.turn == 0
        remaining = limits.wtime if white else limits.btime
        inc = limits.winc if white else limits.binc
        last = self._last_clock.pop(pos.turn, None)
        if remaining is None:
            return
        if last is not None:
            before, last_inc, spent = last
            lag = before - spent + last_inc - remaining
            if 0 <= lag <= before:
                self.observed_overhead_ms = max(lag, self.observed_overhead_ms * 4 // 5)
        self._pending_clock = (pos.turn, remaining, inc)

    def _search_job(self, pos: Position, limits: Limits, keys: list[int],
                    stop: threading.Event) -> None:
        chess960 = self._output_chess960(pos)
        clock = self._pending_clock
        self._pending_clock = None

        def on_info(info: Info) -> None:
            pv = " ".join(pos.uci(m, chess960=chess960) for m in _playable(pos, info.pv))
            self.send(
                f"info depth {info.depth} seldepth {info.seldepth} "
                f"score {format_score(info.score)} nodes {info.nodes} nps {info.nps} "
                f"time {info.time_ms} pv {pv}"
            )

        try:
            result = self.searcher.search(pos, limits, keys, on_info, stop_event=stop)
        except Exception as exc:  # never leave the GUI without a bestmove
            self.send(f"info string search failed: {exc!r}")
            moves = pos.legal_moves()
            move = moves[0] if moves else None
        else:
            move = result.move
            if clock is not None:
                color, remaining, inc = clock
                self._last_clock[color] = (remaining, inc, result.time_ms)
        # In infinite mode the protocol forbids bestmove before stop.
        if limits.infinite:
            self._stop_event.wait()
        if move is None:
            self.send("bestmove 0000")
        else:
            self.send(f"bestmove {pos.uci(move, chess960=chess960)}")

    def _output_chess960(self, pos: Position) -> bool | None:
        """How castling is written: as the king's step in a fixed-array variant with
        UCI_Chess960 off (chess, Capablanca and Maura's Modern chess, as Fairy-Stockfish
        writes it, issue 36), else king takes rook."""
        if not pos.variant.is_random:
            return self.chess960
        return None  # random variants write king-takes-rook

    def _shredder(self) -> bool:
        return self.chess960 or self.position.variant.key != "chess"

    def _stop_search(self) -> None:
        thread = self._thread
        if thread is None:
            return
        self._search_stop.set()
        self._stop_event.set()
        thread.join()
        self._thread = None


def parse_go(args: list[str]) -> tuple[Limits, list[str]]:
    """The limits of a ``go`` command and what could not be read (ignored).  Negative
    clocks (a GUI that let us overstep) count as zero."""
    limits = Limits()
    problems: list[str] = []
    i = 0
    while i < len(args):
        word = args[i]
        if word == "infinite":
            limits.infinite = True
        elif word in _GO_INT_FIELDS:
            text = args[i + 1] if i + 1 < len(args) else None
            try:
                value = int(text) if text is not None else None
            except ValueError:
                value = None
            if value is None:
                problems.append(f"{word} needs a whole number, not {text!r}" if text
                                else f"{word} needs a value")
                if text is not None and text not in _GO_INT_FIELDS and text != "infinite":
                    i += 1
            else:
                i += 1
                if word == "mate":
                    limits.depth = 2 * max(1, value) + 1
                else:
                    setattr(limits, word, max(0, value))
        # ponder, searchmoves and unknown words: not supported, ignored
        i += 1
    return limits, problems


def _playable(pos: Position, pv: list[Move]) -> list[Move]:
    """The legal prefix of ``pv`` (a TT-built PV is checked move by move before printing)."""
    out = []
    done = 0
    try:
        for m in pv:
            if m not in pos.legal_moves():
                break
            out.append(m)
            pos.push(m)
            done += 1
    finally:
        for _ in range(done):
            pos.pop()
    return out


def _stdout_writer(stream: TextIO) -> Callable[[str], None]:
    def write(line: str) -> None:
        stream.write(line + "\n")
        stream.flush()

    return write


def main(stdin: TextIO | None = None) -> None:
    """Run a UCI session on standard input and output."""
    server = UciServer()
    server.run(stdin or sys.stdin)

