"""Prime Ministers Contemporary Random Chess (docs/rules.md D-31..D-36): CRC with the minister
in the array and the queen in hand, entering by gating.  Perft and FEN against
Fairy-Stockfish's seirawan gating (tests/data/variants.ini, ``[pmcrc:seirawan]``) where the
rules coincide, and hand-checked cases for the rest."""

from __future__ import annotations

import random
import subprocess

import pytest

from fsf_support import FSF, INI, fsf_perft, random_walks
from randomchess import Position, get_variant, parse_san, push_san, san
from randomchess.engine.evaluate import incremental_weights
from randomchess.engine.search import Limits, Searcher
from randomchess.engine.uci import UciServer
from randomchess.errors import FenError, IllegalMoveError
from randomchess.game import Game
from randomchess.pgn import parse_game, write_game
from randomchess.server.games.variants_routes import variant_info
from randomchess.startpos import (
    CRC_SETUPS,
    SetupPool,
    draw_random,
    setup_from_number,
    setup_from_rank,
)

PMCRC = get_variant("pmcrc")


def _fsf_agrees(rank: str) -> bool:
    """Arrays whose castlings always vacate both the king's and the rook's square: where
    one of them lands on the other's square (or stays), Fairy-Stockfish 11.1 still gates
    there and deletes the piece standing on it; we gate only on an empty square (D-33)."""
    king = rank.index("K")
    rooks = [i for i, c in enumerate(rank) if c == "R"]
    return king not in (1, 2, 5, 6) and rooks[0] not in (1, 2) and rooks[1] not in (5, 6)


AGREED = [n for n in range(CRC_SETUPS) if _fsf_agrees(setup_from_number(PMCRC, n).rank)]


def start(number: int) -> Position:
    # Fairy-Stockfish knows no Bishop Adjustment: compare the arrays without the right.
    return Position(PMCRC.setup_fen(setup_from_number(PMCRC, number).rank, adjustment=False),
                    PMCRC)


def fsf_fens(start_fen: str, lines: list[list[str]]) -> list[str]:
    """Fairy-Stockfish's FEN after each line of UCI moves from ``start_fen``."""
    commands = ["uci", f"setoption name VariantPath value {INI}",
                "setoption name UCI_Variant value pmcrc",
                "setoption name UCI_Chess960 value true"]
    for moves in lines:
        commands += [f"position fen {start_fen} moves {' '.join(moves)}", "d"]
    commands.append("quit")
    out = subprocess.run([FSF], input="\n".join(commands) + "\n", capture_output=True,
                         text=True, timeout=600, check=True).stdout
    fens = [line[5:].strip() for line in out.splitlines() if line.startswith("Fen: ")]
    assert len(fens) == len(lines), out[-2000:]
    return fens


def test_the_variant_and_its_start() -> None:
    assert get_variant("PM-CRC") is PMCRC
    assert PMCRC.army == "RNBMKBNR" and PMCRC.hand == "Q" and PMCRC.has_gating
    fen = PMCRC.setup_fen("RNBMKBNR")
    assert fen == "rnbkmbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKBNR[Qq] w KQBCDFGkqbcefg - 0 1"
    pos = Position(fen, PMCRC)
    assert pos.fen() == fen
    assert pos.fen(shredder=True) == \
        "rnbkmbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKBNR[Qq] w HABCDEFGhabcdefg - 0 1"
    assert Position(pos.fen(shredder=True), PMCRC).fen() == fen
    # 16 pawn moves, 6 knight and minister moves, each also with the queen gated behind it.
    moves = [pos.uci(m) for m in pos.legal_moves()]
    assert len(moves) == 28
    assert {m for m in moves if m.endswith("q")} == {
        "b1a3q", "b1c3q", "d1c3q", "d1e3q", "g1f3q", "g1h3q"}
    # Drawn and numbered as CRC's arrays, the minister in the queen's place.
    assert setup_from_rank(PMCRC, "RNBMKBNR").number == 911
    assert setup_from_number(PMCRC, 0).rank == "BBMNNRKR"
    assert sum(1 for _ in PMCRC.setups()) == 1680


@pytest.mark.parametrize("number", [911, AGREED[0]])
def test_start_perft_depth4_matches_fairy_stockfish(number: int) -> None:
    pos = start(number)
    assert [pos.perft(4)] == fsf_perft("pmcrc", [pos.fen(shredder=True)], 4)
    if number == 911:  # RNBMKBNR (docs/rules.md)
        assert [pos.perft(d) for d in (1, 2, 3, 4)] == [28, 784, 24116, 738372]


