"""Move quality against Stockfish: how much each of our engine's moves loses, as full-strength
Stockfish sees it, on positions taken from real games (issue 16).

A match of 100 games measures strength to about +-70 Elo; the loss per move on a few hundred
fixed positions is a much steadier figure for comparing two versions of the engine, and it
says where the moves are lost (opening, middlegame, endgame; small drifts or blunders).  It
is a benchmark (it prints figures), never a test.

    # 1. positions where our engine was to move, from match PGNs (ours = not Stockfish)
    .venv/bin/python bench/move_quality.py positions /tmp/m/*.pgn -o pos.json --count 400
    # 2. our engine's choice in each, at 200 ms a move (PYTHONPATH picks the version)
    env PYTHONPATH=/tmp/old/src .venv/bin/python bench/move_quality.py play pos.json -o old.json
    .venv/bin/python bench/move_quality.py play pos.json -o new.json
    # 3. Stockfish's verdict on each choice (cached by position and move), side by side
    .venv/bin/python bench/move_quality.py score pos.json old.json new.json --cache sf.json

The loss of a move is Stockfish's score of its best move minus its score of the move played,
both searched to the same depth (``searchmoves`` for the second), at least 0 and at most 500
centipawns.  Positions Stockfish scores beyond +-600 (decided games) are left out of the
averages.  "Expected-score loss" converts both scores to a winning chance first
(``1 / (1 + 10 ** (-cp / 400))``), so a pawn thrown away in a level position weighs more
than one in a won position.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

DECIDED = 600
CAP = 500


def _positions(pgns: Iterable[str], count: int, seed: int, min_ply: int) -> list[dict[str, Any]]:
    import chess
    import chess.pgn

    found: list[dict[str, Any]] = []
    for path in pgns:
        with open(path, encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                headers = game.headers
                ours = [c for c, name in ((chess.WHITE, headers.get("White", "")),
                                          (chess.BLACK, headers.get("Black", "")))
                        if "stockfish" not in name.lower()]
                board = game.board()
                for ply, node in enumerate(game.mainline()):
                    if board.turn in ours and ply >= min_ply and not board.is_game_over():
                        found.append({"fen": board.fen(), "ply": ply,
                                      "pieces": len(board.piece_map()),
                                      "variant": "chess960" if board.chess960 else "chess"})
                    board.push(node.move)
    rng = random.Random(seed)
    rng.shuffle(found)
    return found[:count]


def _choose(job: tuple[str, str, int, int]) -> tuple[str, str, int, int]:
    from randomchess.engine.search import Limits, Searcher
    from randomchess.position import Position

    variant, fen, movetime, nodes = job
    pos = Position(fen, variant)
    result = Searcher().search(pos, Limits(movetime=movetime, nodes=nodes))
    assert result.move is not None
    return fen, pos.uci(result.move, chess960=True), result.depth, result.nodes


def play(positions: list[dict[str, Any]], movetime: int, nodes: int,
         jobs: int) -> dict[str, Any]:
    import randomchess.native as native

    work = [(p["variant"], p["fen"], movetime, nodes) for p in positions]
    moves: dict[str, str] = {}
    depths: list[int] = []
    with ProcessPoolExecutor(jobs) as pool:
        for i, (fen, move, depth, _) in enumerate(pool.map(_choose, work, chunksize=4)):
            moves[fen] = move
            depths.append(depth)
            if (i + 1) % 50 == 0:
                print(f"  {i + 1}/{len(work)}", file=sys.stderr)
    return {"moves": moves, "movetime": movetime, "nodes": nodes, "native": native.STATUS,
            "mean_depth": statistics.fmean(depths)}


def _cp(score: Any) -> int:
    return int(score.relative.score(mate_score=10_000))


def score(positions: list[dict[str, Any]], choices: list[dict[str, Any]], names: list[str],
          depth: int, cache_path: Path | None, worst: int = 0, jobs: int = 2) -> None:
    import threading
    from concurrent.futures import ThreadPoolExecutor

    import chess
    import chess.engine

    from randomchess.analysis.engines import EngineConfig

    stockfish = EngineConfig.detect().paths["stockfish"]
    cache: dict[str, Any] = {}
    if cache_path is not None and cache_path.exists():
        cache = json.loads(cache_path.read_text())
    local = threading.local()
    engines: list[chess.engine.SimpleEngine] = []
    lock = threading.Lock()

    def key(fen: str, move: str | None) -> str:
        return f"{depth}|{fen}|{move or ''}"

    def work(query: tuple[str, bool, str | None]) -> None:
        """Stockfish's score of the position (and its best move, keyed ``…|best``), or
        of ``move`` alone in it, into the cache."""
        fen, chess960, move = query
        engine = getattr(local, "engine", None)
        if engine is None:
            engine = local.engine = chess.engine.SimpleEngine.popen_uci(stockfish)
            engine.configure({"Hash": 64, "Threads": 1})
            with lock:
                engines.append(engine)
        board = chess.Board(fen, chess960=chess960)
        limit = chess.engine.Limit(depth=depth)
        k = key(fen, move)
        if move is None:
            info = engine.analyse(board, limit)
            cache[k + "|best"] = info["pv"][0].uci()
        else:
            info = engine.analyse(board, limit, root_moves=[chess.Move.from_uci(move)])
        cache[k] = _cp(info["score"])

    def fill(queries: list[tuple[str, bool, str | None]]) -> None:
        todo = [q for q in dict.fromkeys(queries) if key(q[0], q[2]) not in cache]
        started = time.monotonic()
        with ThreadPoolExecutor(jobs) as pool:
            for n, _ in enumerate(pool.map(work, todo)):
                if (n + 1) % 100 == 0:
                    print(f"  Stockfish: {n + 1}/{len(todo)} "
                          f"({time.monotonic() - started:.0f} s)", file=sys.stderr)
        if cache_path is not None:
            cache_path.write_text(json.dumps(cache))

    try:
        fill([(p["fen"], p["variant"] == "chess960", None) for p in positions])
        fill([(p["fen"], p["variant"] == "chess960", c["moves"][p["fen"]])
              for p in positions for c in choices
              if p["fen"] in c["moves"]
              and c["moves"][p["fen"]] != cache[key(p["fen"], None) + "|best"]])
    finally:
        for engine in engines:
            engine.quit()

    rows: list[dict[str, tuple[int, float]]] = [{} for _ in choices]
    best_moves: dict[str, tuple[str, int]] = {}
    phases: list[dict[str, list[int]]] = [{} for _ in choices]
    left_out = 0
    for p in positions:
        best_cp = int(cache[key(p["fen"], None)])
        best_move = str(cache[key(p["fen"], None) + "|best"])
        best_moves[p["fen"]] = (best_move, best_cp)
        if abs(best_cp) > DECIDED:
            left_out += 1
            continue
        for i, choice in enumerate(choices):
            move = choice["moves"].get(p["fen"])
            if move is None:
                continue
            # Both sides of the comparison in Stockfish's own notation (king takes rook).
            cp = best_cp if move == best_move else int(cache[key(p["fen"], move)])
            loss = min(CAP, max(0, best_cp - cp))
            win = _expected(best_cp) - _expected(best_cp - loss)
            rows[i][p["fen"]] = (loss, win)
            phase = ("opening" if p["pieces"] > 24 else
                     "middlegame" if p["pieces"] >= 14 else "endgame")
            phases[i].setdefault(phase, []).append(loss)
    print(f"Stockfish depth {depth}; {len(positions) - left_out} positions scored, "
          f"{left_out} beyond +-{DECIDED} cp left out")
    print(f"{'engine':<28} {'moves':>5} {'ACPL':>6} {'+-':>4} {'exp. loss %':>11} "
          f"{'>=50':>6} {'>=100':>6} {'>=200':>6}  opening/middlegame/endgame ACPL  depth")
    for name, choice, r, ph in zip(names, choices, rows, phases, strict=True):
        losses = [loss for loss, _ in r.values()]
        acpl, margin = _mean_margin(losses)
        exp_loss = 100 * statistics.fmean(w for _, w in r.values())
        by_phase = "/".join(
            f"{statistics.fmean(ph[k]):.0f}" if k in ph else "-"
            for k in ("opening", "middlegame", "endgame"))
        print(f"{name:<28} {len(losses):>5} {acpl:>6.1f} {margin:>4.0f} {exp_loss:>11.2f} "
              f"{sum(x >= 50 for x in losses):>6} {sum(x >= 100 for x in losses):>6} "
              f"{sum(x >= 200 for x in losses):>6}  {by_phase:<30} "
              f"{choice.get('mean_depth', 0):.1f}")
    for name, choice, r in zip(names, choices, rows, strict=True) if worst else ():
        print(f"worst moves of {name}:")
        for fen, (loss, _) in sorted(r.items(), key=lambda item: -item[1][0])[:worst]:
            best, cp = best_moves[fen]
            print(f"  {loss:4d}  {choice['moves'][fen]:6s} best {best:6s} ({cp:+d})  {fen}")
    for name, r in zip(names[1:], rows[1:], strict=True):
        # Paired with the first file on the positions both scored: far steadier than
        # either figure alone.
        common = [fen for fen in r if fen in rows[0]]
        if len(common) > 1:
            d, m = _mean_margin([r[fen][0] - rows[0][fen][0] for fen in common])
            print(f"paired: {name} - {names[0]}: {d:+.1f} +- {m:.1f} cp per move "
                  f"over {len(common)} positions")


def _mean_margin(values: list[int]) -> tuple[float, float]:
    """The mean and its 95 % margin (normal approximation)."""
    return (statistics.fmean(values),
            1.96 * statistics.stdev(values) / math.sqrt(len(values)))


def _expected(cp: float) -> float:
    return 1 / (1 + 10 ** (-cp / 400))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("positions", help="sample positions where our engine was to move")
    p.add_argument("pgn", nargs="+")
    p.add_argument("-o", "--output", required=True, type=Path)
    p.add_argument("--count", type=int, default=400)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--min-ply", type=int, default=0)
    q = sub.add_parser("play", help="our engine's move in each position")
    q.add_argument("positions", type=Path)
    q.add_argument("-o", "--output", required=True, type=Path)
    q.add_argument("--movetime", type=int, default=200)
    q.add_argument("--nodes", type=int, default=0)
    q.add_argument("-j", "--jobs", type=int, default=2)
    r = sub.add_parser("score", help="Stockfish's verdict on the moves of each choice file")
    r.add_argument("positions", type=Path)
    r.add_argument("choices", nargs="+", type=Path)
    r.add_argument("--depth", type=int, default=14)
    r.add_argument("--cache", type=Path)
    r.add_argument("--worst", type=int, default=0, help="list each file's N worst moves")
    r.add_argument("-j", "--jobs", type=int, default=2, help="Stockfish processes")
    args = parser.parse_args()
    if args.command == "positions":
        found = _positions(args.pgn, args.count, args.seed, args.min_ply)
        args.output.write_text(json.dumps(found))
        print(f"{len(found)} positions")
    elif args.command == "play":
        positions = json.loads(args.positions.read_text())
        out = play(positions, args.movetime, args.nodes, args.jobs)
        args.output.write_text(json.dumps(out))
        print(f"{len(out['moves'])} moves, mean depth {out['mean_depth']:.2f}, "
              f"modules: {out['native']}")
    else:
        positions = json.loads(args.positions.read_text())
        choices = [json.loads(c.read_text()) for c in args.choices]
        score(positions, choices, [c.stem for c in args.choices], args.depth, args.cache,
              args.worst, args.jobs)


if __name__ == "__main__":
    main()
