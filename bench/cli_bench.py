#!/usr/bin/env python3
"""CPU per call of the arbiter's commands (issue 29): ``randomchess tournament pair``,
``result`` and ``standings`` run as the arbiter runs them, one process per command, on the
default database (an SQLite file in the user's data directory, here a temporary one).

A 9-player Swiss event of --rounds rounds is played with random results; every command is a
fresh ``python -m randomchess`` process, and its CPU time (user + system, from the
children's resource usage) is recorded by command.  The figures printed are CPU seconds per
call: mean, minimum and maximum.  CPU, not wall time, so a busy machine skews it less.
Byte-code is cached as in an installed package (``PYTHONDONTWRITEBYTECODE`` is dropped for
the commands; the first call writes the ``__pycache__`` folders).  ``--src`` runs another
checkout's sources, for a before/after comparison (``git archive COMMIT src | tar -x -C
DIR``).

Usage: python bench/cli_bench.py [--rounds 3] [--seed 29] [--src DIR/src]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path


def cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--players", type=int, default=9)
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--src", type=Path, default=Path(__file__).resolve().parents[1] / "src",
                    help="the randomchess sources to run (default: this checkout's)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    times: dict[str, list[float]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_DATA_HOME=tmp, COLUMNS="120")
        env.pop("RANDOMCHESS_DB_URL", None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPATH"] = os.pathsep.join([str(args.src.resolve()),
                                             env.get("PYTHONPATH", "")])
        subprocess.run([sys.executable, "-m", "randomchess", "--help"], env=env,
                       capture_output=True, check=True)  # byte-code cached, not counted

        def run(kind: str, *words: str) -> str:
            before = cpu_children()
            done = subprocess.run([sys.executable, "-m", "randomchess", "tournament", *words],
                                  env=env, capture_output=True, text=True, check=False)
            times[kind].append(cpu_children() - before)
            if done.returncode != 0:
                sys.exit(f"{' '.join(words)} failed: {done.stderr}")
            return done.stdout

        run("new", "new", "Bench", "--rounds", str(args.rounds))
        for i in range(args.players):
            run("add-player", "add-player", "Bench", f"Player {i + 1}", "--rating",
                str(2000 - 10 * i))
        run("start", "start", "Bench")
        for rnd in range(1, args.rounds + 1):
            out = run("pair", "pair", "Bench")
            boards = sum(1 for line in out.splitlines()
                         if line.startswith("│") and "bye" not in line)
            for b in range(1, boards + 1):
                run("result", "result", "Bench", str(rnd), str(b),
                    rng.choice(["1-0", "0-1", "1/2"]))
            run("standings", "standings", "Bench")
    print(f"CPU seconds per call (python {sys.version.split()[0]}, "
          f"{args.players} players, {args.rounds} rounds)")
    print(f"{'command':<12} {'calls':>5} {'mean':>7} {'min':>7} {'max':>7}")
    for kind, ts in times.items():
        print(f"{kind:<12} {len(ts):>5} {statistics.mean(ts):>7.3f} {min(ts):>7.3f} "
              f"{max(ts):>7.3f}")


if __name__ == "__main__":
    main()
