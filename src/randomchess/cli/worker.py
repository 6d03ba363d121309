"""``randomchess worker`` (an engine worker on the Redis queue) and ``randomchess workers``
(what the queue's workers are doing)."""

from __future__ import annotations

import json

import click

DEFAULT_QUEUE = "randomchess-engine"  # engine_service.DEFAULT_QUEUE, without importing it


def _engine_env(engines: tuple[str, ...]) -> None:
    """``--engine NAME=PATH`` for this process and its search processes, checked now."""
    import os

    from randomchess.analysis.engines import EngineConfig, EngineUnavailableError

    if not engines:
        return
    try:
        EngineConfig.detect(engines)
    except EngineUnavailableError as exc:
        raise click.BadParameter(str(exc), param_hint="--engine") from None
    os.environ["RANDOMCHESS_ENGINES"] = ",".join(engines)


@click.command("worker")
@click.option("--redis", "redis_url", required=True, metavar="URL",
              help="the server's Redis, e.g. redis://127.0.0.1:6379")
@click.option("--concurrency", default=1, show_default=True, type=click.IntRange(1, 64),
              help="jobs at once (one search process each)")
@click.option("--engine", "engines", multiple=True, metavar="NAME=PATH",
              help="an external engine (stockfish, fairy-stockfish); found on PATH and in "
                   "/usr/games otherwise")
@click.option("--queue", "queue_name", default=DEFAULT_QUEUE, show_default=True,
              help="the queue's name (the server's RANDOMCHESS_ENGINE_QUEUE)")
def worker_command(redis_url: str, concurrency: int, engines: tuple[str, ...],
                   queue_name: str) -> None:
    """Run engine jobs (computer moves, analysis, reviews) for `randomchess serve --redis URL
    --engine-workers 0`, on this host, until stopped (Ctrl-C, SIGTERM)."""
    import asyncio
    import logging

    from randomchess.server.engines.worker import run_worker

    _engine_env(engines)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    try:
        asyncio.run(run_worker(redis_url, concurrency, queue_name))
    except OSError as exc:
        raise click.ClickException(f"cannot reach Redis at {redis_url}: {exc}") from None
    except KeyboardInterrupt:
        pass


@click.command("workers")
@click.option("--redis", "redis_url", required=True, metavar="URL")
@click.option("--queue", "queue_name", default=DEFAULT_QUEUE, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def workers_command(redis_url: str, queue_name: str, as_json: bool) -> None:
    """Show the connected engine workers, the queue's depth and the jobs' latency."""
    import asyncio

    from randomchess.server.engines.worker import queue_report

    try:
        report = asyncio.run(queue_report(redis_url, queue_name))
    except OSError as exc:
        raise click.ClickException(f"cannot reach Redis at {redis_url}: {exc}") from None
    except Exception as exc:  # redis.exceptions.ConnectionError is not an OSError
        raise click.ClickException(f"cannot read the queue at {redis_url}: {exc}") from None
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    click.echo(f"queue {report['queue']}: {len(report['workers'])} worker(s), "
               f"{report['queued']} queued, {report['active']} running")
    for w in report["workers"]:
        click.echo(f"  {w['id']}  host {w['host']} pid {w['pid']}  concurrency "
                   f"{w['concurrency']}  engines {', '.join(w['engines'])}  done "
                   f"{w['complete']} failed {w['failed']} retried {w['retried']}  up "
                   f"{w['uptime_s']} s")

    def ms(v: object) -> str:
        return "-" if v is None else f"{v} ms"

    click.echo(f"latency (enqueue to result, last {report['recent_jobs']} jobs): p50 "
               f"{ms(report['latency_p50_ms'])}, p95 {ms(report['latency_p95_ms'])}; "
               f"queue wait p50 {ms(report['queue_wait_p50_ms'])}")
