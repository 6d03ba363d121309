"""``randomchess draw``: options, JSON fields and the commit/round/verify cycle.

The option names and JSON fields are a published interface (issue 3); numbering follows
RULES.md §2.4 and §4.8, castling destinations §6.
"""

from __future__ import annotations

import json
import os
import stat
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from randomchess.cli import main

EVENT = "Open Navalmoral 2025"
JSON_FIELDS = ["variant", "number", "rank", "rank_localized", "fen", "castling"]


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty current directory: 'draw commit' writes its salt file there."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def draw(runner: CliRunner, *args: str) -> Result:
    return runner.invoke(main, ["draw", *args])


def ok(result: Result) -> str:
    assert result.exit_code == 0, result.output
    return result.stdout


# --- drawing and showing -----------------------------------------------------------------------


def test_draw_without_options_draws_one_chess960_setup(runner: CliRunner) -> None:
    number, rank = ok(draw(runner)).split()
    assert 0 <= int(number) <= 959 and len(rank) == 8


def test_number_in_english_and_spanish(runner: CliRunner) -> None:
    assert ok(draw(runner, "--number", "518")) == "518 RNBQKBNR\n"
    assert ok(draw(runner, "--variant", "chess960", "--number", "518", "--lang", "es")) == (
        "518 TCADRACT\n"
    )
    assert ok(draw(runner, "--variant", "mrc", "--number", "8226", "--lang", "es")) == (
        "8226 TCAMRDACT\n"
    )


def test_json_fields(runner: CliRunner) -> None:
    record = json.loads(ok(draw(runner, "--number", "518", "--format", "json", "--lang", "es")))
    assert list(record) == JSON_FIELDS
    assert record["rank_localized"] == "TCADRACT"
    assert record["castling"] == {"O-O": "Kg1 Rf1", "O-O-O": "Kc1 Rd1"}
    lines = ok(draw(runner, "--variant", "mrc", "--count", "4", "--format", "json")).splitlines()
    assert len(lines) == 4
    for line in lines:
        record = json.loads(line)
        assert list(record) == [*JSON_FIELDS, "bishops_same_colour"]
        assert record["variant"] == "mrc" and record["rank"] == record["rank_localized"]
        assert record["castling"] == {"O-O-Og": "Kg1 Rf1", "O-O-Oc": "Kc1 Rd1"}


def test_seed_is_reproducible(runner: CliRunner) -> None:
    first = ok(draw(runner, "--seed", "42", "--count", "3"))
    assert first == ok(draw(runner, "--seed", "42", "--count", "3"))
    assert first == "635 RNKQBRNB\n930 BRKRNBQN\n895 RQKRNNBB\n"  # docs/shuffler.md §7
    assert first != ok(draw(runner, "--seed", "43", "--count", "3"))


def test_filters_and_exclusion(runner: CliRunner) -> None:
    out = ok(draw(runner, "--variant", "mrc", "--bishops", "same", "--count", "50",
                  "--format", "json"))
    assert all(json.loads(line)["bishops_same_colour"] for line in out.splitlines())
    out = ok(draw(runner, "--variant", "mrc", "--bishops", "opposite", "--seed", "x",
                  "--count", "50", "--format", "json"))
    assert not any(json.loads(line)["bishops_same_colour"] for line in out.splitlines())
    numbers = ok(draw(runner, "--exclude-standard", "--count", "300")).split()[::2]
    assert "518" not in numbers


