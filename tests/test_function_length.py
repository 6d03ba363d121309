"""No function of the package is over 80 lines (issue 27, item 6): a longer one is split
along the seams a reader expects.  The few exceptions are listed with their reason.

Every ``def`` in ``src/randomchess`` (methods and nested functions included) is read with
``ast``; a function's length runs from its ``def`` line to its last line, docstring
included, decorators not.
"""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "src" / "randomchess"
MAX_LINES = 80

# "path:qualified name" -> why it is still longer.
EXCEPTIONS: dict[str, str] = {}


def long_functions(root: Path = PKG) -> dict[str, int]:
    """``path:qualified name`` -> lines, for every function over ``MAX_LINES`` lines."""
    found: dict[str, int] = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()

        def visit(node: ast.AST, prefix: str, rel: str = rel) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                    name = prefix + child.name
                    lines = (child.end_lineno or child.lineno) - child.lineno + 1
                    if lines > MAX_LINES:
                        found[f"{rel}:{name}"] = lines
                    visit(child, name + ".")
                elif isinstance(child, ast.ClassDef):
                    visit(child, prefix + child.name + ".")
                else:
                    visit(child, prefix)

        visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return found


def test_no_function_is_over_80_lines() -> None:
    over = {name: n for name, n in long_functions().items() if name not in EXCEPTIONS}
    assert over == {}


def test_every_exception_is_still_needed() -> None:
    """An exception that has been split leaves the list (so the list stays true)."""
    assert sorted(set(EXCEPTIONS) - set(long_functions())) == []


def test_the_check_sees_a_long_method(tmp_path: Path) -> None:
    body = "\n".join(f"        x{i} = {i}" for i in range(MAX_LINES))
    (tmp_path / "m.py").write_text(f"class A:\n    def f(self) -> None:\n{body}\n"
                                   "    def g(self) -> None:\n        pass\n")
    assert long_functions(tmp_path) == {"m.py:A.f": MAX_LINES + 1}