def test_start_perft_depth3_matches_fairy_stockfish() -> None:
    positions = [start(n) for n in random.Random(31).sample(AGREED, 8)]
    fens = [p.fen(shredder=True) for p in positions]
    assert [p.perft(3) for p in positions] == fsf_perft("pmcrc", fens, 3), fens


def test_random_positions_perft_depth3_matches_fairy_stockfish() -> None:
    positions = [*random_walks(lambda i: start(AGREED[i]), len(AGREED), 8, (2, 8), seed=35),
                 *random_walks(lambda i: start(AGREED[i]), len(AGREED), 8, (8, 40), seed=36)]
    assert sum(1 for p in positions if any(p.hand)) >= 4  # gating still possible in some
    fens = [p.fen(shredder=True) for p in positions]
    assert [p.perft(3) for p in positions] == fsf_perft("pmcrc", fens, 3), fens


def test_fen_after_gating_lines_matches_fairy_stockfish() -> None:
    # Random games that gate often: Fairy-Stockfish's FEN (hand, gate files) after each.
    rng = random.Random(3531)
    number = rng.choice(AGREED)
    lines: list[list[str]] = []
    ours: list[str] = []
    for _ in range(12):
        pos = start(number)
        moves: list[str] = []
        for _ in range(rng.randrange(2, 24)):
            legal = pos.legal_moves()
            if not legal:
                break
            gating = [m for m in legal if pos.is_gating(m)]
            move = rng.choice(gating if gating and rng.random() < 0.3 else legal)
            moves.append(pos.uci(move))
            pos.push(move)
        lines.append(moves)
        ours.append(pos.fen(shredder=True))
    theirs = fsf_fens(start(number).fen(shredder=True), lines)
    # Fairy-Stockfish 11.1 writes a castling rook's file once more among the gate files;
    # read back, its FENs are ours.  pyffish (a newer Fairy-Stockfish) writes ours exactly.
    assert [Position(f, PMCRC).fen(shredder=True) for f in theirs] == ours
    assert any("[]" in f or "[q]" in f or "[Q]" in f for f in ours)  # some gated


def test_fen_after_gating_games_is_pyffishs_exactly() -> None:
    # pyffish (a newer Fairy-Stockfish than the Debian binary) writes the seirawan FEN as we
    # do: the hand, castling letters, then the other gate files, the king's included.
    import pyffish

    pyffish.load_variant_config(INI.read_text(encoding="utf-8"))
    rng = random.Random(4135)
    for _ in range(30):
        pos = start(rng.choice(AGREED))
        first = pos.fen(shredder=True)
        moves: list[str] = []
        for _ in range(rng.randrange(1, 30)):
            legal = pos.legal_moves()
            if not legal:
                break
            gating = [m for m in legal if pos.is_gating(m)]
            move = rng.choice(gating if gating and rng.random() < 0.3 else legal)
            moves.append(pos.uci(move))
            pos.push(move)
        assert pyffish.get_fen("pmcrc", first, moves, True) == pos.fen(shredder=True), moves


def test_legal_moves_on_every_kind_of_array_are_pyffishs() -> None:
    # Any array, those where a castling leaves a square occupied included (D-33): pyffish
    # refuses those gates as we do (the Debian binary does not, hence AGREED above).
    import pyffish

    pyffish.load_variant_config(INI.read_text(encoding="utf-8"))
    rng = random.Random(935)
    for number in (*rng.sample(range(CRC_SETUPS), 40), 1270):
        pos = start(number)
        first = pos.fen(shredder=True)
        moves: list[str] = []
        for _ in range(rng.randrange(0, 20)):
            legal = pos.legal_moves()
            assert sorted(pos.uci(m) for m in legal) == sorted(
                pyffish.legal_moves("pmcrc", first, moves, True)), pos.fen(shredder=True)
            if not legal:
                break
            castles = [m for m in legal if pos.is_castling(m)]
            move = rng.choice(castles if castles and rng.random() < 0.5 else legal)
            moves.append(pos.uci(move))
            pos.push(move)
    swap = Position("4k3/8/8/8/8/8/8/5KR1[Q] w FG - 0 1", PMCRC)
    assert sorted(swap.uci(m) for m in swap.legal_moves()) == sorted(
        pyffish.legal_moves("pmcrc", swap.fen(shredder=True), [], True))


