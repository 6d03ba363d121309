"""Server settings: one frozen value built from defaults, keyword overrides or ``RANDOMCHESS_*``
environment variables, so every worker of a deployment reads the same configuration."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import platformdirs

# The front end (issue 7) puts its built files here; the app mounts them when present.
PACKAGE_STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"


def default_db_url() -> str:
    """The embedded SQLite file in the user's data directory (created on first use)."""
    data = Path(platformdirs.user_data_dir("randomchess", appauthor=False))
    data.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{data / 'games.sqlite3'}"


@dataclass(frozen=True)
class Settings:
    """Everything a server process needs to know; see docs/server.md for each knob."""

    db_url: str = field(default_factory=default_db_url)
    static_dir: Path | None = PACKAGE_STATIC_DIR
    engine_workers: int = 1  # processes of the engine pool
    engine_movetime_ms: int = 1500  # upper bound of one computer move without a clock
    create_per_minute: float = 20.0  # game creations per client, sustained
    create_burst: int = 10  # ... and in a burst
    max_body_bytes: int = 16 * 1024
    body_timeout_s: float = 10.0  # a request body must arrive whole within this (408)
    db_timeout_s: float = 5.0  # the longest a request waits for the database (then 503)
    redis_url: str | None = None  # fan WebSocket events out across workers when set
    # Proxies whose X-Forwarded-For / -Proto are believed (uvicorn's --forwarded-allow-ips:
    # comma-separated addresses or networks, "*" for any); none by default.
    forwarded_allow_ips: str = ""
    heartbeat_s: float = 1.0  # how often the living server stamps the database
    # End games at threefold repetition and at the 50-move mark without a claim, as many
    # servers do (Game(automatic_draws=True)); off under the FIDE Laws (RULES.md D-22).
    automatic_draws: bool = False
    default_level: int = 4

    @classmethod
    def from_env(cls, **overrides: Any) -> Settings:
        """Defaults, then ``RANDOMCHESS_<FIELD>`` variables, then ``overrides`` (not None)."""
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = os.environ.get(f"RANDOMCHESS_{f.name.upper()}")
            if raw is None and f.name == "automatic_draws":
                raw = os.environ.get("RANDOMCHESS_AUTO_THREEFOLD")  # its former name
            if raw is None:
                continue
            values[f.name] = _convert(f.name, raw)
        values.update({k: v for k, v in overrides.items() if v is not None})
        if "static_dir" in values and isinstance(values["static_dir"], str):
            values["static_dir"] = Path(values["static_dir"])
        return cls(**values)


def _convert(name: str, raw: str) -> Any:
    if name in {"engine_workers", "engine_movetime_ms", "create_burst", "max_body_bytes",
                "default_level"}:
        return int(raw)
    if name in {"create_per_minute", "heartbeat_s", "body_timeout_s", "db_timeout_s"}:
        return float(raw)
    if name == "automatic_draws":
        return raw.strip().lower() in {"1", "true", "yes", "on"}
    if name == "static_dir":
        return Path(raw) if raw else None
    return raw or None
