"""Variants from a data file: a TOML file of ``[variant.KEY]`` tables, one per variant, whose
fields are the fields of :class:`~randomchess.variants.Variant` (docs/variants.md).

Each table becomes a ``Variant`` through exactly the checks the built-in entries pass
(:func:`~randomchess.variants.variant_problems`, then the names across entries).  A file with
any problem is refused whole, with one :class:`VariantFileProblem` per problem naming the
file, the line (TOML's own for a syntax error; the field's line, else its table's) and the
field; nothing is registered.  Standard library only (``tomllib``), like the rules core.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from randomchess.errors import RandomChessError
from randomchess.geometry import FILE_LETTERS
from randomchess.pieces import ARCHBISHOP, CHANCELLOR, KIND_BY_LETTER, PieceKind
from randomchess.variants import (
    VALUES_8X8,
    VALUES_9X9,
    VALUES_10X8,
    VARIANTS,
    Variant,
    VariantDefinitionError,
    normalize_variant_name,
    register_variants,
    unchecked_variants,
    variant_problems,
)

__all__ = ["ENV_VARIABLE", "VariantFileError", "VariantFileProblem", "load_from_environment",
           "load_variant_file", "read_variant_file"]

# The server's setting (RANDOMCHESS_VARIANTS_FILE): its spawned engine processes read it too.
ENV_VARIABLE = "RANDOMCHESS_VARIANTS_FILE"

_KEY = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")
_REQUIRED = ("pgn_name", "files", "ranks", "army", "promotions", "castle_a", "castle_h",
             "castle_san")


@dataclass(frozen=True)
class VariantFileProblem:
    """One thing wrong in a variants file: where (line, ``variant.KEY.field``) and why."""

    file: str
    line: int | None
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"


class VariantFileError(RandomChessError):
    """A variants file that cannot be read or defines a variant wrongly (every problem)."""

    def __init__(self, problems: list[VariantFileProblem]) -> None:
        super().__init__("\n".join(map(str, problems)))
        self.problems = problems


class _FieldError(ValueError):
    """A field's value is wrong; ``part`` names the entry inside a table field (``es``)."""

    def __init__(self, message: str, part: str = "") -> None:
        super().__init__(message)
        self.part = part


# --- field readers: TOML value -> Variant field value -----------------------------------------


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise _FieldError(f"expected a string, not {type(value).__name__}")
    return value


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _FieldError(f"expected a whole number, not {value!r}")
    return value


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise _FieldError(f"expected true or false, not {value!r}")
    return value


def _texts(value: object) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise _FieldError(f"expected a list of strings, not {type(value).__name__}")
    return tuple(_text(x) for x in value)


def _kind(letter: str) -> PieceKind:
    if letter not in KIND_BY_LETTER:
        raise _FieldError(f"unknown piece letter {letter!r} (known: {''.join(KIND_BY_LETTER)})")
    return KIND_BY_LETTER[letter]


def _kinds(value: object) -> tuple[PieceKind, ...]:
    return tuple(_kind(c) for c in _text(value))


def _squares(value: object) -> tuple[int, int]:
    pair = _texts(value)
    if len(pair) != 2 or any(len(f) != 1 or f not in FILE_LETTERS for f in pair):
        raise _FieldError(f"expected the king's and the rook's file letters, e.g. "
                          f"[\"g\", \"f\"], not {list(pair)!r}")
    return FILE_LETTERS.index(pair[0]), FILE_LETTERS.index(pair[1])


def _san_pair(value: object) -> tuple[str, str]:
    pair = _texts(value)
    if len(pair) != 2:
        raise _FieldError("expected the a-side's and the far side's SAN, e.g. [\"O-O-O\", \"O-O\"]")
    return pair[0], pair[1]


def _values(value: object) -> tuple[tuple[PieceKind, int, int], ...]:
    if not isinstance(value, dict):
        raise _FieldError("expected a table of piece letter = [middlegame, endgame]")
    out = []
    for letter, pair in value.items():
        if not (isinstance(pair, list) and len(pair) == 2):
            raise _FieldError(f"{letter}: expected [middlegame, endgame] centipawns")
        out.append((_kind(letter), _int(pair[0]), _int(pair[1])))
    return tuple(out)


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_NAME_LENGTH = 60
_DESCRIPTION_LENGTH = 1000


