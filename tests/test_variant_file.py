"""Variants from a data file (issue 35): ``randomchess --variants FILE`` and the server's
``variants_file`` setting read ``[variant.KEY]`` tables of a TOML file through the checks
every built-in entry passes; a file with problems is refused whole, one error per problem
naming file, line and field."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from randomchess import Position, get_variant, variants
from randomchess.startpos import setup_from_number
from randomchess.variant_file import (
    ENV_VARIABLE,
    VariantFileError,
    load_variant_file,
    read_variant_file,
)

DATA = Path(__file__).resolve().parent / "data" / "variant_files"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def registry() -> Iterator[None]:
    """Loading registers variants process-wide: put the registry back afterwards."""
    from randomchess import variant_file

    before, names = dict(variants.VARIANTS), dict(variants._BY_NAME)
    loaded = dict(variant_file._LOADED)
    env = os.environ.get(ENV_VARIABLE)
    yield
    for table, saved in ((variants.VARIANTS, before), (variants._BY_NAME, names),
                         (variant_file._LOADED, loaded)):
        table.clear()
        table.update(saved)  # type: ignore[attr-defined]
    if env is None:
        os.environ.pop(ENV_VARIABLE, None)
    else:
        os.environ[ENV_VARIABLE] = env


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "variants.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.usefixtures("registry")
def test_a_built_in_variant_from_a_file_has_identical_perft() -> None:
    (copy,) = load_variant_file(DATA / "crc_copy.toml")
    assert get_variant("crc-copy") is copy
    assert get_variant("Contemporary Random Chess (file)") is copy
    crc = get_variant("crc")
    for number in (0, 911, 1270, 1679):
        rank = setup_from_number(crc, number).rank
        assert setup_from_number(copy, number).rank == rank
        # With the Bishop Adjustment field where the bishops share a colour (1270: RBKNQBNR).
        ours, theirs = Position(copy.setup_fen(rank), copy), Position(crc.setup_fen(rank), crc)
        assert ours.fen() == theirs.fen()
        assert ours.perft(3) == theirs.perft(3)
    assert copy.description[1].startswith("Ajedrez")
    # Loading the same file again (the CLI option, then the server's setting) is no clash.
    assert load_variant_file(DATA / "crc_copy.toml") == (copy,)


def test_one_clear_error_per_problem_naming_file_line_and_field() -> None:
    path = DATA / "broken.toml"
    with pytest.raises(VariantFileError) as caught:
        read_variant_file(path)
    problems = caught.value.problems
    assert [(p.line, p.path) for p in problems] == [
        (7, "variant.unknown-piece.promotions"),  # unknown piece
        (19, "variant.bad-castling.castle_a"),  # impossible castling files
        (26, "variant.too-big.files"),  # board over the supported size
        (35, "variant.crc"),  # duplicate key
    ]
    text = str(caught.value).splitlines()
    assert text[0] == (f"{path}:7: variant.unknown-piece.promotions: unknown piece letter "
                       "'X' (known: PNBRQKMAC)")
    assert "adjacent files" in text[1] and "at most 12 files" in text[2]
    assert "duplicate key: 'crc' is already a variant" in text[3]
    with pytest.raises(Exception, match="unknown variant"):
        get_variant("bad-castling")  # nothing of the file was registered


def test_toml_errors_missing_and_unknown_fields(tmp_path: Path) -> None:
    dup = _write(tmp_path, '[variant.a]\npgn_name = "A"\n\n[variant.a]\npgn_name = "B"\n')
    with pytest.raises(VariantFileError) as caught:
        read_variant_file(dup)
    (problem,) = caught.value.problems
    assert problem.line == 4 and "not TOML" in problem.message  # a key declared twice
    odd = _write(tmp_path, '[variant.odd]\npgn_name = "Odd"\nfiles = "8"\ncolour = 1\n')
    with pytest.raises(VariantFileError) as caught:
        read_variant_file(odd)
    found = {(p.line, p.path, p.message.split(":")[0]) for p in caught.value.problems}
    assert (4, "variant.odd.colour", "unknown field (docs/variants.md lists them)") in found
    assert (3, "variant.odd.files", "expected a whole number, not '8'") in found
    assert (1, "variant.odd.army", "missing") in found
    clash = _write(tmp_path, (DATA / "crc_copy.toml").read_text().replace(
        "[variant.crc-copy]", "[variant.crc-two]").replace(
        '"Contemporary Random Chess (file)"', '"Chess960"'))
    with pytest.raises(VariantFileError, match="'Chess960' already names 'chess960'"):
        read_variant_file(clash)


def test_display_names_and_descriptions_by_language(tmp_path: Path) -> None:
    (copy,) = read_variant_file(DATA / "crc_copy.toml")
    assert copy.display_name == ("CRC from a file", "Ajedrez Aleatorio Contemporáneo (archivo)")
    header = (DATA / "crc_copy.toml").read_text(encoding="utf-8").split("[variant.crc-copy.")[0]
    bad = _write(tmp_path, header.replace("[variant.crc-copy]", "[variant.bad-names]")
                 .replace("(file)", "(bad)") + (
        "[variant.bad-names.display_name]\n"  # line 19
        'en = "Fine"\n'
        "es = 5\n"  # line 21: not a string
        "\n"
        "[variant.bad-names.description]\n"  # line 23
        'en = "ok"\n'
        'fr = "non"\n'  # line 25: no such language
        "\n"
        '[variant.inline]\npgn_name = "Inline"\n'  # line 27
        'display_name = { en = "x", es = "' + "y" * 61 + '" }\n'  # line 29: too long
        "\n"
        '[variant.empty]\npgn_name = "Empty"\n'  # line 31
        'display_name = { es = "  " }\n'  # line 33: blank
        'description = { es = "two\\nlines" }\n'  # line 34: a line break
    ))
    with pytest.raises(VariantFileError) as caught:
        read_variant_file(bad)
    found = {(p.line, p.path): p.message for p in caught.value.problems}
    assert found[(21, "variant.bad-names.display_name.es")] == "expected a string, not int"
    assert found[(25, "variant.bad-names.description.fr")] == "unknown language 'fr' (en, es)"
    assert found[(29, "variant.inline.display_name.es")] == (
        "a name has at most 60 characters, not 61")
    assert found[(33, "variant.empty.display_name.es")].startswith("an empty name")
    assert found[(34, "variant.empty.description.es")].startswith(
        "a description has no control characters")
    first = str(caught.value).splitlines()[0]
    assert first.startswith(f"{bad}:21: variant.bad-names.display_name.es")


@pytest.mark.usefixtures("registry")
def test_the_command_line_option_loads_the_file() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    run = [sys.executable, "-m", "randomchess"]
    fen = get_variant("crc").setup_fen("RBKNQBNR")  # with the Bishop Adjustment field
    good = subprocess.run([*run, "--variants", str(DATA / "crc_copy.toml"), "perft",
                           "--variant", "crc-copy", "--fen", fen, "--depth", "2"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert good.returncode == 0, good.stderr
    assert good.stdout.split()[-1] == str(Position(fen, "crc").perft(2))
    bad = subprocess.run([*run, "--variants", str(DATA / "broken.toml"), "perft"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert bad.returncode == 1
    assert "refused (no variant loaded)" in bad.stderr
    assert "rechazado (no se cargó ninguna variante)" in bad.stderr
    assert "broken.toml:19: variant.bad-castling.castle_a" in bad.stderr


@pytest.mark.usefixtures("registry")
def test_the_server_serves_a_good_file_and_starts_without_a_bad_one(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from fastapi.testclient import TestClient

    from randomchess.server.http.app import create_app

    db = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    with caplog.at_level(logging.ERROR, logger="randomchess.server"), TestClient(
            create_app(db, static_dir=None, variants_file=DATA / "broken.toml")) as c:
        keys = [v["key"] for v in c.get("/api/variants").json()]
        assert "bad-castling" not in keys and "crc" in keys
    refused = [r.getMessage() for r in caplog.records if "variants file refused" in r.getMessage()]
    assert len(refused) == 4 and "variant.too-big.files" in refused[2]
    with TestClient(create_app(db, static_dir=None,
                               variants_file=DATA / "crc_copy.toml")) as c:
        served = {v["key"]: v for v in c.get("/api/variants").json()}
        assert served["crc-copy"]["setup"]["count"] == 1680
        assert served["crc-copy"]["description"]["es"].startswith("Ajedrez")
        assert served["crc-copy"]["display_name"] == {
            "en": "CRC from a file", "es": "Ajedrez Aleatorio Contemporáneo (archivo)"}
        assert served["crc"]["display_name"] == {"en": "", "es": ""}  # the catalogue's
        r = c.post("/api/games", json={"variant": "crc-copy", "setup": 1270,
                                       "opponent": "hotseat"})
        assert r.status_code == 201, r.text
        game = c.get(f"/api/games/{r.json()['id']}").json()
        assert game["start_fen"] == get_variant("crc").setup_fen("RBKNQBNR")


@pytest.mark.usefixtures("registry")
def test_gating_from_a_file_has_identical_perft() -> None:
    (copy,) = load_variant_file(DATA / "pmcrc_copy.toml")
    pmcrc = get_variant("pmcrc")
    assert copy.hand == "Q" and copy.has_gating
    for number in (0, 911, 1270):
        rank = setup_from_number(pmcrc, number).rank
        ours, theirs = Position(copy.setup_fen(rank), copy), Position(pmcrc.setup_fen(rank), pmcrc)
        assert ours.fen() == theirs.fen() and "[Qq]" in ours.fen()
        assert ours.perft(3) == theirs.perft(3)
