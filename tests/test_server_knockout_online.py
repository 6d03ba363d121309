"""Issue 34: a knock-out match played online on the server.  The organiser opens the round's
due games (each match's next game) as a Swiss round's boards are opened; each game has the
match's setup and its stage's clock (a multi-period control, the tie-break's faster one, the
Armageddon's: Black with the winning bid); its result is recorded when it ends (the end
hook) and the match goes on to its next game, a draw in the Armageddon sending Black on.
Also: a group stage -> knock-out through the API, and an Armageddon whose two clocks the
server cannot run refused in both languages."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server_support import client


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("knockout_online") / "games.sqlite3"
    with client(f"sqlite:///{db}") as cl:
        yield cl


def _event(c: TestClient, players: list[str], **body: Any) -> tuple[str, dict[str, str]]:
    body.setdefault("name", "Online KO")
    r = c.post("/api/tournaments/knockout", json=body)
    assert r.status_code == 201, r.text
    eid, auth = r.json()["id"], {"X-Organiser-Secret": r.json()["organiser_secret"]}
    for i, name in enumerate(players):
        r = c.post(f"/api/tournaments/{eid}/players", json={"name": name, "rating": 2500 - i},
                   headers=auth)
        assert r.status_code == 201, r.text
    assert c.post(f"/api/tournaments/{eid}/start", headers=auth).status_code == 200
    assert c.post(f"/api/tournaments/{eid}/pair", headers=auth).status_code == 200
    return eid, auth


def _match(c: TestClient, eid: str, rnd: int = 1, match: int = 1) -> dict[str, Any]:
    out: dict[str, Any] = c.get(f"/api/tournaments/{eid}/bracket").json()[
        "rounds"][rnd - 1]["matches"][match - 1]
    return out


def _wait_result(c: TestClient, eid: str, game: int) -> dict[str, Any]:
    """The match once game ``game``'s result is recorded (the end hook runs in a task of its
    own): polled, at most 10 s."""
    deadline = time.monotonic() + 10
    while True:
        m = _match(c, eid)
        g = next((x for x in m["games"] if x["game"] == game), None)
        if g is not None and g["result"] is not None:
            return m
        assert time.monotonic() < deadline, m
        time.sleep(0.02)


class Seats:
    """The two seats of an online game: White's token from the organiser's link, Black's
    from joining through the invite."""

    def __init__(self, c: TestClient, link: dict[str, Any]) -> None:
        self.c, self.id = c, link["game_id"]
        self.white = link["white"]["link"].rsplit("/", 1)[1]
        invite = link["black"]["link"].rsplit("/", 1)[1]
        r = c.post(f"/api/games/{self.id}/join", json={"invite": invite})
        assert r.status_code == 200, r.text
        self.black = r.json()["seat"]["token"]

    def act(self, action: str, colour: str, **body: Any) -> dict[str, Any]:
        token = self.white if colour == "white" else self.black
        r = self.c.post(f"/api/games/{self.id}/{action}", json={"token": token, **body})
        assert r.status_code == 200, (action, r.text)
        out: dict[str, Any] = r.json()
        return out

    def state(self) -> dict[str, Any]:
        out: dict[str, Any] = self.c.get(f"/api/games/{self.id}").json()
        return out


def _open(c: TestClient, eid: str, auth: dict[str, str], expect: list[tuple[int, int]]
          ) -> list[dict[str, Any]]:
    r = c.post(f"/api/tournaments/{eid}/rounds/1/online", headers=auth)
    assert r.status_code == 200, r.text
    games: list[dict[str, Any]] = r.json()["games"]
    assert [(g["board"], g["game"]) for g in games] == expect
    return games


def _first_move(seats: Seats) -> None:
    """White's first legal move (any setup), so that the game has begun."""
    import chess

    board = chess.Board(seats.state()["fen"], chess960=True)
    move = next(iter(board.legal_moves))
    seats.act("moves", "white", move=move.uci())


