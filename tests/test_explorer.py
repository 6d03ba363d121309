"""The opening explorer's core (issue 33): an imported collection's counts equal an
independent count (python-chess on 8x8, our move generator without the PGN reader on 9x9);
imports resume without double counting, after an exception or ``kill -9``; a truncated
compressed file stops with a clear error and keeps the committed part; the server counts its
games as they end and answers queries."""

from __future__ import annotations

import bz2
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import pytest
from sqlalchemy import create_engine, func, select
from sqlalchemy.engine import Engine

from randomchess.db import migrate, schema
from randomchess.explorer.counts import MAX_PLIES, ExplorerError, position_key
from randomchess.explorer.importer import import_pgn
from randomchess.explorer.store import ExplorerStore
from randomchess.pgn import Node, PgnGame, write_game
from randomchess.position import Position
from randomchess.startpos import setup_from_number

RESULTS = ["1-0", "0-1", "1/2-1/2"]
Counts = dict[tuple[int, str, str], list[int]]  # (setup, FEN, uci) -> games, W, D, B


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    e = create_engine(f"sqlite:///{tmp_path / 'explorer.db'}")
    migrate(e)
    return e


def _random_game(rng: random.Random, number: int, moves: list[str] | None = None,
                 plies: int = 80) -> chess.pgn.Game:
    board = chess.Board.from_chess960_pos(number)
    board.chess960 = True
    game = chess.pgn.Game()
    game.setup(board)
    game.headers["Variant"] = "Chess960"
    node: chess.pgn.GameNode = game
    for i in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        move = chess.Move.from_uci(moves[i]) if moves and i < len(moves) else rng.choice(legal)
        if moves and i >= len(moves):
            break
        node = node.add_variation(move)
        board.push(move)
    game.headers["Result"] = board.result() if board.is_game_over() else rng.choice(RESULTS)
    return game


def _collection(path: Path, games: int = 60, seed: int = 33) -> list[chess.pgn.Game]:
    rng = random.Random(seed)
    out = [
        # transpositions and a repetition on the standard array
        _random_game(rng, 518, ["g1f3", "g8f6", "b1c3", "b8c6"]),
        _random_game(rng, 518, ["b1c3", "g8f6", "g1f3", "b8c6"]),
        _random_game(rng, 518, ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "e2e4"]),
    ]
    out += [_random_game(rng, rng.choice([518, 0, 959, rng.randrange(960)]))
            for _ in range(games)]
    unfinished = _random_game(rng, 7, plies=6)
    unfinished.headers["Result"] = "*"
    text = "\n\n".join(str(g) for g in out[:10]) + "\n\n" + str(unfinished) + "\n\n" + \
        '[Event "broken"]\n[Variant "Chess960"]\n\n1. Qxh7 *\n\n' + \
        "\n\n".join(str(g) for g in out[10:]) + "\n"
    path.write_text(text, encoding="utf-8")
    return out


def _python_chess_counts(games: list[chess.pgn.Game]) -> Counts:
    counts: Counts = defaultdict(lambda: [0, 0, 0, 0])
    for game in games:
        board = game.board()
        number = board.chess960_pos()
        assert number is not None
        column = {"1-0": 1, "1/2-1/2": 2, "0-1": 3}[game.headers["Result"]]
        seen = set()
        for ply, move in enumerate(game.mainline_moves()):
            if ply >= MAX_PLIES:
                break
            key = (number, " ".join(board.fen().split()[:4]), move.uci())
            if key not in seen:
                seen.add(key)
                counts[key][0] += 1
                counts[key][column] += 1
            board.push(move)
    return counts


