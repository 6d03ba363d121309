"""``randomchess uci``: our engine's UCI server on standard input and output."""

from __future__ import annotations

import click


@click.command("uci")
def uci_command() -> None:
    """Speak the UCI protocol on standard input/output (for GUIs and match runners)."""
    from randomchess.engine.uci import main as uci_main

    uci_main()
