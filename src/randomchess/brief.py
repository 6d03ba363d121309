"""The setup brief (issue 33): what a player should know about a start array before move 1.

Computed from the placement alone, for any numbered setup (Chess960, MRC) and both colours.
Every fact is defined precisely here and in docs/shuffler.md ("The setup brief"); the answer
is data (squares, piece letters, counts), never prose, so that the web page, the CLI and the
printed card render it in English or Spanish (:func:`brief_lines`).

* **Undefended pawns**: the side's pawns that no piece of its own attacks in the start
  position; beside them, the pawns whose only defender is the king (f2 in the orthodox array).
* **Diagonals at the opponent's shelter**: a piece of the side that moves along diagonals
  (bishop, queen, Prime Minister) which, after *one* move of one of its own pawns (a single or a
  double step), attacks along a diagonal one of the opponent's *shelter pawns*: the pawns on
  their start rank on the file of a castled king (c and g) or next to it (b, c, d and f, g, h).
  On 8x8 only the b-, g- and h-pawns can be reached this way (the long diagonals and the b1-h7
  diagonal), on 9x9 only the b- and h-pawns, from a corner.
* **The king's lines**: the pieces, both colours, standing on the king's rank, on its file and on
  its two diagonals towards the opponent, nearest first; a line's *shield* is the side's own
  pieces between the king and the first enemy piece (or the edge).  A diagonal shielded by one
  pawn alone opens with that pawn's first move (e1-h4 behind f2 in the orthodox array).
* **Moves to castle**: for each side of the board, the fewest moves of the side's own (the
  opponent not interfering) that empty every square castling needs empty: one move for each
  piece in the way, plus the fewest pawn moves that free the line pieces in the way that cannot
  move at all (a bishop, rook or queen walled in by its own pawns; knights and Prime Ministers
  always jump out).  A Bishop Adjustment never empties a square, so it never helps.  0 means
  castling is legal on move 1.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from itertools import combinations
from typing import Any, Literal

from randomchess.fen import parse_fen
from randomchess.geometry import DIAGONAL, Geometry, Offset
from randomchess.pieces import (
    BLACK,
    KIND_BY_LETTER,
    KING,
    PAWN,
    PIECE_COLOR,
    PIECE_KIND,
    PIECE_TYPES,
    ROOK,
    WHITE,
    Color,
    piece_symbol,
)
from randomchess.startpos import NumberedSetup
from randomchess.variants import Variant

__all__ = [
    "CastlingPlan",
    "Diagonal",
    "KingLine",
    "SetupBrief",
    "SideBrief",
    "brief_lines",
    "setup_brief",
]

Board = list[int]
LineName = Literal["rank_a", "rank_h", "file", "diagonal_a", "diagonal_h"]


@dataclass(frozen=True)
class Diagonal:
    """``piece`` on ``square`` attacks the opponent's ``target`` pawn once one of
    ``opened_by`` (UCI pawn moves) is played; ``target_defenders``: the opponent's pieces
    defending that pawn in the start position."""

    piece: str
    square: str
    target: str
    opened_by: tuple[str, ...]
    target_defenders: tuple[str, ...]


@dataclass(frozen=True)
class KingLine:
    """One line out of the king: ``pieces`` as (square, FEN letter), nearest first; ``shield``
    the squares of the king's own pieces before the first enemy piece."""

    line: LineName
    end: str  # the last square of the line, at the edge of the board
    pieces: tuple[tuple[str, str], ...]
    shield: tuple[str, ...]


@dataclass(frozen=True)
class CastlingPlan:
    """Castling towards one side: ``side`` "a" (the rook on the a-file side) or "h"."""

    side: Literal["a", "h"]
    san: str
    king_to: str
    rook_to: str
    blockers: tuple[str, ...]  # squares of the pieces that must leave
    unlock: tuple[str, ...]  # pawns to move first so that walled-in blockers can leave
    moves: int  # len(blockers) + len(unlock); 0: castling is legal on move 1


@dataclass(frozen=True)
class SideBrief:
    color: Literal["white", "black"]
    king: str
    undefended_pawns: tuple[str, ...]
    king_only_pawns: tuple[str, ...]
    diagonals: tuple[Diagonal, ...]
    king_lines: tuple[KingLine, ...]
    castling: tuple[CastlingPlan, ...]


