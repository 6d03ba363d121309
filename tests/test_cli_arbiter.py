"""Issue 29, "The arbiter's CLI": the defects found running a 9-player event start to finish
through ``randomchess tournament`` (each test failed before its fix)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import text

from randomchess.cli import main
from randomchess.tournament import TournamentStore

RESULTS = ["1-0", "0-1", "1/2"]


class Cli:
    def __init__(self, db: str, lang: str = "en") -> None:
        self.db = db
        self.lang = lang
        self.runner = CliRunner()

    def __call__(self, *args: str, ok: bool = True, stdin: str | None = None) -> str:
        result = self.runner.invoke(main, ["tournament", "--db", self.db, "--lang", self.lang,
                                           *args], input=stdin)
        if ok:
            assert result.exit_code == 0, (args, result.output, result.exception)
        else:
            assert result.exit_code != 0, (args, result.output)
        return result.output


def _event(tmp_path: Path, players: int = 4, rounds: int = 2, lang: str = "en") -> Cli:
    cli = Cli(f"sqlite:///{tmp_path / 'a.sqlite3'}", lang)
    cli("new", "Club", "--rounds", str(rounds))
    for i in range(players):
        cli("add-player", "Club", f"Player {i + 1}", "--rating", str(2000 - 10 * i))
    return cli


def _play_all(cli: Cli, rounds: int) -> None:
    store = TournamentStore(cli.db)
    try:
        for rnd in range(1, rounds + 1):
            cli("pair", "Club")
            t = store.load(store.resolve("Club"))
            for b in t.round_boards(rnd):
                if not b.is_bye:
                    cli("result", "Club", str(rnd), str(b.board), RESULTS[b.board % 3])
    finally:
        store.dispose()


def test_show_log_before_round_1(tmp_path: Path) -> None:
    cli = _event(tmp_path)
    out = cli("show", "Club", "--log")  # registration open: no round, but a log
    assert "register" in out and "Player 4" in out
    cli("start", "Club")
    out = cli("show", "Club", "--log")
    assert "start" in out
    # without --log there is still nothing to show before round 1
    assert "not paired" in cli("show", "Club", ok=False)


def test_show_writes_to_a_file(tmp_path: Path) -> None:
    cli = _event(tmp_path)
    cli("start", "Club")
    cli("pair", "Club")
    html = tmp_path / "round1.html"
    out = cli("show", "Club", "--format", "html", "-o", str(html))
    assert out == ""
    assert html.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")
    table = tmp_path / "round1.txt"
    assert cli("show", "Club", "--log", "--output", str(table)) == ""
    text_ = table.read_text(encoding="utf-8")
    assert "Player 1" in text_ and "pair" in text_


def test_verify_names_a_changed_fen(tmp_path: Path) -> None:
    cli = _event(tmp_path)
    cli("start", "Club")
    _play_all(cli, 2)
    cli("close", "Club")
    store = TournamentStore(cli.db)
    try:
        with store.engine.begin() as conn:
            conn.execute(text("UPDATE tournament_boards SET fen = :f WHERE round = 2 AND "
                              "board = 1"),
                         {"f": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"})
    finally:
        store.dispose()
    result = CliRunner().invoke(main, ["tournament", "--db", cli.db, "verify", "Club"])
    assert result.exit_code != 0
    line = next(x for x in result.output.splitlines() if "round 2 board 1" in x)
    assert "FEN" in line and "rnbqkbnr/pppppppp" in line, line


def test_a_trf_without_its_salt(tmp_path: Path) -> None:
    cli = _event(tmp_path)
    cli("start", "Club")
    _play_all(cli, 2)
    salt = cli("close", "Club").split()[-1]
    trf = cli("export", "Club")
    bare = tmp_path / "bare.trf"
    bare.write_text("".join(line + "\n" for line in trf.splitlines()
                            if not line.startswith("### randomchess-salt")), encoding="utf-8")
    out = cli("verify", "--trf", str(bare), ok=False)
    assert "closed" not in out and "afterwards" not in out, out
    assert "salt" in out and "--salt" in out, out
    assert "verified" in cli("verify", "--trf", str(bare), "--salt", salt)


def test_a_bye_requested_before_the_start_follows_its_player(tmp_path: Path) -> None:
    """Registration numbers are replaced by pairing numbers at the start: the requested bye,
    and what the log says of it, stay with the player who asked."""
    cli = Cli(f"sqlite:///{tmp_path / 'b.sqlite3'}")
    cli("new", "Club", "--rounds", "3")
    for name, rating in [("Low", 1500), ("High", 2000), ("Mid", 1800), ("Top", 2100)]:
        cli("add-player", "Club", name, "--rating", str(rating))
    assert "Low" in cli("bye", "Club", "1", "--round", "2")  # Low registered first
    cli("start", "Club")  # Low becomes number 4
    store = TournamentStore(cli.db)
    try:
        t = store.load(store.resolve("Club"))
        low = next(p for p in t.players if p.name == "Low")
        assert low.number == 4
        assert t.byes == {(2, 4): "H"}
        [entry] = [e for e in t.log if e.action == "bye-number"]
        assert (entry.round, entry.old, entry.new) == (2, "1 H", "4 H")
    finally:
        store.dispose()
    _play_all(cli, 2)
    store = TournamentStore(cli.db)
    try:
        t = store.load(store.resolve("Club"))
        assert [(b.white, b.bye) for b in t.round_boards(2) if b.bye == "H"] == [(4, "H")]
    finally:
        store.dispose()


def test_a_rounds_results_in_one_batch(tmp_path: Path) -> None:
    """``result EVENT ROUND --from FILE`` (or ``-`` for stdin): one line per board, all
    entered in one step, or none when one line is wrong."""
    cli = _event(tmp_path, players=6)
    cli("start", "Club")
    cli("pair", "Club")
    bad = "1 1-0\n2 1/2\n3 2-0\n"
    out = cli("result", "Club", "1", "--from", "-", stdin=bad, ok=False)
    assert "line 3" in out and "2-0" in out
    store = TournamentStore(cli.db)
    try:
        t = store.load(store.resolve("Club"))
        assert [b.result for b in t.round_boards(1)] == [None, None, None]  # nothing entered
        assert "line 2" in cli("result", "Club", "1", "--from", "-", stdin="1 1-0\n1 0-1\n",
                               ok=False)
        sheet = tmp_path / "r1.txt"
        sheet.write_text("# round 1\n1 1-0\n\n2  1/2\n3 --\n", encoding="utf-8")
        out = cli("result", "Club", "1", "--from", str(sheet))
        assert out.count("Round 1 board") == 3
        t = store.load(store.resolve("Club"))
        assert [b.result for b in t.round_boards(1)] == ["1-0", "1/2-1/2", "--"]
        # a result entered already is final: the batch is refused whole
        assert "correction" in cli("result", "Club", "1", "--from", "-", stdin="3 1-0\n",
                                   ok=False)
        cli("pair", "Club")
        out = cli("result", "Club", "2", "--from", "-", stdin="1 0-1\n2 1-0\n")
        assert out.count("Round 2 board") == 2
        t = store.load(store.resolve("Club"))
        assert [b.result for b in t.round_boards(2)][:2] == ["0-1", "1-0"]
    finally:
        store.dispose()
    cli("result", "Club", "2", ok=False)  # neither BOARD RESULT nor --from
    cli("result", "Club", "2", "3", "1-0", "--from", "-", stdin="", ok=False)  # both
