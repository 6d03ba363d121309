"""``randomchess uci``, ``randomchess play`` and ``randomchess match``: the engine's faces."""

from __future__ import annotations

import random
from pathlib import Path

import click

from randomchess.engine.match import (
    EngineError,
    EngineSpec,
    GameRecord,
    MatchScore,
    TimeControl,
    dead_material,
    game_pgn,
    random_setup,
    run_match,
)
from randomchess.engine.search import LEVELS, Limits, Searcher, format_score, position_key
from randomchess.pieces import BLACK, WHITE
from randomchess.position import Move, Position
from randomchess.san import Language, parse_san, san
from randomchess.variants import VARIANTS, get_variant

VARIANT_CHOICE = click.Choice([*sorted(VARIANTS), "fischerandom"], case_sensitive=False)


@click.command("uci")
def uci_command() -> None:
    """Speak the UCI protocol on standard input/output (for GUIs and match runners)."""
    from randomchess.engine.uci import main as uci_main

    uci_main()


# ---------------------------------------------------------------------------- match
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
    records: list[GameRecord] = []
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[score]}"), transient=False,
    ) as progress:
        task = progress.add_task(f"{a.name} vs {b.name}", total=total, score="")

        def on_game(rec: GameRecord, score: MatchScore) -> None:
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
                fh.write(game_pgn(rec, f"{a.name} vs {b.name}", str(i), str(control)) + "\n")
        click.echo(f"  games written to {pgn_path}")


# ---------------------------------------------------------------------------- play
UNICODE = {
    1: "♙", 2: "♘", 3: "♗", 4: "♖", 5: "♕", 6: "♔", 7: "✠",
    9: "♟", 10: "♞", 11: "♝", 12: "♜", 13: "♛", 14: "♚", 15: "✙",
}
HELP_TEXT = (
    "Moves in SAN (Nf3, O-O, B=N) or coordinates (g1f3, e1h1).  Commands: moves, undo, "
    "hint, draw, resign, fen, help, quit."
)


def render_board(pos: Position, flip: bool = False, ascii_only: bool = False) -> str:
    """The board as text, White at the bottom unless ``flip`` (the minister is ✠/✙)."""
    g = pos.geometry
    ranks = range(g.ranks) if flip else range(g.ranks - 1, -1, -1)
    files = list(range(g.files - 1, -1, -1) if flip else range(g.files))
    rows = []
    for r in ranks:
        cells = []
        for f in files:
            p = pos.board[g.square(f, r)]
            if p:
                if ascii_only:
                    from randomchess.pieces import piece_symbol

                    cells.append(piece_symbol(p))
                else:
                    cells.append(UNICODE[p])
            else:
                cells.append("·" if not ascii_only else ".")
        rows.append(f"{r + 1:>2} " + " ".join(cells))
    rows.append("   " + " ".join("abcdefghijkl"[f] for f in files))
    return "\n".join(rows)


def _lang(lang: str) -> Language:
    return "es" if lang == "es" else "en"


def _move_text(pos: Position, move: Move, lang: str) -> str:
    return san(pos, move, lang=_lang(lang))


def _parse_move(pos: Position, text: str, lang: str) -> Move:
    """Coordinates (``g1f3``, ``e1h1``, ``b1a1``) first, then SAN in ``lang``."""
    try:
        return pos.parse_uci(text)
    except ValueError:
        return parse_san(pos, text, lang=_lang(lang))


def _draw_claim(pos: Position, keys: list[int]) -> str | None:
    """Why a draw may be claimed now (threefold or 50 moves), or None."""
    if keys.count(position_key(pos)) >= 2:  # this is at least the third occurrence
        return "threefold repetition"
    if pos.halfmove_clock >= 100:
        return "fifty-move rule"
    return None


def _game_over(pos: Position, keys: list[int]) -> tuple[str, str] | None:
    if not pos.legal_moves():
        if pos.is_check():
            return ("0-1" if pos.turn == WHITE else "1-0"), "checkmate"
        return "1/2-1/2", "stalemate"
    if dead_material(pos):
        return "1/2-1/2", "insufficient material"
    if keys.count(position_key(pos)) >= 4:
        return "1/2-1/2", "fivefold repetition"
    if pos.halfmove_clock >= 150:
        return "1/2-1/2", "75-move rule"
    return None


@click.command("play")
@click.option("--variant", type=VARIANT_CHOICE, default="chess960", show_default=True)
@click.option("--number", type=int, help="Setup number (Scharnagl for Chess960, MRC-Id).")
@click.option("--fen", help="Start from this position instead.")
@click.option("--level", type=click.IntRange(1, max(LEVELS)), default=4, show_default=True,
              help="1 = beginner ... 8 = full strength.")
