"""Measure the computer levels' ratings with the match runner (issues 11 and 14).

    .venv/bin/python bench/calibrate_levels.py run L4:SF1350:8 L1:L2:6 ... [-c 2] [--pgn-dir D]
    .venv/bin/python bench/calibrate_levels.py fit
    .venv/bin/python bench/calibrate_levels.py markdown     # the table of docs/engine.md

Each ``A:B:N`` plays N more Chess960 games (random arrays, each twice with colours swapped)
between two players of :data:`PLAYERS` and adds the results to
``src/randomchess/analysis/data/level_ratings.json`` after every game, so a run can be stopped and
resumed; a pairing's seed is its names plus the games it already has, so more games use new
arrays.  ``fit`` prints the ratings :mod:`randomchess.analysis.calibration` derives from the
file — the figures the server's level labels show.

The players, at the server's conditions (``Settings.engine_movetime_ms``, 1.5 s a move with no
clock):

* ``L1`` … ``L8``: our engine at ``Skill Level`` N, 1.5 s a move (levels 1-4 stop earlier at
  their depth and node limits);
* ``L9``, ``L10``, ``L11``: the server's external levels — Stockfish with the options
  :data:`randomchess.analysis.levels.EXTERNAL_LEVELS` gives it, 1.5 s a move;
* ``SF1350`` … ``SF2850``: the anchors, Stockfish ``UCI_LimitStrength`` at that ``UCI_Elo``,
  300 ms a move (its strength limit picks among its candidate moves with a skill-dependent
  randomness, which depends much less on time than its search does; the rating scale is
  therefore Stockfish's own ``UCI_Elo``).

Run it from a frozen copy of the engine (``git archive HEAD src | tar -x -C /tmp/calib`` and
``PYTHONPATH=/tmp/calib/src``) so that edits made meanwhile cannot leak into the games; the
commit is recorded with ``--commit``.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
import zlib
from pathlib import Path
from typing import Any

from randomchess.analysis.calibration import PRIOR_DRAWS, load, ratings_from
from randomchess.analysis.levels import EXTERNAL_LEVELS
from randomchess.analysis.match import (
    EngineSpec,
    MatchGame,
    MatchScore,
    TimeControl,
    game_pgn,
    run_match,
)
from randomchess.server.http.settings import Settings

DATA = Path(__file__).resolve().parent.parent / "src/randomchess/analysis/data/level_ratings.json"
VARIANT = "chess960"
SERVER_MS = Settings().engine_movetime_ms
ANCHOR_MS = 300
ANCHORS = (1350, 1500, 1600, 1700, 1800, 2000, 2300, 2600, 2850)


def players() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for level in range(1, 9):
        out[f"L{level}"] = {"level": level, "engine": "self",
                            "options": {"Skill Level": str(level)}, "movetime_ms": SERVER_MS}
    for level, spec in EXTERNAL_LEVELS.items():
        options = {} if spec.elo is None else {"UCI_LimitStrength": "true",
                                                "UCI_Elo": str(spec.elo)}
        out[f"L{level}"] = {"level": level, "engine": "stockfish", "options": options,
                            "movetime_ms": SERVER_MS}
    for elo in ANCHORS:
        out[f"SF{elo}"] = {"anchor": elo, "engine": "stockfish",
                           "options": {"UCI_LimitStrength": "true", "UCI_Elo": str(elo)},
                           "movetime_ms": ANCHOR_MS}
    return out


PLAYERS = players()


def read() -> dict[str, Any]:
    if DATA.exists():
        data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
        return data
    if not DATA.parent.exists():
        sys.exit(f"no such folder: {DATA.parent}")
    return {"conditions": {}, "prior_draws": PRIOR_DRAWS, "players": {}, "pairings": []}


def write(data: dict[str, Any]) -> None:
    tmp = DATA.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    tmp.replace(DATA)


def spec(name: str) -> EngineSpec:
    p = PLAYERS[name]
    s = EngineSpec.parse(p["engine"], dict(p["options"]))
    s.name = name
    s.movetime_ms = int(p["movetime_ms"])
    return s


def tally(data: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    for p in data["pairings"]:
        if {p["a"], p["b"]} == {a, b}:
            return dict(p)
    return {"a": a, "b": b, "wins": 0, "draws": 0, "losses": 0}


def run(args: argparse.Namespace) -> None:
    data = read()
    data["conditions"] = {
        "variant": VARIANT, "level_movetime_ms": SERVER_MS, "anchor_movetime_ms": ANCHOR_MS,
        "anchor_engine": "Stockfish 15.1 (Debian), UCI_LimitStrength + UCI_Elo",
        "engine_commit": args.commit or data["conditions"].get("engine_commit", ""),
        "date": time.strftime("%Y-%m-%d"),
        "command": "bench/calibrate_levels.py run A:B:N ... (see docs/engine.md)",
    }
    data["prior_draws"] = PRIOR_DRAWS
    lock = threading.Lock()
    for item in args.pairings:
        a, b, n = item.split(":")
        for name in (a, b):
            if name not in PLAYERS:
                sys.exit(f"unknown player {name}: one of {', '.join(PLAYERS)}")
            data["players"][name] = PLAYERS[name]
        have = tally(data, a, b)
        flip = have["a"] != a  # stored the other way round
        played = have["wins"] + have["draws"] + have["losses"]
        seed = zlib.crc32(f"{min(a, b)}:{max(a, b)}:{played}{args.salt}".encode())
        pgn = Path(args.pgn_dir) / f"{a}-{b}-{seed}.pgn" if args.pgn_dir else None
        print(f"{a} vs {b}: {n} games (seed {seed})", flush=True)

        def on_game(rec: MatchGame, score: MatchScore, a: str = a, b: str = b,
                    flip: bool = flip, pgn: Path | None = pgn) -> None:
            with lock:
                cur = tally(data, a, b)
                won = rec.result == ("1-0" if rec.white == a else "0-1")
                key = "draws" if rec.result == "1/2-1/2" else (
                    ("wins" if won else "losses") if not flip else ("losses" if won else "wins"))
                cur[key] += 1
                data["pairings"] = [p for p in data["pairings"] if {p["a"], p["b"]} != {a, b}]
                data["pairings"].append(cur)
                write(data)
                print(f"  {rec.white}-{rec.black} {rec.result} ({rec.termination}, "
                      f"{len(rec.moves)} plies)  {a}: {score}", flush=True)
                if pgn is not None:
                    with pgn.open("a", encoding="utf-8") as fh:
                        fh.write(game_pgn(rec, f"{a} vs {b}", str(score.games), "-"))

        run_match(spec(a), spec(b), VARIANT, int(n), TimeControl(0, 0, SERVER_MS), seed,
                  args.concurrency, None, on_game, args.max_plies)
    show(data)


def show(data: dict[str, Any]) -> None:
    pairings, _anchors, _levels = load(data)
    for p in pairings:
        print(f"  {p.a:>7} - {p.b:<7} +{p.wins} ={p.draws} -{p.losses}")
    try:
        ratings = ratings_from(data)
    except ValueError as exc:
        print(f"no ratings yet: {exc}")
        return
    for level, r in sorted(ratings.items()):
        print(f"level {level:>2}: {r.rating} ± {r.margin} ({r.games} games)")


def markdown(data: dict[str, Any]) -> None:
    """The docs' table (docs/engine.md, "Level ratings"): each level's rating and its games."""
    pairings, _anchors, levels = load(data)
    ratings = ratings_from(data)
    name_of = {level: name for name, level in levels.items()}
    print("| level | played by | rating (95 %) | games | its pairings (its wins, draws, losses) |")
    print("|---|---|---|---|---|")
    for level, r in sorted(ratings.items()):
        name = name_of[level]
        p = PLAYERS[name]
        who = "randomchess" if p["engine"] == "self" else (
            "Stockfish " + (f"UCI_Elo {p['options']['UCI_Elo']}" if p["options"] else "full"))
        games = []
        for q in pairings:
            if name in (q.a, q.b):
                w, d, lo = (q.wins, q.draws, q.losses) if q.a == name else (
                    q.losses, q.draws, q.wins)
                games.append(f"{q.b if q.a == name else q.a} +{w} ={d} -{lo}")
        print(f"| {level} | {who} | **{r.rating} ± {r.margin}** | {r.games} | "
              f"{'; '.join(games)} |")


def main() -> None:
    global DATA
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("pairings", nargs="+", help="A:B:N")
    r.add_argument("-c", "--concurrency", type=int, default=1)
    r.add_argument("--pgn-dir")
    r.add_argument("--commit")
    r.add_argument("--max-plies", type=int, default=300)
    r.add_argument("--salt", default="", help="added to the seeds: new arrays for a pairing "
                   "whose games are kept in another file")
    f = sub.add_parser("fit")
    m = sub.add_parser("markdown")
    for p in (r, f, m):
        p.add_argument("--data", type=Path, default=DATA, help="the tallies' JSON file")
    args = ap.parse_args()
    DATA = args.data
    if args.cmd == "run":
        run(args)
    elif args.cmd == "markdown":
        markdown(read())
    else:
        show(read())


if __name__ == "__main__":
    main()
