"""``randomchess perft``: leaf counts for one position, or a stream of them (batch mode).

The batch protocol is what external checkers drive (shared/tools/oracle.py compare): lines
``FEN<TAB>DEPTH[<TAB>MOVES]`` in, one integer (or ``error: ...``) per line out, flushed.
"""

from __future__ import annotations

import sys
from typing import TextIO

import click

from randomchess.position import Position
from randomchess.variants import VARIANTS, get_variant

VARIANT_CHOICE = click.Choice(sorted(VARIANTS), case_sensitive=False)
# Deeper than this no perft of a real position finishes; a batch line asking for more is
# refused rather than left running for ever.
MAX_DEPTH = 15


def perft_line(line: str, variant: str) -> int:
    """Answer one batch line ``FEN<TAB>DEPTH[<TAB>MOVES]``; ``ValueError`` if it is bad."""
    parts = line.rstrip("\r\n").split("\t")
    if len(parts) not in (2, 3):
        raise ValueError("expected FEN<TAB>DEPTH or FEN<TAB>DEPTH<TAB>MOVES")
    fen, depth_text = parts[0].strip(), parts[1].strip()
    if not (depth_text.isascii() and depth_text.isdigit()) or int(depth_text) > MAX_DEPTH:
        raise ValueError(f"depth {depth_text!r} is not an integer from 0 to {MAX_DEPTH}")
    pos = Position(fen, variant)
    if len(parts) == 3:
        for text in parts[2].split():
            pos.push_uci(text)
    return pos.perft(int(depth_text))


def run_batch(variant: str, stdin: TextIO, stdout: TextIO) -> None:
    for line in stdin:
        if not line.strip():
            continue
        try:
            answer = str(perft_line(line, variant))
        except ValueError as exc:
            answer = f"error: {exc}"
        stdout.write(answer + "\n")
        stdout.flush()


@click.command("perft")
@click.option("--variant", "variant", type=VARIANT_CHOICE, default="chess960", show_default=True)
@click.option("--fen", help="Position (FEN, X-FEN or Shredder-FEN); default: the start position.")
@click.option("--depth", type=click.IntRange(0, 64), help="Plies to count.")
@click.option("--divide", is_flag=True, help="Print the count under each root move.")
@click.option("--batch", is_flag=True, help="Read FEN<TAB>DEPTH[<TAB>MOVES] lines from stdin.")
def perft_command(variant: str, fen: str | None, depth: int | None, divide: bool,
                  batch: bool) -> None:
    """Count the leaves of the legal move tree (move generation check)."""
    if batch:
        run_batch(variant, sys.stdin, sys.stdout)
        return
    if depth is None:
        raise click.UsageError("--depth is required (or use --batch)")
    v = get_variant(variant)
    if fen is None and v.is_random:
        raise click.UsageError(f"--fen is required for {variant} (it has no single start)")
    try:
        pos = Position(fen, v)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--fen") from None
    if divide and depth >= 1:
        total = 0
        for move, n in pos.divide(depth):
            click.echo(f"{pos.uci(move)}: {n}")
            total += n
        click.echo(f"\nNodes: {total}")
    else:
        click.echo(pos.perft(depth))
