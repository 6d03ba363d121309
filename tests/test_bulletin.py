"""The event's bulletin (issue 31, part 3): a finished 5-round event played over the board,
its games typed in English and Spanish, written as PGN that python-chess (8x8) and our reader
(9x9) read back game for game, and as one HTML page that makes no request."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.pgn
import pytest
from click.testing import CliRunner

from otb_support import random_game, scoresheet
from randomchess import Position
from randomchess.cli import main
from randomchess.pgn import read_games
from randomchess.tournament import TournamentStore
from randomchess.tournament.bulletin import bulletin_html
from randomchess.tournament.export import game_records, pgn
from web_support import ARTIFACTS, launched_browser, skip_without_browser

PLAYERS = ["Ana Pérez", "Bob Smith", "Cid Díaz", "Dan Brown", "Eva Luna", "Fay Wong"]


@pytest.fixture(scope="module")
def events(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TournamentStore,
                                                                       dict[str, str]]]:
    db = tmp_path_factory.mktemp("bulletin") / "t.sqlite3"
    store = TournamentStore(f"sqlite:///{db}")
    store.migrate()
    ids = {v: _finished_event(store, v) for v in ("chess960", "mrc")}
    yield store, ids
    store.dispose()


def _finished_event(store: TournamentStore, variant: str) -> str:
    """A round robin of six players (five rounds), every game entered from its scoresheet
    (odd boards in Spanish, by hand; even in English), one forfeit."""
    eid = store.create(f"Bulletin {variant}", variant=variant, system="rr",
                       salt=bytes(range(32))).event.id
    for i, name in enumerate(PLAYERS):
        store.add_player(eid, name, 2100 - 20 * i)
    store.start(eid)
    rng = random.Random(variant)
    for rnd in range(1, 6):
        store.pair(eid)
        for b in store.load(eid).round_boards(rnd):
            if b.is_bye:
                continue
            if (rnd, b.board) == (2, 2):
                store.set_result(eid, rnd, b.board, "+-")
                continue
            uci = random_game(b.fen, variant, rng.randint(30, 90), seed=rng.randrange(10**6))
            spanish = b.board % 2 == 1
            text = scoresheet(b.fen, variant, uci, "es" if spanish else "en", paper=spanish)
            pos = Position(b.fen, variant)
            for u in uci:
                pos.push_uci(u)
            result = None if not pos.legal_moves() else rng.choice(["1-0", "0-1", "1/2"])
            store.enter_game(eid, rnd, b.board, text, result=result)
    store.close(eid)
    return eid


def _stored(store: TournamentStore, eid: str) -> dict[tuple[str, str], list[str]]:
    t = store.load(eid)
    return {(str(r), str(b)): list(g.moves) for (r, b), g in store.otb_games(eid).items()
            if t.board(r, b).result is not None}


def test_the_chess960_bulletin_reads_back_in_python_chess(events: tuple) -> None:
    store, ids = events
    eid = ids["chess960"]
    t = store.load(eid)
    text = pgn(t, store.online_moves, otb_games=store.otb_games(eid))
    stored = _stored(store, eid)
    handle = io.StringIO(text)
    seen = {}
    while (game := chess.pgn.read_game(handle)) is not None:
        assert not game.errors, game.errors
        h = game.headers
        key = (h["Round"], h["Board"])
        b = t.board(int(h["Round"]), int(h["Board"]))
        assert h["Event"] == "Bulletin chess960" and h["Variant"] == "Chess960"
        assert h["White"] == t.player(b.white).name and h["Result"] == b.result
        assert h["SetupNumber"] == str(b.setup) and h["Mode"] == "OTB"
        if b.setup != 518:
            assert h["SetUp"] == "1" and h["FEN"] == b.fen
        assert [m.uci() for m in game.mainline_moves()] == stored[key]
        assert game.next() is None or game.next().clock() is None  # no clocks were typed
        end = game.end().board()
        if end.is_checkmate():
            assert h["Result"] == ("0-1" if end.turn == chess.WHITE else "1-0")
        seen[key] = True
    assert set(seen) == set(stored) and len(seen) == 14  # 15 games, one forfeit


def test_the_mrc_bulletin_reads_back_in_our_reader(events: tuple) -> None:
    store, ids = events
    eid = ids["mrc"]
    t = store.load(eid)
    stored = _stored(store, eid)
    games = list(read_games(io.StringIO(pgn(t, store.online_moves,
                                            otb_games=store.otb_games(eid)))))
    assert len(games) == len(stored) == 14
    for game in games:
        assert game.error is None
        h = game.headers
        b = t.board(int(h["Round"]), int(h["Board"]))
        assert game.variant.key == "mrc" and h["Variant"] == "Modern Random Chess"
        assert h["FEN"] == b.fen and h["SetupNumber"] == h["MRCId"] == str(b.setup)
        assert (h["White"], h["Result"]) == (t.player(b.white).name, b.result)
        pos = game.start_position()
        uci = []
        for m in game.mainline():
            uci.append(pos.uci(m))
            pos.push(m)
        assert uci == stored[(h["Round"], h["Board"])]


def test_clock_times_and_unfinished_games_reach_the_pgn(tmp_path: Path) -> None:
    store = TournamentStore(f"sqlite:///{tmp_path / 't.sqlite3'}")
    store.migrate()
    eid = store.create("Clocks", variant="chess960", rounds=1, salt=bytes(32)).event.id
    for name in PLAYERS[:2]:
        store.add_player(eid, name)
    store.start(eid)
    store.pair(eid)
    b = store.load(eid).board(1, 1)
    uci = random_game(b.fen, "chess960", 4, seed=9)
    words = scoresheet(b.fen, "chess960", uci).split()
    timed = " ".join(w if w.endswith(".") else f"{w} 1:{59 - i}:00"
                     for i, w in enumerate(words))
    store.enter_game(eid, 1, 1, timed)
    game = chess.pgn.read_game(io.StringIO(pgn(store.load(eid),
                                               otb_games=store.otb_games(eid))))
    assert game is not None and game.headers["Result"] == "*"
    clocks = [node.clock() for node in game.mainline()]
    assert len(clocks) == 4 and all(c is not None and 6000 < c < 7200 for c in clocks)
    store.dispose()


_URL = re.compile(r"(?i)(https?:|//[a-z0-9]|\bsrc=|\bhref=\"(?!#)|url\(|@import|<link|<iframe)")


@pytest.mark.parametrize("variant", ["chess960", "mrc"])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_html_bulletin_is_one_page_with_no_request(events: tuple, variant: str,
                                                       lang: str) -> None:
    store, ids = events
    eid = ids[variant]
    t = store.load(eid)
    page = bulletin_html(t, game_records(t, store.online_moves, store.otb_games(eid)),
                         lang)  # type: ignore[arg-type]
    assert _URL.findall(page) == []
    assert page.count('<section class="game"') == 14
    assert page.count("<svg") >= 5  # each round's setup diagram
    for p in t.players:
        assert p.name in page
    assert ("Cuadro de cruces" if lang == "es" else "Crosstable") in page


def test_the_cli_writes_the_bulletin(events: tuple, tmp_path: Path) -> None:
    store, ids = events
    out = tmp_path / "bulletin.html"
    r = CliRunner().invoke(main, ["tournament", "--db", str(store.engine.url), "--lang", "es",
                                  "export", ids["mrc"], "--format", "bulletin", "-o",
                                  str(out)])
    assert r.exit_code == 0, r.output
    assert "Boletín" in out.read_text(encoding="utf-8")


@skip_without_browser
def test_the_saved_bulletin_steps_through_a_game_offline(events: tuple,
                                                         tmp_path: Path) -> None:
    store, ids = events
    eid = ids["mrc"]
    t = store.load(eid)
    path = tmp_path / "bulletin.html"
    path.write_text(bulletin_html(t, game_records(t, None, store.otb_games(eid)), "es"),
                    encoding="utf-8")
    requests: list[str] = []
    with launched_browser() as browser:
        ctx = browser.new_context(offline=True, viewport={"width": 900, "height": 900})
        page = ctx.new_page()
        page.on("request", lambda r: requests.append(r.url))
        page.goto(path.as_uri())
        game = page.locator("section.game").first
        board = game.locator(".board")
        last = int(board.get_attribute("data-ply") or "-1")
        assert last > 0 and board.locator(".sq").count() == 81
        game.locator("button.first").click()
        page.wait_for_function("document.querySelector('section.game .board')"
                               ".dataset.ply === '0'")
        assert board.locator(".pc").count() == 36  # the setup: 18 men a side
        assert board.locator(".pc.w").first.inner_text() in "RDTACMP"  # Spanish letters
        game.locator("button.next").click()
        page.wait_for_function("document.querySelector('section.game .board')"
                               ".dataset.ply === '1'")
        game.locator(".mv").nth(last - 1).click()
        page.wait_for_function("document.querySelector('section.game .board')"
                               f".dataset.ply === '{last}'")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "bulletin.png"))
        ctx.close()
    assert requests == [path.as_uri()]


def test_an_online_games_engine_review_becomes_comments(tmp_path: Path) -> None:
    import json

    from sqlalchemy import insert

    from randomchess.analysis.core import Score
    from randomchess.analysis.review import PlyReview, Review
    from randomchess.db import schema

    store = TournamentStore(f"sqlite:///{tmp_path / 't.sqlite3'}")
    store.migrate()
    eid = store.create("Reviewed", variant="chess960", rounds=1, salt=bytes(32)).event.id
    for name in PLAYERS[:2]:
        store.add_player(eid, name)
    store.start(eid)
    store.pair(eid)
    store.link_game(eid, 1, 1, "g1")
    store.set_result(eid, 1, 1, "0-1")
    b = store.load(eid).board(1, 1)
    uci = random_game(b.fen, "chess960", 2, seed=3)
    review = Review("ownengine", 8, 100, Score(cp=20), [
        PlyReview(1, "?", uci[0], Score(cp=-250), 30.0, 20.0, 40.0, "blunder", uci[0], "?",
                  [], []),
        PlyReview(2, "?", uci[1], Score(cp=-240), 31.0, 0.0, 99.0)], (40.0, 99.0))
    with store.engine.begin() as conn:
        conn.execute(insert(schema.game_reviews).values(
            game_id="g1", engine="ownengine", depth=8, movetime=100, moves=" ".join(uci),
            review=json.dumps(review.as_dict()), created_at=0))
    text = pgn(store.load(eid), lambda gid: (b.fen, uci) if gid == "g1" else None,
               review_of=store.review_of)
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and game.headers["Mode"] == "ICS"
    assert game.headers["Annotator"] == "ownengine"
    first = game.next()
    assert first is not None and first.eval() is not None
    assert first.eval().white().score() == -250 and 4 in first.nags  # ?? blunder
    assert store.review_of("nope") is None
    store.dispose()
