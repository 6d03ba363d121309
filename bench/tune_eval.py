"""Fit the evaluation's weights to Stockfish's scores of quiet positions (issue 16).

    # numpy (BSD licence), the fit's only extra, is among the dev extras
    .venv/bin/python bench/tune_eval.py games OUT.pgn [-n 1000] [--seed 11]
    .venv/bin/python bench/tune_eval.py label GAMES.pgn[,MORE.pgn] OUT.txt [--depth 8] [-j 2]
    .venv/bin/python bench/tune_eval.py fit OUT.txt [--holdout 0.1] [--squares FILE.json]
        [--features CACHE.npz] [--free PREFIX ...]

``games`` plays Stockfish against itself from random Chess960 arrays, each side at a strength
drawn from 1400-2200 (``UCI_Elo``, depth 7): varied positions of the kind a 1,800 opponent
walks into, about fifty games a minute per process (``-j``).

``label`` takes every position of the games from ply 5 on that is not check, scores it with
Stockfish to ``--depth`` (found as the analysis board finds it, one thread) and keeps it
when the score is not a mate, within 20 pawns, and Stockfish's best move is quiet (no
capture, no promotion): the static evaluation is meant for such positions.  Lines are
``FEN;centipawns`` (White's point of view).

``fit`` minimises the squared difference of win probabilities, 1 / (1 + exp(-cp / 180)),
between the evaluation's prediction (``randomchess.engine.tuning``: the evaluation is linear
in its weights) and Stockfish, by Adam from the shipped weights.  A ridge penalty
(``--ridge``) keeps the weights the positions say little about near the shipped ones: the
square shapes are collinear, and unpenalised they cancel in large pairs that extrapolate
badly (a middlegame king on the last rank was worth +1,000).  The weights in
``tuning.FIXED`` are not moved, nor, with ``--free PREFIX`` (repeatable), any weight whose
name does not start with one of the prefixes (to fit new terms alone).  A tenth of the
positions is held out to report how well the fit generalises; it prints the error before
and after, on both parts, and the new constants for ``engine/evaluate.py``; ``--squares``
writes the per-square corrections of 8x8 (``engine/data/pst_squares.json``).
"""

from __future__ import annotations

import argparse
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

SCALE = 180.0  # centipawns per unit of the logistic
ELOS = (1400, 1600, 1800, 2000, 2200)  # the strengths ``games`` draws from


def _stockfish() -> str:
    from randomchess.analysis.engines import EngineConfig

    path = EngineConfig.detect().paths.get("stockfish")
    if not path:
        sys.exit("Stockfish was not found (apt-get install stockfish)")
    return path


def _games_part(args: tuple[str, int, int]) -> None:
    import chess
    import chess.engine
    import chess.pgn

    out, seed, count = args
    rng = random.Random(seed)
    engine = chess.engine.SimpleEngine.popen_uci(_stockfish())
    engine.configure({"Threads": 1, "Hash": 16, "UCI_LimitStrength": True})
    try:
        with open(out, "w", encoding="utf-8") as f:
            for _ in range(count):
                board = chess.Board.from_chess960_pos(rng.randrange(960))
                game = chess.pgn.Game()
                game.setup(board)
                game.headers["Variant"] = "Chess960"
                elo = [rng.choice(ELOS) for _ in range(2)]
                game.headers["White"] = f"sf{elo[chess.WHITE]}"
                game.headers["Black"] = f"sf{elo[chess.BLACK]}"
                node: chess.pgn.GameNode = game
                while not board.is_game_over(claim_draw=True) and board.ply() < 240:
                    engine.configure({"UCI_Elo": elo[board.turn]})
                    move = engine.play(board, chess.engine.Limit(depth=7)).move
                    assert move is not None
                    board.push(move)
                    node = node.add_variation(move)
                game.headers["Result"] = board.result(claim_draw=True)
                print(game, file=f, end="\n\n")
    finally:
        engine.quit()


