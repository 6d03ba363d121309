"""The API's errors: every refusal names a code of the catalogue (server/errors.py) with its
text in English and Spanish, over HTTP and WebSocket, in the language the client asks for."""

from __future__ import annotations

import ast
import json
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from randomchess.errors import AmbiguousMoveError, FenError, IllegalMoveError, InvalidMoveError
from randomchess.server.games.contract import ApiErrorOut, ErrorFrame
from randomchess.server.http.errors import (
    CATALOGUE,
    CONTEXTS,
    ApiError,
    catalogue_codes,
    code_of,
    lang_of,
    markdown_table,
    reason_of,
)
from randomchess.server.http.protocol import _TIMEOUT_408
from randomchess.tournament.errors import PairingError
from randomchess.variants import get_variant
from server_support import client, new_game

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "src" / "randomchess" / "server"


# --------------------------------------------------------------------- the catalogue
def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_the_code_type_names_exactly_the_catalogue() -> None:
    assert sorted(catalogue_codes()) == sorted(CATALOGUE)
    assert len(set(catalogue_codes())) == len(catalogue_codes())


@pytest.mark.parametrize("code", sorted(CATALOGUE))
def test_every_code_has_both_texts(code: str) -> None:
    assert re.fullmatch(r"[a-z]+\.[a-z_]+", code)
    en, es = CATALOGUE[code]
    assert en.strip() and es.strip()
    if code not in ("request.invalid", "http.error"):  # these name other things in Spanish
        assert _fields(en) == _fields(es), code
    if _fields(en) != {"reason"} or en != "{reason}":
        # A text of its own (not a lower layer's reason alone) is translated.
        assert en != es or code == "engine.unavailable", code


def test_contexts_have_both_texts_around_the_reason() -> None:
    for name, (en, es) in CONTEXTS.items():
        assert "reason" in _fields(en) and _fields(en) == _fields(es), name


# --------------------------------------------------------------------- every raise site
_RAISERS = {"ApiError", "AccountError"}


def _refusal_sites(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, problem) for every refusal built from something other than a code."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id in _RAISERS:
            if len(node.args) < 2:
                yield node.lineno, "no code"
                continue
            code = node.args[1]
            if isinstance(code, ast.Constant):
                if code.value not in CATALOGUE:
                    yield node.lineno, f"{code.value!r} is not a code of the catalogue"
            elif not isinstance(code, (ast.Name, ast.Subscript)):
                # A Name or a subscript is typed ErrorCode (mypy checks it); anything else
                # (an f-string, str(e), e.detail) is a raw text.
                yield node.lineno, f"raw text {ast.unparse(code)}"
        elif isinstance(f, ast.Attribute) and f.attr == "wrap" and \
                isinstance(f.value, ast.Name) and f.value.id == "ApiError":
            for c in [*node.args[2:3], *(k.value for k in node.keywords if k.arg == "context")]:
                if not (isinstance(c, ast.Constant) and c.value in CONTEXTS):
                    yield node.lineno, f"context {ast.unparse(c)} is not in CONTEXTS"
        elif isinstance(f, ast.Name) and f.id == "error_body":
            code = node.args[0] if node.args else None
            if not (isinstance(code, ast.Constant) and code.value in CATALOGUE):
                yield node.lineno, "error_body without a catalogue code"
    for node in ast.walk(tree):
        # A hand-made error body or frame: {"detail": ...} or {"type": "error", ...} without
        # the catalogue's fields spread into it.
        if isinstance(node, ast.Dict):
            keys = [k.value if isinstance(k, ast.Constant) else k for k in node.keys]
            if "detail" in keys:
                yield node.lineno, "a literal 'detail'"
            if "type" in keys and None not in keys:
                value = node.values[keys.index("type")]
                if isinstance(value, ast.Constant) and value.value == "error":
                    yield node.lineno, "an error frame without the catalogue's fields"


