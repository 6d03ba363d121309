"""Round-robin schedules by the FIDE Berger tables (FIDE Handbook C.05, Annex 1).

With ``n`` players (``n`` even; an odd field adds a dummy number ``n + 1`` whose opponent has
the round off), round ``r`` (1 .. n-1) pairs the players whose numbers add up to ``r + 1``
modulo ``n - 1`` (counting ``n - 1`` as 0), and player ``n`` meets the one number ``a`` with
``2a = r + 1`` modulo ``n - 1``.  Board 1 is that game, ``a`` White in odd rounds and ``n``
White in even ones; boards 2, 3, ... have White ``a + 1``, ``a + 2``, ... (modulo ``n - 1``).
This reproduces the published tables row by row (the test checks the table for 5-6 players
and the first rounds for 7-8).  A double round robin plays the table twice, the second cycle
with colours reversed; as C.05 Annex 1 recommends, the last two rounds of the first cycle are
played in reverse order, which avoids three games in a row with one colour (with the table
played twice, players 1 and n/2 + 1 of an even field had three).
"""

from __future__ import annotations

from randomchess.tournament.errors import PairingError


def _residue(x: int, m: int) -> int:
    """``x`` modulo ``m`` in 1..m (so that player numbers come out directly)."""
    return (x - 1) % m + 1


def berger_round(players: int, rnd: int) -> list[tuple[int, int]]:
    """The (White, Black) pairs of round ``rnd`` for ``players`` players, board order.

    With an odd number of players the pair holding the dummy ``players + 1`` is kept
    (the caller turns it into a bye).
    """
    if players < 2:
        raise PairingError(f"a round robin needs at least 2 players, not {players}",
                           es=f"un todos contra todos necesita al menos 2 jugadores, no {players}")
    n = players + players % 2
    if not 1 <= rnd <= n - 1:
        raise PairingError(f"a {n}-player Berger table has rounds 1-{n - 1}, not {rnd}",
                           es=f"una tabla de Berger de {n} jugadores tiene las rondas 1-{n - 1}, "
                              f"no {rnd}")
    m = n - 1
    target = rnd + 1
    a = next(x for x in range(1, n) if (2 * x - target) % m == 0)
    pairs = [(a, n) if rnd % 2 else (n, a)]
    for k in range(1, n // 2):
        white = _residue(a + k, m)
        black = _residue(target - white, m)
        pairs.append((white, black))
    return pairs


def schedule(players: int, double: bool = False,
             swap_last: bool = True) -> list[list[tuple[int, int]]]:
    """Every round of a single (or double) round robin.  ``swap_last=False`` gives the
    double round robin without C.05's exchange of the first cycle's last two rounds (the
    schedule before issue 29, for events paired with it)."""
    n = players + players % 2
    first = [berger_round(players, r) for r in range(1, n)]
    if not double:
        return first
    second = [[(b, w) for w, b in rnd] for rnd in first]
    if swap_last and len(first) >= 2:
        first = [*first[:-2], first[-1], first[-2]]
    return first + second


def rounds_needed(players: int, double: bool = False) -> int:
    n = players + players % 2
    return (n - 1) * (2 if double else 1)
