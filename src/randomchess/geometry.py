"""Board geometry: files x ranks, square names, colours and precomputed move tables.

Squares are plain ints, ``rank * files + file``, so a1 is 0 on every board.  Every table
a move generator needs is computed once per geometry and cached (``functools.cache``, the
package's one cache idiom), which is what lets the same generator run on 8x8, 9x9, 9x8 and
10x8 without a single board-size branch.
"""

from __future__ import annotations

from functools import cache

from randomchess.errors import BoardSizeError

FILE_LETTERS = "abcdefghijkl"

Offset = tuple[int, int]

ORTHOGONAL: tuple[Offset, ...] = ((0, 1), (0, -1), (1, 0), (-1, 0))
DIAGONAL: tuple[Offset, ...] = ((1, 1), (-1, 1), (1, -1), (-1, -1))
KNIGHT_LEAPS: tuple[Offset, ...] = (
    (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2),
)
KING_LEAPS: tuple[Offset, ...] = ORTHOGONAL + DIAGONAL


class Geometry:
    """A rectangular board of ``files`` x ``ranks`` squares (a1 dark, White at rank 1)."""

    __slots__ = ("_name_to_square", "files", "ranks", "size", "square_names")

    def __init__(self, files: int, ranks: int) -> None:
        if not (2 <= files <= len(FILE_LETTERS) and 2 <= ranks <= 12):
            raise BoardSizeError(f"unsupported board size {files}x{ranks}")
        self.files = files
        self.ranks = ranks
        self.size = files * ranks
        self.square_names: tuple[str, ...] = tuple(
            FILE_LETTERS[sq % files] + str(sq // files + 1) for sq in range(self.size)
        )
        self._name_to_square = {name: sq for sq, name in enumerate(self.square_names)}

    def __repr__(self) -> str:
        return f"Geometry({self.files}, {self.ranks})"

    def square(self, file: int, rank: int) -> int:
        return rank * self.files + file

    def file_of(self, sq: int) -> int:
        return sq % self.files

    def rank_of(self, sq: int) -> int:
        return sq // self.files

    def name(self, sq: int) -> str:
        return self.square_names[sq]

    def parse_square(self, name: str) -> int:
        """The square called ``name`` (e.g. ``"i9"``); ``ValueError`` if there is none."""
        try:
            return self._name_to_square[name]
        except KeyError:
            raise ValueError(f"no square {name!r} on a {self.files}x{self.ranks} board") from None

    def is_dark(self, sq: int) -> bool:
        # a1 = (0, 0) is dark on every board (RULES.md, board geometry).
        return (self.file_of(sq) + self.rank_of(sq)) % 2 == 0

    def on_board(self, file: int, rank: int) -> bool:
        return 0 <= file < self.files and 0 <= rank < self.ranks

    def ray(self, sq: int, direction: Offset) -> tuple[int, ...]:
        """Squares from ``sq`` (exclusive) towards ``direction`` up to the edge."""
        return _rays(self, direction)[sq]

    def rays(self, direction: Offset) -> tuple[tuple[int, ...], ...]:
        """For every square, its ray towards ``direction`` (computed once per board)."""
        return _rays(self, direction)

    def leaps(self, offsets: tuple[Offset, ...]) -> tuple[tuple[int, ...], ...]:
        """For every square, the squares reached by one leap of any of ``offsets``
        (computed once per board and set of offsets)."""
        return _leaps(self, offsets)

    def _walk(self, sq: int, direction: Offset) -> tuple[int, ...]:
        df, dr = direction
        f, r = self.file_of(sq) + df, self.rank_of(sq) + dr
        out = []
        while self.on_board(f, r):
            out.append(self.square(f, r))
            f += df
            r += dr
        return tuple(out)


@cache
def _rays(g: Geometry, direction: Offset) -> tuple[tuple[int, ...], ...]:
    return tuple(g._walk(s, direction) for s in range(g.size))


@cache
def _leaps(g: Geometry, offsets: tuple[Offset, ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(
        tuple(g.square(g.file_of(sq) + df, g.rank_of(sq) + dr) for df, dr in offsets
              if g.on_board(g.file_of(sq) + df, g.rank_of(sq) + dr))
        for sq in range(g.size)
    )


@cache
def geometry(files: int, ranks: int) -> Geometry:
    """The shared geometry object for a board size (tables are built once per size)."""
    return Geometry(files, ranks)
