"""``randomchess tournament``: the arbiter's workflow offline, on the server's database
(an SQLite file by default, ``--db`` or ``RANDOMCHESS_DB_URL`` for another).

``new`` -> ``add-player`` ... -> ``start`` -> (``pair`` -> ``result`` ...) x rounds ->
``standings`` -> ``close`` -> ``export`` / ``verify``.  docs/tournaments.md walks through it.
"""

from __future__ import annotations

import functools
import io
import shlex
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from randomchess.cli import click_es
from randomchess.cli.knockout import KO_MSG, bracket_table, report_match
from randomchess.san import Language
from randomchess.startpos import parse_salt, setup_from_number
from randomchess.tournament import GameEntryError, TournamentError, TournamentStore
from randomchess.tournament.export import (
    ACTIONS,
    LABELS,
    crosstable_csv,
    crosstable_html,
    game_records,
    pgn,
)
from randomchess.tournament.knockout_export import bracket_html, round_name
from randomchess.tournament.knockout_export import pgn as knockout_pgn
from randomchess.tournament.knockout_store import KnockoutEvent, KnockoutStore
from randomchess.tournament.knockout_store import verify as verify_knockout
from randomchess.tournament.model import Board, Tournament, parse_result
from randomchess.tournament.otb import ImportReport, RelayReport
from randomchess.tournament.store import Created, verify
from randomchess.tournament.tiebreaks import TIEBREAKS, Calculator, fmt

if TYPE_CHECKING:  # rich loads when a command prints a table (not for `result`)
    from rich.console import Console
    from rich.table import Table

F = TypeVar("F", bound=Callable[..., Any])
_argument = functools.partial(click.argument, cls=click_es.LangArgument)

_MSG = {
    "en": {
        "created": "Event created", "id": "id", "commitment": "commitment",
        "secret": "organiser secret (for the web page; keep it private)",
        "publish": "Publish the commitment and these options now, before round 1:",
        "registered": "registered as number", "late": "late entry from round",
        "started": "Registration closed; pairing numbers by rating:",
        "paired": "Round {r} paired", "result": "Round {r} board {b}: {res}",
        "corrected": "Round {r} board {b} corrected: {old} -> {new} ({why})",
        "closed": "Event closed. The salt is revealed:",
        "verify_ok": "Every round's setup re-derives from the revealed salt "
                     "({n} rounds): verified.",
        "verify_cmd": "Independent check with the shuffler:",
        "withdrawn": "{name} withdrawn from round {r}",
        "bye": "{name}: bye {kind} in round {r}",
        "explain": "Arithmetic", "setup": "Setup", "byes": "Byes",
        "not_paired": "round {r} is not paired (paired: {n})",
        "result_usage": "give BOARD and RESULT, or --from FILE (one 'BOARD RESULT' per line)",
        "result_line": "line {n} ({line!r}) is not 'BOARD RESULT'",
        "result_twice": "the board is given twice", "line": "line {n}: {why}",
        "no_db": "cannot open the database {url}: {e}", "pairing": "pairing...",
        "explain_arg": "--explain takes a player number or 'all', not {x!r}",
        "verify_usage": "give an EVENT or --trf FILE",
        "unreadable": "cannot read {path}: {e}",
        "bad_salt": "a salt is 64 hexadecimal digits, not {x!r}",
        "mismatch": "{n} board(s) do not match the draw",
        "no_salt": "the TRF has no '### randomchess-salt' line: give the revealed salt with "
                   "--salt",
        "revealed": "Round {r} revealed at {at} from the hall digits {digits}",
        "key": "round key", "to_reveal": "to reveal",
        "window": "Preparation window: {m} min; the games may start at {end}",
        "online": "Online: the server on this database opens the games at {end} (a server "
                  "started later opens them at its start). Each player's personal link, "
                  "shown this once (the database keeps only their hashes):",
        "link": "Round {r} board {b}, {side} {name}: {link}",
        "white": "White", "black": "Black",
        "pending": "Setups are revealed in the hall: `tournament reveal {event} {r} --input "
                   "DIGITS`",
        "game": "Round {r} board {b}: {n} plies entered, result {res}",
        "suggest": "  suggestions: {s}",
        "imported": "Round {r}: {n} game(s) entered",
        "unmatched": "  game {i} ({w} - {bl}) matches no board: {why}",
        "refused": "  game {i} ({w} - {bl}), board {b}: {why}",
        "missing": "  boards still without a game: {b}",
        "relayed": "board {b}: {n} plies, {res}",
        "flagged": "FLAGGED {why}",
        "watching": "Relaying round {r} from {path} (Ctrl-C stops)",
        "ko_result": "a knock-out event's results are entered game by game: tournament "
                     "game-result EVENT ROUND MATCH GAME RESULT",
    },
    "es": {
        "created": "Torneo creado", "id": "id", "commitment": "compromiso",
        "secret": "secreto del organizador (para la página web; no lo comparta)",
        "publish": "Publique ya el compromiso y estas opciones, antes de la ronda 1:",
        "registered": "inscrito con el número", "late": "inscripción tardía desde la ronda",
        "started": "Inscripción cerrada; números de emparejamiento por Elo:",
        "paired": "Ronda {r} emparejada", "result": "Ronda {r} tablero {b}: {res}",
        "corrected": "Ronda {r} tablero {b} corregido: {old} -> {new} ({why})",
        "closed": "Torneo cerrado. Se revela la sal:",
        "verify_ok": "La posición de cada ronda se obtiene de nuevo de la sal revelada "
                     "({n} rondas): verificado.",
        "verify_cmd": "Comprobación independiente con el sorteador:",
        "withdrawn": "{name} se retira desde la ronda {r}",
        "bye": "{name}: descanso {kind} en la ronda {r}",
        "explain": "Cálculo", "setup": "Posición", "byes": "Descansos",
        "not_paired": "la ronda {r} no está emparejada (emparejadas: {n})",
        "result_usage": "indique TABLERO y RESULTADO, o --from FICHERO (una línea "
                        "'TABLERO RESULTADO' cada uno)",
        "result_line": "la línea {n} ({line!r}) no es 'TABLERO RESULTADO'",
        "result_twice": "el tablero aparece dos veces", "line": "línea {n}: {why}",
        "no_db": "no se puede abrir la base de datos {url}: {e}", "pairing": "emparejando...",
        "explain_arg": "--explain admite un número de jugador o 'all', no {x!r}",
        "verify_usage": "indique un TORNEO o --trf FICHERO",
        "unreadable": "no se puede leer {path}: {e}",
        "bad_salt": "una sal son 64 cifras hexadecimales, no {x!r}",
        "mismatch": "{n} tablero(s) no coinciden con el sorteo",
        "no_salt": "el TRF no tiene la línea '### randomchess-salt': indique la sal revelada "
                   "con --salt",
        "revealed": "Ronda {r} revelada a las {at} con las cifras de la sala {digits}",
        "key": "clave de la ronda", "to_reveal": "por revelar",
        "window": "Ventana de preparación: {m} min; las partidas pueden empezar a las {end}",
        "online": "En línea: el servidor de esta base de datos abre las partidas a las {end} "
                  "(un servidor que arranque después las abre al arrancar). El enlace personal "
                  "de cada jugador, mostrado solo esta vez (la base de datos guarda solo su "
                  "hash):",
        "link": "Ronda {r} tablero {b}, {side} {name}: {link}",
        "white": "Blancas", "black": "Negras",
        "pending": "Las posiciones se revelan en la sala: `tournament reveal {event} {r} "
                   "--input CIFRAS`",
        "game": "Ronda {r} tablero {b}: {n} medias jugadas introducidas, resultado {res}",
        "suggest": "  sugerencias: {s}",
        "imported": "Ronda {r}: {n} partida(s) introducidas",
        "unmatched": "  la partida {i} ({w} - {bl}) no corresponde a ningún tablero: {why}",
        "refused": "  partida {i} ({w} - {bl}), tablero {b}: {why}",
        "missing": "  tableros aún sin partida: {b}",
        "relayed": "tablero {b}: {n} medias jugadas, {res}",
        "flagged": "SEÑALADA {why}",
        "watching": "Retransmitiendo la ronda {r} desde {path} (Ctrl-C para)",
        "ko_result": "los resultados de una eliminatoria se introducen partida a partida: "
                     "tournament game-result TORNEO RONDA MATCH PARTIDA RESULTADO",
    },
}


