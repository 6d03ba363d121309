"""Issue 15's done-when tests through ``randomchess tournament``: a 9-player, 5-round Swiss
checked round by round against bbpPairings' reference pairing, and a 6-player round robin
against the FIDE Berger table; setups re-derived from the revealed salt with the
independent sketch of docs/shuffler.md; standings and tiebreaks against values computed
here independently from the reference file; TRF and PGN exports read back; an
acknowledged result survives ``kill -9``."""

from __future__ import annotations

import csv
import io
import os
import random
import re
import shlex
import signal
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from randomchess.cli import main
from randomchess.pgn import read_games
from randomchess.tournament import TournamentStore
from randomchess.tournament.trf import parse_trf

DATA = Path(__file__).resolve().parent / "data" / "tournament"
DOCS = Path(__file__).resolve().parents[1] / "docs" / "shuffler.md"
BERGER_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]


def _sketch() -> dict[str, Any]:
    blocks = re.findall(r"```python\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    scope: dict[str, Any] = {}
    exec(compile(blocks[0], str(DOCS), "exec"), scope)
    return scope


class Cli:
    def __init__(self, db: str) -> None:
        self.db = db
        self.runner = CliRunner()

    def __call__(self, *args: str, ok: bool = True) -> str:
        result = self.runner.invoke(main, ["tournament", "--db", self.db, *args])
        if ok:
            assert result.exit_code == 0, (args, result.output, result.exception)
        else:
            assert result.exit_code != 0, (args, result.output)
        return result.output


def _white_result(white: str, black: str) -> str:
    if white == "-" and black == "-":
        return "--"
    return {"1": "1-0", "0": "0-1", "=": "1/2", "+": "+-", "-": "-+"}[white]


def _independent_scores(text: str) -> dict[str, dict[int, Fraction]]:
    """Points, BH, BH-C1, SB, PS and WIN computed straight from a TRF's round cells by the
    rules docs/tournaments.md states for the 2026 regulations (own unplayed round = dummy
    with own score, at most the scheduled opponent's adjusted score after a forfeit and at
    most half the rounds after a bye or absence; an opponent's rounds without an opponent
    after his last round available to play count as draws; voluntarily unplayed rounds cut
    first)."""
    rows: dict[int, list[tuple[int, str, str]]] = {}
    for line in text.splitlines():
        if line.startswith("001"):
            slots = [line[i:i + 8] for i in range(91, len(line), 10)]
            rows[int(line[4:8])] = [(int(c[:4]), c[5], c[7]) for c in slots]
    value = {"1": 1, "+": 1, "U": 1, "F": 1, "=": Fraction(1, 2), "H": Fraction(1, 2)}
    pts = {n: sum((Fraction(value.get(r, 0)) for _, _, r in cells), Fraction(0))
           for n, cells in rows.items()}
    adjusted = {}
    for n, cells in rows.items():
        available = [i for i, (_, _, r) in enumerate(cells) if r not in "HZ-"]
        last = available[-1] if available else -1
        adjusted[n] = sum((Fraction(value.get(r, 0)) if i <= last or o != 0 else Fraction(1, 2)
                           for i, (o, _, r) in enumerate(cells)), Fraction(0))
    out: dict[str, dict[int, Fraction]] = {k: {} for k in ("PTS", "BH", "BH-C1", "SB", "PS",
                                                            "WIN")}
    for n, cells in rows.items():
        contrib = []
        for opp, _, r in cells:
            played = opp != 0 and r in "10="
            dummy = min(pts[n], adjusted[opp] if opp else Fraction(len(cells), 2))
            contrib.append((adjusted[opp] if played else dummy, r in "HZ-",
                            Fraction(value.get(r, 0))))
        out["PTS"][n] = pts[n]
        out["BH"][n] = sum((v for v, _, _ in contrib), Fraction(0))
        voluntary = [v for v, u, _ in contrib if u]
        cut = min(voluntary) if voluntary else min(v for v, _, _ in contrib)
        out["BH-C1"][n] = out["BH"][n] - cut
        out["SB"][n] = sum((v * s for v, _, s in contrib), Fraction(0))
        running, ps = Fraction(0), Fraction(0)
        for _, _, s in contrib:
            running += s
            ps += running
        out["PS"][n] = ps
        out["WIN"][n] = Fraction(sum(1 for _, _, s in contrib if s == 1))
    return out


def _standings_numbers(output: str) -> dict[int, list[str]]:
    rows = {}
    for line in output.splitlines():
        cells = [c.strip() for c in line.strip("│ ").split("│")]
        if len(cells) >= 6 and cells[1].isdigit():
            rows[int(cells[1])] = cells
    return rows


def _f(text: str) -> Fraction:
    return Fraction(text)


def test_nine_player_swiss_through_the_cli_matches_the_reference(tmp_path: Path) -> None:
    reference = (DATA / "swiss9_reference.trf").read_text(encoding="utf-8")
    ref = parse_trf(reference)
    cli = Cli(f"sqlite:///{tmp_path / 'arbiter.sqlite3'}")
    out = cli("new", "Nine Open 2026", "--rounds", "5", "--exclude-standard",
              "--tiebreaks", "BH-C1,BH,SB,PS,WIN")
    published = re.search(r"commitment: ([0-9a-f]{64})", out)
    assert published is not None
    event = "Nine Open 2026"
    cli("add-player", event, "Late Comer", "--rating", "1000")
    cli("withdraw", event, "1")  # before the start: the registration is cancelled
    for p in reversed(ref.players):  # registration order does not decide the numbers
        cli("add-player", event, p.name, "--rating", str(p.rating))
    cli("pair", event, ok=False)  # registration still open
    cli("start", event)
    by_number = {p.number: p for p in ref.players}
    store = TournamentStore(f"sqlite:///{tmp_path / 'arbiter.sqlite3'}")
    eid = store.resolve(event)
    for rnd in range(1, 6):
        out = cli("pair", event)
        assert f"Round {rnd} paired" in out
        t = store.load(eid)
        got = {(b.white, b.black) for b in t.round_boards(rnd)}
        expected = set()
        for p in ref.players:
            opp, colour, code = p.rounds[rnd - 1]
            if opp is None:
                expected.add((p.number, None))
            elif colour == "w":
                expected.add((p.number, opp))
        assert got == expected, f"round {rnd}"
        setups = {b.setup for b in t.round_boards(rnd) if not b.is_bye}
        assert len(setups) == 1 and 518 not in setups  # one per round, SP 518 excluded
        cli("pair", event, ok=False)  # a round is never paired twice / with results missing
        for b in t.round_boards(rnd):
            if b.black is None:
                cli("result", event, str(rnd), str(b.board), "1-0", ok=False)  # a bye
                continue
            white = by_number[b.white].rounds[rnd - 1][2]
            black = by_number[b.black].rounds[rnd - 1][2]
            cli("result", event, str(rnd), str(b.board), _white_result(white, black))
    # A correction needs a reason and is logged; the final result is the reference's again.
    cli("correct", event, "1", "1", "0-1", ok=False)
    cli("correct", event, "1", "1", "0-1", "--reason", "wrong scoresheet")
    cli("correct", event, "1", "1", "1/2", "--reason", "scoresheet found")
    assert [e.action for e in store.load(eid).log][-2:] == ["correct", "correct"]
    log = cli("--lang", "es", "show", event, "--round", "1", "--log")
    assert "Registro del árbitro" in log and "wrong scoresheet" in log

    standings = cli("standings", event, "--explain", "all")
    independent = _independent_scores(reference)
    rows = _standings_numbers(standings)
    assert len(rows) == 9
    for n, cells in rows.items():
        assert _f(cells[4]) == independent["PTS"][n] == ref.players[n - 1].points
        for i, code in enumerate(("BH-C1", "BH", "SB", "PS", "WIN")):
            assert _f(cells[5 + i]) == independent[code][n], (n, code)
    assert "own score" in standings  # the arithmetic of unplayed rounds is shown
    ranks = [int(c[0].rstrip("=")) for c in rows.values()]
    assert sorted(ranks)[0] == 1

    out = cli("close", event)
    salt = out.strip().splitlines()[-1]
    assert re.fullmatch(r"[0-9a-f]{64}", salt)
    out = cli("verify", event)
    assert "verified" in out and "randomchess draw verify" in out
    # Anyone re-derives every round's setup with the documented sketch.
    doc = _sketch()
    salt_bytes = bytes.fromhex(salt)
    assert doc["commitment"](salt_bytes, event) == published[1]
    numbers, tag = doc["pool"]("chess960", "any", (518,))
    t = store.load(eid)
    for rnd in range(1, 6):
        expected_setup = doc["round_number"](salt_bytes, event, rnd, 0, numbers, tag)
        assert {b.setup for b in t.round_boards(rnd) if not b.is_bye} == {expected_setup}
    # ... and the shuffler's own verify command, printed by tournament verify, agrees.
    command = next(line.strip() for line in out.splitlines() if "draw verify" in line)
    draw = CliRunner().invoke(main, shlex.split(command)[1:])
    assert draw.exit_code == 0, draw.output
    assert [int(line.split()[2]) for line in draw.stdout.splitlines()] == [
        next(b.setup for b in t.round_boards(r) if not b.is_bye) for r in range(1, 6)]

    trf_text = cli("export", event, "--format", "trf")
    back = parse_trf(trf_text)
    assert [p.rounds for p in back.players] == [p.rounds for p in ref.players]
    assert [p.points for p in back.players] == [p.points for p in ref.players]
    assert back.comment("salt") == salt and back.comment("commitment") == published[1]
    trf_path = tmp_path / "nine.trf"
    trf_path.write_text(trf_text, encoding="utf-8")
    assert "verified" in cli("verify", "--trf", str(trf_path))
    tampered = tmp_path / "tampered.trf"
    first_setup = next(b.setup for b in t.round_boards(1) if not b.is_bye)
    tampered.write_text(trf_text.replace(f"round=1 board=0 number={first_setup} ",
                                         f"round=1 board=0 number={first_setup + 1} "),
                        encoding="utf-8")
    cli("verify", "--trf", str(tampered), ok=False)

    pgn_text = cli("export", event, "--format", "pgn")
    games = list(read_games(io.StringIO(pgn_text)))
    played = [b for b in t.iter_games() if b.result in ("1-0", "0-1", "1/2-1/2")]
    assert len(games) == len(played) > 0
    for g, b in zip(games, played, strict=True):
        assert g.error is None
        assert g.headers["Round"] == str(b.round) and g.headers["Board"] == str(b.board)
        assert g.headers["SetupNumber"] == str(b.setup)
        assert g.headers["FEN"] == b.fen and g.headers["Result"] == b.result
        assert g.headers["White"] == by_number[b.white].name

    table = list(csv.reader(io.StringIO(cli("export", event, "--format", "csv"))))
    assert len(table) == 11 and table[0][:3] == ["Rank", "No.", "Name"]
    assert table[-1] == ["Tiebreaks: FIDE Play-Off and Tie-Break Regulations, in force from "
                         "1 March 2026"]
    html_es = cli("--lang", "es", "export", event, "--format", "html")
    assert "Cuadro de cruces" in html_es and salt in html_es


def test_six_player_round_robin_through_the_cli(tmp_path: Path) -> None:
    cli = Cli(f"sqlite:///{tmp_path / 'rr.sqlite3'}")
    event = "Berger Six"
    cli("new", event, "--system", "rr", "--variant", "mrc", "--setups", "board",
        "--tiebreaks", "DE,SB,WIN")
    cli("new", "Bad", "--system", "rr", "--rounds", "3", ok=False)
    for i in range(6):
        cli("add-player", event, f"Player {i + 1}", "--rating", str(2400 - 50 * i))
    cli("start", event)
    store = TournamentStore(f"sqlite:///{tmp_path / 'rr.sqlite3'}")
    eid = store.resolve(event)
    rng = random.Random(15)
    results: dict[tuple[int, int], str] = {}
    for rnd in range(1, 6):
        cli("pair", event)
        t = store.load(eid)
        assert [(b.white, b.black) for b in t.round_boards(rnd)] == BERGER_6[rnd - 1]
        assert len({b.setup for b in t.round_boards(rnd)}) == 3  # one per board
        for b in t.round_boards(rnd):
            assert b.black is not None
            res = rng.choice(["1-0", "0-1", "1/2"])
            results[(b.white, b.black)] = res
            cli("result", event, str(rnd), str(b.board), res)
    cli("pair", event, ok=False)  # all rounds paired
    sheet = cli("--lang", "es", "show", event, "--round", "2", "--format", "html")
    t = store.load(eid)
    assert sheet.count("<svg") == 3  # one card per board, diagrams from diagram.py
    for b in t.round_boards(2):
        assert f"Modern Random Chess {b.setup}" in sheet or f"MRC {b.setup}" in sheet
    assert "Emparejamientos de la ronda 2" in sheet
    # Independent standings: points, direct encounter among the tied, SB, wins.
    score = {n: Fraction(0) for n in range(1, 7)}
    got: dict[int, dict[int, Fraction]] = {n: {} for n in range(1, 7)}
    for (w, b), res in results.items():
        sw = {"1-0": Fraction(1), "0-1": Fraction(0), "1/2": Fraction(1, 2)}[res]
        got[w][b], got[b][w] = sw, 1 - sw
        score[w] += sw
        score[b] += 1 - sw
    sb = {n: sum((score[o] * s for o, s in got[n].items()), Fraction(0)) for n in score}
    wins = {n: sum(1 for s in got[n].values() if s == 1) for n in score}
    rows = _standings_numbers(cli("standings", event))
    for n, cells in rows.items():
        assert _f(cells[4]) == score[n]
        assert _f(cells[6]) == sb[n] and int(cells[7]) == wins[n]
        tied = [m for m in score if score[m] == score[n]]
        if len(tied) > 1:
            assert _f(cells[5]) == sum((got[n][m] for m in tied if m != n), Fraction(0))
        else:
            assert cells[5] == "-"
    first = min(rows.values(), key=lambda c: int(c[0].rstrip("=")))
    assert score[int(first[1])] == max(score.values())
    out = cli("close", event)
    salt = bytes.fromhex(out.strip().splitlines()[-1])
    assert "verified" in cli("verify", event)
    doc = _sketch()
    numbers, tag = doc["pool"]("mrc")
    t = store.load(eid)
    for b in t.boards:
        assert b.setup == doc["round_number"](salt, event, b.round, b.board, numbers, tag)
    back = parse_trf(cli("export", event, "--format", "trf"))
    assert len(back.players) == 6 and all(len(p.rounds) == 5 for p in back.players)
    setups = back.setups()
    assert all(setups[(b.round, b.board)][0] == b.setup for b in t.boards)
    games = list(read_games(io.StringIO(cli("export", event, "--format", "pgn"))))
    assert len(games) == 15
    assert all(g.headers["Variant"] and g.headers["MRCId"] == g.headers["SetupNumber"]
               for g in games)


def test_an_acknowledged_result_survives_kill_9(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'crash.sqlite3'}"
    store = TournamentStore(db)
    store.migrate()
    eid = store.create("Crash Open", rounds=1).event.id
    store.add_player(eid, "Ann", 2000)
    store.add_player(eid, "Bob", 1900)
    store.start(eid)
    store.pair(eid)
    store.dispose()
    code = (
        "import sys, time\n"
        "from randomchess.tournament import TournamentStore\n"
        f"s = TournamentStore({db!r})\n"
        f"s.set_result({eid!r}, 1, 1, '0-1')\n"
        "print('acknowledged', flush=True)\n"
        "time.sleep(60)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "acknowledged"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    again = TournamentStore(db)
    assert again.load(eid).board(1, 1).result == "0-1"
    again.dispose()
