"""Issue 34's knock-out through ``randomchess tournament``: an 8-player bracket of 2-game
matches with a tie-break stage and a bidding Armageddon to the final; the bracket checked
after every step, every game's setup re-derived from the revealed salt with the independent
sketch of docs/shuffler.md, the PGN read back; bad input refused and nothing changed;
results and bids survive ``kill -9``."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from randomchess.cli import main
from randomchess.pgn import read_games
from randomchess.tournament import TournamentStore
from randomchess.tournament.knockout_store import KnockoutEvent, KnockoutStore

DOCS = Path(__file__).resolve().parents[1] / "docs"
NAME = "Freestyle KO 2026"
PLAYERS = [("Ann", 2700), ("Bob", 2650), ("Cid", 2600), ("Dan", 2550), ("Eva", 2500),
           ("Fay", 2450), ("Gus", 2400), ("Hal", 2350)]  # seeds 1..8 by rating


def _sketch() -> dict[str, Any]:
    text = (DOCS / "shuffler.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    scope: dict[str, Any] = {}
    exec(compile(blocks[0], "shuffler.md", "exec"), scope)
    return scope


class Cli:
    def __init__(self, db: str) -> None:
        self.db = db
        self.runner = CliRunner()

    def __call__(self, *args: str, ok: bool = True, lang: str = "en") -> str:
        result = self.runner.invoke(main, ["tournament", "--db", self.db, "--lang", lang,
                                           *args])
        if ok:
            assert result.exit_code == 0, (args, result.output, result.exception)
        else:
            assert result.exit_code != 0, (args, result.output)
        return result.output


def _ko(db: str) -> KnockoutEvent:
    store = TournamentStore(db)
    try:
        return KnockoutStore(store).load(store.resolve(NAME))
    finally:
        store.dispose()


def _play(cli: Cli, rnd: int, match: int, results: list[str]) -> None:
    """Enter the next games of a match, in order, from the first game without a result."""
    ko = _ko(cli.db)
    first = len([g for g in ko.bracket.match(rnd, match).games if g.result is not None]) + 1
    for game, result in enumerate(results, first):
        cli("game-result", NAME, str(rnd), str(match), str(game), result)


def _setup_bracket(tmp_path: Path) -> Cli:
    cli = Cli(f"sqlite:///{tmp_path / 'ko.sqlite3'}")
    out = cli("new", NAME, "--format", "knockout", "--games", "2", "--tiebreak", "2:600+5",
              "--armageddon", "bid:300+2", "--time-control", "900+10")
    assert "format=knockout" in out and "setup(R, 100*M+U)" in out
    for name, rating in reversed(PLAYERS):  # entered weakest first: seeding by rating
        cli("add-player", NAME, name, "--rating", str(rating))
    out = cli("start", NAME)
    assert re.search(r"1\s+│ Ann", out) and re.search(r"8\s+│ Hal", out)
    return cli


def _quarter_finals(cli: Cli) -> None:
    out = cli("pair", NAME)
    assert "Quarter-finals opened" in out
    b = _ko(cli.db).bracket
    assert [(m.top, m.bottom) for m in b.rounds[0]] == [(1, 8), (4, 5), (2, 7), (3, 6)]
    _play(cli, 1, 1, ["1-0", "0-1"])  # Ann 2-0
    _play(cli, 1, 4, ["1/2", "0-1"])  # Cid (White in game 1, Black in game 2) 1.5-0.5
    _play(cli, 1, 2, ["1-0", "1-0"])  # 1-1: tie-break
    out = cli("pair", NAME, ok=False)
    assert "cannot advance: round 1 has undecided match(es) 2 (Dan - Eva), 3 (Bob - Gus)" \
        in out
    out = cli("pair", NAME, ok=False, lang="es")
    assert "el cuadro no puede avanzar" in out
    _play(cli, 1, 2, ["1-0", "1/2"])  # Dan wins the tie-break 1.5-0.5
    _play(cli, 1, 3, ["1-0", "1-0", "1/2", "1/2"])  # level after the tie-break
    out = cli("game-result", NAME, "1", "3", "5", "1-0", ok=False)
    assert "waits for both players' bids" in out
    cli("bid", NAME, "1", "3", "2", "200")
    out = cli("bid", NAME, "1", "3", "7", "3:00")
    assert "Gus bids 180 s" in out and "Next: game 5, Bob - Gus" in out \
        and "clock 300+2 / 180+2" in out
    out = cli("game-result", NAME, "1", "3", "5", "1/2")  # Black's draw wins the match
    assert "Match decided: Gus goes on" in out
    b = _ko(cli.db).bracket
    assert [m.winner for m in b.rounds[0]] == [1, 4, 7, 3]
    assert [(m.top, m.bottom) for m in b.rounds[1]] == [(1, 4), (3, 7)]


def _semi_finals(cli: Cli) -> None:
    cli("pair", NAME)
    out = cli("bid", NAME, "2", "2", "3", "100", ok=False)
    assert "not at its Armageddon" in out
    _play(cli, 2, 1, ["1-0", "0-1"])  # Ann
    _play(cli, 2, 2, ["0-1", "0-1", "1-0", "1-0"])  # 3 v 7 level after the tie-break
    cli("bid", NAME, "2", "2", "3", "150")
    out = cli("bid", NAME, "2", "2", "3", "140", ok=False)
    assert "has bid already" in out and "a bid is final" in out
    out = cli("bid", NAME, "2", "2", "5", "140", ok=False)
    assert "does not play round 2 match 2" in out
    out = cli("bid", NAME, "2", "2", "7", "150")  # equal bids: the better seed (Cid) Black
    assert "Next: game 5, Gus - Cid" in out
    _play(cli, 2, 2, ["1-0"])  # White (Gus) wins the Armageddon
    assert _ko(cli.db).bracket.rounds[2][0].bottom == 7


def _final(cli: Cli) -> None:
    out = cli("close", NAME, ok=False)
    assert "round 3 of the bracket has not been opened" in out
    cli("pair", NAME)
    _play(cli, 3, 1, ["1-0", "1-0", "0-1", "0-1"])  # level after 2 + 2 games
    for bad, en, es in [("-5", "cannot be negative", "no puede ser negativa"),
                        ("301", "over the base time of 300 s", "supera el tiempo base"),
                        ("abc", "is a number of seconds", "es un número de segundos"),
                        ("2.5", "whole seconds", "segundos enteros")]:
        assert en in cli("bid", NAME, "3", "1", "1", bad, ok=False)
        assert es in cli("bid", NAME, "3", "1", "1", bad, ok=False, lang="es")
    assert _ko(cli.db).bids[-1].round == 2  # nothing recorded
    cli("bid", NAME, "3", "1", "1", "150")
    cli("bid", NAME, "3", "1", "7", "2:50")
    out = cli("game-result", NAME, "3", "1", "4", "1-0", ok=False)
    assert "decided" not in out and "plays game 5 next" in out
    out = cli("game-result", NAME, "3", "1", "5", "1/2")
    assert "Champion: Ann" in out


def test_eight_player_knockout_through_the_cli(tmp_path: Path) -> None:
    cli = _setup_bracket(tmp_path)
    _quarter_finals(cli)
    _semi_finals(cli)
    _final(cli)
    out = cli("bracket", NAME)
    assert "Winner: Ann" in out and "Final" in out and "Semi-finals" in out
    html = cli("bracket", NAME, "--format", "html", lang="es")
    assert "Campeón: <strong>Ann</strong>" in html and "Cuartos de final" in html
    salt_line = cli("close", NAME).strip().splitlines()[-1]
    salt = bytes.fromhex(salt_line)
    ko = _ko(cli.db)
    assert ko.bracket.champion == 1 and ko.event.status == "closed"
    # every game's setup re-derived independently from the revealed salt
    doc = _sketch()
    numbers, tag = doc["pool"]("chess960")
    units = {s.game: s.unit for s in ko.format.slots()}
    assert len(ko.games) == (2 + 4 + 5 + 2) + (2 + 5) + 5 and \
        all(g.result is not None for g in ko.games)
    for g in ko.games:
        assert g.setup == doc["round_number"](salt, NAME, g.round,
                                              100 * g.match + units[g.game], numbers, tag)
    # one setup per match stage: games 1-2, 3-4 and the Armageddon each share theirs
    final = ko.bracket.match(3, 1).games
    assert final[0].setup == final[1].setup and final[2].setup == final[3].setup
    assert [units[g.game] for g in final] == [1, 1, 2, 2, 3]
    assert "verified" in cli("verify", NAME)
    _check_pgn(cli, ko)


def _check_pgn(cli: Cli, ko: KnockoutEvent) -> None:
    games = list(read_games(io.StringIO(cli("export", NAME, "--format", "pgn"))))
    assert len(games) == len(ko.games)
    rounds = [g.headers["Round"] for g in games]
    assert rounds[:2] == ["1.1", "1.2"] and rounds[-5:] == ["3.1", "3.2", "3.3", "3.4", "3.5"]
    by_round = {(g.headers["Round"], g.headers["Board"]): g for g in games}
    for g in ko.games:
        record = by_round[(g.label, str(g.match))]
        assert record.headers["SetupNumber"] == str(g.setup)
        assert record.headers["White"] == ko.name(g.white)
        assert record.headers["Result"] == g.result
        assert record.headers["FEN"] == g.fen
    final_arm = by_round[("3.5", "1")].headers
    assert (final_arm["White"], final_arm["Black"], final_arm["WhiteClock"],
            final_arm["BlackClock"], final_arm["WhiteBid"], final_arm["BlackBid"]) == \
        ("Gus", "Ann", "300+2", "150+2", "170", "150")
    assert by_round[("3.3", "1")].headers["TimeControl"] == "600+5"
    assert by_round[("3.1", "1")].headers["TimeControl"] == "900+10"
    out = cli("export", NAME, "--format", "csv", ok=False)
    assert "the crosstable CSV describes Swiss and round-robin" in out
    bulletin = cli("export", NAME, "--format", "bulletin", lang="es")  # issue 34
    assert "Boletín" in bulletin and "Campeón: <strong>Ann</strong>" in bulletin
    assert bulletin.count('<section class="game"') == len(ko.games)
    _check_trf(cli, ko)


def _check_trf(cli: Cli, ko: KnockoutEvent) -> None:
    """TRF: each game a column (bracket round by bracket round), the game points, the
    knock-out's places; what TRF cannot say in ### comments."""
    from fractions import Fraction

    from randomchess.tournament.model import GAME_RESULTS
    from randomchess.tournament.trf import parse_trf

    text = cli("export", NAME, "--format", "trf")
    trf = parse_trf(text)
    columns = [c for c in trf.comments if c.startswith("### randomchess-column ")]
    assert trf.rounds == len(columns) == 15  # 5 game slots in each of the 3 rounds
    assert columns[5] == "### randomchess-column 6 round=2 game=1"
    games = [b for b in trf.boards() if b.black is not None]  # every opponent lists back
    assert len(games) == len(ko.games)
    for p in trf.players:
        points = sum((GAME_RESULTS[g.result][0 if g.white == p.number else 1]
                      for g in ko.games if p.number in (g.white, g.black)), Fraction(0))
        assert p.points == points, p
    place = {p.name: p.rank for p in trf.players}
    assert place["Ann"] == 1 and place["Gus"] == 2
    assert sorted(place.values()) == [1, 2, 3, 3, 5, 5, 5, 5]
    assert "### randomchess-bid round=3 match=1 player=1 seconds=150" in text
    assert "### randomchess-match round=3 match=1 top=1 bottom=7 winner=1" in text
    assert text.count("### randomchess-knockout-game ") == len(ko.games)
    path = Path(cli.db.removeprefix("sqlite:///")).with_name("ko.trf")
    path.write_text(text, encoding="utf-8")
    out = cli("verify", "--trf", str(path), ok=False, lang="es")
    assert "no se lee como torneo" in out
    assert "092 Knock-out, chess960" in text and f"### randomchess-salt {ko.event.salt.hex()}" \
        in text  # type: ignore[union-attr]


