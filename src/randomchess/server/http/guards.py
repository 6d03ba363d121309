"""Checks made on raw client input before anything else sees it: the format of a game id
(before it reaches a database driver: PostgreSQL refuses a NUL byte in text with an
exception), the nesting depth of a JSON text (before ``json.loads`` recurses into it), and
the constrained types every route declares for its path, query and body fields (issue 28
item 7), so that FastAPI refuses what no column could hold with the catalogue's typed 422
``request.invalid`` before a driver sees it:

* :data:`Text`: free text (a PGN, an event's name): no NUL byte;
* :data:`Line`: one line (a name, a variant, a move, a token): no control character;
* :data:`EventId`, :data:`SeekId`: the format the server gives those ids;
* :data:`Int32`, :data:`Int64` and the non-negative :data:`Count`, :data:`Ordinal`: integers
  the database's ``Integer`` (32-bit) and ``BigInteger`` (64-bit) columns hold.

(pydantic itself refuses a lone surrogate in any ``str``: it cannot be UTF-8.)"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any

from pydantic import Field

from randomchess.server.http.errors import CATALOGUE, ApiError

# Game ids are ``secrets.token_urlsafe(9)`` (12 characters); the column holds 24.
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,24}")

INT32_MAX = 2**31 - 1
INT64_MAX = 2**63 - 1
Text = Annotated[str, Field(pattern=r"^[^\x00]*$")]
Line = Annotated[str, Field(pattern=r"^[^\x00-\x1f\x7f]*$")]
EventId = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,24}$",
                               description="an event's id (GET /api/tournaments/{id})")]
SeekId = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,16}$", description="a seek's id")]
Int32 = Annotated[int, Field(ge=-INT32_MAX - 1, le=INT32_MAX)]
Int64 = Annotated[int, Field(ge=-INT64_MAX - 1, le=INT64_MAX)]
Count = Annotated[int, Field(ge=0, le=INT32_MAX)]  # 0, 1, 2, ...
Ordinal = Annotated[int, Field(ge=1, le=INT32_MAX)]  # 1, 2, 3, ...: a round, a board

MAX_JSON_DEPTH = 32
TOO_DEEP = CATALOGUE["request.too_deep"][0].format(levels=MAX_JSON_DEPTH)
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def check_game_id(game_id: str) -> None:
    """404 with the reason unless ``game_id`` has the format of a game id."""
    if GAME_ID.fullmatch(game_id) is None:
        raise ApiError(404, "game.bad_id")


def json_depth(text: str | bytes | bytearray) -> int:
    """The deepest nesting of arrays and objects in a JSON text (brackets inside strings
    do not count).  Cheap for the API's small messages: they have a handful of brackets."""
    if isinstance(text, bytes | bytearray):
        text = bytes(text).decode("utf-8", "replace")
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return text.count("[") + text.count("{")  # an upper bound, within the limit
    depth = deepest = 0
    for bracket in _BRACKET.findall(_STRING.sub('""', text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def too_deep(text: str | bytes | bytearray) -> bool:
    return json_depth(text) > MAX_JSON_DEPTH


def loads(text: str) -> Any:
    """``json.loads`` for client messages: :class:`ValueError` with a reason for a text
    nested too deeply, instead of a ``RecursionError`` from the parser."""
    if too_deep(text):
        raise ValueError(TOO_DEEP)
    return json.loads(text)
