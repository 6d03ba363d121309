"""``randomchess serve``: run the game server with uvicorn."""

from __future__ import annotations

import click


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="interface to listen on")
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--db", "db_url", default=None, metavar="URL",
              help="SQLAlchemy URL, e.g. postgresql+psycopg://user@host/db "
                   "[default: SQLite file in the user data directory]")
@click.option("--workers", default=1, show_default=True, type=int,
              help="server processes (PostgreSQL only; see docs/server.md)")
@click.option("--engine-workers", default=None, type=int,
              help="engine processes beside the server [default: 1]; 0 with --redis: all "
                   "engine work goes to `randomchess worker` processes")
@click.option("--engine", "engines", multiple=True, metavar="NAME=PATH",
              help="an external engine for analysis and levels 9, 10, maximum")
@click.option("--redis", "redis_url", default=None, metavar="URL",
              help="fan WebSocket events out across workers, e.g. redis://127.0.0.1:6379")
@click.option("--forwarded-allow-ips", default=None, metavar="ADDRS",
              help="proxies whose X-Forwarded-For is believed, comma-separated addresses "
                   "or networks (e.g. 127.0.0.1 behind a local nginx) [default: none]")
@click.option("--no-web", is_flag=True,
              help="serve the HTTP API and WebSocket only, without the web front end")
def serve_command(host: str, port: int, db_url: str | None, workers: int,
                  engine_workers: int | None, engines: tuple[str, ...], redis_url: str | None,
                  forwarded_allow_ips: str | None, no_web: bool) -> None:
    """Start the game server (HTTP API, WebSocket and the web front end)."""
    import os

    import uvicorn
    from pydantic import ValidationError

    from randomchess.cli.worker import _engine_env
    from randomchess.server.http.access_log import LOG_CONFIG
    from randomchess.server.http.assets import static_ready
    from randomchess.server.http.protocol import HTTP_PROTOCOL
    from randomchess.server.http.settings import Settings

    _engine_env(engines)
    try:
        settings = Settings.from_env(db_url=db_url, engine_workers=engine_workers,
                                     redis_url=redis_url)
    except ValidationError as e:
        problems = "; ".join(f"RANDOMCHESS_{'.'.join(map(str, err['loc'])).upper()}: "
                             f"{err['msg']}" for err in e.errors())
        raise click.ClickException(f"bad server setting: {problems}") from None
    if forwarded_allow_ips is not None:
        os.environ["RANDOMCHESS_FORWARDED_ALLOW_IPS"] = forwarded_allow_ips
    if no_web:
        os.environ["RANDOMCHESS_STATIC_DIR"] = ""
    elif settings.static_dir is not None and not static_ready(settings.static_dir):
        # (RANDOMCHESS_STATIC_DIR="" is --no-web's setting: no front end, on purpose)
        raise click.ClickException(
            f"the web front end is not built: {settings.static_dir} has no index.html and "
            "build/app.js. In a source checkout run `make web` (needs Node.js >= 20 and "
            "npm), or install a wheel or sdist of randomchess, which carry it. "
            "`randomchess serve --no-web` serves the API without the page.")
    if workers > 1 and settings.db_url.startswith("sqlite"):
        raise click.UsageError("several workers need PostgreSQL (--db postgresql+psycopg://…)")
    # The app factory reads the settings from the environment in every worker.
    os.environ["RANDOMCHESS_DB_URL"] = settings.db_url
    if redis_url:
        os.environ["RANDOMCHESS_REDIS_URL"] = redis_url
    if engine_workers is not None:
        os.environ["RANDOMCHESS_ENGINE_WORKERS"] = str(engine_workers)
    click.echo(f"randomchess server on http://{host}:{port}/  (database: "
               f"{settings.db_url.split('@')[-1]})", err=True)
    uvicorn.run("randomchess.server.http.app:create_app", factory=True, host=host, port=port,
                workers=workers, log_level="info",
                # uvicorn's, with an access log formatter that writes the same line for less
                log_config=LOG_CONFIG,
                # X-Forwarded-For is the app's business (forwarded_allow_ips), not uvicorn's
                # default of believing 127.0.0.1.
                proxy_headers=False,
                # A WebSocket frame over this closes the socket (1009) before it is held in
                # memory whole; messages over max_body_bytes are refused with 413 anyway.
                ws_max_size=max(4 * settings.max_body_bytes, 65_536),
                # uvicorn's HTTP protocol with a deadline on request heads (slowloris).
                http=HTTP_PROTOCOL)
