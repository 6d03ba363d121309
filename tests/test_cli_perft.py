"""The perft command's interface (issue: keep it exactly; other tools drive it)."""

from __future__ import annotations

import subprocess
import sys

import chess
from click.testing import CliRunner

from randomchess import Position
from randomchess.cli import main

START960 = "bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w GEge - 0 1"


def test_single_perft_and_divide() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["perft", "--variant", "chess960", "--fen", START960,
                                  "--depth", "2"])
    assert result.exit_code == 0, result.output
    board = chess.Board(START960, chess960=True)
    expected = 0
    for move in list(board.legal_moves):
        board.push(move)
        expected += board.legal_moves.count()
        board.pop()
    assert int(result.output) == expected
    divide = runner.invoke(main, ["perft", "--variant", "chess960", "--fen", START960,
                                  "--depth", "2", "--divide"])
    lines = divide.output.strip().splitlines()
    assert lines[-1] == f"Nodes: {result.output.strip()}"
    assert "f1g1: " in divide.output  # O-O by transposition (SP 3, RULES.md §2.2)
    assert sum(int(line.split(": ")[1]) for line in lines[:-2]) == int(result.output)


def test_modern_start_position_by_default() -> None:
    result = CliRunner().invoke(main, ["perft", "--variant", "modern", "--depth", "2"])
    assert result.output.strip() == "576"


def test_bad_fen_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["perft", "--variant", "mrc", "--fen", "xyz", "--depth", "1"])
    assert result.exit_code != 0
    assert "placement has 1 ranks" in result.output


def test_batch_mode_streams_answers_and_survives_bad_lines() -> None:
    lines = (
        f"{START960}\t1\n"
        "garbage\n"
        f"{START960}\t2\te2e4 e7e5\n"
        f"{START960}\t1\te2e5\n"
        f"{START960}\tx\n"
        "rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w IAia - 0 1 ABCDEFGHIabcdefghi\t2\n"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "randomchess", "perft", "--variant", "mrc", "--batch"],
        input=lines, capture_output=True, text=True, timeout=60,
        check=True,
    )
    out = proc.stdout.splitlines()
    assert len(out) == 6
    # An 8x8 FEN is an error under --variant mrc: one error line each, the command goes on.
    assert all(line.startswith("error: ") for line in out[:5])
    assert out[5] == "784"  # Maura's array with the bishop rule (RULES.md §3)


def test_batch_mode_chess960() -> None:
    lines = f"{START960}\t1\ngarbage\n{START960}\t2\te2e4 e7e5\n{START960}\t1\te2e5\n"
    proc = subprocess.run(
        [sys.executable, "-m", "randomchess", "perft", "--variant", "chess960", "--batch"],
        input=lines, capture_output=True, text=True, timeout=60, check=True,
    )
    out = proc.stdout.splitlines()
    assert out[0].isdigit()
    assert out[1].startswith("error: ")
    assert out[2].isdigit() and int(out[2]) > 400
    assert out[3].startswith("error: ") and "e2e5" in out[3]


def test_batch_depths_are_ascii_and_bounded() -> None:
    # A superscript digit passes str.isdigit() but is no depth; a depth of 99999 would run
    # for ever: both are one clear error line, and the next line is still answered.
    from randomchess.cli.perft import MAX_DEPTH, perft_line

    for depth in ("²", "٣", str(MAX_DEPTH + 1), "99999"):
        try:
            perft_line(f"{START960}\t{depth}", "chess960")
        except ValueError as exc:
            assert repr(depth) in str(exc) or depth in str(exc)
        else:
            raise AssertionError(f"depth {depth!r} was accepted")
    moves = Position(START960, "chess960").legal_moves()
    assert perft_line(f"{START960}\t1", "chess960") == len(moves)