def test_the_scan_finds_raw_texts() -> None:
    bad = '''
raise ApiError(409, "illegal move")
raise ApiError(409, f"not your turn: {c}")
raise ApiError(e.status, e.detail)
raise AccountError(422, str(e))
raise ApiError.wrap(422, e, "bad setup")
JSONResponse({"detail": "Not Found"})
send({"type": "error", "status": 422, "detail": "x"})
error_body("no.such")
'''
    assert {line for line, _ in _refusal_sites(ast.parse(bad))} == set(range(2, 10))
    good = '''
raise ApiError(409, "move.empty")
raise ApiError(409, refusals[0])
raise ApiError.wrap(422, e, "setup.bad")
send({"type": "error", "seq": 1, **exc.body(lang)})
error_body("frame.binary", lang)
'''
    assert list(_refusal_sites(ast.parse(good))) == []


def test_every_refusal_in_the_server_names_a_code() -> None:
    problems = []
    files = sorted(SERVER.rglob("*.py"))
    assert len(files) > 20
    sites = 0
    for path in files:
        if path.name == "errors.py":
            continue
        text = path.read_text()
        sites += len(re.findall(r"\b(?:ApiError|AccountError)(?:\.wrap)?\(", text))
        for line, problem in _refusal_sites(ast.parse(text)):
            problems.append(f"{path.name}:{line}: {problem}")
    assert problems == []
    assert sites > 100  # the scan saw the raise sites


def test_the_docs_list_the_catalogue() -> None:
    text = (ROOT / "docs" / "server.md").read_text()
    m = re.search(r"<!-- error-codes:begin -->\n(.*?)<!-- error-codes:end -->", text, re.S)
    assert m, "docs/server.md lost its error-code list"
    assert m.group(1) == markdown_table(), \
        "docs/server.md's error codes differ from server/errors.py: regenerate the table"


def test_the_web_pages_map_only_real_codes() -> None:
    js = (ROOT / "web" / "src" / "game" / "messages.js").read_text()
    block = js[js.index("export const CODES"):js.index("};", js.index("export const CODES"))]
    named = re.findall(r"'([a-z_]+\.[a-z_]+)':", block)
    assert len(named) > 20
    assert [c for c in named if c not in CATALOGUE] == []


# --------------------------------------------------------------------- wrapped exceptions
@pytest.mark.parametrize(("exc", "code"), [
    (FenError("rank 3 has 9 squares, expected 8"), "fen.invalid"),
    (IllegalMoveError("illegal move e2e5"), "move.illegal"),
    (InvalidMoveError("malformed move 'zz'"), "move.malformed"),
    (AmbiguousMoveError("ambiguous move 'Nd2'"), "move.ambiguous"),
    (PairingError("no pairing"), "tournament.pairing"),
    (ValueError("anything"), "input.invalid"),
])
def test_a_wrapped_exception_takes_its_class_code(exc: Exception, code: str) -> None:
    assert code_of(exc) == code
    e = ApiError.wrap(422, exc)
    assert (e.code, e.detail) == (code, str(exc))  # the English text is the core's
    assert e.body("es")["detail"].endswith(str(exc)) and e.body("es")["detail"] != str(exc)


def test_an_unknown_variant_and_fixed_core_sentences() -> None:
    with pytest.raises(ValueError) as info:
        get_variant("no-such-variant")
    assert code_of(info.value) == "variant.unknown"
    assert reason_of(FenError("empty FEN")).es == "FEN vacío"
    assert reason_of(FenError("rank 3 has 9 squares")).es == "rank 3 has 9 squares"


def test_a_code_outside_the_catalogue_is_refused() -> None:
    with pytest.raises(KeyError):
        ApiError(409, "no.such.code")  # type: ignore[arg-type]


# --------------------------------------------------------------------- the language
@pytest.mark.parametrize(("query", "header", "lang"), [
    (None, None, "en"),
    ("es", None, "es"),
    ("en", "es-ES,es;q=0.9", "en"),
    (None, "es", "es"),
    (None, "es-419,es;q=0.9,en;q=0.8", "es"),
    (None, "en-GB,en;q=0.9,es;q=0.8", "en"),
    (None, "en;q=0.5,es;q=0.9", "es"),
    (None, "fr-FR,fr;q=0.9", "en"),
    (None, "es;q=abc", "en"),
])
def test_the_language_of_detail(query: str | None, header: str | None, lang: str) -> None:
    assert lang_of(query, header) == lang


