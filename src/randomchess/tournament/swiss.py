"""Swiss pairings by the FIDE Dutch system, computed by the ``caissify-pairings`` library
(Apache-2.0; docs/tournaments.md says why this one).

The library is stateless: every call gets each player's score, colour history, float
history and bye count, and the set of pairs that already played.  This module derives them
from a :class:`~randomchess.tournament.model.Tournament` the way the FIDE-endorsed programs
read a TRF: colours and "already met" count only games played over the board (a forfeited
game is not a meeting); a bye or a forfeit win counts as a downfloat; a played game floats
the player whose score before the round was higher down and the other up.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from randomchess.tournament.errors import PairingError
from randomchess.tournament.model import Tournament


@dataclass(frozen=True)
class SwissInput:
    players: list[dict[str, Any]]
    previous: set[tuple[int, int]]


def engine_input(t: Tournament, rnd: int, paired: set[int]) -> SwissInput:
    """The library's input for pairing round ``rnd`` among the player numbers ``paired``."""
    before = rnd - 1
    score_after: dict[int, list[Fraction]] = {}
    for p in t.players:
        running = Fraction(0)
        steps = [running]
        for e in t.entries(p.number, before):
            running += e.points
            steps.append(running)
        score_after[p.number] = steps
    previous: set[tuple[int, int]] = set()
    players: list[dict[str, Any]] = []
    for p in sorted(t.players, key=lambda p: p.number):
        if p.number not in paired:
            continue
        colours: list[str] = []
        floats: list[str] = []
        byes = forfeit_wins = 0
        for e in t.entries(p.number, before):
            if e.opponent is None:
                # Ineligible for another PAB: an unplayed round with a win's points (C.04.1)
                byes += 1 if e.points >= 1 else 0
                floats.append("down" if e.points else "none")
                continue
            if e.played:
                colours.append("white" if e.colour == "w" else "black")
                previous.add((min(p.number, e.opponent), max(p.number, e.opponent)))
                mine = score_after[p.number][e.round - 1]
                theirs = score_after[e.opponent][e.round - 1]
                floats.append("down" if mine > theirs else "up" if mine < theirs else "none")
            elif e.points:
                forfeit_wins += 1
                floats.append("down")
            else:
                floats.append("none")
        players.append({
            "id": p.number,
            "name": p.name,
            "score": float(score_after[p.number][-1]),
            "rating": p.rating or 0,
            "starting_number": p.number,
            # C.04.3 A.2 ranks a score group by pairing number; without this the library
            # numbers players by rating, which differs after a late entry.
            "pairing_number": p.number,
            "title": "",
            "color_hist": colours,
            "float_history": floats,
            "bye_count": byes,
            "forfeit_win_count": forfeit_wins,
        })
    return SwissInput(players, previous)


def pair_dutch(t: Tournament, rnd: int, paired: set[int]) -> list[tuple[int, int | None]]:
    """(White, Black) pairs of round ``rnd`` in board order; ``(n, None)`` is the
    pairing-allocated bye.  ``PairingError`` if no pairing exists."""
    from caissify_pairings.engines.dutch import DutchEngine

    if len(paired) < 2:
        raise PairingError(f"round {rnd} has {len(paired)} player(s) to pair; at least 2",
                           es=f"la ronda {rnd} tiene {len(paired)} jugador(es) que emparejar; al "
                              "menos 2")
    data = engine_input(t, rnd, paired)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            engine = DutchEngine(
                players=data.players,
                previous_pairings=data.previous,
                round_number=rnd,
                total_rounds=max(t.event.rounds, rnd),
                initial_color=t.event.initial_colour,
            )
            out = engine.generate_pairings()
        except Exception as exc:  # the library raises plain exceptions
            raise PairingError(f"no valid pairing exists for round {rnd} under the Dutch "
                               f"system: {exc}",
                               es=f"no existe un emparejamiento válido para la ronda {rnd} en el "
                                  f"sistema holandés: {exc}") from exc
    pairs: list[tuple[int, int, int | None]] = []
    for item in out:
        black = item.get("black_id")
        table = int(item.get("table") or 0)
        if black is None or item.get("bye"):
            pairs.append((10**6 + table, int(item["white_id"]), None))
        else:
            pairs.append((table, int(item["white_id"]), int(black)))
    pairs.sort(key=lambda x: x[0])
    seen = [n for _, w, b in pairs for n in (w, b) if n is not None]
    if sorted(seen) != sorted(paired):
        raise PairingError(f"the pairing library returned an incomplete round {rnd}",
                           es=f"la biblioteca de emparejamientos devolvió una ronda {rnd} "
                              "incompleta")
    scores = {p["id"]: Fraction(p["score"]).limit_denominator(2) for p in data.players}
    broken = absolute_violation(data, pairs, scores, rnd, t.event.rounds)
    if broken is not None:
        # The library answers a dead end with several byes or a rematch (and a log
        # warning); bbpPairings answers "No valid pairing exists", and so do we.
        raise PairingError(
            f"no valid pairing exists for round {rnd} under the Dutch system: {broken} "
            "(C.04.3 absolute criteria C.1-C.3); nothing was paired",
            es=f"no existe un emparejamiento válido para la ronda {rnd} en el sistema holandés: "
               f"{broken} (criterios absolutos C.1-C.3 de C.04.3); no se ha emparejado nada"
        )
    # E.5 counts pairing numbers among the players who take part in pairings (as the
    # endorsed programs do): this round's, and everyone paired in an earlier round.
    taking_part = set(paired)
    for board in t.boards:
        if board.round < rnd and board.bye in (None, "U"):
            taking_part.add(board.white)
            if board.black is not None:
                taking_part.add(board.black)
    effective = {n: i + 1 for i, n in enumerate(sorted(taking_part))}
    history = {p["id"]: p["color_hist"] for p in data.players}
    out_pairs: list[tuple[int, int | None]] = []
    for _, w, b in pairs:
        if b is None:
            out_pairs.append((w, None))
            continue
        first_white = white_of(w, b, history, scores, t.event.initial_colour, effective)
        out_pairs.append((w, b) if first_white else (b, w))
    return board_order(out_pairs, scores)