def _store(ctx: click.Context) -> TournamentStore:
    obj: dict[str, Any] = ctx.ensure_object(dict)
    if "store" not in obj:
        url = obj.get("db")
        if url is None:
            from randomchess.db import default_db_url

            url = default_db_url()
        store = TournamentStore(url)
        try:
            store.migrate()
        except Exception as e:
            raise click.ClickException(_MSG[_lang(ctx)]["no_db"].format(url=url, e=e)) from None
        obj["store"] = store
        ctx.call_on_close(store.dispose)
    store_: TournamentStore = obj["store"]
    return store_


def _lang(ctx: click.Context) -> str:
    lang: str = ctx.ensure_object(dict).get("lang", "en")
    return lang


def _run(fn: Callable[[], Any]) -> Any:
    """``fn()``; a tournament error becomes the command's error, in the session's language."""
    try:
        return fn()
    except TournamentError as e:
        ctx = click.get_current_context(silent=True)
        raise click.ClickException(e.localized("en" if ctx is None else _lang(ctx))) from None


def _event_id(ctx: click.Context, key: str) -> str:
    eid: str = _run(lambda: _store(ctx).resolve(key))
    return eid


def _console() -> Console:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=False, width=120)


def _table(*headers: str, title: str | None = None) -> Table:
    """A rich table (rich imported on first use)."""
    from rich.table import Table as RichTable

    return RichTable(*headers, title=title)


@click.group("tournament", cls=click_es.LangGroup)
@click.option("--db", envvar="RANDOMCHESS_DB_URL", default=None,
              help="SQLAlchemy URL of the database (default: the server's SQLite file).")
@click.option("--lang", type=click.Choice(["en", "es"]), default="en", show_default=True,
              is_eager=True, callback=click_es.language_option,
              help="Language of tables and messages.")
@click.pass_context
def tournament_group(ctx: click.Context, db: str | None, lang: str) -> None:
    """Swiss and round-robin events with one verifiable start position per round."""
    ctx.ensure_object(dict).update(db=db, lang=lang)


def _knockout(ctx: click.Context, eid: str) -> KnockoutEvent | None:
    """The knock-out snapshot of event ``eid``, or None for a Swiss or round robin."""
    store = _store(ctx)
    if store.load(eid).event.system != "knockout":
        return None
    ko: KnockoutEvent = _run(lambda: KnockoutStore(store).load(eid))
    return ko


@tournament_group.command("new")
@_argument("name")
@click.option("--variant", default="chess960", show_default=True)
@click.option("--system", type=click.Choice(["swiss", "rr", "drr"]), default="swiss",
              show_default=True, help="Swiss (FIDE Dutch), round robin or double round robin.")
@click.option("--format", "format_", type=click.Choice(["swiss", "rr", "drr", "knockout"]),
              default=None, help="The event's format (instead of --system); knockout: "
                                 "matches in a bracket (docs/tournaments.md).")
@click.option("--games", type=int, default=2, show_default=True,
              help="Knock-out: the games of each match.")
@click.option("--tiebreak", "stages", multiple=True, metavar="GAMES:CONTROL",
              help="Knock-out: a tie-break stage, in order (2:600+5); repeat for more.")
@click.option("--armageddon", default=None, metavar="SPEC",
              help="Knock-out: the last tie-break, fixed:WHITE,BLACK (fixed:300,240) or "
                   "bid:BASE (bid:300+2, the players bid for Black).")
@click.option("--match-setups", type=click.Choice(["match", "pair"]), default="match",
              show_default=True,
              help="Knock-out: one setup per match stage, or per pair of games.")
@click.option("--seeding", type=click.Choice(["rating", "entered"]), default="rating",
              show_default=True, help="Knock-out: seeds by rating or in the order of entry.")
@click.option("--rounds", type=int, default=None, help="Swiss: the number of rounds.")
@click.option("--time-control", default="", help="For example 5400+30 (PGN TimeControl).")
@click.option("--tiebreaks", default=None,
              help=f"Comma-separated, in order, from: {', '.join(TIEBREAKS)}.")
@click.option("--setups", "policy", type=click.Choice(["round", "board"]), default="round",
              show_default=True, help="One setup per round for all boards, or per board.")
@click.option("--mini-match", is_flag=True,
              help="Two-game matches: even rounds replay the odd round with colours reversed "
                   "on the same setups.")
@click.option("--exclude-standard", is_flag=True, help="Never draw SP 518 (or Maura's 8226).")
@click.option("--bishops", type=click.Choice(["any", "same", "opposite"]), default="any",
              help="MRC: only setups with bishops on one colour, or on opposite colours.")
@click.option("--no-repeat", is_flag=True, help="No setup twice in the event.")
@click.option("--eval-band", default=None, metavar="PAWNS",
              help="Only setups whose evaluation lies within ±PAWNS (0.3, 30cp), by the "
                   "shipped setup evaluations (randomchess setups show).")
@click.option("--initial-colour", type=click.Choice(["white", "black"]), default="white",
              show_default=True, help="The colour of the top seed on board 1 in round 1.")
@click.option("--tiebreak-edition", type=click.Choice(["2026", "2023"]), default="2026",
              show_default=True,
              help="FIDE's tie-break regulations: the text in force from 1 March 2026, or the "
                   "2023/2024 text (unplayed rounds' dummy opponents uncapped).")