# --------------------------------------------------------------------- over the wire
@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client(f"sqlite:///{tmp_path_factory.mktemp('errors') / 'g.sqlite3'}") as c:
        yield c


def _coded(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    assert body["code"] == code, body
    assert body["detail_en"] and body["detail_es"] and body["detail_en"] != body["detail_es"]
    return body


def test_http_refusals_carry_code_and_both_texts(c: TestClient) -> None:
    g = new_game(c, variant="chess960", setup=518)
    gid, tok = g["id"], g["seat"]["token"]
    body = _coded(c.get("/api/games/nosuchgame1"), 404, "game.not_found")
    ApiErrorOut.model_validate(body)
    assert body["detail"] == body["detail_en"] == "no such game"
    assert body["detail_es"] == "no existe esa partida"
    _coded(c.get("/api/games/bad%20id"), 404, "game.bad_id")
    body = _coded(c.post(f"/api/games/{gid}/moves", json={"move": "e2e5", "token": tok}),
                  409, "move.illegal")
    assert body["detail"].startswith("illegal move 'e2e5': ")
    assert body["detail_es"].startswith("no se puede jugar 'e2e5': ")
    _coded(c.post(f"/api/games/{gid}/moves", json={"move": "zz9", "token": tok}), 409,
           "move.malformed")
    _coded(c.post(f"/api/games/{gid}/moves", json={"move": "e4", "token": "wrong"}), 403,
           "seat.wrong_token")
    _coded(c.post("/api/games", json={"variant": "chess960", "setup": "not a fen"}), 422,
           "fen.invalid")
    _coded(c.get("/api/no-such-route"), 404, "http.not_found")
    _coded(c.post("/api/games", content=b"x" * 70_000,
                  headers={"Content-Type": "application/json"}), 413, "request.too_large")


def test_the_openapi_schema_declares_the_error_body(c: TestClient) -> None:
    schema = c.get("/openapi.json").json()
    ref = {"$ref": "#/components/schemas/ApiErrorOut"}
    create = schema["paths"]["/api/games"]["post"]["responses"]
    assert create["4XX"]["content"]["application/json"]["schema"] == ref
    assert "422" not in create  # FastAPI's own validation schema is not what is sent
    assert set(schema["components"]["schemas"]["ApiErrorOut"]["properties"]) == {
        "code", "detail", "detail_en", "detail_es", "errors"}


def test_the_guards_answer_coded_bodies(c: TestClient) -> None:
    deep = b"[" * 40 + b"]" * 40
    body = _coded(c.post("/api/games", content=deep, params={"lang": "es"},
                         headers={"Content-Type": "application/json"}), 422, "request.too_deep")
    assert body["detail"] == body["detail_es"] == "JSON anidado demasiado (más de 32 niveles)"
    _coded(c.delete("/api/variants"), 405, "http.method_not_allowed")
    # The slow-head answer is written as raw bytes before any app runs: English, coded, and
    # its Content-Length right.
    head, _, raw = _TIMEOUT_408.partition(b"\r\n\r\n")
    assert f"Content-Length: {len(raw)}".encode() in head
    assert json.loads(raw)["code"] == "request.head_timeout"


def test_validation_errors_are_coded(c: TestClient) -> None:
    r = c.post("/api/games", json={"variant": "chess960", "nonsense": 1})
    body = _coded(r, 422, "request.invalid")
    ApiErrorOut.model_validate(body)
    assert "nonsense" in body["detail"] and "nonsense" in body["detail_es"]
    assert body["errors"] and body["errors"][0]["loc"][-1] == "nonsense"


def test_a_spanish_request_gets_spanish(c: TestClient) -> None:
    g = new_game(c, variant="chess960", setup=518)
    gid = g["id"]
    for kwargs in ({"params": {"lang": "es"}},
                   {"headers": {"Accept-Language": "es-ES,es;q=0.9,en;q=0.5"}}):
        body = _coded(c.get("/api/games/nosuchgame1", **kwargs), 404, "game.not_found")
        assert body["detail"] == body["detail_es"] == "no existe esa partida"
        assert body["detail_en"] == "no such game"
        body = _coded(c.post(f"/api/games/{gid}/moves",
                             json={"move": "e4", "token": "nobody"}, **kwargs),
                      403, "seat.wrong_token")
        assert body["detail"] == body["detail_es"]
        body = _coded(c.post("/api/games", json={"variant": "chess960", "x": 1}, **kwargs),
                      422, "request.invalid")
        assert body["detail"].startswith("la petición no es válida")


def test_not_your_turn_names_the_colour_in_both_languages(c: TestClient) -> None:
    g = new_game(c, variant="chess960", setup=518, opponent="friend", color="black")
    r = c.post(f"/api/games/{g['id']}/moves", json={"move": "e5", "token": g["seat"]["token"]},
               params={"lang": "es"})
    body = _coded(r, 409, "turn.not_yours")
    assert body["detail_en"] == "not your turn: white to move"
    assert body["detail"] == body["detail_es"] == "no es tu turno: juegan las blancas"


def test_the_ending_is_named_in_both_languages(c: TestClient) -> None:
    g = new_game(c, variant="chess960", setup=518)
    tok = g["seat"]["token"]
    assert c.post(f"/api/games/{g['id']}/resign", json={"token": tok}).status_code == 200
    body = _coded(c.post(f"/api/games/{g['id']}/moves", json={"move": "e4", "token": tok}),
                  409, "game.over")
    assert body["detail_en"] == "the game is over (0-1, resignation)"
    assert body["detail_es"] == "la partida ha terminado (0-1, abandono)"


def _frame(ws: Any) -> dict[str, Any]:
    msg: dict[str, Any] = ws.receive_json()
    assert msg["type"] == "error", msg
    ErrorFrame.model_validate(msg)  # the declared shape, extra="forbid"
    return msg


def test_websocket_error_frames_carry_code_and_both_texts(c: TestClient) -> None:
    g = new_game(c, variant="chess960", setup=518)
    gid, tok = g["id"], g["seat"]["token"]
    with c.websocket_connect(f"/ws/games/{gid}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "move", "move": "e2e5", "token": tok})
        msg = _frame(ws)
        assert (msg["status"], msg["code"]) == (409, "move.illegal")
        assert msg["detail"] == msg["detail_en"] != msg["detail_es"]
        ws.send_json({"type": "move", "move": "e4"})
        assert _frame(ws)["code"] == "seat.token_required"
        ws.send_text("{not json")
        assert _frame(ws)["code"] == "frame.invalid"
        ws.send_bytes(b"\x00")
        assert _frame(ws)["code"] == "frame.binary"
    with c.websocket_connect(f"/ws/games/{gid}?lang=es") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "resign"})
        msg = _frame(ws)
        assert msg["code"] == "seat.token_required"
        assert msg["detail"] == msg["detail_es"] == "hace falta el token de un asiento"
    with c.websocket_connect("/ws/games/nosuchgame1",
                             headers={"Accept-Language": "es"}) as ws:
        msg = _frame(ws)
        assert (msg["code"], msg["detail"]) == ("game.not_found", "no existe esa partida")


def test_analysis_socket_errors_are_coded(c: TestClient) -> None:
    with c.websocket_connect("/ws/analysis?lang=es") as ws:
        ws.send_text("[")
        msg = ws.receive_json()
        assert (msg["type"], msg["code"]) == ("error", "frame.invalid")
        assert msg["detail"] == msg["detail_es"] and msg["detail_en"].startswith("bad message")
        ws.send_json({"type": "analyse"})
        msg = ws.receive_json()
        assert (msg["code"], msg["detail"]) == ("frame.no_position",
                                                "para analizar hace falta una posición")
