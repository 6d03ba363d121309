"""Exports of a knock-out event (issue 34): the PGN of its games, ``Round`` written
``ROUND.GAME`` ("3.1", "3.2": round 3 of the bracket, games 1 and 2 of the match) and
``Board`` the match, and the bracket as an HTML page, in English or Spanish."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING

from randomchess.san import Language
from randomchess.tournament.knockout import Game, Match
from randomchess.tournament.knockout_store import KnockoutEvent
from randomchess.tournament.model import FORFEITS
from randomchess.tournament.tiebreaks import fmt

if TYPE_CHECKING:  # the arbiter's commands start without the PGN and rules modules
    from randomchess.pgn import PgnGame

KO_LABELS: dict[str, dict[str, str]] = {
    "en": {
        "bracket": "Bracket", "round": "Round", "match": "Match", "final": "Final",
        "semi": "Semi-finals", "quarter": "Quarter-finals", "game": "Game",
        "score": "Score", "winner": "Winner", "next": "Next game", "bye": "bye",
        "waiting": "waiting for the winners", "bids": "Armageddon: waiting for the bids",
        "playing": "playing", "decided": "decided", "champion": "Champion",
        "armageddon": "Armageddon", "bid": "bid", "setup": "Setup", "white": "White",
        "black": "Black", "clock": "Clock", "result": "Result", "stage": "Stage",
        "games": "match games", "tiebreak": "tie-break", "commitment": "Commitment",
        "salt": "Salt (revealed)", "format": "Format", "draw_black": "a draw wins the match "
        "for Black", "lower_bid": "the lower bid takes Black; equal bids: the better seed",
        "unopened": "round not open yet", "player": "Player", "status": "Status",
        "bulletin": "Bulletin",
    },
    "es": {
        "bracket": "Cuadro", "round": "Ronda", "match": "Match", "final": "Final",
        "semi": "Semifinales", "quarter": "Cuartos de final", "game": "Partida",
        "score": "Marcador", "winner": "Ganador", "next": "Próxima partida",
        "bye": "exento", "waiting": "esperando a los ganadores",
        "bids": "Armagedón: esperando las pujas", "playing": "en juego",
        "decided": "decidido", "champion": "Campeón", "armageddon": "Armagedón",
        "bid": "puja", "setup": "Posición", "white": "Blancas", "black": "Negras",
        "clock": "Reloj", "result": "Resultado", "stage": "Fase",
        "games": "partidas del match", "tiebreak": "desempate", "commitment": "Compromiso",
        "salt": "Sal (revelada)", "format": "Formato",
        "draw_black": "unas tablas dan el match a las negras",
        "lower_bid": "la puja menor juega con negras; pujas iguales: el mejor cabeza de serie",
        "unopened": "ronda aún no abierta", "player": "Jugador", "status": "Estado",
        "bulletin": "Boletín",
    },
}


_BRACKET_STYLE = (".bracket{display:flex;gap:1.5em;align-items:center}.round{display:flex;"
                  "flex-direction:column;gap:1em}.match{border:1px solid #999;padding:4px 8px;"
                  "min-width:14em}.winner{font-weight:bold}.games{font-size:smaller;"
                  "color:#444;margin:0;padding-left:1.2em}")


def round_name(rnd: int, rounds: int, lang: str) -> str:
    """"Final", "Semi-finals", "Quarter-finals", else "Round N"."""
    labels = KO_LABELS[lang]
    left = rounds - rnd
    return {0: labels["final"], 1: labels["semi"], 2: labels["quarter"]}.get(
        left, f"{labels['round']} {rnd}")


def status_key(ko: KnockoutEvent, m: Match) -> str:
    """The label key of a match's state; an undecided match of a round not open yet is
    "unopened"."""
    if m.winner is None and m.round > ko.opened and m.status != "waiting":
        return "unopened"
    return m.status


def clock(g: Game) -> str:
    """The game's time control; an Armageddon's ``White / Black``."""
    if g.black_time_control is None:
        return g.time_control
    return f"{g.time_control} / {g.black_time_control}"


def score(m: Match) -> str:
    if m.top is None or m.bottom is None:
        return ""
    return f"{fmt(m.score(m.top))}-{fmt(m.score(m.bottom))}"


def records(ko: KnockoutEvent,
            moves_of: Callable[[str], tuple[str, list[str]] | None] | None = None,
            site: str = "?") -> list[tuple[PgnGame, dict[str, str]]]:
    """Every game with a result (forfeits are not games) as a PGN record and its further
    tags: ``Round`` "R.G", ``Board`` the match, the setup, ``TimeControl`` the stage's (an
    Armageddon: ``WhiteClock``/``BlackClock`` and the bids)."""
    from randomchess.game import Game as RulesGame
    from randomchess.pgn import PgnGame

    e = ko.event
    out = []
    for g in ko.games:
        if g.result is None or g.result in FORFEITS:
            continue
        fen, moves = g.fen, list[str]()
        if g.game_id and moves_of is not None:
            found = moves_of(g.game_id)
            if found is not None:
                fen, moves = found
        game = RulesGame(fen, e.variant)
        for uci in moves:
            game.push_uci(uci)
        record = PgnGame.from_game(game, {
            "Event": e.name, "Site": site, "Round": g.label, "White": ko.name(g.white),
            "Black": ko.name(g.black), "Result": g.result})
        record.result = g.result
        extra = {"Board": str(g.match)}
        if g.setup is not None:
            extra["SetupNumber"] = str(g.setup)
            if e.variant == "mrc":
                extra["MRCId"] = str(g.setup)
        extra.update(_clock_tags(ko, g))
        out.append((record, extra))
    return out


def pgn(ko: KnockoutEvent,
        moves_of: Callable[[str], tuple[str, list[str]] | None] | None = None,
        site: str = "?") -> str:
    """PGN of every game with a result (:func:`records`)."""
    from randomchess.pgn import write_game

    return "".join(write_game(record, headers={**extra, "Result": record.result})
                   for record, extra in records(ko, moves_of, site))


def bulletin(ko: KnockoutEvent,
             moves_of: Callable[[str], tuple[str, list[str]] | None] | None = None,
             lang: Language = "en") -> str:
    """The knock-out's bulletin (issue 34): the bracket (every match, its games, setups and
    clocks) and every game with a board to step through, one self-contained page as the
    Swiss bulletin (tournament/bulletin.py)."""
    from randomchess.tournament.bulletin import BULLETIN_STYLE, games_html

    labels = KO_LABELS[lang]
    esc = html.escape
    parts = [
        "<!doctype html>", f'<html lang="{lang}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(ko.event.name)} — {esc(labels['bulletin'])}</title>",
        f"<style>{_BRACKET_STYLE}{BULLETIN_STYLE}</style></head><body>",
        f"<h1>{esc(ko.event.name)} — {esc(labels['bulletin'])}</h1>",
        f"<p>{labels['format']}: {esc(describe(ko, lang))}</p>",
    ]
    parts += _bracket_parts(ko, lang)
    games = []
    for record, extra in records(ko, moves_of):
        record.headers.update(extra)
        games.append(record)
    parts += games_html(games, lang)
    return "\n".join(parts) + "\n"


def _clock_tags(ko: KnockoutEvent, g: Game) -> dict[str, str]:
    if g.black_time_control is None:
        return {"TimeControl": g.time_control} if g.time_control else {}
    tags = {"Stage": "Armageddon", "WhiteClock": g.time_control,
            "BlackClock": g.black_time_control}
    for player, tag in ((g.white, "WhiteBid"), (g.black, "BlackBid")):
        bid = next((b for b in ko.bids if (b.round, b.match, b.player)
                    == (g.round, g.match, player)), None)
        if bid is not None:
            tags[tag] = str(bid.seconds)
    return tags


def _bracket_parts(ko: KnockoutEvent, lang: str) -> list[str]:
    """The bracket's column per round, a box per match, and the champion once known: the
    body shared by the bracket page and the bulletin."""
    esc, b = html.escape, ko.bracket
    parts = ['<div class="bracket">']
    for rnd, row in enumerate(b.rounds, 1):
        parts.append(f'<section class="round"><h2>{esc(round_name(rnd, len(b.rounds), lang))}'
                     "</h2>")
        parts += [_match_html(ko, m, lang) for m in row]
        parts.append("</section>")
    parts.append("</div>")
    if b.champion is not None:
        parts.append(f"<p>{KO_LABELS[lang]['champion']}: "
                     f"<strong>{esc(ko.name(b.champion))}</strong></p>")
    return parts


def bracket_html(ko: KnockoutEvent, lang: str = "en") -> str:
    """The bracket as a page: a column per round, a box per match (seeds, score, winner),
    every game with its colours, result, setup and clock."""
    labels = KO_LABELS[lang]
    esc = html.escape
    parts = [
        "<!doctype html>", f'<html lang="{lang}"><head><meta charset="utf-8">',
        f"<title>{esc(ko.event.name)} — {labels['bracket']}</title>",
        f"<style>body{{font-family:sans-serif}}{_BRACKET_STYLE}</style></head><body>",
        f"<h1>{esc(ko.event.name)}</h1>",
        f"<p>{labels['format']}: {esc(describe(ko, lang))}</p>",
    ]
    parts += _bracket_parts(ko, lang)
    parts.append(f"<p>{labels['commitment']}: <code>{ko.event.commitment}</code></p>")
    if ko.event.salt is not None:
        parts.append(f"<p>{labels['salt']}: <code>{ko.event.salt.hex()}</code></p>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _player_html(ko: KnockoutEvent, m: Match, player: int | None, lang: str) -> str:
    if player is None:
        text = KO_LABELS[lang]["bye"] if m.status == "bye" else "—"
        return f"<div>{html.escape(text)}</div>"
    cls = ' class="winner"' if m.winner == player and m.status != "bye" else ""
    points = "" if m.status == "bye" else f" {fmt(m.score(player))}"
    return f"<div{cls}>({player}) {html.escape(ko.name(player))}{points}</div>"


def _match_html(ko: KnockoutEvent, m: Match, lang: str) -> str:
    labels = KO_LABELS[lang]
    head = f"{labels['match']} {m.number}"
    lines = [f'<div class="match" id="m{m.round}-{m.number}"><div>{head} · '
             f"{html.escape(labels[status_key(ko, m)])}</div>",
             _player_html(ko, m, m.top, lang), _player_html(ko, m, m.bottom, lang)]
    if m.games:
        lines.append('<ol class="games">')
        for g in m.games:
            setup = "" if g.setup is None else f", {labels['setup']} {g.setup}"
            lines.append(f"<li>{g.label}: {html.escape(ko.name(g.white))} - "
                         f"{html.escape(ko.name(g.black))} {g.result or '*'}{setup}, "
                         f"{html.escape(clock(g))}</li>")
        lines.append("</ol>")
    lines.append("</div>")
    return "\n".join(lines)


def describe(ko: KnockoutEvent, lang: str = "en") -> str:
    """The format in one line: games, tie-break stages, the Armageddon."""
    labels = KO_LABELS[lang]
    f = ko.format
    parts = [f"{f.games} {labels['games']}" + (f" ({f.time_control})" if f.time_control
                                                 else "")]
    parts += [f"{labels['tiebreak']} {s.games}:{s.time_control}" for s in f.tiebreaks]
    if f.armageddon is not None:
        arm = f.armageddon
        if arm.bidding:
            parts.append(f"{labels['armageddon']} ({labels['bid']}: {arm.white}; "
                         f"{labels['lower_bid']}; {labels['draw_black']})")
        else:
            parts.append(f"{labels['armageddon']} ({arm.white} / {arm.black}; "
                         f"{labels['draw_black']})")
    return ", ".join(parts)
