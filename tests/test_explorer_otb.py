"""Events' over-the-board games in the opening explorer (issue 33: "Its data: every finished
game on the server, OTB games entered in events, and imported PGN collections"): counted under
the source ``otb`` once, corrected games taken out and counted again, results taken back
taken out, by the server's sweep whichever process stored the game, and by the CLI."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from otb_support import final_result, random_game, scoresheet
from randomchess.cli import main
from randomchess.db import schema
from randomchess.explorer.counts import position_key
from randomchess.explorer.store import ExplorerStore
from randomchess.position import Position
from randomchess.server.tournaments import explorer_sweep
from randomchess.startpos import setup_from_fen
from randomchess.tournament import TournamentStore, explorer_feed
from server_support import client

NAMES = ["Ana Pérez", "Bob Smith", "Cid Campeador", "Dan Brown"]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[TournamentStore]:
    s = TournamentStore(f"sqlite:///{tmp_path / 't.sqlite3'}")
    s.migrate()
    yield s
    s.dispose()


def _event(store: TournamentStore) -> str:
    eid = store.create("OTB Open", variant="chess960", rounds=3, salt=bytes(range(32))).event.id
    for i, name in enumerate(NAMES):
        store.add_player(eid, name, 2000 - 10 * i)
    store.start(eid)
    store.pair(eid)
    return eid


def _game(fen: str, plies: int, seed: int) -> list[str]:
    uci = random_game(fen, "chess960", plies, seed=seed)
    while final_result(fen, "chess960", uci, "*") != "*":  # the game must not end by itself
        uci = uci[:-1]
    return uci


def _line(explorer: ExplorerStore, fen: str, uci: list[str]) -> list[dict[str, object]]:
    """The explorer's row of each move of ``uci`` from the position it was played in."""
    number = setup_from_fen(fen, "chess960").number
    pos = Position(fen, "chess960")
    out = []
    for move in uci:
        rows = {r["move"]: r for r in explorer.moves("chess960", number, position_key(pos),
                                                     sources=["otb"])}
        out.append(rows.get(move, {"games": 0}))
        pos.push_uci(move)
    return out


def _otb_games(explorer: ExplorerStore) -> int:
    with explorer.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(schema.explorer_games)
                                .where(schema.explorer_games.c.source == "otb")).scalar_one())


def test_a_finished_game_is_counted_once_and_a_corrected_one_replaces_it(
        store: TournamentStore) -> None:
    eid = _event(store)
    explorer = ExplorerStore(store.engine)
    fen = store.load(eid).board(1, 1).fen
    uci = _game(fen, 16, seed=3)
    store.enter_game(eid, 1, 1, scoresheet(fen, "chess960", uci), result="1-0")
    store.enter_game(eid, 1, 2, scoresheet(fen, "chess960", uci[:4]))  # unfinished: not counted
    assert explorer_feed.sync(store, explorer) == explorer_feed.SyncReport(1, 0, 0)
    line = _line(explorer, fen, uci)
    assert [(r["games"], r["white_wins"], r["black_wins"]) for r in line] == [(1, 1, 0)] * len(uci)
    t = store.load(eid)
    b = t.board(1, 1)
    ratings = {p.number: p.rating for p in t.players}
    names = {p.number: p.name for p in t.players}
    assert line[0]["average_rating"] == (ratings[b.white] + ratings[b.black]) // 2
    # Run again: nothing changed, nothing is counted twice.
    assert explorer_feed.sync(store, explorer) == explorer_feed.SyncReport(0, 0, 0)
    assert [r["games"] for r in _line(explorer, fen, uci)] == [1] * len(uci)
    behind = explorer.games("chess960", setup_from_fen(fen, "chess960").number,
                            position_key(Position(fen, "chess960")), uci[0], sources=["otb"])
    assert [(g["event"], g["white"], g["result"]) for g in behind] == [
        ("OTB Open", names[b.white], "1-0")]

    # The arbiter corrects the game (other moves after the sixth ply, and the result).
    other = uci[:6] + _game_from(fen, uci[:6], seed=11)
    assert other[6:] != uci[6:]
    store.correct(eid, 1, 1, "0-1", "scoresheets checked")
    # The board's corrected result counts at once, with the moves as they were.
    assert explorer_feed.sync(store, explorer).counted == 1
    assert [(r["games"], r["black_wins"]) for r in _line(explorer, fen, uci)] == [(1, 1)] * len(uci)
    store.enter_game(eid, 1, 1, scoresheet(fen, "chess960", other), result="0-1",
                     replace_game=True)
    assert explorer_feed.sync(store, explorer).counted == 1
    assert [(r["games"], r["white_wins"], r["black_wins"]) for r in _line(explorer, fen, other)
            ] == [(1, 0, 1)] * len(other)
    gone = [r["games"] for r, a, b in zip(_line(explorer, fen, uci), uci, other, strict=False)
            if a != b]
    assert gone and set(gone) == {0}  # the old line's first different move is gone
    assert _otb_games(explorer) == 1

    # The board's game replaced by a shorter scoresheet (the board keeps its result).
    store.enter_game(eid, 1, 1, scoresheet(fen, "chess960", other[:8]), replace_game=True)
    assert explorer_feed.sync(store, explorer).counted == 1
    assert [r["games"] for r in _line(explorer, fen, other)] == [1] * 8 + [0] * (len(other) - 8)
    assert _otb_games(explorer) == 1

    # A game that is no longer stored (its row gone) leaves the explorer.
    with store.engine.begin() as conn:
        conn.execute(schema.tournament_games.delete())
    assert explorer_feed.sync(store, explorer) == explorer_feed.SyncReport(0, 1, 0)
    assert [r["games"] for r in _line(explorer, fen, other[:1])] == [0]
    assert _otb_games(explorer) == 0
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(schema.explorer_moves)
                            ).scalar_one() == 0


