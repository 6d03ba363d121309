"""Exports of an event: the crosstable (CSV and HTML, English or Spanish) and the PGN of its
games with ``Round``, ``Board``, ``FEN`` and ``SetupNumber`` tags."""

from __future__ import annotations

import base64
import contextlib
import csv
import hashlib
import html
import io
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from randomchess.position import Position
from randomchess.scoresheet import format_clock
from randomchess.tournament.model import FORFEITS, Board, Tournament
from randomchess.tournament.otb import OtbGame, review_id
from randomchess.tournament.tiebreaks import (
    EDITIONS,
    EDITIONS_ES,
    TIEBREAK_NAMES_ES,
    TIEBREAKS,
    Calculator,
    fmt,
)
from randomchess.variants import get_variant

if TYPE_CHECKING:  # the PGN and analysis modules load with the exports that write games
    from randomchess.analysis.review import Review
    from randomchess.pgn import PgnGame

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "rank": "Rank", "no": "No.", "name": "Name", "rating": "Rating", "fed": "Fed",
        "points": "Points", "round": "Round", "board": "Board", "white": "White",
        "black": "Black", "result": "Result", "setup": "Setup", "rank_en": "Back rank",
        "rank_es": "Spanish letters", "bye": "bye", "crosstable": "Crosstable",
        "standings": "Standings after round", "commitment": "Commitment",
        "salt": "Salt (revealed)", "pairings": "Pairings of round", "status": "Status",
        "registration": "registration open", "running": "running", "closed": "closed",
        "players": "Players", "event": "Event", "variant": "Variant", "system": "System",
        "swiss": "Swiss (FIDE Dutch)", "rr": "round robin (Berger)",
        "drr": "double round robin (Berger)", "rounds": "Rounds", "log": "Arbiter's log",
        "pending": "pending", "action": "Action", "old": "Before", "new": "After",
        "reason": "Reason", "tiebreaks": "Tiebreaks",
        "reveal": "Round {r}: revealed in the hall at {at} from the digits {digits} "
                  "(round key {key})",
        "pool": "Setups never drawn: {excluded}", "only": "Setups drawn only from: {only}",
    },
    "es": {
        "rank": "Puesto", "no": "N.º", "name": "Nombre", "rating": "Elo", "fed": "Fed",
        "points": "Puntos", "round": "Ronda", "board": "Tablero", "white": "Blancas",
        "black": "Negras", "result": "Resultado", "setup": "Posición",
        "rank_en": "Fila inicial", "rank_es": "Letras españolas", "bye": "descanso",
        "crosstable": "Cuadro de cruces", "standings": "Clasificación tras la ronda",
        "commitment": "Compromiso", "salt": "Sal (revelada)", "pairings": "Emparejamientos "
        "de la ronda", "status": "Estado", "registration": "inscripción abierta",
        "running": "en juego", "closed": "cerrado", "players": "Jugadores",
        "event": "Torneo", "variant": "Variante", "system": "Sistema",
        "swiss": "suizo (holandés FIDE)", "rr": "liga (tablas de Berger)",
        "drr": "liga a doble vuelta (tablas de Berger)", "rounds": "Rondas",
        "log": "Registro del árbitro", "pending": "pendiente", "action": "Acción",
        "old": "Antes", "new": "Después", "reason": "Motivo", "tiebreaks": "Desempates",
        "reveal": "Ronda {r}: revelada en la sala a las {at} con las cifras {digits} "
                  "(clave de la ronda {key})",
        "pool": "Posiciones que nunca se sortean: {excluded}",
        "only": "Posiciones sorteadas solo de: {only}",
    },
}


# The arbiter's log: its action codes (stored) as the log table shows them.
ACTIONS: dict[str, dict[str, str]] = {
    "en": {"create": "create", "register": "register", "unregister": "unregister",
           "late-entry": "late entry", "withdraw": "withdraw", "bye": "bye",
           "bye-number": "bye, pairing number", "start": "start", "pair": "pair",
           "result": "result", "correct": "correction", "close": "close",
           "online": "online game", "online-result": "online result",
           "online-aborted": "online game aborted", "reveal": "hall reveal",
           "reveal-refused": "hall reveal refused", "game": "game entered",
           "game-replace": "game replaced", "relay-flag": "relayed game flagged"},
    "es": {"create": "creación", "register": "inscripción", "unregister": "baja",
           "late-entry": "inscripción tardía", "withdraw": "retirada", "bye": "descanso",
           "bye-number": "descanso, número de emparejamiento", "start": "inicio",
           "pair": "emparejamiento", "result": "resultado", "correct": "corrección",
           "close": "cierre", "online": "partida en línea",
           "online-result": "resultado en línea",
           "online-aborted": "partida en línea anulada", "reveal": "revelación en la sala",
           "reveal-refused": "revelación en la sala rechazada", "game": "partida introducida",
           "game-replace": "partida sustituida",
           "relay-flag": "partida retransmitida señalada"},
}


