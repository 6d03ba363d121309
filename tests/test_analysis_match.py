"""The match runner: time controls, setups, the referee's dead positions, a short real match
and its PGN."""

from __future__ import annotations

import io
import random
import shutil
import sys
from pathlib import Path

import pytest

from randomchess.analysis.match import (
    EngineSpec,
    TimeControl,
    game_pgn,
    random_setup,
    run_match,
)
from randomchess.game import is_dead_position
from randomchess.pgn import read_games
from randomchess.position import Position
from randomchess.variants import get_variant
from uci_support import logging_engine


def test_time_control_parsing() -> None:
    assert TimeControl.parse("40+0.4") == TimeControl(40_000, 400, 0)
    assert TimeControl.parse("movetime=250") == TimeControl(0, 0, 250)
    assert str(TimeControl.parse("10+0.1")) == "10+0.1"


def test_engine_specs() -> None:
    me = EngineSpec.parse("self", {"Skill Level": "3"})
    assert me.command[0] == sys.executable and me.reads_adjustment and not me.fairy
    fairy = EngineSpec.parse("fairy-stockfish")
    assert not fairy.reads_adjustment and fairy.fairy
    assert not EngineSpec.parse("stockfish").fairy
    assert EngineSpec.parse("/opt/x/engine --uci").command == ["/opt/x/engine", "--uci"]


def test_random_setups_are_legal_arrays() -> None:
    rng = random.Random(0)
    mrc = get_variant("mrc")
    for _ in range(20):
        pos = Position(random_setup(mrc, rng, adjustment=True), mrc)
        assert pos.adjust_rights == 3
        assert Position(random_setup(mrc, rng, adjustment=False), mrc).adjust_rights == 0
        Position(random_setup(get_variant("chess960"), rng), "chess960")


def test_referee_dead_positions() -> None:
    # The referee is randomchess.game.Game: these are the material cases it ends a game on.
    assert is_dead_position(Position("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", "chess"))
    assert is_dead_position(Position("4k3/8/8/8/2b5/8/8/4KB2 w - - 0 1", "chess"))
    assert not is_dead_position(Position("4k3/8/8/8/3b4/8/8/4KB2 w - - 0 1", "chess"))
    assert not is_dead_position(Position("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", "chess"))
    assert not is_dead_position(Position("4k4/9/9/9/9/9/9/9/4KM3 w - - 0 1", "mrc"))


def test_short_self_match_writes_readable_pgn() -> None:
    me = EngineSpec.parse("self")
    other = EngineSpec.parse("self", {"Skill Level": "1"})
    other.name = "self-level-1"
    score, records = run_match(me, other, "mrc", 2, TimeControl.parse("movetime=20"),
                               seed=3, adjustment=True, max_plies=12)
    assert score.games == 2 and len(records) == 2
    assert {records[0].white, records[1].white} == {"self", "self-level-1"}
    text = "".join(game_pgn(r, time_control="movetime=20") for r in records)
    games = list(read_games(io.StringIO(text)))
    assert len(games) == 2 and all(g.error is None for g in games)
    for game, rec in zip(games, records, strict=True):
        tags = game.headers
        assert tags["Variant"] == "Modern Random Chess" and tags["SetUp"] == "1"
        assert tags["FEN"] == rec.start_fen and tags["Result"] == rec.result
        assert tags["Termination"] == rec.termination and tags["TimeControl"] == "movetime=20"
        assert game.mainline() == rec.moves


FAIRY = shutil.which("fairy-stockfish") or (
    "/usr/games/fairy-stockfish" if Path("/usr/games/fairy-stockfish").exists() else None
)


@pytest.mark.skipif(FAIRY is None, reason="*** fairy-stockfish not installed "
                    "(apt-get install fairy-stockfish): external-engine match SKIPPED ***")
def test_mrc_match_against_fairy_stockfish_with_adjustments() -> None:
    # Fairy-Stockfish plays MRC as the `mrc` entry of the shipped variants.ini; it cannot play
    # or read a Bishop Adjustment, so after one the runner sends it the position as a FEN
    # (issue 5).
    me = EngineSpec.parse("self", {"Skill Level": "2"})
    fairy = EngineSpec.parse("fairy-stockfish", {"Skill Level": "0"})
    score, records = run_match(me, fairy, "mrc", 2, TimeControl.parse("movetime=30"),
                               seed=11, adjustment=True, max_plies=40)
    assert score.games == 2
    for rec in records:
        pos = Position(rec.start_fen, "mrc")
        for move in rec.moves:  # every move of both engines was legal
            pos.push_legal(pos.parse_uci(move) if isinstance(move, str) else move)


