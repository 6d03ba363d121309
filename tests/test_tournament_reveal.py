"""Setups revealed in the hall (issue 30): the derivation of docs/shuffler.md §6 re-done by an
independent implementation in this file (hashlib and hmac only), a 9-player 5-round Swiss
revealed round by round from the command line, the probability that one digit changes the
setup, ``verify`` refusing edited records, bad input, double and concurrent reveals, and a
reveal acknowledged before ``kill -9``."""

from __future__ import annotations

import hashlib
import hmac
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
import unicodedata
import urllib.request
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from randomchess.cli import main
from randomchess.startpos import (
    SetupPool,
    commitment,
    hall_draw,
    hall_round_key,
    parse_hall_input,
)
from randomchess.tournament import TournamentStore
from randomchess.tournament.errors import PreparationError, RevealError, VerificationError
from randomchess.tournament.setups import EventPool
from randomchess.tournament.store import verify
from randomchess.tournament.trf import parse_trf, tournament_from_trf

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "shuffler.md"
SALT = bytes(range(32))
EVENT = "Example Open 2025"


# --- an independent implementation of docs/shuffler.md §2, §3 and §6 -----------------------

def _uniform(key: bytes, message: bytes, n: int) -> int:
    limit = 2**256 - 2**256 % n
    counter = 0
    while True:
        block = hmac.new(key, message + b"\0" + str(counter).encode(), hashlib.sha256)
        x = int.from_bytes(block.digest(), "big")
        if x < limit:
            return x % n
        counter += 1


def _pool(excluded: list[int], only: list[int] | None = None) -> tuple[list[int], str]:
    """A Chess960 pool (bishops any) and its tag."""
    excluded = sorted(set(excluded))
    numbers = [n for n in range(960) if n not in excluded and (only is None or n in only)]
    tag = f"chess960:any:{','.join(map(str, excluded)) or '-'}"
    if only is not None:
        tag += ":only=" + ",".join(map(str, sorted(set(only))))
    return numbers, tag


def _round_key(salt: bytes, event: str, rnd: int, digits: str, event_tag: str) -> bytes:
    digits = digits.replace(" ", "")
    assert re.fullmatch(r"[0-9]{6,64}", digits)
    message = b"\0".join([b"randomchess-hall-v1", event_tag.encode(),
                          unicodedata.normalize("NFC", event).encode(), str(rnd).encode(),
                          digits.encode()])
    return hmac.new(salt, message, hashlib.sha256).digest()


def _hall_number(key: bytes, board: int, numbers: list[int], tag: str) -> int:
    message = b"\0".join([b"randomchess-hall-draw-v1", tag.encode(), str(board).encode()])
    return numbers[_uniform(key, message, len(numbers))]


_KNIGHTS = list(combinations(range(5), 2))


def _chess960_rank(number: int) -> str:
    squares = [""] * 8
    n, light = divmod(number, 4)
    n, dark = divmod(n, 4)
    squares[2 * light + 1] = squares[2 * dark] = "B"
    n, queen = divmod(n, 6)
    squares[[i for i, c in enumerate(squares) if c == ""][queen]] = "Q"
    empty = [i for i, c in enumerate(squares) if c == ""]
    for k in _KNIGHTS[n]:
        squares[empty[k]] = "N"
    for i, piece in zip([i for i, c in enumerate(squares) if c == ""], "RKR", strict=True):
        squares[i] = piece
    return "".join(squares)


# --- the recipe and its test vectors -----------------------------------------------------------

