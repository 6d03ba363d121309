"""The UCI protocol: a scripted conversation in process, and python-chess as a real client."""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import chess
import chess.engine
import pytest

from randomchess.engine.search import Limits, Searcher
from randomchess.engine.uci import UciServer
from randomchess.position import Position


class Session:
    """A UciServer whose output lines are collected for the test to wait on."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.cond = threading.Condition()
        self.engine = UciServer(write=self._write)

    def _write(self, line: str) -> None:
        with self.cond:
            self.lines.append(line)
            self.cond.notify_all()

    def send(self, *commands: str) -> None:
        for c in commands:
            assert self.engine.handle(c)

    def wait_for(self, prefix: str, timeout: float = 5.0) -> str:
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for i, line in enumerate(self.lines):
                    if line.startswith(prefix):
                        del self.lines[: i + 1]
                        return line
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no {prefix!r} in {self.lines}")
                self.cond.wait(left)

    def bestmove(self, timeout: float = 10.0) -> str:
        return self.wait_for("bestmove", timeout).split()[1]


@pytest.fixture
def session() -> Session:
    return Session()


def test_handshake_lists_the_options(session: Session) -> None:
    session.send("uci")
    assert session.wait_for("id ") == "id name randomchess"
    options = []
    while (line := session.wait_for("")) != "uciok":
        options.append(line)
    joined = "\n".join(options)
    assert "option name UCI_Chess960 type check default false" in joined
    assert "option name UCI_Variant type combo default chess var chess var chess960 " \
           "var fischerandom var modern var mrc" in joined
    assert "option name Hash type spin" in joined
    assert "option name Skill Level type spin default 8 min 1 max 8" in joined
    assert "option name Bishop Adjustment type check default true" in joined
    assert "option name Move Overhead type spin default 40 min 0 max 5000" in joined
    session.send("position startpos", "go movetime 150")
    session.bestmove()
    assert session.engine.searcher.movetime_overhead_ms == 10  # no clock: 10 ms kept back
    session.send("setoption name Move Overhead value 120", "position startpos", "go movetime 150")
    session.bestmove()
    assert session.engine.searcher.move_overhead_ms == 120
    assert session.engine.searcher.movetime_overhead_ms == 120  # the GUI's word counts
    session.send("isready")
    session.wait_for("readyok")


def test_go_depth_gives_info_and_a_legal_bestmove(session: Session) -> None:
    session.send("ucinewgame", "position startpos moves e2e4 e7e5", "go depth 3")
    info = session.wait_for("info depth 3")
    assert " score cp " in info and " nodes " in info and " nps " in info and " pv " in info
    move = session.bestmove()
    pos = Position(variant="chess")
    pos.push_uci("e2e4")
    pos.push_uci("e7e5")
    pos.parse_uci(move)


def test_stop_during_go_infinite_and_isready_answer_at_once(session: Session) -> None:
    session.send("position startpos", "go infinite")
    time.sleep(0.2)
    t0 = time.monotonic()
    session.send("isready")
    session.wait_for("readyok", timeout=1.0)
    assert time.monotonic() - t0 < 1.0
    time.sleep(0.3)
    assert not any(line.startswith("bestmove") for line in session.lines)
    t0 = time.monotonic()
    session.send("stop")
    move = session.bestmove(timeout=2.0)
    assert time.monotonic() - t0 < 1.5
    Position(variant="chess").parse_uci(move)


def test_go_infinite_waits_for_stop_even_when_the_search_ends(session: Session) -> None:
    session.send("position fen 7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", "go infinite")
    time.sleep(0.5)  # mate in 1 is found at once; bestmove must still wait for stop
    assert not any(line.startswith("bestmove") for line in session.lines)
    session.send("stop")
    assert session.bestmove() in ("f7g7", "f7f8", "f7e8", "f7h5", "f7h7")


def test_bad_input_is_reported_and_survived(session: Session) -> None:
    session.send("position startpos moves e2e4")
    session.send("position fen not/a/fen w - - 0 1")
    assert "bad position" in session.wait_for("info string")
    session.send("position startpos moves e2e5")
    assert "illegal move" in session.wait_for("info string")
    session.send("position sideways")
    session.wait_for("info string")
    session.send("frobnicate 3", "go depth nonsense")
    session.wait_for("info string")
    session.send("setoption name UCI_Variant value nosuchvariant")
    session.wait_for("info string")
    session.send("", "   ", "go depth 1")
    # The position from the last good line is kept: after 1.e4 it is Black's move.
    move = session.bestmove()
    pos = Position(variant="chess")
    pos.push_uci("e2e4")
    pos.parse_uci(move)


def test_castling_notation_follows_uci_chess960(session: Session) -> None:
    fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
    session.send(f"position fen {fen} moves e1g1")  # classical mode reads e1g1
    session.send("isready")
    session.wait_for("readyok")
    assert session.engine.position.kings[0] == 6
    session.send(f"position fen {fen} moves e1h1")  # king-takes-rook is read too
    session.send("isready")
    session.wait_for("readyok")
    assert session.engine.position.kings[0] == 6
    session.send("setoption name UCI_Chess960 value true")
    assert session.engine.variant_key() == "chess960"
    # The rook on h1 is attacked; in Chess960 mode every move is written as the GUI expects.
    session.send("position fen 4k3/8/8/8/8/8/6r1/4K2R w K - 0 1", "go depth 2")
    move = session.bestmove()
    Position("4k3/8/8/8/8/8/6r1/4K2R w K - 0 1", "chess960").parse_uci(move)


def test_classical_castling_is_written_e1g1() -> None:
    eng = UciServer(write=lambda line: None)
    pos = Position("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "chess")
    move = pos.parse_uci("e1h1")
    assert pos.uci(move, chess960=eng._output_chess960(pos)) == "e1g1"
    eng.chess960 = True
    assert pos.uci(move, chess960=eng._output_chess960(pos)) == "e1h1"


def test_9x9_positions_moves_promotions_and_adjustments(session: Session) -> None:
    session.send("setoption name UCI_Variant value mrc")
    fen = "rmnbqnkbr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RBKNQBNMR w AIai - 0 1 ABCDEFGHIabcdefghi"
    # b1a1 is the Bishop Adjustment with the rook: bishop square + partner square.
    session.send(f"position fen {fen} moves b1a1 e8e6 i2i4", "go depth 2")
    move = session.bestmove()
    pos = Position(fen, "mrc")
    for text in ("b1a1", "e8e6", "i2i4"):
        pos.push_uci(text)
    pos.parse_uci(move)
    # A pawn about to promote: the minister ('m') is a legal promotion on 9x9.
    session.send("position fen 4k4/P8/9/9/9/9/9/9/4K4 w - - 0 1 moves a8a9m", "isready")
    session.wait_for("readyok")
    assert session.engine.position.board[72] == 7  # White minister on a9
    session.send("position fen 4k4/P8/9/9/9/9/9/9/4K4 w - - 0 1", "go depth 3")
    assert session.bestmove().startswith("a8a9")


def test_skill_level_and_hash_options(session: Session) -> None:
    session.send("setoption name Skill Level value 1", "setoption name Hash value 4")
    assert session.engine.searcher.level == 1
    session.send("position startpos", "go movetime 100")
    Position(variant="chess").parse_uci(session.bestmove())


def test_quit_ends_the_loop(session: Session) -> None:
    session.send("position startpos", "go infinite")
    assert session.engine.handle("quit") is False


# ------------------------------------------------------------------ python-chess client
def _popen() -> chess.engine.SimpleEngine:
    return chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "randomchess", "uci"])


def test_python_chess_plays_a_full_chess960_game() -> None:
    board = chess.Board.from_chess960_pos(314)
    ours = Position(board.fen(), "chess960")
    with _popen() as engine:
        while not board.is_game_over(claim_draw=True) and board.ply() < 160:
            result = engine.play(board, chess.engine.Limit(time=0.02))
            assert result.move is not None and result.move in board.legal_moves
            ours.push_uci(result.move.uci())  # our rules agree it is legal
            board.push(result.move)
    assert board.ply() > 10


def test_python_chess_analyse_and_stop() -> None:
    board = chess.Board("1r4k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1")
    with _popen() as engine:
        info = engine.analyse(board, chess.engine.Limit(depth=5))
        assert info["score"].white() == chess.engine.Mate(2)
        assert info["pv"][0] == chess.Move.from_uci("d2d8")
        with engine.analysis(chess.Board()) as analysis:
            time.sleep(0.3)
            analysis.stop()
            best = analysis.wait()
        assert best.move is not None and best.move in chess.Board().legal_moves
        castle_board = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
        result = engine.play(castle_board, chess.engine.Limit(depth=2))
        assert result.move is not None and result.move in castle_board.legal_moves


# ------------------------------------------------------------------ issue 14: measured defects
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
QUIET_MIDDLEGAME = "r2q1rk1/pb1nbppp/1p2pn2/2ppN3/2PP4/1PN1P1P1/PB3PBP/R2Q1RK1 w - - 0 1"


def _legal_in(fen: str, move: str, variant: str = "chess") -> None:
    Position(fen, variant).parse_uci(move)  # raises on an illegal move


@pytest.mark.parametrize("go", ["go depth x", "go movetime", "go wtime -5 btime abc",
                                "go nodes 1e3", "go depth 2 movetime soon"])
def test_malformed_go_still_answers_a_legal_bestmove(session: Session, go: str) -> None:
    """Issue 14.1: a GUI waits for a bestmove after every go, however it was written."""
    session.send(f"position fen {KIWIPETE}", go)
    assert "go" in session.wait_for("info string")
    _legal_in(KIWIPETE, session.bestmove(timeout=10.0))


def test_stop_right_after_go_infinite_returns_a_completed_depth_one(session: Session) -> None:
    """Issue 14.2: not the first generated move (Kiwipete: e1f1) but a searched one: depth 1
    is completed (and reported) before ``stop`` is honoured."""
    collected: list[str] = []
    session.engine._write_raw = lambda line: (collected.append(line), session._write(line))
    session.send(f"position fen {KIWIPETE}")
    for _ in range(5):
        collected.clear()
        done = threading.Event()

        def go_stop(done: threading.Event = done) -> None:
            session.send("go infinite", "stop")
            done.set()

        threading.Thread(target=go_stop, daemon=True).start()
        assert done.wait(10.0), "stop right after go infinite hung"
        move = session.bestmove(timeout=5.0)
        _legal_in(KIWIPETE, move)
        assert move != "e1f1"
        assert any(line.startswith("info depth 1 ") for line in collected), collected


def test_clock_for_the_other_side_only_still_ends_the_search(session: Session) -> None:
    """Issue 14.3: ``go wtime 1000 winc 0`` with Black to move once searched until stop."""
    fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    session.send(f"position fen {fen}", "go wtime 1000 winc 0")
    _legal_in(fen, session.bestmove(timeout=10.0))


def test_node_limit_is_honoured_and_reported_in_a_final_info(session: Session) -> None:
    """Issue 14.4: ``go nodes N`` stops within a few percent of N and says so in an info."""
    collected: list[str] = []
    session.engine._write_raw = lambda line: (collected.append(line), session._write(line))
    for n in (3000, 20000):
        collected.clear()
        session.send(f"position fen {KIWIPETE}", f"go nodes {n}")
        session.bestmove(timeout=60.0)
        infos = [line for line in collected if line.startswith("info depth")]
        last = infos[-1].split()
        nodes = int(last[last.index("nodes") + 1])
        assert n * 0.95 <= nodes <= n * 1.03, (n, infos[-1])
        assert " pv " in infos[-1] and " time " in infos[-1]


def test_time_limit_ends_with_a_final_info(session: Session) -> None:
    """Issue 14.4: the info after the last completed iteration is not the last word."""
    collected: list[str] = []
    session.engine._write_raw = lambda line: (collected.append(line), session._write(line))
    session.send(f"position fen {KIWIPETE}", "go movetime 300")
    session.bestmove(timeout=10.0)
    infos = [line for line in collected if line.startswith("info depth")]
    last = infos[-1].split()
    spent = int(last[last.index("time") + 1])
    assert spent >= 150  # written when the time ran out, not after an early iteration
    assert collected[-1].startswith("bestmove") and collected[-2] == infos[-1]


def test_depth_one_is_interruptible_and_its_quiescence_bounded() -> None:
    """Issue 14.5: a tiny budget is not overrun by an unbounded depth 1.  Counted in nodes,
    which a loaded machine can only make smaller."""
    pos = Position(QUIET_MIDDLEGAME, "chess")
    full = Searcher().search(pos, Limits(depth=1))
    assert full.nodes < 650  # SEE-pruned quiescence (822 nodes when it searched them all)
    cut = Searcher().search(pos, Limits(movetime=1))
    assert cut.move in pos.legal_moves()
    assert cut.nodes < full.nodes


def test_movetime_10_answers_promptly(session: Session) -> None:
    """Issue 14.5, with a generous 10x bound (bench/engine_bench.py --latency prints the
    real distribution)."""
    session.send(f"position fen {QUIET_MIDDLEGAME}", "isready")
    session.wait_for("readyok")
    spent = []
    for _ in range(5):
        t0 = time.monotonic()
        session.send("go movetime 10")
        _legal_in(QUIET_MIDDLEGAME, session.bestmove())
        spent.append(time.monotonic() - t0)
    assert sorted(spent)[2] < 0.1, spent


# --- issue 36: Maura's Modern chess castles as Fairy-Stockfish writes it -------------------------
MODERN_FEN = "r1bqk1br1/ppp2pp1p/2n3p2/2Mp5/9/P3PP3/6N2/1PPP2PPP/RNB1K3R w IA - 5 12"


def test_modern_castling_reads_both_forms_and_writes_the_kings_step(session: Session) -> None:
    """`UCI_Variant modern` without UCI_Chess960: castling was written e1i1 and e1g1 (what
    Fairy-Stockfish writes there) was refused as illegal."""
    session.send("setoption name UCI_Variant value modern")
    for text in ("e1g1", "e1i1"):
        session.send(f"position fen {MODERN_FEN} moves {text}", "isready")
        session.wait_for("readyok")
        pos = session.engine.position
        assert (pos.kings[0], pos.board[5]) == (6, Position(MODERN_FEN, "modern").board[8])
    pos = Position(MODERN_FEN, "modern")
    castle = pos.parse_uci("e1i1")
    assert pos.parse_uci("e1g1") == castle
    assert pos.uci(castle, chess960=session.engine._output_chess960(pos)) == "e1g1"
    # With UCI_Chess960 on, modern is MRC: king takes rook, and the king's step is not read
    # (in a random array it can be an ordinary king move).
    session.send("setoption name UCI_Chess960 value true")
    assert session.engine.variant_key() == "mrc"
    mrc = Position(MODERN_FEN, "mrc")
    assert mrc.uci(castle, chess960=session.engine._output_chess960(mrc)) == "e1i1"
    session.send(f"position fen {MODERN_FEN} moves e1g1")
    assert "illegal move 'e1g1'" in session.wait_for("info string bad position (mrc)")


FAIRY = shutil.which("fairy-stockfish") or (
    "/usr/games/fairy-stockfish" if Path("/usr/games/fairy-stockfish").exists() else None)


def _fairy_perft(fen: str, chess960: bool) -> set[str]:
    assert FAIRY is not None
    script = ("uci\nsetoption name UCI_Variant value modern\n"
              f"setoption name UCI_Chess960 value {'true' if chess960 else 'false'}\n"
              f"position fen {fen}\ngo perft 1\n")
    proc = subprocess.Popen([FAIRY], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(script)
    proc.stdin.flush()
    moves = set()
    for line in proc.stdout:  # one line per move, then "Nodes searched"
        if line.startswith("Nodes searched"):
            break
        if ": " in line and not line.startswith("info"):
            moves.add(line.split(":")[0].strip())
    proc.stdin.write("quit\n")
    proc.stdin.close()
    proc.wait(timeout=10)
    return moves


@pytest.mark.skipif(FAIRY is None, reason="*** fairy-stockfish not installed "
                    "(apt-get install fairy-stockfish): comparison SKIPPED ***")
@pytest.mark.parametrize("chess960", [False, True])
def test_modern_moves_written_as_fairy_stockfish_writes_them(chess960: bool) -> None:
    """Every legal move, castling both ways included, in the notation our UCI side writes is
    the notation Fairy-Stockfish writes, with UCI_Chess960 off and on."""
    fens = [MODERN_FEN, "r3k3r/9/9/9/9/9/9/9/R3K3R w AIai - 0 1",
            "rnbmkqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w AIai - 0 1"]
    eng = UciServer(write=lambda line: None)
    eng.handle("setoption name UCI_Variant value modern")
    eng.handle(f"setoption name UCI_Chess960 value {'true' if chess960 else 'false'}")
    for fen in fens:
        pos = Position(fen, eng.variant_key())
        ours = {pos.uci(m, chess960=eng._output_chess960(pos)) for m in pos.legal_moves()}
        theirs = _fairy_perft(fen, chess960)
        assert ours == theirs, (fen, ours ^ theirs)
        if fen != fens[-1]:  # castling is legal in these two
            assert ("e1i1" if chess960 else "e1g1") in ours


def test_docs_list_every_uci_option_and_variant() -> None:
    """docs/engine.md listed 5 UCI_Variant values when the engine offered 7 (issue 36): the
    documented options and variant names are the ones the handshake gives."""
    import re

    from randomchess.variants import engine_variant_names

    text = (Path(__file__).parent.parent / "docs" / "engine.md").read_text(encoding="utf-8")
    section = text.split("## UCI", 1)[1].split("\n## ", 1)[0]
    options_line = section.split("\n\n", 2)[1]
    match = re.search(r"`UCI_Variant` \(combo: ([^)]*)\)", options_line)
    assert match is not None, options_line
    documented = [name.strip() for name in match.group(1).replace("\n", " ").split(",")]
    assert documented == list(engine_variant_names())
    lines: list[str] = []
    UciServer(write=lines.append).handle("uci")
    offered = [re.match(r"option name (.+?) type", line) for line in lines]
    names = [m.group(1) for m in offered if m is not None]
    assert names and all(f"`{name}`" in options_line for name in names), names
