"""Random Swiss events driven through ``TournamentStore`` round by round, every round
compared with bbpPairings ``--dutch`` on the event's own TRF (issue 29).  Run by hand, never
by the tests (it needs a bbpPairings binary, built from its public sources):

    PYTHONPATH=src python tests/data/check_against_bbppairings.py /path/to/bbpPairings.exe \
        FIRST_SEED LAST_SEED [MIN_PLAYERS MAX_PLAYERS]

Each event: 7-24 players (or the range given), 4-8 rounds; before each round from the
second, late entries (35 % of rounds), a withdrawal (20 %), requested H/Z/F byes (6 % of
players); results 38 % 1-0, 32 % 0-1, 24 % draws, 6 % forfeits.  The round to pair gets its
requested byes and absences as round cells for bbpPairings.  A round compares pairs,
colours and board order, and a refusal where bbpPairings answers "No valid pairing exists";
an event stops at its first refused round.
"""

from __future__ import annotations

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


def event(binary: str, seed: int, folder: str, sizes: tuple[int, int]) -> list[tuple[
        int, Pairs | None, Pairs | None]]:
    rng = random.Random(seed)
    s = TournamentStore(f"sqlite:///{os.path.join(folder, f'e{seed}.sqlite3')}")
    s.migrate()
    rounds = rng.randint(4, 8)
    eid = s.create(f"E{seed}", rounds=rounds).event.id
    for i in range(rng.randint(*sizes)):
        s.add_player(eid, f"P{i}", rng.randint(1000, 2600))
    s.start(eid)
    out: list[tuple[int, Pairs | None, Pairs | None]] = []
    for rnd in range(1, rounds + 1):
        if rnd > 1 and rng.random() < 0.35:
            for k in range(rng.randint(1, 2)):
                s.add_player(eid, f"L{rnd}.{k}", rng.randint(1000, 2600))
        if rnd > 1 and rng.random() < 0.2:
            t = s.load(eid)
            s.withdraw(eid, rng.choice([p.number for p in t.players if t.active_in(p, rnd)]))
        t = s.load(eid)
        for p in t.players:
            if t.active_in(p, rnd) and rng.random() < 0.06:
                s.request_bye(eid, p.number, rnd, rng.choice("HHZF"))
        expected = bbp(binary, s.load(eid), rnd)
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
    s.dispose()
    return out


def main() -> None:
    logging.disable(logging.WARNING)  # the pairing library's dead-end warnings
    binary, first, last = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    sizes = (int(sys.argv[4]), int(sys.argv[5])) if len(sys.argv) > 5 else (7, 24)
    total = same = refusals = 0
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(first, last + 1):
            for rnd, expected, got in event(binary, seed, folder, sizes):
                total += 1
                refusals += expected is None
                if expected == got:
                    same += 1
                else:
                    print(f"event {seed} round {rnd}: bbpPairings {expected}, ours {got}")
    print(f"{same}/{total} rounds identical (pairs, colours, board order); "
          f"{refusals} refused by bbpPairings")


if __name__ == "__main__":
    main()
