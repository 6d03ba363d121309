"""``randomchess match``: a match between two UCI engines, with the Elo difference."""

from __future__ import annotations

from pathlib import Path

import click

from randomchess.analysis.match import (
    EngineSpec,
    MatchGame,
    MatchScore,
    TimeControl,
    game_pgn,
    run_match,
)
from randomchess.analysis.uci_client import EngineError
from randomchess.variants import VARIANTS, get_variant

VARIANT_CHOICE = click.Choice([*sorted(VARIANTS), "fischerandom"], case_sensitive=False)


def _options(items: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep:
            raise click.BadParameter(f"{item!r}: expected NAME=VALUE")
        out[name.strip()] = value.strip()
    return out


@click.command("match")
@click.argument("first")
@click.argument("second")
@click.option("--variant", type=VARIANT_CHOICE, default="chess960", show_default=True)
@click.option("--games", "-n", type=click.IntRange(1), default=20, show_default=True,
              help="Games (rounded up to pairs: every setup is played with both colours).")
@click.option("--tc", default="10+0.1", show_default=True,
              help="Seconds+increment, or movetime=MS for a fixed time per move.")
@click.option("--option1", "-o1", multiple=True, help="UCI option NAME=VALUE for FIRST.")
@click.option("--option2", "-o2", multiple=True, help="UCI option NAME=VALUE for SECOND.")
@click.option("--concurrency", "-c", type=click.IntRange(1), default=1, show_default=True)
@click.option("--pgn", "pgn_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the games to this PGN file.")
@click.option("--seed", type=int, help="Seed for the random setups.")
@click.option("--adjustment/--no-adjustment", default=None,
              help="MRC: only arrays with the Bishop Adjustment / play them without it.")
@click.option("--max-plies", type=click.IntRange(20), default=400, show_default=True,
              help="Adjudicate a draw after this many plies.")
def match_command(first: str, second: str, variant: str, games: int, tc: str,
                  option1: tuple[str, ...], option2: tuple[str, ...], concurrency: int,
                  pgn_path: Path | None, seed: int | None, adjustment: bool | None,
                  max_plies: int) -> None:
    """Play a match between two UCI engines: FIRST and SECOND are 'self', 'sunfish',
    'stockfish', 'fairy-stockfish' or a command line.  Prints FIRST's score and the Elo
    difference with its 95 % margin."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    a = EngineSpec.parse(first, _options(option1))
    b = EngineSpec.parse(second, _options(option2))
    if a.name == b.name:
        b.name += "-2"
    control = TimeControl.parse(tc)
    v = get_variant(variant)
    total = games + games % 2
    records: list[MatchGame] = []
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[score]}"), transient=False,
    ) as progress:
        task = progress.add_task(f"{a.name} vs {b.name}", total=total, score="")

        def on_game(rec: MatchGame, score: MatchScore) -> None:
            records.append(rec)
            progress.update(task, advance=1, score=str(score))
            if not progress.console.is_terminal:  # logs get one line per game
                progress.console.print(
                    f"game {score.games}: {rec.white} - {rec.black} {rec.result} "
                    f"({rec.termination}, {len(rec.moves)} plies)  {score}"
                )

        try:
            score, records = run_match(a, b, v, games, control, seed, concurrency,
                                       adjustment, on_game, max_plies)
        except EngineError as exc:
            raise click.ClickException(str(exc)) from None
    click.echo(f"{a.name} vs {b.name}, {v.pgn_name}, {score.games} games at {control}:")
    click.echo(f"  {score}")
    used = [sum(r.adjustments) for r in records]
    if v.has_adjustment:
        by_first = sum(r.adjustments[0 if r.white == a.name else 1] for r in records)
        click.echo(f"  Bishop Adjustments played: {sum(used)} in {sum(1 for u in used if u)} "
                   f"games ({by_first} by {a.name})")
    ends: dict[str, int] = {}
    for r in records:
        ends[r.termination] = ends.get(r.termination, 0) + 1
    click.echo("  endings: " + ", ".join(f"{k} {n}" for k, n in sorted(ends.items())))
    if pgn_path is not None:
        with pgn_path.open("w", encoding="utf-8") as fh:
            for i, rec in enumerate(records, 1):
                fh.write(game_pgn(rec, f"{a.name} vs {b.name}", str(i), str(control)))
        click.echo(f"  games written to {pgn_path}")
