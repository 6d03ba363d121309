"""The knock-out side of ``randomchess tournament`` (issue 34): what the commands print for
a knock-out event.  The commands themselves (``new --format knockout``, ``start``, ``pair``,
``game-result``, ``bid``, ``bracket``, ``close``, ``verify``, ``export``) live in
cli/tournament.py and come here when the event is a knock-out."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from randomchess.tournament.knockout import Match
from randomchess.tournament.knockout_export import KO_LABELS, clock, round_name, score, status_key
from randomchess.tournament.knockout_store import KnockoutEvent

if TYPE_CHECKING:
    from rich.table import Table

KO_MSG = {
    "en": {
        "opened": "{name} opened: each match's first game is drawn",
        "game": "Round {r} match {m} game {g}: {res}",
        "decided": "Match decided: {winner} goes on",
        "next": "Next: game {g}, {white} - {black}, setup {setup}, clock {clock}",
        "await_bids": "The match goes to the Armageddon: both players bid now "
                      "(tournament bid EVENT {r} {m} PLAYER SECONDS)",
        "bid": "Round {r} match {m}: {name} bids {s} s to take Black",
        "champion": "Champion: {name}",
        "no_standings": "a knock-out has no standings table: see `tournament bracket`",
        "no_format": "a knock-out exports pgn, trf (each game a column: docs/tournaments.md), "
                     "html (the bracket) or bulletin (the bracket and the games); the "
                     "crosstable CSV describes Swiss and round-robin events only",
        "seeds": "Registration closed; seeds ({how}):",
        "rating": "by rating", "entered": "in the order of entry",
        "not_knockout": "this event is not a knock-out: see `tournament show`",
        "qualified": "Qualified (seeds by place, then by group; start draws the bracket):",
        "seed": "{n}. {name} ({event}, place {place})",
        "derivation": "setups: unit U of match M in round R is the draw setup(R, 100*M+U) "
                      "(docs/shuffler.md, knock-out matches)",
    },
    "es": {
        "opened": "{name} abierta: se sortea la primera partida de cada match",
        "game": "Ronda {r} match {m} partida {g}: {res}",
        "decided": "Match decidido: pasa {winner}",
        "next": "Siguiente: partida {g}, {white} - {black}, posición {setup}, reloj {clock}",
        "await_bids": "El match va al Armagedón: ahora pujan ambos jugadores "
                      "(tournament bid TORNEO {r} {m} JUGADOR SEGUNDOS)",
        "bid": "Ronda {r} match {m}: {name} puja {s} s por jugar con negras",
        "champion": "Campeón: {name}",
        "no_standings": "una eliminatoria no tiene clasificación: vea `tournament bracket`",
        "no_format": "una eliminatoria se exporta en pgn, trf (cada partida una columna: "
                     "docs/tournaments.md), html (el cuadro) o bulletin (el cuadro y las "
                     "partidas); el cuadro de cruces CSV describe solo torneos suizos y de "
                     "todos contra todos",
        "seeds": "Inscripción cerrada; cabezas de serie ({how}):",
        "rating": "por Elo", "entered": "por orden de inscripción",
        "not_knockout": "este torneo no es una eliminatoria: vea `tournament show`",
        "qualified": "Clasificados (cabezas de serie por puesto y luego por grupo; start "
                     "forma el cuadro):",
        "seed": "{n}. {name} ({event}, puesto {place})",
        "derivation": "posiciones: la unidad U del match M de la ronda R es el sorteo "
                      "setup(R, 100*M+U) (docs/shuffler.md, matches de eliminatoria)",
    },
}


def _player(ko: KnockoutEvent, number: int | None, m: Match, lang: str) -> str:
    if number is None:
        return KO_LABELS[lang]["bye"] if m.status == "bye" else "—"
    return f"{ko.name(number)} ({number})"


def bracket_table(ko: KnockoutEvent, lang: str, only: int | None = None) -> list[Table]:
    """A table per round (or round ``only``): a row per match, then one per game."""
    from rich.table import Table as RichTable

    labels = KO_LABELS[lang]
    tables = []
    rounds = ko.bracket.rounds
    for rnd, row in enumerate(rounds, 1):
        if only is not None and rnd != only:
            continue
        table = RichTable(f"{labels['match']} / {labels['game']}",
                          f"{labels['player']} / {labels['white']}",
                          f"{labels['player']} / {labels['black']}",
                          f"{labels['score']} / {labels['result']}", labels["setup"],
                          f"{labels['status']} / {labels['clock']}",
                          title=f"{ko.event.name}: {round_name(rnd, len(rounds), lang)}")
        for m in row:
            status = labels[status_key(ko, m)] if m.winner is None else \
                f"{labels['winner']}: {ko.name(m.winner)}"
            table.add_row(str(m.number), _player(ko, m.top, m, lang),
                          _player(ko, m.bottom, m, lang), score(m), "", status)
            for g in m.games:
                table.add_row(f"  {g.label}", ko.name(g.white), ko.name(g.black),
                              g.result or "*", "" if g.setup is None else str(g.setup),
                              clock(g))
        tables.append(table)
    return tables


def report_match(ko: KnockoutEvent, m: Match, lang: str) -> None:
    """After a result or a bid: who goes on, or the next game (setup and clock), or the
    bids awaited."""
    msg = KO_MSG[lang]
    if m.winner is not None:
        click.echo(msg["decided"].format(winner=ko.name(m.winner)))
        if ko.bracket.champion is not None:
            click.echo(msg["champion"].format(name=ko.name(ko.bracket.champion)))
        return
    if m.status == "bids":
        click.echo(msg["await_bids"].format(r=m.round, m=m.number))
        return
    written = [g for g in m.games if g.result is None]
    for g in written:
        setup = "-" if g.setup is None else g.setup
        click.echo(msg["next"].format(g=g.game, white=ko.name(g.white),
                                      black=ko.name(g.black), setup=setup, clock=clock(g)))
