"""Over-the-board games in events (issue 31, part 2): a board's scoresheet stored after it
is checked, replaced only on request, a round's PGN file matched to its boards, the CLI and
the organiser's route."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from otb_support import final_result, random_game, scoresheet
from randomchess.cli import main
from randomchess.server.tournaments import reviews as otb_reviews
from randomchess.server.tournaments.live import LiveFrame
from randomchess.tournament import GameEntryError, GameExistsError, TournamentStore, otb
from randomchess.tournament.model import Tournament
from server_support import client

NAMES = ["Ana Pérez", "Bob Smith", "Cid Campeador", "Dan Brown", "Eva Luna"]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[TournamentStore]:
    s = TournamentStore(f"sqlite:///{tmp_path / 't.sqlite3'}")
    s.migrate()
    yield s
    s.dispose()


def _event(store: TournamentStore, variant: str = "chess960", players: int = 5) -> str:
    # a fixed salt: the same setups, so the same random games, in every run
    eid = store.create("OTB Open", variant=variant, rounds=3, salt=bytes(range(32))).event.id
    for i, name in enumerate(NAMES[:players]):
        store.add_player(eid, name, 2000 - 10 * i)
    store.start(eid)
    store.pair(eid)
    return eid


def _state(store: TournamentStore, eid: str) -> tuple[Tournament, object]:
    t = store.load(eid)
    return t.boards, store.otb_games(eid)  # type: ignore[return-value]


def test_a_game_typed_in_spanish_is_stored_and_finished_later(store: TournamentStore) -> None:
    eid = _event(store)
    b = store.load(eid).board(1, 1)
    uci = random_game(b.fen, "chess960", 30, seed=1)
    half = scoresheet(b.fen, "chess960", uci[:20], "es", paper=True)
    g = store.enter_game(eid, 1, 1, half)
    assert (g.moves, g.result, g.lang) == (tuple(uci[:20]), "*", "es")
    assert store.load(eid).board(1, 1).result is None  # unfinished: no result yet
    before = _state(store, eid)
    with pytest.raises(GameExistsError) as info:
        store.enter_game(eid, 1, 1, scoresheet(b.fen, "chess960", uci, "en"), result="1-0")
    assert "replace" in str(info.value) and "sustituirla" in info.value.localized("es")
    assert _state(store, eid) == before  # nothing changed
    g = store.enter_game(eid, 1, 1, scoresheet(b.fen, "chess960", uci, "en") + " 1-0",
                         replace_game=True)
    assert (g.moves, g.result, g.lang) == (tuple(uci), "1-0", "en")
    assert store.load(eid).board(1, 1).result == "1-0"
    assert [e.action for e in store.load(eid).log][-2:] == ["result", "game-replace"]


def test_a_bad_move_is_refused_naming_board_ply_and_token(store: TournamentStore) -> None:
    eid = _event(store)
    b = store.load(eid).board(1, 2)
    uci = random_game(b.fen, "chess960", 12, seed=2)
    words = scoresheet(b.fen, "chess960", uci, "es").split()
    words[-1] = "Xa9"  # ply 12: no such piece letter, no such square
    before = _state(store, eid)
    with pytest.raises(GameEntryError) as info:
        store.enter_game(eid, 1, 2, " ".join(words))
    e = info.value
    assert (e.round, e.board, e.ply, e.number, e.token, e.kind) == (1, 2, 12, 6, "Xa9",
                                                                     "piece_letter")
    assert str(e).startswith("round 1, board 2: 6...Xa9: 'X' is not a piece letter in Spanish")
    assert e.localized("es").startswith("ronda 1, tablero 2: 6...Xa9: 'X' no es una letra")
    assert _state(store, eid) == before


def test_wrong_setup_variant_bye_and_result_are_refused(store: TournamentStore) -> None:
    eid = _event(store)
    t = store.load(eid)
    b = t.board(1, 1)
    bye = next(x for x in t.round_boards(1) if x.is_bye)
    moves = scoresheet(b.fen, "chess960", random_game(b.fen, "chess960", 6, seed=3))
    cases = [
        ("setup", 1, '[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]\n\n'
         "1. e4"),
        ("variant", 1, '[Variant "Modern Random Chess"]\n\n' + moves),
        ("bye", bye.board, moves),
    ]
    for kind, board, text in cases:
        with pytest.raises(GameEntryError) as info:
            store.enter_game(eid, 1, board, text)
        assert info.value.kind == kind
    store.set_result(eid, 1, 1, "0-1")
    with pytest.raises(GameEntryError) as info:
        store.enter_game(eid, 1, 1, moves, result="1-0")
    assert info.value.kind == "result"
    with pytest.raises(GameEntryError) as info:
        store.enter_game(eid, 1, 1, moves + " 1-0")  # the sheet against the board's 0-1
    assert info.value.kind == "result"
    assert store.otb_games(eid) == {}
    store.set_result(eid, 1, 2, "+-")
    with pytest.raises(GameEntryError) as info:
        store.enter_game(eid, 1, 2, moves)
    assert info.value.kind == "forfeit"


def _round_file(store: TournamentStore, eid: str, rnd: int) -> tuple[str, dict[int, list[str]]]:
    t = store.load(eid)
    games, played = [], {}
    for b in t.round_boards(rnd):
        if b.black is None:
            continue
        uci = random_game(b.fen, "chess960", 16, seed=b.board)
        played[b.board] = uci
        result = final_result(b.fen, "chess960", uci, "1/2-1/2")
        white, black = t.player(b.white).name, t.player(b.black).name
        if b.board == 1:  # "Surname, Name" without accents
            white = ", ".join(reversed(white.split())).replace("é", "e")
        games.append(f'[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n'
                     f'[FEN "{b.fen}"]\n\n{scoresheet(b.fen, "chess960", uci, "es")} {result}\n')
    games.append('[White "Nobody"]\n[Black "Someone"]\n[Result "*"]\n\n1. e4 *\n')
    return "\n".join(games), played


def test_a_rounds_pgn_file_is_matched_by_names_and_reports_the_rest(
        store: TournamentStore) -> None:
    eid = _event(store)
    text, played = _round_file(store, eid, 1)
    report = store.import_round(eid, 1, text)
    assert {g.board: list(g.moves) for g in report.entered} == played
    assert [(u.index, u.white) for u in report.unmatched] == [(3, "Nobody")]
    assert "no board of round 1 has Nobody - Someone" in report.unmatched[0].reason_en
    assert report.missing == []
    assert all(store.load(eid).board(1, n).result is not None for n in played)
    again = store.import_round(eid, 1, text)  # the same file twice: refused, kept
    assert again.entered == [] and {e.kind for _, e in again.refused} == {"exists"}
    with pytest.raises(GameEntryError) as info:
        store.import_round(eid, 1, "this is not a PGN file")
    assert info.value.kind == "not_pgn"


def test_colours_the_other_way_round_match_nothing(store: TournamentStore) -> None:
    eid = _event(store)
    t = store.load(eid)
    b = t.board(1, 1)
    assert b.black is not None
    text = (f'[White "{t.player(b.black).name}"]\n[Black "{t.player(b.white).name}"]\n\n'
            "1. e4 *\n")
    report = store.import_round(eid, 1, text)
    assert report.entered == [] and report.missing == [1, 2]
    assert "colours the other way round" in report.unmatched[0].reason_en


def test_the_cli_enters_a_game_from_a_file_or_stdin_and_imports_a_round(
        store: TournamentStore, tmp_path: Path) -> None:
    eid = _event(store)
    db = str(store.engine.url)
    b = store.load(eid).board(1, 1)
    uci = random_game(b.fen, "chess960", 20, seed=4)
    sheet = tmp_path / "game.txt"
    sheet.write_text(scoresheet(b.fen, "chess960", uci, "es", paper=True), encoding="utf-8")
    run = CliRunner().invoke
    r = run(main, ["tournament", "--db", db, "--lang", "es", "game", eid, "1", "1",
                   "--file", str(sheet)])
    assert r.exit_code == 0, r.output
    assert "Ronda 1 tablero 1: 20 medias jugadas introducidas, resultado *" in r.output
    r = run(main, ["tournament", "--db", db, "game", eid, "1", "1"], input="1. e4")
    assert r.exit_code == 1 and "has its game already" in r.output
    bad = scoresheet(b.fen, "chess960", uci[:3], "en").rsplit(" ", 1)[0] + " Qa9"
    r = run(main, ["tournament", "--db", db, "game", eid, "1", "1", "--replace"], input=bad)
    assert r.exit_code == 1 and "round 1, board 1: 2.Qa9" in r.output
    assert store.otb_games(eid)[(1, 1)].moves == tuple(uci)
    text, _ = _round_file(store, eid, 1)
    (tmp_path / "round1.pgn").write_text(text, encoding="utf-8")
    r = run(main, ["tournament", "--db", db, "import-pgn", eid, "1",
                   str(tmp_path / "round1.pgn")])
    assert r.exit_code == 1, r.output  # one game matched nothing, board 1 had its game
    assert "Round 1: 1 game(s) entered" in r.output
    assert "game 3 (Nobody - Someone) matches no board" in r.output
    assert "game 1" in r.output and "has its game already" in r.output


@pytest.fixture
def c(tmp_path: Path) -> Iterator[TestClient]:
    with client(f"sqlite:///{tmp_path / 'games.sqlite3'}") as cl:
        yield cl


def _paired(c: TestClient, name: str, variant: str = "chess960"
            ) -> tuple[str, dict[str, str], list[dict[str, Any]]]:
    """A one-round event of four players made through the API, started and paired: its id,
    the organiser's header and round 1's boards."""
    r = c.post("/api/tournaments", json={"name": name, "rounds": 1, "variant": variant})
    eid, auth = r.json()["id"], {"X-Organiser-Secret": r.json()["organiser_secret"]}
    for player in NAMES[:4]:
        c.post(f"/api/tournaments/{eid}/players", json={"name": player}, headers=auth)
    c.post(f"/api/tournaments/{eid}/start", headers=auth)
    c.post(f"/api/tournaments/{eid}/pair", headers=auth)
    event = c.get(f"/api/tournaments/{eid}").json()
    boards: list[dict[str, Any]] = event["round_list"][0]["boards"]
    return eid, auth, boards


def test_the_organisers_route_enters_a_game_with_errors_in_the_requests_language(
        c: TestClient) -> None:
    eid, auth, boards = _paired(c, "Route Open", "mrc")
    fen = boards[0]["fen"]
    uci = random_game(fen, "mrc", 24, seed=5)
    url = f"/api/tournaments/{eid}/rounds/1/boards/1/game"
    text = scoresheet(fen, "mrc", uci, "es")
    assert c.post(url, json={"text": text}).status_code == 403
    r = c.post(url, json={"text": text, "notation": "es"}, headers=auth)
    assert r.status_code == 200, r.text
    assert r.json()["moves"] == uci and r.json()["result"] == final_result(fen, "mrc", uci, "*")
    r = c.post(url, json={"text": text}, headers=auth)
    assert r.status_code == 409 and r.json()["code"] == "tournament.game_exists"
    bad = text.rsplit(" ", 1)[0] + " Zz9"
    ply = len(uci)
    label = f"{(ply + 1) // 2}{'.' if ply % 2 else '...'}Zz9"
    r = c.post(url + "?lang=es", json={"text": bad, "replace": True}, headers=auth)
    assert r.status_code == 422 and r.json()["code"] == "tournament.game_entry"
    assert r.json()["detail"].startswith(f"ronda 1, tablero 1: {label}: 'Zz9' no es una jugada")
    assert r.json()["detail_en"].startswith(f"round 1, board 1: {label}: 'Zz9' is not a move")


def test_finished_otb_games_join_the_setup_statistics(c: TestClient) -> None:
    eid, auth, boards = _paired(c, "Stats Open")
    fen, number = boards[0]["fen"], boards[0]["setup"]
    assert boards[1]["setup"] == number  # one setup for the round
    firsts = []
    for board, result in ((1, "1-0"), (2, None)):  # board 2 unfinished: not counted
        uci = random_game(fen, "chess960", 10, seed=board)
        text = scoresheet(fen, "chess960", uci)
        if result is not None:
            result = final_result(fen, "chess960", uci, result)
        elif final_result(fen, "chess960", uci, "*") != "*":
            uci = uci[:-1]  # ended on the board: keep it unfinished
            text = scoresheet(fen, "chess960", uci)
        body = {"text": text} if result is None else {"text": text, "result": result}
        r = c.post(f"/api/tournaments/{eid}/rounds/1/boards/{board}/game", json=body,
                   headers=auth)
        assert r.status_code == 200, r.text
        firsts.append(r.json()["san"][0])
    stats = c.get(f"/api/setups/chess960/{number}/stats").json()
    won = {"1-0": (1, 0, 0), "1/2-1/2": (0, 1, 0), "0-1": (0, 0, 1)}[
        final_result(fen, "chess960", random_game(fen, "chess960", 10, seed=1), "1-0")]
    assert (stats["games"], stats["otb_games"]) == (1, 1)
    assert (stats["white_wins"], stats["draws"], stats["black_wins"]) == won
    assert stats["first_moves"] == [{"san": firsts[0], "games": 1}]
    assert stats["game_ids"] == []


def test_an_entered_otb_game_is_reviewed_in_the_background(c: TestClient) -> None:
    """Issue 31: a finished over-the-board game goes to the engine workers' review queue as
    an online game's review does, without being asked for; the bulletin (the event's PGN)
    then carries the review as comments.  An unfinished game is not reviewed."""
    eid, auth, boards = _paired(c, "Review Open")
    fen = boards[0]["fen"]
    uci = random_game(fen, "chess960", 8, seed=3)
    if final_result(fen, "chess960", uci, "*") != "*":
        uci = uci[:-1]
    for board, result in ((1, "1/2-1/2"), (2, None)):
        body = {"text": scoresheet(fen, "chess960", uci)}
        if result is not None:
            body["result"] = result
        r = c.post(f"/api/tournaments/{eid}/rounds/1/boards/{board}/game", json=body,
                   headers=auth)
        assert r.status_code == 200, r.text
    store = c.app.state.tournaments  # type: ignore[attr-defined]
    key = otb.review_id(eid, 1, 1)
    deadline = time.monotonic() + 60
    while store.review_of(key) is None:
        assert time.monotonic() < deadline, "no review of the entered game within 60 s"
        time.sleep(0.05)
    review = store.review_of(key)
    assert review is not None and len(review.plies) == len(uci)
    assert store.review_of(otb.review_id(eid, 1, 2)) is None  # unfinished: no review
    bulletin = c.get(f"/api/tournaments/{eid}/export.pgn").text
    first, second = bulletin.split("[Event ", 2)[1:]
    assert '[Board "1"]' in first and "[%eval " in first
    assert '[Board "2"]' in second and "[%eval " not in second


def test_games_stored_by_another_process_are_reviewed_by_the_sweep(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A finished game the CLI stored (``tournament game``, ``import-pgn``, ``relay``: not
    through the server) is found by the server's sweep and reviewed; a game replaced with
    other moves is reviewed again."""
    monkeypatch.setattr(otb_reviews, "SWEEP_S", 0.2)
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with client(url) as cl:
        outside = TournamentStore(url)  # another process's store, as the CLI's
        eid = _event(outside, players=4)
        t = outside.load(eid)
        fen = t.board(1, 1).fen
        uci = random_game(fen, "chess960", 6, seed=7)
        if final_result(fen, "chess960", uci, "*") != "*":
            uci = uci[:-1]
        outside.enter_game(eid, 1, 1, scoresheet(fen, "chess960", uci), result="0-1")
        outside.enter_game(eid, 1, 2, scoresheet(fen, "chess960", uci[:2]))  # unfinished
        key = otb.review_id(eid, 1, 1)
        deadline = time.monotonic() + 60
        while (review := outside.review_of(key)) is None:
            assert time.monotonic() < deadline, "the sweep did not review the game in 60 s"
            time.sleep(0.05)
        assert len(review.plies) == len(uci)
        shorter = uci[:4]
        outside.enter_game(eid, 1, 1, scoresheet(fen, "chess960", shorter), result="0-1",
                           replace_game=True)
        while (review := outside.review_of(key)) is None or len(review.plies) != 4:
            assert time.monotonic() < deadline + 60, "the replaced game was not reviewed"
            time.sleep(0.05)
        assert outside.review_of(otb.review_id(eid, 1, 2)) is None
        outside.dispose()
        assert cl.get("/api/health").status_code == 200