def _languages(value: object, longest: int, what: str) -> tuple[str, str]:
    """A ``{en = "...", es = "..."}`` table of player-facing texts (either may be left out)."""
    if not isinstance(value, dict):
        raise _FieldError(f"expected a table of {what} by language: en = \"...\", es = \"...\"")
    for language in value:
        if language not in ("en", "es"):
            raise _FieldError(f"unknown language {language!r} (en, es)", language)
    out = []
    for language in ("en", "es"):
        raw = value.get(language, "")
        if not isinstance(raw, str):
            raise _FieldError(f"expected a string, not {type(raw).__name__}", language)
        if language in value and not raw.strip():
            raise _FieldError(f"an empty {what}: leave the language out instead", language)
        if _CONTROL.search(raw):
            raise _FieldError(f"a {what} has no control characters (line breaks, tabs)",
                              language)
        if len(raw) > longest:
            raise _FieldError(f"a {what} has at most {longest} characters, not {len(raw)}",
                              language)
        out.append(raw.strip())
    return out[0], out[1]


def _description(value: object) -> tuple[str, str]:
    return _languages(value, _DESCRIPTION_LENGTH, "description")


def _display_name(value: object) -> tuple[str, str]:
    return _languages(value, _NAME_LENGTH, "name")


def _choice(*allowed: str) -> Callable[[object], str]:
    def read(value: object) -> str:
        if _text(value) not in allowed:
            raise _FieldError(f"expected one of {', '.join(allowed)}, not {value!r}")
        return str(value)
    return read


_READERS: dict[str, Callable[[object], Any]] = {
    "pgn_name": _text, "files": _int, "ranks": _int, "army": _text, "promotions": _kinds,
    "castle_a": _squares, "castle_h": _squares, "castle_san": _san_pair,
    "piece_values": _values, "fixed_rank": _text,
    "symmetry": _choice("mirror", "reverse", "independent"), "bishops_opposite": _bool,
    "opposite_colours": _texts,
    "adjustment_partners": lambda v: frozenset(_kinds(v)), "classical_uci": _bool,
    "castling_notation": _choice("xfen", "files"), "aliases": _texts,
    "numbering": _choice("scharnagl", "mrc", "crc", "pm-crc", "double-scharnagl",
                         "double-mrc"),
    "engine": _bool, "hand": _text,
    "uci_name": _text, "startpos_rank": _text, "description": _description, "margin": _int,
    "display_name": _display_name,
}


def _default_values(files: int, ranks: int) -> tuple[tuple[PieceKind, int, int], ...]:
    """The engine values of the board's size (as the built-in entries use), with Capablanca's
    archbishop and chancellor, for a table without ``piece_values``."""
    base = VALUES_9X9 if files * ranks >= 81 else VALUES_8X8
    return base + tuple(row for row in VALUES_10X8 if row[0] in (ARCHBISHOP, CHANCELLOR))


# --- reading ------------------------------------------------------------------------------


class _Reader:
    """One file's text, and where its tables and fields are (tomllib gives no positions)."""

    def __init__(self, name: str, text: str) -> None:
        self.name = name
        self.lines = text.splitlines()
        self.problems: list[VariantFileProblem] = []

    def problem(self, key: str | None, field: str | None, message: str,
                part: str = "") -> None:
        path = ".".join(p for p in ("variant", key, field, part) if p) if key else (field or "")
        line = self._line(key, field, part)
        self.problems.append(VariantFileProblem(self.name, line, path, message))

    def _header(self, *names: str) -> int | None:
        """The index of the line ``[variant.KEY]`` (or ``[variant.KEY.FIELD]``)."""
        parts = [r"(\"?)" + re.escape(n) + f"\\{i + 1}" for i, n in enumerate(names)]
        header = re.compile(r"^\s*\[\s*variant\s*\.\s*" + r"\s*\.\s*".join(parts) + r"\s*\]")
        return next((i for i, t in enumerate(self.lines) if header.match(t)), None)

    def _assignment(self, start: int, name: str) -> int | None:
        """The index of ``name = ...`` in the table whose header is line ``start``."""
        pattern = re.compile(r"^\s*" + re.escape(name) + r"\s*=")
        for i in range(start + 1, len(self.lines)):
            if self.lines[i].lstrip().startswith("["):
                break
            if pattern.match(self.lines[i]):
                return i
        return None

    def _line(self, key: str | None, field: str | None, part: str = "") -> int | None:
        if key is None:
            return None
        start = self._header(key)
        if field:
            sub = self._header(key, field)  # [variant.KEY.FIELD], a table field
            if sub is not None:
                at = self._assignment(sub, part) if part else None
                return (sub if at is None else at) + 1
        if start is None:
            return None
        if field:
            at = self._assignment(start, field)  # FIELD = ... (inline tables included)
            if at is not None:
                return at + 1
        return start + 1

    def variant(self, key: str, table: object) -> Variant | None:
        if not _KEY.match(key):
            self.problem(key, None, "a variant key is 1-32 lower-case letters, digits or '-'")
            return None
        if not isinstance(table, dict):
            self.problem(key, None, "expected a table of the variant's fields")
            return None
        values = self._fields(key, table)
        if values is None:
            return None
        values.setdefault("piece_values", _default_values(values["files"], values["ranks"]))
        if "fixed_rank" not in values:
            values.setdefault("startpos_rank", "")
        with unchecked_variants():
            candidate = Variant(key=key, **values)
        problems = list(variant_problems(candidate))
        for field, why in problems:
            self.problem(key, field, why)
        return None if problems else Variant(key=key, **values)

    def _fields(self, key: str, table: dict[str, Any]) -> dict[str, Any] | None:
        values: dict[str, Any] = {}
        ok = True
        for field in table:
            if field not in _READERS:
                self.problem(key, field, "unknown field (docs/variants.md lists them)")
                ok = False
        for field in _REQUIRED:
            if field not in table:
                self.problem(key, field, "missing: every variant names it")
                ok = False
        for field, raw in table.items():
            if field in _READERS:
                try:
                    values[field] = _READERS[field](raw)
                except _FieldError as exc:
                    self.problem(key, field, str(exc), exc.part)
                    ok = False
        return values if ok else None


