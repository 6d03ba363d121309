"""``randomchess setups evaluate | export | show``: the setup-evaluation batch (issue 17).

``evaluate`` searches every setup of a variant (or a range) to a fixed depth with the
strongest installed engine and commits each result to the database (the server's SQLite
file by default, ``--db`` or ``RANDOMCHESS_DB_URL`` for another), so an interrupted run
resumes where it stopped; ``-j`` runs several engine processes.  ``export`` writes the set
as the data file the package ships (``randomchess/analysis/data``) and the shuffler page,
the API and tournaments' evaluation band read.  ``show`` prints a set's summary.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from queue import Empty, Queue
from typing import Any

import click

from randomchess.analysis import AnalysisError, EngineConfig, EngineUnavailableError
from randomchess.analysis.setup_eval import (
    EVALUATED_VARIANTS,
    EvaluationSet,
    SetupEvaluation,
    check_variant,
    evaluate_setup,
    shipped,
)

_TEXT = {
    "en": {"eval": "Evaluating {variant} setups ({engine}, depth {depth})",
           "done": "{n} setup(s) evaluated now, {have}/{total} stored for {variant} "
                   "({engine}, depth {depth})",
           "nothing": "every setup in the range is stored already",
           "none": "no evaluations stored for {variant} ({engine}, depth {depth})",
           "incomplete": "{have}/{total} setups evaluated: run `randomchess setups evaluate` "
                         "to finish (or --partial)",
           "wrote": "wrote {n} evaluations to {path} (digest {digest})",
           "head": "{variant}: {evaluated}/{total} setups by {engine}, depth {depth}",
           "stats": "mean {mean} cp, median {median} cp, {within} within ±0.30",
           "best": "most balanced", "worst": "least balanced"},
    "es": {"eval": "Evaluando las posiciones de {variant} ({engine}, profundidad {depth})",
           "done": "{n} posición(es) evaluada(s) ahora, {have}/{total} guardadas para "
                   "{variant} ({engine}, profundidad {depth})",
           "nothing": "todas las posiciones del intervalo ya están guardadas",
           "none": "no hay evaluaciones guardadas para {variant} ({engine}, profundidad "
                   "{depth})",
           "incomplete": "{have}/{total} posiciones evaluadas: termine con `randomchess setups "
                         "evaluate` (o use --partial)",
           "wrote": "{n} evaluaciones escritas en {path} (resumen {digest})",
           "head": "{variant}: {evaluated}/{total} posiciones por {engine}, profundidad {depth}",
           "stats": "media {mean} cp, mediana {median} cp, {within} dentro de ±0,30",
           "best": "más equilibradas", "worst": "menos equilibradas"},
}


def _store(db: str | None) -> Any:
    from sqlalchemy import create_engine

    from randomchess.analysis.setup_store import SetupEvaluationStore
    from randomchess.db import migrate
    from randomchess.server.http.settings import default_db_url

    url = db or default_db_url()
    try:
        engine = create_engine(url)
        migrate(engine)
    except Exception as e:  # a bad URL or an unreachable server
        raise click.ClickException(f"cannot open the database {url}: {e}") from None
    return SetupEvaluationStore(engine)


def _engine_name(config: EngineConfig, choice: str, variant: str) -> str:
    analyser = config.open(choice, variant)
    try:
        return str(getattr(analyser, "name", "randomchess"))
    finally:
        analyser.close()


@click.group("setups")
def setups_group() -> None:
    """Evaluate every numbered setup (Chess960, MRC) and export or show the results."""


_variant_opt = click.option("--variant", type=click.Choice(EVALUATED_VARIANTS),
                            default="chess960", show_default=True)
_db_opt = click.option("--db", envvar="RANDOMCHESS_DB_URL", default=None,
                       help="SQLAlchemy URL of the database (default: the server's SQLite file).")
_lang_opt = click.option("--lang", type=click.Choice(["en", "es"]), default="en",
                         show_default=True, help="Language of messages.")
_engine_opt = click.option("--engine", "engines", multiple=True, metavar="NAME[=PATH]",
                           help="auto (default: Stockfish for Chess960, Fairy-Stockfish for "
                                "MRC), randomchess, stockfish, fairy-stockfish or NAME=PATH.")


def _config(engines: tuple[str, ...], lang: str) -> tuple[EngineConfig, str]:
    overrides = [e for e in engines if "=" in e]
    choice = engines[-1].split("=", 1)[0] if engines else "auto"
    try:
        return EngineConfig.detect(overrides), choice
    except EngineUnavailableError as exc:
        raise click.ClickException(exc.message(lang)) from None


@setups_group.command("evaluate")
@_variant_opt
@click.option("--depth", type=click.IntRange(1, 58), default=12, show_default=True)
@_engine_opt
@click.option("--from", "first", type=click.IntRange(0), default=0, help="First setup number.")
@click.option("--to", "last", type=click.IntRange(0), default=None,
              help="Last setup number (default: the variant's last).")
@click.option("-j", "--jobs", type=click.IntRange(1, 512), default=1, show_default=True,
              help="Engine processes searching at once (with --redis: setups in flight on "
                   "the workers).")
@click.option("--redis", "redis_url", default=None, metavar="URL",
              help="Spread the setups over the engine workers (`randomchess worker`) of "
                   "this Redis instead of searching here.")
@click.option("--queue", "queue_name", default="randomchess-engine", show_default=True,
              help="The engine workers' queue (with --redis).")
@_db_opt
@_lang_opt
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def evaluate_command(variant: str, depth: int, engines: tuple[str, ...], first: int,
                     last: int | None, jobs: int, redis_url: str | None, queue_name: str,
                     db: str | None, lang: str, quiet: bool) -> None:
    """Search every setup not stored yet and store each result as it comes."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    text = _TEXT[lang]
    key = check_variant(variant)
    config, choice = _config(engines, lang)
    store = _store(db)
    try:
        name = _engine_name(config, choice, key)
    except EngineUnavailableError as exc:
        raise click.ClickException(exc.message(lang)) from None
    have = store.load(key, name, depth)
    end = have.total - 1 if last is None else min(last, have.total - 1)
    todo = [n for n in range(first, end + 1) if n not in have.items]
    console = Console(stderr=True)
    if not todo:
        console.print(text["nothing"])
        return
    work: Queue[int] = Queue()
    for n in todo:
        work.put(n)
    results: Queue[SetupEvaluation | BaseException] = Queue()
    if redis_url:
        target: Any = lambda: _on_workers(redis_url, queue_name, choice, key, name, depth,
                                          work, results, jobs)
        threads = [threading.Thread(target=target, daemon=True)]
    else:
        threads = [threading.Thread(target=_here, args=(config, choice, key, depth, work,
                                                        results), daemon=True)
                   for _ in range(min(jobs, len(todo)))]
    for t in threads:
        t.start()
    done = 0
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=console, disable=quiet) as bar:
            task = bar.add_task(text["eval"].format(variant=key, engine=name, depth=depth),
                                total=len(todo))
            while done < len(todo):
                item = results.get()
                if isinstance(item, BaseException):
                    raise item
                store.save(key, name, depth, item)
                done += 1
                bar.update(task, advance=1)
    except (AnalysisError, EngineUnavailableError) as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        while not work.empty():  # let the other workers stop after their current setup
            try:
                work.get_nowait()
            except Empty:
                break
    total = store.load(key, name, depth)
    console.print(text["done"].format(n=done, have=len(total.items), total=total.total,
                                      variant=key, engine=name, depth=depth))