@dataclass(frozen=True)
class SetupBrief:
    variant: str
    number: int
    fen: str
    white: SideBrief
    black: SideBrief

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


# ------------------------------------------------------------------------------ attacks
def _slides(g: Geometry, board: Board, sq: int, directions: Iterable[Offset]) -> Iterator[int]:
    """The squares a slider on ``sq`` attacks along ``directions`` (the blocker included)."""
    for d in directions:
        for s in g.ray(sq, d):
            yield s
            if board[s]:
                break


def attacks(g: Geometry, board: Board, sq: int) -> set[int]:
    """The squares the piece on ``sq`` attacks (a pawn: diagonally forward)."""
    p = board[sq]
    kind, color = PIECE_KIND[p], PIECE_COLOR[p]
    if kind == PAWN:
        forward = 1 if color == WHITE else -1
        return set(g.leaps(((-1, forward), (1, forward)))[sq])
    t = PIECE_TYPES[kind]
    out = set(g.leaps(t.leaps)[sq]) if t.leaps else set()
    out.update(_slides(g, board, sq, t.slides))
    return out


def defenders(g: Geometry, board: Board, sq: int, color: Color) -> list[int]:
    """The squares of ``color``'s pieces attacking ``sq``, in square order."""
    return [s for s in range(g.size)
            if board[s] and PIECE_COLOR[board[s]] == color and sq in attacks(g, board, s)]


# ------------------------------------------------------------------------------ facts
def _pawn_rank(v: Variant, color: Color) -> int:
    return 1 if color == WHITE else v.ranks - 2


def _pawns(v: Variant, board: Board, color: Color) -> list[int]:
    g = v.geometry
    rank = _pawn_rank(v, color)
    return [g.square(f, rank) for f in range(g.files)
            if PIECE_KIND[board[g.square(f, rank)]] == PAWN
            and PIECE_COLOR[board[g.square(f, rank)]] == color]


def _pawn_guard(v: Variant, board: Board, color: Color) -> tuple[tuple[str, ...], tuple[str, ...]]:
    g = v.geometry
    undefended, king_only = [], []
    for sq in _pawns(v, board, color):
        guards = defenders(g, board, sq, color)
        if not guards:
            undefended.append(g.name(sq))
        elif len(guards) == 1 and PIECE_KIND[board[guards[0]]] == KING:
            king_only.append(g.name(sq))
    return tuple(undefended), tuple(king_only)


def shelter_files(v: Variant) -> list[int]:
    """The files of the shelter pawns: each castled king's file and its neighbours."""
    files: set[int] = set()
    for king_file, _ in (v.castle_a, v.castle_h):
        files.update(f for f in (king_file - 1, king_file, king_file + 1) if 0 <= f < v.files)
    return sorted(files)


def _diagonal_hits(g: Geometry, board: Board, color: Color,
                   targets: set[int]) -> set[tuple[int, int]]:
    """(piece square, target) for each diagonal attack of ``color`` on ``targets``."""
    out: set[tuple[int, int]] = set()
    for sq in range(g.size):
        p = board[sq]
        if p and PIECE_COLOR[p] == color and DIAGONAL[0] in PIECE_TYPES[PIECE_KIND[p]].slides:
            out.update((sq, s) for s in _slides(g, board, sq, DIAGONAL) if s in targets)
    return out


def _pushes(v: Variant, pawn: int, color: Color) -> list[int]:
    step = v.files if color == WHITE else -v.files
    return [pawn + step, pawn + 2 * step]


def _diagonals(v: Variant, board: Board, color: Color) -> tuple[Diagonal, ...]:
    g = v.geometry
    them = color ^ 1
    targets = {s for s in _pawns(v, board, them) if g.file_of(s) in shelter_files(v)}
    before = _diagonal_hits(g, board, color, targets)
    opened: dict[tuple[int, int], list[str]] = {}
    for pawn in _pawns(v, board, color):
        for to in _pushes(v, pawn, color):
            after = list(board)
            after[to], after[pawn] = after[pawn], 0
            for hit in sorted(_diagonal_hits(g, after, color, targets) - before):
                opened.setdefault(hit, []).append(g.name(pawn) + g.name(to))
    return tuple(
        Diagonal(piece_symbol(board[sq]), g.name(sq), g.name(target), tuple(moves),
                 tuple(g.name(s) for s in defenders(g, board, target, them)))
        for (sq, target), moves in sorted(opened.items()))


