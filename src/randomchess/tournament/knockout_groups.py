"""Group stage -> knock-out (issue 34): the top places of one or more closed Swiss or
round-robin events (the groups) seed a knock-out event, by each group's final standings and
its own tiebreaks.  docs/tournaments.md ("Group stage -> knock-out") describes it.

Seeds go by place, then by group in the order given: with groups A and B and the top 2,
the seeds are A1, B1, A2, B2, so that the bracket's first round crosses the groups (A1 - B2,
B1 - A2).  A withdrawn player does not qualify (the next place does); a cut that falls
inside a place shared on points and every tiebreak is refused: the organiser decides it
first (a play-off, another tiebreak), the software does not draw lots.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from randomchess.tournament.errors import TournamentError
from randomchess.tournament.knockout import MAX_PLAYERS
from randomchess.tournament.model import Player, Tournament
from randomchess.tournament.tiebreaks import Calculator, Standing

MAX_GROUPS = 32


class GroupsError(TournamentError):
    """Groups that cannot seed a knock-out: not closed, a knock-out themselves, too few
    players, a cut inside a shared place."""


@dataclass(frozen=True)
class Qualifier:
    """A player who goes on: the group (its index from 0 and its event), the place there,
    the player as entered in the group."""

    group: int
    event: str
    place: int
    player: Player


def _top(t: Tournament, top: int) -> list[tuple[int, Player]]:
    name = t.event.name
    if t.event.system == "knockout":
        raise GroupsError(f"{name!r} is a knock-out: the groups are Swiss or round-robin "
                          "events",
                          es=f"{name!r} es una eliminatoria: los grupos son torneos suizos o "
                             "de todos contra todos")
    if t.event.status != "closed":
        raise GroupsError(f"{name!r} is not closed: its top places are final when it is "
                          "closed",
                          es=f"{name!r} no está cerrado: sus primeros puestos son definitivos "
                             "al cerrarlo")
    rows: list[Standing] = [s for s in Calculator(t).standings()
                            if t.player(s.number).withdrawn_round is None]
    if len(rows) < top:
        raise GroupsError(f"{name!r} has {len(rows)} players who did not withdraw, fewer "
                          f"than the top {top}",
                          es=f"{name!r} tiene {len(rows)} jugadores que no se retiraron, menos "
                             f"que los {top} primeros")
    if len(rows) > top and rows[top].rank == rows[top - 1].rank:
        a, b = rows[top - 1], rows[top]
        raise GroupsError(f"{name!r}: the cut after place {top} falls inside a shared place "
                          f"({a.name} and {b.name} are level on points and every tiebreak); "
                          "decide it first (a play-off or another tiebreak)",
                          es=f"{name!r}: el corte tras el puesto {top} cae en un puesto "
                             f"compartido ({a.name} y {b.name} empatan en puntos y en todos "
                             "los desempates); decídalo antes (un desempate jugado u otro "
                             "criterio)")
    return [(place, t.player(s.number)) for place, s in enumerate(rows[:top], 1)]


def qualifiers(groups: Sequence[Tournament], top: int) -> list[Qualifier]:
    """The knock-out's entrants in seed order: by place, then by group as given."""
    if not 1 <= len(groups) <= MAX_GROUPS:
        raise GroupsError(f"1-{MAX_GROUPS} groups, not {len(groups)}",
                          es=f"de 1 a {MAX_GROUPS} grupos, no {len(groups)}")
    if top * len(groups) > MAX_PLAYERS:
        raise GroupsError(f"a knock-out has at most {MAX_PLAYERS} players, not {top} from "
                          f"each of {len(groups)} groups",
                          es=f"una eliminatoria tiene como máximo {MAX_PLAYERS} jugadores, no "
                             f"{top} de cada uno de {len(groups)} grupos")
    ids = [t.event.id for t in groups]
    if len(set(ids)) != len(ids):
        raise GroupsError("a group is named twice", es="un grupo aparece dos veces")
    if top < 1 or top * len(groups) < 2:
        raise GroupsError(f"the knock-out needs at least 2 players: top {top} of "
                          f"{len(groups)} group(s)",
                          es=f"la eliminatoria necesita al menos 2 jugadores: los {top} "
                             f"primeros de {len(groups)} grupo(s)")
    tops = [_top(t, top) for t in groups]
    out = [Qualifier(g, groups[g].event.name, place, tops[g][place - 1][1])
           for place in range(1, top + 1) for g in range(len(groups))]
    seen: dict[str, Qualifier] = {}
    for q in out:
        other = seen.setdefault(q.player.name.casefold(), q)
        if other is not q:
            raise GroupsError(f"{q.player.name!r} qualifies from {other.event!r} and from "
                              f"{q.event!r}: a knock-out enters a name once",
                              es=f"{q.player.name!r} se clasifica en {other.event!r} y en "
                                 f"{q.event!r}: una eliminatoria inscribe cada nombre una vez")
    return out