# ------------------------------------------------------------------- hand-checked cases
def test_gating_places_the_queen_and_ends_that_sides_gating() -> None:
    pos = Position(PMCRC.setup_fen("RNBMKBNR"), PMCRC)
    move = pos.parse_uci("b1c3q")
    assert pos.is_gating(move) and pos.gate_square(move) == pos.geometry.parse_square("b1")
    assert san(pos, move) == "Nc3/Q" and san(pos, move, "es") == "Cc3/D"
    pos.push(move)
    assert pos.fen() == "rnbkmbnr/pppppppp/8/8/8/2N5/PPPPPPPP/RQBMKBNR[q] b KQkqbcefg - 1 1"
    push_san(pos, "e5")
    assert not any(pos.is_gating(m) for m in pos.legal_moves())  # nothing left in hand
    pos.pop()
    pos.pop()
    assert pos.fen() == PMCRC.setup_fen("RNBMKBNR")


def test_no_gate_after_the_square_was_left_once() -> None:
    pos = Position(PMCRC.setup_fen("RNBMKBNR"), PMCRC)
    for text in ("Nc3", "Nc6", "Nb1", "Nb8"):
        push_san(pos, text)
    assert pos.fen() == "rnbkmbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKBNR[Qq] w KQCDFGkqcefg - 4 3"
    gated_from = {pos.geometry.name(m.from_square) for m in pos.legal_moves()
                  if pos.is_gating(m)}
    assert gated_from == {"d1", "g1"}
    with pytest.raises(IllegalMoveError):
        pos.parse_uci("b1c3q")


def test_the_authors_notation_is_read_and_the_seirawan_form_written() -> None:
    pos = Position(PMCRC.setup_fen("RNBMKBNR"), PMCRC)
    push_san(pos, "e4")
    push_san(pos, "e5")
    move = parse_san(pos, "Mc3(Qd1)")  # the author's "2.Mc3(Qd1)"
    assert move == pos.parse_uci("d1c3q") == parse_san(pos, "Mc3/Q")
    assert parse_san(pos, "Mc3(Dd1)", "es") == move == parse_san(pos, "Mc3/D", None)
    assert san(pos, move) == "Mc3/Q"
    with pytest.raises(IllegalMoveError):
        parse_san(pos, "Mc3(Qe1)")  # the gate is the square the minister leaves


def test_castling_gates_on_the_kings_or_the_rooks_square() -> None:
    pos = Position("1k6/8/8/8/8/8/8/R3K2R[Q] w KQ - 0 1", PMCRC)
    king_gate, rook_gate = pos.parse_uci("e1h1q"), pos.parse_uci("h1e1q")
    assert san(pos, king_gate) == "O-Og/Qe1" and san(pos, rook_gate) == "O-Og/Qh1"
    assert san(pos, pos.parse_uci("e1a1q"), "es") == "O-Ob/De1"
    assert parse_san(pos, "O-Og/Qh1") == rook_gate and parse_san(pos, "O-O/Qe1") == king_gate
    assert pos.is_castling(king_gate) and pos.is_castling(rook_gate)
    after = pos.copy()
    after.push(king_gate)
    assert after.fen() == "1k6/8/8/8/8/8/8/R3QRK1[] b - - 1 1"
    after = pos.copy()
    after.push(rook_gate)
    assert after.fen() == "1k6/8/8/8/8/8/8/R4RKQ[] b - - 1 1"
    # Castling without a gate keeps the queen and the a1 rook's gate.
    push_san(pos, "O-Og")
    assert pos.fen() == "1k6/8/8/8/8/8/8/R4RK1[Q] b A - 1 1"


def test_castling_gates_only_on_a_square_left_empty() -> None:
    # King f1, rook g1: O-Og trades their squares, so neither is left empty (D-33); the
    # king already on b1: O-Ob moves only the rook, so only a1 can take the queen.
    pos = Position("4k3/8/8/8/8/8/8/5KR1[Q] w FG - 0 1", PMCRC)
    assert pos.parse_uci("f1g1") in pos.legal_moves()
    assert not [m for m in pos.legal_moves() if pos.is_castling(m) and m.promotion]
    pos = Position("4k3/8/8/8/8/8/8/RK5R[Q] w KQ - 0 1", PMCRC)
    gates = sorted(pos.uci(m) for m in pos.legal_moves() if pos.is_castling(m) and m.promotion)
    assert gates == ["a1b1q", "b1h1q", "h1b1q"]


