"""Tournaments: Swiss (FIDE Dutch, by the caissify-pairings library) and round-robin (FIDE
Berger tables) events whose every round's start position comes from the verifiable draw of
docs/shuffler.md.  docs/tournaments.md describes the arbiter's workflow."""

from __future__ import annotations

from randomchess.tournament.errors import (
    CorrectionError,
    EventClosedError,
    GameEntryError,
    GameExistsError,
    PairingError,
    RegistrationError,
    ResultError,
    TournamentError,
    UnknownEventError,
    UnknownPlayerError,
    VerificationError,
)
from randomchess.tournament.model import Board, Event, Player, Tournament, parse_result
from randomchess.tournament.store import TournamentStore, plan_round, verify
from randomchess.tournament.tiebreaks import TIEBREAKS, Calculator

__all__ = [
    "TIEBREAKS",
    "Board",
    "Calculator",
    "CorrectionError",
    "Event",
    "EventClosedError",
    "GameEntryError",
    "GameExistsError",
    "PairingError",
    "Player",
    "RegistrationError",
    "ResultError",
    "Tournament",
    "TournamentError",
    "TournamentStore",
    "UnknownEventError",
    "UnknownPlayerError",
    "VerificationError",
    "parse_result",
    "plan_round",
    "verify",
]
