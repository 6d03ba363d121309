"""The ``randomchess`` command line: one click group, one module per sub-command family."""

from __future__ import annotations

import click

from randomchess.cli.analyse import analyse_command
from randomchess.cli.demo import demo_command
from randomchess.cli.draw import draw_group
from randomchess.cli.match import match_command
from randomchess.cli.perft import perft_command
from randomchess.cli.pgn import pgn_group
from randomchess.cli.play import play_command
from randomchess.cli.serve import serve_command
from randomchess.cli.setups import setups_group
from randomchess.cli.tournament import tournament_group
from randomchess.cli.uci import uci_command
from randomchess.cli.worker import worker_command, workers_command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="randomchess", prog_name="randomchess")
def main() -> None:
    """Chess960 and Modern Random Chess: rules, setups, engine."""


main.add_command(perft_command)
main.add_command(pgn_group)
main.add_command(demo_command)
main.add_command(draw_group)
main.add_command(uci_command)
main.add_command(play_command)
main.add_command(match_command)
main.add_command(serve_command)
main.add_command(analyse_command)
main.add_command(tournament_group)
main.add_command(setups_group)
main.add_command(worker_command)
main.add_command(workers_command)
