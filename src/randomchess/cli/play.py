"""``randomchess play``: a game against the engine in the terminal."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

import click

from randomchess.analysis.match import random_setup
from randomchess.engine.search import LEVELS, Limits, Searcher, format_score
from randomchess.game import Game
from randomchess.pgn import write_game
from randomchess.pieces import (
    BISHOP,
    BLACK,
    KING,
    KNIGHT,
    MINISTER,
    PAWN,
    QUEEN,
    ROOK,
    WHITE,
    make_piece,
    piece_symbol,
)
from randomchess.position import Move, Position
from randomchess.san import Language, parse_san, san
from randomchess.variants import VARIANTS, get_variant

VARIANT_CHOICE = click.Choice([*sorted(VARIANTS), "fischerandom"], case_sensitive=False)

# Board glyphs by piece code; a kind without a glyph (archbishop, chancellor) shows its letter.
UNICODE = {
    make_piece(kind, color): glyph
    for color, glyphs in ((WHITE, "♙♘♗♖♕♔✠"), (BLACK, "♟♞♝♜♛♚✙"))
    for kind, glyph in zip((PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, MINISTER), glyphs,
                           strict=True)
}
HELP_TEXT = (
    "Moves in SAN (Nf3, O-O, B=N) or coordinates (g1f3, e1h1).  Commands: moves, undo, "
    "hint, draw (claim now) or draw MOVE (claim with that move), resign, fen, help, quit."
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
                cells.append(piece_symbol(p) if ascii_only else UNICODE.get(p, piece_symbol(p)))
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


def _history_keys(game: Game) -> list[int]:
    """Zobrist keys of the positions before the current one, for the search's repetitions."""
    pos = game.start_position()
    keys = []
    for move in game.moves:
        keys.append(pos.zobrist)
        pos.push(move)
    return keys


def _engine_turn(game: Game, searcher: Searcher, movetime: int, lang: str,
                 say: Callable[[str], None]) -> None:
    """The engine moves, and claims a draw (FIDE 9.2, 9.3) when it may and is not winning."""
    pos = game.position
    res = searcher.search(pos, Limits(movetime=movetime), _history_keys(game))
    assert res.move is not None
    text = _move_text(pos, res.move, lang)
    info = f"({format_score(res.score)}, depth {res.depth})"
    if res.score <= 0 and game.can_claim_draw():
        game.claim_draw()
        say("the engine claims a draw")
    elif res.score <= 0 and game.can_claim_draw(res.move):
        game.claim_draw(res.move)
        say(f"the engine plays [bold]{text}[/bold] and claims a draw  {info}")
    else:
        game.push(res.move)
        say(f"engine plays [bold]{text}[/bold]  {info}")


def _claim(game: Game, words: list[str], lang: str, say: Callable[[str], None]) -> None:
    """``draw`` claims now; ``draw MOVE`` claims with the move that completes the repetition
    or the fifty moves, and plays it even if the claim is wrong (FIDE 9.2.1, 9.5.3)."""
    move = _parse_move(game.position, " ".join(words), lang) if words else None
    text = _move_text(game.position, move, lang) if move is not None else ""
    if game.claim_draw(move) is None:
        played = f"; {text} is played all the same" if move is not None else ""
        say(f"no draw to claim (threefold or fifty moves){played}; the engine plays on")


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
    game = Game(fen, v)
    human = {"white": WHITE, "black": BLACK}.get(color, random.choice((WHITE, BLACK)))
    searcher = Searcher(level=level)
    console.print(f"[bold]{v.pgn_name}[/bold]  {game.start_fen}")
    console.print(HELP_TEXT)
    while game.outcome is None:
        pos = game.position
        if pos.turn != human:
            with console.status("thinking..."):
                _engine_turn(game, searcher, movetime, lang, console.print)
            continue
        console.print(render_board(pos, human == BLACK, ascii_only))
        try:
            line = console.input(f"{'White' if pos.turn == WHITE else 'Black'} to move> ")
        except (EOFError, KeyboardInterrupt):
            console.print()
            break
        if not line.split():
            continue
        try:
            if not _human_turn(game, line, human, lang, movetime, console.print):
                break
        except ValueError as exc:
            console.print(f"[red]{exc}[/red]")
    if game.outcome is not None:
        console.print(render_board(game.position, human == BLACK, ascii_only))
        console.print(f"[bold]{game.outcome}: {game.result()}[/bold]")
    if game.moves:
        _save(game, human, level, pgn_path)
        console.print(f"game saved to {pgn_path}")


def _human_turn(game: Game, line: str, human: int, lang: str, movetime: int,
                say: Callable[[str], None]) -> bool:
    """One line the human typed: a command (help, fen, moves, undo, hint, resign, draw) or a
    move; False for quit.  A bad move or claim raises ``ValueError``."""
    pos = game.position
    words = line.split()
    low = words[0].lower()
    if low in ("quit", "exit"):
        return False
    if low == "help":
        say(HELP_TEXT)
    elif low == "fen":
        say(pos.fen())
    elif low == "moves":
        legal = game.legal_moves()
        special = [m for m in legal if pos.is_castling(m) or pos.is_adjustment(m)]
        say(" ".join(sorted(_move_text(pos, m, lang) for m in legal)))
        if special:
            say("castling/adjustment: " + ", ".join(
                f"{_move_text(pos, m, lang)} ({pos.uci(m)})" for m in special))
    elif low == "undo":
        # Back to the human's previous turn: the engine's reply and the human's move.
        if game.moves:
            game.pop()
        while game.moves and game.position.turn != human:
            game.pop()
    elif low == "hint":
        res = Searcher().search(pos, Limits(movetime=min(movetime, 1000)), _history_keys(game))
        if res.move is not None:
            say(f"hint: {_move_text(pos, res.move, lang)}")
    elif low == "resign":
        game.resign(human)
    elif low == "draw":
        _claim(game, words[1:], lang, say)
    else:
        game.push(_parse_move(pos, line.strip(), lang))
    return True


def _save(game: Game, human: int, level: int, pgn_path: Path) -> None:
    """The game as PGN, the human named "You" and the engine by its level."""
    names = ("You", f"randomchess level {level}")
    headers = {
        "Event": "randomchess play", "Date": time.strftime("%Y.%m.%d"),
        "White": names[0] if human == WHITE else names[1],
        "Black": names[1] if human == WHITE else names[0],
    }
    pgn_path.write_text(write_game(game, headers=headers), encoding="utf-8")