@click.option("--setups-from", "setup_source", type=click.Choice(["salt", "hall"]),
              default="salt", show_default=True,
              help="salt: every setup fixed by the committed salt alone; hall: each round's "
                   "setup revealed in the hall from the salt and digits drawn there "
                   "(`tournament reveal`).")
@click.option("--exclude", "exclude_list", default=None, metavar="LIST",
              help="Never draw these setups: numbers (518,534) and/or the word 'standard' "
                   "(the standard array and its mirror: 518 and 534, MRC 8226 and 8406).")
@click.option("--only", "only_list", default=None, metavar="LIST",
              help="Draw only from this published shortlist of setup numbers.")
@click.option("--prep", "prep_minutes", type=click.Choice(["0", "5", "10", "15"]),
              default="0", show_default=True,
              help="Preparation window after a reveal, in minutes: online games open when "
                   "it ends.")
@click.option("--web", is_flag=True,
              help="Also print an organiser secret, to run the event from the web page of a "
                   "server on this database.")
@click.pass_context
def new_command(ctx: click.Context, name: str, variant: str, system: str,
                format_: str | None, games: int, stages: tuple[str, ...],
                armageddon: str | None, match_setups: str, seeding: str, rounds: int | None,
                time_control: str, tiebreaks: str | None, policy: str, mini_match: bool,
                exclude_standard: bool, bishops: str, no_repeat: bool, eval_band: str | None,
                initial_colour: str, tiebreak_edition: str, setup_source: str,
                exclude_list: str | None, only_list: str | None, prep_minutes: str,
                web: bool) -> None:
    """Create an event and commit to its secret salt (the commitment is printed)."""
    from randomchess.analysis.setup_eval import SetupEvaluationError, parse_band
    from randomchess.tournament.setups import parse_setup_list

    store = _store(ctx)
    try:
        band = None if eval_band is None else parse_band(eval_band)
    except SetupEvaluationError as exc:
        raise click.ClickException(str(exc)) from None
    excluded = () if exclude_list is None else _run(lambda: parse_setup_list(exclude_list,
                                                                                variant))
    only = None if only_list is None else _run(lambda: parse_setup_list(only_list, variant))
    if format_ == "knockout":
        created = _run(lambda: KnockoutStore(store).create(
            name, games, stages, armageddon, match_setups, seeding, variant=variant,
            time_control=time_control, exclude_standard=exclude_standard, bishops=bishops,
            no_repeat=no_repeat, initial_colour=initial_colour, organiser=web,
            eval_band=band))
        _print_created(ctx, created)
        return
    system = format_ or system
    created = _run(lambda: store.create(
        name, variant=variant, system=system, rounds=rounds, time_control=time_control,
        tiebreaks=tiebreaks, setup_policy=policy, mini_match=mini_match,
        exclude_standard=exclude_standard, bishops=bishops, no_repeat=no_repeat,
        initial_colour=initial_colour, organiser=web, eval_band=band,
        tiebreak_edition=tiebreak_edition, setup_source=setup_source, excluded=excluded,
        shortlist=only, prep_minutes=int(prep_minutes)))
    _print_created(ctx, created)


@tournament_group.command("knockout-from")
@_argument("name")
@click.option("--group", "groups", multiple=True, required=True, metavar="EVENT",
              help="A closed Swiss or round-robin event whose top places qualify; repeat "
                   "for more groups (seeds by place, then by group in this order).")
@click.option("--top", type=int, required=True, help="The places of each group that qualify.")
@click.option("--games", type=int, default=2, show_default=True,
              help="The games of each match.")
@click.option("--tiebreak", "stages", multiple=True, metavar="GAMES:CONTROL",
              help="A tie-break stage, in order (2:600+5); repeat for more.")
@click.option("--armageddon", default=None, metavar="SPEC",
              help="fixed:WHITE,BLACK (fixed:300,240) or bid:BASE (bid:300+2).")
@click.option("--match-setups", type=click.Choice(["match", "pair"]), default="match",
              show_default=True, help="One setup per match stage, or per pair of games.")
@click.option("--variant", default=None, help="Default: the first group's variant.")
@click.option("--time-control", default="", help="The match games' clock (PGN TimeControl).")
@click.option("--exclude-standard", is_flag=True, help="Never draw SP 518 (or Maura's 8226).")
@click.option("--no-repeat", is_flag=True, help="No setup twice in the event.")
@click.option("--initial-colour", type=click.Choice(["white", "black"]), default="white",
              show_default=True, help="The better seed's colour in game 1.")
@click.option("--web", is_flag=True, help="Also print an organiser secret.")
@click.pass_context
def knockout_from_command(ctx: click.Context, name: str, groups: tuple[str, ...], top: int,
                          games: int, stages: tuple[str, ...], armageddon: str | None,
                          match_setups: str, variant: str | None, time_control: str,
                          exclude_standard: bool, no_repeat: bool, initial_colour: str,
                          web: bool) -> None:
    """Group stage -> knock-out: a knock-out event seeded by the top places of closed Swiss
    or round-robin events, by their standings and tiebreaks (docs/tournaments.md)."""
    store = _store(ctx)
    options: dict[str, Any] = {"time_control": time_control,
                               "exclude_standard": exclude_standard, "no_repeat": no_repeat,
                               "initial_colour": initial_colour, "organiser": web}
    if variant is not None:
        options["variant"] = variant
    created, seeds = _run(lambda: KnockoutStore(store).from_groups(
        groups, top, name, games, stages, armageddon, match_setups, **options))
    _print_created(ctx, created)
    msg = KO_MSG[_lang(ctx)]
    click.echo(msg["qualified"])
    for number, q in enumerate(seeds, 1):
        click.echo("  " + msg["seed"].format(n=number, name=q.player.name, event=q.event,
                                              place=q.place))


def _print_created(ctx: click.Context, created: Created) -> None:
    e = created.event
    m = _MSG[_lang(ctx)]
    click.echo(f"{m['created']}: {e.name}")
    click.echo(f"{m['id']}: {e.id}")
    click.echo(f"{m['commitment']}: {e.commitment}")
    if created.organiser_secret is not None:
        click.echo(f"{m['secret']}: {created.organiser_secret}")
    click.echo(m["publish"])
    if e.system == "knockout":
        ko = KnockoutStore(_store(ctx)).load(e.id)
        click.echo(f"  variant={e.variant} format=knockout games={ko.format.games} "
                   f"tiebreaks={';'.join(s.spec for s in ko.format.tiebreaks) or '-'} "
                   f"armageddon={ko.format.armageddon.spec if ko.format.armageddon else '-'} "
                   f"match-setups={ko.format.setups} seeding={ko.format.seeding} "
                   f"exclude-standard={'yes' if e.exclude_standard else 'no'} "
                   f"bishops={e.bishops} no-repeat={'yes' if e.no_repeat else 'no'}"
                   + ("" if e.eval_band is None else
                      f" eval-band=±{e.eval_band / 100:g} eval-digest={e.eval_digest}"))
        click.echo("  " + KO_MSG[_lang(ctx)]["derivation"])
        return
    click.echo(f"  variant={e.variant} system={e.system} setups={e.setup_policy} "
               f"mini-match={'yes' if e.mini_match else 'no'} "
               f"exclude-standard={'yes' if e.exclude_standard else 'no'} "
               f"bishops={e.bishops} no-repeat={'yes' if e.no_repeat else 'no'} "
               f"tiebreaks={','.join(e.tiebreaks)} tiebreak-edition={e.tiebreak_edition}"
               + ("" if e.eval_band is None else
                  f" eval-band=±{e.eval_band / 100:g} eval-digest={e.eval_digest}")
               + f" setups-from={e.setup_source}"
               + (f" prep={e.prep_minutes}" if e.setup_source == "hall" else "")
               + (f" exclude={','.join(map(str, e.excluded))}" if e.excluded else "")
               + ("" if e.shortlist is None else f" only={','.join(map(str, e.shortlist))}"))