def _check_against(store: ExplorerStore, expected: Counts, variant: str = "chess960") -> None:
    by_position: dict[tuple[int, str], dict[str, list[int]]] = defaultdict(dict)
    for (number, fen, uci), c in expected.items():
        by_position[(number, fen)][uci] = c
    for (number, fen), moves in by_position.items():
        key = position_key(Position(fen + " 0 1", variant))
        got = {m["move"]: [m["games"], m["white_wins"], m["draws"], m["black_wins"]]
               for m in store.moves(variant, number, key)}
        assert got == moves, (number, fen)
    with store.engine.connect() as conn:
        total = conn.execute(select(func.sum(schema.explorer_moves.c.games))).scalar()
    assert total == sum(c[0] for c in expected.values())


@pytest.fixture(params=["sqlite", "postgresql"])
def any_engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    from server_support import database

    with database(request.param, tmp_path) as url:
        e = create_engine(url)
        migrate(e)
        yield e
        e.dispose()


def test_an_imported_collection_matches_python_chess(any_engine: Engine,
                                                     tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    games = _collection(pgn)
    store = ExplorerStore(any_engine)
    skipped: list[tuple[int, str]] = []
    report = import_pgn(store, pgn, "lichess", batch=7,
                        skip=lambda n, why, details: skipped.append((n, why)))
    assert report.counted == len(games)
    assert skipped == [(11, "no_result"), (12, "unreadable")]
    _check_against(store, _python_chess_counts(games))
    # The transposition meets: after 1.Nf3 Nf6 2.Nc3 and 1.Nc3 Nf6 2.Nf3, Nc6 twice.
    pos = Position(setup_from_number("chess960", 518).fen, "chess960")
    for uci in ("g1f3", "g8f6", "b1c3"):
        pos.push_uci(uci)
    assert {m["move"]: m["games"] for m in store.moves("chess960", 518, position_key(pos))
            }["b8c6"] == 2
    # A second run of the same file counts nothing again.
    assert import_pgn(store, pgn, "lichess").already_done


def test_bz2_and_a_resumed_import_count_each_game_once(engine: Engine, tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    games = _collection(pgn, 40, seed=5)
    packed = tmp_path / "games.pgn.bz2"
    packed.write_bytes(bz2.compress(pgn.read_bytes()))
    store = ExplorerStore(engine)

    class Stop(Exception):
        pass

    def stop_after_two(done: int, number: int) -> None:
        if number >= 14:
            raise Stop

    with pytest.raises(Stop):
        import_pgn(store, packed, "bz", batch=7, progress=stop_after_two)
    assert store.imports()[0]["games_read"] == 14 and not store.imports()[0]["finished"]
    report = import_pgn(store, packed, "bz", batch=7)
    assert report.resumed_after == 14
    _check_against(store, _python_chess_counts(games))


def test_a_truncated_bz2_file_stops_clearly_and_keeps_the_committed_part(
        engine: Engine, tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    _collection(pgn, 400, seed=9)
    # 100 kB blocks: the first blocks decompress before the cut one fails.
    data = bz2.compress(pgn.read_bytes(), compresslevel=1)
    assert len(pgn.read_bytes()) > 200_000
    cut = tmp_path / "cut.pgn.bz2"
    cut.write_bytes(data[: len(data) * 2 // 3])
    store = ExplorerStore(engine)
    with pytest.raises(ExplorerError, match="corrupt or cut short"):
        import_pgn(store, cut, "cut", batch=5)
    row = store.imports()[0]
    assert row["games_read"] > 0 and not row["finished"]
    with engine.connect() as conn:
        total = conn.execute(select(func.sum(schema.explorer_moves.c.games))).scalar()
    # Exactly the committed games are counted: re-count them independently.
    committed = _first_games(pgn, row["games_read"])
    assert total == sum(c[0] for c in _python_chess_counts(committed).values())


def _first_games(path: Path, n: int) -> list[chess.pgn.Game]:
    """The first ``n`` games of ``path`` that have a result and can be read."""
    out = []
    with open(path, encoding="utf-8") as handle:
        for _ in range(n):
            game = chess.pgn.read_game(handle)
            assert game is not None
            if game.headers.get("Result") in RESULTS and not game.errors and \
                    game.headers.get("Event") != "broken":
                out.append(game)
    return out


def test_kill_9_mid_import_resumes_without_double_counting(engine: Engine,
                                                           tmp_path: Path) -> None:
    pgn = tmp_path / "many.pgn"
    games = _collection(pgn, 150, seed=11)
    url = str(engine.url)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}
    command = [sys.executable, "-m", "randomchess", "explorer", "import", str(pgn),
               "--db", url, "--batch", "3", "--source", "k9"]
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    store = ExplorerStore(engine)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # until some, not all, batches are committed
        rows = store.imports() if proc.poll() is None else []
        if rows and rows[0]["games_read"] > 0 and not rows[0]["finished"]:
            break
        assert proc.poll() is None, "the import ended before it could be killed"
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    read = store.imports()[0]["games_read"]
    assert 0 < read < len(games) + 2
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    assert "resuming after game" in done.stdout
    _check_against(store, _python_chess_counts(games))


def _mrc_games(rng: random.Random, count: int) -> list[tuple[int, list[str], str]]:
    out = []
    for _ in range(count):
        number = rng.choice([0, 8226, rng.randrange(15_120)])
        pos = Position(setup_from_number("mrc", number).fen, "mrc")
        moves = []
        for _ in range(rng.randrange(1, 50)):
            legal = pos.legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            moves.append(pos.uci(move))
            pos.push(move)
        out.append((number, moves, rng.choice(RESULTS)))
    return out


def test_an_mrc_collection_matches_a_count_without_the_pgn_reader(engine: Engine,
                                                                   tmp_path: Path) -> None:
    rng = random.Random(99)
    played = _mrc_games(rng, 40)
    texts = []
    for number, moves, result in played:
        game = Position(setup_from_number("mrc", number).fen, "mrc")
        record = PgnGame(headers={"Variant": "Modern Random Chess", "Result": result},
                         variant=game.variant, start_fen=game.fen())
        for uci in moves:
            record.moves.append(Node(game.push_uci(uci)))
        record.result = result
        texts.append(write_game(record))
    pgn = tmp_path / "mrc.pgn"
    pgn.write_text("\n".join(texts), encoding="utf-8")
    store = ExplorerStore(engine)
    assert import_pgn(store, pgn, "mrc-selfplay", batch=9).counted == len(played)
    expected: Counts = defaultdict(lambda: [0, 0, 0, 0])
    for number, moves, result in played:
        pos = Position(setup_from_number("mrc", number).fen, "mrc")
        seen = set()
        for uci in moves[:MAX_PLIES]:
            fields = pos.fen().split()
            key = (number, " ".join(fields[:4] + fields[6:]), uci)
            if key not in seen:
                seen.add(key)
                expected[key][0] += 1
                expected[key][1 + ["1-0", "1/2-1/2", "0-1"].index(result)] += 1
            pos.push_uci(uci)
    for (number, fen, uci), c in expected.items():
        fields = fen.split(" ")
        key = position_key(Position(" ".join([*fields[:4], "0", "1", *fields[4:]]), "mrc"))
        got = {m["move"]: [m["games"], m["white_wins"], m["draws"], m["black_wins"]]
               for m in store.moves("mrc", number, key)}
        assert got[uci] == c
    with engine.connect() as conn:
        total = conn.execute(select(func.sum(schema.explorer_moves.c.games))).scalar()
    assert total == sum(c[0] for c in expected.values())
    assert Counter(store.sources("mrc", played[0][0])) == Counter(["mrc-selfplay"])


@pytest.fixture
def client_url(tmp_path: Path) -> Iterator[str]:
    from server_support import database

    with database("sqlite", tmp_path) as url:
        yield url


def test_the_server_counts_its_games_and_answers(client_url: str) -> None:
    from server_support import client, new_game, play

    with client(client_url) as c:
        for moves in (["e2e4", "e7e5"], ["e2e4", "c7c5"], ["d2d4"]):
            game = new_game(c, variant="chess960", setup=518)
            for m in moves:
                play(c, game, m)
            r = c.post(f"/api/games/{game['id']}/resign", json={"token": game["seat"]["token"]})
            assert r.status_code == 200
        deadline = time.monotonic() + 20
        answer: dict[str, object] = {}
        while time.monotonic() < deadline:
            answer = c.get("/api/explorer/chess960/518").json()
            if answer.get("games") == 3:
                break
            time.sleep(0.05)
        assert answer["games"] == 3 and answer["sources"] == ["server"]
        moves = {m["san"]: m["games"] for m in answer["moves"]}  # type: ignore[attr-defined]
        assert moves == {"e4": 2, "d4": 1}
        after = c.get("/api/explorer/chess960/518", params={
            "fen": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"}).json()
        assert {m["uci"] for m in after["moves"]} == {"e7e5", "c7c5"}
        assert c.get("/api/explorer/chess960/518", params={"source": "nope"}).json()[
            "games"] == 0
        bad = c.get("/api/explorer/chess960/518", params={"fen": "xx"})
        assert bad.status_code == 422 and bad.json()["code"] == "fen.invalid"
        assert c.get("/api/explorer/chess960/960").json()["code"] == "setup.out_of_range"


def test_zstd_files_import_and_a_cut_one_stops_clearly(engine: Engine, tmp_path: Path) -> None:
    import zstandard

    pgn = tmp_path / "games.pgn"
    games = _collection(pgn, 30, seed=21)
    packed = tmp_path / "games.pgn.zst"
    packed.write_bytes(zstandard.ZstdCompressor().compress(pgn.read_bytes()))
    store = ExplorerStore(engine)
    assert import_pgn(store, packed, "zst", batch=4).counted == len(games)
    _check_against(store, _python_chess_counts(games))
    cut = tmp_path / "cut.pgn.zst"
    cut.write_bytes(packed.read_bytes()[:-200])
    with pytest.raises(ExplorerError, match="corrupt or cut short"):
        import_pgn(store, cut, "cut")


def test_the_import_command_in_spanish(engine: Engine, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from randomchess.cli import main

    pgn = tmp_path / "few.pgn"
    games = _collection(pgn, 3, seed=2)
    args = ["explorer", "import", str(pgn), "--db", str(engine.url), "--lang", "es"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert f"few.pgn: {len(games)} partidas contadas, 2 omitidas (import)" in result.stdout
    # The six games, then the unfinished one and the unreadable one (_collection).
    assert "few.pgn: partida 7 omitida: no tiene resultado (*)" in result.stderr
    assert "few.pgn: partida 8 omitida: no se puede leer" in result.stderr
    again = CliRunner().invoke(main, args)
    assert "ya importado" in again.stdout
    bad = CliRunner().invoke(main, ["explorer", "import", str(pgn), "--db", str(engine.url),
                                    "--source", ""])
    assert bad.exit_code == 2 and "1-40" in bad.output


_FILTERED = """[Event "a"]
[Variant "Chess960"]
[Result "1-0"]
[TimeControl "180+2"]
[WhiteElo "1500"]
[BlackElo "1700"]

1. e4 e5 1-0

[Event "b"]
[Variant "Chess960"]
[Result "0-1"]
[TimeControl "600+0"]
[WhiteElo "2100"]
[BlackElo "2300"]

1. e4 {a comment} c5 (1... e5) $1 0-1

[Event "c"]
[Variant "Chess960"]
[Result "1/2-1/2"]

1. d4 1/2-1/2
"""


def test_filters_by_source_speed_and_rating_range(client_url: str, tmp_path: Path) -> None:
    from server_support import client

    with client(client_url) as c:
        pgn = tmp_path / "club.pgn"
        pgn.write_text(_FILTERED, encoding="utf-8")
        engine = create_engine(client_url)
        assert import_pgn(ExplorerStore(engine), pgn, "club").counted == 3
        engine.dispose()
        url = "/api/explorer/chess960/518"

        def moves(**params: object) -> dict[str, tuple[int, object]]:
            answer = c.get(url, params=params).json()
            return {m["san"]: (m["games"], m["average_rating"]) for m in answer["moves"]}

        # the second game's players average 2200, the first's 1600
        assert moves() == {"e4": (2, 1900), "d4": (1, None)}
        assert moves(speed="blitz") == {"e4": (1, 1600)}
        assert moves(speed=["blitz", "rapid"]) == {"e4": (2, 1900)}
        assert moves(min_rating=2000) == {"e4": (1, 2200)}
        assert moves(min_rating=1000, max_rating=1799) == {"e4": (1, 1600)}
        assert moves(source="club") == moves() and moves(source="server") == {}
        answer = c.get(url, params={"source": "server"}).json()
        assert answer["available"] == ["club"] and answer["sources"] == ["server"]
        start = setup_from_number("chess960", 518).fen
        after = c.get("/api/explorer/chess960", params={
            "start_fen": start,
            "fen": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"}).json()
        assert {m["san"]: m["games"] for m in after["moves"]} == {"e5": 1, "c5": 1}
        assert after["number"] == 518
        bad = c.get(url, params={"speed": "lightning"})
        assert bad.status_code == 422 and bad.json()["code"] == "input.invalid"
        bad = c.get(url, params={"min_rating": 2000, "max_rating": 1000})
        assert bad.status_code == 422 and bad.json()["code"] == "input.invalid"
        odd = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        bad = c.get("/api/explorer/chess960", params={"start_fen": odd})
        assert bad.status_code == 422 and bad.json()["code"] == "setup.invalid"


def test_the_games_behind_a_move(client_url: str, tmp_path: Path) -> None:
    from server_support import client, new_game, play

    with client(client_url) as c:
        pgn = tmp_path / "club.pgn"
        pgn.write_text(_FILTERED.replace('[Event "a"]', '[Event "a"]\n[White "Ann"]\n'
                                         '[Black "Bob"]\n[Date "2026.11.02"]'),
                       encoding="utf-8")
        engine = create_engine(client_url)
        assert import_pgn(ExplorerStore(engine), pgn, "club").counted == 3
        engine.dispose()
        game = new_game(c, variant="chess960", setup=518)
        play(c, game, "e2e4", "e7e5")
        c.post(f"/api/games/{game['id']}/resign", json={"token": game["seat"]["token"]})
        url = "/api/explorer/chess960/518/games"
        deadline = time.monotonic() + 20
        answer: dict[str, Any] = {}
        while time.monotonic() < deadline:
            answer = c.get(url, params={"move": "e2e4"}).json()
            if len(answer["games"]) == 3:
                break
            time.sleep(0.05)
        games = answer["games"]
        assert [g["source"] for g in games] == ["server", "club", "club"]  # latest first
        assert games[0]["game_id"] == game["id"] and games[0]["result"] == "0-1"
        assert games[2]["white"] == "Ann" and games[2]["black"] == "Bob"
        assert games[2]["date"] == "2026.11.02" and games[2]["white_elo"] == 1500
        assert games[2]["speed"] == "blitz" and games[2]["game_id"] is None
        e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        after = c.get(url, params={"move": "c7c5", "fen": e4}).json()["games"]
        assert [g["event"] for g in after] == ["b"]
        assert c.get(url, params={"move": "e2e4", "min_rating": 2000}).json()["games"][0][
            "event"] == "b"
        assert len(c.get(url, params={"move": "e2e4", "source": "club"}).json()["games"]) == 2
        assert c.get(url, params={"move": "e2e4", "speed": "blitz"}).json()["games"][0][
            "event"] == "a"
        bad = c.get(url, params={"move": "e2e5"})
        assert bad.status_code == 422


def test_the_quick_reader_hands_over_what_it_does_not_follow(engine: Engine,
                                                            tmp_path: Path) -> None:
    from randomchess.explorer.reader import QuickReader
    from randomchess.pgn import read_chunks

    spanish = '[Variant "Chess960"]\n[Result "1-0"]\n\n1. e4 e5 2. Cf3 Cc6 1-0\n\n'
    tagged = '[Variant "Chess960"]\n[Language "es"]\n[Result "0-1"]\n\n1. e4 e5 2. Ab5 0-1\n\n'
    rng = random.Random(5)
    sans: list[str] = []
    first = ""
    while len(sans) < MAX_PLIES:
        board = chess.Board.from_chess960_pos(518)
        board.chess960 = True
        sans = []
        while len(sans) < MAX_PLIES and not board.is_game_over():
            move = rng.choice(list(board.legal_moves))
            if not sans:
                first = move.uci()
            sans.append(board.san(move))
            board.push(move)
    # 60 legal plies, then a move that is not: counted, as docs/analysis.md says (the plies
    # after the counted ones are not read)
    long = '[Variant "Chess960"]\n[Result "1/2-1/2"]\n\n' + " ".join(sans) + " Qz9 1/2-1/2\n\n"
    pgn = tmp_path / "mixed.pgn"
    pgn.write_text(spanish + tagged + long, encoding="utf-8")
    with open(pgn, encoding="utf-8") as handle:
        quick = [QuickReader().read(lines) for lines, *_ in read_chunks(handle)]
    assert quick[0] is None and quick[1] is None and quick[2] is not None
    assert len(quick[2].pairs) <= MAX_PLIES
    store = ExplorerStore(engine)
    report = import_pgn(store, pgn, "mixed")
    assert (report.counted, report.skipped) == (3, 0)
    start = Position(setup_from_number("chess960", 518).fen, "chess960")
    expected = Counter({"e2e4": 2})
    expected[first] += 1
    assert {m["move"]: m["games"] for m in store.moves("chess960", 518, position_key(start))} \
        == dict(expected)
    after_e5 = Position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
                        "chess960")
    got = {m["move"]: m["games"] for m in store.moves("chess960", 518, position_key(after_e5))}
    assert got["g1f3"] == 1 and got["f1b5"] == 1


def test_evaluations_walk_the_tree_and_show_beside_the_moves(client_url: str,
                                                             tmp_path: Path) -> None:
    from randomchess.analysis.own import OwnEngine
    from randomchess.explorer.evaluate import evaluate_tree
    from server_support import client

    with client(client_url) as c:
        pgn = tmp_path / "club.pgn"
        pgn.write_text(_FILTERED, encoding="utf-8")
        engine = create_engine(client_url)
        store = ExplorerStore(engine)
        assert import_pgn(store, pgn, "club").counted == 3
        url = "/api/explorer/chess960/518"
        assert all(m["evaluation"] is None for m in c.get(url).json()["moves"])
        # the start, the positions after e4 and d4, and after e4 e5 / e4 c5 (min_games 1)
        assert evaluate_tree(store, OwnEngine(hash_mb=4), "chess960", 518, depth=2,
                             plies=2) == 5
        assert evaluate_tree(store, OwnEngine(hash_mb=4), "chess960", 518, depth=2,
                             plies=2) == 0  # already as deep
        engine.dispose()
        moves = {m["uci"]: m["evaluation"] for m in c.get(url).json()["moves"]}
        assert set(moves) == {"e2e4", "d2d4"}
        for ev in moves.values():
            assert ev["depth"] == 2 and ev["mate"] is None and abs(ev["cp"]) < 300
        e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        after = {m["uci"]: m["evaluation"] for m in c.get(url, params={"fen": e4}).json()[
            "moves"]}
        assert after["e7e5"] is not None and after["c7c5"] is not None


def test_the_evaluate_command(engine: Engine, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from randomchess.cli import main

    pgn = tmp_path / "club.pgn"
    pgn.write_text(_FILTERED, encoding="utf-8")
    assert import_pgn(ExplorerStore(engine), pgn, "club").counted == 3
    args = ["explorer", "evaluate", "--db", str(engine.url), "--depth", "1", "--plies", "1"]
    result = CliRunner().invoke(main, [*args, "--lang", "es"])
    assert result.exit_code == 0, result.output
    # every setup with games: here 518, its start and the positions after e4 and d4
    assert "3 posiciones evaluadas (chess960, 1 posiciones iniciales, profundidad 1)" in \
        result.stdout
    again = CliRunner().invoke(main, args)
    assert "0 positions evaluated (chess960, 1 setups, depth 1)" in again.stdout
    start = Position(setup_from_number("chess960", 518).fen, "chess960")
    assert set(ExplorerStore(engine).evals("chess960", 518, [position_key(start)])) == {
        position_key(start)}


def _fast_or_full(pos: Position, token: str) -> tuple[str, str | None]:
    """What push_fast makes of ``token`` (the position left as it was) and what parse_san
    says: the UCI move, or the error's class."""
    from randomchess.explorer.reader import push_fast
    from randomchess.san import parse_san

    before = pos.fen()
    fast = push_fast(pos, token)
    if fast is not None:
        pos.pop()
    assert pos.fen() == before
    try:
        full = pos.uci(parse_san(pos, token, "en"))
    except ValueError as e:
        full = type(e).__name__
    return full, None if fast is None else pos.uci(fast)


def test_the_fast_san_path_agrees_with_the_full_parser() -> None:
    """reader.push_fast (issue 33: the import's common moves without the full SAN parser)
    plays exactly the move parse_san reads, or leaves it to it, on every legal move of random
    Chess960 games and on texts near them: the SAN with its disambiguation dropped, a capture
    sign added or dropped, another piece letter, a check sign, the move of another man of
    that kind, which may be pinned, ambiguous or illegal."""
    from randomchess.san import san

    rng = random.Random(33)
    fast_hits = checked = 0
    for number in rng.sample(range(960), 12):
        pos = Position(setup_from_number("chess960", number).fen, "chess960")
        for _ in range(80):
            legal = pos.legal_moves()
            if not legal:
                break
            texts: set[str] = set()
            for move in legal:
                text = san(pos, move).rstrip("+#")
                body = text.replace("x", "")
                texts |= {text, text + "+", body, body[:1] + "x" + body[1:],
                          body[0] + body[-2:], "N" + body[-2:], "B" + body[-2:],
                          "Rx" + body[-2:], "Q" + body[-2:], "K" + body[-2:], body[-2:],
                          "exd" + body[-1:], body[-2:-1] + "x" + body[-2:]}
            for text in sorted(texts):
                full, fast = _fast_or_full(pos, text)
                checked += 1
                if fast is not None:
                    fast_hits += 1
                    assert fast == full, (pos.fen(), text)
            pos.push(rng.choice(legal))
    assert fast_hits > checked // 4 > 500  # the fast path does take most plain moves


def test_setup_numbers_of_start_fens_and_of_fens_that_are_not() -> None:
    """counts.setup_number's short way (a Chess960 start written as its setup's FEN) gives
    the full reading's number, and a FEN that only shares the back rank is still refused."""
    from randomchess.explorer.counts import setup_number

    for n in range(960):
        fen = Position(setup_from_number("chess960", n).fen, "chess960").fen()
        assert setup_number("chess960", fen) == n
    start = setup_from_number("chess960", 518).fen
    for wrong in (start.replace(" w ", " b "), start.replace("pppppppp", "ppppppp1"),
                  start.replace(" KQkq ", " Kkq ")):
        assert wrong != start
        with pytest.raises(ExplorerError):
            setup_number("chess960", wrong)
    assert setup_number("chess960", start.replace(" 0 1", " 0  1")) == 518  # read whole