def tiebreak_name(code: str, lang: str) -> str:
    return (TIEBREAK_NAMES_ES if lang == "es" else TIEBREAKS)[code]


def edition_line(t: Tournament, lang: str) -> str:
    """"Tiebreaks: <the regulations the standings follow>"."""
    names = EDITIONS_ES if lang == "es" else EDITIONS
    return f"{LABELS[lang]['tiebreaks']}: {names[t.event.tiebreak_edition]}"


def pool_and_reveal_lines(t: Tournament, lang: str) -> list[str]:
    """The organiser's exclusions and shortlist, and each hall reveal (round, time, digits,
    round key), as the crosstable exports print them."""
    from randomchess.tournament.trf import iso_time

    labels = LABELS[lang]
    out = []
    if t.event.excluded:
        out.append(labels["pool"].format(excluded=", ".join(map(str, t.event.excluded))))
    if t.event.shortlist is not None:
        out.append(labels["only"].format(only=", ".join(map(str, t.event.shortlist))))
    out += [labels["reveal"].format(r=r.round, at=iso_time(r.at), digits=r.input, key=r.key)
            for r in t.reveals]
    return out


def cell(t: Tournament, number: int, rnd: int) -> str:
    """A crosstable cell: ``5w1`` (opponent 5, White, won), ``-U`` for a bye, ``+``/``-``
    for forfeits."""
    e = t.entry(number, rnd)
    if e.opponent is None:
        return f"-{e.code}"
    return f"{e.opponent}{e.colour}{e.code}"


def crosstable_rows(t: Tournament, lang: str = "en") -> tuple[list[str], list[list[str]]]:
    labels = LABELS[lang]
    standings = Calculator(t).standings()
    codes = list(t.event.tiebreaks)
    head = [labels["rank"], labels["no"], labels["name"], labels["rating"], labels["fed"]]
    head += [f"{labels['round'][0]}{r}" for r in range(1, t.paired_rounds + 1)]
    head += [labels["points"], *codes]
    rows = []
    for s in standings:
        p = t.player(s.number)
        row = [str(s.rank), str(p.number), p.name, str(p.rating or ""), p.federation or ""]
        row += [cell(t, p.number, r) for r in range(1, t.paired_rounds + 1)]
        row.append(fmt(s.points))
        row += [fmt(s.values[c].value) if s.values[c].defined else "-" for c in codes]
        rows.append(row)
    return head, rows


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: str) -> str:
    """A free-text cell a spreadsheet will not run as a formula (OWASP, CSV injection)."""
    return "'" + text if text.startswith(_FORMULA_START) else text


def crosstable_csv(t: Tournament, lang: str = "en") -> str:
    head, rows = crosstable_rows(t, lang)
    for row in rows:  # the name and federation are the players' own text
        row[2], row[4] = _cell(row[2]), _cell(row[4])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(head)
    writer.writerows(rows)
    writer.writerow([edition_line(t, lang)])
    for line in pool_and_reveal_lines(t, lang):
        writer.writerow([line])
    return out.getvalue()


# The crosstable page's one style sheet, inline so a saved file keeps it; the server allows
# exactly this text by its hash (CROSSTABLE_CSP), under the site's no-inline-style policy.
CROSSTABLE_STYLE = ("body{font-family:sans-serif}table{border-collapse:collapse}"
                    "td,th{border:1px solid #999;padding:2px 6px;text-align:center}"
                    "td:nth-child(3){text-align:left}")