@tournament_group.command("list")
@click.pass_context
def list_command(ctx: click.Context) -> None:
    """The events in the database."""
    labels = LABELS[_lang(ctx)]
    table = _table("id", labels["event"], labels["variant"], labels["system"],
                  labels["rounds"], labels["status"])
    for e in _store(ctx).events():
        table.add_row(e.id, e.name, e.variant, labels[e.system], str(e.rounds),
                      labels[e.status])
    _console().print(table)


@tournament_group.command("add-player")
@_argument("event")
@_argument("name")
@click.option("--rating", type=int, default=None)
@click.option("--fide-id", default=None)
@click.option("--federation", default=None, help="Three letters: ESP, FRA, ...")
@click.pass_context
def add_player_command(ctx: click.Context, event: str, name: str, rating: int | None,
                       fide_id: str | None, federation: str | None) -> None:
    """Register a player (after the start: a late entry from the next round)."""
    eid = _event_id(ctx, event)
    p = _run(lambda: _store(ctx).add_player(eid, name, rating, fide_id, federation))
    m = _MSG[_lang(ctx)]
    extra = f" ({m['late']} {p.joined_round})" if p.joined_round > 1 else ""
    click.echo(f"{p.name}: {m['registered']} {p.number}{extra}")


@tournament_group.command("withdraw")
@_argument("event")
@_argument("player", type=int)
@click.pass_context
def withdraw_command(ctx: click.Context, event: str, player: int) -> None:
    """Withdraw a player from the next round on."""
    eid = _event_id(ctx, event)
    p = _run(lambda: _store(ctx).withdraw(eid, player))
    click.echo(_MSG[_lang(ctx)]["withdrawn"].format(name=p.name, r=p.withdrawn_round or 1))


@tournament_group.command("bye")
@_argument("event")
@_argument("player", type=int)
@click.option("--round", "rnd", type=int, required=True)
@click.option("--kind", type=click.Choice(["H", "Z", "F"]), default="H", show_default=True,
              help="H half point, Z zero, F full point.")
@click.pass_context
def bye_command(ctx: click.Context, event: str, player: int, rnd: int, kind: str) -> None:
    """A bye a player asks for in a future round."""
    eid = _event_id(ctx, event)
    store = _store(ctx)
    _run(lambda: store.request_bye(eid, player, rnd, kind))
    name = store.load(eid).player(player).name
    click.echo(_MSG[_lang(ctx)]["bye"].format(name=name, kind=kind, r=rnd))


@tournament_group.command("start")
@_argument("event")
@click.pass_context
def start_command(ctx: click.Context, event: str) -> None:
    """Close registration and give the pairing numbers."""
    eid = _event_id(ctx, event)
    lang = _lang(ctx)
    if _knockout(ctx, eid) is not None:
        ko: KnockoutEvent = _run(lambda: KnockoutStore(_store(ctx)).start(eid))
        t = ko.tournament
        click.echo(KO_MSG[lang]["seeds"].format(how=KO_MSG[lang][ko.format.seeding]))
    else:
        t = _run(lambda: _store(ctx).start(eid))
        click.echo(_MSG[lang]["started"])
    labels = LABELS[lang]
    table = _table(labels["no"], labels["name"], labels["rating"], labels["fed"])
    for p in t.players:
        table.add_row(str(p.number), p.name, str(p.rating or ""), p.federation or "")
    _console().print(table)


def _pairing_table(t: Tournament, rnd: int, lang: str) -> Table:
    labels = LABELS[lang]
    table = _table(labels["board"], labels["white"], labels["black"], labels["result"],
                  labels["setup"], labels["rank_en"], labels["rank_es"],
                  title=f"{t.event.name}: {labels['pairings']} {rnd}")
    for b in t.round_boards(rnd):
        white = f"{t.player(b.white).name} ({b.white})"
        if b.is_bye:
            table.add_row(str(b.board), white, f"{labels['bye']} {b.bye}", "", "", "", "")
            continue
        assert b.black is not None
        setup, en, es = "", "", ""
        if b.fen == "":
            setup = _MSG[lang]["to_reveal"]
        if b.setup is not None:
            s = setup_from_number(t.event.variant, b.setup)
            setup, en, es = str(s.number), s.localized("en"), s.localized("es")
        table.add_row(str(b.board), white, f"{t.player(b.black).name} ({b.black})",
                      b.result or "", setup, en, es)
    return table


def _sheet(t: Tournament, rnd: int, lang: str) -> str:
    """The round's pairing list and its setup cards, printable (diagram.py's sheet)."""
    from randomchess.diagram import Card, Section, sheet_html

    labels = LABELS[lang]
    cards = []
    seen: set[tuple[int, int | None]] = set()
    for b in t.round_boards(rnd):
        if b.is_bye or b.black is None or b.fen == "":  # a hall round not revealed yet
            continue
        key = (0 if t.event.setup_policy == "round" else b.board, b.setup)
        if key in seen:
            continue
        seen.add(key)
        heading = f"{labels['round']} {rnd}" + (
            "" if t.event.setup_policy == "round" else f", {labels['board']} {b.board}")
        lines: list[tuple[str, str]] = []
        if b.setup is not None:
            s = setup_from_number(t.event.variant, b.setup)
            heading += f": {s.variant.pgn_name} {s.number}"
            lines = [(labels["rank_en"], s.localized("en")), (labels["rank_es"],
                                                              s.localized("es"))]
        lines.append(("FEN", b.fen))
        cards.append(Card(heading, b.fen, tuple(lines), None))
    pairs = tuple(
        f"{b.board}. {t.player(b.white).name} - "
        + (f"{labels['bye']} {b.bye}" if b.black is None else t.player(b.black).name)
        for b in t.round_boards(rnd)
    )
    section = Section(f"{t.event.name}: {labels['pairings']} {rnd}", tuple(cards),
                      subheading=f"{LABELS[lang]['commitment']}: {t.event.commitment}",
                      footer=pairs)
    return sheet_html(f"{t.event.name}: {labels['round']} {rnd}", [section], lang=lang)


