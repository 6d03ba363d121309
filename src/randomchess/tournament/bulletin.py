"""The event's HTML bulletin (issue 31): crosstable, each round's setup diagram and pairings,
and every game with a board to step through.

One self-contained page: styles, diagrams (inline SVG) and a small script are inside it, the
positions of every ply are computed here and embedded as data, so the page saved to a file
works offline and makes no request at all (tests/test_bulletin.py checks it has no URL).
"""

from __future__ import annotations

import html
import json
import re

from randomchess.diagram import svg_diagram
from randomchess.pgn import PgnGame
from randomchess.pieces import PIECE_TYPES
from randomchess.san import Language, san_and_push
from randomchess.startpos import setup_from_number
from randomchess.tournament.export import LABELS, crosstable_rows, edition_line
from randomchess.tournament.model import Tournament

WORDS: dict[str, dict[str, str]] = {
    "en": {"bulletin": "Bulletin", "games": "Games", "first": "Start", "prev": "Back",
           "next": "Forward", "last": "End", "no_moves": "no moves recorded",
           "setup_of": "Setup of round {r}", "board_setup": "board {b}",
           "help": "Click a move or use the buttons (or the arrow keys) to step through "
                   "the game."},
    "es": {"bulletin": "Boletín", "games": "Partidas", "first": "Inicio", "prev": "Atrás",
           "next": "Adelante", "last": "Final", "no_moves": "sin jugadas registradas",
           "setup_of": "Posición de la ronda {r}", "board_setup": "tablero {b}",
           "help": "Pulse una jugada o use los botones (o las flechas del teclado) para "
                   "recorrer la partida."},
}

BULLETIN_STYLE = """
body{font-family:sans-serif;margin:1em auto;max-width:60em;padding:0 1em}
table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 6px;text-align:center}
td.name{text-align:left}.setups{display:flex;flex-wrap:wrap;gap:1em}
.setups figure{margin:0}.setups svg{width:14em;height:auto}
section.game{border-top:1px solid #ccc;padding:.5em 0;display:flex;flex-wrap:wrap;gap:1em}
.board{display:grid;width:18em;height:18em;border:1px solid #555}
.sq{display:flex;align-items:center;justify-content:center}.l{background:#f0d9b5}
.d{background:#b58863}.pc{width:78%;height:78%;border-radius:50%;display:flex;
align-items:center;justify-content:center;font-weight:bold;font-size:1em}
.w{background:#fff;color:#000;border:1px solid #000}.b{background:#000;color:#fff}
.moves{max-width:30em}.mv{cursor:pointer;padding:0 2px}.mv.on{background:#ffd54f}
.num{color:#666}.clk{color:#888;font-size:.8em}
"""

_SCRIPT = """
(function(){
var data=JSON.parse(document.getElementById('bulletin-data').textContent);
function cells(row){var out=[];(row.match(/[0-9]+|[A-Za-z]/g)||[]).forEach(function(t){
if(/[0-9]/.test(t)){for(var i=0;i<+t;i++)out.push('');}else{out.push(t);}});return out;}
function draw(box,placement){var rows=placement.split('/');var n=rows.length;
var files=cells(rows[0]).length;box.style.gridTemplateColumns='repeat('+files+',1fr)';
box.innerHTML='';rows.forEach(function(row,r){cells(row).forEach(function(p,f){
var sq=document.createElement('div');sq.className='sq '+((r+f)%2?'d':'l');
if(p){var pc=document.createElement('div');pc.className='pc '+(p===p.toUpperCase()?'w':'b');
pc.textContent=data.letters[p.toUpperCase()]||p.toUpperCase();sq.appendChild(pc);}
box.appendChild(sq);});});box.dataset.rows=n;}
document.querySelectorAll('section.game').forEach(function(sec){
var g=data.games[+sec.dataset.game];var ply=g.fens.length-1;var box=sec.querySelector('.board');
var moves=sec.querySelectorAll('.mv');
function show(p){ply=Math.max(0,Math.min(g.fens.length-1,p));draw(box,g.fens[ply]);
box.dataset.ply=ply;moves.forEach(function(m){m.classList.toggle('on',+m.dataset.ply===ply);});}
sec.querySelector('.first').onclick=function(){show(0);};
sec.querySelector('.prev').onclick=function(){show(ply-1);};
sec.querySelector('.next').onclick=function(){show(ply+1);};
sec.querySelector('.last').onclick=function(){show(g.fens.length-1);};
moves.forEach(function(m){m.onclick=function(){show(+m.dataset.ply);};});
sec.tabIndex=0;sec.onkeydown=function(e){if(e.key==='ArrowLeft')show(ply-1);
if(e.key==='ArrowRight')show(ply+1);};show(ply);});
})();
"""


def _inline_svg(svg: str) -> str:
    """An SVG diagram to put inside the page: no namespace URL (HTML needs none)."""
    return re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", svg)


def _letters(lang: str) -> dict[str, str]:
    return {t.letter: (t.spanish if lang == "es" else t.letter) for t in PIECE_TYPES.values()}


def _crosstable(t: Tournament, lang: str) -> list[str]:
    head, rows = crosstable_rows(t, lang)
    esc = html.escape
    parts = ["<table><thead><tr>" + "".join(f"<th>{esc(h)}</th>" for h in head)
             + "</tr></thead><tbody>"]
    for row in rows:
        parts.append("<tr>" + "".join(
            f'<td class="name">{esc(c)}</td>' if i == 2 else f"<td>{esc(c)}</td>"
            for i, c in enumerate(row)) + "</tr>")
    parts += ["</tbody></table>", f"<p>{esc(edition_line(t, lang))}</p>"]
    return parts


