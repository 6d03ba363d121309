"""``randomchess draw``: draw, number and print start setups; committed draws for events.

* ``randomchess draw [--variant chess960|mrc] [--number N | --seed S] [--count K] ...`` draws
  (or shows) setups; ``draw identify`` gives the number of a FEN or back rank.
* ``draw commit`` / ``draw round`` / ``draw verify`` are the arbiter's verifiable draw
  (docs/shuffler.md).  The option names and the JSON field names are a published interface:
  other tools parse them.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar, cast

import click
from click.core import ParameterSource

from randomchess.brief import brief_lines, setup_brief
from randomchess.cli import click_es
from randomchess.diagram import Card, Section, sheet_html, svg_diagram
from randomchess.errors import RandomChessError
from randomchess.startpos import (
    SALT_BYTES,
    BishopFilter,
    CommitmentError,
    HallInputError,
    Language,
    NotASetupError,
    NumberedSetup,
    SeedError,
    SetupNumberError,
    SetupPool,
    commitment,
    draw_random,
    draw_seeded,
    format_salt_file,
    hall_draw,
    hall_round_key,
    iter_rounds,
    new_salt,
    parse_rank,
    parse_salt,
    parse_salt_file,
    round_setups,
    setup_from_fen,
    setup_from_label,
    setup_from_number,
    setup_from_rank,
    verify_commitment,
)
from randomchess.variants import get_variant, numbered_variant_keys

F = TypeVar("F", bound=Callable[..., Any])


def _setup_number(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A setup number typed in ASCII digits (``int()`` would also read '٥١٨' and '5_18'), or
    two of them for Double Fischer Random (``518/123``)."""
    if value is None:
        return None
    text = value.strip()
    if not re.fullmatch(r"-?[0-9]{1,9}(/[0-9]{1,9})?", text):
        raise click.BadParameter(
            f"{value!r} is not a valid integer: a setup number is ASCII digits, e.g. 518 "
            "(Double Fischer Random: two, e.g. 518/123)")
    return text


VARIANT_CHOICES = numbered_variant_keys()  # the variants whose arrays are numbered
FORMATS = ("text", "json", "fen", "svg", "html")
ROUND_FORMATS = ("text", "json", "fen", "html")

_LABELS: dict[str, dict[str, str]] = {
    "en": {
        "board": "Board",
        "number": "No.",
        "rank_en": "Back rank (English)",
        "rank_es": "Back rank (Spanish)",
        "castling": "Castling",
        "round": "Round",
        "same": "same setup on all boards",
        "per_board": "one setup per board",
        "setups": "Start positions",
        "bar": "Bishops on one colour: the Bishop Adjustment Rule applies.",
        "commitment": "Commitment (published before the event)",
        "verify": "Check after the event",
        "excluded": "excluding setup",
        "bishops_same": "bishops on one colour",
        "bishops_opposite": "bishops on opposite colours",
    },
    "es": {
        "board": "Tablero",
        "number": "N.º",
        "rank_en": "Fila inicial (inglés)",
        "rank_es": "Fila inicial (español)",
        "castling": "Enroque",
        "round": "Ronda",
        "same": "la misma posición en todos los tableros",
        "per_board": "una posición por tablero",
        "setups": "Posiciones iniciales",
        "bar": "Alfiles del mismo color: se aplica la regla de ajuste del alfil.",
        "commitment": "Compromiso (publicado antes del torneo)",
        "verify": "Comprobación tras el torneo",
        "excluded": "sin la posición",
        "bishops_same": "alfiles del mismo color",
        "bishops_opposite": "alfiles de distinto color",
    },
}


def _pool_options(f: F) -> F:
    """Options that choose the pool of setups a draw picks from."""
    f = click.option(
        "--exclude-standard",
        is_flag=True,
        help="Leave out the orthodox array (Chess960 518) or Maura's (MRC 8226).",
    )(f)
    f = click.option(
        "--bishops",
        type=click.Choice(["any", "same", "opposite"]),
        default="any",
        show_default=True,
        help="MRC and CRC only: draw only setups whose bishops share a colour (MRC 6,720, CRC "
             "720) or not (MRC 8,400, CRC 960).",
    )(f)
    return click.option(
        "--variant",
        type=click.Choice(VARIANT_CHOICES, case_sensitive=False),
        default="chess960",
        show_default=True,
        help="Chess960 (Scharnagl numbers 0-959), MRC (MRC-Id 0-15119), CRC (CRC-Id "
             "0-1679) or double960 (a Scharnagl number per side, e.g. 518/123).",
    )(f)