@tournament_group.command("pair")
@_argument("event")
@click.option("--format", "fmt_", type=click.Choice(["table", "html"]), default="table",
              show_default=True, help="A terminal table, or a printable sheet with cards.")
@click.pass_context
def pair_command(ctx: click.Context, event: str, fmt_: str) -> None:
    """Pair the next round and draw its setup(s) from the committed salt."""
    eid = _event_id(ctx, event)
    store = _store(ctx)
    if _knockout(ctx, eid) is not None:
        KnockoutStore(store).sync_online(eid)  # games that ended on the server
        rnd: int = _run(lambda: KnockoutStore(store).open_round(eid))
        ko = KnockoutStore(store).load(eid)
        lang = _lang(ctx)
        click.echo(KO_MSG[lang]["opened"].format(
            name=round_name(rnd, len(ko.bracket.rounds), lang)))
        for table in bracket_table(ko, lang, rnd):
            _console().print(table)
        return
    with _console().status(_MSG[_lang(ctx)]["pairing"]):
        boards: list[Board] = _run(lambda: store.pair(eid))
    t = store.load(eid)
    rnd = boards[0].round
    if fmt_ == "html":
        click.echo(_sheet(t, rnd, _lang(ctx)), nl=False)
        return
    click.echo(_MSG[_lang(ctx)]["paired"].format(r=rnd))
    _console().print(_pairing_table(t, rnd, _lang(ctx)))
    if t.awaits_reveal(rnd):
        click.echo(_MSG[_lang(ctx)]["pending"].format(event=shlex.quote(event), r=rnd))


@tournament_group.command("reveal")
@_argument("event")
@_argument("rnd", metavar="ROUND", type=int)
@click.option("--input", "digits", required=True, metavar="DIGITS",
              help="The digits drawn in the hall (dice 1-6 or urn digits 0-9), at least 6; "
                   "spaces are ignored.")
@click.option("--format", "fmt_", type=click.Choice(["table", "html"]), default="table",
              show_default=True, help="A terminal table, or a printable sheet with cards.")
@click.option("--online", is_flag=True,
              help="The server on this database opens the round's games (not rated) when "
                   "the preparation window ends; each player's personal link is printed "
                   "once (on standard error with --format html).")
@click.option("--site", default="", metavar="URL",
              help="The server's address, put before the links (e.g. https://chess.example).")
@click.pass_context
def reveal_command(ctx: click.Context, event: str, rnd: int, digits: str, fmt_: str,
                   online: bool, site: str) -> None:
    """Reveal a paired round's setup from the salt and the digits drawn in the hall (once:
    a reveal cannot be undone or repeated)."""
    from randomchess.tournament import openings
    from randomchess.tournament.store import minute_ms, window_end
    from randomchess.tournament.trf import iso_time

    eid = _event_id(ctx, event)
    store = _store(ctx)
    made: list[openings.Seats] = []
    if online:
        before = _run(lambda: store.load(eid))
        if 1 <= rnd <= before.paired_rounds:
            made = openings.plan(before, rnd)
    reveal, _ = _run(lambda: store.reveal(eid, rnd, digits,
                                          [s.game for s in made] if online else None))
    t = store.load(eid)
    lang = _lang(ctx)
    m = _MSG[lang]
    if online:
        names = {p.number: p.name for p in t.players}
        due = reveal.at + t.event.prep_minutes * minute_ms()
        lines = [m["online"].format(end=iso_time(due))]
        for s in made:
            links = openings.seat_links(eid, s)
            for side, number, link in (("white", s.game.white, links[0]),
                                       ("black", s.game.black, links[1])):
                lines.append(m["link"].format(r=s.game.round, b=s.game.board, side=m[side],
                                              name=names[number],
                                              link=site.rstrip("/") + link))
        click.echo("\n".join(lines), err=fmt_ == "html")
    if fmt_ == "html":
        click.echo(_sheet(t, rnd, lang), nl=False)
        return
    click.echo(m["revealed"].format(r=rnd, at=iso_time(reveal.at), digits=reveal.input))
    click.echo(f"{m['key']}: {reveal.key}")
    _console().print(_pairing_table(t, rnd, lang))
    end = window_end(t, rnd)
    if end is not None:
        click.echo(m["window"].format(m=t.event.prep_minutes, end=iso_time(end)))


@tournament_group.command("show")
@_argument("event")
@click.option("--round", "rnd", type=int, default=None, help="Default: the last paired.")
@click.option("--format", "fmt_", type=click.Choice(["table", "html"]), default="table")
@click.option("--log", "show_log", is_flag=True,
              help="Also print the arbiter's log (before round 1: the log alone).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to this file instead of the terminal.")
@click.pass_context
def show_command(ctx: click.Context, event: str, rnd: int | None, fmt_: str,
                 show_log: bool, output: Path | None) -> None:
    """The pairings (and results) of a round."""
    eid = _event_id(ctx, event)
    t = _store(ctx).load(eid)
    lang = _lang(ctx)
    r = rnd or t.paired_rounds
    log_only = show_log and rnd is None and t.paired_rounds == 0 and fmt_ == "table"
    if not log_only and (r < 1 or r > t.paired_rounds):
        raise click.ClickException(_MSG[lang]["not_paired"].format(r=r, n=t.paired_rounds))
    if fmt_ == "html":
        _emit(_sheet(t, r, lang), output)
        return
    with _output(output) as console:
        if not log_only:
            console.print(_pairing_table(t, r, lang))
        if show_log:
            labels = LABELS[lang]
            table = _table("#", labels["action"], labels["round"], labels["board"],
                           labels["old"], labels["new"], labels["reason"], title=labels["log"])
            for e in t.log:
                table.add_row(str(e.seq), ACTIONS[lang].get(e.action, e.action),
                              str(e.round or ""), str(e.board or ""),
                              e.old or "", e.new or "", e.reason or "")
            console.print(table)


def _emit(text: str, output: Path | None) -> None:
    """Text to standard output, or to the file ``output``."""
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as e:
        raise click.ClickException(f"{output}: {e.strerror or e}") from None


@contextmanager
def _output(output: Path | None) -> Iterator[Console]:
    """A console printing to the terminal, or recording for the file ``output``."""
    if output is None:
        yield _console()
        return
    from rich.console import Console

    console = Console(highlight=False, soft_wrap=False, width=120, record=True,
                      file=io.StringIO())
    yield console
    _emit(console.export_text(), output)


# "-+" and "--" (forfeits) must reach RESULT instead of being read as options.
_RESULT_CONTEXT = {"ignore_unknown_options": True}