_LINES: tuple[tuple[LineName, Offset], ...] = (
    ("rank_a", (-1, 0)), ("rank_h", (1, 0)), ("file", (0, 1)),
    ("diagonal_a", (-1, 1)), ("diagonal_h", (1, 1)),
)


def _king_lines(v: Variant, board: Board, color: Color, king: int) -> tuple[KingLine, ...]:
    g = v.geometry
    forward = 1 if color == WHITE else -1
    out = []
    for name, (df, dr) in _LINES:
        ray = g.ray(king, (df, dr * forward))
        if not ray:
            continue
        occupied = [s for s in ray if board[s]]
        shield: list[str] = []
        for s in occupied:
            if PIECE_COLOR[board[s]] != color:
                break
            shield.append(g.name(s))
        out.append(KingLine(name, g.name(ray[-1]),
                            tuple((g.name(s), piece_symbol(board[s])) for s in occupied),
                            tuple(shield)))
    return tuple(out)


# ------------------------------------------------------------------------------ castling
def _walled_in(g: Geometry, board: Board, sq: int) -> bool:
    """Whether the piece on ``sq`` has no move at all (every square it could go to holds a
    piece of its own: the start position has no captures)."""
    color = PIECE_COLOR[board[sq]]
    return all(board[s] and PIECE_COLOR[board[s]] == color for s in attacks(g, board, sq))


def _freed_by(g: Geometry, board: Board, sq: int, pawn: int) -> bool:
    """Whether moving ``pawn`` off its square lets the piece on ``sq`` move."""
    after = list(board)
    after[pawn] = 0
    return pawn in attacks(g, after, sq)


def _cover(g: Geometry, board: Board, stuck: list[int], pawns: list[int]) -> tuple[int, ...]:
    """The fewest pawns whose moves free every piece in ``stuck`` (first in square order)."""
    frees = {p: {s for s in stuck if _freed_by(g, board, s, p)} for p in pawns}
    for size in range(len(stuck) + 1):
        for chosen in combinations(pawns, size):
            if set().union(*(frees[p] for p in chosen)) >= set(stuck):
                return chosen
    raise AssertionError("every walled-in piece has a pawn in front of it")


def _castling(v: Variant, board: Board, color: Color, king: int) -> tuple[CastlingPlan, ...]:
    g = v.geometry
    rank = g.rank_of(king)
    rooks = [s for s in range(g.square(0, rank), g.square(g.files, rank))
             if PIECE_KIND[board[s]] == ROOK and PIECE_COLOR[board[s]] == color]
    plans = []
    for side, rook, (kf, rf), san in (("a", rooks[0], v.castle_a, v.castle_san[0]),
                                      ("h", rooks[-1], v.castle_h, v.castle_san[1])):
        files = [g.file_of(king), g.file_of(rook), kf, rf]
        path = [g.square(f, rank) for f in range(min(files), max(files) + 1)]
        blockers = [s for s in path if board[s] and s not in (king, rook)]
        stuck = [s for s in blockers if _walled_in(g, board, s)]
        unlock = _cover(g, board, stuck, _pawns(v, board, color))
        plans.append(CastlingPlan(
            side, san, g.name(g.square(kf, rank)), g.name(g.square(rf, rank)),  # type: ignore[arg-type]
            tuple(g.name(s) for s in blockers), tuple(g.name(s) for s in unlock),
            len(blockers) + len(unlock)))
    return tuple(plans)


def _side(v: Variant, board: Board, color: Color) -> SideBrief:
    g = v.geometry
    king = next(s for s in range(g.size)
                if PIECE_KIND[board[s]] == KING and PIECE_COLOR[board[s]] == color)
    undefended, king_only = _pawn_guard(v, board, color)
    return SideBrief("white" if color == WHITE else "black", g.name(king), undefended,
                     king_only, _diagonals(v, board, color), _king_lines(v, board, color, king),
                     _castling(v, board, color, king))


