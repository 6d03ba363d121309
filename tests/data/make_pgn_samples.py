"""Regenerate the sample PGN files in this folder (seeded, so the output is stable).

The games are random legal games played by python-chess; only the *formatting* imitates
what lichess, cutechess and python-chess write (tags, clock/eval comments, Variant
spellings).  No third-party game is copied.
Run: ``.venv/bin/python tests/data/make_pgn_samples.py``.
"""

from __future__ import annotations

import random
from pathlib import Path

import chess
import chess.pgn

HERE = Path(__file__).parent


def chess960_board(rng: random.Random) -> chess.Board:
    return chess.Board.from_chess960_pos(rng.randrange(960))


def random_game(board: chess.Board, rng: random.Random, plies: int) -> list[chess.Move]:
    """A random legal game; castling and captures are preferred so they turn up often."""
    moves = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal or board.is_game_over(claim_draw=False):
            break
        castles = [m for m in legal if board.is_castling(m)]
        captures = [m for m in legal if board.is_capture(m)]
        if castles and rng.random() < 0.7:
            move = rng.choice(castles)
        elif captures and rng.random() < 0.4:
            move = rng.choice(captures)
        else:
            move = rng.choice(legal)
        board.push(move)
        moves.append(move)
    return moves


def result_of(board: chess.Board, rng: random.Random) -> str:
    outcome = board.outcome(claim_draw=True)
    if outcome is not None:
        return outcome.result()
    return rng.choice(["1-0", "0-1", "1/2-1/2", "*"])


def lichess_style(rng: random.Random, games: int) -> str:
    out = []
    for n in range(games):
        board = chess960_board(rng)
        start = board.fen()
        moves = random_game(board.copy(), rng, rng.randrange(20, 90))
        replay = chess.Board(start, chess960=True)
        clock = [180, 180]
        body = []
        for i, move in enumerate(moves):
            clock[i % 2] -= rng.randrange(0, 6)
            c = clock[i % 2]
            number = f"{replay.fullmove_number}{'.' if replay.turn else '...'}"
            extra = f" [%eval {rng.uniform(-3, 3):.2f}]" if n % 2 else ""
            clk = f"[%clk 0:{c // 60:02d}:{c % 60:02d}]"
            body.append(f"{number} {replay.san(move)} {{ {clk}{extra} }}")
            replay.push(move)
        result = result_of(replay, rng)
        tags = {
            "Event": "Rated Chess960 game", "Site": f"https://lichess.org/sample{n:04d}",
            "Date": "2024.03.1" + str(n % 10), "Round": "-", "White": f"player{2 * n}",
            "Black": f"player{2 * n + 1}", "Result": result, "UTCDate": "2024.03.10",
            "UTCTime": "12:00:00", "WhiteElo": str(1500 + n), "BlackElo": str(1600 - n),
            "Variant": "Chess960", "TimeControl": "180+0", "ECO": "?",
            "Termination": "Normal", "FEN": start, "SetUp": "1",
        }
        text = "\n".join(f'[{k} "{v}"]' for k, v in tags.items())
        out.append(text + "\n\n" + " ".join(body) + f" {result}\n")
    return "\n".join(out) + "\n"


def cutechess_style(rng: random.Random, games: int) -> str:
    out = []
    for n in range(games):
        board = chess960_board(rng)
        start = board.fen(shredder=True)
        moves = random_game(board.copy(), rng, rng.randrange(30, 120))
        replay = chess.Board(start, chess960=True)
        body = []
        for move in moves:
            prefix = f"{replay.fullmove_number}. " if replay.turn else ""
            score = f"{rng.uniform(-2, 2):+.2f}/{rng.randrange(8, 20)} {rng.uniform(0.1, 2):.1f}s"
            body.append(f"{prefix}{replay.san(move)} {{{score}}}")
            replay.push(move)
        result = result_of(replay, rng)
        ending = {"1-0": "White wins by adjudication", "0-1": "Black wins by adjudication",
                  "1/2-1/2": "Draw by adjudication", "*": "No result"}[result]
        if replay.is_checkmate():
            ending = "White mates" if result == "1-0" else "Black mates"
        tags = {
            "Event": "?", "Site": "?", "Date": "2024.01.01", "Round": str(n + 1),
            "White": "engine A", "Black": "engine B", "Result": result,
            "FEN": start, "PlyCount": str(len(moves)), "SetUp": "1", "TimeControl": "40/60",
            "Variant": "fischerandom",
        }
        text = "\n".join(f'[{k} "{v}"]' for k, v in tags.items())
        movetext = " ".join(body) + f" {{{ending}}} {result}"
        # cutechess wraps at 80 columns
        lines, line = [], ""
        for word in movetext.split(" "):
            if line and len(line) + 1 + len(word) > 80:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
        out.append(text + "\n\n" + "\n".join(lines) + "\n")
    return "\n".join(out) + "\n"


def python_chess_style(rng: random.Random, games: int) -> str:
    out = []
    for n in range(games):
        board = chess960_board(rng) if n % 2 else chess.Board()
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = f"python-chess sample {n + 1}"
        if n % 2:
            game.headers["Variant"] = "Chess960"
        node = game
        moves = random_game(board.copy(), rng, rng.randrange(20, 80))
        replay = board.copy()
        for i, move in enumerate(moves):
            if i % 7 == 3:
                alt = [m for m in replay.legal_moves if m != move]
                if alt:
                    side = node.add_variation(rng.choice(alt), comment="alternative")
                    side.nags.add(chess.pgn.NAG_DUBIOUS_MOVE)
            node = node.add_main_variation(move)
            if i % 5 == 0:
                node.comment = f"note {i}"
            if i % 6 == 1:
                node.nags.add(chess.pgn.NAG_GOOD_MOVE)
            replay.push(move)
        game.headers["Result"] = result_of(replay, rng)
        out.append(str(game) + "\n")
    return "\n".join(out) + "\n"


def main() -> None:
    rng = random.Random(2024)
    (HERE / "lichess_chess960.pgn").write_text(lichess_style(rng, 12))
    (HERE / "cutechess_fischerandom.pgn").write_text(cutechess_style(rng, 12))
    (HERE / "python_chess_export.pgn").write_text(python_chess_style(rng, 12))


if __name__ == "__main__":
    main()
