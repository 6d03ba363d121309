"""``/ws/analysis`` reads its frames with the reader the other sockets use (issue 28, item 8).

Measured before: a binary frame (``b'{"type":"stop"}'``) or deeply nested JSON
(``"[" * 5000 + "]" * 5000``) killed the socket.  Each must get a typed error frame, change
nothing, and leave the socket serving.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from server_support import client


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("ws") / "games.sqlite3"
    with client(f"sqlite:///{Path(db)}") as c:
        yield c


@pytest.mark.parametrize("frame,status,code", [
    (b'{"type":"stop"}', 422, "frame.binary"),
    ("[" * 5000 + "]" * 5000, 422, "frame.invalid"),
    ('{"type": "analyse", "position": {"variant": "chess", "depth": 1}' + " " * 70_000 + "}",
     413, "frame.too_large"),
    ('{"type": "nonsense"}', 422, "frame.invalid"),
])
def test_a_bad_frame_gets_a_typed_error_and_the_socket_serves_on(
        c: TestClient, frame: str | bytes, status: int, code: str) -> None:
    with c.websocket_connect("/ws/analysis", headers={"Accept-Language": "es"}) as ws:
        if isinstance(frame, bytes):
            ws.send_bytes(frame)
        else:
            ws.send_text(frame)
        err = ws.receive_json()
        assert err["type"] == "error" and err["status"] == status and err["code"] == code
        assert err["detail"] == err["detail_es"]
        ws.send_json({"type": "stop"})
        assert ws.receive_json()["type"] == "stopped"
        ws.send_json({"type": "analyse", "position": {"variant": "chess", "depth": 1}})
        frames = [ws.receive_json()]
        while frames[-1]["type"] not in ("done", "error"):
            frames.append(ws.receive_json())
        assert frames[-1]["type"] == "done"
        assert frames[0]["type"] == "lines" and frames[0]["lines"]
