"""The project's one UCI client: every external engine it talks to goes through it.

Analysis (Stockfish, Fairy-Stockfish or any command), the computer levels above 8, engine
matches and the level calibration (:mod:`randomchess.analysis.match`) all run an engine as a
:class:`UciClient`; our own engine's side of the protocol is the server,
:class:`randomchess.engine.uci.UciServer`.

A small client of its own rather than python-chess's ``chess.engine``: python-chess's boards
are 8x8 only, so it could neither send nor check a 9x9 position, and it stays a test-only
dependency.  The client is a subprocess with a reader thread; every line the engine sends
is checked against the rules core (a move that is not legal ends the line it is in).

Fairy-Stockfish knows no Bishop Adjustment (RULES.md §4.9).  At the root the client also
searches the position after each legal adjustment and ranks those lines with the engine's
ordinary ones (docs/engine.md, "Bishop Adjustments with external engines"); deeper in the
tree the right is invisible to the engine.

In a variant with a hand (PM-CRC) Fairy-Stockfish 11.1 also castles with a gate onto a square
the king or the rook ends on, which our rules refuse (docs/rules.md D-33): it is told to
search only our legal moves (``searchmoves``), so the moves it sends at the root are ours.
"""

from __future__ import annotations

import contextlib
import queue
import subprocess
import threading
import time
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from randomchess.analysis.core import (
    AnalysisError,
    Limit,
    Line,
    OnLines,
    Score,
    check_multipv,
    make_line,
)
from randomchess.errors import RandomChessError
from randomchess.position import Move, Position
from randomchess.variants import Variant

# Fairy-Stockfish names of the entries our variants.ini defines (used once it is loaded).
INI_VARIANTS = {"mrc": "mrc", "pseudo-mrc": "pseudo-mrc", "chess8400": "chess8400",
                "pmrc": "pmrc", "crc": "crc", "pmcrc": "pmcrc", "ifrc": "ifrc"}
STARTUP_TIMEOUT = 30.0  # for uciok and readyok (a Python engine imports for a while)
NO_ANSWER_GRACE = 30.0  # seconds past the search's own limit before the client says stop
STOP_GRACE = 5.0  # ... and after stop, before it kills the process


class EngineError(AnalysisError):
    """An external engine that could not start, died, timed out or spoke nonsense."""


def variants_ini() -> Path:
    """The variants.ini shipped with the package (Fairy-Stockfish's ``VariantPath``)."""
    return Path(str(resources.files("randomchess.analysis").joinpath("variants.ini")))


def plain_fen(pos: Position) -> str:
    """The FEN an engine without the Bishop Adjustment reads: the six standard fields."""
    return " ".join(pos.fen().split()[:6])


