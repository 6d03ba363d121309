"""A game record and how a game ends under the FIDE Laws (RULES.md §1.4-1.7).

:class:`Game` keeps the moves from a start position, counts repetitions with
:meth:`Position.key` (placement, side to move, castling rights, en passant only when legal,
adjustment rights: §1.5, D-10, D-23) and ends itself when the Laws end a game without a
claim, checked after every move in this order (§1.7): checkmate, stalemate, dead position,
fivefold repetition, 75-move rule.  Threefold repetition and the 50-move rule are claims
(:meth:`Game.can_claim_draw`, :meth:`Game.claim_draw`, with a named move per FIDE 9.2.1 and
9.3.1) unless ``automatic_draws`` is set, as servers do (D-22).  Resignation, agreement and
loss on time are actions on the game; a resignation or a fallen flag is a draw when the
opponent cannot checkmate by any legal sequence (§1.4, FIDE 6.9).

Dead positions are detected by material alone (§1.7): bare kings, a single knight, or only
bishops all on one colour, the last not while a Bishop Adjustment could still move a bishop
to the other colour (D-16).  Blocked-pawn fortresses, dead in law, are not detected.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass

from randomchess.errors import ColorError, IllegalMoveError, RandomChessError
from randomchess.pieces import (
    ARCHBISHOP,
    BISHOP,
    BLACK,
    KING,
    KNIGHT,
    MINISTER,
    PAWN,
    QUEEN,
    WHITE,
    Color,
    make_piece,
)
from randomchess.position import Move, Position
from randomchess.san import Language, parse_san, san
from randomchess.variants import Variant, get_variant

__all__ = [
    "Game",
    "GameOverError",
    "Outcome",
    "Termination",
    "can_checkmate",
    "is_dead_position",
]

FIFTY_MOVE_PLIES = 100  # FIDE 9.3: 50 moves by each player
SEVENTYFIVE_MOVE_PLIES = 150  # FIDE 9.6.2
THREEFOLD = 3  # FIDE 9.2
FIVEFOLD = 5  # FIDE 9.6.1


class GameOverError(RandomChessError):
    """A move or an action on a game that has already ended."""


class Termination(enum.Enum):
    """Why a game ended."""

    CHECKMATE = "checkmate"  # 5.1.1
    STALEMATE = "stalemate"  # 5.2.1
    DEAD_POSITION = "dead position"  # 5.2.2, material subset (§1.7)
    FIVEFOLD_REPETITION = "fivefold repetition"  # 9.6.1
    SEVENTYFIVE_MOVES = "75-move rule"  # 9.6.2
    THREEFOLD_REPETITION = "threefold repetition"  # 9.2, by claim (or automatic_draws)
    FIFTY_MOVES = "50-move rule"  # 9.3, by claim (or automatic_draws)
    RESIGNATION = "resignation"  # 5.1.2
    AGREEMENT = "agreement"  # 5.2.3
    TIME_FORFEIT = "time forfeit"  # 6.9

    @property
    def is_automatic(self) -> bool:
        """Whether the Laws end the game by themselves (no claim, no player's action)."""
        return self in _AUTOMATIC


_AUTOMATIC = frozenset({
    Termination.CHECKMATE, Termination.STALEMATE, Termination.DEAD_POSITION,
    Termination.FIVEFOLD_REPETITION, Termination.SEVENTYFIVE_MOVES,
})


@dataclass(frozen=True)
class Outcome:
    """The end of a game: why, who won (``None`` for a draw), and which player acted (the
    one who resigned, whose flag fell or who claimed; ``None`` otherwise)."""

    termination: Termination
    winner: Color | None
    player: Color | None = None

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def result(self) -> str:
        """The PGN result: ``1-0``, ``0-1`` or ``1/2-1/2``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == WHITE else "0-1"

    def __str__(self) -> str:
        names = ("White", "Black")
        if self.winner is not None:
            return f"{names[self.winner]} wins by {self.termination.value}"
        if self.termination in (Termination.RESIGNATION, Termination.TIME_FORFEIT) and \
                self.player is not None:
            how = "resigned" if self.termination is Termination.RESIGNATION else "lost on time"
            return (f"Draw: {names[self.player]} {how} but {names[self.player ^ 1]} cannot "
                    "checkmate")
        return f"Draw by {self.termination.value}"


# ------------------------------------------------------------------------------ material
def _men(pos: Position, color: Color) -> list[tuple[int, int]]:
    """(square, kind) of ``color``'s men other than the king, by square.  Read from the
    position's own set of ``color``'s squares (judged after every move of a game: scanning
    the whole board showed in the server's profile under load)."""
    return [(sq, kind) for sq in sorted(pos.piece_squares(color))
            if (kind := pos.piece_type_at(sq)) != KING]


def _bishop_may_change_colour(pos: Position) -> bool:
    # D-16: an unused Bishop Adjustment right can put a bishop on the other colour.
    return bool(pos.adjustment_pairs(WHITE) or pos.adjustment_pairs(BLACK))


# The codes a dead position may hold any number of (the empty square is 0).
_KINGS_AND_BISHOPS = tuple(make_piece(k, c) for k in (KING, BISHOP) for c in (WHITE, BLACK))


def is_dead_position(pos: Position) -> bool:
    """Whether no sequence of legal moves can checkmate, judged by material (RULES.md §1.7):
    besides the kings nothing, a single knight, or bishops all on one colour (D-16)."""
    if pos.gates:  # a piece in hand may still enter (PM-CRC's queen, D-31)
        return False
    # Asked after every move of every game: two men that are neither kings nor bishops
    # settle it by counting codes, before any square is looked at (issue 36).
    board = pos.board
    if len(board) - board.count(0) - sum(map(board.count, _KINGS_AND_BISHOPS)) > 1:
        return False
    men = _men(pos, WHITE) + _men(pos, BLACK)
    if not men:
        return True
    if len(men) == 1 and men[0][1] == KNIGHT:
        return True
    if all(kind == BISHOP for _, kind in men):
        colours = {pos.geometry.is_dark(sq) for sq, _ in men}
        return len(colours) == 1 and not _bishop_may_change_colour(pos)
    return False


def can_checkmate(pos: Position, color: Color) -> bool:
    """Whether ``color`` could checkmate by some legal sequence, both sides cooperating.

    ``False`` only when the material rules it out (FIDE 6.9 and 5.1.2 as in RULES.md §1.4):
    a bare king; knights-only material of a single knight when the opponent has nothing but
    queens to block with; bishops all on one colour when the opponent has nothing but rooks,
    queens and bishops of that colour (an enemy pawn, knight, minister or other-coloured
    bishop can block a flight square, so a mate exists; so can an archbishop, which moves as
    the minister, but not a chancellor: an exhaustive search on 10x8 finds no mate).  These
    are python-chess's and lichess's rules; an exhaustive search of every K+N and K+B
    against K+Q, K+R placement on 8x8 finds no mate where they say none exists
    (docs/notation.md).  A Prime Minister
    mates on its own; D-16 keeps a bishop that may still adjust able to change colour.
    """
    mine = _men(pos, color)
    theirs = _men(pos, color ^ 1)
    if pos.can_gate(color) and {k for k in pos.hand[color]} - {KNIGHT, BISHOP}:
        return True  # a queen (or rook) in hand that may still enter (D-31)
    if not mine:
        return False
    kinds = {kind for _, kind in mine}
    if kinds - {KNIGHT, BISHOP}:
        return True  # a pawn, rook, queen or minister
    if kinds == {KNIGHT}:
        return len(mine) > 1 or any(kind != QUEEN for _, kind in theirs)
    if kinds == {BISHOP}:
        colours = {pos.geometry.is_dark(sq) for sq, _ in mine}
        if len(colours) > 1 or _bishop_may_change_colour(pos):
            return True
        return any(kind in (PAWN, KNIGHT, MINISTER, ARCHBISHOP)
                   or (kind == BISHOP and pos.geometry.is_dark(sq) not in colours)
                   for sq, kind in theirs)
    return True  # bishop and knight


# ------------------------------------------------------------------------------ game
class Game:
    """A game from a start position: its moves, repetition history and outcome.

    ``automatic_draws`` ends the game at threefold repetition and at the 50-move mark
    instead of waiting for a claim (a server setting; off under the FIDE Laws, D-22).
    """

    def __init__(self, fen: str | None = None, variant: str | Variant = "chess", *,
                 automatic_draws: bool = False) -> None:
        self.variant: Variant = get_variant(variant)
        self.position = Position(fen, self.variant)
        self.start_fen: str = self.position.fen()
        self.automatic_draws = automatic_draws
        self._keys: list[Hashable] = [self.position.key()]
        self._counts: Counter[Hashable] = Counter(self._keys)
        self.outcome: Outcome | None = self._automatic_outcome()

    @classmethod
    def from_position(cls, pos: Position, *, automatic_draws: bool = False) -> Game:
        """A game that starts at ``pos`` (earlier history, if any, is not counted)."""
        return cls(pos.fen(), pos.variant, automatic_draws=automatic_draws)

    def __repr__(self) -> str:
        return (f"Game({self.start_fen!r}, variant={self.variant.key!r}, "
                f"plies={len(self.moves)}, result={self.result()!r})")

    # ----------------------------------------------------------------- record
    @property
    def moves(self) -> list[Move]:
        return self.position.move_stack

    @property
    def plies(self) -> int:
        """``len(self.moves)``, without building the list."""
        return len(self._keys) - 1

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def result(self) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2``, or ``*`` while the game goes on."""
        return self.outcome.result() if self.outcome else "*"

    def start_position(self) -> Position:
        return Position(self.start_fen, self.variant)

    def san_moves(self, lang: Language = "en") -> list[str]:
        """The moves in SAN from the start position."""
        pos = self.start_position()
        out = []
        for move in self.moves:
            out.append(san(pos, move, lang))
            pos.push(move)
        return out

    def legal_moves(self) -> list[Move]:
        return [] if self.outcome else self.position.legal_moves()

    # ----------------------------------------------------------------- moves
    def push(self, move: Move) -> Outcome | None:
        """Play ``move`` and return the outcome if it ends the game.  ``GameOverError`` after
        the end, ``IllegalMoveError`` for an illegal move (nothing changes)."""
        self._require_running()
        if not self.position.is_legal(move):
            raise IllegalMoveError(f"illegal move {self.position.uci(move)} in "
                                   f"{self.position.fen()}")
        self._play(move)
        self.outcome = self._automatic_outcome(self.automatic_draws)
        return self.outcome

    def push_san(self, text: str, lang: Language | None = "en") -> Move:
        self._require_running()
        move = parse_san(self.position, text, lang)
        self.push(move)
        return move

    def push_uci(self, text: str) -> Move:
        self._require_running()
        move = self.position.parse_uci(text)
        self.push(move)
        return move

    def pop(self) -> Move:
        """Take back the last move.  Any outcome is cleared and the automatic endings are
        judged again for the position now reached."""
        move = self.take_back()
        self.outcome = self._automatic_outcome(self.automatic_draws)
        return move

    def take_back(self) -> Move:
        """Take back the last move without judging the position reached: ``outcome`` is
        left as it was, for a caller that puts back the one it had (a move tried and taken
        back again, as the server does for every move: issue 36)."""
        if not self.plies:
            raise IndexError("no move to take back")
        key = self._keys.pop()
        self._counts[key] -= 1
        return self.position.pop()

    def _play(self, move: Move) -> None:
        self.position.push(move)
        key = self.position.key()
        self._keys.append(key)
        self._counts[key] += 1

    def _require_running(self) -> None:
        if self.outcome is not None:
            raise GameOverError(f"the game is over: {self.outcome}")

    # ----------------------------------------------------------------- automatic endings
    def repetitions(self) -> int:
        """How many times the current position has appeared, this time included (9.2.3)."""
        return self._counts[self._keys[-1]]

    def _automatic_outcome(self, claims_too: bool = False) -> Outcome | None:
        pos = self.position
        if not pos.legal_moves():
            if pos.is_check():
                return Outcome(Termination.CHECKMATE, pos.turn ^ 1)
            return Outcome(Termination.STALEMATE, None)
        if is_dead_position(pos):
            return Outcome(Termination.DEAD_POSITION, None)
        if self.repetitions() >= FIVEFOLD:
            return Outcome(Termination.FIVEFOLD_REPETITION, None)
        if pos.halfmove_clock >= SEVENTYFIVE_MOVE_PLIES:
            return Outcome(Termination.SEVENTYFIVE_MOVES, None)
        if claims_too:
            if self.repetitions() >= THREEFOLD:
                return Outcome(Termination.THREEFOLD_REPETITION, None)
            if pos.halfmove_clock >= FIFTY_MOVE_PLIES:
                return Outcome(Termination.FIFTY_MOVES, None)
        return None

    # ----------------------------------------------------------------- claims
    def _checked_move(self, move: Move) -> Move:
        if not self.position.is_legal(move):
            raise IllegalMoveError(f"cannot claim with the illegal move "
                                   f"{self.position.uci(move)} in {self.position.fen()}")
        return move

    def can_claim_threefold_repetition(self, move: Move | None = None) -> bool:
        """Whether the side to move may claim threefold repetition: the position has just
        appeared for the third time (9.2.2), or will after the named ``move`` (9.2.1)."""
        if self.outcome is not None:
            return False
        if move is None:
            return self.repetitions() >= THREEFOLD
        self._checked_move(move)
        pos = self.position
        pos.push(move)
        try:
            key = pos.key()
        finally:
            pos.pop()
        return self._counts[key] + 1 >= THREEFOLD

    def can_claim_fifty_moves(self, move: Move | None = None) -> bool:
        """Whether the side to move may claim the 50-move rule: 50 moves by each side without
        a pawn move or capture (9.3.2), or completed by the named ``move`` (9.3.1)."""
        if self.outcome is not None:
            return False
        pos = self.position
        if move is None:
            return pos.halfmove_clock >= FIFTY_MOVE_PLIES
        self._checked_move(move)
        return not pos.is_zeroing(move) and pos.halfmove_clock + 1 >= FIFTY_MOVE_PLIES

    def can_claim_draw(self, move: Move | None = None) -> bool:
        """Whether a draw claim (threefold or 50 moves), with or without a named move, is
        correct now."""
        return self.can_claim_threefold_repetition(move) or self.can_claim_fifty_moves(move)

    def claim_draw(self, move: Move | None = None) -> Outcome | None:
        """Claim a draw for the side to move, optionally with a named move (FIDE 9.2.1, 9.3.1).

        A correct claim ends the game drawn and returns the outcome; a claim with a move
        records that move.  An incorrect claim returns ``None`` and the game goes on; a move
        named in it is played all the same, since it cannot be taken back (9.5.3).  If the
        named move itself ends the game (checkmate, say), that ending stands.
        """
        self._require_running()
        player = self.position.turn
        if move is None:
            termination = self._claimable()
            if termination is None:
                return None
            self.outcome = Outcome(termination, None, player)
            return self.outcome
        threefold = self.can_claim_threefold_repetition(move)
        fifty = self.can_claim_fifty_moves(move)
        self._play(move)
        self.outcome = self._automatic_outcome(self.automatic_draws)
        if self.outcome is not None and self.outcome.termination.is_automatic:
            return self.outcome
        if threefold:
            self.outcome = Outcome(Termination.THREEFOLD_REPETITION, None, player)
        elif fifty:
            self.outcome = Outcome(Termination.FIFTY_MOVES, None, player)
        return self.outcome

    def _claimable(self) -> Termination | None:
        if self.can_claim_threefold_repetition():
            return Termination.THREEFOLD_REPETITION
        if self.can_claim_fifty_moves():
            return Termination.FIFTY_MOVES
        return None

    # ----------------------------------------------------------------- players' actions
    def resign(self, color: Color | None = None) -> Outcome:
        """``color`` (default: the side to move) resigns; a draw if the opponent cannot
        checkmate by any legal sequence (RULES.md §1.4)."""
        return self._lose(Termination.RESIGNATION, self._side(color))

    def flag(self, color: Color | None = None) -> Outcome:
        """``color``'s flag fell (default: the side to move): a loss, or a draw if the
        opponent cannot checkmate by any legal sequence (FIDE 6.9)."""
        return self._lose(Termination.TIME_FORFEIT, self._side(color))

    def agree_draw(self) -> Outcome:
        """Both players agree to a draw (FIDE 5.2.3)."""
        self._require_running()
        self.outcome = Outcome(Termination.AGREEMENT, None)
        return self.outcome

    def _side(self, color: Color | None) -> Color:
        if color is None:
            return self.position.turn
        if color not in (WHITE, BLACK):
            raise ColorError(f"colour must be WHITE (0) or BLACK (1), not {color!r}")
        return color

    def _lose(self, termination: Termination, loser: Color) -> Outcome:
        self._require_running()
        opponent = loser ^ 1
        winner = opponent if can_checkmate(self.position, opponent) else None
        self.outcome = Outcome(termination, winner, loser)
        return self.outcome
