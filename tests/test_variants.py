"""Variants are data (RULES.md §5): the related members of the family run on the same move
generator, and their setups, symmetry and castling squares come from their entries alone.
Pseudo-MRC and Chess8400 are checked against pyffish ``modern`` (which reads any 9x9 FEN);
PMRC (9x8) against a pyffish variant defined from its rules in RULES.md §5."""

from __future__ import annotations

import pyffish
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import all_setups
from randomchess import VARIANTS, Position, UnknownVariantError, get_variant

PMRC_CONFIG = """
[pmrc-check:chess]
maxRank = 8
maxFile = 9
archbishop = m
startFen = rnbqkmnbr/ppppppppp/9/9/9/9/PPPPPPPPP/RNBQKMNBR w KQkq - 0 1
promotionPieceTypes = qmrbn
castlingKingsideFile = h
castlingQueensideFile = b
"""




@pytest.mark.parametrize(
    ("key", "count"),
    [("chess960", 960), ("mrc", 15120), ("pseudo-mrc", 15120), ("chess8400", 8400),
     ("pmrc", 8400)],
)
def test_setup_counts(key: str, count: int) -> None:
    assert len(all_setups(key)) == count


def test_symmetry_and_geometry() -> None:
    rank = "RBKNQBNMR"
    assert get_variant("mrc").setup_fen(rank).split("/")[0] == "rmnbqnkbr"  # point reflection
    assert get_variant("pseudo-mrc").setup_fen(rank).split("/")[0] == "rbknqbnmr"  # direct
    pmrc = get_variant("pmrc")
    fen = pmrc.setup_fen("RNBQKMNBR")
    assert fen == "rnbqkmnbr/ppppppppp/9/9/9/9/PPPPPPPPP/RNBQKMNBR w IAia - 0 1"
    assert pmrc.geometry.size == 72 and pmrc.geometry.name(71) == "i8"
    assert Position(fen, pmrc).perft(1) == 24
    # a1 dark on every board: on 9x8 the right-hand corners differ in colour (RULES.md §5).
    g = pmrc.geometry
    assert g.is_dark(g.parse_square("a1")) and g.is_dark(g.parse_square("i1"))
    assert not g.is_dark(g.parse_square("a8"))


def test_pmrc_castles_to_b_and_h() -> None:
    pos = Position("r3k3r/9/9/9/9/9/9/R3K3R w IAia - 0 1", "pmrc")
    a_side, h_side = pos.copy(), pos.copy()
    a_side.push_uci("e1a1")
    h_side.push_uci("e1i1")
    assert a_side.fen().split()[0].endswith("/1KR5R")
    assert h_side.fen().split()[0].endswith("/R5RK1")


def test_unknown_variant() -> None:
    with pytest.raises(UnknownVariantError, match="unknown variant 'crazyhouse'"):
        get_variant("crazyhouse")
    assert get_variant("Fischer Random").key == "chess960"
    assert get_variant("Modern Random Chess").key == "mrc"


def _playout_against_pyffish(data: st.DataObject, key: str, oracle: str) -> None:
    v = get_variant(key)
    pos = Position(v.setup_fen(data.draw(st.sampled_from(all_setups(key)))), v)
    for _ in range(data.draw(st.integers(0, 50))):
        fen = " ".join(pos.fen(shredder=True).split()[:6])
        ours = sorted(pos.uci(m) for m in pos.legal_moves() if not pos.is_adjustment(m))
        assert ours == sorted(pyffish.legal_moves(oracle, fen, [], True)), fen
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(data.draw(st.sampled_from(moves)))


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_pseudo_mrc_and_chess8400_match_pyffish(data: st.DataObject) -> None:
    _playout_against_pyffish(data, data.draw(st.sampled_from(["pseudo-mrc", "chess8400"])),
                             "modern")


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_pmrc_matches_pyffish(data: st.DataObject) -> None:
    pyffish.load_variant_config(PMRC_CONFIG)
    _playout_against_pyffish(data, "pmrc", "pmrc-check")


