"""Double Fischer Random Chess (issue 35): each side its own Chess960 array, 921,600 setups
numbered by a pair of Scharnagl numbers; perft against Stockfish (``go perft``, X-FEN and
Shredder-FEN with UCI_Chess960) and move generation against python-chess."""

from __future__ import annotations

import json
import random
import shutil
import subprocess

import chess
import pytest
from click.testing import CliRunner

from randomchess import Position, get_variant
from randomchess.cli import main
from randomchess.startpos import (
    DOUBLE960_SETUPS,
    SetupNumberError,
    SetupPool,
    chess960_number,
    draw_seeded,
    setup_from_fen,
    setup_from_label,
    setup_from_number,
    setup_from_rank,
)

D960 = get_variant("double960")
STOCKFISH = shutil.which("stockfish") or "/usr/games/stockfish"
SAMPLE = sorted({518 * 960 + 518, 0, DOUBLE960_SETUPS - 1,
                 *random.Random(960).sample(range(DOUBLE960_SETUPS), 7)})


def stockfish_perft(fens: list[str], depth: int) -> list[int]:
    lines = ["uci", "setoption name UCI_Chess960 value true"]
    for fen in fens:
        lines += [f"position fen {fen}", f"go perft {depth}", "isready"]
    out = subprocess.run([STOCKFISH], input="\n".join([*lines, "quit"]) + "\n",
                         capture_output=True, text=True, timeout=600, check=True).stdout
    counts = [int(x.split(":")[1]) for x in out.splitlines() if x.startswith("Nodes searched")]
    assert len(counts) == len(fens), out[-2000:]
    return counts


def test_numbers_are_a_pair_of_scharnagl_numbers() -> None:
    s = setup_from_label(D960, "518/123")
    assert (s.number, s.label) == (518 * 960 + 123, "518/123")
    white, black = s.rank.split("/")
    assert white == "RNBQKBNR" and chess960_number(black) == 123
    assert s.fen == "nqrnbkrb/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert setup_from_fen(s.fen, D960).label == "518/123"
    assert setup_from_rank(D960, s.rank).number == s.number
    assert setup_from_number(D960, DOUBLE960_SETUPS - 1).label == "959/959"
    assert SetupPool(D960, exclude_standard=True).excluded == (518 * 960 + 518,)
    for bad in ("518", "960/1", "5a/1", "518/123/7"):
        with pytest.raises(SetupNumberError):
            setup_from_label(D960, bad)
    assert len(SetupPool(D960)) == DOUBLE960_SETUPS == 921_600


def test_the_shuffler_draws_it() -> None:
    pool = SetupPool(D960)
    drawn = draw_seeded(pool, "issue 35", 3)
    assert drawn == draw_seeded(pool, "issue 35", 3)
    assert all(D960.is_setup(s.rank) for s in drawn)
    out = CliRunner().invoke(main, ["draw", "--variant", "double960", "--number", "518/123",
                                    "--format", "json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["label"] == "518/123"
    out = CliRunner().invoke(main, ["draw", "--variant", "double960", "--seed", "x",
                                    "--count", "2"])
    assert out.exit_code == 0 and len(out.output.splitlines()) == 2
    assert all("/" in line.split()[0] for line in out.output.splitlines())


@pytest.mark.parametrize("number", SAMPLE)
def test_start_perft_depth4_matches_stockfish(number: int) -> None:
    pos = Position(setup_from_number(D960, number).fen, D960)
    expected = stockfish_perft([pos.fen(), pos.fen(shredder=True)], 4)
    assert [pos.perft(4)] * 2 == expected


def _perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += _perft(board, depth - 1)
        board.pop()
    return total


def test_random_playouts_match_python_chess() -> None:
    rng = random.Random(35)
    for _ in range(8):
        pos = Position(setup_from_number(D960, rng.randrange(DOUBLE960_SETUPS)).fen, D960)
        board = chess.Board(pos.fen(), chess960=True)
        for _ in range(rng.randrange(10, 40)):
            ours = sorted(pos.uci(m, chess960=True) for m in pos.legal_moves())
            assert ours == sorted(m.uci() for m in board.legal_moves), pos.fen()
            if not ours:
                break
            text = rng.choice(ours)
            pos.push_uci(text)
            board.push_uci(text)
            assert pos.fen(shredder=True).split()[:4] == board.shredder_fen().split()[:4]
        assert pos.perft(2) == _perft(board, 2), pos.fen()


def test_pgn_names_the_variant_and_keeps_both_arrays() -> None:
    from randomchess.pgn import parse_game, write_game

    text = ('[Variant "Double Fischer Random Chess"]\n'
            '[FEN "nqrnbkrb/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]\n'
            '[SetUp "1"]\n\n1. e4 Nc6 2. Nf3 *\n')
    game = parse_game(text)
    assert game.variant.key == "double960"
    again = parse_game(write_game(game, lang="es"), lang="es")
    assert again.variant.key == "double960"
    assert [n.san for n in again.moves] == ["e4", "Cc6", "Cf3"]  # as written in Spanish
    assert again.start_fen.startswith("nqrnbkrb/")
    assert again.end_position().fen().split()[0] == (
        "nqr1bkrb/pppppppp/2n5/8/4P3/5N2/PPPP1PPP/RNBQKB1R")
