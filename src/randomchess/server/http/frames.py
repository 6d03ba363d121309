"""Client WebSocket frames, read the one way every socket reads them (the game, lobby and
analysis sockets): a binary frame or an unreadable one is refused with a typed ``error``
frame (422), one over the socket's limit with 413, JSON nested too deep before the parser
recurses into it; the socket serves on."""

from __future__ import annotations

from typing import Literal, TypedDict, TypeVar

from pydantic import BaseModel, ValidationError

from randomchess.server.http import guards
from randomchess.server.http.errors import ErrorBody, Lang, error_body


class ErrorFrameDict(TypedDict):
    type: Literal["error"]
    status: int
    code: str
    detail: str
    detail_en: str
    detail_es: str


def error_frame(status: int, body: ErrorBody) -> ErrorFrameDict:
    return {"type": "error", "status": status, **body}


_M = TypeVar("_M", bound=BaseModel)


def read_frame(text: str | None, model: type[_M], limit: int,
               lang: Lang = "en") -> _M | ErrorFrameDict:
    """One client frame of a socket as ``model``, or the ``error`` frame that refuses it:
    a binary frame (``text`` None) or an unreadable one 422, one over ``limit`` 413."""
    if text is None:
        return error_frame(422, error_body("frame.binary", lang))
    if len(text) > limit:
        return error_frame(413, error_body("frame.too_large", lang))
    try:
        return model.model_validate(guards.loads(text))
    except (ValueError, ValidationError) as e:
        return error_frame(422, error_body("frame.invalid", lang, reason=e))


