"""``randomchess puzzles``: generate puzzles for Chess960 and MRC (docs/puzzles.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click

from randomchess.puzzles.model import PUZZLE_VARIANTS

if TYPE_CHECKING:
    from rich.console import Console

    from randomchess.analysis.core import Analyser
    from randomchess.puzzles.generator import Candidate, Criteria

_TEXT = {
    "en": {
        "generate": "{variant}: puzzles ({engine})",
        "done": "{found} new puzzles written to {out} ({examined} candidate positions "
                "examined).",
        "skip": "{file}: game {n} skipped ({reason})",
        "wrong_variant": "not {variant}",
        "verify": "{variant}: re-verifying ({engine}, {depth} plies)",
        "verified": "{kept} of {total} puzzles hold at the deeper search; written to {out}.",
        "failed": "fails the deeper search: {id}",
        "bad_theme": "Unknown theme {theme!r}: the themes are {themes}.",
        "theme_variant": "The theme {theme} does not exist in {variant} (only in {variants}).",
    },
    "es": {
        "generate": "{variant}: problemas ({engine})",
        "done": "{found} problemas nuevos escritos en {out} ({examined} posiciones "
                "candidatas examinadas).",
        "skip": "{file}: partida {n} omitida ({reason})",
        "wrong_variant": "no es {variant}",
        "verify": "{variant}: nueva verificación ({engine}, {depth} medias jugadas)",
        "verified": "{kept} de {total} problemas resisten la búsqueda más profunda; escritos "
                    "en {out}.",
        "failed": "no resiste la búsqueda más profunda: {id}",
        "bad_theme": "Tema desconocido {theme!r}: los temas son {themes}.",
        "theme_variant": "El tema {theme} no existe en {variant} (solo en {variants}).",
    },
}


@click.group("puzzles")
def puzzles_group() -> None:
    """Puzzles for Chess960 and Modern Random Chess."""


@puzzles_group.command("generate")
@click.option("--variant", type=click.Choice(PUZZLE_VARIANTS), required=True)
@click.option("--count", type=click.IntRange(1, 1_000_000), required=True,
              help="How many new puzzles to write.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="JSON-lines file; new puzzles are appended (ones already there are "
                   "not repeated).")
@click.option("--pgn", "pgn_files", multiple=True,
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Mine these games (PGN) instead of engine self-play.")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the self-play games' setups and mistakes.")
@click.option("--theme", default=None,
              help="Only puzzles with this theme: castling, adjustment (MRC) or "
                   "primeMinisterPromotion (MRC); self-play is then steered towards it.")
@click.option("--lang", type=click.Choice(["en", "es"]), default="en", show_default=True)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def generate_command(variant: str, count: int, out: Path, pgn_files: tuple[Path, ...],
                     seed: int, theme: str | None, lang: str, quiet: bool) -> None:
    """Find COUNT new puzzles by engine self-play from random setups (or in PGN games)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from randomchess.analysis.core import AnalysisError
    from randomchess.analysis.engines import EngineUnavailableError
    from randomchess.puzzles.generator import (
        CRITERIA,
        THEME_VARIANTS,
        PuzzleFinder,
        generate,
        open_engine,
        selfplay_stream,
        themed_stream,
    )
    from randomchess.puzzles.model import read_jsonl

    text = _TEXT[lang]
    if theme is not None:
        if theme not in THEME_VARIANTS:
            raise click.ClickException(text["bad_theme"].format(
                theme=theme, themes=", ".join(THEME_VARIANTS)))
        if variant not in THEME_VARIANTS[theme]:
            raise click.ClickException(text["theme_variant"].format(
                theme=theme, variant=variant, variants=", ".join(THEME_VARIANTS[theme])))
    console = Console(stderr=True)
    seen: set[str] = set()
    if out.exists():
        for puzzle in read_jsonl(out.read_text(encoding="utf-8").splitlines()):
            seen.add(puzzle.id)
            seen.add(" ".join(puzzle.fen.split()[:4]))
    try:
        engine = open_engine(variant)
    except EngineUnavailableError as exc:
        raise click.ClickException(exc.message(lang)) from None
    criteria = CRITERIA[variant]
    finder = PuzzleFinder(engine, criteria)
    if pgn_files:
        stream = _pgn_stream(engine, variant, pgn_files, criteria, console, text)
    elif theme is not None:
        stream = themed_stream(engine, variant, theme, seed, criteria)
    else:
        stream = selfplay_stream(engine, variant, seed, criteria)
    found = examined = 0
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TextColumn("{task.fields[examined]}"), console=console,
                      disable=quiet) as bar:
            task = bar.add_task(text["generate"].format(variant=variant, engine=engine.name),
                                total=count, examined="")

            def progress(n: int, seen_count: int) -> None:
                nonlocal examined
                examined = seen_count
                bar.update(task, completed=n, examined=f"({seen_count})")

            with out.open("a", encoding="utf-8") as handle:
                for puzzle in generate(finder, stream, count, seen, progress, theme):
                    handle.write(puzzle.to_json() + "\n")
                    handle.flush()
                    found += 1
    except AnalysisError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        engine.close()
    console.print(text["done"].format(found=found, out=out, examined=examined))