CROSSTABLE_CSP = ("default-src 'none'; style-src 'sha256-"
                  + base64.b64encode(hashlib.sha256(CROSSTABLE_STYLE.encode()).digest()).decode()
                  + "'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def crosstable_html(t: Tournament, lang: str = "en") -> str:
    labels = LABELS[lang]
    head, rows = crosstable_rows(t, lang)
    esc = html.escape
    legend = ", ".join(f"{c} = {tiebreak_name(c, lang)}" for c in t.event.tiebreaks)
    parts = [
        "<!doctype html>", f'<html lang="{lang}"><head><meta charset="utf-8">',
        f"<title>{esc(t.event.name)} — {labels['crosstable']}</title>",
        f"<style>{CROSSTABLE_STYLE}</style></head><body>",
        f"<h1>{esc(t.event.name)}</h1>",
        f"<p>{labels['crosstable']} — {labels['standings']} {t.paired_rounds}</p>",
        "<table><thead><tr>" + "".join(f"<th>{esc(h)}</th>" for h in head) + "</tr></thead>",
        "<tbody>",
    ]
    for row in rows:
        parts.append("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>")
    parts += ["</tbody></table>", f"<p>{esc(legend)}</p>",
              f"<p>{esc(edition_line(t, lang))}</p>",
              f"<p>{labels['commitment']}: <code>{t.event.commitment}</code></p>"]
    parts += [f"<p>{esc(line)}</p>" for line in pool_and_reveal_lines(t, lang)]
    if t.event.salt is not None:
        parts.append(f"<p>{labels['salt']}: <code>{t.event.salt.hex()}</code></p>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _reveal_tags(t: Tournament, rnd: int) -> dict[str, str]:
    """A hall round's PGN tags: the digits drawn (``HallInput``) and when (``HallReveal``,
    ISO 8601 UTC); a mini-match's second round names its first round's reveal."""
    from randomchess.tournament.trf import iso_time

    source = rnd - 1 if t.event.mini_match and rnd % 2 == 0 else rnd
    r = t.reveal_of(source)
    if r is None:
        return {}
    return {"HallInput": r.input, "HallReveal": iso_time(r.at)}


MovesOf = Callable[[str], "tuple[str, list[str]] | None"]
ReviewOf = Callable[[str], "Review | None"]


def game_records(t: Tournament, moves_of: MovesOf | None = None,
                 otb_games: Mapping[tuple[int, int], OtbGame] | None = None,
                 review_of: ReviewOf | None = None, site: str = "?") -> list[PgnGame]:
    """Every game of the event as a PGN record (docs/tournaments.md, "Exports"): online
    games with their moves (``moves_of(game_id)``: start FEN and UCI moves) and the engine
    review as comments when ``review_of(game_id)`` has one; over-the-board games with the
    moves entered from their scoresheets (clock times as ``[%clk]``), unfinished ones with
    ``*``; a game with neither, its tags and result only.  Forfeits and byes are no games."""
    from randomchess.analysis.core import AnalysisError
    from randomchess.analysis.review import annotate

    out = []
    for b in t.iter_games():
        otb = (otb_games or {}).get((b.round, b.board))
        if b.result in FORFEITS or (b.result is None and otb is None):
            continue
        record = _record(t, b, moves_of, otb, site)
        # An over-the-board game's review is kept under its board's key (issue 31).
        reviewed = b.game_id or (review_id(t.event.id, b.round, b.board) if otb else None)
        review = review_of(reviewed) if reviewed and review_of is not None else None
        if review is not None and len(review.plies) == len(record.moves):
            with contextlib.suppress(AnalysisError):  # a review of other moves: none
                record = annotate(record, review)
        out.append(record)
    return out


def _record(t: Tournament, b: Board, moves_of: MovesOf | None, otb: OtbGame | None,
            site: str) -> PgnGame:
    from randomchess.pgn import Node, PgnGame

    fen = b.fen
    moves: list[str] = []
    clocks: list[int | None] = []
    if b.game_id and moves_of is not None:
        found = moves_of(b.game_id)
        if found is not None:
            fen, moves = found
    elif otb is not None:
        moves, clocks = list(otb.moves), list(otb.clocks)
    pos = Position(fen, t.event.variant)
    nodes = []
    for i, uci in enumerate(moves):
        move = pos.parse_uci(uci)
        clock = clocks[i] if i < len(clocks) else None
        nodes.append(Node(move, comment="" if clock is None else f"[%clk {format_clock(clock)}]"))
        pos.push(move)
    result = b.result or (otb.result if otb is not None else "*")
    assert b.black is not None
    tags = {"Event": t.event.name, "Site": site, "Date": "????.??.??", "Round": str(b.round),
            "White": t.player(b.white).name, "Black": t.player(b.black).name,
            "Result": result, "Board": str(b.board)}
    if b.setup is not None:
        tags["SetupNumber"] = str(b.setup)
        if t.event.variant == "mrc":
            tags["MRCId"] = str(b.setup)
    if t.event.time_control:
        tags["TimeControl"] = t.event.time_control
    tags.update(_reveal_tags(t, b.round))
    tags["Mode"] = "ICS" if b.game_id else "OTB"  # PGN standard 9.7.1: server or board
    return PgnGame(headers=tags, variant=get_variant(t.event.variant), start_fen=fen,
                   moves=nodes, result=result)


def pgn(t: Tournament, moves_of: MovesOf | None = None, site: str = "?",
        otb_games: Mapping[tuple[int, int], OtbGame] | None = None,
        review_of: ReviewOf | None = None) -> str:
    """The event's PGN bulletin: :func:`game_records`, each written with ``Event``,
    ``Round``, ``Board``, ``White``, ``Black``, ``Variant``, ``SetUp``/``FEN``,
    ``SetupNumber`` and the result."""
    from randomchess.pgn import write_game

    return "".join(write_game(r) for r in game_records(t, moves_of, otb_games, review_of,
                                                          site))