def _lang_option(f: F) -> F:
    return click.option(
        "--lang",
        type=click.Choice(["en", "es"]),
        default="en",
        show_default=True,
        is_eager=True,  # before --help: `draw --lang es verify --help` is in Spanish
        callback=click_es.language_option,
        help="Piece letters: English (K Q R B N M) or Spanish (R D T A C M).",
    )(f)


_FORMAT_HELP = {
    "text": "number and back rank",
    "json": "one object per line",
    "fen": "one FEN per line",
    "svg": "a diagram",
    "html": "a printable sheet",
}


def _format_option(choices: Sequence[str]) -> Callable[[F], F]:
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(list(choices)),
        default="text",
        show_default=True,
        help="; ".join(f"{c}: {_FORMAT_HELP[c]}" for c in choices) + ".",
    )


def _make_pool(variant: str, bishops: str, exclude_standard: bool) -> SetupPool:
    try:
        return SetupPool(variant.lower(), cast(BishopFilter, bishops), exclude_standard)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="'--bishops'") from None


# --- output --------------------------------------------------------------------------------


def _text_line(setup: NumberedSetup, lang: Language) -> str:
    return f"{setup.label} {setup.localized(lang)}"


def _card(setup: NumberedSetup, heading: str, lang: Language, brief: bool = False) -> Card:
    labels = _LABELS[lang]
    black_rank = setup.variant.ranks - setup.variant.margin
    castling = "; ".join(
        f"{san} {white} / {black}"
        for (san, white), black in zip(
            setup.castling(lang).items(), setup.castling(lang, black_rank).values(), strict=True
        )
    )
    lines = (
        (labels["number"], setup.label),
        (labels["rank_en"], setup.localized("en")),
        (labels["rank_es"], setup.localized("es")),
        (labels["castling"], castling),
        ("FEN", setup.fen),
    ) + (tuple(brief_lines(setup_brief(setup), lang)) if brief else ())
    note = labels["bar"] if setup.variant.has_adjustment and setup.bishops_same_colour else None
    return Card(heading, setup.fen, lines, note)


def _pool_description(pool: SetupPool, lang: Language) -> str:
    parts = [pool.variant.pgn_name]
    if pool.bishops != "any":
        parts.append(_LABELS[lang][f"bishops_{pool.bishops}"])
    parts += [f"{_LABELS[lang]['excluded']} {n}" for n in pool.excluded]
    return ", ".join(parts)


def _emit_setups(
    setups: Sequence[NumberedSetup], fmt: str, lang: Language, pool: SetupPool,
    brief: bool = False,
) -> None:
    if fmt == "text":
        for setup in setups:
            click.echo(_text_line(setup, lang))
            if brief:
                for label, text in brief_lines(setup_brief(setup), lang):
                    click.echo(f"  {label}: {text}")
    elif fmt == "json":
        for setup in setups:
            data = setup.as_dict(lang)
            if brief:
                data["brief"] = {k: v for k, v in setup_brief(setup).as_dict().items()
                                 if k in ("white", "black")}
            click.echo(json.dumps(data, ensure_ascii=False))
    elif fmt == "fen":
        for setup in setups:
            click.echo(setup.fen)
    elif fmt == "svg":
        if len(setups) != 1:
            raise click.UsageError("--format svg draws one setup; use --format html for several")
        (setup,) = setups
        title = f"{setup.variant.pgn_name} {setup.label} {setup.localized(lang)}"
        click.echo(svg_diagram(setup.fen, lang=lang, title=title), nl=False)
    else:
        labels = _LABELS[lang]
        cards = tuple(
            _card(s, f"{s.variant.pgn_name} {s.label}", lang, brief) for s in setups
        )
        section = Section(labels["setups"], cards, subheading=_pool_description(pool, lang))
        click.echo(sheet_html(labels["setups"], [section], lang=lang), nl=False)