class UciClient:
    """One external engine process, restarted on the next analysis if it dies.

    ``fairy``: Fairy-Stockfish, given our variants.ini; ``reads_adjustment``: an engine that
    knows randomchess's variant keys and the Bishop Adjustment (our own engine run as
    ``randomchess uci``), sent whole FENs; ``options`` are set once it has started, and
    ``Hash`` to ``hash_mb`` (None: the engine's default)."""

    def __init__(self, name: str, command: Sequence[str], *, fairy: bool = False,
                 reads_adjustment: bool = False, options: dict[str, str] | None = None,
                 hash_mb: int | None = 64) -> None:
        self.name = name
        self.command = list(command)
        self.fairy = fairy
        self.reads_adjustment = reads_adjustment
        self.extra_options = dict(options or {})
        self.hash_mb = hash_mb
        self.id_name = name
        self.variant_names: set[str] = set()
        self.option_names: set[str] = set()
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._lock = threading.Lock()
        self._searching = False
        self._stopped = False
        self._variant: tuple[str, bool] | None = None
        self._multipv = 0
        self._bestmove: str | None = None
        # The engine's own choice (``bestmove``) in the last analysis's search of the
        # position itself; with ``UCI_LimitStrength`` not the first move of its best line.
        self.root_bestmove: str | None = None
        self._start()

    # ------------------------------------------------------------------ process
    def _start(self) -> None:
        try:
            self._proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True, bufsize=1,
            )
        except OSError as exc:
            raise EngineError(f"{self.name}: cannot start {self.command[0]} ({exc})") from None
        self._lines = queue.Queue()
        threading.Thread(target=self._reader, args=(self._proc, self._lines),
                         daemon=True).start()
        self._variant = None
        self._multipv = 0
        if self.fairy:
            # Before "uci", so the variant list printed with uciok includes our entries.
            self._send(f"setoption name VariantPath value {variants_ini()}")
        self._send("uci")
        for line in self._until("uciok", STARTUP_TIMEOUT):
            if line.startswith("id name "):
                self.id_name = line[8:].strip()
            elif line.startswith("option name "):
                name = line[12:].split(" type ", 1)[0].strip()
                self.option_names.add(name)
                if name == "UCI_Variant":
                    self.variant_names = set(line.split(" var ")[1:])
                    self.variant_names = {v.strip() for v in self.variant_names}
        if self.hash_mb is not None and "Hash" in self.option_names:
            self._send(f"setoption name Hash value {self.hash_mb}")
        for key, value in self.extra_options.items():
            self._send(f"setoption name {key} value {value}")
        self._ready()

    @staticmethod
    def _reader(proc: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    def _alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def _send(self, line: str) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise EngineError(f"{self.name}: not running")
        try:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise EngineError(f"{self.name}: the engine stopped ({exc})") from None

    def _until(self, word: str, timeout: float) -> list[str]:
        deadline = time.monotonic() + timeout
        seen: list[str] = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineError(f"{self.name}: no {word!r} within {timeout:.1f} s")
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise EngineError(f"{self.name}: the engine process ended")
            seen.append(line)
            if line.split(" ", 1)[0] == word:
                return seen

    def _ready(self) -> None:
        self._send("isready")
        self._until("readyok", STARTUP_TIMEOUT)

    # ------------------------------------------------------------------ variants
    def engine_variant(self, variant: Variant) -> str | None:
        """The engine's name for ``variant`` (None: it cannot play it)."""
        if self.reads_adjustment:  # our own engine knows every key
            return variant.key
        if not self.fairy:
            # Stockfish plays every 8x8 array of the orthodox army (Double 960 too).
            return "chess" if variant.uci_name == "chess" else None
        ini = INI_VARIANTS.get(variant.key)
        if ini is not None and ini in self.variant_names:
            return ini
        if variant.uci_name and variant.uci_name in self.variant_names:
            return variant.uci_name
        return None

    def supports(self, variant_key: str) -> bool:
        from randomchess.variants import get_variant

        return self.engine_variant(get_variant(variant_key)) is not None

    def _choose_variant(self, variant: Variant) -> bool:
        """Set ``UCI_Variant`` and ``UCI_Chess960`` for ``variant`` if they change; whether
        they did."""
        name = self.engine_variant(variant)
        if name is None:
            raise EngineError(f"{self.name} cannot play {variant.pgn_name}")
        wanted = (name, variant.uci_chess960)
        if wanted == self._variant:
            return False
        if "UCI_Variant" in self.option_names:
            self._send(f"setoption name UCI_Variant value {name}")
        if "UCI_Chess960" in self.option_names:
            self._send("setoption name UCI_Chess960 value "
                       + ("true" if variant.uci_chess960 else "false"))
        self._variant = wanted
        return True

    def _configure(self, variant: Variant, multipv: int) -> None:
        if self._choose_variant(variant):
            self._send("ucinewgame")
        if multipv != self._multipv:
            self._send(f"setoption name MultiPV value {multipv}")
            self._multipv = multipv
        self._ready()

    def fen(self, pos: Position) -> str:
        """The FEN this engine is sent: whole if it reads the Bishop Adjustment, else the six
        standard fields (RULES.md §4.9)."""
        return pos.fen() if self.reads_adjustment else plain_fen(pos)

    # ------------------------------------------------------------------ analysis
    def analyse(self, pos: Position, limit: Limit, multipv: int = 1,
                on_lines: OnLines | None = None, game_keys: Sequence[int] = ()) -> list[Line]:
        check_multipv(multipv)
        legal = pos.legal_moves()
        if not legal:
            return []
        with self._lock:
            self._stopped = False
            if not self._alive():
                self._start()
            # An engine without the Bishop Adjustment gets the lines after each one searched
            # here, at the root; one that reads it searches them itself.
            adjustments = [] if self.reads_adjustment else [
                m for m in legal if pos.is_adjustment(m)]
            ordinary = len(legal) - len(adjustments)
            searches = (1 if ordinary else 0) + len(adjustments)
            share = limit.split(searches)
            lines: list[Line] = []
            self.root_bestmove = None
            if ordinary:
                lines = self._search(pos, share, min(multipv, ordinary), on_lines, [])
                self.root_bestmove = self._bestmove
            for move in adjustments:
                if self._stopped and lines:
                    break
                lines.append(self._adjustment_line(pos, move, share))
                if on_lines is not None:
                    on_lines(_ranked(pos, lines, multipv))
            ranked = _ranked(pos, lines, multipv)
            if on_lines is not None and ranked:
                on_lines(ranked)
            return ranked

    def _adjustment_line(self, pos: Position, move: Move, limit: Limit) -> Line:
        """The line that starts with the Bishop Adjustment ``move``: the engine searches the
        position after it (where the adjusting side's right is spent)."""
        child = pos.copy(stack=False)
        child.push(move)
        if not child.legal_moves():
            score = Score.from_mover(pos, mate=1) if child.is_check() else Score(cp=0)
            return make_line(pos, 1, 1, score, [move])
        deeper = Limit(max(1, limit.depth - 1) if limit.depth else 0, limit.movetime)
        found = self._search(child, deeper, 1, None, [])
        if not found:
            return make_line(pos, 1, 1, Score(cp=0), [move])
        best = found[0]
        board = child.copy(stack=False)
        tail: list[Move] = []
        for text in best.pv:
            m = board.parse_uci(text)
            tail.append(m)
            board.push(m)
        score = best.score
        if score.mate is not None and Score.from_mover(pos, cp=1).sort_key() * score.mate > 0:
            # Mate by the adjusting side: one move more, counted from before the adjustment.
            score = Score(mate=score.mate + (1 if score.mate > 0 else -1))
        return make_line(pos, 1, best.depth + 1, score, [move, *tail],
                         best.nodes, best.time_ms)

    def _search(self, pos: Position, limit: Limit, multipv: int,
                on_lines: OnLines | None, prefix: list[Line]) -> list[Line]:
        self._configure(pos.variant, multipv)
        self._send(f"position fen {self.fen(pos)}")
        go = "go"
        if limit.depth:
            go += f" depth {limit.depth}"
        if limit.movetime:
            go += f" movetime {limit.movetime}"
        go += self.searchmoves(pos)
        found: dict[int, Line] = {}
        self._bestmove = None
        self._searching = True
        self._send(go)
        timeout = (limit.movetime / 1000 if limit.movetime else 60.0) + NO_ANSWER_GRACE
        deadline = time.monotonic() + timeout
        stopped = False
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    if stopped:  # no bestmove even after stop: the engine hangs
                        self._kill()
                        raise EngineError(f"{self.name}: no answer within {timeout:.0f} s")
                    self._send("stop")
                    stopped = True
                    deadline = time.monotonic() + STOP_GRACE
                    continue
                try:
                    text = self._lines.get(timeout=left)
                except queue.Empty:
                    continue
                if text is None:
                    raise EngineError(f"{self.name}: the engine process ended")
                if text.startswith("bestmove"):
                    words = text.split()
                    self._bestmove = words[1] if len(words) > 1 else None
                    break
                if text.startswith("info ") and " pv " in text:
                    line = parse_info(pos, text)
                    if line is not None:
                        found[line.multipv] = line
                        if on_lines is not None and line.multipv == len(found):
                            on_lines([*prefix, *(found[k] for k in sorted(found))])
        finally:
            self._searching = False
        return [found[k] for k in sorted(found)]

    def searchmoves(self, pos: Position) -> str:
        """`` searchmoves ...`` (every legal move but the Bishop Adjustments) for a ``go``
        in ``pos`` when the engine's moves may differ from ours there, else "".  That is
        Fairy-Stockfish in a variant with a hand: its 11.1 castles with a gate onto a square
        the king or the rook ends on, deleting the piece there and keeping its value in its
        evaluation, so it prefers such moves (docs/analysis.md).  Elsewhere perft agrees."""
        if not self.fairy or self.reads_adjustment or not pos.variant.has_gating:
            return ""
        moves = [pos.uci(m) for m in pos.legal_moves() if not pos.is_adjustment(m)]
        return " searchmoves " + " ".join(moves) if moves else ""

    def _kill(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait()
            self._proc = None

    def new_game(self) -> None:
        """Forget everything searched so far (hash table, histories): the next analysis does
        not depend on what came before it (``ucinewgame``)."""
        with self._lock:
            if not self._alive():
                return
            self._send("ucinewgame")
            self._ready()

    # ------------------------------------------------------------------ games
    def start_game(self, variant: Variant) -> None:
        """A new game of ``variant`` (a match's): the variant's options, ``ucinewgame``."""
        with self._lock:
            self._variant = None  # sent again, whatever the last game was
            self._choose_variant(variant)
            self._send("ucinewgame")
            self._ready()

    def bestmove(self, position: str, go: str, timeout: float) -> tuple[str, str]:
        """Send the ``position`` and ``go`` commands as given; (the move of ``bestmove``, the
        last ``score`` seen: ``cp 31``, ``mate -2`` or "").  No answer within ``timeout``
        seconds is an :class:`EngineError` (the process is left to the caller's ``close``)."""
        with self._lock:
            self._send(position)
            self._send(go)
            lines = self._until("bestmove", timeout)
        score = ""
        for line in lines:
            if " score " in line:
                score = " ".join(line.split(" score ", 1)[1].split()[:2])
        words = lines[-1].split()
        if len(words) < 2:
            raise EngineError(f"{self.name}: bad line {lines[-1]!r}")
        return words[1], score

    def stop(self) -> None:
        self._stopped = True
        if self._searching:
            with contextlib.suppress(RandomChessError):
                self._send("stop")

    def close(self) -> None:
        proc = self._proc
        if proc is None:
            return
        with contextlib.suppress(RandomChessError):
            self._send("quit")
        try:
            proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        self._proc = None


def parse_info(pos: Position, text: str) -> Line | None:
    """A :class:`Line` from an engine's ``info ... pv ...`` line (None if it has no score,
    or its first move is not legal here); the PV stops at the first illegal move."""
    words = text.split()
    depth = multipv = nodes = time_ms = 0
    cp: int | None = None
    mate: int | None = None
    pv: list[str] = []
    bound = False
    i = 1
    try:
        while i < len(words):
            w = words[i]
            if w == "pv":
                pv = words[i + 1:]
                break
            if w == "depth":
                depth = int(words[i + 1])
            elif w == "multipv":
                multipv = int(words[i + 1])
            elif w == "nodes":
                nodes = int(words[i + 1])
            elif w == "time":
                time_ms = int(words[i + 1])
            elif w == "score":
                kind, value = words[i + 1], int(words[i + 2])
                if kind == "cp":
                    cp = value
                elif kind == "mate":
                    mate = value
                i += 1
            elif w in ("lowerbound", "upperbound"):
                bound = True
                i -= 1
            elif w == "string":
                return None
            i += 2
    except (IndexError, ValueError):
        return None
    if bound or (cp is None and mate is None) or not pv:
        return None
    board = pos.copy(stack=False)
    moves: list[Move] = []
    for t in pv:
        try:
            m = board.parse_uci(t)
        except ValueError:
            break
        moves.append(m)
        board.push(m)
    if not moves:
        return None
    score = Score.from_mover(pos, cp=cp, mate=mate)
    return make_line(pos, multipv or 1, depth, score, moves, nodes, time_ms)


def _ranked(pos: Position, lines: list[Line], multipv: int) -> list[Line]:
    """Ordinary and adjustment lines best first for the side to move, renumbered."""
    best = sorted(lines, key=lambda ln: -ln.score.for_mover(pos.turn))[:multipv]
    return [Line(k, ln.depth, ln.score, ln.pv, ln.san, ln.nodes, ln.time_ms)
            for k, ln in enumerate(best, 1)]