@tournament_group.command("result", context_settings=_RESULT_CONTEXT)
@_argument("event")
@_argument("rnd", metavar="ROUND", type=int)
@_argument("board", type=int, required=False)
@_argument("result", required=False)
@click.option("--from", "source", type=click.File("r", encoding="utf-8"), default=None,
              help="A round's results, one 'BOARD RESULT' line each ('-': standard input; "
                   "blank lines and # comments skipped), entered all or none.")
@click.pass_context
def result_command(ctx: click.Context, event: str, rnd: int, board: int | None,
                   result: str | None, source: Any) -> None:
    """Enter a result: 1-0, 0-1, 1/2; forfeits +- -+ --."""
    lang = _lang(ctx)
    m = _MSG[lang]
    if _knockout(ctx, _event_id(ctx, event)) is not None:
        raise click.ClickException(m["ko_result"])
    if (source is None) == (board is None or result is None) or \
            (source is not None and (board, result) != (None, None)):
        raise click.UsageError(m["result_usage"])
    eid = _event_id(ctx, event)
    if source is None:
        assert board is not None and result is not None
        b: Board = _run(lambda: _store(ctx).set_result(eid, rnd, board, result))
        click.echo(m["result"].format(r=rnd, b=board, res=b.result))
        return
    entries: list[tuple[int, str]] = []
    for number, line in enumerate(source, 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) != 2 or not words[0].isdigit():
            raise click.ClickException(m["result_line"].format(n=number, line=line.strip()))
        entries.append((int(words[0]), words[1]))
        try:  # a malformed result names its line
            parse_result(words[1])
        except TournamentError as e:
            raise click.ClickException(m["line"].format(n=number, why=e.localized(lang))) \
                from None
        if [b_ for b_, _ in entries].count(int(words[0])) > 1:
            raise click.ClickException(m["line"].format(n=number, why=m["result_twice"]))
    done: list[Board] = _run(lambda: _store(ctx).set_results(eid, rnd, entries))
    for b in done:
        click.echo(m["result"].format(r=rnd, b=b.board, res=b.result))


@tournament_group.command("correct", context_settings=_RESULT_CONTEXT)
@_argument("event")
@_argument("rnd", metavar="ROUND", type=int)
@_argument("board", type=int)
@_argument("result")
@click.option("--reason", required=True, help="Why the entered result changes (logged).")
@click.pass_context
def correct_command(ctx: click.Context, event: str, rnd: int, board: int, result: str,
                    reason: str) -> None:
    """Correct an entered result, with a reason kept in the log."""
    eid = _event_id(ctx, event)
    store = _store(ctx)
    old = store.load(eid)
    b: Board = _run(lambda: store.correct(eid, rnd, board, result, reason))
    before = next((x.result for x in old.boards if (x.round, x.board) == (rnd, board)), None)
    click.echo(_MSG[_lang(ctx)]["corrected"].format(r=rnd, b=board, old=before, new=b.result,
                                                    why=reason.strip()))


@tournament_group.command("standings")
@_argument("event")
@click.option("--round", "rnd", type=int, default=None, help="After this round.")
@click.option("--explain", "explain", default=None,
              help="Show the arithmetic of every tiebreak for this player number (or 'all').")
@click.pass_context
def standings_command(ctx: click.Context, event: str, rnd: int | None,
                      explain: str | None) -> None:
    """Standings with the event's tiebreaks."""
    eid = _event_id(ctx, event)
    if _knockout(ctx, eid) is not None:
        raise click.ClickException(KO_MSG[_lang(ctx)]["no_standings"])
    _store(ctx).sync_online(eid)  # games that ended on the server
    t = _store(ctx).load(eid)
    lang = _lang(ctx)
    labels = LABELS[lang]
    upto = t.completed_rounds if rnd is None else rnd
    if not 0 <= upto <= t.paired_rounds:
        raise click.ClickException(_MSG[lang]["not_paired"].format(r=upto, n=t.paired_rounds))
    calc = Calculator(t, upto, lang=lang)
    rows = calc.standings()
    table = _table(labels["rank"], labels["no"], labels["name"], labels["rating"],
                  labels["points"], *t.event.tiebreaks,
                  title=f"{t.event.name}: {labels['standings']} {upto}")
    for s in rows:
        p = t.player(s.number)
        rank = f"{s.rank}" + ("=" if s.shared else "")
        table.add_row(rank, str(s.number), s.name, str(p.rating or ""), fmt(s.points),
                      *[fmt(s.values[c].value) if s.values[c].defined else "-"
                        for c in t.event.tiebreaks])
    console = _console()
    console.print(table)
    if explain is not None:
        if explain == "all":
            wanted = [s.number for s in rows]
        else:
            try:
                wanted = [_run(lambda: t.player(int(explain))).number]
            except ValueError:
                raise click.ClickException(_MSG[lang]["explain_arg"].format(x=explain)) \
                    from None
        by_number = {s.number: s for s in rows}
        for n in wanted:
            s = by_number[n]
            console.print(f"[bold]{s.name}[/bold] ({n}): {labels['points']} {fmt(s.points)}")
            for code in t.event.tiebreaks:
                console.print(f"  {code}: {s.values[code].arithmetic}", markup=False)


@tournament_group.command("close")
@_argument("event")
@click.option("--early", metavar="REASON", default=None,
              help="Close after the last complete round although rounds remain (e.g. no "
                   "legal pairing exists), with the arbiter's reason; it is logged.")
@click.pass_context
def close_command(ctx: click.Context, event: str, early: str | None) -> None:
    """Close the event (all rounds complete) and reveal the salt."""
    eid = _event_id(ctx, event)
    if _knockout(ctx, eid) is not None:
        t = _run(lambda: KnockoutStore(_store(ctx)).close(eid)).tournament
    else:
        t = _run(lambda: _store(ctx).close(eid, early=early))
    assert t.event.salt is not None
    click.echo(_MSG[_lang(ctx)]["closed"])
    click.echo(t.event.salt.hex())


@tournament_group.command("export")
@_argument("event")
@click.option("--format", "fmt_",
              type=click.Choice(["trf", "csv", "html", "pgn", "bulletin"]),
              default="trf", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None)