def test_the_docs_test_vectors_follow_from_the_independent_recipe() -> None:
    text = " ".join(DOCS.read_text(encoding="utf-8").split())  # lines wrap anywhere
    numbers, tag = _pool([])
    expected = {1: ("123456", 874), 2: ("615243", 487), 3: ("0123456789", 437)}
    for rnd, (digits, number) in expected.items():
        key = _round_key(SALT, EVENT, rnd, digits, tag)
        assert _hall_number(key, 0, numbers, tag) == number
        assert f"**{number}** `{_chess960_rank(number)}`" in text
        ours = hall_round_key(SALT, EVENT, rnd, digits, SetupPool("chess960").tag)
        assert ours == key
        assert hall_draw(ours, SetupPool("chess960")).number == number
    assert _round_key(SALT, EVENT, 1, "123456", tag).hex() in text
    # per board, no repeats, without 518 and 534
    used = [518, 534]
    key = _round_key(SALT, EVENT, 1, "314159", _pool(used)[1])
    assert key.hex() in text
    drawn = []
    for board in (1, 2, 3):
        n = _hall_number(key, board, *_pool(used))
        drawn.append(n)
        used.append(n)
    assert drawn == [809, 800, 243]
    for n in drawn:
        assert f"**{n}** `{_chess960_rank(n)}`" in text


def test_the_docs_sketch_has_the_hall_functions() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    doc: dict[str, Any] = {}
    exec(compile(blocks[0], str(DOCS), "exec"), doc)
    numbers, tag = doc["pool"]("mrc", "any", (), (100, 200, 300, 8226, 8406))
    assert tag == "mrc:any:-:only=100,200,300,8226,8406"
    key = doc["round_key"](SALT, EVENT, 1, "666 111", tag)
    assert doc["hall_number"](key, 0, numbers, tag) == 200
    pool = EventPool("mrc", "any", False, (), (8406, 100, 200, 300, 8226))
    assert pool.tag == tag
    assert hall_draw(hall_round_key(SALT, EVENT, 1, "666111", pool.tag), pool).number == 200
    with pytest.raises(ValueError):
        doc["hall_input"]("12345")