def test_fen_and_svg_and_html(runner: CliRunner) -> None:
    assert ok(draw(runner, "--number", "0", "--format", "fen")) == (
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\n"
    )
    svg = ok(draw(runner, "--variant", "mrc", "--number", "8226", "--format", "svg"))
    root = ET.fromstring(svg)
    assert len(root.findall(".//{http://www.w3.org/2000/svg}g[@data-piece]")) == 36
    html = ok(draw(runner, "--count", "4", "--format", "html", "--lang", "es"))
    assert html.count("<svg") == 4
    assert "@media print" in html and "Fila inicial (español)" in html


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--number", "960"], "0-959"),
        (["--number", "-1"], "0-959"),
        (["--number", "abc"], "not a valid integer"),
        (["--variant", "mrc", "--number", "15120"], "0-15119"),
        (["--variant", "chess"], "'chess' is not one of"),
        (["--variant", "chess960", "--bishops", "same"], "MRC and CRC only"),
        (["--number", "5", "--seed", "1"], "exclude each other"),
        (["--number", "5", "--count", "2"], "--count"),
        (["--number", "518", "--exclude-standard"], "left out"),
        (["--count", "0"], "--count"),
        (["--count", "2", "--format", "svg"], "one setup"),
        (["--lang", "fr"], "'fr' is not one of"),
        (["--seed", "1", "round"], "cannot be combined"),
        (["nonsense"], "No such command"),
    ],
)
def test_bad_input_fails_clearly(runner: CliRunner, args: list[str], message: str) -> None:
    result = draw(runner, *args)
    assert result.exit_code != 0
    assert message in result.output


# --- identify ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "extra", "expected"),
    [
        ("RNBQKBNR", [], "518 RNBQKBNR"),
        ("TCADRACT", ["--lang", "es"], "518 TCADRACT"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", [], "518 RNBQKBNR"),
        ("rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w AIai - 0 1", [], "8226 RNBMKQBNR"),
        ("RKRNNMQBB", [], "15119 RKRNNMQBB"),
    ],
)
def test_identify(runner: CliRunner, position: str, extra: list[str], expected: str) -> None:
    assert ok(draw(runner, "identify", position, *extra)) == expected + "\n"


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "not a chess960 start"),
        ("RNBQKBN", "8 pieces"),
        ("RBQBKNNR", "opposite colours"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "not a mrc board"),
    ],
)
def test_identify_rejects(runner: CliRunner, position: str, message: str) -> None:
    extra = ["--variant", "mrc"] if "not a mrc" in message else []
    result = draw(runner, "identify", position, *extra)
    assert result.exit_code == 1 and message in result.output


# --- commit, round, verify ---------------------------------------------------------------------


def _commit(runner: CliRunner, *extra: str) -> tuple[Path, str, str]:
    out = ok(draw(runner, "commit", "--event", EVENT, *extra))
    fields = dict(line.split(":", 1) for line in out.splitlines())
    path = Path(fields["salt file"].strip())
    salt = path.read_text(encoding="utf-8").splitlines()[-1]
    return path, salt, fields["commitment"].strip()


def test_commit_round_verify(runner: CliRunner, workdir: Path) -> None:
    path, salt, published = _commit(runner)
    assert path.name == "open-navalmoral-2025.salt"
    if os.name == "posix":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    options = ["--round", "1-3", "--variant", "mrc", "--boards", "4", "--per-board",
               "--bishops", "same", "--exclude-standard", "--format", "json"]
    during = ok(draw(runner, "round", "--salt-file", str(path), "--event", EVENT, *options))
    after = draw(runner, "verify", "--salt", salt, "--event", EVENT,
                 "--commitment", published, *options)
    assert ok(after) == during
    assert "commitment matches" in after.stderr
    records = [json.loads(line) for line in during.splitlines()]
    assert [(r["round"], r["board"]) for r in records] == [
        (r, b) for r in (1, 2, 3) for b in (1, 2, 3, 4)
    ]
    assert all(r["event"] == EVENT and r["bishops_same_colour"] for r in records)
    assert all(r["number"] != 8226 for r in records)


