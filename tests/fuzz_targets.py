"""Fuzz targets for the library's parsers (issue 13): FEN, SAN, UCI, PGN, setup numbers,
setup FENs and scoresheets (issue 31).

Each target takes one input and either parses it or raises the library's typed error
(``RandomChessError``, a ``ValueError``); a target re-raises anything else, so the caller
sees it as a failure.  What parses must also write and read back the same.  Used by
tests/test_fuzz.py (hypothesis, a few seconds in every test run) and by bench/fuzz.py
(``make fuzz``, a long mutation campaign).
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Callable

from randomchess import Position, RandomChessError, get_variant
from randomchess.pgn import parse_game, read_games, write_game
from randomchess.san import parse_san, san
from randomchess.startpos import (
    iter_rounds,
    parse_rank,
    setup_from_fen,
    setup_from_number,
    setup_from_rank,
)

VARIANTS = ("chess", "chess960", "mrc", "modern", "capablanca", "caparandom")

# Positions the move parsers are tried in: start arrays, castling both ways, en passant,
# promotion, and MRC with the Bishop Adjustment alive.
POSITIONS = [
    ("chess", None),
    ("chess960", "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1"),
    ("chess960", "r3k2r/1P4P1/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1"),
    ("mrc", "rmnbqnkbr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RBKNQBNMR w IAia - 0 1 ABCDEFGHIabcdefghi"),
    ("mrc", "qnbnrkrbm/ppppppppp/9/9/9/9/9/PPPPPPPPP/MBRKRNBNQ w ECge - 0 1"),
    ("modern", None),
    ("capablanca", None),
]
_positions = [Position(fen, variant) for variant, fen in POSITIONS]


def fuzz_fen(text: str) -> None:
    for variant in VARIANTS:
        try:
            pos = Position(text, variant)
        except RandomChessError:
            continue
        again = Position(pos.fen(), variant)
        assert again.fen() == pos.fen(), (text, variant)
        assert Position(pos.fen(shredder=True), variant).fen() == pos.fen()


def fuzz_san(text: str) -> None:
    for pos in _positions:
        for lang in ("en", "es", None):
            try:
                move = parse_san(pos, text, lang)  # type: ignore[arg-type]
            except RandomChessError:
                continue
            assert move in pos.legal_moves(), (text, pos.fen())
            for out_lang in ("en", "es"):
                written = san(pos, move, out_lang)  # type: ignore[arg-type]
                assert parse_san(pos, written, out_lang) == move  # type: ignore[arg-type]


def fuzz_uci(text: str) -> None:
    for pos in _positions:
        try:
            move = pos.parse_uci(text)
        except RandomChessError:
            continue
        assert move in pos.legal_moves(), (text, pos.fen())
        assert pos.parse_uci(pos.uci(move)) == move


def fuzz_pgn(text: str) -> None:
    for number, game in enumerate(read_games(io.StringIO(text))):
        if game.error is not None:
            assert isinstance(game.error, RandomChessError)
            continue
        if number >= 25:
            continue  # every game is read; the first 25 good ones are also written back
        for lang in ("en", "es"):
            written = write_game(game, lang=lang)  # type: ignore[arg-type]
            again = parse_game(written)
            assert again.mainline() == game.mainline(), (text, written)
    with contextlib.suppress(RandomChessError):
        parse_game(text)


def fuzz_setup_number(text: str) -> None:
    """A setup number as typed (text), and as whatever a caller might pass."""
    values: list[object] = [text]
    stripped = text.strip()
    if re.fullmatch(r"-?[0-9]{1,39}", stripped):
        values.append(int(stripped))
    for variant in ("chess960", "mrc", "chess"):
        for value in values:
            try:
                setup = setup_from_number(variant, value)  # type: ignore[arg-type]
            except RandomChessError:
                continue
            assert setup_from_fen(setup.fen).number == setup.number
    for lang in ("en", "es"):
        try:
            rank = parse_rank(text, lang)  # type: ignore[arg-type]
            setup_from_rank("chess960" if len(rank) == 8 else "mrc", rank)
        except RandomChessError:
            pass
    try:
        rounds = iter_rounds(text)
        for _ in zip(range(1000), rounds, strict=False):
            pass
    except RandomChessError:
        pass


def fuzz_setup_fen(text: str) -> None:
    for variant in (None, "chess960", "mrc"):
        try:
            setup = setup_from_fen(text, variant)
        except RandomChessError:
            continue
        assert setup_from_number(setup.variant, setup.number).fen.split()[0] == \
            text.split()[0]
    get_variant("mrc")


def fuzz_scoresheet(text: str) -> None:
    """A scoresheet (issue 31) read in 8x8 and 9x9: a game, or a typed error; a game read
    back from its own English and Spanish SAN is the same game."""
    from randomchess.san import variation_san
    from randomchess.scoresheet import read_scoresheet

    mrc = "rmnbqnkbr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RBKNQBNMR w IAia - 0 1 ABCDEFGHIabcdefghi"
    for variant, fen in (("chess", None), ("mrc", mrc)):
        try:
            sheet = read_scoresheet(text, variant, fen)
        except RandomChessError:
            continue
        start = Position(sheet.start_fen, variant)
        moves = [m.move for m in sheet.moves]
        if not moves:
            continue
        for lang in ("en", "es"):
            again = read_scoresheet(variation_san(start, moves, lang), variant, fen)  # type: ignore[arg-type]
            assert again.uci() == sheet.uci(), (text, lang)


TARGETS: dict[str, Callable[[str], None]] = {
    "fen": fuzz_fen,
    "san": fuzz_san,
    "uci": fuzz_uci,
    "pgn": fuzz_pgn,
    "setup-number": fuzz_setup_number,
    "setup-fen": fuzz_setup_fen,
    "scoresheet": fuzz_scoresheet,
}

# Valid inputs the long campaign mutates (and hypothesis starts from).
SEEDS: dict[str, list[str]] = {
    "fen": [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/1P4P1/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1",
        "4k3/8/8/8/8/8/8/4K2R w K - 12 40",
        "rmnbqnkbr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RBKNQBNMR w IAia - 0 1 ABCDEFGHIabcdefghi",
        "qnbnrkrbm/ppppppppp/9/9/9/9/9/PPPPPPPPP/MBRKRNBNQ w ECge - 0 1",
        "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
    ],
    "san": ["e4", "Nf3", "O-O", "O-O-O", "O-O-Oc", "O-O-Og", "exd6 e.p.", "b8=Q+", "gxh8=N#",
            "B=N", "Bc=Nb", "B=MN", "Re2", "Cf3", "Txa1", "Dd1", "0-0", "e8(Q)", "Ng1-f3",
            "e1h1", "Kxe2!?", "0-M-0", "Mb3", "a7a8q"],
    "uci": ["e2e4", "e1h1", "e1a1", "b7b8q", "e5d6", "b1c1", "i2i4", "a1a2", "e7e8m", "0000"],
    "pgn": [
        '[Event "x"]\n[Site "y"]\n\n1. e4 e5 {c} 2. Nf3 (2. f4 exf4) Nc6 $1 1-0\n',
        '[Variant "Chess960"]\n[FEN "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1"]'
        '\n\n1. d4 d5 2. O-O ; note\n2... O-O 1/2-1/2\n',
        '[Variant "Modern Random Chess"]\n[FEN "rmnbqnkbr/ppppppppp/9/9/9/9/9/PPPPPPPPP/'
        'RBKNQBNMR w IAia - 0 1 ABCDEFGHIabcdefghi"]\n\n1. B=N e7 2. e3 *\n',
        '[Language "es"]\n\n1. e4 e5 2. Cf3 Cc6 3. Ab5 a6 *\n\n1. d4 *\n',
        '[Event "x"]\n\n[Site "y"]\n\n1. e4 *',
        # What python-chess reads and we once refused (issue 36): a % line before the tags,
        # an unclosed tag quote, a dash and a ½ result, evaluation symbols.
        '%x\n[Result "½-½"]\n[Event "a]\n\n1. e4 ⩱ e5 +-- 2. Nf3± ½\u2013½\n\n1. d4 1\u20130\n',
        # Variations 986 deep (9 kB): a RecursionError once ended the stream (issue 36).
        "1. e4 " + "".join(f"( 1. {m} " for m in ("d4", "c4", "Nf3", "Nc3", "b3", "g3", "f4",
                                                 "b4", "a3", "h3") * 98 + ("d4",) * 6)
        + ")" * 986 + " *\n\n1. d4 *\n",
    ],
    "scoresheet": [
        "1. e4 e5 2. Cf3 Cc6 3. Ab5 a6 4. 0-0 1/2-1/2",
        "1.e2-e4 {[%clk 1:59:00]} e7e5 1:58:30 2.Ng1-f3 Nc6 3. Bb5 *",
        "1. e4 e6 2. A=D 14...Tc1 0:75:00 (1:00) ; x\n 1. f3 e5 2. g4 Qh4# 0-1",
        '[Event "x"]\n[FEN "rmnbqnkbr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RBKNQBNMR w IAia - 0 1"]'
        "\n\n1. B=N e7 2. O-O-Oc *",
    ],
    "setup-number": ["518", "0", "959", "8226", "15119", "-1", "RNBQKBNR", "TCADRACT", "1-7",
                     "1,3,5-6", " 42 "],
    "setup-fen": [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w AIai - 0 1",
        "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1",
        "rmnbqnkbr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RBKNQBNMR w IAia - 0 1 ABCDEFGHIabcdefghi",
    ],
}
