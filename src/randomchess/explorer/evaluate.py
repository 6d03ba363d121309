"""``randomchess explorer evaluate``: the engine's evaluation of the positions the explorer
shows (issue 33).

The explorer keeps positions by their hash, not their FEN, so the positions are found again
by walking each setup's tree from its start: every move played in at least ``min_games``
games (all sources), to ``plies`` plies deep.  Each position reached is evaluated by an
analyser (our own engine by default, at ``depth``) unless it already has an evaluation at
least as deep, and the evaluation is kept in ``explorer_evals`` (White's point of view).
The explorer's answer gives each move the evaluation of the position it leads to."""

from __future__ import annotations

from collections.abc import Callable

from randomchess.analysis.core import Analyser, Limit
from randomchess.explorer.counts import position_key
from randomchess.explorer.store import ExplorerStore
from randomchess.position import Position
from randomchess.startpos import setup_from_number

Progress = Callable[[int], None]  # positions evaluated so far


def evaluate_tree(store: ExplorerStore, analyser: Analyser, variant: str, number: int,
                  depth: int = 10, plies: int = 8, min_games: int = 1,
                  progress: Progress | None = None) -> int:
    """Evaluate the positions of setup ``number``'s tree; how many were evaluated."""
    start = Position(setup_from_number(variant, number).fen, variant)
    key = position_key(start)
    done = 0
    frontier = [(start, key)]
    seen = {key}
    limit = Limit(depth=depth)
    for _ in range(plies + 1):
        later = []
        for pos, key in frontier:
            if store.evals(variant, number, [key]).get(key, {}).get("depth", -1) < depth \
                    and pos.legal_moves():
                lines = analyser.analyse(pos, limit)
                if lines:
                    score = lines[0].score
                    store.set_eval(variant, number, key, score.cp, score.mate, depth,
                                   analyser.name)
                    done += 1
                    if progress is not None:
                        progress(done)
            for m in store.moves(variant, number, key):
                if m["games"] < min_games:
                    continue
                child = pos.copy(stack=False)
                child.push(child.parse_uci(m["move"]))
                child_key = position_key(child)
                if child_key not in seen:
                    seen.add(child_key)
                    later.append((child, child_key))
        frontier = later
    return done
