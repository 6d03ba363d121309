"""``randomchess pgn``: check and convert PGN files of every variant.

``check`` replays every game and reports each broken one (game number, line, ply, move and
reason), exiting non-zero if any is broken; ``convert`` rewrites the games in English or
Spanish SAN with X-FEN or Shredder-FEN start positions.
"""

from __future__ import annotations

from typing import TextIO, cast

import click

from randomchess.game import GameOverError
from randomchess.pgn import FenStyle, PgnGame, read_games, write_game
from randomchess.san import Language

_INPUT = click.File("r", encoding="utf-8-sig", errors="replace", lazy=False)
_FROM_LANG = click.Choice(["auto", "en", "es"], case_sensitive=False)


def _input_lang(value: str) -> Language | None:
    return None if value.lower() == "auto" else cast(Language, value.lower())


def _late_warnings(game: PgnGame) -> list[str]:
    """Rule problems a legal replay does not catch: play after the game ended, and a
    result that contradicts a final checkmate or automatic draw."""
    try:
        record = game.to_game()
    except GameOverError as exc:
        return [f"moves continue after the game ended ({exc})"]
    out = []
    if record.outcome is not None and game.result != "*" and \
            record.outcome.result() != game.result:
        out.append(f"result {game.result} but the game ended {record.outcome.result()} "
                   f"({record.outcome})")
    return out


@click.group("pgn")
def pgn_group() -> None:
    """Check and convert PGN files (Chess960, Modern Random Chess, Modern, chess)."""


@pgn_group.command("check")
@click.argument("file", type=_INPUT)
@click.option("--lang", "lang", type=_FROM_LANG, default="auto", show_default=True,
              help="Piece letters of the movetext (auto: inferred per game).")
@click.option("--strict", is_flag=True, help="Fail on warnings too.")
@click.option("-q", "--quiet", is_flag=True, help="Print only problems, no summary.")
def check_command(file: TextIO, lang: str, strict: bool, quiet: bool) -> None:
    """Validate every game in FILE ('-' for stdin); exit 1 if any is broken."""
    name = getattr(file, "name", "-")
    games = errors = warnings = 0
    for game in read_games(file, lang=_input_lang(lang)):
        games += 1
        if game.error is not None:
            errors += 1
            click.echo(f"{name}: {game.error}")
            continue
        for text in game.warnings + _late_warnings(game):
            warnings += 1
            click.echo(f"{name}: game {game.number}, line {game.line}: warning: {text}")
    if not quiet:
        click.echo(f"{name}: {games} game{'s' if games != 1 else ''}, "
                   f"{errors} with errors, {warnings} warning{'s' if warnings != 1 else ''}")
    if errors or (strict and warnings):
        raise SystemExit(1)


@pgn_group.command("convert")
@click.argument("file", type=_INPUT)
@click.option("--lang", "lang", type=click.Choice(["en", "es"], case_sensitive=False),
              default="en", show_default=True, help="Piece letters to write.")
@click.option("--from-lang", "from_lang", type=_FROM_LANG, default="auto",
              show_default=True, help="Piece letters of the input.")
@click.option("--fen", "fen_style", type=click.Choice(["xfen", "shredder"], case_sensitive=False),
              default="xfen", show_default=True,
              help="Castling letters of 8x8 start FENs (9x9 always uses file letters).")
@click.option("-o", "--output", type=click.File("w", encoding="utf-8"), default="-",
              help="Where to write (default: stdout).")
def convert_command(file: TextIO, lang: str, from_lang: str, fen_style: str,
                    output: TextIO) -> None:
    """Rewrite the games of FILE in strict SAN; broken games are reported and skipped."""
    name = getattr(file, "name", "-")
    failed = 0
    for game in read_games(file, lang=_input_lang(from_lang)):
        if game.error is not None:
            failed += 1
            click.echo(f"{name}: skipped: {game.error}", err=True)
            continue
        output.write(write_game(game, lang=cast(Language, lang.lower()),
                                fen=cast(FenStyle, fen_style.lower())))
    if failed:
        raise SystemExit(1)