def test_after_an_adjustment_engines_without_the_rule_get_a_plain_fen() -> None:
    # RULES.md §4.9: strip the adjustment field and send the post-swap position as a FEN
    # with only the moves after it; engines that read adjustments get the whole move list.
    from randomchess.analysis.match import _position_command

    mrc = get_variant("mrc")
    start = Position(mrc.setup_fen("RBKNQBNMR"), mrc)
    pos = start.copy(stack=False)
    moves = []
    plain_start = (start.fen(), 0)
    for text in ("e2e4", "e8e6", "b1c1", "c9b7"):
        move = pos.parse_uci(text)
        adjusting = pos.is_adjustment(move)
        pos.push(move)
        moves.append(move)
        if adjusting:
            plain_start = (pos.fen(), len(moves))
    fairy = EngineSpec.parse("fairy-stockfish").reads_adjustment
    ours = EngineSpec.parse("self").reads_adjustment
    command = _position_command(fairy, start, moves, plain_start, mrc)
    after_swap = " ".join(plain_start[0].split()[:6])
    assert command == f"position fen {after_swap} moves c9b7"
    assert len(after_swap.split()) == 6 and "/RKBNQBNMR " in after_swap
    full = _position_command(ours, start, moves, plain_start, mrc)
    assert full == f"position fen {start.fen()} moves e2e4 e8e6 b1c1 c9b7"


def test_a_match_engine_runs_through_the_one_uci_client(tmp_path: Path) -> None:
    """Issue 27, item 4: the match's engines are ``UciClient``s.  Options are set once after
    the handshake, Hash keeps the engine's default, each game sends the variant (our key for
    an engine that reads adjustments) and ``ucinewgame``; ``bestmove`` returns the move and
    the last score."""
    from randomchess.analysis.match import Player
    from randomchess.analysis.uci_client import UciClient

    fake, log = logging_engine(tmp_path, options=(
        "option name Hash type spin default 16 min 1 max 64",
        "option name UCI_Chess960 type check default false"))
    spec = EngineSpec.parse(str(fake), {"Skill Level": "3"})
    player = Player.start(spec)
    try:
        assert isinstance(player.client, UciClient) and player.client.id_name == "logger"
        for _ in range(2):
            player.client.start_game(get_variant("chess960"))
        move, score = player.client.bestmove("position startpos", "go movetime 10", 5)
        assert (move, score) == ("e2e4", "cp 31")
    finally:
        player.close()
    sent = log.read_text().splitlines()
    assert not any(line.startswith("setoption name Hash") for line in sent)
    assert sent.count("setoption name Skill Level value 3") == 1
    assert sent.index("setoption name Skill Level value 3") < sent.index("ucinewgame")
    assert sent.count("setoption name UCI_Variant value chess960") == 2
    assert sent.count("setoption name UCI_Chess960 value true") == 2
    assert sent.count("ucinewgame") == 2
    assert sent[-3:] == ["position startpos", "go movetime 10", "quit"]


def test_fairy_stockfish_is_given_only_our_moves_in_pm_crc(tmp_path: Path) -> None:
    """Fairy-Stockfish 11.1 castles with a gate onto the square the rook lands on (f1h1q
    here: king f1 to g1, rook h1 to f1), which our rules refuse (docs/rules.md D-33); a match
    would score that as an illegal move, so it searches only our legal moves."""
    from randomchess.analysis.match import Player, play_game

    log = tmp_path / "sent.log"
    fake = tmp_path / "fairy-logger"
    fake.write_text(
        "#!/bin/sh\n"
        f"while read line; do\n  echo \"$line\" >> '{log}'\n  case \"$line\" in\n"
        "    uci) echo 'id name fairy-logger'\n"
        "         echo 'option name UCI_Variant type combo default chess var chess var pmcrc'\n"
        "         echo uciok;;\n"
        "    isready) echo readyok;;\n"
        "    go*) echo 'info depth 1 score cp 31 pv h1f1q'; echo 'bestmove h1f1q';;\n"
        "    quit) exit 0;;\n  esac\ndone\n")
    fake.chmod(0o755)
    spec = EngineSpec.parse(str(fake))
    assert spec.fairy and not spec.reads_adjustment
    pmcrc = get_variant("pmcrc")
    fen = "1k6/8/8/8/8/8/8/R4K1R[Qq] w KQ - 0 1"
    ours = {Position(fen, pmcrc).uci(m) for m in Position(fen, pmcrc).legal_moves()}
    white, black = Player.start(spec), Player.start(spec)
    try:
        record = play_game(white, black, fen, pmcrc, TimeControl.parse("movetime=10"),
                           max_plies=1)
    finally:
        white.close()
        black.close()
    assert record.moves and record.termination == "adjudication: move limit"
    (go,) = [line for line in log.read_text().splitlines() if line.startswith("go")]
    assert go.startswith("go movetime 10 searchmoves ")
    assert set(go.split(" searchmoves ")[1].split()) == ours and "f1h1q" not in go