def games(out: Path, count: int, seed: int, jobs: int) -> None:
    parts = [(f"{out}.part{i}", seed * 1000 + i, count // jobs + (i < count % jobs))
             for i in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        list(pool.map(_games_part, parts))
    with open(out, "w", encoding="utf-8") as f:
        for name, _, _ in parts:
            part = Path(name)
            f.write(part.read_text(encoding="utf-8"))
            part.unlink()
    print(f"{count} games -> {out}")


def _label_part(args: tuple[list[str], int]) -> list[str]:
    import chess
    import chess.engine

    fens, depth = args
    out: list[str] = []
    engine = chess.engine.SimpleEngine.popen_uci(_stockfish())
    engine.configure({"Threads": 1, "Hash": 32})
    try:
        for fen in fens:
            board = chess.Board(fen, chess960=True)
            info = engine.analyse(board, chess.engine.Limit(depth=depth))
            score = info["score"].white()
            cp = score.score()
            if cp is None or abs(cp) > 2000:
                continue
            pv = info.get("pv") or []
            if pv and (board.is_capture(pv[0]) or pv[0].promotion):
                continue
            out.append(f"{fen};{cp}")
    finally:
        engine.quit()
    return out


def label(games: str, out: Path, depth: int, jobs: int) -> None:
    import chess.pgn

    fens: set[str] = set()
    for path in games.split(","):
        with open(path, encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                board = game.board()
                for i, move in enumerate(game.mainline_moves()):
                    board.push(move)
                    if i >= 4 and not board.is_check() and not board.is_game_over():
                        fens.add(board.fen())
    ordered = sorted(fens)
    random.Random(5).shuffle(ordered)
    parts = [(ordered[i::jobs], depth) for i in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        lines = [line for part in pool.map(_label_part, parts) for line in part]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(ordered)} positions, {len(lines)} quiet ones labelled -> {out}")


def _feature_rows(lines: list[str]) -> tuple[Any, Any, Any]:
    """(features, constants, Stockfish's centipawns) of labelled lines, as numpy arrays."""
    import numpy as np

    from randomchess.engine.tuning import NAMES, features
    from randomchess.position import Position

    x = np.zeros((len(lines), len(NAMES)), dtype=np.float32)
    c = np.zeros(len(lines))
    cp = np.zeros(len(lines))
    column = {n: i for i, n in enumerate(NAMES)}
    for row, line in enumerate(lines):
        fen, score = line.rsplit(";", 1)
        f, const = features(Position(fen, "chess960"))
        for name, value in f.items():
            if value:
                x[row, column[name]] = value
        c[row] = const
        cp[row] = float(score)
    return x, c, cp


def _features(data: Path, jobs: int) -> tuple[Any, Any, Any]:
    """(features, constants, Stockfish's centipawns) of a labels file, built in parallel."""
    import numpy as np

    lines = data.read_text(encoding="utf-8").splitlines()
    chunks = [lines[i:i + 5000] for i in range(0, len(lines), 5000)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(_feature_rows, chunks))
    x, c, targets = (np.concatenate([p[k] for p in parts]) for k in range(3))
    return x, c, targets


def fit(data: Path, holdout: float, steps: int, ridge: float,
        free_prefixes: list[str] | None = None, squares: Path | None = None,
        jobs: int = 2, features: Path | None = None) -> None:
    import numpy as np

    from randomchess.engine.tuning import FIXED, NAMES, current_weights

    if features is not None and features.exists():
        saved = np.load(features)
        x, c, targets = saved["x"], saved["c"], saved["targets"]
        if x.shape[1] != len(NAMES):
            sys.exit(f"{features} holds {x.shape[1]} features a position, the evaluation "
                     f"has {len(NAMES)} weights: delete it to build it again")
    else:
        x, c, targets = _features(data, jobs)
        if features is not None:
            np.savez(features, x=x, c=c, targets=targets)
    y = 1.0 / (1.0 + np.exp(-targets / SCALE))
    order = np.random.default_rng(3).permutation(len(y))
    n_test = int(len(y) * holdout)
    test, train = order[:n_test], order[n_test:]
    w0 = np.array([current_weights()[n] for n in NAMES])
    free = np.array([n not in FIXED and (not free_prefixes or any(
        n.startswith(prefix) for prefix in free_prefixes)) for n in NAMES], dtype=float)

    def loss(w: np.ndarray, idx: np.ndarray) -> float:
        p = 1.0 / (1.0 + np.exp(-(c[idx] + x[idx] @ w.astype(np.float32)) / SCALE))
        return float(np.mean((p - y[idx]) ** 2))

    w = w0.copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    lr, b1, b2 = 1.0, 0.9, 0.999
    xt, ct, yt = x[train], c[train], y[train]
    for step in range(1, steps + 1):
        # float32 products: the feature matrix is large (positions x ~850 weights)
        p = 1.0 / (1.0 + np.exp(-(ct + xt @ w.astype(np.float32)) / SCALE))
        residual = ((p - yt) * p * (1 - p)).astype(np.float32)
        grad = (xt.T @ residual) * (2 / SCALE / len(yt)) + 2 * ridge * (w - w0)
        grad *= free
        m = b1 * m + (1 - b1) * grad
        v = b2 * v + (1 - b2) * grad * grad
        w -= lr * (m / (1 - b1**step)) / (np.sqrt(v / (1 - b2**step)) + 1e-12)
        if step % 1000 == 0:
            print(f"step {step}: train {loss(w, train):.6f} holdout {loss(w, test):.6f}",
                  file=sys.stderr)
    print(f"{len(y)} positions ({len(test)} held out)")
    print(f"mean squared error, shipped weights: train {loss(w0, train):.6f} "
          f"holdout {loss(w0, test):.6f}")
    print(f"mean squared error, fitted weights:  train {loss(w, train):.6f} "
          f"holdout {loss(w, test):.6f}")
    for name, before, after in zip(NAMES, w0, w, strict=True):
        print(f"{name:28s} {before:9.2f} -> {after:9.2f}")
    print()
    fitted = {n: float(value) for n, value in zip(NAMES, w, strict=True)}
    print(constants(fitted))
    if squares is not None:
        squares.write_text(square_tables_json(fitted), encoding="utf-8")
        print(f"per-square corrections -> {squares}")


def square_tables_json(w: dict[str, float]) -> str:
    """The fitted per-square corrections as engine/data/pst_squares.json (one decimal)."""
    import json

    from randomchess.engine.tuning import PST_KINDS, SQUARES_BOARD
    from randomchess.pieces import PIECE_TYPES

    files, ranks = SQUARES_BOARD
    # One table a line (64 numbers, a1 first), not one number a line.
    tables = ",\n".join(
        f'   "{PIECE_TYPES[k].letter}": ' + json.dumps(
            {ph: [round(w[f"sq:{k}:{ph}:{i}"], 1) for i in range(files * ranks)]
             for ph in ("mg", "eg")})
        for k in PST_KINDS)
    return f'{{"boards": {{\n  "{files}x{ranks}": {{\n{tables}\n  }}\n}}}}\n'


def constants(w: dict[str, float]) -> str:
    """The fitted weights as the assignments of engine/evaluate.py's tunable numbers."""
    from randomchess.engine.tuning import MOBILITY_KINDS, PST_KINDS
    from randomchess.pieces import PIECE_TYPES

    def pair(name: str) -> str:
        return f"({round(w[name + ':mg'])}, {round(w[name + ':eg'])})"

    lines = ["PST_SHAPE: dict[PieceKind, tuple[tuple[float, ...], tuple[float, ...]]] = {"]
    for k in PST_KINDS:
        mg, eg = (tuple(round(w[f"pst:{k}:{ph}:{i}"], 1) for i in range(7)) for ph in ("mg", "eg"))
        lines.append(f"    {PIECE_TYPES[k].name.upper()}: ({mg},\n        {eg}),")
    lines.append("}")
    mob = ", ".join(f"{PIECE_TYPES[k].name.upper()}: ({round(w[f'mobility:{k}:mg'])}, "
                    f"{round(w[f'mobility:{k}:eg'])}, TYPICAL)" for k in MOBILITY_KINDS)
    lines.append(f"MOBILITY (typical counts unchanged): {mob}")
    lines.append(f"KING_DANGER = {round(w['king_danger'])}")
    lines.append(f"PAWN_SHIELD = {round(w['pawn_shield'])}")
    lines.append(f"OPEN_FILE_NEAR_KING = {round(w['open_file_near_king'])}")
    for const, name in (("DOUBLED_PAWN", "doubled"), ("ISOLATED_PAWN", "isolated"),
                        ("PASSED_PAWN", "passed"), ("PASSED_PAWN_LINEAR", "passed_linear"),
                        ("BISHOP_PAIR", "bishop_pair"), ("ROOK_OPEN_FILE", "rook_open"),
                        ("ROOK_HALF_OPEN_FILE", "rook_half_open"),
                        ("PAWN_THREAT_TO_MOVER", "threat_mover"),
                        ("PAWN_THREAT_TO_WAITING", "threat_waiting"),
                        ("MINOR_DEFENDED_BY_PAWN", "minor_defended")):
        lines.append(f"{const} = {pair(name)}")
    lines.append(f"CASTLING_RIGHT = {round(w['castling'])}")
    lines.append(f"TEMPO = {round(w['tempo'])}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_games = sub.add_parser("games")
    p_games.add_argument("out", type=Path)
    p_games.add_argument("-n", "--count", type=int, default=1000)
    p_games.add_argument("--seed", type=int, default=11)
    p_games.add_argument("-j", "--jobs", type=int, default=2)
    p_label = sub.add_parser("label")
    p_label.add_argument("games")
    p_label.add_argument("out", type=Path)
    p_label.add_argument("--depth", type=int, default=8)
    p_label.add_argument("-j", "--jobs", type=int, default=2)
    p_fit = sub.add_parser("fit")
    p_fit.add_argument("data", type=Path)
    p_fit.add_argument("--holdout", type=float, default=0.1)
    p_fit.add_argument("--steps", type=int, default=5000)
    p_fit.add_argument("--ridge", type=float, default=1e-8,
                       help="penalty per squared centipawn a weight moves from the shipped one")
    p_fit.add_argument("--squares", type=Path,
                       help="write the fitted per-square corrections there "
                            "(src/randomchess/engine/data/pst_squares.json)")
    p_fit.add_argument("-j", "--jobs", type=int, default=2)
    p_fit.add_argument("--free", action="append",
                       help="fit only the weights whose names start so (repeatable; "
                            "default: every weight but tuning.FIXED)")
    p_fit.add_argument("--features", type=Path,
                       help="an .npz of the positions' features: read it when it exists, "
                            "else build and write it (for several fits of the same data)")
    args = parser.parse_args()
    if args.command == "games":
        games(args.out, args.count, args.seed, args.jobs)
    elif args.command == "label":
        label(args.games, args.out, args.depth, args.jobs)
    else:
        fit(args.data, args.holdout, args.steps, args.ridge, args.free, args.squares,
            args.jobs, args.features)


if __name__ == "__main__":
    main()
