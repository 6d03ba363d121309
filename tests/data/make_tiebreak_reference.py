"""Reference tiebreaks from FIDE's own TieBreakServer, for tests/test_tournament.py.

The FIDE Technical Commission's TieBreakServer (https://github.com/TEC-FIDE/TieBreakServer,
code by Otto Milvang) computes the tiebreaks of the FIDE Tie-Break Regulations from a TRF.
This script is run by hand, never by the tests: it writes random round robins (single and
double, with forfeits, some unfinished) into tests/data/tournament/rr/, then runs
TieBreakServer's ``tiebreakchecker.py`` on those and on the Swiss tournaments in
tests/data/tournament/bbp/ (paired by bbpPairings), and keeps its answers in
tests/data/tournament/tiebreakserver.json.  The tests read only that file.

    python tests/data/make_tiebreak_reference.py /path/to/TieBreakServer
    python tests/data/make_tiebreak_reference.py /path/to/TieBreakServer 2026
    python tests/data/make_tiebreak_reference.py /path/to/TieBreakServer events

Two runs per file: ``PTS BH BH/C1 BH/M1 SB PS WIN WON`` (every value) and ``PTS DE``
(the order Article 6 gives among players tied on points).  With ``2026`` every code carries
TieBreakServer's ``/V2026`` modifier (the regulations of 2 February 2026, Article 16.4's caps
on a dummy opponent), the answers go to tiebreakserver_2026.json, and the round robins
already on disk are read, not rewritten.  That mode is in Otto Milvang's repository
(https://github.com/OttoMilvang/TieBreakServer, version of 21 July 2026, MIT), which
tiebreakserver_2026.json was made with; tiebreakserver.json (the 2023/2024 text) was made
with the TEC-FIDE checkout of 2024.

``events``: the 240 random Swiss events of bbp_reference.jsonl (late entries, withdrawals,
requested byes, forfeits, dead ends), each as bbpPairings paired it with its recorded
results, under both editions (``/V2024`` and ``/V2026``), into
tiebreakserver_events.json: per event the values of ``VALUES`` per player, as one string
each (``"47.5 43 35.5 ..."``, to keep the file small), and the DE ranks.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

from randomchess.tournament import berger
from randomchess.tournament.model import ZERO_BYE, Board, Event, Player, Tournament
from randomchess.tournament.trf import parse_trf, tournament_from_trf, write_trf

DATA = Path(__file__).resolve().parent / "tournament"
VALUES = ["BH", "BH/C1", "BH/M1", "SB", "PS", "WIN", "WON"]


def round_robin(seed: int) -> Tournament:
    rng = random.Random(seed)
    n = rng.randint(5, 10)
    double = rng.random() < 0.4
    rounds = berger.schedule(n, double)
    played = len(rounds) if rng.random() < 0.7 else rng.randint(3, len(rounds) - 1)
    boards: list[Board] = []
    for r, pairs in enumerate(rounds[:played], 1):
        games = [(w, b) for w, b in pairs if w <= n and b <= n]
        for i, (w, b) in enumerate(games, 1):
            res = rng.choices(["1-0", "0-1", "1/2-1/2", "+-", "-+"], [35, 30, 30, 3, 2])[0]
            boards.append(Board(r, i, w, b, res))
        for w, b in pairs:
            if w > n or b > n:
                boards.append(Board(r, len(games) + 1, b if w > n else w, None, bye=ZERO_BYE))
    event = Event(id=f"rr{seed}", name=f"Reference RR {seed}", variant="chess960",
                  system="drr" if double else "rr", rounds=len(rounds), time_control="",
                  tiebreaks=("DE", "SB"), setup_policy="round", mini_match=False,
                  exclude_standard=False, bishops="any", no_repeat=False, commitment="",
                  status="running")
    players = tuple(Player(i, f"Player {i}") for i in range(1, n + 1))
    return Tournament(event, players, tuple(boards))


def rounds_in(trf: Path) -> int:
    """The rounds paired so far (TieBreakServer would count the XXR rounds not yet played)."""
    return tournament_from_trf(parse_trf(trf.read_text(encoding="utf-8"))).paired_rounds


def run(tbs: Path, trf: Path, codes: list[str], swiss: bool) -> dict[int, dict[str, str]]:
    out = subprocess.run(
        [sys.executable, str(tbs / "tiebreakchecker.py"), "-c", "-i", str(trf), "-f", "TRF",
         "-o", "-", "-d", "T", "-s" if swiss else "-p", "-n", str(rounds_in(trf)),
         "-t", "PTS", *codes],
        capture_output=True, text=True).stdout
    lines = out.strip().splitlines()
    if not lines:
        raise SystemExit(f"TieBreakServer gave nothing for {trf} {codes}")
    head = lines[0].split("\t")
    rows = {}
    for line in lines[1:]:
        if "\t" not in line:  # newer versions end with a "Check: ..." line
            continue
        row = dict(zip(head, line.split("\t"), strict=True))
        rows[int(row["StartNo"])] = row
    return rows


def events(tbs: Path) -> None:
    import tempfile

    sys.path.insert(0, str(DATA.parents[1]))
    from test_tournament_bbp_reference import _events, _replay_in_memory

    reference: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for ev in _events():
            played: list[Tournament] = []
            _replay_in_memory(ev, set(), played)
            trf = Path(tmp) / f"e{ev['seed']}.trf"
            trf.write_text(write_trf(played[0]), encoding="utf-8")
            entry: dict[str, object] = {}
            for edition, suffix in (("2023", "/V2024"), ("2026", "/V2026")):
                rows = run(tbs, trf, [c + suffix for c in VALUES], True)
                entry[edition] = {n: " ".join(str(Fraction(row[c + suffix])) for c in VALUES)
                                  for n, row in rows.items()}
            de = run(tbs, trf, ["DE"], True)
            entry["de_rank"] = {n: int(row["Rank"]) for n, row in de.items()}
            reference[str(ev["seed"])] = entry
            print(ev["seed"], end=" ", flush=True)
    (DATA / "tiebreakserver_events.json").write_text(
        json.dumps(reference, sort_keys=True, separators=(",", ":")) + "\n", encoding="utf-8")


def main() -> None:
    tbs = Path(sys.argv[1])
    edition = sys.argv[2] if len(sys.argv) > 2 else "2023"
    if edition == "events":
        events(tbs)
        return
    suffix = "/V2026" if edition == "2026" else ""
    if edition != "2026":
        for seed in range(1, 21):
            (DATA / "rr" / f"rr_{seed:03}.trf").write_text(write_trf(round_robin(seed)),
                                                           encoding="utf-8")
    reference: dict[str, dict[str, object]] = {}
    for sub, swiss in (("bbp", True), ("rr", False)):
        for trf in sorted((DATA / sub).glob("*.trf")):
            values = run(tbs, trf, [c + suffix for c in VALUES], swiss)
            de = run(tbs, trf, ["DE" + suffix], swiss)
            reference[f"{sub}/{trf.name}"] = {
                "values": {n: {c: str(Fraction(row[c + suffix])) for c in VALUES}
                           for n, row in values.items()},
                "de_rank": {n: int(row["Rank"]) for n, row in de.items()},
            }
    name = "tiebreakserver_2026.json" if edition == "2026" else "tiebreakserver.json"
    (DATA / name).write_text(json.dumps(reference, indent=1, sort_keys=True) + "\n",
                             encoding="utf-8")


if __name__ == "__main__":
    main()