def test_same_setup_on_every_board_by_default(runner: CliRunner, workdir: Path) -> None:
    path, _, _ = _commit(runner)
    out = ok(draw(runner, "round", "--salt-file", str(path), "--event", EVENT,
                  "--round", "2", "--boards", "6", "--format", "fen"))
    assert len(out.splitlines()) == 6 and len(set(out.splitlines())) == 1
    text = ok(draw(runner, "round", "--salt-file", str(path), "--event", EVENT,
                   "--round", "2", "--lang", "es"))
    assert text.startswith("round 2: ")


def test_tampered_salt_or_commitment_fails(runner: CliRunner, workdir: Path) -> None:
    path, salt, published = _commit(runner)
    flipped = ("1" if salt[0] == "0" else "0") + salt[1:]
    other = ("1" if published[0] == "0" else "0") + published[1:]
    for s, c, event in ((flipped, published, EVENT), (salt, other, EVENT),
                        (salt, published, EVENT + "!")):
        result = draw(runner, "verify", "--salt", s, "--event", event, "--commitment", c,
                      "--round", "1")
        assert result.exit_code == 1
        assert "commitment mismatch" in result.output
        assert result.stdout == ""
    malformed = draw(runner, "verify", "--salt", "xyz", "--event", EVENT,
                     "--commitment", published, "--round", "1")
    assert malformed.exit_code == 2 and "64 hexadecimal" in malformed.output
    # An edited salt file and a mistyped event name are refused during the event too.
    lines = path.read_text(encoding="utf-8").splitlines()
    Path("edited.salt").write_text("\n".join([*lines[:-1], flipped]) + "\n", encoding="utf-8")
    result = draw(runner, "round", "--salt-file", "edited.salt", "--event", EVENT,
                  "--round", "1")
    assert result.exit_code == 1 and "mismatch" in result.output
    result = draw(runner, "round", "--salt-file", str(path), "--event", "Open Navalmoral",
                  "--round", "1")
    assert result.exit_code == 1 and "does not match" in result.output


def test_commit_never_overwrites_a_salt(runner: CliRunner, workdir: Path) -> None:
    path, _, _ = _commit(runner, "--salt-file", "event.salt")
    before = path.read_text(encoding="utf-8")
    result = draw(runner, "commit", "--event", EVENT, "--salt-file", "event.salt")
    assert result.exit_code == 1 and "not overwritten" in result.output
    assert path.read_text(encoding="utf-8") == before
    assert draw(runner, "commit", "--event", "  ").exit_code == 2


def test_round_sheet_html(runner: CliRunner, workdir: Path) -> None:
    path, salt, published = _commit(runner)
    html = ok(draw(runner, "round", "--salt-file", str(path), "--event", EVENT,
                   "--round", "1-2", "--boards", "3", "--per-board", "--variant", "mrc",
                   "--format", "html"))
    assert html.count("<section>") == 2 and html.count("<svg") == 6
    assert published in html and salt not in html  # the salt stays secret
    assert "@page" in html and "draw verify" in html and "--per-board" in html
    assert "Back rank (Spanish)" in html and "O-O-Oc" in html


@pytest.mark.parametrize("spec", ["0", "2-1", "x"])
def test_bad_round_lists(runner: CliRunner, workdir: Path, spec: str) -> None:
    path, _, _ = _commit(runner)
    result = draw(runner, "round", "--salt-file", str(path), "--event", EVENT,
                  "--round", spec)
    assert result.exit_code == 2 and "--round" in result.output


def test_missing_salt_file(runner: CliRunner, workdir: Path) -> None:
    result = draw(runner, "round", "--salt-file", "nope.salt", "--event", EVENT, "--round", "1")
    assert result.exit_code == 2


def test_help_lists_the_subcommands(runner: CliRunner) -> None:
    out = ok(draw(runner, "--help"))
    for word in ("commit", "round", "verify", "identify", "--variant", "--number", "--seed",
                 "--count", "--lang", "--format"):
        assert word in out


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ("9999999/8", "more squares"),
        ("8/8/8/8/8/8/8/RNBQKBN² w", "'²'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 \u0661", "move number"),
    ],
)
def test_identify_rejects_bad_counts_without_a_traceback(
    runner: CliRunner, position: str, message: str
) -> None:
    """Issue 13: a huge empty-square count is refused before anything is expanded, and a
    Unicode digit is a bad letter, not a crash."""
    result = draw(runner, "identify", position)
    assert result.exit_code == 1, result.output
    assert message in result.output and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("number", ["\u0665\u0661\u0668", "\uff15\uff11\uff18", "\u00b2", "5_18"])