def test_the_live_socket_pushes_the_round_on_every_change(c: TestClient) -> None:
    """Issue 31's relay pushed: ``WS /ws/tournaments/{id}/rounds/{r}/live`` sends the round's
    boards at once, again when a game is entered through the server (woken at once) or
    stored by another process (the CLI, a relay: seen within a second or so), and answers
    pings; an unknown event is an error frame and close code 4404."""
    eid, auth, boards = _paired(c, "Live Open")
    fen = boards[0]["fen"]
    uci = random_game(fen, "chess960", 6, seed=5)
    with c.websocket_connect(f"/ws/tournaments/{eid}/rounds/1/live") as ws:
        first = ws.receive_json()
        LiveFrame.model_validate(first)  # the frame's declared shape
        assert first["live"] == c.get(f"/api/tournaments/{eid}/rounds/1/live").json()
        assert [b["moves"] for b in first["live"]["boards"]] == [[], []]
        started = time.monotonic()
        r = c.post(f"/api/tournaments/{eid}/rounds/1/boards/1/game",
                   json={"text": scoresheet(fen, "chess960", uci[:3])}, headers=auth)
        assert r.status_code == 200, r.text
        pushed = ws.receive_json()
        assert pushed["live"]["boards"][0]["moves"] == uci[:3]
        assert time.monotonic() - started < 1.0
        # Stored by another process (the store itself, as the CLI does): seen all the same.
        store = TournamentStore(c.app.state.tournaments.engine)  # type: ignore[attr-defined]
        store.enter_game(eid, 1, 2, scoresheet(fen, "chess960", uci[:2]))
        pushed = ws.receive_json()
        assert pushed["live"]["boards"][1]["moves"] == uci[:2]
        ws.send_text('{"type": "ping"}')
        assert ws.receive_json() == {"type": "pong"}
        ws.send_text("hello")
        assert ws.receive_json()["code"] == "frame.invalid"
    with c.websocket_connect("/ws/tournaments/nosuch/rounds/1/live?lang=es") as ws:
        frame = ws.receive_json()
        assert frame["type"] == "error" and frame["status"] == 404
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def _relay_file(t: Tournament, rnd: int, moves: dict[int, list[str]],
                results: dict[int, str] | None = None) -> str:
    """A round's file as an e-board program writes it: English SAN, every board."""
    out = []
    for b in t.round_boards(rnd):
        if b.black is None or b.board not in moves:
            continue
        result = (results or {}).get(b.board, "*")
        out.append(f'[White "{t.player(b.white).name}"]\n[Black "{t.player(b.black).name}"]\n'
                   f'[Board "{b.board}"]\n[Result "{result}"]\n[FEN "{b.fen}"]\n\n'
                   f'{scoresheet(b.fen, t.event.variant, moves[b.board])} {result}\n')
    return "\n".join(out)


