"""uvicorn's HTTP protocol with a deadline on request heads (slowloris).

uvicorn closes idle keep-alive connections, but a connection that sends nothing, or sends a
request head a byte at a time and never ends it, is held open for ever: enough of them use up
the server's connections.  :class:`HeadDeadline` gives every request head ``header_timeout_s``
seconds from the connection's start or the previous response's end: past it, the client gets
408 and the connection is closed.  A trickle does not extend it.  Once the head is complete
the deadline is off: the body has its own (``body_timeout_s``, the app's ``BodyLimit``) and a
WebSocket, once upgraded, is no longer this protocol's.

The mixin relies on two things uvicorn's HTTP protocols (httptools and h11) share: the
``cycle`` of the request in progress, with ``response_complete``, and the transport handing
itself to the WebSocket protocol on upgrade.  ``randomchess serve`` passes it as uvicorn's
``http`` protocol class.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
from typing import Any

from randomchess.server.http.errors import error_body

# English: the head that would say which language was not received.
_TIMEOUT_BODY = json.dumps(error_body("request.head_timeout")).encode() + b"\n"
_TIMEOUT_408 = (b"HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json\r\n"
                b"Connection: close\r\nContent-Length: " + str(len(_TIMEOUT_BODY)).encode() +
                b"\r\n\r\n" + _TIMEOUT_BODY)


@functools.cache
def header_timeout_s() -> float:
    """``RANDOMCHESS_HEADER_TIMEOUT_S`` (default 10), as the settings validate it."""
    from randomchess.server.http.settings import Settings

    raw = os.environ.get("RANDOMCHESS_HEADER_TIMEOUT_S")
    if raw is None:
        return float(Settings.model_fields["header_timeout_s"].default)
    return Settings.from_env(db_url="-", header_timeout_s=raw).header_timeout_s


_HEAD_431 = (b"HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: application/json\r\n"
             b"Connection: close\r\nContent-Length: ")
MAX_HEAD_BYTES = 64 * 1024  # a request head (with what arrives with it) past this: 431


class HeadDeadline:
    """Mixin for a uvicorn HTTP protocol class (see the module's docstring).  It also
    bounds a request head's size: past :data:`MAX_HEAD_BYTES` received while a head is
    awaited, the client gets 431 and the connection is closed (httptools sets no limit)."""

    transport: asyncio.Transport
    cycle: Any
    _head_timer: asyncio.TimerHandle | None = None
    _head_bytes = 0

    def connection_made(self, transport: asyncio.Transport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._head_timer is not None:  # a head is awaited: count what it takes
            self._head_bytes += len(data)
            if self._head_bytes > MAX_HEAD_BYTES:
                self._disarm()
                body = json.dumps(error_body("request.head_too_large")).encode() + b"\n"
                self.transport.write(_HEAD_431 + str(len(body)).encode() + b"\r\n\r\n" + body)
                self.transport.close()
                return
        super().data_received(data)  # type: ignore[misc]
        transport = self.transport
        if transport.is_closing() or transport.get_protocol() is not self:  # type: ignore[comparison-overlap]
            self._disarm()  # closed, or upgraded to a WebSocket
            return
        cycle = self.cycle
        if cycle is None or cycle.response_complete:
            self._arm()  # the next request's head has begun: it must end in time
        else:
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)  # type: ignore[misc]

    def _arm(self) -> None:
        if self._head_timer is None:
            loop = asyncio.get_running_loop()
            self._head_timer = loop.call_later(header_timeout_s(), self._expired)

    def _disarm(self) -> None:
        self._head_bytes = 0
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _expired(self) -> None:
        self._head_timer = None
        transport = self.transport
        if transport.is_closing() or transport.get_protocol() is not self:  # type: ignore[comparison-overlap]
            return
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete:
            return  # a request is being served
        transport.write(_TIMEOUT_408)
        transport.close()


from uvicorn.protocols.http.h11_impl import H11Protocol  # noqa: E402


class H11WithHeadDeadline(HeadDeadline, H11Protocol):  # type: ignore[misc]
    pass


try:  # uvicorn[standard] installs httptools, uvicorn's first choice
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover
    HTTP_PROTOCOL: type[asyncio.Protocol] = H11WithHeadDeadline
else:
    class HttpToolsWithHeadDeadline(HeadDeadline, HttpToolsProtocol):  # type: ignore[misc]
        pass

    HTTP_PROTOCOL = HttpToolsWithHeadDeadline