@click.pass_context
def export_command(ctx: click.Context, event: str, fmt_: str, output: Path | None) -> None:
    """FIDE TRF-16, crosstable CSV or HTML, the PGN of the games, or the HTML bulletin
    (crosstable, setups and every game to step through; works offline)."""
    from randomchess.tournament.trf import write_trf

    eid = _event_id(ctx, event)
    store = _store(ctx)
    t = store.load(eid)
    lang = _lang(ctx)
    ko = _knockout(ctx, eid)
    if ko is not None:
        if fmt_ not in ("pgn", "html", "trf", "bulletin"):
            raise click.ClickException(KO_MSG[lang]["no_format"])
        from randomchess.tournament.knockout_export import bulletin as knockout_bulletin
        from randomchess.tournament.knockout_trf import write_knockout_trf

        _emit(knockout_pgn(ko, store.online_moves) if fmt_ == "pgn" else
              write_knockout_trf(ko) if fmt_ == "trf" else
              knockout_bulletin(ko, store.online_moves, "es" if lang == "es" else "en")
              if fmt_ == "bulletin" else bracket_html(ko, lang), output)
        return
    if fmt_ == "trf":
        text = write_trf(t)
    elif fmt_ == "csv":
        text = crosstable_csv(t, lang)
    elif fmt_ == "html":
        text = crosstable_html(t, lang)
    elif fmt_ == "bulletin":
        from randomchess.tournament.bulletin import bulletin_html

        text = bulletin_html(t, game_records(t, store.online_moves, store.otb_games(eid),
                                             store.review_of), "es" if lang == "es" else "en")
    else:
        text = pgn(t, store.online_moves, otb_games=store.otb_games(eid),
                   review_of=store.review_of)
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")


def _draw_commands(t: Tournament) -> list[str]:
    """``randomchess draw verify`` lines that re-derive the rounds independently (none when
    ``no_repeat`` changes the pool round by round, nor with an evaluation band, whose
    excluded setups `draw verify` does not know, nor for the organiser's own exclusions
    and shortlist: then only this command checks; hall rounds get ``--hall R=DIGITS``)."""
    e = t.event
    if e.no_repeat or e.eval_band is not None or e.variant not in ("chess960", "mrc") \
            or e.salt is None or e.excluded or e.shortlist is not None:
        return []
    words = ["randomchess", "draw", "verify", "--salt", e.salt.hex(), "--event", e.name,
             "--commitment", e.commitment]
    if e.variant != "chess960":
        words += ["--variant", e.variant]
    if e.bishops != "any":
        words += ["--bishops", e.bishops]
    if e.exclude_standard:
        words.append("--exclude-standard")
    rounds = [r for r in range(1, t.paired_rounds + 1) if not (e.mini_match and r % 2 == 0)]
    for reveal in t.reveals:  # hall rounds: their digits (docs/shuffler.md §6)
        words += ["--hall", f"{reveal.round}={reveal.input}"]
    if e.setup_policy == "round":
        return [shlex.join([*words, "--round", ",".join(map(str, rounds))])]
    out = []
    for r in rounds:
        boards = len([b for b in t.round_boards(r) if not b.is_bye])
        out.append(shlex.join([*words, "--round", str(r), "--boards", str(boards),
                               "--per-board"]))
    return out


@tournament_group.command("verify")
@_argument("event", required=False)
@click.option("--trf", "trf_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="Verify an exported TRF (with its revealed salt) instead.")
@click.option("--salt", default=None, help="The revealed salt, if the TRF does not carry it.")
@click.pass_context
def verify_command(ctx: click.Context, event: str | None, trf_file: Path | None,
                   salt: str | None) -> None:
    """Re-derive every round's setup from the revealed salt and compare."""
    from randomchess.tournament.trf import parse_trf, tournament_from_trf

    if (event is None) == (trf_file is None):
        raise click.UsageError(_MSG[_lang(ctx)]["verify_usage"])
    if trf_file is not None:
        try:
            t = _run(lambda: tournament_from_trf(parse_trf(trf_file.read_text("utf-8"))))
        except (OSError, UnicodeDecodeError) as e:
            raise click.ClickException(_MSG[_lang(ctx)]["unreadable"].format(
                path=trf_file, e=getattr(e, "strerror", None) or e)) from None
    else:
        eid = _event_id(ctx, event or "")
        if _knockout(ctx, eid) is not None:
            _verify_knockout(ctx, eid, salt)
            return
        t = _store(ctx).load(eid)
    if trf_file is not None and salt is None and t.event.salt is None:
        raise click.ClickException(_MSG[_lang(ctx)]["no_salt"])
    if salt is not None:
        from dataclasses import replace

        try:
            salt_bytes = parse_salt(salt)
        except ValueError:
            raise click.ClickException(_MSG[_lang(ctx)]["bad_salt"].format(x=salt)) from None
        t = replace(t, event=replace(t.event, salt=salt_bytes))
    report = _run(lambda: verify(t, _lang(ctx)))
    m = _MSG[_lang(ctx)]
    for r, numbers in enumerate(report.rounds, 1):
        click.echo(f"{LABELS[_lang(ctx)]['round']} {r}: "
                   + " ".join("-" if n is None else str(n) for n in numbers))
    if report.mismatches:
        for line in report.mismatches:
            click.echo(line, err=True)
        raise click.ClickException(m["mismatch"].format(n=len(report.mismatches)))
    click.echo(m["verify_ok"].format(n=len(report.rounds)))
    commands = _draw_commands(t)
    if commands:
        click.echo(m["verify_cmd"])
        for c in commands:
            click.echo(f"  {c}")


# --- over-the-board games (issue 31) ---------------------------------------------------------

_NOTATION = click.Choice(["en", "es"])


@tournament_group.command("game", context_settings=_RESULT_CONTEXT)
@_argument("event")
@_argument("rnd", metavar="ROUND", type=int)
@_argument("board", type=int)
@click.option("--file", "source", type=click.File("r", encoding="utf-8-sig"), default="-",
              help="The scoresheet: SAN in English or Spanish, move numbers and clock times "
                   "optional ('-', the default: standard input).")
@click.option("--notation", type=_NOTATION, default=None,
              help="The scoresheet's language (default: from its piece letters).")
@click.option("--result", default=None, help="The arbiter's result (1-0, 0-1, 1/2, *).")
@click.option("--replace", "replace_game", is_flag=True,
              help="Replace the game stored for this board.")
@click.pass_context
def game_command(ctx: click.Context, event: str, rnd: int, board: int, source: Any,
                 notation: str | None, result: str | None, replace_game: bool) -> None:
    """Enter a board's game from its scoresheet, checked move by move."""
    lang = _lang(ctx)
    eid = _event_id(ctx, event)
    text = source.read()
    try:
        game = _store(ctx).enter_game(eid, rnd, board, text, lang=_notation(notation),
                                      result=result, replace_game=replace_game)
    except GameEntryError as e:
        hint = "\n" + _MSG[lang]["suggest"].format(s=", ".join(e.suggestions)) \
            if e.suggestions else ""
        raise click.ClickException(e.localized(lang) + hint) from None
    except TournamentError as e:
        raise click.ClickException(e.localized(lang)) from None
    click.echo(_MSG[lang]["game"].format(r=rnd, b=board, n=len(game.moves), res=game.result))


def _notation(value: str | None) -> Language | None:
    return "en" if value == "en" else "es" if value == "es" else None


@tournament_group.command("import-pgn")
@_argument("event")
@_argument("rnd", metavar="ROUND", type=int)
@_argument("source", metavar="FILE", type=click.File("r", encoding="utf-8-sig"))
@click.option("--notation", type=_NOTATION, default=None,
              help="The games' SAN language (default: from each game's piece letters).")
@click.option("--replace", "replace_game", is_flag=True,
              help="Replace games stored already for the matched boards.")
@click.pass_context
def import_pgn_command(ctx: click.Context, event: str, rnd: int, source: Any,
                       notation: str | None, replace_game: bool) -> None:
    """Enter a round's games from a PGN file, each matched to its board by the players'
    names (or its Board tag); prints what matched nothing."""
    lang = _lang(ctx)
    m = _MSG[lang]
    eid = _event_id(ctx, event)
    report: ImportReport = _run(lambda: _store(ctx).import_round(
        eid, rnd, source.read(), lang=_notation(notation), replace_game=replace_game))
    click.echo(m["imported"].format(r=rnd, n=len(report.entered)))
    for g in report.entered:
        click.echo("  " + m["game"].format(r=rnd, b=g.board, n=len(g.moves), res=g.result))
    for u in report.unmatched:
        click.echo(m["unmatched"].format(i=u.index, w=u.white, bl=u.black,
                                         why=u.reason_es if lang == "es" else u.reason_en))
    for u, e in report.refused:
        click.echo(m["refused"].format(i=u.index, w=u.white, bl=u.black, b=u.board,
                                       why=e.localized(lang)))
    if report.missing:
        click.echo(m["missing"].format(b=", ".join(map(str, report.missing))))
    if report.unmatched or report.refused:
        ctx.exit(1)


@tournament_group.command("relay")
@_argument("event")
@_argument("rnd", metavar="ROUND", type=int)
@_argument("path", metavar="FILE", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--interval", type=click.FloatRange(0.1, 60), default=1.0, show_default=True,
              help="Seconds between looks at the file.")
@click.option("--once", is_flag=True, help="Relay the file as it is now and stop.")
@click.pass_context
def relay_command(ctx: click.Context, event: str, rnd: int, path: Path, interval: float,
                  once: bool) -> None:
    """Relay a round's games from a PGN file an e-board program keeps rewriting; a game
    the rules refuse, or that is not the game relayed before, is flagged, never shown."""
    from randomchess.tournament.relay import relay_once, watch

    lang = _lang(ctx)
    m = _MSG[lang]
    eid = _event_id(ctx, event)
    store = _store(ctx)

    def show(report: RelayReport) -> None:
        for g in report.updated:
            click.echo(m["relayed"].format(b=g.board, n=len(g.moves), res=g.result))
        for _, e in report.flagged:
            click.echo(m["flagged"].format(why=e.localized(lang)), err=True)

    if once:
        show(_run(lambda: relay_once(store, eid, rnd, path)))
        return
    click.echo(m["watching"].format(r=rnd, path=path))
    with suppress(KeyboardInterrupt):
        _run(lambda: watch(store, eid, rnd, path, interval=interval, on_report=show))


# --- knock-out events (issue 34) ------------------------------------------------------------


@tournament_group.command("bracket")
@_argument("event")
@click.option("--round", "rnd", type=int, default=None, help="Only this round.")
@click.option("--format", "fmt_", type=click.Choice(["table", "html"]), default="table")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None)
@click.pass_context
def bracket_command(ctx: click.Context, event: str, rnd: int | None, fmt_: str,
                    output: Path | None) -> None:
    """A knock-out event's bracket: matches, scores, games, setups and clocks."""
    eid = _event_id(ctx, event)
    lang = _lang(ctx)
    if _knockout(ctx, eid) is not None:
        KnockoutStore(_store(ctx)).sync_online(eid)  # games that ended on the server
    ko = _knockout(ctx, eid)
    if ko is None:
        raise click.ClickException(KO_MSG[lang]["not_knockout"])
    if fmt_ == "html":
        _emit(_run(lambda: bracket_html(ko, lang)), output)
        return
    tables = _run(lambda: bracket_table(ko, lang, rnd))
    with _output(output) as console:
        for table in tables:
            console.print(table)