def test_setup_numbers_are_ascii_digits(runner: CliRunner, number: str) -> None:
    """Issue 13: int() reads Arabic-Indic and full-width digits (and '5_18'); a setup number
    is typed in ASCII digits or refused."""
    result = draw(runner, "--number", number)
    assert result.exit_code == 2 and "ASCII digits" in result.output


# --- issue 36: seeds and event names that are not UTF-8 ------------------------------------------
# A Latin-1 terminal under a UTF-8 locale sends b"\xff" for "ÿ"; Python makes it "\udcff".


@pytest.mark.parametrize("args", [
    ["--seed", "\udcff"],
    ["--seed", "caf\udce9", "--count", "2"],
    ["commit", "--event", "\udcff"],
    ["commit", "--event", "Torneo Pe\udcf1\udced"],
])
def test_undecodable_seed_or_event_is_refused_without_a_traceback(
    runner: CliRunner, workdir: Path, args: list[str]
) -> None:
    result = draw(runner, *args)
    assert result.exit_code == 2, result.output
    assert "UTF-8" in result.output and "byte 0x" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert list(workdir.iterdir()) == []  # no salt file written


def test_undecodable_event_in_round_and_verify(runner: CliRunner, workdir: Path) -> None:
    path, salt, published = _commit(runner)
    for args in (["round", "--salt-file", str(path)],
                 ["verify", "--salt", salt, "--commitment", published]):
        result = draw(runner, *args, "--event", "\udcff", "--round", "1")
        assert result.exit_code == 2, result.output
        assert "UTF-8" in result.output and "byte 0xff" in result.output


def test_undecodable_seed_from_a_real_command_line(workdir: Path) -> None:
    """The command as a shell runs it, bytes and all: a message, no traceback."""
    import subprocess
    import sys

    import randomchess
    here = str(Path(randomchess.__file__).resolve().parents[1])  # the package under test
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONUTF8": "1",
           "PYTHONPATH": os.pathsep.join([here, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "randomchess", "draw", "--seed", b"\xff"],
                          capture_output=True, env=env, timeout=60, check=False)
    assert done.returncode == 2, done.stderr
    assert b"Traceback" not in done.stderr and b"UTF-8" in done.stderr


def test_brief_in_english_and_spanish(runner: CliRunner) -> None:
    """``--brief`` (issue 33): the setup brief after the setup, in --lang."""
    en = ok(draw(runner, "--number", "518", "--brief")).splitlines()
    assert en[0] == "518 RNBQKBNR"
    assert "  White: Pawns defended only by the king: f2" in en
    assert "  Black: Moves to castle: O-O-O: 4 (clear b8, c8, d8; pawn to move first: d7); " \
        "O-O: 3 (clear f8, g8; pawn to move first: e7)" in en
    es = ok(draw(runner, "--number", "7", "--brief", "--lang", "es")).splitlines()
    assert es[0] == "7 DCACTRTA"
    assert any(line.startswith("  Blancas: Jugadas para enrocar: ") and
               "O-O: 0 (legal en la jugada 1)" in line for line in es)
    mrc = json.loads(ok(draw(runner, "--variant", "mrc", "--number", "0", "--brief",
                             "--format", "json")))
    assert mrc["brief"]["white"]["diagonals"][0]["target"] == "h8"
    html = ok(draw(runner, "--number", "518", "--brief", "--format", "html", "--lang", "es"))
    assert "Peones defendidos solo por el rey" in html
