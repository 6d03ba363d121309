"""Which engines there are: our own (always), and Stockfish / Fairy-Stockfish where installed
(on PATH, or Debian's /usr/games) or configured with ``NAME=PATH``."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from randomchess.analysis.core import Analyser, AnalysisError
from randomchess.analysis.own import OwnEngine
from randomchess.analysis.uci_client import UciClient
from randomchess.variants import get_variant

OWN = "randomchess"
EXTERNAL = ("stockfish", "fairy-stockfish")
SEARCH_DIRS = ("/usr/games", "/usr/local/games")
_ALIASES = {"self": OWN, "own": OWN, "randomchess": OWN, "sf": "stockfish",
            "fsf": "fairy-stockfish", "fairy": "fairy-stockfish"}

MESSAGES = {
    "en": {
        "absent": "The engine {name!r} is not installed. Install it (Debian: apt-get install "
                  "{name}) or give its path with --engine {name}=PATH.",
        "unknown": "Unknown engine {name!r}: choose randomchess, stockfish, fairy-stockfish, "
                   "auto, or NAME=PATH.",
        "variant": "{engine} cannot analyse {variant}; use randomchess or fairy-stockfish.",
        "bad_path": "{path} is not an executable file.",
    },
    "es": {
        "absent": "El motor {name!r} no está instalado. Instálelo (Debian: apt-get install "
                  "{name}) o indique su ruta con --engine {name}=RUTA.",
        "unknown": "Motor desconocido {name!r}: elija randomchess, stockfish, "
                   "fairy-stockfish, auto o NOMBRE=RUTA.",
        "variant": "{engine} no puede analizar {variant}; use randomchess o fairy-stockfish.",
        "bad_path": "{path} no es un archivo ejecutable.",
    },
}


class EngineUnavailableError(AnalysisError):
    """The engine asked for is not installed, not executable, or cannot play the variant.
    ``key`` and ``params`` give the message in either language (:meth:`message`)."""

    def __init__(self, key: str, **params: str) -> None:
        self.key = key
        self.params = params
        super().__init__(self.message("en"))

    def message(self, lang: str = "en") -> str:
        return MESSAGES.get(lang, MESSAGES["en"])[self.key].format(**self.params)


def canonical(name: str) -> str:
    n = name.strip().lower()
    return _ALIASES.get(n, n)


def _executable(path: str) -> bool:
    return Path(path).is_file() and os.access(path, os.X_OK)


@dataclass
class EngineConfig:
    """Where the external engines are: found on the machine, overridden by ``NAME=PATH``."""

    paths: dict[str, str]

    @classmethod
    def detect(cls, overrides: Iterable[str] | Mapping[str, str] = ()) -> EngineConfig:
        paths: dict[str, str] = {}
        for name in EXTERNAL:
            found = shutil.which(name) or next(
                (str(Path(d, name)) for d in SEARCH_DIRS if _executable(str(Path(d, name)))),
                None)
            if found:
                paths[name] = found
        items = overrides.items() if isinstance(overrides, Mapping) else (
            parse_override(text) for text in overrides)
        for name, path in items:
            if not _executable(path):
                raise EngineUnavailableError("bad_path", path=path)
            paths[canonical(name)] = path
        return cls(paths)

    def available(self) -> list[str]:
        return [OWN, *(n for n in EXTERNAL if n in self.paths),
                *(n for n in self.paths if n not in EXTERNAL)]

    def open(self, name: str, variant_key: str) -> Analyser:
        """A running analyser; ``auto`` picks the strongest installed one for the variant."""
        name = canonical(name)
        variant = get_variant(variant_key)
        if name == "auto":
            for candidate in ("stockfish", "fairy-stockfish"):
                if candidate in self.paths:
                    engine = self._external(candidate)
                    if engine.supports(variant.key):
                        return engine
                    engine.close()
            return OwnEngine()
        if name == OWN:
            return OwnEngine()
        if name not in self.paths:
            if name in EXTERNAL:
                raise EngineUnavailableError("absent", name=name)
            raise EngineUnavailableError("unknown", name=name)
        engine = self._external(name)
        if not engine.supports(variant.key):
            engine.close()
            raise EngineUnavailableError("variant", engine=name, variant=variant.pgn_name)
        return engine

    def _external(self, name: str) -> UciClient:
        path = self.paths[name]
        fairy = "fairy" in name or "fairy" in Path(path).name
        return UciClient(name, [path], fairy=fairy)


def parse_override(text: str) -> tuple[str, str]:
    """``NAME=PATH`` as (name, path); a bare path names itself by its file name."""
    if "=" in text:
        name, path = text.split("=", 1)
        return name.strip(), path.strip()
    return Path(text).name, text