# Keys registered from files in this process, with their entries: loading the same
# definition again (the CLI's --variants, then the server's setting) is not a duplicate.
_LOADED: dict[str, Variant] = {}


def _name_problems(reader: _Reader, variants: list[Variant]) -> None:
    """Keys and names unique among the built-in entries and the file's own."""
    taken = {normalize_variant_name(n): v.key for v in VARIANTS.values()
             for n in (v.key, v.pgn_name, *v.aliases)}
    for v in variants:
        if _LOADED.get(v.key) == v:
            continue
        if v.key in VARIANTS:
            reader.problem(v.key, None, f"duplicate key: {v.key!r} is already a variant")
            continue
        for field, names in (("pgn_name", (v.pgn_name,)), ("aliases", v.aliases)):
            for n in names:
                other = taken.setdefault(normalize_variant_name(n), v.key)
                if other != v.key:
                    reader.problem(v.key, field, f"the name {n!r} already names {other!r}")


def read_variant_file(path: str | os.PathLike[str]) -> list[Variant]:
    """The variants ``path`` defines, checked; :class:`VariantFileError` lists every problem."""
    name = os.fspath(path)
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise VariantFileError([VariantFileProblem(name, None, "", f"cannot read: {exc}")]) \
            from None
    reader = _Reader(name, text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"at line (\d+)", str(exc))
        reader.problems.append(VariantFileProblem(
            name, int(line.group(1)) if line else None, "", f"not TOML: {exc}"))
        raise VariantFileError(reader.problems) from None
    variants = list(_tables(reader, data))
    _name_problems(reader, variants)
    if reader.problems:
        raise VariantFileError(reader.problems)
    return variants


def _tables(reader: _Reader, data: dict[str, Any]) -> Iterator[Variant]:
    for top in data:
        if top != "variant":
            reader.problem(None, top, "unknown table: a variants file holds [variant.KEY] tables")
    tables = data.get("variant", {})
    if not isinstance(tables, dict) or not tables:
        reader.problem(None, "variant", "no [variant.KEY] table")
        return
    for key, table in tables.items():
        v = reader.variant(key, table)
        if v is not None:
            yield v


def load_variant_file(path: str | os.PathLike[str]) -> tuple[Variant, ...]:
    """Read ``path`` and register its variants (``get_variant``, the server's list, the
    engine...); nothing is registered when the file has a problem."""
    variants = read_variant_file(path)
    try:
        register_variants([v for v in variants if _LOADED.get(v.key) != v])
    except VariantDefinitionError as exc:  # between entries: a random_version unknown
        raise VariantFileError([VariantFileProblem(os.fspath(path), None, exc.field, str(exc))]) \
            from None
    _LOADED.update((v.key, v) for v in variants)
    return tuple(variants)



def load_from_environment() -> None:
    """In a spawned worker process: register the variants of ``RANDOMCHESS_VARIANTS_FILE``
    if the server loaded them (set it only after a successful load); quietly nothing else."""
    path = os.environ.get(ENV_VARIABLE)
    if path:
        try:
            load_variant_file(path)
        except VariantFileError:
            return