@puzzles_group.command("verify")
@click.option("--variant", type=click.Choice(PUZZLE_VARIANTS), required=True)
@click.option("--in", "source", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              required=True, help="Puzzles (JSON lines) to re-verify.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Where the puzzles that hold are written (replaced).")
@click.option("--plies", type=click.IntRange(1, 20), default=4, show_default=True,
              help="How much deeper than the generation's search.")
@click.option("--lang", type=click.Choice(["en", "es"]), default="en", show_default=True)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def verify_command(variant: str, source: Path, out: Path, plies: int, lang: str,
                   quiet: bool) -> None:
    """Keep the puzzles a deeper search finds again (what the shipped set went through)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from randomchess.analysis.engines import EngineUnavailableError
    from randomchess.puzzles import generator
    from randomchess.puzzles.generator import CRITERIA, PuzzleFinder, deeper, open_engine
    from randomchess.puzzles.model import read_jsonl

    text = _TEXT[lang]
    console = Console(stderr=True)
    puzzles = [p for p in read_jsonl(source.read_text(encoding="utf-8").splitlines())
               if p.variant == variant]
    try:
        engine = open_engine(variant)
    except EngineUnavailableError as exc:
        raise click.ClickException(exc.message(lang)) from None
    criteria = deeper(CRITERIA[variant], plies)
    finder = PuzzleFinder(engine, criteria)
    kept = 0
    try:  # each puzzle that holds is written at once: a stopped run keeps them
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      console=console, disable=quiet) as bar, \
                out.open("w", encoding="utf-8") as handle:
            task = bar.add_task(text["verify"].format(variant=variant, engine=engine.name,
                                                      depth=criteria.verify_depth),
                                total=len(puzzles))
            for puzzle in puzzles:
                if generator.holds(finder, puzzle):
                    handle.write(puzzle.to_json() + "\n")
                    handle.flush()
                    kept += 1
                else:
                    console.print(text["failed"].format(id=puzzle.id))
                bar.update(task, advance=1)
    finally:
        engine.close()
    console.print(text["verified"].format(kept=kept, total=len(puzzles), out=out))


def _pgn_stream(analyser: Analyser, variant: str, files: tuple[Path, ...],
                criteria: Criteria, console: Console, text: dict[str, str]
                ) -> Iterator[tuple[Candidate, str]]:
    from randomchess.pgn import read_games
    from randomchess.puzzles.generator import game_candidates

    for path in files:
        for game in read_games(path):
            if game.error is not None or game.variant.key != variant:
                reason = str(game.error) if game.error is not None else \
                    text["wrong_variant"].format(variant=variant)
                console.print(text["skip"].format(file=path.name, n=game.number,
                                                  reason=reason))
                continue
            for candidate in game_candidates(analyser, game.start_position(),
                                             game.mainline(), criteria):
                yield candidate, "pgn"
