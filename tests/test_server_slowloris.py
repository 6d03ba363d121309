"""Slow clients (issue 13, Server 5), on a real uvicorn (``randomchess serve``): a request
whose body stops halfway gets 408 and its connection closed once ``body_timeout_s`` has
passed; a connection that sends nothing, or a request head that never ends (sent slowly, a
byte at a time), is closed once ``header_timeout_s`` has passed.  Other clients are served
meanwhile, keep-alive connections and WebSockets live on."""

from __future__ import annotations

import contextlib
import socket
import time
import urllib.request
from collections.abc import Iterator

import pytest

from server_support import running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    with running_server(tmp_path_factory.mktemp("slow"), "--no-web",
                        RANDOMCHESS_BODY_TIMEOUT_S="1", RANDOMCHESS_HEADER_TIMEOUT_S="1") as url:
        yield int(url.rsplit(":", 1)[1])


def _read_until_closed(sock: socket.socket, limit_s: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes; how long that took."""
    start = time.monotonic()
    sock.settimeout(limit_s)
    data = b""
    try:
        while chunk := sock.recv(4096):
            data += chunk
    except TimeoutError:
        pytest.fail(f"the connection was still open after {limit_s} s: {data!r}")
    except ConnectionResetError:
        pass
    return data, time.monotonic() - start


def _one_response(sock: socket.socket) -> bytes:
    """One whole HTTP response (head and Content-Length body) from a keep-alive socket."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        assert chunk, data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        chunk = sock.recv(4096)
        assert chunk, data
        body += chunk
    return head + b"\r\n\r\n" + body


# The move route's door in front of the middleware (issue 36) waits for the body too.
@pytest.mark.parametrize("path", [b"/api/games", b"/api/games/AAAAAAAAAAAA/moves"])
def test_half_sent_body_is_timed_out_and_closed(server: int, path: bytes) -> None:
    with socket.create_connection(("127.0.0.1", server)) as sock:
        start = time.monotonic()
        sock.sendall(b"POST " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 200\r\n\r\n"
                     b'{"variant": "ch')
        # Meanwhile another client is served at once.
        with urllib.request.urlopen(f"http://127.0.0.1:{server}/api/health", timeout=2) as r:
            assert r.status == 200
        data, _ = _read_until_closed(sock, limit_s=6)
        took = time.monotonic() - start
    assert data.startswith(b"HTTP/1.1 408"), data
    assert b"request body" in data
    assert 0.9 <= took <= 5, took  # body_timeout_s is 1


def test_a_trickled_body_is_timed_out_too(server: int) -> None:
    # A byte every 0.3 s keeps the socket busy but must not reset the deadline.
    with socket.create_connection(("127.0.0.1", server)) as sock:
        sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 200\r\n\r\n")
        start = time.monotonic()
        try:
            for _ in range(30):
                sock.sendall(b" ")
                time.sleep(0.3)
        except (BrokenPipeError, ConnectionResetError):
            pass
        data, _ = _read_until_closed(sock, limit_s=6)
    assert data.startswith(b"HTTP/1.1 408"), data
    assert time.monotonic() - start < 6


@pytest.mark.parametrize("head", [b"", b"GET /api/health HTTP/1.1\r\nHost: x\r\n"])
def test_silent_connections_and_unfinished_heads_are_closed(server: int, head: bytes) -> None:
    with socket.create_connection(("127.0.0.1", server)) as sock:
        start = time.monotonic()
        sock.sendall(head)
        data, _ = _read_until_closed(sock, limit_s=6)
        took = time.monotonic() - start
    assert data == b"" or data.startswith(b"HTTP/1.1 408"), data
    assert 0.9 <= took <= 5, took  # header_timeout_s is 1


def test_a_trickled_head_is_closed_too(server: int) -> None:
    head = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 40
    with socket.create_connection(("127.0.0.1", server)) as sock:
        start = time.monotonic()
        try:
            for byte in head:
                sock.sendall(bytes([byte]))
                time.sleep(0.1)
        except (BrokenPipeError, ConnectionResetError):
            pass
        _read_until_closed(sock, limit_s=6)
    assert time.monotonic() - start < 5


def test_keep_alive_requests_and_websockets_outlive_the_head_deadline(server: int) -> None:
    import asyncio

    import websockets

    with socket.create_connection(("127.0.0.1", server)) as sock:
        sock.settimeout(5)
        for _ in range(3):  # one connection, several requests, 0.6 s apart (> 1 s in all)
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            answer = _one_response(sock)
            assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"}"), answer
            time.sleep(0.6)
    r = urllib.request.urlopen(urllib.request.Request(
        f"http://127.0.0.1:{server}/api/games", method="POST",
        data=b'{"variant": "chess", "opponent": "hotseat"}',
        headers={"Content-Type": "application/json"}), timeout=5)
    gid = __import__("json").loads(r.read())["id"]

    async def socket_life() -> str:
        async with websockets.connect(f"ws://127.0.0.1:{server}/ws/games/{gid}") as ws:
            await ws.recv()  # the state
            await asyncio.sleep(2.0)  # past the head deadline
            await ws.send('{"type": "ping"}')
            return str(await asyncio.wait_for(ws.recv(), 5))

    assert asyncio.run(socket_life()) == '{"type":"pong"}'


def test_an_oversized_request_head_is_refused(server: int) -> None:
    """Issue 28, item 11: a 100 KB request head was accepted.  Past 64 KiB the connection
    gets 431 and is closed; an ordinary head is still served."""
    head = (b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
            b"".join(b"X-Big-%d: %s\r\n" % (i, b"a" * 1000) for i in range(100)) + b"\r\n")
    with socket.create_connection(("127.0.0.1", server)) as sock:
        sock.settimeout(5)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(head)
        data, _ = _read_until_closed(sock, limit_s=5)
    assert data.startswith(b"HTTP/1.1 431"), data[:80]
    with socket.create_connection(("127.0.0.1", server)) as sock:
        sock.settimeout(5)
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     + b"X-Fine: " + b"a" * 4000 + b"\r\n\r\n")
        assert _one_response(sock).startswith(b"HTTP/1.1 200")