def test_steps_of_other_formats_are_refused(tmp_path: Path) -> None:
    cli = _setup_bracket(tmp_path)
    assert "a knock-out has no standings" in cli("standings", NAME, ok=False)
    cli("pair", NAME)
    out = cli("result", NAME, "1", "1", "1-0", ok=False)
    assert "game-result EVENT ROUND MATCH GAME RESULT" in out
    out = cli("game-result", NAME, "2", "1", "1", "1-0", ok=False)
    assert "round 2 of the bracket is not open" in out
    out = cli("game-result", NAME, "1", "1", "2", "1-0", ok=False)
    assert "plays game 1 next, not game 2" in out
    out = cli("game-result", NAME, "1", "1", "1", "2-0", ok=False)
    assert "unknown result" in out
    assert all(g.result is None for g in _ko(cli.db).games)
    out = cli("new", "No Armageddon", "--format", "knockout", ok=False)
    assert "needs an Armageddon" in out
    out = cli("new", "Bad stage", "--format", "knockout", "--tiebreak", "two",
              "--armageddon", "bid:300", ok=False, lang="es")
    assert "PARTIDAS:RITMO" in out


def test_results_and_bids_survive_kill_9(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'crash.sqlite3'}"
    store = TournamentStore(db)
    store.migrate()
    kos = KnockoutStore(store)
    eid = kos.create("Crash KO", 2, [], "bid:300").event.id
    store.add_player(eid, "Ann", 2000)
    store.add_player(eid, "Bob", 1900)
    kos.start(eid)
    kos.open_round(eid)
    store.dispose()
    code = (
        "import sys, time\n"
        "from randomchess.tournament import TournamentStore\n"
        "from randomchess.tournament.knockout_store import KnockoutStore\n"
        f"s = KnockoutStore(TournamentStore({db!r}))\n"
        f"s.set_result({eid!r}, 1, 1, 1, '1-0')\n"
        f"s.set_result({eid!r}, 1, 1, 2, '1-0')\n"
        f"s.set_bid({eid!r}, 1, 1, 2, '4:10')\n"
        "print('acknowledged', flush=True)\n"
        "time.sleep(60)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "acknowledged"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    again = TournamentStore(db)
    ko = KnockoutStore(again).load(eid)
    m = ko.bracket.match(1, 1)
    assert [g.result for g in m.games] == ["1-0", "1-0"] and m.status == "bids"
    assert [(b.player, b.seconds) for b in ko.bids] == [(2, 250)]
    again.dispose()


def test_every_label_and_message_has_both_languages() -> None:
    from randomchess.cli.knockout import KO_MSG
    from randomchess.tournament.knockout_export import KO_LABELS

    assert set(KO_LABELS["en"]) == set(KO_LABELS["es"])
    assert set(KO_MSG["en"]) == set(KO_MSG["es"])