@pytest.mark.parametrize(("text", "reason"), [
    ("", "empty"), ("   ", "empty"), ("12a456", "alphabet"),
    ("\uff11\uff12\uff13\uff14\uff15\uff16", "alphabet"),  # full-width digits
    ("12-34-56", "alphabet"), ("12345", "short"), ("1" * 65, "long"),
])
def test_bad_hall_inputs_are_refused_with_their_reason(text: str, reason: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_hall_input(text)
    assert getattr(info.value, "reason", None) == reason
    assert parse_hall_input(" 12 34 56 ") == "123456"


# --- one digit: the probability the doc states ---------------------------------------------------

def _changed_fraction(pool: SetupPool, seed: int, trials: int) -> int:
    """How many of ``trials`` one-digit changes of a random input change the setup."""
    rng = random.Random(seed)
    changed = 0
    for _ in range(trials):
        digits = "".join(rng.choice("123456") for _ in range(6))
        i = rng.randrange(6)
        other = rng.choice([d for d in "0123456789" if d != digits[i]])
        edited = digits[:i] + other + digits[i + 1:]
        rnd = rng.randrange(1, 12)
        a = hall_draw(hall_round_key(SALT, EVENT, rnd, digits, pool.tag), pool).number
        b = hall_draw(hall_round_key(SALT, EVENT, rnd, edited, pool.tag), pool).number
        changed += a != b
    return changed


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_one_digit_changes_the_setup_with_probability_1_minus_1_over_n(seed: int) -> None:
    """docs/shuffler.md §6: the setup changes with probability 1 - 1/n.  For a shortlist of
    four, 3/4: 2,000 changes give 1,500 ± 19.4 (one standard deviation); the bounds are
    seven deviations wide, so a correct derivation fails with probability < 1e-11."""
    shortlist = EventPool("chess960", "any", False, (), (3, 300, 600, 900))
    trials = 2000
    changed = _changed_fraction(shortlist, seed, trials)
    sd = (trials * 0.75 * 0.25) ** 0.5
    assert abs(changed - 1500) < 7 * sd, changed
    # the whole of Chess960: 1/960 unchanged, about 0.5 in 500; 12 or more is < 1e-15
    unchanged = 500 - _changed_fraction(SetupPool("chess960"), seed, 500)
    assert unchanged < 12


# --- the command line: a 9-player, 5-round Swiss revealed in the hall -----------------------------

class Cli:
    def __init__(self, db: str) -> None:
        self.db = db
        self.runner = CliRunner()

    def __call__(self, *args: str, ok: bool = True, lang: str = "en",
                 stdin: str | None = None) -> str:
        result = self.runner.invoke(main, ["tournament", "--db", self.db, "--lang", lang,
                                           *args], input=stdin)
        if ok:
            assert result.exit_code == 0, (args, result.output, result.exception)
        else:
            assert result.exit_code != 0, (args, result.output)
        return result.output


PLAYERS = [("Ana", 2210), ("Ben", 2150), ("Cid", 2100), ("Dan", 2040), ("Eva", 1990),
           ("Fer", 1930), ("Gil", 1880), ("Hal", 1820), ("Ivo", 1770)]


def _play_hall_swiss(cli: Cli, name: str, seed: int) -> list[str]:
    """Create, register, and play five rounds revealed in the hall; the digits typed."""
    rng = random.Random(seed)
    cli("new", name, "--rounds", "5", "--setups-from", "hall", "--setups", "board",
        "--no-repeat", "--exclude", "standard", "--prep", "0")
    for player, rating in PLAYERS:
        cli("add-player", name, player, "--rating", str(rating))
    cli("start", name)
    inputs = []
    for rnd in range(1, 6):
        out = cli("pair", name)
        assert "reveal" in out
        # before the reveal, no result can be entered
        assert "not revealed" in cli("result", name, str(rnd), "1", "1-0", ok=False)
        digits = "".join(rng.choice("123456") for _ in range(6))
        inputs.append(digits)
        out = cli("reveal", name, str(rnd), "--input", f"{digits[:3]} {digits[3:]}")
        assert f"Round {rnd} revealed" in out and digits in out
        lines = "\n".join(f"{b} {rng.choice(['1-0', '0-1', '1/2'])}" for b in range(1, 5))
        cli("result", name, str(rnd), "--from", "-", stdin=lines)
    return inputs


def test_a_nine_player_five_round_swiss_revealed_in_the_hall(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'hall.sqlite3'}"
    cli = Cli(db)
    name = "Hall Open 2026"
    inputs = _play_hall_swiss(cli, name, seed=30)
    # a revealed round cannot be revealed again, in either language
    out = cli("reveal", name, "3", "--input", "123456", ok=False)
    assert "revealed already" in out and inputs[2] in out
    out = cli("reveal", name, "3", "--input", "123456", ok=False, lang="es")
    assert "ya se reveló" in out
    cli("close", name)
    assert "verified" in cli("verify", name)
    trf_path = tmp_path / "hall.trf"
    cli("export", name, "--format", "trf", "-o", str(trf_path))
    text = trf_path.read_text(encoding="utf-8")
    # the independent re-derivation, from the TRF alone
    salt = bytes.fromhex(re.search(r"### randomchess-salt (\w+)", text)[1])  # type: ignore[index]
    event = re.search(r"^012 (.*)$", text, re.M)[1]  # type: ignore[index]
    reveals = {int(m[1]): (m[2], m[3]) for m in re.finditer(
        r"### randomchess-reveal round=(\d+) at=\S+ input=(\d+) key=(\w+)", text)}
    assert [reveals[r][0] for r in range(1, 6)] == inputs
    setups = {(int(m[1]), int(m[2])): (int(m[3]), m[4]) for m in re.finditer(
        r"### randomchess-setup round=(\d+) board=(\d+) number=(\d+) fen=(\S+)", text)}
    assert "exclude=518,534" in text and "source=hall" in text
    used = [518, 534]
    event_tag = _pool(used)[1]
    for rnd in range(1, 6):
        key = _round_key(salt, event, rnd, reveals[rnd][0], event_tag)
        assert key.hex() == reveals[rnd][1]
        for board in range(1, 5):
            number = _hall_number(key, board, *_pool(used))
            used.append(number)
            stored, placement = setups[(rnd, board)]
            assert stored == number
            assert placement.split("/")[-1] == _chess960_rank(number)
    assert len(set(used)) == len(used)  # no repeats, never 518 or 534
    assert "verified" in cli("verify", "--trf", str(trf_path))
    # the exports carry the inputs and times
    html = cli("export", name, "--format", "html")
    assert all(digits in html for digits in inputs)
    pgn = cli("export", name, "--format", "pgn")
    assert f'[HallInput "{inputs[0]}"]' in pgn and "[HallReveal " in pgn


def test_bad_reveals_are_refused_in_both_languages_and_change_nothing(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'bad.sqlite3'}"
    cli = Cli(db)
    cli("new", "Bad Open", "--rounds", "2", "--setups-from", "hall")
    for player, rating in PLAYERS[:4]:
        cli("add-player", "Bad Open", player, "--rating", str(rating))
    cli("start", "Bad Open")
    assert "not paired" in cli("reveal", "Bad Open", "1", "--input", "123456", ok=False)
    cli("pair", "Bad Open")
    store = TournamentStore(db)
    eid = store.resolve("Bad Open")
    before = store.load(eid)
    cases = {"": ("empty", "vacía"), "12x456": ("only the digits", "solo puede"),
             "123": ("at least 6", "al menos 6")}
    for digits, (en, es) in cases.items():
        assert en in cli("reveal", "Bad Open", "1", "--input", digits, ok=False)
        assert es in cli("reveal", "Bad Open", "1", "--input", digits, ok=False, lang="es")
    assert store.load(eid) == before
    cli("new", "Salt Open", "--rounds", "1")
    assert "salt alone" in cli("reveal", "Salt Open", "1", "--input", "123456", ok=False)
    store.dispose()


def test_verify_rejects_an_edited_input_salt_round_or_exclusion_list(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'edit.sqlite3'}"
    cli = Cli(db)
    name = "Edit Open"
    _play_hall_swiss(cli, name, seed=7)
    cli("close", name)
    trf = tmp_path / "edit.trf"
    cli("export", name, "--format", "trf", "-o", str(trf))
    _check_edits(trf.read_text(encoding="utf-8"))


def _verified(text: str) -> bool:
    try:
        report = verify(tournament_from_trf(parse_trf(text)))
    except VerificationError:
        return False
    return not report.mismatches


def _check_edits(text: str) -> None:
    assert _verified(text)

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def edited(data: st.DataObject) -> None:
        kind = data.draw(st.sampled_from(["input", "salt", "round", "exclude"]))
        lines = text.splitlines()
        reveal_rows = [i for i, line in enumerate(lines) if "randomchess-reveal" in line]
        if kind == "input":
            i = data.draw(st.sampled_from(reveal_rows))
            m = re.search(r"input=(\d+)", lines[i])
            assert m
            pos = data.draw(st.integers(0, len(m[1]) - 1))
            new = data.draw(st.sampled_from([d for d in "0123456789" if d != m[1][pos]]))
            lines[i] = lines[i].replace(f"input={m[1]}",
                                        f"input={m[1][:pos]}{new}{m[1][pos + 1:]}")
        elif kind == "salt":
            i = next(i for i, line in enumerate(lines) if "randomchess-salt" in line)
            salt = bytearray(bytes.fromhex(lines[i].split()[-1]))
            salt[data.draw(st.integers(0, 31))] ^= 1 << data.draw(st.integers(0, 7))
            lines[i] = f"### randomchess-salt {salt.hex()}"
            # a forger would publish the matching commitment too: the round keys catch it
            j = next(i for i, line in enumerate(lines) if "randomchess-commitment" in line)
            name = next(line[4:] for line in lines if line.startswith("012 "))
            lines[j] = f"### randomchess-commitment {commitment(bytes(salt), name)}"
        elif kind == "round":
            a, b = data.draw(st.lists(st.sampled_from(reveal_rows), min_size=2, max_size=2,
                                      unique=True))
            ra = re.search(r"input=\d+", lines[a])
            rb = re.search(r"input=\d+", lines[b])
            assert ra and rb
            lines[a], lines[b] = (lines[a].replace(ra[0], rb[0]),
                                  lines[b].replace(rb[0], ra[0]))
        else:
            i = next(i for i, line in enumerate(lines) if "randomchess-event" in line)
            extra = data.draw(st.integers(0, 959).filter(lambda n: n not in (518, 534)))
            choice = data.draw(st.sampled_from(["drop", "add"]))
            new = "exclude=518" if choice == "drop" else \
                "exclude=" + ",".join(map(str, sorted({518, 534, extra})))
            lines[i] = lines[i].replace("exclude=518,534", new)
        assert not _verified("\n".join(lines) + "\n"), kind

    edited()


# --- the store: concurrency, rights of way, the preparation window --------------------------------

def _hall_event(db: str, prep: int = 0, players: int = 4) -> tuple[TournamentStore, str]:
    store = TournamentStore(db)
    store.migrate()
    eid = store.create("Race Open", rounds=2, setup_source="hall", prep_minutes=prep,
                       organiser=True).event.id
    for player, rating in PLAYERS[:players]:
        store.add_player(eid, player, rating)
    store.start(eid)
    store.pair(eid)
    return store, eid


def test_two_reveals_of_one_round_at_once_make_one_reveal(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'race.sqlite3'}"
    store, eid = _hall_event(db)
    stores = [TournamentStore(db) for _ in range(2)]
    barrier = threading.Barrier(2)
    outcomes: list[object] = [None, None]

    def go(i: int) -> None:
        barrier.wait()
        try:
            outcomes[i] = stores[i].reveal(eid, 1, f"{i + 1}" * 6)
        except RevealError as exc:
            outcomes[i] = exc

    threads = [threading.Thread(target=go, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    errors = [o for o in outcomes if isinstance(o, RevealError)]
    assert len(errors) == 1 and errors[0].reason == "already"
    t = store.load(eid)
    assert len(t.reveals) == 1
    winner = t.reveals[0].input
    assert winner in ("111111", "222222")
    assert [a.action for a in t.log].count("reveal") == 1
    assert [a.action for a in t.log].count("reveal-refused") == 1
    for s in (store, *stores):
        s.dispose()


def test_games_open_only_after_the_reveal_and_the_preparation_window(tmp_path: Path) -> None:
    from randomchess.tournament.store import check_playable, window_end

    store, eid = _hall_event(f"sqlite:///{tmp_path / 'prep.sqlite3'}", prep=5)
    with pytest.raises(PreparationError, match="not revealed"):
        check_playable(store.load(eid), 1, int(time.time() * 1000))
    with pytest.raises(PreparationError):
        store.set_result(eid, 1, 1, "1-0")
    reveal, boards = store.reveal(eid, 1, "424242")
    t = store.load(eid)
    end = window_end(t, 1)
    assert end == reveal.at + 5 * 60_000
    with pytest.raises(PreparationError, match="preparation window"):
        check_playable(t, 1, reveal.at + 1000)
    with pytest.raises(PreparationError):
        store.link_game(eid, 1, 1, "g1")
    check_playable(t, 1, end)
    assert all(b.fen for b in boards)
    store.dispose()


def test_an_acknowledged_reveal_survives_kill_9_of_the_server(tmp_path: Path) -> None:
    from server_support import free_port

    db = tmp_path / "crash.sqlite3"
    port = free_port()
    log = open(tmp_path / "server.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([sys.executable, "-m", "randomchess", "serve", "--port", str(port),
                             "--db", f"sqlite:///{db}"], cwd=ROOT, stdout=log,
                            stderr=subprocess.STDOUT, env={**os.environ})
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc)
        created = _post(url, "/api/tournaments", {"name": "Crash Hall", "rounds": 1,
                                                  "setup_source": "hall"})
        eid, auth = created["id"], {"X-Organiser-Secret": created["organiser_secret"]}
        for player, rating in PLAYERS[:2]:
            _post(url, f"/api/tournaments/{eid}/players", {"name": player, "rating": rating},
                  auth)
        _post(url, f"/api/tournaments/{eid}/start", {}, auth)
        _post(url, f"/api/tournaments/{eid}/pair", {}, auth)
        answer = _post(url, f"/api/tournaments/{eid}/rounds/1/reveal", {"input": "615243"},
                       auth)
        assert answer["round_list"][0]["reveal"]["input"] == "615243"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=10)
        log.close()
    assert proc.returncode == -signal.SIGKILL
    store = TournamentStore(f"sqlite:///{db}")
    t = store.load(eid)
    assert [r.input for r in t.reveals] == ["615243"]
    assert t.round_boards(1)[0].setup == answer["round_list"][0]["boards"][0]["setup"]
    store.dispose()


