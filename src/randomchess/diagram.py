"""Board diagrams as SVG, and printable HTML sheets of them.

A small renderer of our own, because the common ones stop at 8x8: it draws any board from
2x2 to 12x12 (8x8, 9x9 and 9x8 in practice) from the placement field of a FEN.  Squares
follow RULES.md's geometry (a1 dark); pieces are lettered discs, white discs for White and
black discs for Black, with English or Spanish letters, so the Prime Minister (M) needs no
special artwork and the diagrams stay legible when photocopied.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

from randomchess.errors import FenError
from randomchess.fen import parse_placement as fen_placement
from randomchess.geometry import FILE_LETTERS, geometry
from randomchess.pieces import KIND_BY_LETTER, PIECE_TYPES, piece_symbol

__all__ = ["Card", "Section", "parse_placement", "sheet_html", "svg_diagram"]

LIGHT_SQUARE = "#f0d9b5"
DARK_SQUARE = "#b58863"
INK = "#1a1a1a"
PAPER = "#ffffff"
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"

Grid = tuple[tuple[str, ...], ...]


def parse_placement(fen: str) -> Grid:
    """The board of a FEN (or its placement field alone), top rank first, ``""`` = empty.

    ``FenError`` (a ``ValueError``) if the ranks differ in length, a letter is not a piece of ours
    or the board is not 2..12 squares each way.  The board size is read from the text (the
    first rank's squares, the number of ranks); the placement itself is read by the FEN
    module's parser, the one every position goes through.
    """
    placement = fen.split()[0].partition("[")[0] if fen.strip() else ""  # no hand drawn
    rows = placement.split("/")
    runs = re.findall(r"[0-9]+|.", rows[0])
    if any(len(run) > 2 and run[0] in "0123456789" for run in runs):  # issue 13
        raise FenError(f"rank {rows[0][:20]!r} is longer than any board")
    files = sum(int(run) if run[0] in "0123456789" else 1 for run in runs)
    if not (2 <= files <= len(FILE_LETTERS) and 2 <= len(rows) <= 12):
        raise FenError(f"cannot draw a {files}x{len(rows)} board")
    g = geometry(files, len(rows))
    board = fen_placement(placement, g)
    return tuple(
        tuple(piece_symbol(p) if p else "" for p in board[r * files:(r + 1) * files])
        for r in range(g.ranks - 1, -1, -1)
    )


def _letter(symbol: str, lang: str) -> str:
    kind = PIECE_TYPES[KIND_BY_LETTER[symbol.upper()]]
    return kind.spanish if lang == "es" else kind.letter


def _name(symbol: str, lang: str = "en") -> str:
    """``white knight`` (the class names, and the English title), ``caballo blanco``."""
    kind = PIECE_TYPES[KIND_BY_LETTER[symbol.upper()]]
    if lang == "es":
        feminine = kind.spanish_name in ("torre", "dama")
        colour = ("blanc" if symbol.isupper() else "negr") + ("a" if feminine else "o")
        return f"{kind.spanish_name} {colour}"
    colour = "white" if symbol.isupper() else "black"
    return f"{colour} {kind.name}"


def svg_diagram(
    fen: str,
    *,
    square_size: int = 40,
    coordinates: bool = True,
    flipped: bool = False,
    lang: str = "en",
    title: str | None = None,
) -> str:
    """A standalone SVG document of the position ``fen`` (a FEN or its placement field).

    ``flipped`` shows the board from Black's side; ``lang="es"`` letters the pieces in
    Spanish (R = rey).  Every piece is a ``<g class="piece ...">`` naming its square.
    """
    grid = parse_placement(fen)
    ranks, files = len(grid), len(grid[0])
    s = square_size
    margin = round(s * 0.5) if coordinates else 0
    width, height = files * s + 2 * margin, ranks * s + 2 * margin
    label = title if title is not None else (
        f"{'Diagrama' if lang == 'es' else 'Diagram'}: {fen.split()[0]}")
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img">',
        f"<title>{escape(label)}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="{PAPER}"/>',
    ]

    def origin(file: int, rank: int) -> tuple[int, int]:
        column = files - 1 - file if flipped else file
        row = rank if flipped else ranks - 1 - rank
        return margin + column * s, margin + row * s

    squares = ['<g class="squares">']
    pieces = ['<g class="pieces">']
    for row_index, row in enumerate(grid):
        rank = ranks - 1 - row_index
        for file, symbol in enumerate(row):
            x, y = origin(file, rank)
            dark = (file + rank) % 2 == 0  # a1 dark (RULES.md, board geometry)
            colour = DARK_SQUARE if dark else LIGHT_SQUARE
            squares.append(f'<rect x="{x}" y="{y}" width="{s}" height="{s}" fill="{colour}"/>')
            if not symbol:
                continue
            square = f"{FILE_LETTERS[file]}{rank + 1}"
            pieces.append(_piece_disc(symbol, square, x + s / 2, y + s / 2, s, lang))
    squares.append("</g>")
    pieces.append("</g>")
    out += squares
    out.append(
        f'<rect x="{margin}" y="{margin}" width="{files * s}" height="{ranks * s}" '
        f'fill="none" stroke="{INK}" stroke-width="1"/>'
    )
    out += pieces
    if coordinates:
        out.append(_coordinates(files, ranks, s, margin, flipped))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _piece_disc(symbol: str, square: str, cx: float, cy: float, s: int, lang: str) -> str:
    """A lettered disc for the piece ``symbol`` centred on (cx, cy), squares ``s`` wide."""
    disc, font = round(s * 0.42, 2), round(s * 0.52, 2)
    fill, ink = (PAPER, INK) if symbol.isupper() else (INK, PAPER)
    pawn = symbol in "Pp"  # smaller, so the pieces stand out from the pawn chain
    r, size = (disc * 0.8, font * 0.85) if pawn else (disc, font)
    return (
        f'<g class="piece {_name(symbol)}" data-square="{square}" '
        f'data-piece="{symbol}"><title>{_name(symbol, lang)} {square}</title>'
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{round(r, 2):g}" fill="{fill}" stroke="{INK}" '
        f'stroke-width="{max(1.0, s / 28):.2g}"/>'
        f'<text x="{cx:g}" y="{round(cy + size * 0.36, 2):g}" text-anchor="middle" '
        f'font-family="{FONT}" font-weight="bold" font-size="{round(size, 2):g}" '
        f'fill="{ink}">{_letter(symbol, lang)}</text></g>'
    )


def _coordinates(files: int, ranks: int, s: int, margin: int, flipped: bool) -> str:
    size = round(s * 0.3, 2)
    style = f'font-family="{FONT}" font-size="{size:g}" fill="{INK}" text-anchor="middle"'
    parts = ['<g class="coordinates">']
    for file in range(files):
        column = files - 1 - file if flipped else file
        x = margin + column * s + s / 2
        parts.append(
            f'<text x="{x:g}" y="{margin + ranks * s + margin * 0.7:g}" {style}>'
            f"{FILE_LETTERS[file]}</text>"
        )
    for rank in range(ranks):
        row = rank if flipped else ranks - 1 - rank
        y = margin + row * s + s / 2 + size * 0.36
        parts.append(f'<text x="{margin / 2:g}" y="{y:g}" {style}>{rank + 1}</text>')
    parts.append("</g>")
    return "\n".join(parts)


# --- printable sheets ----------------------------------------------------------------------


@dataclass(frozen=True)
class Card:
    """One cut-out card: a heading, a diagram and labelled lines (e.g. back rank, castling)."""

    heading: str
    fen: str
    lines: tuple[tuple[str, str], ...] = ()
    note: str | None = None


@dataclass(frozen=True)
class Section:
    """A printed page group (e.g. one round): a heading, its cards and a footer line."""

    heading: str
    cards: tuple[Card, ...]
    subheading: str | None = None
    footer: tuple[str, ...] = field(default_factory=tuple)


_CSS = """
@page { size: A4; margin: 12mm; }
* { box-sizing: border-box; }
body { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; color: #1a1a1a;
       font-size: 10pt; margin: 0; }
@media screen { body { max-width: 210mm; margin: 1em auto; padding: 0 1em; } }
h1 { font-size: 15pt; margin: 0 0 1mm; }
.sub { margin: 0 0 4mm; color: #444; }
.cards { display: grid; grid-template-columns: repeat(2, 1fr); gap: 5mm; }
.card { border: 1px dashed #888; padding: 3mm 4mm; break-inside: avoid;
        page-break-inside: avoid; }
.card h2 { font-size: 12pt; margin: 0 0 2mm; }
.card svg { display: block; width: 100%; max-width: 75mm; height: auto; margin: 0 auto 2mm; }
.card dl { display: grid; grid-template-columns: auto 1fr; gap: 0.5mm 3mm; margin: 0; }
.card dt { color: #444; }
.card dd { margin: 0; font-family: DejaVu Sans Mono, Consolas, monospace;
           overflow-wrap: anywhere; }
.note { margin: 2mm 0 0; font-style: italic; }
footer { margin-top: 4mm; font-size: 8pt; color: #444; overflow-wrap: anywhere; }
footer p { margin: 0.5mm 0; }
section + section { break-before: page; page-break-before: always; }
@media print { .card { border-color: #555; } }
"""


def sheet_html(
    title: str,
    sections: Sequence[Section],
    *,
    lang: str = "en",
    square_size: int = 28,
) -> str:
    """A printable HTML document (A4, print CSS, one page group per section)."""
    out = [
        "<!DOCTYPE html>",
        f'<html lang="{escape(lang)}">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{escape(title)}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
    ]
    for section in sections:
        out.append("<section>")
        out.append(f"<h1>{escape(section.heading)}</h1>")
        if section.subheading:
            out.append(f'<p class="sub">{escape(section.subheading)}</p>')
        out.append('<div class="cards">')
        for card in section.cards:
            out.append('<div class="card">')
            out.append(f"<h2>{escape(card.heading)}</h2>")
            out.append(svg_diagram(card.fen, square_size=square_size, lang=lang,
                                   title=card.heading).rstrip())
            out.append("<dl>")
            for label, value in card.lines:
                out.append(f"<dt>{escape(label)}</dt><dd>{escape(value)}</dd>")
            out.append("</dl>")
            if card.note:
                out.append(f'<p class="note">{escape(card.note)}</p>')
            out.append("</div>")
        out.append("</div>")
        if section.footer:
            out.append("<footer>")
            out.extend(f"<p>{escape(line)}</p>" for line in section.footer)
            out.append("</footer>")
        out.append("</section>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"
