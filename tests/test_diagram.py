"""SVG diagrams and printable sheets (RULES.md board geometry: a1 dark on every board)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest

from randomchess.diagram import (
    DARK_SQUARE,
    LIGHT_SQUARE,
    Card,
    Section,
    parse_placement,
    sheet_html,
    svg_diagram,
)
from randomchess.startpos import setup_from_number

NS = {"svg": "http://www.w3.org/2000/svg"}

POSITIONS = {
    "8x8": "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "9x9": "rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w AIai - 0 1",
    "9x8": "rnbqkmbnr/ppppppppp/9/9/9/9/PPPPPPPPP/RNBMKQBNR",  # PMRC-sized board
    "sparse": "4k4/9/9/9/4M4/9/9/9/4K4",
}


def _pieces(root: ET.Element) -> list[ET.Element]:
    return root.findall(".//svg:g[@data-piece]", NS)


def _letters(fen: str) -> int:
    return sum(c.isalpha() for c in fen.split()[0])


@pytest.mark.parametrize("name", POSITIONS)
def test_svg_is_well_formed_with_every_piece(name: str) -> None:
    fen = POSITIONS[name]
    root = ET.fromstring(svg_diagram(fen))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert len(_pieces(root)) == _letters(fen)
    grid = parse_placement(fen)
    squares = root.findall(".//svg:g[@class='squares']/svg:rect", NS)
    assert len(squares) == len(grid) * len(grid[0])


def test_setup_diagrams_have_the_right_piece_count() -> None:
    for variant, number, count in (("chess960", 518, 32), ("mrc", 8226, 36)):
        root = ET.fromstring(svg_diagram(setup_from_number(variant, number).fen))
        assert len(_pieces(root)) == count


def test_pieces_stand_on_their_squares() -> None:
    root = ET.fromstring(svg_diagram(POSITIONS["9x9"]))
    where = {g.get("data-square"): g.get("data-piece") for g in _pieces(root)}
    assert where["a1"] == "R" and where["d1"] == "M" and where["f9"] == "m" and where["i9"] == "r"
    classes = {g.get("class") for g in _pieces(root)}
    assert {"piece white minister", "piece black minister", "piece black pawn"} <= classes


def _square_colour(svg: str, file: int, rank: int, files: int, ranks: int) -> str:
    root = ET.fromstring(svg)
    rects = root.findall(".//svg:g[@class='squares']/svg:rect", NS)
    # Squares are written top rank first, a-file first within a rank.
    return rects[(ranks - 1 - rank) * files + file].get("fill") or ""


@pytest.mark.parametrize(("name", "files", "ranks"), [("8x8", 8, 8), ("9x9", 9, 9), ("9x8", 9, 8)])
def test_a1_is_dark(name: str, files: int, ranks: int) -> None:
    svg = svg_diagram(POSITIONS[name])
    assert _square_colour(svg, 0, 0, files, ranks) == DARK_SQUARE
    assert _square_colour(svg, 1, 0, files, ranks) == LIGHT_SQUARE
    # 9x9: all four corners dark (RULES.md §4.1); 9x8: i1 dark, i8 light.
    assert _square_colour(svg, files - 1, ranks - 1, files, ranks) == (
        DARK_SQUARE if (files + ranks) % 2 == 0 else LIGHT_SQUARE
    )


def test_a1_square_is_drawn_bottom_left_and_top_right_when_flipped() -> None:
    def a1_rect(svg: str) -> tuple[float, float]:
        root = ET.fromstring(svg)
        rects = root.findall(".//svg:g[@class='squares']/svg:rect", NS)
        a1 = rects[8 * 7]  # top rank first: rank 1 starts at index 56
        return float(a1.get("x") or 0), float(a1.get("y") or 0)

    x, y = a1_rect(svg_diagram(POSITIONS["8x8"], square_size=40))
    fx, fy = a1_rect(svg_diagram(POSITIONS["8x8"], square_size=40, flipped=True))
    assert x < fx and y > fy


def test_coordinates() -> None:
    root = ET.fromstring(svg_diagram(POSITIONS["9x8"]))
    labels = [t.text for t in root.findall(".//svg:g[@class='coordinates']/svg:text", NS)]
    assert labels == list("abcdefghi") + [str(r) for r in range(1, 9)]
    bare = ET.fromstring(svg_diagram(POSITIONS["9x8"], coordinates=False))
    assert bare.find(".//svg:g[@class='coordinates']", NS) is None


def test_letters_in_english_and_spanish() -> None:
    def glyphs(svg: str) -> str:
        root = ET.fromstring(svg)
        return "".join(g.find("svg:text", NS).text or "" for g in _pieces(root))  # type: ignore[union-attr]

    fen = "4k4/9/9/9/9/9/9/9/RNBMKQBNR"
    assert glyphs(svg_diagram(fen)) == "KRNBMKQBNR"
    assert glyphs(svg_diagram(fen, lang="es")) == "RTCAMRDACT"


def test_title_is_escaped() -> None:
    svg = svg_diagram(POSITIONS["8x8"], title="<b> & co")
    assert ET.fromstring(svg).find("svg:title", NS).text == "<b> & co"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "bad", ["", "rnbqkbnr/ppppppp/8", "rnbqkxnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "k/K"]
)
def test_bad_placements(bad: str) -> None:
    with pytest.raises(ValueError):
        svg_diagram(bad)


class _SheetParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.pieces = 0
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "g" and any(k == "data-piece" for k, _ in attrs):
            self.pieces += 1

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_sheet_html() -> None:
    setup = setup_from_number("mrc", 8226)
    cards = tuple(
        Card(f"Board {b}", setup.fen, (("Back rank", setup.rank), ("Spanish", "TCAMRDACT")))
        for b in (1, 2, 3)
    )
    html = sheet_html(
        "Open <2025>",
        [Section("Round 1", cards, subheading="MRC", footer=("Commitment: abc",)),
         Section("Round 2", cards[:1])],
        lang="es",
    )
    parser = _SheetParser()
    parser.feed(html)
    assert parser.tags.count("svg") == 4 and parser.tags.count("section") == 2
    assert parser.pieces == 4 * 36
    text = "".join(parser.text)
    assert "Open <2025>" in text and "TCAMRDACT" in text and "Commitment: abc" in text
    assert "<2025>" not in html  # escaped
    assert "@page" in html and "break-inside: avoid" in html and 'lang="es"' in html


@pytest.mark.parametrize("fen", ["99999999", "8/8/" + "9" * 30, "8/\u06635"])
def test_placement_counts_are_bounded_and_ascii(fen: str) -> None:
    """Issue 13: a huge count is refused before it is expanded; only ASCII digits count."""
    from randomchess.errors import FenError

    with pytest.raises(FenError):
        parse_placement(fen)
