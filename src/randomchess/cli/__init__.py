"""The ``randomchess`` command line: one click group, one module per sub-command family.

The sub-command modules are imported when their command runs (or when ``--help`` lists
them), not when the program starts: ``randomchess tournament pair`` does not pay for the
engine's or the server's imports (bench/cli_bench.py measures the CPU per command)."""

from __future__ import annotations

import importlib
from typing import Any

import click

from randomchess.cli import click_es

# command name -> (module, attribute)
_COMMANDS: dict[str, tuple[str, str]] = {
    "perft": ("randomchess.cli.perft", "perft_command"),
    "pgn": ("randomchess.cli.pgn", "pgn_group"),
    "demo": ("randomchess.cli.demo", "demo_command"),
    "draw": ("randomchess.cli.draw", "draw_group"),
    "uci": ("randomchess.cli.uci", "uci_command"),
    "play": ("randomchess.cli.play", "play_command"),
    "match": ("randomchess.cli.match", "match_command"),
    "serve": ("randomchess.cli.serve", "serve_command"),
    "analyse": ("randomchess.cli.analyse", "analyse_command"),
    "tournament": ("randomchess.cli.tournament", "tournament_group"),
    "setups": ("randomchess.cli.setups", "setups_group"),
    "explorer": ("randomchess.cli.explorer", "explorer_group"),
    "puzzles": ("randomchess.cli.puzzles", "puzzles_group"),
    "worker": ("randomchess.cli.worker", "worker_command"),
    "workers": ("randomchess.cli.worker", "workers_command"),
}


class LazyGroup(click.Group):
    """A group whose sub-commands are imported on first use."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        # Click's own messages start in English on every run; a group's --lang switches them
        # (randomchess.cli.click_es).
        click_es.install()
        click_es.set_language("en")
        return super().main(*args, **kwargs)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*_COMMANDS, *super().list_commands(ctx)})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands or cmd_name not in _COMMANDS:
            return super().get_command(ctx, cmd_name)
        module, attr = _COMMANDS[cmd_name]
        command = getattr(importlib.import_module(module), attr)
        assert isinstance(command, click.Command) and command.name == cmd_name
        self.add_command(command)
        return command


def _load_variants(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """``--variants FILE``: register the file's variants before any sub-command is loaded,
    so every ``--variant`` choice, the engine and the server know them."""
    if value is None:
        return
    import os

    from randomchess.variant_file import ENV_VARIABLE, VariantFileError, load_variant_file

    try:
        load_variant_file(value)
    except VariantFileError as exc:
        # Said in both languages: the global option comes before any command's --lang.
        raise click.ClickException(
            f"variants file {value} refused (no variant loaded) / archivo de variantes "
            f"{value} rechazado (no se cargó ninguna variante):\n{exc}") from None
    # `serve` and the engine's worker processes read the same file (server setting).
    os.environ[ENV_VARIABLE] = os.path.abspath(value)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="randomchess", prog_name="randomchess")
@click.option("--variants", type=click.Path(dir_okay=False), callback=_load_variants,
              expose_value=False, is_eager=True, metavar="FILE",
              help="Load additional variants from a TOML file (docs/variants.md).")
def main() -> None:
    """Chess960 and Modern Random Chess: rules, setups, engine."""
