"""Typed errors of the tournament package: every one is a ``ValueError`` (through
:class:`~randomchess.errors.RandomChessError`) and is raised before anything is written.

Each carries its message in English (``str(error)``) and in Spanish (``error.es``), so the
command line speaks the arbiter's language (``error.localized("es")``);
tests/test_cli_spanish.py checks that every ``raise`` in the package gives both."""

from __future__ import annotations

from randomchess.errors import RandomChessError


class TournamentError(RandomChessError):
    """Base class of every tournament error about bad input or a step out of order."""

    def __init__(self, message: str, es: str | None = None) -> None:
        super().__init__(message)
        self.es = es

    def localized(self, lang: str) -> str:
        """The message in ``lang`` ("en" or "es"; English when no Spanish was given)."""
        return self.es if lang == "es" and self.es is not None else str(self)


class UnknownEventError(TournamentError):
    """No event with that id in the database."""


class UnknownPlayerError(TournamentError):
    """No player with that number in the event."""


class RegistrationError(TournamentError):
    """A registration step out of order: adding players to a closed event, starting twice..."""


class PairingError(TournamentError):
    """A round that cannot be paired now: results missing, paired already, no rounds left..."""


class ResultError(TournamentError):
    """A result that cannot be entered: unknown board, a bye, malformed, or already final."""


class CorrectionError(TournamentError):
    """A correction without a reason, or of a result that was never entered."""


class EventClosedError(TournamentError):
    """The event is closed: nothing changes any more."""


class VerificationError(TournamentError):
    """The revealed salt does not re-derive the stored setups (or the commitment)."""


class RevealError(TournamentError):
    """A hall reveal that cannot be: a bad input (``reason`` ``empty``, ``alphabet``,
    ``short``, ``long``), a round revealed already (``already``), or a round or event that
    has nothing to reveal (``state``)."""

    def __init__(self, message: str, es: str | None = None, reason: str = "state") -> None:
        super().__init__(message, es)
        self.reason = reason


class PreparationError(TournamentError):
    """A round's games cannot start yet: its setup is not revealed, or the preparation
    window after the reveal has not ended."""


class StaffError(TournamentError):
    """A co-arbiter that cannot be added or removed: no such account, added already..."""


class GameEntryError(TournamentError):
    """A board's game that cannot be stored: a scoresheet's bad move (``ply``, ``number``,
    ``token`` and ``suggestions`` from :class:`~randomchess.scoresheet.ScoresheetError`),
    the wrong variant or setup, a bye, a forfeit, a game played online.  ``kind`` names the
    defect for programs (``illegal``, ``ambiguous``, ``setup``, ...)."""

    def __init__(self, message: str, es: str | None = None, *, kind: str = "invalid",
                 rnd: int = 0, board: int = 0, ply: int = 0, number: int = 0,
                 token: str = "", suggestions: tuple[str, ...] = ()) -> None:
        super().__init__(message, es)
        self.kind = kind
        self.round = rnd
        self.board = board
        self.ply = ply
        self.number = number
        self.token = token
        self.suggestions = suggestions


class GameExistsError(GameEntryError):
    """The board has its game already: entering it again needs an explicit replace."""