def setup_brief(setup: NumberedSetup) -> SetupBrief:
    """The brief of a numbered start array (both colours)."""
    v = setup.variant
    board = parse_fen(setup.fen, v).board
    return SetupBrief(v.key, setup.number, setup.fen, _side(v, board, WHITE),
                      _side(v, board, BLACK))


# ------------------------------------------------------------------------------ text
_TEXT = {
    "en": {
        "white": "White", "black": "Black", "none": "none",
        "undefended": "Undefended pawns", "king_only": "Pawns defended only by the king",
        "diagonals": "Diagonals at the opponent's shelter pawns",
        "diagonal": "{piece} {square} hits {target} after {moves} (defended by {defenders})",
        "lines": "Pieces on the king's lines", "castling": "Moves to castle",
        "plan": "{san}: {moves} (clear {blockers})", "unlock": "; pawns to move first: {pawns}",
        "unlock1": "; pawn to move first: {pawns}",
        "ready": "{san}: 0 (legal on move 1)",
        "rank_a": "rank, a-side", "rank_h": "rank, far side", "file": "file",
        "diagonal_a": "diagonal, a-side", "diagonal_h": "diagonal, far side",
        "shield": "shield",
    },
    "es": {
        "white": "Blancas", "black": "Negras", "none": "ninguno",
        "undefended": "Peones sin defensa", "king_only": "Peones defendidos solo por el rey",
        "diagonals": "Diagonales contra los peones del enroque rival",
        "diagonal": "{piece} {square} ataca {target} tras {moves} (defendido por {defenders})",
        "lines": "Piezas en las líneas del rey", "castling": "Jugadas para enrocar",
        "plan": "{san}: {moves} (despejar {blockers})",
        "unlock": "; antes, mover los peones {pawns}",
        "unlock1": "; antes, mover el peón {pawns}", "ready": "{san}: 0 (legal en la jugada 1)",
        "rank_a": "fila, lado a", "rank_h": "fila, lado lejano", "file": "columna",
        "diagonal_a": "diagonal, lado a", "diagonal_h": "diagonal, lado lejano",
        "shield": "escudo",
    },
}


def _letters(text: str, lang: str) -> str:
    """A FEN piece letter in ``lang`` (case kept)."""
    if lang != "es":
        return text
    kind = PIECE_TYPES[KIND_BY_LETTER[text.upper()]]
    return kind.spanish if text.isupper() else kind.spanish.lower()


def _plan_text(c: CastlingPlan, lang: str) -> str:
    w = _TEXT[lang]
    if not c.moves:
        return w["ready"].format(san=c.san)
    text = w["plan"].format(san=c.san, moves=c.moves, blockers=", ".join(c.blockers))
    if not c.unlock:
        return text
    unlock = w["unlock1" if len(c.unlock) == 1 else "unlock"].format(pawns=", ".join(c.unlock))
    return text[:-1] + unlock + ")"


def _side_lines(s: SideBrief, lang: str) -> list[tuple[str, str]]:
    w = _TEXT[lang]

    def listed(xs: tuple[str, ...]) -> str:
        return ", ".join(xs) or w["none"]

    diagonals = "; ".join(w["diagonal"].format(
        piece=_letters(d.piece, lang), square=d.square, target=d.target,
        moves="/".join(d.opened_by), defenders=listed(d.target_defenders))
        for d in s.diagonals) or w["none"]
    lines = "; ".join(
        f"{w[k.line]} → {k.end}: "
        + (" ".join(_letters(p, lang) + sq for sq, p in k.pieces) or w["none"])
        for k in s.king_lines)
    plans = "; ".join(_plan_text(c, lang) for c in s.castling)
    name = w[s.color]
    return [(f"{name}: {w['undefended']}", listed(s.undefended_pawns)),
            (f"{name}: {w['king_only']}", listed(s.king_only_pawns)),
            (f"{name}: {w['diagonals']}", diagonals),
            (f"{name}: {w['lines']} ({_letters('K' if s.color == 'white' else 'k', lang)}"
             f"{s.king})", lines),
            (f"{name}: {w['castling']}", plans)]


def brief_lines(brief: SetupBrief, lang: str = "en") -> list[tuple[str, str]]:
    """The brief as (label, text) lines in English or Spanish, White first."""
    return _side_lines(brief.white, lang) + _side_lines(brief.black, lang)
