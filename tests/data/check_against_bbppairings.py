"""Random Swiss events driven through ``TournamentStore`` round by round, every round
compared with bbpPairings ``--dutch`` on the event's own TRF (issue 29).  Run by hand, never
by the tests (it needs a bbpPairings binary, built from its public sources):

    PYTHONPATH=src python tests/data/check_against_bbppairings.py /path/to/bbpPairings.exe \
        FIRST_SEED LAST_SEED [MIN_PLAYERS MAX_PLAYERS] [--record FILE.jsonl]

``--record`` appends every event, as played, to FILE.jsonl: the reference data that
tests/test_tournament_bbp_reference.py replays without bbpPairings (an event whose rounds
are not all identical is not recorded).  One JSON object per line:
``{"seed", "rounds", "players": [[name, rating], ...] in registration order,
"steps": [{"late": [[name, rating], ...], "wd": number or null, "byes": [[number, kind],
...], "bbp": [white, black, ..., white, 0 (bye)] or null (refused), "res": one letter per
game in board order}, ...]}``; the letters: ``w`` 1-0, ``b`` 0-1, ``d`` 1/2, ``+`` +-,
``-`` -+, ``=`` --.  tests/data/tournament/bbp_reference.jsonl was made with seeds 1-180
(7-24 players) and 1001-1060 (4-8 players, where dead ends are frequent).

Each event: 7-24 players (or the range given), 4-8 rounds; before each round from the
second, late entries (35 % of rounds), a withdrawal (20 %), requested H/Z/F byes (6 % of
players); results 38 % 1-0, 32 % 0-1, 24 % draws, 6 % forfeits.  The round to pair gets its
requested byes and absences as round cells for bbpPairings.  A round compares pairs,
colours and board order, and a refusal where bbpPairings answers "No valid pairing exists";
an event stops at its first refused round.
"""

from __future__ import annotations

import json
import logging
import os
import random
import subprocess
import sys
import tempfile

from randomchess.tournament import PairingError, Tournament, TournamentStore
from randomchess.tournament.trf import write_trf

Pairs = list[tuple[int, int | None]]


def bbp(binary: str, t: Tournament, rnd: int) -> Pairs | None:
    """bbpPairings' round ``rnd`` in its published order (the bye last); None: refused."""
    requested = {n: k for (r, n), k in t.byes.items() if r == rnd}
    lines = []
    for line in write_trf(t, upto=rnd - 1, for_pairing=True).splitlines():
        if line.startswith("001"):
            n = int(line[4:8])
            if n in requested:
                line += f"  0000 - {requested[n]}"
            elif not t.active_in(t.player(n), rnd):
                line += "  0000 - Z"
        lines.append(line)
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "in.trf"), os.path.join(d, "out.txt")
        with open(src, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        run = subprocess.run([binary, "--dutch", src, "-p", out], capture_output=True,
                             text=True, check=False)
        if run.returncode != 0:
            return None
        with open(out, encoding="utf-8") as f:
            v = [int(x) for x in f.read().split()]
    return [(v[1 + 2 * i], v[2 + 2 * i] or None) for i in range(v[0])]


LETTERS = {"1-0": "w", "0-1": "b", "1/2": "d", "+-": "+", "-+": "-", "--": "="}


def event(binary: str, seed: int, folder: str, sizes: tuple[int, int],
          record: dict[str, object] | None = None) -> list[tuple[
        int, Pairs | None, Pairs | None]]:
    rng = random.Random(seed)
    s = TournamentStore(f"sqlite:///{os.path.join(folder, f'e{seed}.sqlite3')}")
    s.migrate()
    rounds = rng.randint(4, 8)
    eid = s.create(f"E{seed}", rounds=rounds).event.id
    registered = []
    for i in range(rng.randint(*sizes)):
        registered.append((f"P{i}", rng.randint(1000, 2600)))
        s.add_player(eid, *registered[-1])
    s.start(eid)
    steps: list[dict[str, object]] = []
    if record is not None:
        record.update(seed=seed, rounds=rounds, players=registered, steps=steps)
    out: list[tuple[int, Pairs | None, Pairs | None]] = []
    for rnd in range(1, rounds + 1):
        step: dict[str, object] = {"late": [], "wd": None, "byes": []}
        steps.append(step)
        if rnd > 1 and rng.random() < 0.35:
            for k in range(rng.randint(1, 2)):
                late = (f"L{rnd}.{k}", rng.randint(1000, 2600))
                s.add_player(eid, *late)
                step["late"].append(late)  # type: ignore[attr-defined]
        if rnd > 1 and rng.random() < 0.2:
            t = s.load(eid)
            step["wd"] = rng.choice([p.number for p in t.players if t.active_in(p, rnd)])
            s.withdraw(eid, step["wd"])  # type: ignore[arg-type]
        t = s.load(eid)
        for p in t.players:
            if t.active_in(p, rnd) and rng.random() < 0.06:
                kind = rng.choice("HHZF")
                s.request_bye(eid, p.number, rnd, kind)
                step["byes"].append((p.number, kind))  # type: ignore[attr-defined]
        expected = bbp(binary, s.load(eid), rnd)
        step["bbp"] = None if expected is None else [x or 0 for pair in expected
                                                      for x in pair]
        step["res"] = ""
        try:
            s.pair(eid)
        except PairingError:
            out.append((rnd, expected, None))
            break
        boards = s.load(eid).round_boards(rnd)
        out.append((rnd, expected, [(b.white, b.black) for b in boards if b.bye in (None, "U")]))
        for b in boards:
            if not b.is_bye:
                x = rng.random()
                result = ("1-0" if x < .38 else "0-1" if x < .70 else "1/2" if x < .94
                          else rng.choice(["+-", "-+", "--"]))
                s.set_result(eid, rnd, b.board, result)
                step["res"] += LETTERS[result]  # type: ignore[operator]
    s.dispose()
    return out


def main() -> None:
    logging.disable(logging.WARNING)  # the pairing library's dead-end warnings
    args = sys.argv[1:]
    target = None
    if "--record" in args:
        i = args.index("--record")
        target = args[i + 1]
        del args[i:i + 2]
    binary, first, last = args[0], int(args[1]), int(args[2])
    sizes = (int(args[3]), int(args[4])) if len(args) > 4 else (7, 24)
    total = same = refusals = 0
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(first, last + 1):
            record: dict[str, object] = {}
            rounds = event(binary, seed, folder, sizes, record)
            for rnd, expected, got in rounds:
                total += 1
                refusals += expected is None
                if expected == got:
                    same += 1
                else:
                    print(f"event {seed} round {rnd}: bbpPairings {expected}, ours {got}")
            if target is not None and all(e == g for _, e, g in rounds):
                with open(target, "a", encoding="utf-8") as f:
                    f.write(json.dumps(record, separators=(",", ":")) + "\n")
    print(f"{same}/{total} rounds identical (pairs, colours, board order); "
          f"{refusals} refused by bbpPairings")


if __name__ == "__main__":
    main()