@tournament_group.command("game-result", context_settings=_RESULT_CONTEXT)
@_argument("event")
@_argument("rnd", metavar="ROUND", type=int)
@_argument("match", type=int)
@_argument("game", type=int)
@_argument("result")
@click.pass_context
def game_result_command(ctx: click.Context, event: str, rnd: int, match: int, game: int,
                        result: str) -> None:
    """Knock-out: the result of a match's next game (1-0, 0-1, 1/2; forfeits +- -+ --)."""
    eid = _event_id(ctx, event)
    kos = KnockoutStore(_store(ctx))
    kos.sync_online(eid)  # a game that ended on the server is final: recorded first
    m = _run(lambda: kos.set_result(eid, rnd, match, game, result))
    lang = _lang(ctx)
    played = next(g for g in m.games if g.game == game)
    click.echo(KO_MSG[lang]["game"].format(r=rnd, m=match, g=game, res=played.result))
    report_match(kos.load(eid), m, lang)


@tournament_group.command("bid", context_settings=_RESULT_CONTEXT)
@_argument("event")
@_argument("rnd", metavar="ROUND", type=int)
@_argument("match", type=int)
@_argument("player", type=int)
@_argument("bid", metavar="SECONDS")
@click.pass_context
def bid_command(ctx: click.Context, event: str, rnd: int, match: int, player: int,
                bid: str) -> None:
    """Knock-out: a player's Armageddon bid, the time (240 or 4:00) accepted to take Black."""
    eid = _event_id(ctx, event)
    kos = KnockoutStore(_store(ctx))
    made = _run(lambda: kos.set_bid(eid, rnd, match, player, bid))
    lang = _lang(ctx)
    ko = kos.load(eid)
    click.echo(KO_MSG[lang]["bid"].format(r=rnd, m=match, name=ko.name(player),
                                          s=made.seconds))
    report_match(ko, ko.bracket.match(rnd, match), lang)


def _verify_knockout(ctx: click.Context, eid: str, salt: str | None) -> None:
    from dataclasses import replace

    ko = KnockoutStore(_store(ctx)).load(eid)
    lang = _lang(ctx)
    m = _MSG[lang]
    if salt is not None:
        try:
            salt_bytes = parse_salt(salt)
        except ValueError:
            raise click.ClickException(m["bad_salt"].format(x=salt)) from None
        ko = replace(ko, tournament=replace(ko.tournament,
                                            event=replace(ko.event, salt=salt_bytes)))
    report = _run(lambda: verify_knockout(ko, lang))
    for r, numbers in enumerate(report.rounds, 1):
        click.echo(f"{LABELS[lang]['round']} {r}: "
                   + " ".join("-" if n is None else str(n) for n in numbers))
    if report.mismatches:
        for line in report.mismatches:
            click.echo(line, err=True)
        raise click.ClickException(m["mismatch"].format(n=len(report.mismatches)))
    click.echo(m["verify_ok"].format(n=len(report.rounds)))