def _here(config: EngineConfig, choice: str, variant: str, depth: int, work: Queue[int],
          results: Queue[SetupEvaluation | BaseException]) -> None:
    """One engine process of this machine: the setups of ``work`` until none is left, each
    result (or the error that stopped it) put on ``results`` for the main thread."""
    try:
        analyser = config.open(choice, variant)
    except BaseException as e:  # reported by the main thread
        results.put(e)
        return
    try:
        while True:
            try:
                n = work.get_nowait()
            except Empty:
                return
            results.put(evaluate_setup(analyser, variant, n, depth))
    except BaseException as e:
        results.put(e)
    finally:
        analyser.close()


def _on_workers(redis_url: str, queue_name: str, choice: str, variant: str, engine: str,
                depth: int, work: Queue[int], results: Queue[SetupEvaluation | BaseException],
                in_flight: int) -> None:
    """The setups of ``work`` as jobs of the engine queue, ``in_flight`` at a time, each
    result put on ``results`` as it comes; a worker's death hands its setup to another
    worker (the queue's re-delivery), and a score by another engine is refused."""
    import asyncio

    from randomchess.server.engines.service import QueueEngineService

    async def run() -> None:
        service = QueueEngineService(redis_url, queue_name)
        await service.start()

        async def lane() -> None:
            while True:
                try:
                    n = work.get_nowait()
                except Empty:
                    return
                out = await service.run_job("setup", choice, variant, n, depth,
                                            key=f"setup:{variant}:{choice}:{depth}:{n}",
                                            timeout_s=3600)
                if out["engine"] != engine:
                    raise AnalysisError(f"a worker evaluated with {out['engine']}, not "
                                        f"{engine}: give the workers the same engine")
                results.put(SetupEvaluation(int(out["number"]), out["cp"], out["mate"],
                                            str(out["best"])))

        try:
            await asyncio.gather(*(lane() for _ in range(in_flight)))
        finally:
            await service.close()

    try:
        asyncio.run(run())
    except BaseException as e:  # reported by the main thread
        from randomchess.server.http.errors import ApiError

        results.put(AnalysisError(e.detail) if isinstance(e, ApiError) else e)


