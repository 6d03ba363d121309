"""Game review: marks by loss of winning chances (lichess's model), the better move,
accuracy, annotated PGN read back by our reader and python-chess, and the CLI."""

from __future__ import annotations

import io
import random
import shutil
from pathlib import Path

import chess.pgn
import pytest
from click.testing import CliRunner

from randomchess import Game, Position, get_variant
from randomchess.analysis import Limit, OwnEngine, Score
from randomchess.analysis.match import random_setup
from randomchess.analysis.review import (
    Review,
    annotated_pgn,
    game_accuracy,
    judge,
    move_accuracy,
    review_game,
)
from randomchess.cli import main
from randomchess.pgn import PgnGame, parse_game, read_games

# 4... Qg5?? hangs the queen to the knight on f3.
BLUNDER_PGN = """[Event "test"]
[White "A"]
[Black "B"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Qg5 5. Nxg5 *
"""


def test_thresholds_and_accuracy_formula() -> None:
    assert judge(4.9) is None
    assert judge(5) == "inaccuracy" and judge(10) == "mistake" and judge(15) == "blunder"
    assert move_accuracy(0) == 100 and move_accuracy(-3) == 100
    assert move_accuracy(10) == pytest.approx(64.6, abs=0.1)  # 103.17 e^-0.4354 - 2.17
    assert move_accuracy(80) < 1.1  # the "+1" uncertainty bonus keeps a floor near 1
    # A side that never loses anything is perfect; one that throws the game is not.
    white, black = game_accuracy([50, 50, 90, 90], first=0)  # 1... throws 40 points
    assert white == pytest.approx(100) and black is not None and black < 60


def test_planted_blunder_is_marked_with_the_better_move() -> None:
    game = parse_game(BLUNDER_PGN)
    done: list[int] = []
    review = review_game(game, OwnEngine(), Limit(depth=3),
                         progress=lambda n, total: done.append(n))
    assert done[-1] == len(game.moves) + 1
    qg5 = review.plies[7]
    assert qg5.san == "Qg5" and qg5.judgement == "blunder"
    assert qg5.best_san is not None and qg5.best_san != "Qg5"
    assert qg5.loss >= 15 and qg5.accuracy < 30
    assert review.counts(1)["blunder"] == 1 and review.counts(0)["blunder"] == 0
    white, black = review.accuracy
    assert white is not None and black is not None and white > black
    assert Review.from_dict(review.as_dict()).as_dict() == review.as_dict()

    text = annotated_pgn(game, review)
    assert "Qg5 $4" in text and "[%eval" in text
    again = parse_game(text)
    assert again.error is None and again.mainline() == game.mainline()
    node = again.moves[7]
    assert 4 in node.nags and node.variations and "[%eval" in node.comment
    assert again.headers["Annotator"] == "randomchess"
    # python-chess reads the NAGs, the evals and the variation.
    pc = chess.pgn.read_game(io.StringIO(text))
    assert pc is not None
    moves = list(pc.mainline())
    assert chess.pgn.NAG_BLUNDER in moves[7].nags
    ev = moves[7].eval()
    assert ev is not None and ev.white().score(mate_score=100000) > 300
    assert len(moves[6].variations) == 2  # the game's Qg5 and the better move


def test_spanish_comments() -> None:
    game = parse_game(BLUNDER_PGN)
    review = review_game(game, OwnEngine(), Limit(depth=3))
    assert "Error grave" in annotated_pgn(game, review, "es")


def test_mrc_game_with_an_adjustment_and_mate_is_reviewed() -> None:
    v = get_variant("mrc")
    pos = Position("2rkr4/2p1p4/9/9/9/9/9/2P6/2RB4K w - - 0 1 CD", v)
    g = Game(pos.fen(), v)
    g.push(pos.parse_uci("d1c1"))  # the adjustment that mates
    record = PgnGame.from_game(g)
    review = review_game(record, OwnEngine(), Limit(depth=3))
    assert review.start_score == Score(mate=1)
    assert review.plies[0].judgement is None and review.plies[0].score is None
    text = annotated_pgn(record, review)
    assert parse_game(text).error is None


def test_cli_writes_annotated_pgn(tmp_path: Path) -> None:
    src = tmp_path / "g.pgn"
    src.write_text(BLUNDER_PGN + "\n" + BLUNDER_PGN.replace("Qg5 5. Nxg5", "Nf6 5. d3"))
    out = tmp_path / "out.pgn"
    result = CliRunner().invoke(main, ["analyse", str(src), "--depth", "3", "-o", str(out)])
    assert result.exit_code == 0, result.output
    games = list(read_games(out))
    assert len(games) == 2 and all(g.error is None for g in games)
    assert 4 in games[0].moves[7].nags and 4 not in games[1].moves[7].nags
    assert "2 game(s) reviewed" in result.output


def test_cli_missing_engine_message(tmp_path: Path) -> None:
    src = tmp_path / "g.pgn"
    src.write_text(BLUNDER_PGN)
    bad = CliRunner().invoke(main, ["analyse", str(src), "--engine",
                                    f"stockfish={tmp_path / 'none'}", "--lang", "es"])
    assert bad.exit_code != 0 and "no es un archivo ejecutable" in bad.output


FAIRY = shutil.which("fairy-stockfish") or (
    "/usr/games/fairy-stockfish" if Path("/usr/games/fairy-stockfish").exists() else None)


@pytest.mark.skipif(FAIRY is None, reason="*** fairy-stockfish not installed: MRC review "
                    "with Fairy-Stockfish SKIPPED ***")
def test_cli_mrc_review_with_fairy_stockfish(tmp_path: Path) -> None:
    v = get_variant("mrc")
    rng = random.Random(2)
    g = Game(random_setup(v, rng, adjustment=True), v)
    for _ in range(10):
        g.push(rng.choice(g.legal_moves()))
    from randomchess.pgn import write_game

    src = tmp_path / "mrc.pgn"
    src.write_text(write_game(g))
    out = tmp_path / "out.pgn"
    result = CliRunner().invoke(main, ["analyse", str(src), "--engine", "fairy-stockfish",
                                       "--depth", "5", "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    (back,) = list(read_games(out))
    assert back.error is None and back.mainline() == g.moves
    assert back.headers["Annotator"] == "fairy-stockfish"
    assert sum("[%eval" in n.comment for n in back.moves) >= 9