def test_a_match_played_online_to_its_armageddon(c: TestClient) -> None:
    eid, auth = _event(c, ["Ann", "Bob"], time_control="20/600:300+5",
                       tiebreaks=["1:180+2"], armageddon="bid:300+2", games=2)
    # game 1: the multi-period control, the match's setup; Ann (seed 1) White
    link = _open(c, eid, auth, [(1, 1)])[0]
    assert (link["white"]["number"], link["black"]["number"]) == (1, 2)
    seats = Seats(c, link)
    first = _match(c, eid)["games"][0]
    state = seats.state()
    assert state["fen"] == first["fen"] and state["clocks"]["control"] == "20/600:300+5"
    assert (state["clocks"]["white"], state["clocks"]["black"]) == (600_000, 600_000)
    event = c.get(f"/api/games/{link['game_id']}/event").json()["board"]
    assert (event["round"], event["board"], event["game"], event["white"], event["black"]) == \
        (1, 1, 1, "Ann", "Bob")
    # opening again opens nothing more: game 1 is online, game 2 not due yet
    _open(c, eid, auth, [])
    _first_move(seats)
    seats.act("resign", "black")
    m = _wait_result(c, eid, 1)
    assert m["games"][0]["result"] == "1-0" and m["games"][1]["result"] is None
    # game 2: colours reversed; Bob wins: level, so the tie-break's faster clock
    seats = Seats(c, _open(c, eid, auth, [(1, 2)])[0])
    _first_move(seats)
    seats.act("resign", "black")  # Ann, Black in game 2, resigns
    m = _wait_result(c, eid, 2)
    assert m["games"][1]["result"] == "1-0" and m["games"][1]["white"] == 2
    seats = Seats(c, _open(c, eid, auth, [(1, 3)])[0])
    assert seats.state()["clocks"]["control"] == "180+2"
    assert seats.state()["clocks"]["white"] == 180_000
    _first_move(seats)
    seats.act("draw-offer", "black")
    seats.act("draw-accept", "white")
    m = _wait_result(c, eid, 3)
    assert m["status"] == "bids" and m["next_game"] == 4
    _open(c, eid, auth, [])  # the Armageddon waits for the bids
    for player, bid in ((1, 200), (2, 250)):
        r = c.post(f"/api/tournaments/{eid}/bids", headers=auth,
                   json={"round": 1, "match": 1, "player": player, "bid": bid})
        assert r.status_code == 201, r.text
    # the Armageddon: Ann bid lower, so she is Black with 200 s + 2; White 300 s + 2
    link = _open(c, eid, auth, [(1, 4)])[0]
    assert (link["white"]["number"], link["black"]["number"]) == (2, 1)
    seats = Seats(c, link)
    clocks = seats.state()["clocks"]
    assert (clocks["white"], clocks["black"], clocks["increment"]) == (300_000, 200_000, 2000)
    _first_move(seats)
    seats.act("takeback-offer", "white")  # taken back: Black's clock is Black's own again
    seats.act("takeback-accept", "black")
    clocks = seats.state()["clocks"]
    assert (clocks["white"], clocks["black"]) == (300_000, 200_000)
    _first_move(seats)
    seats.act("draw-offer", "black")
    seats.act("draw-accept", "white")
    m = _wait_result(c, eid, 4)
    assert m["games"][3]["result"] == "1/2-1/2" and m["winner"] == 1  # Black's draw odds
    bracket = c.get(f"/api/tournaments/{eid}/bracket").json()
    assert bracket["champion"] == 1
    assert c.post(f"/api/tournaments/{eid}/close", headers=auth).status_code == 200
    assert c.get(f"/api/tournaments/{eid}/verify").json()["verified"] is True
    pgn = c.get(f"/api/tournaments/{eid}/export.pgn").text
    assert pgn.count("[Round \"1.") == 4 and "[BlackClock \"200+2\"]" in pgn


