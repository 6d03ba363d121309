"""Server settings: one frozen value built from defaults, ``RANDOMCHESS_*`` environment
variables and keyword overrides (pydantic-settings), so every worker of a deployment reads the
same configuration and a bad value stops the start naming the setting."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import platformdirs
from pydantic import AliasChoices, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# The front end (issue 7) puts its built files here; the app mounts them when present.
PACKAGE_STATIC_DIR = Path(__file__).resolve().parents[2] / "web" / "static"


def default_db_url() -> str:
    """The embedded SQLite file in the user's data directory (created on first use)."""
    data = Path(platformdirs.user_data_dir("randomchess", appauthor=False))
    data.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{data / 'games.sqlite3'}"


class Settings(BaseSettings):
    """Everything a server process needs to know; see docs/server.md for each knob.

    Each field is read from ``RANDOMCHESS_<NAME>``; an empty ``RANDOMCHESS_STATIC_DIR`` or
    ``RANDOMCHESS_REDIS_URL`` means none.  Keyword arguments beat the environment.
    """

    model_config = SettingsConfigDict(env_prefix="RANDOMCHESS_", frozen=True, extra="forbid",
                                      populate_by_name=True)

    db_url: str = Field(default_factory=default_db_url, min_length=1)
    static_dir: Path | None = PACKAGE_STATIC_DIR
    # processes of the embedded engine pool; 0 (with redis_url): all engine work goes to
    # `randomchess worker` processes through the Redis queue (docs/server.md)
    engine_workers: int = Field(1, ge=0, le=64)
    engine_queue: str = Field("randomchess-engine", min_length=1, max_length=100,
                              pattern=r"^[A-Za-z0-9_.-]+$")  # the saq queue's name
    # upper bound of one computer move without a clock
    engine_movetime_ms: int = Field(1500, ge=1, le=600_000)
    create_per_minute: float = Field(20.0, ge=0)  # game creations per client, sustained
    create_burst: int = Field(10, ge=1)  # ... and in a burst
    # The account limits (docs/accounts.md), token buckets like the creation limit:
    login_per_minute: int = Field(10, ge=1)  # log-in attempts per client address
    account_attempts_per_15min: int = Field(20, ge=1)  # log in, password, deletion per name
    signup_per_hour: int = Field(5, ge=1)  # sign-ups per client address
    # Argon2id (64 MiB each) runs in a pool of its own, never in the database's threads:
    # this many at once (0: half the cores, at least one), this many more waiting, and any
    # further log-in, sign-up or password change is refused at once (503 account.busy).
    password_workers: int = Field(0, ge=0, le=64)
    password_queue: int = Field(16, ge=0, le=10_000)
    max_body_bytes: int = Field(16 * 1024, ge=256)
    # a request body must arrive whole within this (408)
    body_timeout_s: float = Field(10.0, gt=0)
    # ... and a request head within this of the connection's start or the last answer
    # (408, connection closed; ``randomchess serve`` only: it is uvicorn's protocol)
    header_timeout_s: float = Field(10.0, gt=0)
    # the longest a request waits for the database (then 503)
    db_timeout_s: float = Field(5.0, gt=0)
    redis_url: str | None = None  # fan WebSocket events out across workers when set
    # Proxies whose X-Forwarded-For / -Proto are believed (uvicorn's --forwarded-allow-ips:
    # comma-separated addresses or networks, "*" for any); none by default.
    forwarded_allow_ips: str = ""
    # Session and CSRF cookies marked Secure: "auto" when the request came over https (as
    # the proxy's X-Forwarded-Proto says, with forwarded_allow_ips), "always" behind a TLS
    # proxy whatever it forwards.  hsts_seconds > 0 sends Strict-Transport-Security.
    cookie_secure: Literal["auto", "always"] = "auto"
    hsts_seconds: int = Field(0, ge=0, le=63_072_000)
    heartbeat_s: float = Field(1.0, gt=0)  # how often the living server stamps the database
    # how often each process looks for flags and computer moves a dead process stranded
    sweep_s: float = Field(1.0, gt=0)
    # a clocked game between people whose side has not made its first move this long after
    # its turn began is aborted, as on lichess (correspondence games are not)
    first_move_s: float = Field(30.0, gt=0)
    # The setup preview (issue 32, docs/server.md): a timed game between people shows its
    # setup for a countdown before the clocks run, unless its seek or creator asked for
    # none.  Off: no default countdown (a game that asks for one still has it).
    preview: bool = True
    # End games at threefold repetition and at the 50-move mark without a claim, as many
    # servers do (Game(automatic_draws=True)); off under the FIDE Laws (RULES.md D-22).
    # RANDOMCHESS_AUTO_THREEFOLD, its former name, is still read.
    automatic_draws: bool = Field(False, validation_alias=AliasChoices(
        "automatic_draws", "RANDOMCHESS_AUTOMATIC_DRAWS", "RANDOMCHESS_AUTO_THREEFOLD"))
    default_level: int = Field(4, ge=1, le=8)
    # Mine every Chess960 and MRC game that ends here (20 plies or more) for puzzles, as a
    # job on the engine workers (docs/puzzles.md); off by default: it costs engine time.
    puzzles_from_games: bool = False
    # Evaluate the opening explorer's positions of every game that ends here (its first
    # ``explorer_eval_plies`` plies not yet evaluated as deep), as a job on the engine workers
    # (docs/analysis.md); off by default: it costs engine time.
    explorer_evals: bool = False
    explorer_eval_depth: int = Field(14, ge=1, le=40)
    explorer_eval_plies: int = Field(16, ge=1, le=60)
    # Extra variants from a TOML file (docs/variants.md); a file with problems is logged,
    # problem by problem, and left out: the server starts with the built-in variants.
    variants_file: Path | None = None

    @model_validator(mode="after")
    def _queue_needs_redis(self) -> Settings:
        if self.engine_workers == 0 and not self.redis_url:
            raise ValueError("engine_workers 0 sends engine work to `randomchess worker` "
                             "processes and needs redis_url (--redis URL)")
        return self

    @field_validator("static_dir", "redis_url", "variants_file", mode="before")
    @classmethod
    def _empty_is_none(cls, value: Any) -> Any:
        return None if value == "" else value

    @classmethod
    def from_env(cls, **overrides: Any) -> Settings:
        """Defaults, then ``RANDOMCHESS_<FIELD>`` variables, then ``overrides`` (not None)."""
        return cls(**{k: v for k, v in overrides.items() if v is not None})

    def with_changes(self, **changes: Any) -> Settings:
        """These settings with ``changes`` (validated; here None means None)."""
        values = {name: getattr(self, name) for name in type(self).model_fields}
        return type(self)(**{**values, **changes})