def _write(path: Path, text: str) -> None:
    """Rewrite the file in one step, so that the watcher never reads half of it."""
    part = path.with_suffix(".part")
    part.write_text(text, encoding="utf-8")
    part.replace(path)


def _wait(condition: object, timeout: float = 20.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "the relay did not catch up"
        time.sleep(0.02)


def test_a_relay_follows_a_rewritten_pgn_file_and_flags_another_game(
        store: TournamentStore, tmp_path: Path) -> None:
    import threading

    from randomchess.tournament.relay import watch

    eid = _event(store, players=4)
    t = store.load(eid)
    games = {b.board: random_game(b.fen, "chess960", 40, seed=b.board)
             for b in t.round_boards(1)}
    path = tmp_path / "live.pgn"
    stop = threading.Event()
    worker = threading.Thread(target=watch, args=(store, eid, 1, path),
                              kwargs={"interval": 0.05, "stop": stop})
    worker.start()
    try:
        def plies(board: int) -> int:
            g = store.otb_games(eid).get((1, board))
            return -1 if g is None else len(g.moves)

        for n in (0, 6, 12):
            _write(path, _relay_file(t, 1, {k: v[:n] for k, v in games.items()}))
            _wait(lambda n=n: plies(1) == n and plies(2) == n)
        # board 2 now shows another game: flagged for the arbiter, the relayed one kept
        other = random_game(t.board(1, 2).fen, "chess960", 14, seed=99)
        _write(path, _relay_file(t, 1, {1: games[1][:14], 2: other}))
        _wait(lambda: plies(1) == 14)
        _wait(lambda: any(e.action == "relay-flag" for e in store.load(eid).log))
        flag = [e for e in store.load(eid).log if e.action == "relay-flag"][-1]
        assert (flag.board, flag.new) == (2, "contradiction") and "differs at ply" in \
            (flag.reason or "")
        assert store.otb_games(eid)[(1, 2)].moves == tuple(games[2][:12])
        # the games end: results reach the boards and the watcher stops by itself
        results = {k: final_result(t.board(1, k).fen, "chess960", v, "1/2-1/2")
                   for k, v in games.items()}
        _write(path, _relay_file(t, 1, games, results))
        worker.join(timeout=20)
        assert not worker.is_alive()
    finally:
        stop.set()
        worker.join()
    assert {b.board: b.result for b in store.load(eid).round_boards(1)} == results
    assert [len(g.moves) for g in store.otb_games(eid).values()] == \
        [len(v) for v in games.values()]
    r = CliRunner().invoke(main, ["tournament", "--db", str(store.engine.url), "relay", eid,
                                  "1", str(path), "--once"])
    assert r.exit_code == 0 and r.output == ""  # nothing new in the file


def test_the_live_route_shows_the_setup_before_the_first_move(c: TestClient) -> None:
    eid, auth, _ = _paired(c, "Live Open")
    live = c.get(f"/api/tournaments/{eid}/rounds/1/live").json()
    assert [b["moves"] for b in live["boards"]] == [[], []]
    assert all(b["fen"] and b["setup"] for b in live["boards"])
    c.post(f"/api/tournaments/{eid}/rounds/1/boards/1/game",
           json={"text": "1. a3 a6 2. h3"}, headers=auth)
    live = c.get(f"/api/tournaments/{eid}/rounds/1/live").json()
    assert live["boards"][0]["san"] == ["a3", "a6", "h3"] and live["boards"][0]["result"] is None
    assert c.get(f"/api/tournaments/{eid}/rounds/2/live").status_code == 404