def _game_from(fen: str, played: list[str], seed: int) -> list[str]:
    """A continuation of ``played`` that differs from the seeded random game's."""
    pos = Position(fen, "chess960")
    for m in played:
        pos.push_uci(m)
    for s in range(seed, seed + 50):
        more = _game(pos.fen(), 10, seed=s)
        if more:
            return more
    raise AssertionError("no continuation found")


def test_the_cli_counts_the_events_games(store: TournamentStore, tmp_path: Path) -> None:
    eid = _event(store)
    fen = store.load(eid).board(1, 2).fen
    uci = _game(fen, 10, seed=5)
    store.enter_game(eid, 1, 2, scoresheet(fen, "chess960", uci), result="1/2-1/2")
    url = str(store.engine.url)
    for lang, words in (("en", "1 counted"), ("es", "0 contadas")):
        result = CliRunner().invoke(main, ["explorer", "events", "--db", url, "--lang", lang])
        assert result.exit_code == 0, result.output
        assert words in result.output
    explorer = ExplorerStore(store.engine)
    assert [r["draws"] for r in _line(explorer, fen, uci)] == [1] * len(uci)


def test_the_servers_sweep_counts_games_stored_by_another_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(explorer_sweep, "SWEEP_S", 0.2)
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with client(url) as cl:
        outside = TournamentStore(url)  # the CLI's store, another process's
        eid = _event(outside)
        t = outside.load(eid)
        fen = t.board(1, 1).fen
        black = t.player(t.board(1, 1).black).name
        number = setup_from_fen(fen, "chess960").number
        uci = _game(fen, 12, seed=9)
        outside.enter_game(eid, 1, 1, scoresheet(fen, "chess960", uci), result="0-1")
        deadline = time.monotonic() + 60
        while True:
            answer = cl.get(f"/api/explorer/chess960/{number}", params={"source": "otb"}).json()
            if answer["moves"]:
                break
            assert time.monotonic() < deadline, "the sweep did not count the game in 60 s"
            time.sleep(0.05)
        assert [(m["uci"], m["games"], m["black_wins"]) for m in answer["moves"]] == [
            (uci[0], 1, 1)]
        assert "otb" in answer["available"]
        games = cl.get(f"/api/explorer/chess960/{number}/games",
                       params={"move": uci[0], "source": "otb"}).json()["games"]
        assert [(g["source"], g["event"], g["black"]) for g in games] == [
            ("otb", "OTB Open", black)]
        outside.dispose()
