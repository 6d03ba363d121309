"""``randomchess pgn check`` and ``randomchess pgn convert``."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from randomchess.cli.pgn import pgn_group
from randomchess.pgn import parse_game, read_games

DATA = Path(__file__).parent / "data"


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(pgn_group, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_check_good_files() -> None:
    for name in ("lichess_chess960.pgn", "cutechess_fischerandom.pgn",
                 "python_chess_export.pgn"):
        code, out, _ = run("check", str(DATA / name))
        assert code == 0, out
        assert out.strip().endswith("12 games, 0 with errors, 0 warnings")


def test_check_broken_file_reports_and_fails() -> None:
    code, out, _ = run("check", str(DATA / "broken.pgn"))
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == (f"{DATA / 'broken.pgn'}: game 2, line 9, column 24: ply 5 3. Ke3: "
                        "illegal move 'Ke3' in r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/"
                        "RNBQKB1R w KQkq - 2 3")
    assert "game 3" in lines[1] and "ambiguous" in lines[1] and "4. Nd4" in lines[1]
    # Game 8's tag pair lacks its closing quote: read with a warning (issue 36).
    assert lines[-1].endswith("9 games, 6 with errors, 1 warning")


def test_check_stdin_warnings_and_strict() -> None:
    text = "1. f3 e5 2. g4 Qh4# 1-0\n"  # the result contradicts the mate
    code, out, _ = run("check", "-", stdin=text)
    assert code == 0 and "warning" in out and "Black wins by checkmate" in out
    code, out, _ = run("check", "--strict", "-q", "-", stdin=text)
    assert code == 1 and "games" not in out
    code, out, _ = run("check", "-", stdin="1. f3 e5 2. g4 Qh4# 3. e4 0-1\n")
    assert code == 1 and "illegal" in out  # no legal move after mate


def test_check_language_option() -> None:
    text = "1. e4 e5 2. Re2 *\n"  # legal only in Spanish (R = rey): read so, with a warning
    code, out, _ = run("check", "-", stdin=text)
    assert code == 0 and "read as Spanish" in out
    code, out, _ = run("check", "--strict", "-", stdin=text)
    assert code == 1
    code, out, _ = run("check", "--lang", "es", "-", stdin=text)
    assert code == 0 and "warning" not in out.replace("0 warnings", "")
    code, out, _ = run("check", "-", stdin="1. e4 e5 2. Re3 *\n")  # legal in neither
    assert code == 1 and "--lang es" in out


def test_convert_to_spanish_and_shredder(tmp_path: Path) -> None:
    target = tmp_path / "out.pgn"
    code, _, _ = run("convert", str(DATA / "lichess_chess960.pgn"), "--lang", "es",
                     "--fen", "shredder", "-o", str(target))
    assert code == 0
    converted = list(read_games(target, lang="es"))
    original = list(read_games(DATA / "lichess_chess960.pgn"))
    assert len(converted) == 12
    for a, b in zip(converted, original, strict=True):
        assert a.mainline() == b.mainline()
        assert a.headers["FEN"].split()[2] != "KQkq"  # Shredder letters
    text = target.read_text()
    assert "Cf3" in text or "Cg3" in text or "Ce3" in text or " C" in text


def test_convert_spanish_back_to_english() -> None:
    code, out, _ = run("convert", "--from-lang", "es", "-",
                       stdin="1. e4 e5 2. Cf3 Cc6 3. Ab5 *\n")
    assert code == 0
    assert parse_game(out).moves[-1].san == "Bb5"


def test_convert_skips_broken_games() -> None:
    code, out, err = run("convert", str(DATA / "broken.pgn"))
    assert code == 1
    assert err.count("skipped") == 6
    assert [g.headers["Event"] for g in read_games(__import__("io").StringIO(out))] == \
        ["good one", "malformed tag", "good again"]