def _round(t: Tournament, rnd: int, lang: Language) -> list[str]:
    labels, words, esc = LABELS[lang], WORDS[lang], html.escape
    parts = [f"<h2>{labels['round']} {rnd}</h2>", '<div class="setups">']
    seen: list[str] = []
    for b in t.round_boards(rnd):
        if b.is_bye or b.fen in seen:
            continue
        seen.append(b.fen)
        caption = words["setup_of"].format(r=rnd)
        if t.event.setup_policy == "board":
            caption += ", " + words["board_setup"].format(b=b.board)
        if b.setup is not None:
            rank = setup_from_number(t.event.variant, b.setup).localized(lang)
            caption += f": {labels['setup']} {b.setup} ({rank})"
        parts.append(f"<figure>{_inline_svg(svg_diagram(b.fen, lang=lang, title=caption))}"
                     f"<figcaption>{esc(caption)}</figcaption></figure>")
    parts.append("</div><table><thead><tr>" + "".join(
        f"<th>{labels[k]}</th>" for k in ("board", "white", "black", "result")) +
        "</tr></thead><tbody>")
    for b in t.round_boards(rnd):
        black = labels["bye"] if b.black is None else t.player(b.black).name
        result = b.bye if b.is_bye else (b.result or "")
        parts.append(f"<tr><td>{b.board}</td><td class=\"name\">"
                     f"<a href=\"#g-{rnd}-{b.board}\">{esc(t.player(b.white).name)}</a></td>"
                     f"<td class=\"name\">{esc(black)}</td><td>{esc(result or '')}</td></tr>")
    parts.append("</tbody></table>")
    return parts


def _game(index: int, record: PgnGame, lang: Language) -> tuple[list[str], dict[str, object]]:
    """A game's section and its data (the placement after every ply)."""
    tags, esc, words = record.headers, html.escape, WORDS[lang]
    pos = record.start_position()
    fens = [pos.fen().split()[0]]
    moves: list[str] = []
    for ply, node in enumerate(record.moves, 1):
        if pos.turn == 0 or ply == 1:
            dots = "." if pos.turn == 0 else "..."
            moves.append(f'<span class="num">{pos.fullmove_number}{dots}</span>')
        text = san_and_push(pos, node.move, lang)
        clock = re.search(r"\[%clk ([0-9:]+)\]", node.comment)
        extra = f' <span class="clk">{esc(clock.group(1))}</span>' if clock else ""
        moves.append(f'<span class="mv" data-ply="{ply}">{esc(text)}</span>{extra}')
        fens.append(pos.fen().split()[0])
    title = (f"{LABELS[lang]['round']} {tags.get('Round')}, {LABELS[lang]['board'].lower()} "
             f"{tags.get('Board')}: {tags.get('White')} - {tags.get('Black')} "
             f"{record.result}")
    setup = tags.get("SetupNumber")
    section = [
        f'<section class="game" id="g-{tags.get("Round")}-{tags.get("Board")}" '
        f'data-game="{index}"><div><div class="board"></div><div>'
        + "".join(f'<button type="button" class="{k}">{words[k]}</button>'
                  for k in ("first", "prev", "next", "last")) + "</div></div>",
        f'<div class="moves"><h3>{esc(title)}</h3>'
        + (f"<p>{LABELS[lang]['setup']} {esc(setup)}</p>" if setup else "")
        + ("<p>" + " ".join(moves) + f" <b>{esc(record.result)}</b></p>" if moves
           else f"<p>{words['no_moves']}</p>") + "</div></section>",
    ]
    return section, {"fens": fens}


def bulletin_html(t: Tournament, records: list[PgnGame], lang: Language = "en") -> str:
    """The bulletin page of ``t`` with ``records`` (:func:`export.game_records`)."""
    labels, words, esc = LABELS[lang], WORDS[lang], html.escape
    parts = [
        "<!doctype html>", f'<html lang="{lang}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(t.event.name)} — {words['bulletin']}</title>",
        f"<style>{BULLETIN_STYLE}</style></head><body>",
        f"<h1>{esc(t.event.name)} — {words['bulletin']}</h1>",
        f"<p>{labels['variant']}: {esc(t.event.variant)} · {labels['rounds']}: "
        f"{t.paired_rounds}</p>", f"<h2>{labels['crosstable']}</h2>",
        *_crosstable(t, lang),
    ]
    for rnd in range(1, t.paired_rounds + 1):
        parts += _round(t, rnd, lang)
    parts += games_html(records, lang)
    return "\n".join(parts) + "\n"


def games_html(records: list[PgnGame], lang: Language) -> list[str]:
    """The bulletin's games, each with a board to step through, and the page's end (its data
    and script): shared by the knock-out bulletin (knockout_export.bulletin)."""
    words = WORDS[lang]
    parts = [f"<h2>{words['games']}</h2>", f"<p>{words['help']}</p>"]
    games = []
    for i, record in enumerate(records):
        section, data = _game(i, record, lang)
        parts += section
        games.append(data)
    payload = json.dumps({"games": games, "letters": _letters(lang)}, ensure_ascii=True)
    payload = payload.replace("<", "\\u003c")  # no "</script>" inside the data
    parts += [f'<script type="application/json" id="bulletin-data">{payload}</script>',
              f"<script>{_SCRIPT}</script></body></html>"]
    return parts
