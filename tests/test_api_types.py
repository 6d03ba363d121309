"""The browser's JSDoc typedefs (web/src/api_types.js) are generated from the server's OpenAPI
document and socket frame models by build_support/openapi_types.py (issue 27 item 3): the
checked-in file must be what the generator writes today, so the two cannot drift."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "openapi_types", ROOT / "build_support" / "openapi_types.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("openapi_types", module)
    spec.loader.exec_module(module)
    return module


GEN = _generator()


def test_checked_in_typedefs_are_current() -> None:
    fresh = GEN.render()
    current = (ROOT / "web" / "src" / "api_types.js").read_text(encoding="utf-8")
    assert current == fresh, ("web/src/api_types.js is out of date: run "
                              "python build_support/openapi_types.py")


def test_every_schema_and_frame_has_a_typedef() -> None:
    doc = GEN.document()
    text = GEN.render(doc)
    names = set(re.findall(r"@typedef \{.*\} (\w+)$", text, re.MULTILINE))
    assert names == set(doc["components"]["schemas"])
    # The answers, the bodies and the frames of the three sockets.
    assert {"GameState", "EventOut", "PlayerOut", "SeeksOut", "CreateGameIn",
            "ServerFrame", "LobbyServerFrame", "AnalysisServerFrame", "WsAnalysisIn"} <= names
    # Every type a typedef names is defined (no dangling reference).
    builtins = {"object", "string", "number", "boolean", "null", "Array", "Object"}
    used = set(re.findall(r"\b([A-Z]\w+)\b", " ".join(
        re.findall(r"\{([^}]*)\}", "\n".join(
            line for line in text.splitlines() if "@property" in line or "@typedef" in line)))))
    assert used - builtins <= names


def test_typedefs_follow_the_schema() -> None:
    text = GEN.render()
    game = text[text.index("@typedef {object} GameState"):].split("*/", 1)[0]
    assert "@property {(number|null)} number" in game
    assert "@property {GameStatus} status" in game
    assert "@typedef {'waiting'|'playing'|'ended'} GameStatus" in text
    created = text[text.index("@typedef {object} CreateGameOut"):].split("*/", 1)[0]
    assert "@property {(string|null)} [invite_url]" in created  # optional: may be absent
    assert GEN.js_type({"type": "object", "additionalProperties": {"type": "integer"}}) \
        == "Object<string, number>"
    assert GEN.js_type({"anyOf": [{"type": "integer"}, {"type": "number"}]}) == "number"
