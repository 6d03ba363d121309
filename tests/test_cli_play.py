"""``randomchess play``: the game is a :class:`Game` (endings, claims, resignation) and is
saved with the PGN writer."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from randomchess.cli import main
from randomchess.pgn import read_games

# White to move with the 50-move count at 99 plies: Ra2 completes the fifty moves.
NEAR_FIFTY = "4k3/8/8/8/8/8/8/R3K3 w - - 99 80"


def play(tmp_path: Path, lines: list[str], *args: str) -> tuple[str, Path]:
    pgn = tmp_path / "game.pgn"
    result = CliRunner().invoke(
        main, ["play", "--level", "1", "--movetime", "20", "--ascii", "--pgn", str(pgn), *args],
        input="\n".join(lines) + "\n",
    )
    assert result.exit_code == 0, result.output
    return result.output, pgn


def test_resignation_is_saved_as_pgn(tmp_path: Path) -> None:
    out, pgn = play(tmp_path, ["e4", "undo", "d4", "resign"], "--variant", "chess")
    assert "Black wins by resignation" in out
    (game,) = read_games(pgn)
    assert game.error is None
    assert game.headers["Result"] == "0-1" and game.headers["White"] == "You"
    assert game.mainline()[0] == game.start_position().parse_uci("d2d4")


def test_draw_claim_with_a_move_completes_the_fifty_moves(tmp_path: Path) -> None:
    out, pgn = play(tmp_path, ["draw", "draw Ra2"], "--variant", "chess",
                    "--fen", NEAR_FIFTY)
    assert "no draw to claim" in out  # 99 plies: not yet
    assert "Draw by 50-move rule" in out
    (game,) = read_games(pgn)
    assert game.headers["Result"] == "1/2-1/2"
    assert game.headers["FEN"] == NEAR_FIFTY and game.headers["SetUp"] == "1"
    assert len(game.mainline()) == 1


def test_a_wrong_claim_lets_the_game_go_on(tmp_path: Path) -> None:
    out, pgn = play(tmp_path, ["draw", "quit"], "--variant", "chess960", "--number", "518")
    assert "no draw to claim" in out
    assert not pgn.exists()  # no move was played