def _pyffish_perft(oracle: str, fen: str, depth: int) -> int:
    moves = pyffish.legal_moves(oracle, fen, [], True)
    if depth == 1:
        return len(moves)
    return sum(_pyffish_perft(oracle, pyffish.get_fen(oracle, fen, [m], True), depth - 1)
               for m in moves)


def _without_idle_ep(oracle_fen: str, pos: Position) -> str:
    """Fairy-Stockfish names the en passant square after a double step next to an enemy
    pawn even when no legal capture exists; we write it only when one does (D-23). The
    legal-move comparison already checks that the capture is absent in both."""
    fields = oracle_fen.split(" ")
    if fields[3] != "-" and not any(pos.is_en_passant(m) for m in pos.legal_moves()):
        fields[3] = "-"
    return " ".join(fields)


def _capablanca_playout(data: st.DataObject, key: str) -> None:
    """Along a random playout: the legal moves and the position after each move equal
    Fairy-Stockfish's; at the end, perft 2 equals pyffish's."""
    v = get_variant(key)
    pos = Position(v.setup_fen(data.draw(st.sampled_from(all_setups(key)), label="setup")), v)
    for _ in range(data.draw(st.integers(0, 60), label="plies")):
        fen = pos.fen(shredder=True)
        ours = sorted(pos.uci(m, chess960=True) for m in pos.legal_moves())
        assert ours == sorted(pyffish.legal_moves(key, fen, [], True)), fen
        if not ours:
            break
        text = data.draw(st.sampled_from(ours), label="move")
        pos.push(pos.parse_uci(text))
        assert _without_idle_ep(pyffish.get_fen(key, fen, [text], True), pos) == pos.fen(
            shredder=True)
    fen = pos.fen(shredder=True)
    assert pos.perft(2) == _pyffish_perft(key, fen, 2), fen


@settings(max_examples=15, deadline=None)
@given(st.data())
def test_capablanca_matches_pyffish(data: st.DataObject) -> None:
    _capablanca_playout(data, "capablanca")


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_capablanca_random_matches_pyffish(data: st.DataObject) -> None:
    _capablanca_playout(data, "caparandom")


def test_capablanca_start_perft_and_castling() -> None:
    # Perft of the standard array against pyffish, and castling onto c1 / i1 (the king
    # moves three files, docs/rules.md), written f1i1 in classical UCI as Fairy-Stockfish.
    v = get_variant("capablanca")
    pos = Position(variant=v)
    assert pos.perft(3) == _pyffish_perft("capablanca", v.start_fen, 3) == 25228
    pos = Position("r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1", v)
    castle = pos.parse_uci("f1i1")
    assert pos.is_castling(castle) and pos.uci(castle) == "f1i1"
    assert pos.uci(castle, chess960=True) == "f1j1"
    pos.push(castle)
    assert pos.fen() == "r4k3r/10/10/10/10/10/10/R6RK1 b kq - 1 1"


def test_capablanca_random_setups() -> None:
    # 48,000 arrays: king between the rooks, bishops and queen/archbishop on opposite
    # colours (docs/rules.md); Capablanca's own array has Q and A on one colour.
    v = get_variant("caparandom")
    assert len(all_setups("caparandom")) == 48000
    assert not v.is_setup("RNABQKBCNR") and v.is_setup("RNBQCKABNR")


@pytest.mark.parametrize(("chess960", "key"), [("false", "capablanca"), ("true", "caparandom")])
def test_capablanca_is_playable_against_the_engine(chess960: str, key: str) -> None:
    from test_uci import Session

    session = Session()
    session.send("setoption name UCI_Variant value capablanca",
                 f"setoption name UCI_Chess960 value {chess960}",
                 "position startpos moves e2e4", "go depth 2")
    move = session.bestmove()
    v = get_variant(key)
    pos = Position(v.default_fen, v)
    pos.push_uci("e2e4")
    pos.parse_uci(move)  # legal, in the variant's own UCI castling form


