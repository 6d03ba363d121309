"""``randomchess explorer``: the opening explorer's data (issue 33, docs/analysis.md).

``randomchess explorer events [--db URL]`` counts the events' finished over-the-board games
(source ``otb``) now, as the server does every 30 seconds.

``randomchess explorer import FILE.pgn[.bz2|.zst] [--source NAME] [--db URL]`` counts a PGN
collection's games into the explorer, with a progress bar; run it again after an interruption
and it goes on from the last committed batch."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

_MESSAGES = {
    "en": {"skip": "{file}: game {n} skipped: {reason} ({details})",
           "unreadable": "it cannot be read", "no_result": "it has no result",
           "not_numbered": "it is not from a numbered Chess960 or MRC setup",
           "done": "{file}: {counted} games counted, {skipped} skipped ({source})",
           "resumed": "{file}: resuming after game {n}",
           "already": "{file}: already imported under {source!r}; nothing to do",
           "evaluated": "{n} positions evaluated ({variant}, {setups} setups, depth {depth})",
           "events": "events' over-the-board games: {counted} counted, {removed} taken out"},
    "es": {"skip": "{file}: partida {n} omitida: {reason} ({details})",
           "unreadable": "no se puede leer", "no_result": "no tiene resultado",
           "not_numbered": "no empieza en una posición numerada de Chess960 o MRC",
           "done": "{file}: {counted} partidas contadas, {skipped} omitidas ({source})",
           "resumed": "{file}: se reanuda tras la partida {n}",
           "already": "{file}: ya importado como {source!r}; nada que hacer",
           "evaluated": "{n} posiciones evaluadas ({variant}, {setups} posiciones iniciales, "
                        "profundidad {depth})",
           "events": "partidas presenciales de torneos: {counted} contadas, {removed} retiradas"},
}


def _store(db: str | None) -> Any:
    from sqlalchemy import create_engine

    from randomchess.db import migrate
    from randomchess.explorer.store import ExplorerStore
    from randomchess.server.http.settings import default_db_url

    url = db or default_db_url()
    try:
        engine = create_engine(url)
        migrate(engine)
    except Exception as e:  # a bad URL or an unreachable server
        raise click.ClickException(f"cannot open the database {url}: {e}") from None
    return ExplorerStore(engine)


@click.group("explorer")
def explorer_group() -> None:
    """The opening explorer: import PGN collections, evaluate its positions."""


@explorer_group.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--source", default="import", show_default=True,
              help="Name the games are kept apart under (filterable in the explorer).")
@click.option("--db", envvar="RANDOMCHESS_DB_URL", default=None,
              help="SQLAlchemy URL of the database (default: the server's SQLite file).")
# --batch: the default is importer.BATCH (not imported here: the command starts fast)
@click.option("--batch", type=click.IntRange(1, 100_000), default=2000, show_default=True,
              help="Games per transaction (an interrupted import loses at most one batch).")
@click.option("--lang", type=click.Choice(["en", "es"]), default="en", show_default=True,
              help="Language of messages.")
def import_command(file: Path, source: str, db: str | None, batch: int, lang: str) -> None:
    """Count the games of FILE.pgn (or .pgn.bz2, .pgn.zst) into the explorer."""
    from randomchess.explorer.counts import ExplorerError
    from randomchess.explorer.importer import import_pgn

    if not 1 <= len(source) <= 40:
        raise click.BadParameter("a source name has 1-40 characters", param_hint="'--source'")
    words = _MESSAGES[lang]
    store = _store(db)
    with click.progressbar(length=file.stat().st_size, label=file.name,
                           file=sys.stderr) as bar:
        seen = [0]

        def progress(done: int, games: int) -> None:
            bar.update(done - seen[0])
            seen[0] = done

        def skip(n: int, reason: str, details: str) -> None:
            click.echo("\n" + words["skip"].format(file=file.name, n=n, reason=words[reason],
                                                   details=details), err=True)

        try:
            report = import_pgn(store, file, source, batch, progress, skip)
        except ExplorerError as e:
            raise click.ClickException(str(e)) from None
    if report.already_done:
        click.echo(words["already"].format(file=file.name, source=source))
        return
    if report.resumed_after:
        click.echo(words["resumed"].format(file=file.name, n=report.resumed_after))
    click.echo(words["done"].format(file=file.name, counted=report.counted,
                                    skipped=report.skipped, source=source))


@explorer_group.command("evaluate")
@click.option("--variant", default="chess960", show_default=True,
              help="chess960 or mrc.")
@click.option("--number", type=click.IntRange(0), default=None,
              help="One setup (default: every setup of the variant with games).")
@click.option("--depth", type=click.IntRange(1, 40), default=10, show_default=True,
              help="Search depth of our engine.")
@click.option("--plies", type=click.IntRange(0, 60), default=8, show_default=True,
              help="How deep into each setup's tree.")
@click.option("--min-games", type=click.IntRange(1), default=1, show_default=True,
              help="Follow the moves played in at least this many games.")
@click.option("--db", envvar="RANDOMCHESS_DB_URL", default=None,
              help="SQLAlchemy URL of the database (default: the server's SQLite file).")
@click.option("--lang", type=click.Choice(["en", "es"]), default="en", show_default=True,
              help="Language of messages.")
def evaluate_command(variant: str, number: int | None, depth: int, plies: int,
                     min_games: int, db: str | None, lang: str) -> None:
    """Evaluate the explorer's positions with our engine (shown beside each move)."""
    from sqlalchemy import select

    from randomchess.analysis.own import OwnEngine
    from randomchess.db import schema
    from randomchess.explorer.evaluate import evaluate_tree

    store = _store(db)
    if number is None:
        t = schema.explorer_moves.c
        with store.engine.connect() as conn:
            numbers = list(conn.execute(select(t.number).distinct()
                                        .where(t.variant == variant).order_by(t.number))
                           .scalars())
    else:
        numbers = [number]
    engine = OwnEngine()
    total = 0
    for n in numbers:
        try:
            total += evaluate_tree(store, engine, variant, n, depth, plies, min_games)
        except ValueError as e:
            raise click.ClickException(str(e)) from None
    click.echo(_MESSAGES[lang]["evaluated"].format(n=total, variant=variant,
                                                   setups=len(numbers), depth=depth))


@explorer_group.command("events")
@click.option("--db", envvar="RANDOMCHESS_DB_URL", default=None,
              help="SQLAlchemy URL of the database (default: the server's SQLite file).")
@click.option("--lang", type=click.Choice(["en", "es"]), default="en", show_default=True,
              help="Language of messages.")
def events_command(db: str | None, lang: str) -> None:
    """Count the events' finished over-the-board games into the explorer (source otb)."""
    from randomchess.tournament import explorer_feed
    from randomchess.tournament.store import TournamentStore

    explorer = _store(db)
    store = TournamentStore(explorer.engine)
    try:
        total = removed = 0
        while True:  # in batches, each committed on its own
            report = explorer_feed.sync(store, explorer)
            total += report.counted
            removed += report.removed
            if not report.left:
                break
    finally:
        store.dispose()
    click.echo(_MESSAGES[lang]["events"].format(counted=total, removed=removed))