@click.option("--color", type=click.Choice(["white", "black", "random"]), default="white",
              show_default=True)
@click.option("--lang", type=click.Choice(["en", "es"]), default="en", show_default=True)
@click.option("--movetime", type=click.IntRange(10), default=2000, show_default=True,
              help="Engine thinking time per move in ms (level 8).")
@click.option("--pgn", "pgn_path", type=click.Path(dir_okay=False, path_type=Path),
              default="randomchess-game.pgn", show_default=True)
@click.option("--ascii", "ascii_only", is_flag=True, help="Letters instead of Unicode pieces.")
def play_command(variant: str, number: int | None, fen: str | None, level: int, color: str,
                 lang: str, movetime: int, pgn_path: Path, ascii_only: bool) -> None:
    """Play against the engine in the terminal."""
    from rich.console import Console

    console = Console(highlight=False)
    v = get_variant(variant)
    if fen is None:
        if number is not None:
            from randomchess.startpos import setup_from_number

            try:
                fen = setup_from_number(v, number).fen
            except ValueError as exc:
                raise click.BadParameter(str(exc), param_hint="--number") from None
        else:
            fen = random_setup(v, random.Random())
    pos = Position(fen, v)
    start_fen = pos.fen()
    human = {"white": WHITE, "black": BLACK}.get(color, random.choice((WHITE, BLACK)))
    searcher = Searcher(level=level)
    keys: list[int] = []
    moves: list[Move] = []
    result, termination = "*", "unterminated"
    console.print(f"[bold]{v.pgn_name}[/bold]  {start_fen}")
    console.print(HELP_TEXT)
    while True:
        over = _game_over(pos, keys)
        if over:
            result, termination = over
            console.print(render_board(pos, human == BLACK, ascii_only))
            console.print(f"[bold]{termination}: {result}[/bold]")
            break
        if pos.turn != human:
            with console.status("thinking..."):
                res = searcher.search(pos, Limits(movetime=movetime), keys)
            assert res.move is not None
            text = _move_text(pos, res.move, lang)
            keys.append(position_key(pos))
            moves.append(res.move)
            pos.push(res.move)
            console.print(f"engine plays [bold]{text}[/bold]  ({format_score(res.score)}, "
                          f"depth {res.depth})")
            continue
        console.print(render_board(pos, human == BLACK, ascii_only))
        try:
            line = console.input(f"{'White' if pos.turn == WHITE else 'Black'} to move> ")
        except (EOFError, KeyboardInterrupt):
            console.print()
            break
        cmd = line.strip()
        if not cmd:
            continue
        low = cmd.lower()
        if low in ("quit", "exit"):
            break
        if low == "help":
            console.print(HELP_TEXT)
        elif low == "fen":
            console.print(pos.fen())
        elif low == "moves":
            legal = pos.legal_moves()
            special = [m for m in legal if pos.is_castling(m) or pos.is_adjustment(m)]
            console.print(" ".join(sorted(_move_text(pos, m, lang) for m in legal)))
            if special:
                console.print("castling/adjustment: " + ", ".join(
                    f"{_move_text(pos, m, lang)} ({pos.uci(m)})" for m in special))
        elif low == "undo":
            for _ in range(2 if len(moves) >= 2 else len(moves)):
                pos.pop()
                moves.pop()
                keys.pop()
            if pos.turn != human and moves:  # engine to move again after an odd undo
                pos.pop()
                moves.pop()
                keys.pop()
        elif low == "hint":
            res = Searcher().search(pos, Limits(movetime=min(movetime, 1000)), keys)
            if res.move is not None:
                console.print(f"hint: {_move_text(pos, res.move, lang)}")
        elif low == "resign":
            result = "0-1" if human == WHITE else "1-0"
            termination = "resignation"
            break
        elif low == "draw":
            reason = _draw_claim(pos, keys)
            if reason:
                result, termination = "1/2-1/2", f"{reason} (claimed)"
                console.print(f"draw claimed: {reason}")
                break
            console.print("no draw to claim (threefold or fifty moves); the engine plays on")
        else:
            try:
                move = _parse_move(pos, cmd, lang)
            except ValueError as exc:
                console.print(f"[red]{exc}[/red]")
                continue
            keys.append(position_key(pos))
            moves.append(move)
            pos.push(move)
    names = ("You", f"randomchess level {level}")
    rec = GameRecord(
        names[0] if human == WHITE else names[1], names[1] if human == WHITE else names[0],
        v, start_fen, moves, result, termination,
    )
    if moves:
        pgn_path.write_text(game_pgn(rec, "randomchess play"), encoding="utf-8")
        console.print(f"game saved to {pgn_path}")


ENGINE_COMMANDS = (uci_command, play_command, match_command)