def test_a_pinned_piece_or_checked_king_gets_no_help_from_the_gate() -> None:
    # Seirawan's ruling (D-34): the move must be legal without the gated piece.
    pos = Position("4k3/8/8/8/8/8/8/2KN2r1[Q] w CD - 0 1", PMCRC)
    assert not [m for m in pos.legal_moves() if m.from_square == pos.geometry.parse_square("d1")]
    pos = Position("4k3/8/8/8/8/8/8/r3K3[Q] w E - 0 1", PMCRC)
    assert "e1f1q" not in {pos.uci(m) for m in pos.legal_moves()}
    # Out of check by a gating king move off the line.
    assert "e1e2q" in {pos.uci(m) for m in pos.legal_moves()}


def test_check_by_the_gated_queen() -> None:
    pos = Position("3k4/8/8/8/8/8/8/1K1N4[Q] w D - 0 1", PMCRC)
    move = pos.parse_uci("d1e3q")
    assert pos.gives_check(move) and san(pos, move) == "Ne3/Q+"
    assert not pos.gives_check(pos.parse_uci("d1e3"))


def test_capture_on_a_gate_square_removes_the_gate() -> None:
    pos = Position("4k3/8/8/8/8/8/5n2/R3K1NR[Q] w KQG - 0 1", PMCRC)
    pos.push_uci("e1d2")  # the king leaves without gating: e1's gate and castling go
    assert pos.fen() == "4k3/8/8/8/8/8/3K1n2/R5NR[Q] b AGH - 1 1"
    pos.push_uci("f2h1")  # the knight takes the unmoved rook on its square
    assert pos.fen() == "4k3/8/8/8/8/8/3K4/R5Nn[Q] w AG - 0 2"


def test_promotion_in_pm_crc() -> None:
    # Promotion to any piece of the army or the hand, whatever is still in hand (D-35);
    # a pawn's move never gates.
    pos = Position("4k3/1P6/8/8/8/8/8/4K1N1[Q] w G - 0 1", PMCRC)
    promotions = sorted(pos.uci(m) for m in pos.legal_moves() if m.from_square ==
                        pos.geometry.parse_square("b7"))
    assert promotions == ["b7b8b", "b7b8m", "b7b8n", "b7b8q", "b7b8r"]
    push_san(pos, "b8=Q+")
    assert pos.fen() == "1Q2k3/8/8/8/8/8/8/4K1N1[Q] b G - 0 1"


def test_the_bishop_adjustment_is_no_chance_to_gate() -> None:
    # D-36: no square is emptied, and both pieces count as moved: their gates go.
    fen = PMCRC.setup_fen("RBKNMBNR")
    assert fen.endswith(" ABCDEFGHabcdefgh")
    pos = Position(fen, PMCRC)
    adjust = pos.parse_uci("b1c1")
    assert pos.is_adjustment(adjust)
    assert not any(m.promotion for m in pos.legal_moves() if pos.is_adjustment(m))
    pos.push(adjust)
    assert pos.fen() == (
        "rnbmnkbr/pppppppp/8/8/8/8/PPPPPPPP/RKBNMBNR[Qq] b ADEFGHkqbcdeg - 1 1 abcdefgh")


def test_repetition_key_and_hash_follow_the_hand_and_gates() -> None:
    pos = Position(PMCRC.setup_fen("RNBMKBNR"), PMCRC)
    before = pos.key()
    for text in ("Nc3", "Nc6", "Nb1", "Nb8"):
        push_san(pos, text)
    assert pos.board == Position(PMCRC.setup_fen("RNBMKBNR"), PMCRC).board
    assert pos.key() != before  # b1 and b8 can no longer gate
    rng = random.Random(7)
    for _ in range(40):
        legal = pos.legal_moves()
        if not legal:
            break
        pos.push(rng.choice(legal))
        assert pos.zobrist == pos._full_zobrist()


def test_fen_errors() -> None:
    with pytest.raises(FenError, match="no pieces in hand"):
        Position("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1", get_variant("crc"))
    with pytest.raises(FenError, match="nothing in hand"):
        Position("4k3/8/8/8/8/8/8/4KN2[] w F - 0 1", PMCRC)
    with pytest.raises(FenError, match="not a piece"):
        Position("4k3/8/8/8/8/8/8/4K3[R] w - - 0 1", PMCRC)
    with pytest.raises(FenError, match="gating letter"):
        Position("4k3/8/8/8/8/8/8/4K3[Q] w D - 0 1", PMCRC)
    assert Position("4k3/8/8/8/8/8/8/4K3 w - - 0 1", PMCRC).fen() == \
        "4k3/8/8/8/8/8/8/4K3[] w - - 0 1"


