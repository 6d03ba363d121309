"""Analysis engines: our own (multi-PV), Stockfish and Fairy-Stockfish over UCI, the shipped
variants.ini, and Bishop Adjustments searched at the root for Fairy-Stockfish (RULES.md §4.9)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from randomchess import Position, get_variant
from randomchess.analysis import (
    AnalysisError,
    EngineConfig,
    EngineUnavailableError,
    Limit,
    OwnEngine,
    Score,
    UciClient,
)
from randomchess.analysis.match import random_setup
from randomchess.analysis.uci_client import parse_info, plain_fen, variants_ini
from uci_support import logging_engine


def _find(name: str) -> str | None:
    path = shutil.which(name) or f"/usr/games/{name}"
    return path if Path(path).exists() else None


STOCKFISH = _find("stockfish")
FAIRY = _find("fairy-stockfish")
needs_sf = pytest.mark.skipif(STOCKFISH is None, reason="*** stockfish not installed "
                              "(apt-get install stockfish): Stockfish analysis SKIPPED ***")
needs_fairy = pytest.mark.skipif(FAIRY is None, reason="*** fairy-stockfish not installed "
                                 "(apt-get install fairy-stockfish): 9x9 analysis SKIPPED ***")

SCHOLAR = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 3"
# B=R (bishop d1 swaps with rook c1, BAR-2) puts the rook on d1: the only mate in one.
ADJUSTMENT_MATE = "2rkr4/2p1p4/9/9/9/9/9/2P6/2RB4K w - - 0 1 CD"


def test_win_percent_is_lichess_model() -> None:
    assert Score(cp=0).win_percent() == pytest.approx(50)
    assert Score(cp=100).win_percent() == pytest.approx(59.1, abs=0.1)
    assert Score(cp=-300).win_percent() == pytest.approx(24.9, abs=0.1)
    assert Score(mate=3).win_percent() == 100 and Score(mate=-1).win_percent() == 0
    assert Score(cp=5000).win_percent() == Score(cp=1000).win_percent()  # clamped like lila


def test_bad_requests_are_typed_errors() -> None:
    with pytest.raises(AnalysisError):
        Limit()
    with pytest.raises(ValueError):
        Limit(depth=-1)
    with pytest.raises(AnalysisError):
        OwnEngine().analyse(Position(), Limit(depth=1), multipv=9)
    with pytest.raises(AnalysisError):
        Score(cp=1, mate=1)


def test_own_engine_multipv_lines_are_distinct_legal_and_sorted() -> None:
    pos = Position(SCHOLAR)
    updates: list[int] = []
    lines = OwnEngine().analyse(pos, Limit(depth=3), multipv=3,
                                on_lines=lambda ls: updates.append(len(ls)))
    assert [ln.multipv for ln in lines] == [1, 2, 3]
    assert lines[0].san[0] == "Qxf7#" and lines[0].score == Score(mate=1)
    firsts = [ln.pv[0] for ln in lines]
    assert len(set(firsts)) == 3
    for ln in lines:
        board = pos.copy()
        for text in ln.pv:
            board.push_uci(text)
    keys = [ln.score.sort_key() for ln in lines]
    assert keys == sorted(keys, reverse=True)
    assert updates and max(updates) == 3


def test_own_engine_finds_the_adjustment_mate() -> None:
    pos = Position(ADJUSTMENT_MATE, "mrc")
    (line,) = OwnEngine().analyse(pos, Limit(depth=3))
    assert pos.is_adjustment(pos.parse_uci(line.pv[0]))
    assert line.score == Score(mate=1)


def test_info_parsing_drops_bounds_and_illegal_moves() -> None:
    pos = Position()
    line = parse_info(pos, "info depth 7 seldepth 9 multipv 2 score cp -31 nodes 100 "
                           "time 5 pv e2e4 e7e5 e1e3")
    assert line is not None and line.multipv == 2 and line.pv == ["e2e4", "e7e5"]
    assert line.score == Score(cp=-31) and line.san == ["e4", "e5"]
    assert parse_info(pos, "info depth 7 score cp 10 lowerbound pv e2e4") is None
    assert parse_info(pos, "info depth 7 score cp 10 pv e2e5") is None
    black = Position("4k3/8/8/8/8/8/8/4K2R b K - 0 1")
    assert parse_info(black, "info depth 3 score mate -2 pv e8d7").score == Score(mate=2)


def test_missing_engine_has_a_message_in_both_languages(tmp_path: Path) -> None:
    config = EngineConfig(paths={})
    with pytest.raises(EngineUnavailableError) as err:
        config.open("stockfish", "chess")
    assert "apt-get install stockfish" in err.value.message("en")
    assert "no está instalado" in err.value.message("es")
    with pytest.raises(EngineUnavailableError):
        config.open("nonsense", "chess")
    with pytest.raises(EngineUnavailableError) as bad:
        EngineConfig.detect([f"stockfish={tmp_path / 'nothing'}"])
    assert "no es un archivo ejecutable" in bad.value.message("es")
    assert isinstance(config.open("auto", "mrc"), OwnEngine)


@needs_sf
def test_stockfish_multipv_and_configured_path() -> None:
    assert STOCKFISH is not None
    config = EngineConfig.detect([f"stockfish={STOCKFISH}"])
    engine = config.open("stockfish", "chess")
    try:
        assert "Stockfish" in engine.id_name  # type: ignore[attr-defined]
        lines = engine.analyse(Position(SCHOLAR), Limit(depth=8), multipv=2)
        assert lines[0].san == ["Qxf7#"] and lines[0].score == Score(mate=1)
        assert lines[1].pv[0] != "h5f7"
        with pytest.raises(EngineUnavailableError):
            config.open("stockfish", "mrc")
        # Chess960 castling comes back as king-takes-rook and is legal here.
        v = get_variant("chess960")
        pos = Position(random_setup(v, random.Random(4)), v)
        (line,) = engine.analyse(pos, Limit(depth=6))
        board = pos.copy()
        for text in line.pv:
            board.push_uci(text)
    finally:
        engine.close()


@needs_fairy
def test_shipped_variants_ini_loads_and_every_entry_plays_legally() -> None:
    assert FAIRY is not None and variants_ini().is_file()
    engine = UciClient("fairy-stockfish", [FAIRY], fairy=True)
    try:
        assert {"mrc", "pseudo-mrc", "chess8400", "pmrc", "crc", "pmcrc",
                "ifrc"} <= engine.variant_names
        rng = random.Random(7)
        for key in ("modern", "mrc", "pseudo-mrc", "chess8400", "pmrc", "crc", "ifrc"):
            v = get_variant(key)
            assert engine.supports(key)
            fen = v.start_fen if v.fixed_rank else random_setup(v, rng)
            pos = Position(fen, v)
            for _ in range(6):  # a few plies each, checked by the rules core
                lines = engine.analyse(pos, Limit(depth=5), multipv=2)
                assert lines, (key, pos.fen())
                pos.push_uci(lines[0].pv[0])
    finally:
        engine.close()


# PM-CRC (docs/rules.md D-31): only the queen gated on a1 as the knight leaves mates along
# the long diagonal (the rook holds the g-file); no castling, so no square a castling leaves
# occupied, where Fairy-Stockfish 11.1's gating differs from ours (tests/test_pmcrc.py).
GATING_MATE = "7k/7p/8/8/8/8/6R1/N3K3[Q] w A - 0 1"
PMCRC_START = "rnbkmbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKBNR[Qq] w KQBCDFGkqbcefg - 0 1"  # No. 911


@needs_fairy
def test_fairy_stockfish_analyses_pm_crc_and_finds_the_mate_by_gating() -> None:
    assert FAIRY is not None
    engine = UciClient("fairy-stockfish", [FAIRY], fairy=True)
    try:
        assert "pmcrc" in engine.variant_names and engine.supports("pmcrc")
        pos = Position(GATING_MATE, "pmcrc")
        lines = engine.analyse(pos, Limit(depth=6), multipv=2)
        best = pos.parse_uci(lines[0].pv[0])  # checked by the rules core
        assert pos.is_gating(best) and lines[0].score == Score(mate=1), lines
        assert lines[0].san[0] in ("Nb3/Q#", "Nc2/Q#")
        assert len(lines) == 2 and lines[1].pv[0] != lines[0].pv[0]
        pos.push(best)
        assert pos.is_checkmate()
        # From a drawn setup (no Bishop Adjustment: the array's castlings leave both squares
        # empty), a few plies of the engine's best moves, each one legal here.
        start = Position(PMCRC_START, "pmcrc")
        for _ in range(6):
            lines = engine.analyse(start, Limit(depth=5), multipv=3)
            assert lines, start.fen()
            start.push_uci(lines[0].pv[0])
    finally:
        engine.close()


@needs_fairy
def test_fairy_stockfish_finds_a_winning_adjustment_at_the_root() -> None:
    assert FAIRY is not None
    engine = UciClient("fairy-stockfish", [FAIRY], fairy=True)
    try:
        pos = Position(ADJUSTMENT_MATE, "mrc")
        lines = engine.analyse(pos, Limit(depth=6), multipv=2)
        best = pos.parse_uci(lines[0].pv[0])
        assert pos.is_adjustment(best) and lines[0].score == Score(mate=1)
        pos.push(best)
        assert pos.is_checkmate()
    finally:
        engine.close()


@needs_fairy
def test_fairy_stockfish_move_is_always_legal_with_adjustment_rights() -> None:
    assert FAIRY is not None
    engine = UciClient("fairy-stockfish", [FAIRY], fairy=True)
    v = get_variant("mrc")
    rng = random.Random(11)
    try:
        for _ in range(3):
            pos = Position(random_setup(v, rng, adjustment=True), v)
            assert any(pos.is_adjustment(m) for m in pos.legal_moves())
            for _ in range(4):
                lines = engine.analyse(pos, Limit(depth=4), multipv=3)
                for line in lines:
                    board = pos.copy()
                    for text in line.pv[:1]:
                        board.push_uci(text)  # raises if illegal
                pos.push_uci(lines[0].pv[0])
    finally:
        engine.close()


@needs_sf
def test_a_killed_engine_process_is_restarted_on_the_next_request() -> None:
    assert STOCKFISH is not None
    engine = UciClient("stockfish", [STOCKFISH])
    try:
        assert engine.analyse(Position(), Limit(depth=3))
        assert engine._proc is not None
        engine._proc.kill()
        engine._proc.wait()
        (line,) = engine.analyse(Position(SCHOLAR), Limit(depth=4))
        assert line.san == ["Qxf7#"]
    finally:
        engine.close()


def test_an_engine_that_never_answers_is_a_typed_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "mute-engine"
    fake.write_text("#!/bin/sh\nwhile read line; do\n  case \"$line\" in\n"
                    "    uci) echo 'id name mute'; echo uciok;;\n"
                    "    isready) echo readyok;;\n  esac\ndone\n")
    fake.chmod(0o755)
    import randomchess.analysis.uci_client as ue

    monkeypatch.setattr(ue, "NO_ANSWER_GRACE", 0.2)
    monkeypatch.setattr(ue, "STOP_GRACE", 0.2)
    engine = UciClient("mute", [str(fake)])
    try:
        assert engine.id_name == "mute"
        with pytest.raises(AnalysisError, match="no answer"):
            engine.analyse(Position(), Limit(movetime=10))
        assert engine._proc is None  # killed; the next request starts it again
    finally:
        engine.close()


def test_an_engine_that_reads_adjustments_searches_them_itself(tmp_path: Path) -> None:
    """The one UCI client (issue 27, item 4) also runs our own engine: one that reads the
    Bishop Adjustment gets the whole FEN and one search; one that does not gets the six
    standard fields, plus a search after each legal adjustment at the root (RULES.md §4.9)."""
    fake, log = logging_engine(tmp_path, variants=("chess", "mrc"))
    v = get_variant("mrc")
    pos = Position(random_setup(v, random.Random(5), adjustment=True), v)
    adjustments = [m for m in pos.legal_moves() if pos.is_adjustment(m)]
    assert adjustments
    for reads, searches, fen in ((True, 1, pos.fen()),
                                 (False, 1 + len(adjustments), plain_fen(pos))):
        log.write_text("")
        # Without the rule it is Fairy-Stockfish-like: variants.ini's ``mrc`` entry.
        engine = UciClient("logger", [str(fake)], reads_adjustment=reads, fairy=not reads)
        try:
            assert engine.engine_variant(v) == "mrc"
            assert engine.supports("capablanca") == reads  # ours knows every variant's key
            lines = engine.analyse(pos, Limit(depth=2), multipv=1)
        finally:
            engine.close()
        sent = log.read_text().splitlines()
        assert sum(line.startswith("go") for line in sent) == searches
        assert f"position fen {fen}" in sent
        assert lines and lines[0].score.for_mover(pos.turn) >= 31


# PM-CRC positions where Fairy-Stockfish 11.1 has castling gates the rules core refuses
# (docs/rules.md D-33): the king f1 and the rook h1 castle O-Og onto each other's squares,
# so only the rook's square h1 is left empty; the engine also gates on f1 (``f1h1q``), deleting
# the rook that lands there and keeping its value in its evaluation (docs/analysis.md).
CASTLING_ONTO_GATE = "1k6/8/8/8/8/8/8/R4K1R[Qq] w KQ - 0 1"
# Found by bench/pmcrc_fsf_levels.py: at depth 7 Fairy-Stockfish's best line starts with
# f1e1q (O-Og leaves the rook on f1 and gates on it), at depth 8 its third line.
FSF_PREFERS_A_REFUSED_GATE = ("n1rkbbrm/pppp2pp/n3pp2/8/8/4P1P1/PPPPNP1P/MRBBKR1N[Qq] w "
                              "KQACDHkqaefh - 2 4")


def test_an_engine_with_gating_is_told_to_search_only_the_moves_our_rules_allow(
        tmp_path: Path) -> None:
    fake, log = logging_engine(tmp_path, variants=("mrc", "pmcrc"), move="h1f1q")
    pos = Position(CASTLING_ONTO_GATE, "pmcrc")
    ours = {pos.uci(m) for m in pos.legal_moves()}
    assert "h1f1q" in ours and "f1h1q" not in ours
    mrc = random_setup(get_variant("mrc"), random.Random(5), adjustment=False)
    for key, fen, searchmoves in (("pmcrc", CASTLING_ONTO_GATE, ours), ("mrc", mrc, None)):
        log.write_text("")
        engine = UciClient("logger", [str(fake)], fairy=True)
        try:
            engine.analyse(Position(fen, key), Limit(depth=2))
        finally:
            engine.close()
        (go,) = [line for line in log.read_text().splitlines() if line.startswith("go")]
        if searchmoves is None:  # no hand: the engine's moves are ours (perft-checked)
            assert "searchmoves" not in go
        else:
            assert go.startswith("go depth 2 searchmoves ")
            assert set(go.split(" searchmoves ")[1].split()) == searchmoves


@needs_fairy
def test_pm_crc_analysis_lines_are_all_of_the_last_depth_and_legal() -> None:
    """Fairy-Stockfish would start a line with a castling gate we refuse; such a line used to
    be dropped, leaving an older depth's line in its place (docs/analysis.md)."""
    assert FAIRY is not None
    engine = UciClient("fairy-stockfish", [FAIRY], fairy=True)
    try:
        for fen in (FSF_PREFERS_A_REFUSED_GATE, CASTLING_ONTO_GATE):
            pos = Position(fen, "pmcrc")
            lines = engine.analyse(pos, Limit(depth=8), multipv=3)
            assert len(lines) == 3 and {ln.depth for ln in lines} == {8}, lines
            assert len({ln.pv[0] for ln in lines}) == 3
            for line in lines:
                board = pos.copy(stack=False)
                for text in line.pv:
                    board.push_uci(text)  # every move legal by the rules core
    finally:
        engine.close()
