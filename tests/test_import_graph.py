"""The import graph (issue 27, part 2): layers point down only, and no module imports one
that imports it back.

Every ``import`` in ``src/randomchess`` is read with ``ast`` (imports inside functions
included: a lazy import still runs up the layers).  Two rules:

* the package's layers, low to high: the database door and the shared error types; the rules
  core (geometry -> pieces -> variants -> position -> notation -> game); setups and
  diagrams; the engine; analysis, ratings and tournaments; the server and the CLI;
* inside the server, the wings: ``http`` (settings, errors, guards, limits, assets, deps)
  below ``engines`` below ``games`` below ``accounts`` below ``tournaments``, with
  ``http/app.py`` (which wires them all) on top;

and no cycle among the modules at all.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PKG = SRC / "randomchess"

# Layer of each top-level module or package of randomchess (low imports nothing higher).
LAYERS: dict[str, int] = {
    "errors": 0, "native": 0, "db": 0, "_compiled": 0,
    "geometry": 1, "clock": 1, "pieces": 2, "variants": 3, "fen": 4, "position": 5,
    # Variants read from a TOML file: entries built and checked as the built-in ones.
    "variant_file": 4,
    # PGN reads whole games, so it sits above the game record it builds.
    "san": 6, "game": 7, "pgn": 8, "scoresheet": 8, "startpos": 9, "diagram": 9,
    "brief": 9, "fairdraw": 9, "engine": 10, "analysis": 11, "accounts": 11, "explorer": 11,
    "tournament": 12, "puzzles": 12,
    "server": 13, "cli": 14, "__main__": 15,
}
# Rank of each server wing; ``http.app`` is the composition root above them all.
WINGS: dict[str, int] = {"http": 0, "engines": 1, "games": 2, "accounts": 3,
                         "tournaments": 4, "puzzles": 5}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports() -> dict[str, set[str]]:
    """Module -> the randomchess modules it imports (``from pkg import mod`` resolved to the
    submodule where one exists)."""
    modules = {module_name(p): p for p in PKG.rglob("*.py") if "migrations" not in p.parts}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names if a.name.startswith("randomchess")}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and \
                    (node.module or "").startswith("randomchess"):
                for a in node.names:
                    sub = f"{node.module}.{a.name}"
                    found.add(sub if sub in modules else node.module or "")
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def layer(module: str) -> int:
    parts = module.split(".")
    return LAYERS[parts[1]] if len(parts) > 1 else -1


def wing(module: str) -> int | None:
    parts = module.split(".")
    if parts[:2] != ["randomchess", "server"] or len(parts) < 3:
        return None
    if parts[2:4] == ["http", "app"]:
        return 99
    return WINGS.get(parts[2])


def test_every_module_has_a_layer() -> None:
    unknown = {m.split(".")[1] for m in imports() if "." in m} - set(LAYERS)
    assert unknown == set()


def test_layers_point_down_only() -> None:
    upward = []
    for module, targets in imports().items():
        if module == "randomchess":  # the package's facade re-exports the library
            continue
        for target in targets:
            if target == "randomchess":
                continue
            if layer(target) > layer(module):
                upward.append(f"{module} -> {target}")
            w, t = wing(module), wing(target)
            if w is not None and t is not None and t > w:
                upward.append(f"{module} -> {target}")
    assert sorted(upward) == []


def test_no_import_cycle() -> None:
    graph = imports()
    graph.pop("randomchess", None)
    # Tarjan's strongly connected components
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w == "randomchess" or w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert cycles == []


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    """The rules above can fail: the lazy import that tournament/store.py used to make of
    the server's store would be reported."""
    assert layer("randomchess.server.games.store") > layer("randomchess.tournament.store")
    assert wing("randomchess.server.accounts.lobby") > wing("randomchess.server.games.routes")
