"""A knock-out event as FIDE TRF-16 (issue 34): what the format can say of a knock-out, and
the rest as ``###`` comment records (which pairing programs skip).  docs/tournaments.md
("Knock-out events", TRF) lists what TRF can and cannot say.

TRF has rounds, not matches: here each **column** of the ``001`` records is one game slot,
bracket round by bracket round (round 1's columns are its longest match's games, then round
2's, ...), so that every game played appears once, with its opponent, colour and result, and
the points column is the player's game points.  A player without a game in a column (a
match decided sooner, a bracket bye, a game not played yet) has ``0000 - Z`` there; an
eliminated player's record ends with his last game.  The rank is the knock-out's placing:
the champion 1, the finalist 2, the semi-final losers 3 (shared), the quarter-final losers 5,
and so on.  ``### randomchess-column C round=R game=G`` maps each column to its bracket round
and game, ``### randomchess-knockout-game`` records each game's match, stage, setup and
clocks, ``### randomchess-bid`` the Armageddon bids and ``### randomchess-match`` each
decided match's winner.
"""

from __future__ import annotations

from randomchess.tournament.knockout import Game
from randomchess.tournament.knockout_store import KnockoutEvent
from randomchess.tournament.model import GAME_RESULTS, Player

# The TRF result code of a game for White and for Black.
_CODES = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("=", "="), "+-": ("+", "-"),
          "-+": ("-", "+"), "--": ("-", "-")}


def placing(ko: KnockoutEvent) -> dict[int, int]:
    """Each seed's place: a loser in round R of N shares place 2^(N-R) + 1 (the final's
    loser 2, the semi-finals' 3, the quarter-finals' 5); a player not eliminated (the
    champion, or anyone still in) has place 1."""
    n = len(ko.bracket.rounds)
    place = {p.number: 1 for p in ko.tournament.players}
    for rnd, row in enumerate(ko.bracket.rounds, 1):
        for m in row:
            if m.loser is not None:
                place[m.loser] = 2 ** (n - rnd) + 1
    return place


def columns(ko: KnockoutEvent) -> list[tuple[int, int]]:
    """(bracket round, game) of each TRF column: per round, as many as its longest match
    has games with a result."""
    out: list[tuple[int, int]] = []
    for rnd, row in enumerate(ko.bracket.rounds, 1):
        longest = max((g.game for m in row for g in m.games if g.result is not None),
                      default=0)
        out.extend((rnd, game) for game in range(1, longest + 1))
    return out


def _line(p: Player, points: str, rank: int, cells: list[str]) -> str:
    line = (f"001 {p.number:4d} {'':1}{'':3} {p.name[:33]:<33} {p.rating or 0:4d} "
            f"{(p.federation or '')[:3]:<3} {(p.fide_id or '')[:11]:>11} {'':10} "
            f"{points} {rank:4d}")
    if p.rating is None:
        line = line[:48] + "    " + line[52:]
    return line + ("  " + "  ".join(cells) if cells else "")


def write_knockout_trf(ko: KnockoutEvent) -> str:
    """The TRF-16 text of a knock-out event (started or not)."""
    e, f = ko.event, ko.format
    t = ko.tournament
    lines = [f"012 {e.name}", f"062 {len(t.players)}", f"092 Knock-out, {e.variant}"]
    if e.time_control:
        lines.append(f"122 {e.time_control}")
    cols = columns(ko) if ko.started else []
    lines.append(f"XXR {len(cols)}")
    lines.append(f"XXC {e.initial_colour}1")
    lines.append(f"### randomchess-event id={e.id} variant={e.variant} system=knockout "
                 f"games={f.games} tiebreaks={';'.join(s.spec for s in f.tiebreaks) or '-'} "
                 f"armageddon={f.armageddon.spec if f.armageddon else '-'} "
                 f"match-setups={f.setups} seeding={f.seeding} "
                 f"exclude-standard={int(e.exclude_standard)} bishops={e.bishops} "
                 f"no-repeat={int(e.no_repeat)}")
    lines.append(f"### randomchess-commitment {e.commitment}")
    if e.salt is not None:
        lines.append(f"### randomchess-salt {e.salt.hex()}")
    index = {c: i for i, c in enumerate(cols)}
    played: dict[int, list[str]] = {p.number: ["0000 - Z"] * len(cols) for p in t.players}
    last: dict[int, int] = {p.number: -1 for p in t.players}
    points = {p.number: 0.0 for p in t.players}
    slots = {s.game: s for s in f.slots()}
    for c, (rnd, game) in enumerate(cols, 1):
        lines.append(f"### randomchess-column {c} round={rnd} game={game}")
    if ko.started:
        for g in ko.bracket.games():
            if g.result is None:
                continue
            c = index[(g.round, g.game)]
            white, black = _CODES[g.result]
            played[g.white][c] = f"{g.black:4d} w {white}"
            played[g.black][c] = f"{g.white:4d} b {black}"
            pw, pb = GAME_RESULTS[g.result]
            points[g.white] += float(pw)
            points[g.black] += float(pb)
            last[g.white] = max(last[g.white], c)
            last[g.black] = max(last[g.black], c)
            lines.append(_game_comment(ko, g, c + 1, slots[g.game].stage,
                                       slots[g.game].armageddon))
        for b in ko.bids:
            lines.append(f"### randomchess-bid round={b.round} match={b.match} "
                         f"player={b.player} seconds={b.seconds}")
        for row in ko.bracket.rounds:
            for m in row:
                if m.winner is not None:
                    lines.append(f"### randomchess-match round={m.round} match={m.number} "
                                 f"top={m.top} bottom={m.bottom or 0} winner={m.winner} "
                                 f"status={m.status}")
    place = placing(ko) if ko.started else {}
    eliminated = {m.loser for row in ko.bracket.rounds for m in row
                  if m.loser is not None} if ko.started else set()
    for p in sorted(t.players, key=lambda p: p.number):
        cells = played[p.number]
        if p.number in eliminated:
            cells = cells[:last[p.number] + 1]
        lines.append(_line(p, f"{points[p.number]:4.1f}", place.get(p.number, p.number),
                           cells))
    return "\n".join(lines) + "\n"


def _game_comment(ko: KnockoutEvent, g: Game, column: int, stage: int,
                  armageddon: bool) -> str:
    words = (f"### randomchess-knockout-game column={column} round={g.round} match={g.match} "
             f"game={g.game} stage={'armageddon' if armageddon else stage} white={g.white} "
             f"black={g.black} result={g.result} setup={g.setup} "
             f"time-control={g.time_control or '-'}")
    if g.black_time_control is not None:
        words += f" black-time-control={g.black_time_control}"
    return words


__all__ = ["columns", "placing", "write_knockout_trf"]
