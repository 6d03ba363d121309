"""Checks made on raw client input before anything else sees it: the format of a game id
(before it reaches a database driver: PostgreSQL refuses a NUL byte in text with an
exception) and the nesting depth of a JSON text (before ``json.loads`` recurses into it)."""

from __future__ import annotations

import json
import re
from typing import Any

from randomchess.server.http.errors import CATALOGUE, ApiError

# Game ids are ``secrets.token_urlsafe(9)`` (12 characters); the column holds 24.
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,24}")

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