def _stored(store: Any, variant: str, engine: str | None, depth: int | None) -> EvaluationSet:
    """The stored set asked for; without --engine/--depth the most complete one."""
    runs = [r for r in store.runs() if r[0] == variant and (engine is None or r[1] == engine)
            and (depth is None or r[2] == depth)]
    if not runs:
        raise click.ClickException(_TEXT["en"]["none"].format(
            variant=variant, engine=engine or "any engine", depth=depth or "any"))
    _, name, d, _ = max(runs, key=lambda r: (r[3], r[2]))
    loaded: EvaluationSet = store.load(variant, name, d)
    return loaded


@setups_group.command("export")
@_variant_opt
@click.option("--engine", "engine", default=None, help="The stored engine name (default: "
              "the most complete stored set).")
@click.option("--depth", type=click.IntRange(1, 60), default=None)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True)
@click.option("--partial", is_flag=True, help="Write an incomplete set too.")
@_db_opt
@_lang_opt
def export_command(variant: str, engine: str | None, depth: int | None, output: Path,
                   partial: bool, db: str | None, lang: str) -> None:
    """Write a stored set as a data file (JSON, with its digest)."""
    text = _TEXT[lang]
    evals = _stored(_store(db), check_variant(variant), engine, depth)
    if not evals.complete and not partial:
        raise click.ClickException(text["incomplete"].format(have=len(evals.items),
                                                             total=evals.total))
    output.write_text(evals.to_json(), encoding="utf-8")
    click.echo(text["wrote"].format(n=len(evals.items), path=output, digest=evals.digest()))


def _lines(evals: EvaluationSet, lang: str, k: int) -> Iterator[str]:
    text = _TEXT[lang]
    s = evals.summary(k)
    yield text["head"].format(**s)
    yield "  " + text["stats"].format(mean=s["mean_cp"], median=s["median_cp"],
                                      within=s["within_30cp"])
    for label, items in ((text["best"], s["most_balanced"]),
                         (text["worst"], s["least_balanced"])):
        shown = ", ".join(f"#{e['number']} {_fmt(e)}" for e in items)
        yield f"  {label}: {shown}"


def _fmt(e: dict[str, Any]) -> str:
    if e["mate"] is not None:
        return f"#{e['mate']}"
    return f"{e['cp'] / 100:+.2f}"


@setups_group.command("show")
@_variant_opt
@click.option("--file", "file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="A data file (default: the stored set, else the shipped one).")
@click.option("--number", type=click.IntRange(0), default=None, help="One setup's score.")
@click.option("-k", type=click.IntRange(1, 100), default=5, show_default=True)
@_db_opt
@_lang_opt
def show_command(variant: str, file: Path | None, number: int | None, k: int, db: str | None,
                 lang: str) -> None:
    """A set's summary: mean, median, the most and least balanced setups."""
    key = check_variant(variant)
    try:
        if file is not None:
            evals = EvaluationSet.from_json(file.read_text(encoding="utf-8"))
        else:
            store = _store(db)
            found = shipped(key) if not [r for r in store.runs() if r[0] == key] else None
            evals = found if found is not None else _stored(store, key, None, None)
    except AnalysisError as exc:
        raise click.ClickException(str(exc)) from None
    if number is not None:
        e = evals.items.get(number)
        click.echo(f"#{number}: {'-' if e is None else _fmt(e.as_dict())}"
                   f"{'' if e is None else ' ' + e.best}")
        return
    for line in _lines(evals, lang, k):
        click.echo(line)