# ------------------------------------------------------------------- usable everywhere
def test_pgn_round_trip_and_the_authors_form() -> None:
    game = Game(PMCRC.setup_fen("RNBMKBNR"), PMCRC)
    for text in ("e2e4", "e7e5", "d1c3q", "b8c6q"):
        game.push_uci(text)
    for lang in ("en", "es"):
        pgn = write_game(game, lang=lang)
        assert ("2. Mc3/Q Nc6/Q" if lang == "en" else "2. Mc3/D Cc6/D") in pgn
        assert '[Variant "Prime Ministers Contemporary Random Chess"]' in pgn
        read = parse_game(pgn)
        assert read.variant is PMCRC and read.mainline() == game.moves
    author = parse_game(
        '[Variant "PM-CRC"]\n[SetUp "1"]\n'
        '[FEN "rnbkmbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKBNR[Qq] w KQBCDFGkqbcefg - 0 1"]\n\n'
        "1.e4 e5 2.Mc3(Qd1) Nc6(Qb8) (2...Nf6/Q) *\n")
    assert author.mainline() == game.moves and author.moves[3].variations
    assert author.end_position().fen() == game.position.fen()


def test_the_engine_mates_by_gating() -> None:
    # Only the gated queen on a1 mates along the long diagonal (the rook holds the g-file).
    pos = Position("7k/7p/8/8/8/8/6R1/N3K3[Q] w A - 0 1", PMCRC)
    result = Searcher(seed=1).search(pos, Limits(depth=3))
    assert result.move is not None and pos.is_gating(result.move)
    assert san(pos, result.move) in ("Nb3/Q#", "Nc2/Q#")


def test_uci_plays_pm_crc() -> None:
    lines: list[str] = []
    engine = UciServer(write=lines.append)
    engine.handle("uci")
    assert any(" var pmcrc" in line for line in lines if line.startswith("option name UCI_Variant"))
    engine.handle("setoption name UCI_Variant value pmcrc")
    engine.handle("position startpos moves e2e4 e7e5 d1c3q")
    assert engine.position.fen() == \
        "rnbkmbnr/pppp1ppp/8/4p3/4P3/2M5/PPPP1PPP/RNBQKBNR[q] b KQkqbcefg - 1 2"


def test_api_serves_the_hand_and_the_shuffler_draws_like_crc() -> None:
    info = variant_info(PMCRC)
    assert info.hand == ["q"] and "q" in [p.letter for p in info.pieces]
    assert info.setup.numbering == "pm-crc" and info.setup.count == 1680
    assert info.default_fen == PMCRC.setup_fen("RNBMKBNR")
    assert variant_info(get_variant("crc")).hand == []
    assert len(SetupPool(PMCRC, "same")) == 720
    drawn = draw_random(SetupPool(PMCRC), 5)
    assert all(PMCRC.is_setup(s.rank) and "M" in s.rank and "Q" not in s.rank for s in drawn)


def test_a_captured_gated_queen_does_not_return_to_the_hand() -> None:
    pos = Position("3k4/8/8/8/8/8/3q4/4KN2[Q] w EF - 0 1", PMCRC)
    # Out of check by a gating capture: the knight takes the checker, the queen enters f1.
    assert pos.is_check() and "f1d2q" in {pos.uci(m) for m in pos.legal_moves()}
    pos = Position("3k1r2/8/8/8/8/8/8/4KN2[Q] w EF - 0 1", PMCRC)
    push_san(pos, "Ng3/Q")  # the queen enters f1, where the f8 rook takes it
    push_san(pos, "Rxf1+")
    assert pos.fen() == "3k4/8/8/8/8/6N1/8/4Kr2[] w - - 0 2"
    assert not any(pos.is_gating(m) for m in pos.legal_moves())


def test_the_engines_incremental_weights_follow_the_gated_piece() -> None:
    weights = incremental_weights(PMCRC)
    rng = random.Random(31)
    for _ in range(10):
        pos = Position(PMCRC.setup_fen(setup_from_number(PMCRC, rng.randrange(1680)).rank),
                       PMCRC)
        pos.track_weights(weights)
        for _ in range(30):
            legal = pos.legal_moves()
            if not legal:
                break
            gating = [m for m in legal if pos.is_gating(m)]
            pos.push(rng.choice(gating if gating and rng.random() < 0.5 else legal))
            assert pos.weight == sum(weights[p][sq] for sq, p in enumerate(pos.board) if p)
        while pos.move_stack:
            pos.pop()
        assert pos.weight == sum(weights[p][sq] for sq, p in enumerate(pos.board) if p)