# --- draw ----------------------------------------------------------------------------------


@click.group(
    "draw",
    cls=click_es.LangGroup,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@_pool_options
@click.option(
    "--number",
    callback=_setup_number,
    help="Show setup N instead of drawing (Chess960 0-959, MRC 0-15119).",
)
@click.option(
    "--seed",
    help="Reproducible draw: the same seed always gives the same setups "
    "(HMAC-SHA256 generator, docs/shuffler.md). Default: the secrets module.",
)
@click.option(
    "--count",
    type=click.IntRange(1, 100_000),
    default=1,
    show_default=True,
    help="How many independent draws.",
)
@_lang_option
@_format_option(FORMATS)
@click.option(
    "--brief",
    is_flag=True,
    help="Add the setup brief (weak pawns, diagonals at the castled king's pawns, the "
    "king's lines, moves to castle; docs/shuffler.md) in --lang, to text, json and html.",
)
@click.pass_context
def draw_group(
    ctx: click.Context,
    variant: str,
    bishops: str,
    exclude_standard: bool,
    number: str | None,
    seed: str | None,
    count: int,
    lang: Language,
    fmt: str,
    brief: bool,
) -> None:
    """Draw Chess960 or MRC start positions, uniformly at random.

    \b
    randomchess draw --variant mrc --count 3
    randomchess draw --number 518 --lang es        -> 518 TCADRACT
    randomchess draw --number 518 --brief          (what to know before move 1)
    randomchess draw identify FEN_OR_BACK_RANK
    randomchess draw commit|round|verify ...       (verifiable draws for events)
    randomchess draw verify-game ...               (an online game's setup, from its seeds)
    """
    if ctx.invoked_subcommand is not None:
        given = [
            f"--{name.replace('_', '-')}"
            for name in ctx.params
            if ctx.get_parameter_source(name) is not ParameterSource.DEFAULT
        ]
        if given:
            sub = ctx.invoked_subcommand
            raise click.UsageError(
                f"{', '.join(given)} no se puede combinar con 'draw {sub}'; dé las opciones "
                "de una orden tras su nombre" if lang == "es" else
                f"{', '.join(given)} cannot be combined with 'draw {sub}'; "
                "give a sub-command's options after its name"
            )
        return
    pool = _make_pool(variant, bishops, exclude_standard)
    if number is not None:
        if seed is not None:
            raise click.UsageError("--number and --seed exclude each other")
        if count != 1:
            raise click.UsageError("--number shows one setup; --count does not apply")
        try:
            # A negative number gets the range error of setup_from_number.
            setup = (setup_from_number(pool.variant, int(number)) if number.startswith("-")
                     else setup_from_label(pool.variant, number))
        except SetupNumberError as e:
            raise click.BadParameter(str(e), param_hint="'--number'") from None
        if setup.number not in pool:
            raise click.BadParameter(
                f"setup {number} is left out by --bishops/--exclude-standard",
                param_hint="'--number'",
            )
        setups = [setup]
    elif seed is not None:
        try:
            setups = draw_seeded(pool, seed, count)
        except SeedError as e:  # bytes that are not UTF-8 (issue 36)
            raise click.BadParameter(str(e), param_hint="'--seed'") from None
    else:
        setups = draw_random(pool, count)
    _emit_setups(setups, fmt, lang, pool, brief)


@draw_group.command("identify", short_help="The number of a start FEN or back rank.")
@click.argument("position")
@click.option(
    "--variant",
    type=click.Choice(VARIANT_CHOICES, case_sensitive=False),
    help="Default: from the board size (8x8 Chess960, 9x9 MRC).",
)
@_lang_option
@_format_option(FORMATS)
def identify_command(position: str, variant: str | None, lang: Language, fmt: str) -> None:
    """Number of a start FEN or a back rank (e.g. RNBQKBNR, or TCADRACT with --lang es)."""
    try:
        double = variant is not None and get_variant(variant).independent_sides
        if "/" in position and not (double and position.strip().count("/") == 1):
            setup = setup_from_fen(position, variant)
        else:
            rank = parse_rank(position, lang)
            chosen = variant or next(
                (k for k in VARIANT_CHOICES if get_variant(k).files == len(rank)), None)
            if chosen is None:
                raise NotASetupError(
                    f"a back rank has 8 pieces (Chess960) or 9 (MRC), not {len(rank)}"
                )
            setup = setup_from_rank(chosen, rank)
    except RandomChessError as e:  # every bad input of the library (issue 13)
        raise click.ClickException(str(e)) from None
    _emit_setups([setup], fmt, lang, SetupPool(setup.variant))


# --- verifiable draws ----------------------------------------------------------------------


def _event_name(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """The event name, checked before anything is written or read: not empty, no control
    characters, and UTF-8 text (a Latin-1 terminal's bytes were a traceback, issue 36)."""
    try:
        commitment(bytes(SALT_BYTES), value)  # refuses what a commitment cannot hold
    except CommitmentError as e:
        raise click.BadParameter(str(e)) from None
    return value


def _event_option(f: F) -> F:
    return click.option("--event", required=True, callback=_event_name,
                        help="The event's name, exactly as committed.")(f)


def _round_options(f: F) -> F:
    f = click.option(
        "--per-board",
        is_flag=True,
        help="Give every board its own setup (default: one setup per round for all boards).",
    )(f)
    f = click.option(
        "--boards",
        type=click.IntRange(1, 10_000),
        default=1,
        show_default=True,
        help="Boards in the round.",
    )(f)
    return click.option(
        "--round",
        "rounds",
        required=True,
        help="Round number, or a list such as 1-9 or 1,3,5-6.",
    )(f)


def _slug(event: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", event.lower()).strip("-") or "event"


@draw_group.command("commit")
@_event_option
@click.option(
    "--salt-file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Where to write the secret salt (default: EVENT-NAME.salt); never overwritten.",
)
def commit_command(event: str, salt_file: Path | None) -> None:
    """Before the event: make a secret salt and print the commitment to publish."""
    salt = new_salt()
    try:
        text = format_salt_file(salt, event)
        published = commitment(salt, event)
    except CommitmentError as e:
        raise click.BadParameter(str(e), param_hint="'--event'") from None
    path = salt_file or Path(f"{_slug(event)}.salt")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise click.ClickException(
            f"{path} already exists; it may hold a committed salt, so it is not overwritten"
        ) from None
    except OSError as e:
        raise click.ClickException(f"cannot write {path}: {e.strerror}") from None
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    click.echo(f"salt file:  {path}")
    click.echo(f"commitment: {published}")
    click.echo(
        "Publish the commitment (and the draw options) before the first round; keep the "
        "salt file secret until the event is over, then publish the salt.",
        err=True,
    )


def _parse_rounds(spec: str) -> list[int]:
    try:
        return list(iter_rounds(spec))
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="'--round'") from None


def _round(salt: bytes, event: str, rnd: int, boards: int, pool: SetupPool, per_board: bool,
           digits: str | None) -> list[NumberedSetup]:
    """Round ``rnd``'s setups: from the salt alone, or revealed in the hall with ``digits``
    (docs/shuffler.md §6)."""
    if digits is None:
        return round_setups(salt, event, rnd, boards, pool, per_board=per_board)
    key = hall_round_key(salt, event, rnd, digits, pool.tag)
    if not per_board:
        return [hall_draw(key, pool, 0)] * boards
    return [hall_draw(key, pool, b) for b in range(1, boards + 1)]


def _parse_hall(values: tuple[str, ...]) -> dict[int, str]:
    out: dict[int, str] = {}
    for value in values:
        rnd, sep, digits = value.partition("=")
        if not sep or not rnd.strip().isdigit() or int(rnd) < 1:
            raise click.BadParameter(f"write ROUND=DIGITS (3=352614), not {value!r}",
                                     param_hint="'--hall'")
        out[int(rnd)] = digits
    return out


def _emit_rounds(
    *,
    salt: bytes,
    event: str,
    rounds: list[int],
    boards: int,
    per_board: bool,
    pool: SetupPool,
    lang: Language,
    fmt: str,
    hall: dict[int, str] | None = None,
) -> None:
    try:
        drawn = {r: _round(salt, event, r, boards, pool, per_board, (hall or {}).get(r))
                 for r in rounds}
    except (CommitmentError, HallInputError) as e:
        raise click.ClickException(str(e)) from None
    if fmt == "html":
        _emit_round_sheet(salt, event, drawn, per_board, pool, lang)
        return
    for r, setups in drawn.items():
        for board, setup in enumerate(setups, 1):
            if fmt == "json":
                record: dict[str, object] = {"event": event, "round": r, "board": board}
                record.update(setup.as_dict(lang))
                click.echo(json.dumps(record, ensure_ascii=False))
            elif fmt == "fen":
                click.echo(setup.fen)
            else:
                where = f"round {r}" + (f" board {board}" if boards > 1 else "")
                click.echo(f"{where}: {_text_line(setup, lang)}")


def _verify_command_line(
    event: str, published: str, rounds: list[int], boards: int, per_board: bool, pool: SetupPool
) -> str:
    words = ["randomchess", "draw", "verify", "--salt", "SALT", "--event", event,
             "--commitment", published, "--round", _round_spec(rounds)]
    if pool.variant.key != "chess960":
        words += ["--variant", pool.variant.key]
    if pool.bishops != "any":
        words += ["--bishops", pool.bishops]
    if pool.exclude_standard:
        words.append("--exclude-standard")
    if boards > 1:
        words += ["--boards", str(boards)]
    if per_board:
        words.append("--per-board")
    return shlex.join(words)


def _round_spec(rounds: list[int]) -> str:
    if rounds == list(range(rounds[0], rounds[-1] + 1)) and len(rounds) > 1:
        return f"{rounds[0]}-{rounds[-1]}"
    return ",".join(map(str, rounds))


def _emit_round_sheet(
    salt: bytes,
    event: str,
    drawn: dict[int, list[NumberedSetup]],
    per_board: bool,
    pool: SetupPool,
    lang: Language,
) -> None:
    labels = _LABELS[lang]
    boards = len(next(iter(drawn.values())))
    mode = labels["per_board"] if per_board else labels["same"]
    published = commitment(salt, event)
    footer = (
        f"{labels['commitment']}: {published}",
        f"{labels['verify']}: "
        + _verify_command_line(event, published, list(drawn), boards, per_board, pool),
    )
    sections = [
        Section(
            f"{event}: {labels['round']} {r}",
            tuple(
                _card(s, f"{labels['board']} {b}: {s.variant.pgn_name} {s.number}", lang)
                for b, s in enumerate(setups, 1)
            ),
            subheading=f"{_pool_description(pool, lang)}; {mode}",
            footer=footer,
        )
        for r, setups in drawn.items()
    ]
    click.echo(sheet_html(f"{event}: {labels['round']}", sections, lang=lang), nl=False)


@draw_group.command("round")
@click.option(
    "--salt-file",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="The salt file written by 'draw commit'.",
)
@_event_option
@_round_options
@_pool_options
@_lang_option
@_format_option(ROUND_FORMATS)
def round_command(
    salt_file: Path,
    event: str,
    rounds: str,
    boards: int,
    per_board: bool,
    variant: str,
    bishops: str,
    exclude_standard: bool,
    lang: Language,
    fmt: str,
) -> None:
    """During the event: the setups of a round, derived from the committed salt."""
    round_list = _parse_rounds(rounds)
    pool = _make_pool(variant, bishops, exclude_standard)
    try:
        text = salt_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise click.ClickException(f"cannot read {salt_file}: {e}") from None
    try:
        stored = parse_salt_file(text)
    except CommitmentError as e:
        raise click.ClickException(f"{salt_file}: {e}") from None
    if stored.commitment is not None:
        try:
            verify_commitment(stored.salt, event, stored.commitment)
        except CommitmentError:
            raise click.ClickException(
                f"the event name {event!r} does not match {salt_file}, which was committed "
                f"for {stored.event!r}"
            ) from None
    _emit_rounds(salt=stored.salt, event=event, rounds=round_list, boards=boards,
                 per_board=per_board, pool=pool, lang=lang, fmt=fmt)


@draw_group.command("verify")
@click.option("--salt", required=True, help="The salt revealed after the event (64 hex digits).")
@click.option("--hall", "hall", multiple=True, metavar="ROUND=DIGITS",
              help="A round revealed in the hall and the digits drawn there (repeatable; "
                   "docs/shuffler.md §6).")
@_event_option
@click.option("--commitment", "published", required=True, help="The published commitment.")
@_round_options
@_pool_options
@_lang_option
@_format_option(ROUND_FORMATS)
def verify_command(
    salt: str,
    event: str,
    published: str,
    rounds: str,
    boards: int,
    per_board: bool,
    variant: str,
    bishops: str,
    exclude_standard: bool,
    lang: Language,
    fmt: str,
    hall: tuple[str, ...],
) -> None:
    """After the event: check the salt against the commitment and reproduce the setups.

    Exits 0 and prints the setups when the commitment matches; exits 1 when it does not.
    """
    round_list = _parse_rounds(rounds)
    pool = _make_pool(variant, bishops, exclude_standard)
    try:
        salt_bytes = parse_salt(salt)
    except CommitmentError as e:
        raise click.BadParameter(str(e), param_hint="'--salt'") from None
    try:
        verify_commitment(salt_bytes, event, published)
    except CommitmentError as e:
        raise click.ClickException(str(e)) from None
    click.echo("commitment matches", err=True)
    _emit_rounds(salt=salt_bytes, event=event, rounds=round_list, boards=boards,
                 per_board=per_board, pool=pool, lang=lang, fmt=fmt, hall=_parse_hall(hall))


@draw_group.command("verify-game",
                    short_help="Recompute an online game's setup (server seed, client value).")
@click.option("--server-seed", required=True,
              help="The game's revealed server seed (64 hex digits; PGN tag SetupServerSeed).")
@click.option("--client-value", default="", show_default=False,
              help="The joiner's client value (PGN tag SetupClientValue; omit or '-' for none).")
@click.option("--variant", type=click.Choice(VARIANT_CHOICES, case_sensitive=False),
              default="chess960", show_default=True)
@click.option("--commitment", "published", default=None,
              help="The commitment shown with the seek (PGN tag SetupCommit): checked when given.")
@_lang_option
@_format_option(FORMATS)
def verify_game_command(server_seed: str, client_value: str, variant: str,
                        published: str | None, lang: Language, fmt: str) -> None:
    """An online game's setup from its two values (docs/shuffler.md §10).

    Exits 0 and prints the setup (and whether the commitment matches); 1 when the seed does
    not give the commitment; 2 for a malformed value.
    """
    from randomchess.fairdraw import (
        GameSeedError,
        game_commitment,
        game_setup,
        parse_client_value,
        parse_server_seed,
    )

    client = "" if client_value == "-" else client_value
    try:
        seed = parse_server_seed(server_seed)
    except GameSeedError as e:
        raise click.BadParameter(str(e), param_hint="'--server-seed'") from None
    try:
        parse_client_value(client)
    except GameSeedError as e:
        raise click.BadParameter(str(e), param_hint="'--client-value'") from None
    commit = game_commitment(seed)
    if published is not None:
        if not re.fullmatch(r"[0-9a-fA-F]{64}", published.strip()):
            raise click.BadParameter("a commitment is 64 hexadecimal digits",
                                     param_hint="'--commitment'")
        if published.strip().lower() != commit:
            raise click.ClickException(
                f"commitment mismatch: SHA-256 of this server seed is {commit}, not "
                f"{published.strip().lower()}")
        click.echo("commitment matches", err=True)
    else:
        click.echo(f"commitment {commit}", err=True)
    setup = game_setup(seed, client, variant.lower())
    _emit_setups([setup], fmt, lang, SetupPool(variant.lower()))