def test_engine_answers_legally_in_capablanca_random_positions() -> None:
    import random

    from randomchess.analysis.match import random_setup
    from randomchess.engine.search import Limits, Searcher

    rng = random.Random(10)
    v = get_variant("caparandom")
    searcher = Searcher(seed=1)
    for _ in range(6):
        pos = Position(random_setup(v, rng), v)
        for _ in range(rng.randrange(0, 30)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
        if pos.legal_moves():
            assert searcher.search(pos, Limits(nodes=300)).move in pos.legal_moves()


def test_a_contradictory_entry_is_refused_when_built() -> None:
    from dataclasses import replace

    from randomchess.pieces import KING
    from randomchess.variants import VariantDefinitionError

    capa = get_variant("capablanca")
    for changes, why in (
        ({"piece_values": capa.piece_values[:-1]}, "no engine value for archbishop"),
        ({"castle_h": (8, 6)}, "adjacent files"),
        ({"fixed_rank": "KNABQRBCNR"}, "breaks the setup rules"),  # king outside
        ({"army": "RNABQKBCNRR"}, "army"),
        ({"promotions": (KING,)}, "promotions"),
        ({"fixed_rank": None, "random_version": None}, "startpos_rank"),
        ({"adjustment_partners": frozenset({1})}, "adjustment"),  # a pawn partner
    ):
        with pytest.raises(VariantDefinitionError, match=why):
            replace(capa, **changes)


@pytest.mark.parametrize("key", list(VARIANTS))
def test_numbering_in_the_entry_agrees_with_startpos(key: str) -> None:
    # Variant.numbering drives the draw CLI and the API; startpos.py implements the numbers.
    from randomchess.startpos import SetupNumberError, numbered_variant, setup_count

    v = get_variant(key)
    if v.numbering is None:
        with pytest.raises(SetupNumberError):
            numbered_variant(v)
    elif v.independent_sides:  # all_setups lists every array for White (not every pair)
        assert setup_count(v) == len({s.split("/")[0] for s in all_setups(key)}) ** 2
    else:
        assert setup_count(v) == len(all_setups(key))


def test_a_lone_bishop_can_mate_against_an_archbishop_not_a_chancellor() -> None:
    # The archbishop moves as the minister, so it can block a flight square the way the
    # minister does (FIDE 6.9 via RULES.md §1.4): Ka8 Ab8 against Kb6 Bb7 is mate.  An
    # exhaustive search of K+B against K+C on 10x8 finds no mate, as with a rook.
    from randomchess.game import can_checkmate
    from randomchess.pieces import WHITE

    mate = Position("10/10/10/10/10/1K8/1B8/ka8 b - - 0 1", "capablanca")
    assert mate.is_checkmate()
    assert can_checkmate(Position("ka8/10/1K8/10/10/10/10/6B3 w - - 0 1", "capablanca"), WHITE)
    assert not can_checkmate(Position("kc8/10/1K8/10/10/10/10/6B3 w - - 0 1", "capablanca"),
                             WHITE)


@pytest.mark.parametrize("key", ["capablanca", "caparandom"])
def test_capablanca_match_against_fairy_stockfish(key: str) -> None:
    # The runner names the variant as Fairy-Stockfish does (Variant.uci_name, UCI_Chess960
    # for the random one); every move of both engines is legal here, and the PGN reads back.
    import io
    import shutil

    from randomchess.analysis.match import EngineSpec, TimeControl, game_pgn, run_match
    from randomchess.pgn import read_games

    if shutil.which("fairy-stockfish") is None and not shutil.which(
            "/usr/games/fairy-stockfish"):
        pytest.skip("*** fairy-stockfish not installed: Capablanca match SKIPPED ***")
    me = EngineSpec.parse("self", {"Skill Level": "2"})
    fairy = EngineSpec.parse("fairy-stockfish", {"Skill Level": "0"})
    score, records = run_match(me, fairy, key, 2, TimeControl.parse("movetime=30"), seed=5,
                               max_plies=40)
    assert score.games == 2
    for rec in records:
        pos = Position(rec.start_fen, key)
        for move in rec.moves:
            pos.push_legal(move)
        game = next(iter(read_games(io.StringIO(game_pgn(rec)))))
        assert game.error is None and game.variant.key == key and game.mainline() == rec.moves
