"""``randomchess analyse FILE.pgn``: a computer review of every game in a PGN file, written
back as PGN with ``[%eval]`` comments, NAGs (?! ? ??), the better line at each mark and the
accuracy of each side (docs/engine.md, "Game review")."""

from __future__ import annotations

import sys
from typing import TextIO

import click

from randomchess.analysis import AnalysisError, EngineConfig, EngineUnavailableError, Limit
from randomchess.analysis.review import annotated_pgn, review_game
from randomchess.pgn import read_games

_TEXT = {
    "en": {"broken": "{name}: game {n} skipped: {error}", "done": "{n} game(s) reviewed by "
           "{engine}", "review": "Reviewing game {n}", "acc": "accuracy White {w}, Black {b}"},
    "es": {"broken": "{name}: partida {n} omitida: {error}", "done": "{n} partida(s) "
           "analizada(s) por {engine}", "review": "Analizando la partida {n}",
           "acc": "precisión Blancas {w}, Negras {b}"},
}


@click.command("analyse")
@click.argument("file", type=click.File("r", encoding="utf-8-sig", errors="replace"))
@click.option("--engine", "engines", multiple=True, metavar="NAME[=PATH]",
              help="randomchess (default), stockfish, fairy-stockfish, auto, or NAME=PATH "
                   "to use an engine installed elsewhere (repeatable: the last NAME is used).")
@click.option("--depth", type=click.IntRange(1, 60), default=None,
              help="Search depth per position (default: at most 12 plies and 1 s).")
@click.option("--movetime", type=click.IntRange(10, 600_000), default=None, metavar="MS",
              help="Thinking time per position in milliseconds.")
@click.option("-o", "--output", type=click.File("w", encoding="utf-8"), default="-",
              help="Annotated PGN (default: standard output).")
@click.option("--lang", type=click.Choice(["en", "es"]), default="en", show_default=True,
              help="Language of the comments and messages.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def analyse_command(file: TextIO, engines: tuple[str, ...], depth: int | None,
                    movetime: int | None, output: TextIO, lang: str, quiet: bool) -> None:
    """Review every game of FILE ('-' for stdin) and write the annotated PGN."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn

    text = _TEXT[lang]
    overrides = [e for e in engines if "=" in e]
    choice = engines[-1].split("=", 1)[0] if engines else "randomchess"
    try:
        config = EngineConfig.detect(overrides)
        if depth is None and movetime is None:
            limit = Limit(depth=12, movetime=1000)  # whichever comes first
        else:
            limit = Limit(depth=depth or 0, movetime=movetime or 0)
    except EngineUnavailableError as exc:
        raise click.ClickException(exc.message(lang)) from None
    except AnalysisError as exc:
        raise click.ClickException(str(exc)) from None
    name = getattr(file, "name", "-")
    console = Console(stderr=True)
    open_engines: dict[str, object] = {}
    done = 0
    engine_name = choice
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      console=console, disable=quiet, transient=False) as bar:
            for game in read_games(file):
                if game.error is not None:
                    console.print(text["broken"].format(name=name, n=game.number,
                                                        error=game.error))
                    continue
                key = game.variant.key
                engine = open_engines.get(key)
                if engine is None:
                    try:
                        engine = open_engines[key] = config.open(choice, key)
                    except EngineUnavailableError as exc:
                        raise click.ClickException(exc.message(lang)) from None
                task = bar.add_task(text["review"].format(n=game.number),
                                    total=len(game.moves) + 1)

                def step(done_: int, total: int, task: TaskID = task) -> None:
                    bar.update(task, completed=done_, total=total)

                review = review_game(game, engine, limit, step)  # type: ignore[arg-type]
                engine_name = review.engine
                output.write(annotated_pgn(game, review, lang))
                w, b = review.accuracy
                console.print(text["acc"].format(w="-" if w is None else f"{w:.1f}",
                                                 b="-" if b is None else f"{b:.1f}"))
                done += 1
    except AnalysisError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        for engine in open_engines.values():
            engine.close()  # type: ignore[attr-defined]
    console.print(text["done"].format(n=done, engine=engine_name))
    if done == 0:
        sys.exit(1)
