"""``randomchess demo``: draw a random Chess960 and a random MRC setup, show them and count
their move trees, a first look at what the package does."""

from __future__ import annotations

import time

import click
from rich.console import Console
from rich.table import Table

from randomchess.position import Position
from randomchess.startpos import SetupPool, draw_random, draw_seeded


@click.command("demo")
@click.option("--depth", type=click.IntRange(1, 6), default=4, show_default=True,
              help="Perft depth for each setup.")
@click.option("--seed", help="Reproducible draw instead of a secret random one.")
def demo_command(depth: int, seed: str | None) -> None:
    """Draw a Chess960 and an MRC setup, print number, FEN and perft."""
    console = Console()
    for key in ("chess960", "mrc"):
        pool = SetupPool(key)
        setup = draw_seeded(pool, seed)[0] if seed else draw_random(pool)[0]
        pos = Position(setup.fen, key)
        title = f"{pos.variant.pgn_name} setup {setup.number}: {setup.rank} " \
                f"(es: {setup.localized('es')})"
        console.rule(title, align="left")
        table = Table(show_header=True)
        table.add_column("depth", justify="right")
        table.add_column("nodes", justify="right")
        table.add_column("nodes/s", justify="right")
        with console.status(f"perft of {setup.rank} ..."):
            for d in range(1, depth + 1):
                start = time.perf_counter()
                nodes = pos.perft(d)
                seconds = time.perf_counter() - start
                rate = f"{nodes / seconds:,.0f}" if seconds > 0.01 else "-"
                table.add_row(str(d), f"{nodes:,}", rate)
        console.print(f"FEN: {setup.fen}", soft_wrap=True)
        castling = ", ".join(f"{k} = {v}" for k, v in setup.castling().items())
        console.print(f"Castling: {castling}")
        if key == "mrc":
            same = setup.bishops_same_colour
            console.print("Bishops on the same colour: Bishop Adjustment in play"
                          if same else "Bishops on opposite colours: no Bishop Adjustment")
        console.print(table)
        console.print()
