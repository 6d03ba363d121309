"""Over-the-board games for the tests (issue 31): legal games played at random by our own
rules core from a board's setup, written as scoresheets in English or Spanish."""

from __future__ import annotations

import random

from randomchess import Position
from randomchess.san import san_and_push


def random_game(fen: str, variant: str, plies: int, seed: int) -> list[str]:
    """UCI moves of a legal game of up to ``plies`` plies (it stops at mate or stalemate);
    captures are preferred now and then so that games also end in mates."""
    rng = random.Random(seed)
    pos = Position(fen, variant)
    out = []
    for _ in range(plies):
        legal = pos.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        out.append(pos.uci(move))
        pos.push(move)
    return out


def scoresheet(fen: str, variant: str, uci: list[str], lang: str = "en",
               paper: bool = False) -> str:
    """The moves as numbered SAN in ``lang``; ``paper``: as written by hand (no check marks,
    castling with zeros, no number before Black's moves)."""
    pos = Position(fen, variant)
    words = []
    for i, u in enumerate(uci):
        if pos.turn == 0:
            words.append(f"{pos.fullmove_number}.")
        elif i == 0 or not paper:
            words.append(f"{pos.fullmove_number}...")
        text = san_and_push(pos, pos.parse_uci(u), lang)  # type: ignore[arg-type]
        if paper:
            text = text.rstrip("+#").replace("O", "0")
        words.append(text)
    return " ".join(words)


def final_result(fen: str, variant: str, uci: list[str], otherwise: str) -> str:
    """The result the board forces after ``uci`` (mate, stalemate), else ``otherwise``."""
    pos = Position(fen, variant)
    for u in uci:
        pos.push_uci(u)
    if pos.legal_moves():
        return otherwise
    if not pos.is_check():
        return "1/2-1/2"
    return "0-1" if pos.turn == 0 else "1-0"