def _wait_healthy(url: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(f"{url}/api/health", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    pytest.fail("the server did not start")


def _post(url: str, path: str, body: dict[str, Any],
          headers: dict[str, str] | None = None) -> dict[str, Any]:
    import json

    req = urllib.request.Request(url + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(req, timeout=30) as r:
        out: dict[str, Any] = json.loads(r.read())
        return out


def test_mini_matches_reveal_the_first_round_of_each_match_only(tmp_path: Path) -> None:
    store = TournamentStore(f"sqlite:///{tmp_path / 'mini.sqlite3'}")
    store.migrate()
    eid = store.create("Mini Hall", system="rr", mini_match=True, setup_source="hall",
                       excluded=[0, 959]).event.id
    for player, rating in PLAYERS[:4]:
        store.add_player(eid, player, rating)
    store.start(eid)
    store.pair(eid)
    _, first = store.reveal(eid, 1, "123123")
    for b in first:
        store.set_result(eid, 1, b.board, "1/2")
    second = store.pair(eid)
    assert [b.setup for b in second] == [b.setup for b in first]  # replayed, no reveal
    with pytest.raises(RevealError, match="replays round 1"):
        store.reveal(eid, 2, "456456")
    for b in second:
        store.set_result(eid, 2, b.board, "1-0")
    from randomchess.tournament.trf import write_trf

    t = store.load(eid, reveal=True)  # a verifier's copy, salt included
    report = verify(tournament_from_trf(parse_trf(write_trf(t))))
    assert report.mismatches == [] and report.rounds[0] == report.rounds[1]
    assert all(n not in (0, 959) for n in report.rounds[0])
    store.dispose()


def test_draw_verify_re_derives_hall_rounds_from_their_digits(tmp_path: Path) -> None:
    import shlex

    cli = Cli(f"sqlite:///{tmp_path / 'draw.sqlite3'}")
    name = "Draw Hall"
    cli("new", name, "--rounds", "2", "--setups-from", "hall")
    for player, rating in PLAYERS[:4]:
        cli("add-player", name, player, "--rating", str(rating))
    cli("start", name)
    for rnd, digits in ((1, "123456"), (2, "665544")):
        cli("pair", name)
        cli("reveal", name, str(rnd), "--input", digits)
        cli("result", name, str(rnd), "--from", "-", stdin="1 1-0\n2 0-1\n")
    cli("close", name)
    out = cli("verify", name)
    numbers = [line.split()[2] for line in out.splitlines() if line.startswith("Round ")]
    line = next(x.strip() for x in out.splitlines() if "draw verify" in x)
    assert "--hall 1=123456 --hall 2=665544" in line
    result = CliRunner().invoke(main, shlex.split(line)[1:])
    assert result.exit_code == 0, result.output
    assert re.findall(r"round \d+: (\d+)", result.output) == numbers
    edited = line.replace("--hall 2=665544", "--hall 2=665545")
    result = CliRunner().invoke(main, shlex.split(edited)[1:])
    assert re.findall(r"round \d+: (\d+)", result.output) != numbers
