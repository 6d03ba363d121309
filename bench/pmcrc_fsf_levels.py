"""PM-CRC against levels 9-11 (Fairy-Stockfish): what the engine sends and what we play.

Drives the engine service's own code path (``randomchess.server.engines.pool.think``, which
calls :func:`randomchess.analysis.levels.external_move`) and records every line the engine
process prints.  For each computer move it compares the engine's ``bestmove`` with the move
``think`` returned, and classifies every engine move the rules core refuses (castling with a
gate, another gating move, a drop, other).  Two parts:

* **games**: both sides computer levels 9-11, from arrays where some castling leaves the
  king's or the rook's square occupied (Fairy-Stockfish 11.1 still gates there, docs/rules.md
  D-33) and from RNBMKBNR (911);
* **castling positions**: random walks from those arrays to positions where Fairy-Stockfish's
  own move list (``go perft 1``) has a castling gate ours has not; each searched by levels
  9-11.

    PYTHONPATH=src nice -n 10 .venv/bin/python bench/pmcrc_fsf_levels.py --games 6 \
        --positions 30 --movetime 100
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import subprocess
from collections import Counter
from collections.abc import Iterator
from typing import Any

from randomchess import Position, get_variant
from randomchess.analysis import levels
from randomchess.analysis.uci_client import UciClient, plain_fen, variants_ini
from randomchess.errors import RandomChessError
from randomchess.game import Game
from randomchess.pieces import KING, PIECE_KIND, ROOK
from randomchess.server.engines import pool
from randomchess.startpos import CRC_SETUPS, setup_from_number

FSF = "/usr/games/fairy-stockfish"
PMCRC = get_variant("pmcrc")
SEEN: list[str] = []  # every line the engines printed since the last clear


def _tee_reader(proc: Any, lines: Any) -> None:
    for line in proc.stdout:
        SEEN.append(line.rstrip("\n"))
        lines.put(line.rstrip("\n"))
    lines.put(None)


_send = UciClient._send


def _tee_send(self: UciClient, line: str) -> None:
    SEEN.append("> " + line)
    _send(self, line)


UciClient._reader = staticmethod(_tee_reader)  # type: ignore[method-assign]
UciClient._send = _tee_send  # type: ignore[method-assign]


def root_search(pos: Position) -> list[str]:
    """The engine's lines of its search of ``pos`` itself (not of the positions after a
    Bishop Adjustment, searched after it), from ``position`` to ``bestmove``."""
    sent = f"> position fen {plain_fen(pos)}"
    start = SEEN.index(sent) if sent in SEEN else 0
    out = []
    for line in SEEN[start:]:
        out.append(line)
        if line.startswith("bestmove"):
            break
    return out


class _Warnings(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


WARNINGS = _Warnings()
logging.getLogger("randomchess.engine").addHandler(WARNINGS)
logging.getLogger("randomchess.engine").propagate = False


def disagreeing(rank: str) -> bool:
    """Arrays with a castling that leaves the king's or the rook's square occupied."""
    king = rank.index("K")
    rooks = [i for i, c in enumerate(rank) if c == "R"]
    return king in (1, 2, 5, 6) or rooks[0] in (1, 2) or rooks[1] in (5, 6)


def classify(pos: Position, text: str) -> str:
    """What kind of move an engine's ``text`` is, judged on our board."""
    if "@" in text:
        return "drop"
    try:
        frm = pos.geometry.parse_square(text[:2])
        to = pos.geometry.parse_square(text[2:4])
    except ValueError:
        return "malformed"
    a, b = pos.board[frm], pos.board[to]
    gated = len(text) == 5
    if a and b and PIECE_KIND[a] in (KING, ROOK) and PIECE_KIND[b] in (KING, ROOK) \
            and PIECE_KIND[a] != PIECE_KIND[b]:
        return "castling-gate" if gated else "castling"
    if gated and PIECE_KIND[a] != 1:
        return "gate"
    return "other"


def legal(pos: Position, text: str) -> bool:
    try:
        pos.parse_uci(text)
    except (RandomChessError, ValueError):
        return False
    return True