def test_an_armageddon_the_server_cannot_clock_is_refused(c: TestClient) -> None:
    eid, auth = _event(c, ["Cid", "Dan"], name="Odd clocks", games=1, time_control="300+2",
                       armageddon="fixed:300+2,240")
    r = c.post(f"/api/tournaments/{eid}/games", headers=auth,
               json={"round": 1, "match": 1, "game": 1, "result": "1/2"})
    assert r.status_code == 200, r.text
    for lang, text in (("en", "only in the first period's time"),
                       ("es", "solo puede diferir")):
        r = c.post(f"/api/tournaments/{eid}/rounds/1/online", headers={**auth,
                                                                       "Accept-Language": lang})
        assert r.status_code == 422 and text in r.text, r.text
    assert all(g["game_id"] is None for g in _match(c, eid)["games"])  # nothing opened
    assert c.post(f"/api/tournaments/{eid}/rounds/1/online").status_code == 403


def test_group_stage_to_knockout_through_the_api(c: TestClient, tmp_path: Path) -> None:
    groups = []
    for g, names in enumerate((["Ann", "Bea", "Cal"], ["Eli", "Fin", "Gil"])):
        r = c.post("/api/tournaments", json={"name": f"Group {g}", "system": "rr"})
        assert r.status_code == 201, r.text
        gid, auth = r.json()["id"], {"X-Organiser-Secret": r.json()["organiser_secret"]}
        for i, name in enumerate(names):
            c.post(f"/api/tournaments/{gid}/players", json={"name": name, "rating": 2000 - i},
                   headers=auth)
        c.post(f"/api/tournaments/{gid}/start", headers=auth)
        body = c.get(f"/api/tournaments/{gid}").json()
        for rnd in range(1, body["rounds"] + 1):
            state = c.post(f"/api/tournaments/{gid}/pair", headers=auth).json()
            for b in state["round_list"][rnd - 1]["boards"]:
                if b["black"] is None:
                    continue
                res = "1-0" if b["white"] < b["black"] else "0-1"
                r = c.post(f"/api/tournaments/{gid}/results", headers=auth,
                           json={"round": rnd, "board": b["board"], "result": res})
                assert r.status_code == 200, r.text
        groups.append((gid, auth))
    body = {"name": "Finals", "groups": [g for g, _ in groups], "top": 2,
            "armageddon": "bid:300"}
    r = c.post("/api/tournaments/knockout/from-groups", json=body)
    assert r.status_code == 422 and "not closed" in r.json()["detail"]
    for gid, auth in groups:
        assert c.post(f"/api/tournaments/{gid}/close", headers=auth).status_code == 200
    r = c.post("/api/tournaments/knockout/from-groups", json=body)
    assert r.status_code == 201, r.text
    eid = r.json()["id"]
    state = c.get(f"/api/tournaments/{eid}").json()
    assert [p["name"] for p in state["players"]] == ["Ann", "Eli", "Bea", "Fin"]
    r = c.post("/api/tournaments/knockout/from-groups", json={**body, "groups": ["nope"]})
    assert r.status_code == 404


def test_an_ended_game_is_recorded_before_any_organiser_step_even_without_the_hook(
        tmp_path: Path) -> None:
    """The end hook is a task of its own; with it held back, the organiser's result route
    and the command line (on the server's database) record the ended game first, so a typed
    result cannot overwrite it."""
    from click.testing import CliRunner

    from randomchess.cli import main

    url = f"sqlite:///{tmp_path / 'hook.sqlite3'}"
    with client(url) as c:
        eid, auth = _event(c, ["Ann", "Bob"], name="Hook race KO", games=2,
                           time_control="300+2", armageddon="bid:300")
        service = c.app.state.service  # type: ignore[attr-defined]
        hooks, service.end_hooks = service.end_hooks, []
        try:
            seats = Seats(c, _open(c, eid, auth, [(1, 1)])[0])
            _first_move(seats)
            seats.act("resign", "black")
            out = CliRunner().invoke(main, ["tournament", "--db", url, "bracket", eid])
            assert out.exit_code == 0, out.output
            assert "1-0" in out.output and _match(c, eid)["games"][0]["result"] == "1-0"
            seats = Seats(c, _open(c, eid, auth, [(1, 2)])[0])
            _first_move(seats)
            seats.act("resign", "white")  # Bob, White in game 2, resigns: 0-1
            r = c.post(f"/api/tournaments/{eid}/games", headers=auth,
                       json={"round": 1, "match": 1, "game": 2, "result": "1-0"})
            assert r.status_code == 409, r.text
        finally:
            service.end_hooks = hooks
        m = _match(c, eid)
        assert [g["result"] for g in m["games"]] == ["1-0", "0-1"] and m["winner"] == 1


