"""What the compiled and the pure-Python modules must agree on (tests/test_native.py).

Run as a script it prints the fingerprint as JSON, with whether the compiled modules were in
use; tests/test_native.py runs it with ``RANDOMCHESS_NATIVE=off`` and compares it with the
same fingerprint taken in the test process, where the compiled modules are in use.
"""

from __future__ import annotations

import json
import random
from typing import Any

from randomchess import native
from randomchess.engine.evaluate import evaluate
from randomchess.engine.search import Limits, Searcher, see
from randomchess.pgn import Node, PgnGame, parse_game, write_game
from randomchess.position import Move, Position
from randomchess.san import parse_san, san
from randomchess.startpos import setup_from_number

PERFT = (
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
    ("chess960", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 3),
    # MRC with every Bishop Adjustment still open (D-20...), and symmetric castling.
    ("mrc", "rmnbqnkbr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RBKNQBNMR w AIai - 0 1 ABCDEFGHIabcdefghi",
     3),
    ("mrc", "r3k3r/ppp1qpppp/2nmb1n2/3pp4/9/2NPP4/PPPMQPPPP/9/R3K3R w AIai - 0 6", 2),
)
SEARCH = (
    ("chess", "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8", 5),
    ("chess960", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", 5),
    ("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7),
    ("mrc", "rmnbqnkbr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RBKNQBNMR w AIai - 0 1 ABCDEFGHIabcdefghi",
     4),
)


def _random_positions(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        variant = rng.choice(("chess960", "mrc"))
        pos = Position(setup_from_number(variant, rng.randrange(960)).fen, variant)
        for _ in range(rng.randrange(0, 80)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
        out.append(pos)
    return out


def fingerprint() -> dict[str, Any]:
    perft = [Position(fen, variant).perft(depth) for variant, fen, depth in PERFT]
    evals, exchanges, fens, sans, legal = [], [], [], [], []
    for pos in _random_positions(150, seed=7):
        evals.append(evaluate(pos))
        exchanges.append([see(pos, m) for m in pos.legal_moves() if pos.is_capture(m)])
        fens.append(pos.fen())
        # SAN both ways (san and pgn are compiled too, issue 36), and the one-piece legality
        # test of push_uci / is_legal beside the full list, for every square pair.
        written = [san(pos, m, lang) for m in pos.legal_moves() for lang in ("en", "es")]
        assert [parse_san(pos, t, lang) for t, lang in zip(
            written, ["en", "es"] * len(pos.legal_moves()), strict=True)] == [
            m for m in pos.legal_moves() for _ in (0, 1)]
        sans.append(written)
        size = pos.geometry.size
        legal.append([pos.is_legal(Move(a, b)) for a in pos.piece_squares(pos.turn)
                      for b in range(size) if a != b])
    games = []
    for pos in _random_positions(20, seed=11):
        moves = pos.move_stack
        start = pos.copy()
        for _ in moves:
            start.pop()
        game = PgnGame(variant=pos.variant, start_fen=start.fen(),
                       moves=[Node(m) for m in moves])
        text = write_game(game)
        games.append([text, write_game(parse_game(text))])
    searches = []
    for variant, fen, depth in SEARCH:
        pos = Position(fen, variant)
        r = Searcher(hash_mb=4).search(pos, Limits(depth=depth))
        assert r.move is not None
        searches.append([pos.uci(r.move), r.score, r.depth, r.nodes,
                         [pos.uci(m) for m in r.pv[:1]]])
    return {"compiled": native.ACTIVE, "perft": perft, "evaluate": evals, "see": exchanges,
            "fens": fens, "search": searches, "san": sans, "legal": legal,
            "pgn": games}


if __name__ == "__main__":
    print(json.dumps(fingerprint()))