def board_order(pairs: list[tuple[int, int | None]],
                scores: dict[int, Fraction]) -> list[tuple[int, int | None]]:
    """The published board order of the endorsed programs (bbpPairings' ``sortResults``):
    games by the higher player's score, then the lower player's score, then the higher
    player's rank (score, then pairing number); the pairing-allocated bye last."""
    def key(pair: tuple[int, int | None]) -> tuple[int, Fraction, Fraction, int]:
        w, b = pair
        if b is None:
            return (1, -scores[w], Fraction(0), w)
        high, low = sorted((w, b), key=lambda n: (-scores[n], n))
        return (0, -scores[high], -scores[low], high)

    return sorted(pairs, key=key)


def absolute_violation(data: SwissInput, pairs: list[tuple[int, int, int | None]],
                       scores: dict[int, Fraction], rnd: int, rounds: int) -> str | None:
    """The first absolute criterion of C.04.3 that a proposed round breaks, in words, or
    None: C.1 no rematch, C.2 at most one pairing-allocated bye and only to a player who
    has not scored a win's points without playing, C.3 no two non-topscorers with the same
    absolute colour preference (A.7: topscorers exist only when pairing the final round)."""
    info = {p["id"]: p for p in data.players}
    byes = [w for _, w, b in pairs if b is None]
    if len(byes) > 1 or (byes and len(info) % 2 == 0):
        left = ", ".join(str(n) for n in sorted(byes))
        return f"players {left} are left without an opponent"
    for n in byes:
        if info[n]["bye_count"] or info[n]["forfeit_win_count"]:
            return (f"player {n} would get the pairing-allocated bye after scoring a win's "
                    "points without playing")
    final = rnd >= rounds
    for _, a, b in pairs:
        if b is None:
            continue
        if (min(a, b), max(a, b)) in data.previous:
            return f"players {a} and {b} would meet again"
        pa, pb = _preference(info[a]["color_hist"]), _preference(info[b]["color_hist"])
        topscorer = final and max(scores[a], scores[b]) * 2 > rnd - 1
        if pa.absolute and pb.absolute and pa.colour == pb.colour and not topscorer:
            return f"players {a} and {b} both need {pa.colour}"
    return None


@dataclass(frozen=True)
class _Preference:
    colour: str | None  # "white", "black" or None
    absolute: bool
    strong: bool
    imbalance: int


def _preference(colours: list[str]) -> _Preference:
    """The colour preference of C.04.3 A.6 from the colours of games played over the board."""
    if not colours:
        return _Preference(None, False, False, 0)
    diff = colours.count("white") - colours.count("black")
    other = {"white": "black", "black": "white"}
    if diff > 1 or diff < -1 or (len(colours) >= 2 and colours[-1] == colours[-2]):
        want = "black" if diff > 1 else "white" if diff < -1 else other[colours[-1]]
        return _Preference(want, True, False, abs(diff))
    if diff in (1, -1):
        return _Preference("black" if diff > 0 else "white", False, True, 1)
    return _Preference(other[colours[-1]], False, False, 0)


def white_of(a: int, b: int, history: dict[int, list[str]], scores: dict[int, Fraction],
             initial: str, effective: dict[int, int] | None = None) -> bool:
    """Does ``a`` get White against ``b``?  The colour allocation rules of the Dutch system
    (C.04.3 E.1-E.5), "higher ranked" meaning more points, then the lower pairing number
    (A.2).  The library's own allocation ranks by pairing number alone, so it is redone
    here from the same histories."""
    pa, pb = _preference(history[a]), _preference(history[b])
    if pa.colour != pb.colour or pa.colour is None:  # E.1 compatible (or none at all)
        if pa.colour is not None:
            return pa.colour == "white"
        if pb.colour is not None:
            return pb.colour == "black"
    else:
        # E.2 the stronger preference (two absolutes: the wider colour difference)
        if pa.absolute and (pa.imbalance > pb.imbalance or not pb.absolute):
            return pa.colour == "white"
        if pb.absolute and (pb.imbalance > pa.imbalance or not pa.absolute):
            return pb.colour == "black"
        if pa.strong and not pb.strong:
            return pa.colour == "white"
        if pb.strong and not pa.strong:
            return pb.colour == "black"
        # E.3 alternate to the most recent game in which their colours differed
        for ca, cb in zip(reversed(history[a]), reversed(history[b]), strict=False):
            if ca != cb:
                return cb == "white"
    higher = a if (scores[a], -a) > (scores[b], -b) else b
    pref = pa if higher == a else pb
    if pref.colour is not None:  # E.4
        higher_white = pref.colour == "white"
    else:  # E.5 odd pairing number: the initial colour
        number = (effective or {}).get(higher, higher)
        higher_white = (number % 2 == 1) == (initial == "white")
    return higher_white == (higher == a)
