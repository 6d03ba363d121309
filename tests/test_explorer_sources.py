"""The sources of a setup (issue 33): ExplorerStore.sources reads them at the setup's start
position, which every counted game passes through, instead of the setup's whole range of
``explorer_moves`` (480-814 ms at a setup of 17,000 games).  The answer must be the one the
whole range gives, for every setup, whatever mix of sources, speeds, bands and game lengths
(a game without moves counts nothing), on 8x8 and 9x9."""

from __future__ import annotations

import random
from pathlib import Path

from sqlalchemy import and_, create_engine, select

from randomchess.db import migrate, schema
from randomchess.explorer.counts import GameInfo, Tally
from randomchess.explorer.store import ExplorerStore
from randomchess.position import Position
from randomchess.startpos import setup_from_number

SOURCES = ("lichess", "server", "events", "selfplay")


def _game(rng: random.Random, variant: str, number: int, plies: int) -> tuple[Position, list]:
    setup = setup_from_number(variant, number)
    start = Position(setup.fen, setup.variant)
    pos, moves = start.copy(stack=False), []
    for _ in range(plies):
        legal = pos.legal_moves()
        if not legal:
            break
        moves.append(rng.choice(legal))
        pos.push(moves[-1])
    return start, moves


def test_the_sources_at_the_start_are_the_sources_of_the_whole_setup(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'e.db'}")
    migrate(engine)
    store = ExplorerStore(engine)
    rng = random.Random(33)
    setups = [("chess960", n) for n in (0, 518, 959)] + [("mrc", n) for n in (0, 8226)]
    for source in SOURCES:
        tally = Tally()
        for _ in range(12):
            variant, number = rng.choice(setups)
            start, moves = _game(rng, variant, number, rng.choice((0, 1, 5, 30)))
            tally.add_game(variant, number, start, moves, rng.choice(("1-0", "0-1", "1/2-1/2")),
                           rng.choice(("", "blitz", "rapid")), rng.choice((None, 1500)),
                           rng.choice((None, 2100)), GameInfo())
        store.add(source, tally)
    t = schema.explorer_moves.c
    seen = 0
    with engine.connect() as conn:
        for variant, number in [*setups, ("chess960", 1), ("mrc", 1)]:
            whole = sorted(conn.execute(select(t.source).distinct().where(and_(
                t.variant == variant, t.number == number))).scalars())
            assert store.sources(variant, number) == whole
            seen += len(whole)
    assert seen > len(setups)  # most setups have games from several sources