def test_players_bid_online_from_their_seats_and_the_armageddon_opens(c: TestClient) -> None:
    """Issue 34: each player bids for the Armageddon from their own seat of the match's game
    (their personal link's token); a bid is hidden from the opponent until both are in, a bad
    one is refused in both languages, a seat of another game or a wrong token bids nothing;
    with both bids in, the Armageddon opens online with the bid clocks (equal bids: the
    better seed takes Black), each player takes their seat and the draw sends Black on."""
    eid, auth = _event(c, ["Ann", "Bob"], name="Bids online", games=1, time_control="300+2",
                       armageddon="bid:300+2")
    link = _open(c, eid, auth, [(1, 1)])[0]
    seats = Seats(c, link)
    _first_move(seats)
    seats.act("draw-offer", "black")
    seats.act("draw-accept", "white")
    m = _wait_result(c, eid, 1)
    assert m["status"] == "bids"
    gid = link["game_id"]

    def mine(token: str | None, **body: Any) -> Any:
        return c.post(f"/api/tournaments/{eid}/bids/mine",
                      json={"round": 1, "match": 1, "game_id": gid, "token": token, **body},
                      )

    # a wrong token, or no token and no account: no bid
    for token in ("not-a-seat", None):
        r = mine(token, bid=100)
        assert r.status_code == 403 and r.json()["code"] == "tournament.bid_not_yours", r.text
    for lang, bad, text in (("en", -5, "cannot be negative"), ("es", "301", "supera el tiempo"),
                            ("en", "abc", "a bid is a number")):
        r = c.post(f"/api/tournaments/{eid}/bids/mine", headers={"Accept-Language": lang},
                   json={"round": 1, "match": 1, "game_id": gid, "token": seats.white,
                         "bid": bad})
        assert r.status_code == 422 and text in r.text, r.text
    # Ann (White in game 1) bids 240: Bob sees that she has bid, not what
    r = mine(seats.white, bid="4:00")
    assert r.status_code == 200, r.text
    ann = r.json()
    assert (ann["player"], ann["mine"], ann["bids_in"], ann["bids"]) == (1, 240, [1], [])
    assert ann["base"] == 300 and ann["armageddon_game"] is None
    r = mine(seats.black)
    bob = r.json()
    assert (bob["player"], bob["mine"], bob["bids_in"], bob["bids"]) == (2, None, [1], [])
    assert _match(c, eid)["bids"] == []  # hidden from everyone until both are in
    r = mine(seats.white, bid=100)  # a bid is final
    assert r.status_code == 409, r.text
    r = c.post(f"/api/tournaments/{eid}/bids/mine/seat",
               json={"round": 1, "match": 1, "game_id": gid, "token": seats.black})
    assert r.status_code == 409 and r.json()["code"] == "tournament.armageddon_not_online"
    # Bob bids the same: equal bids, the better seed (Ann) takes Black
    r = mine(seats.black, bid=240)
    assert r.status_code == 200, r.text
    bob = r.json()
    assert sorted((b["player"], b["seconds"]) for b in bob["bids"]) == [(1, 240), (2, 240)]
    assert bob["armageddon_game"] is not None and bob["colour"] == "white"
    m = _match(c, eid)
    arm = m["games"][-1]
    assert (arm["white"], arm["black"], arm["black_time_control"]) == (2, 1, "240+2")
    assert arm["game_id"] == bob["armageddon_game"]
    _open(c, eid, auth, [])  # already online: nothing for the organiser to open
    # each takes their seat of the Armageddon from their old seat
    tokens = {}
    for old, colour in ((seats.white, "black"), (seats.black, "white")):
        r = c.post(f"/api/tournaments/{eid}/bids/mine/seat",
                   json={"round": 1, "match": 1, "game_id": gid, "token": old})
        assert r.status_code == 200, r.text
        assert (r.json()["game_id"], r.json()["color"]) == (arm["game_id"], colour)
        tokens[colour] = r.json()["token"]
    state = c.get(f"/api/games/{arm['game_id']}").json()
    assert (state["clocks"]["white"], state["clocks"]["black"]) == (300_000, 240_000)
    arm_seats = Seats.__new__(Seats)
    arm_seats.c, arm_seats.id = c, arm["game_id"]
    arm_seats.white, arm_seats.black = tokens["white"], tokens["black"]
    _first_move(arm_seats)
    arm_seats.act("draw-offer", "black")
    arm_seats.act("draw-accept", "white")
    m = _wait_result(c, eid, 2)
    assert m["winner"] == 1  # Ann, Black, wins the match with the draw


