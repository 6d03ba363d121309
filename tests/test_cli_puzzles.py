"""``randomchess puzzles generate`` (issue 33): puzzles appended to a JSON-lines file, none
repeated on a second run, PGN games mined (and games of another variant reported and
skipped), messages in English and Spanish."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from randomchess.cli import main
from randomchess.puzzles.model import Puzzle, read_jsonl

SCHOLAR = """[Event "test"]
[Variant "Chess960"]
[SetUp "1"]
[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]
[Result "1-0"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0

[Event "orthodox"]
[Result "*"]

1. e4 *

[Event "broken"]
[Variant "Modern Random Chess"]
[Result "*"]

*
"""


def test_generate_self_play_appends_without_repeats(tmp_path: Path) -> None:
    out = tmp_path / "p.jsonl"
    runner = CliRunner()
    r = runner.invoke(main, ["puzzles", "generate", "--variant", "chess960", "--count", "2",
                             "--out", str(out), "--quiet"])
    assert r.exit_code == 0, r.output
    first = read_jsonl(out.read_text().splitlines())
    assert len(first) == 2 and all(p.variant == "chess960" for p in first)
    assert "2 new puzzles written" in r.output
    # the same seed again: the same games, so new puzzles only from further games
    r = runner.invoke(main, ["puzzles", "generate", "--variant", "chess960", "--count", "1",
                             "--out", str(out), "--quiet", "--lang", "es"])
    assert r.exit_code == 0, r.output
    assert "1 problemas nuevos escritos" in r.output
    both = read_jsonl(out.read_text().splitlines())
    assert len(both) == 3 and len({p.id for p in both}) == 3
    assert len({" ".join(p.fen.split()[:4]) for p in both}) == 3


def test_generate_from_pgn(tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    pgn.write_text(SCHOLAR)
    out = tmp_path / "p.jsonl"
    r = CliRunner().invoke(main, ["puzzles", "generate", "--variant", "chess960", "--count",
                                  "5", "--out", str(out), "--pgn", str(pgn), "--quiet"])
    assert r.exit_code == 0, r.output
    said = " ".join(r.output.split())
    assert "games.pgn: game 2 skipped (not chess960)" in said
    assert "games.pgn: game 3 skipped (game 3, line" in said
    (p,) = read_jsonl(out.read_text().splitlines())
    assert p.moves == ["h5f7"] and p.source == "pgn" and p.last_move == "g8f6"
    assert "mateIn1" in p.themes


def test_verify_keeps_what_a_deeper_search_finds_again(tmp_path: Path) -> None:
    good = Puzzle(variant="chess960", fen="r5k1/5ppp/8/8/8/8/4RPPP/4R1K1 w - - 0 1",
                  moves=["e2e8", "a8e8", "e1e8"], themes=["mate", "mateIn2", "short"])
    # not a puzzle at all: the queen takes either hanging rook
    bad = Puzzle(variant="chess960", fen="6k1/5pp1/7p/7r/r7/7P/5PP1/3Q2K1 w - - 0 1",
                 moves=["d1a4"], themes=["advantage", "hangingPiece", "oneMove"])
    src = tmp_path / "in.jsonl"
    src.write_text(good.to_json() + "\n" + bad.to_json() + "\n")
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(main, ["puzzles", "verify", "--variant", "chess960", "--in",
                                  str(src), "--out", str(out), "--plies", "2", "--quiet"])
    assert r.exit_code == 0, r.output
    said = " ".join(r.output.split())
    assert f"fails the deeper search: {bad.id}" in said and "1 of 2 puzzles hold" in said
    assert [p.id for p in read_jsonl(out.read_text().splitlines())] == [good.id]


def test_an_interrupted_verify_keeps_what_it_has_verified(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Verifying a few hundred puzzles takes an hour on a busy machine: a run stopped
    half-way must keep the puzzles it has already found again (as ``generate`` does)."""
    from randomchess.puzzles import generator

    first = Puzzle(variant="chess960", fen="r5k1/5ppp/8/8/8/8/4RPPP/4R1K1 w - - 0 1",
                   moves=["e2e8", "a8e8", "e1e8"], themes=["mate", "mateIn2", "short"])
    second = Puzzle(variant="chess960", fen="6k1/5ppp/8/8/8/8/4RPPP/4R1K1 w - - 0 1",
                    moves=["e2e8"], themes=["mate", "mateIn1", "oneMove"])
    calls: list[str] = []

    def holds(finder: object, puzzle: Puzzle) -> bool:
        calls.append(puzzle.id)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return True

    monkeypatch.setattr(generator, "holds", holds)
    src = tmp_path / "in.jsonl"
    src.write_text(first.to_json() + "\n" + second.to_json() + "\n")
    out = tmp_path / "out.jsonl"
    CliRunner().invoke(main, ["puzzles", "verify", "--variant", "chess960", "--in", str(src),
                              "--out", str(out), "--plies", "1", "--quiet"])
    assert calls == [first.id, second.id]
    assert [p.id for p in read_jsonl(out.read_text().splitlines())] == [first.id]