class Tally:
    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.events: list[dict[str, object]] = []

    def computer_move(self, pos: Position, start_fen: str, moves: list[str], level: int,
                      movetime: int) -> str | None:
        SEEN.clear()
        WARNINGS.messages.clear()
        played = pool.think("pmcrc", start_fen, moves, level, movetime, None, None, 0, 0)
        self.counts["moves"] += 1
        search = root_search(pos)
        best = [ln.split()[1] for ln in search if ln.startswith("bestmove") and len(ln.split()) > 1]
        engine_best = best[-1] if best else None
        firsts = {ln.split(" pv ", 1)[1].split()[0] for ln in search
                  if ln.startswith("info ") and " pv " in ln}
        refused_firsts = sorted(t for t in firsts if not legal(pos, t))
        for t in refused_firsts:
            self.counts[f"pv-first refused: {classify(pos, t)}"] += 1
        for message in WARNINGS.messages:
            kind = "fallback to level 8" if "level 8" in message else "warning"
            self.counts[kind] += 1
            self.events.append({"fen": pos.fen(), "level": level, "kind": kind,
                                "message": message, "played": played,
                                "engine": root_search(pos)})
        if played is None:
            self.counts["no move"] += 1
        elif not legal(pos, played):
            self.counts["ILLEGAL MOVE PLAYED"] += 1
        self.counts[f"level {level} moves"] += 1
        if engine_best is not None and played is not None and engine_best != played and \
                not pos.is_adjustment(pos.parse_uci(played)):
            self.counts[f"level {level}: played != engine bestmove"] += 1
        if engine_best is not None and not legal(pos, engine_best):
            kind = classify(pos, engine_best)
            self.counts[f"bestmove refused: {kind}"] += 1
            self.events.append({"fen": pos.fen(), "level": level, "bestmove": engine_best,
                                "kind": kind, "played": played,
                                "fallback": list(WARNINGS.messages),
                                "refused_pv_firsts": refused_firsts})
        elif refused_firsts:
            self.events.append({"fen": pos.fen(), "level": level, "bestmove": engine_best,
                                "kind": "pv only", "played": played,
                                "refused_pv_firsts": refused_firsts})
        if engine_best is not None and legal(pos, engine_best):
            kind = classify(pos, engine_best)
            if kind == "castling-gate":
                self.counts["castling-gate played (legal)"] += 1
            elif kind == "gate":
                self.counts["gate played (legal)"] += 1
        return played


def play_game(tally: Tally, fen: str, white: int, black: int, plies: int,
              movetime: int) -> str:
    game = Game(fen, PMCRC, automatic_draws=True)
    moves: list[str] = []
    while not game.is_over and len(moves) < plies:
        level = white if game.position.turn == 0 else black
        uci = tally.computer_move(game.position, fen, moves, level, movetime)
        if uci is None:
            break
        game.push_uci(uci)  # refuses anything illegal
        moves.append(uci)
    return f"{game.result()} after {len(moves)} plies"


def fsf_moves(fen: str) -> set[str]:
    """Fairy-Stockfish's own legal moves in ``fen`` (``go perft 1``)."""
    commands = [f"setoption name VariantPath value {variants_ini()}", "uci",
                "setoption name UCI_Variant value pmcrc",
                "setoption name UCI_Chess960 value true", f"position fen {fen}",
                "go perft 1", "quit"]
    out = subprocess.run(["nice", "-n", "10", FSF], input="\n".join(commands) + "\n",
                         capture_output=True, text=True, timeout=60, check=True).stdout
    return {ln.split(":")[0] for ln in out.splitlines()
            if ln[:1].isalpha() and ln[1:2].isdigit() and ": " in ln}


def castling_positions(rng: random.Random, count: int, arrays: list[str]) -> Iterator[
        tuple[Position, set[str]]]:
    """Positions where Fairy-Stockfish has castling gates we refuse (and those moves)."""
    found = 0
    tries = 0
    while found < count and tries < 4000:
        tries += 1
        pos = Position(PMCRC.setup_fen(rng.choice(arrays), adjustment=False), PMCRC)
        # Random play biased to move pieces off the back rank, so castling paths clear.
        for _ in range(rng.randrange(4, 30)):
            legal_moves = pos.legal_moves()
            if not legal_moves:
                break
            off_rank = [m for m in legal_moves if not pos.is_castling(m)
                        and PIECE_KIND[pos.board[m.from_square]] not in (KING, ROOK)
                        and not pos.is_gating(m)]
            pos.push(rng.choice(off_rank or legal_moves))
        if not pos.legal_moves() or not pos.can_gate(pos.turn):
            continue
        ours = {pos.uci(m) for m in pos.legal_moves()}
        theirs = fsf_moves(pos.fen(shredder=True))
        extra = {t for t in theirs - ours if classify(pos, t) == "castling-gate"}
        if extra:
            found += 1
            yield pos, extra


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--plies", type=int, default=160)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--movetime", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    arrays = [r for r in (setup_from_number(PMCRC, n).rank for n in range(CRC_SETUPS))
              if disagreeing(r)]
    tally = Tally()
    pairs = [(9, 10), (10, 11), (11, 9), (11, 11), (9, 9), (10, 10)]
    for g in range(args.games):
        rank = "RNBMKBNR" if g == 0 else rng.choice(arrays)
        white, black = pairs[g % len(pairs)]
        result = play_game(tally, PMCRC.setup_fen(rank), white, black, args.plies,
                           args.movetime)
        print(f"game {g + 1}: {rank} level {white} v {black}: {result}", flush=True)
    extras: Counter[str] = Counter()
    for pos, extra in castling_positions(rng, args.positions, arrays):
        extras["positions"] += 1
        start = pos.fen()
        for level in (9, 10, 11):
            tally.computer_move(Position(start, PMCRC), start, [], level, args.movetime)
        print(f"position {extras['positions']}: {start} FSF-only: {sorted(extra)}", flush=True)
    levels.close_players()
    print(json.dumps(dict(tally.counts), indent=1))
    for e in tally.events:
        print(json.dumps(e))


if __name__ == "__main__":
    main()