def test_a_player_bids_from_the_account_that_holds_their_seat(c: TestClient) -> None:
    """Issue 34: without a token, the signed-in account that claimed the player's seat of the
    match's game bids for them (with its CSRF token); another account bids nothing."""
    from test_accounts import user

    eid, auth = _event(c, ["Ann", "Bob"], name="Bids by account", games=1,
                       time_control="300+2", armageddon="bid:300+2")
    r = c.post(f"/api/tournaments/{eid}/rounds/1/online", headers=auth, json={"rated": True})
    assert r.status_code == 200, r.text
    link = r.json()["games"][0]
    seats = Seats(c, link)
    ann, other = user(c, "ann_ko"), user(c, "not_ann")
    r = ann.post(f"/api/account/games/{link['game_id']}/claim", json={"token": seats.white})
    assert r.status_code == 200, r.text
    _first_move(seats)
    seats.act("draw-offer", "black")
    seats.act("draw-accept", "white")
    assert _wait_result(c, eid, 1)["status"] == "bids"
    body = {"round": 1, "match": 1, "game_id": link["game_id"], "bid": 100}
    r = other.post(f"/api/tournaments/{eid}/bids/mine", json=body)
    assert r.status_code == 403 and r.json()["code"] == "tournament.bid_not_yours", r.text
    r = ann.post(f"/api/tournaments/{eid}/bids/mine", json=body, csrf=False)
    assert r.status_code == 403, r.text  # a state change needs the session's CSRF token
    assert _match(c, eid)["bids_in"] == []
    r = ann.post(f"/api/tournaments/{eid}/bids/mine", json=body)
    assert r.status_code == 200, r.text
    assert (r.json()["player"], r.json()["mine"]) == (1, 100)
    assert _match(c, eid)["bids_in"] == [1]
    r = c.post(f"/api/tournaments/{eid}/bids/mine", json={**body, "token": seats.black,
                                                          "bid": 150})
    assert r.status_code == 200, r.text
    # The Armageddon opened online as the match's game was: rated, and Ann's account holds
    # her seat there (Black: the lower bid).
    arm = r.json()["armageddon_game"]
    accounts = c.app.state.players.accounts  # type: ignore[attr-defined]
    assert accounts.terms(arm)[0] is True
    assert accounts.seats(arm) == {"black": accounts.user_id("ann_ko")}
    assert arm in [g["id"] for g in ann.get("/api/account/games").json()["games"]]
