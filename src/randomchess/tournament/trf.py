"""FIDE TRF-16 (the Tournament Report File of the FIDE Data Exchange Format, 2016 layout):
writing an event and reading one back.

What is written:

* header records ``012`` (name), ``062`` (players), ``092`` (type: system and variant),
  ``122`` (time control), and the JaVaFo extensions every pairing program reads,
  ``XXR`` (planned rounds) and ``XXC`` (initial colour);
* one ``001`` record per player: starting rank, name, rating, federation, FIDE id, points,
  rank, then per round ``opponent colour result`` in the fixed 10-column layout
  (``0000 - U`` pairing-allocated bye, ``H``/``F``/``Z`` requested byes or absence,
  ``+``/``-`` forfeits);
* the round setups, which TRF-16 has no field for, as comment records starting with
  ``###`` (pairing programs skip them):
  ``### randomchess-setup round=R board=B number=N rank=RANK`` (board 0 = every board), plus
  ``### randomchess-event``, ``### randomchess-commitment``, ``### randomchess-tiebreaks``
  (the edition of the tie-break regulations and the event's codes) and, once the event is
  closed, ``### randomchess-salt``.  docs/tournaments.md documents each.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from fractions import Fraction

from randomchess.tournament.errors import TournamentError
from randomchess.tournament.model import (
    BLACK_FORFEIT_WIN,
    BLACK_WINS,
    BYE_KINDS,
    DOUBLE_FORFEIT,
    DRAW,
    WHITE_FORFEIT_WIN,
    WHITE_WINS,
    Board,
    Reveal,
    Tournament,
)
from randomchess.tournament.tiebreaks import DEFAULT_EDITION, EDITIONS, TIEBREAKS, Calculator


class TrfError(TournamentError):
    """A TRF file that cannot be read."""


def _points(x: Fraction) -> str:
    return f"{float(x):4.1f}"


def _system_label(t: Tournament) -> str:
    system = {"swiss": "Swiss Dutch", "rr": "Round robin (Berger)",
              "drr": "Double round robin (Berger)"}[t.event.system]
    return f"{system}, {t.event.variant}"


def player_line(t: Tournament, number: int, rank: int, upto: int) -> str:
    p = t.player(number)
    line = (
        f"001 {p.number:4d} {'':1}{'':3} {p.name[:33]:<33} {p.rating or 0:4d} "
        f"{(p.federation or '')[:3]:<3} {(p.fide_id or '')[:11]:>11} {'':10} "
        f"{_points(t.score(number, upto))} {rank:4d}"
    )
    if p.rating is None:
        line = line[:48] + "    " + line[52:]
    cells = []
    for e in t.entries(number, upto):
        opp = f"{e.opponent:4d}" if e.opponent is not None else "0000"
        colour = e.colour or "-"
        cells.append(f"{opp} {colour} {e.code}")
    return line + ("  " + "  ".join(cells) if cells else "")


def write_trf(t: Tournament, upto: int | None = None, for_pairing: bool = False) -> str:
    """The TRF-16 text of ``t`` after round ``upto`` (default: the last complete round; the
    setups of every paired round are listed all the same)."""
    last = t.completed_rounds if upto is None else upto
    standings = Calculator(t, last).standings()
    rank = {s.number: s.rank for s in standings}
    lines = [
        f"012 {t.event.name}",
        f"062 {len(t.players)}",
        f"092 {_system_label(t)}",
    ]
    if t.event.time_control:
        lines.append(f"122 {t.event.time_control}")
    lines.append(f"XXR {t.event.rounds}")
    lines.append(f"XXC {t.event.initial_colour}1")
    if not for_pairing:
        lines.append(f"### randomchess-event id={t.event.id} variant={t.event.variant} "
                     f"system={t.event.system} policy={t.event.setup_policy} "
                     f"mini-match={int(t.event.mini_match)} "
                     f"exclude-standard={int(t.event.exclude_standard)} "
                     f"bishops={t.event.bishops} no-repeat={int(t.event.no_repeat)}"
                     + ("" if t.event.eval_band is None else
                        f" eval-band={t.event.eval_band} eval-digest={t.event.eval_digest}")
                     + _pool_words(t))
        lines.append(f"### randomchess-commitment {t.event.commitment}")
        lines.append(f"### randomchess-tiebreaks edition={t.event.tiebreak_edition} "
                     f"codes={','.join(t.event.tiebreaks)}")
        if t.event.salt is not None:
            lines.append(f"### randomchess-salt {t.event.salt.hex()}")
        for rv in t.reveals:
            lines.append(f"### randomchess-reveal round={rv.round} at={iso_time(rv.at)} "
                         f"input={rv.input} key={rv.key}")
        for r in range(1, t.paired_rounds + 1):
            for b in _setup_rows(t, r):
                lines.append(f"### randomchess-setup round={r} board={b.board} "
                             f"number={b.setup} fen={b.fen}")
    for p in sorted(t.players, key=lambda p: p.number):
        lines.append(player_line(t, p.number, rank[p.number], last))
    return "\n".join(lines) + "\n"


def _pool_words(t: Tournament) -> str:
    """The event line's words for a hall event and the organiser's own pool (none for an
    event without them, so older files read the same)."""
    e = t.event
    words = ""
    if e.setup_source != "salt":
        words += f" source={e.setup_source} prep={e.prep_minutes}"
    if e.excluded:
        words += f" exclude={','.join(map(str, e.excluded))}"
    if e.shortlist is not None:
        words += f" only={','.join(map(str, e.shortlist))}"
    return words


def iso_time(ms: int) -> str:
    """Milliseconds since the epoch as ISO 8601 UTC, to the millisecond."""
    at = datetime.datetime.fromtimestamp(ms / 1000, datetime.UTC)
    return at.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def parse_iso_time(text: str) -> int:
    """:func:`iso_time` read back (``TrfError`` if malformed)."""
    m = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{3}))?Z", text)
    if not m:
        raise TrfError(f"bad time {text!r}; write 2026-03-01T15:00:00.000Z",
                       es=f"hora incorrecta {text!r}; escriba 2026-03-01T15:00:00.000Z")
    at = datetime.datetime.strptime(m[1], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=datetime.UTC)
    return int(at.timestamp()) * 1000 + int(m[2] or 0)


def _setup_rows(t: Tournament, rnd: int) -> list[Board]:
    boards = [b for b in t.round_boards(rnd) if not b.is_bye]
    if t.event.setup_policy == "round" and boards:
        first = boards[0]
        return [Board(rnd, 0, first.white, first.black, setup=first.setup, fen=first.fen)]
    return boards


# --- reading -------------------------------------------------------------------------------


@dataclass
class TrfPlayer:
    number: int
    name: str
    rating: int | None
    federation: str | None
    fide_id: str | None
    points: Fraction
    rank: int
    rounds: list[tuple[int | None, str | None, str]]  # (opponent, colour, code)


@dataclass
class TrfFile:
    name: str = ""
    type: str = ""
    time_control: str = ""
    rounds: int | None = None
    initial_colour: str = "white"
    players: list[TrfPlayer] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)

    def setups(self) -> dict[tuple[int, int], tuple[int | None, str]]:
        out: dict[tuple[int, int], tuple[int | None, str]] = {}
        for c in self.comments:
            m = re.match(r"### randomchess-setup round=(\d+) board=(\d+) number=(\S+) fen=(.*)$",
                         c)
            if m:
                number = None if m[3] == "None" else int(m[3])
                out[(int(m[1]), int(m[2]))] = (number, m[4])
        return out

    def reveals(self) -> list[Reveal]:
        out = []
        for c in self.comments:
            m = re.match(r"### randomchess-reveal round=(\d+) at=(\S+) input=(\S*) key=(\S*)$", c)
            if m:
                out.append(Reveal(int(m[1]), m[3], parse_iso_time(m[2]), m[4]))
        return out

    def comment(self, key: str) -> str | None:
        for c in self.comments:
            if c.startswith(f"### randomchess-{key} "):
                return c.split(" ", 2)[2]
        return None

    def boards(self) -> list[Board]:
        """The rounds as boards (games numbered in first-player order, byes after)."""
        by_number = {p.number: p for p in self.players}
        out: list[Board] = []
        rounds = max((len(p.rounds) for p in self.players), default=0)
        for r in range(1, rounds + 1):
            games: list[Board] = []
            byes: list[Board] = []
            for p in self.players:
                if len(p.rounds) < r:
                    continue
                opp, colour, code = p.rounds[r - 1]
                if opp is None:
                    byes.append(Board(r, 0, p.number, None, bye=code if code in BYE_KINDS
                                      else "Z"))
                    continue
                if colour != "w":
                    continue
                other = by_number.get(opp)
                if other is None or len(other.rounds) < r or other.rounds[r - 1][0] != p.number:
                    raise TrfError(f"round {r}: player {p.number}'s opponent {opp} does not "
                                   f"list {p.number} back",
                                   es=f"ronda {r}: el rival {opp} del jugador {p.number} no lo "
                                      f"lista a él ({p.number})")
                games.append(Board(r, 0, p.number, opp,
                                   result=_game_result(code, other.rounds[r - 1][2])))
            numbered = [Board(b.round, i + 1, b.white, b.black, b.result, b.bye)
                        for i, b in enumerate(games + byes)]
            out.extend(numbered)
        return out


def _game_result(code: str, black_code: str) -> str | None:
    if code == "-" and black_code == "-":
        return DOUBLE_FORFEIT
    table = {"1": WHITE_WINS, "0": BLACK_WINS, "=": DRAW, "W": WHITE_WINS, "L": BLACK_WINS,
             "D": DRAW, "+": WHITE_FORFEIT_WIN, "-": BLACK_FORFEIT_WIN, "*": None}
    if code not in table:
        raise TrfError(f"unknown result code {code!r}",
                       es=f"código de resultado desconocido {code!r}")
    return table[code]


def _int(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdigit() else None


def parse_trf(text: str) -> TrfFile:
    """Read a TRF-16 (or TRF(x)) text; ``TrfError`` on a malformed player record."""
    out = TrfFile()
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = raw.rstrip()
        if not line:
            continue
        if line.startswith("###"):
            out.comments.append(line)
            continue
        code = line[:3]
        rest = line[4:].strip()
        if code == "012":
            out.name = rest
        elif code == "092":
            out.type = rest
        elif code == "122":
            out.time_control = rest
        elif code in ("XXR", "142"):
            out.rounds = _int(rest)
        elif code == "XXC":
            out.initial_colour = "black" if rest.lower().startswith("black") else "white"
        elif code == "001":
            out.players.append(_player(line))
    return out


def _player(line: str) -> TrfPlayer:
    number = _int(line[4:8])
    if number is None:
        raise TrfError(f"player record without a starting rank: {line[:40]!r}",
                       es=f"registro de jugador sin número inicial: {line[:40]!r}")
    try:
        points = Fraction(line[80:84].strip() or "0")
    except ValueError:
        raise TrfError(f"player {number}: bad points {line[80:84]!r}",
                       es=f"jugador {number}: puntos incorrectos {line[80:84]!r}") from None
    rounds: list[tuple[int | None, str | None, str]] = []
    pos = 91
    while pos < len(line):
        cell = line[pos:pos + 8]
        if not cell.strip():
            break
        m = re.fullmatch(r"\s*(\d{1,4})\s([wb-])\s([10=+\-WDLHFUZ*])", cell.ljust(8)[:8])
        if not m:
            raise TrfError(f"player {number}: bad round cell {cell!r}",
                           es=f"jugador {number}: casilla de ronda incorrecta {cell!r}")
        opp = int(m[1])
        rounds.append((opp or None, None if m[2] == "-" else m[2], m[3]))
        pos += 10
    return TrfPlayer(
        number=number,
        name=line[14:47].strip(),
        rating=_int(line[48:52]) or None,
        federation=line[53:56].strip() or None,
        fide_id=line[57:68].strip() or None,
        points=points,
        rank=_int(line[85:89]) or 0,
        rounds=rounds,
    )


__all__ = [
    "TrfError",
    "TrfFile",
    "TrfPlayer",
    "parse_trf",
    "player_line",
    "write_trf",
]


def tournament_from_trf(trf: TrfFile, upto: int | None = None) -> Tournament:
    """A snapshot of a TRF's event after round ``upto`` (default: every round in it).

    Event fields the TRF does not carry get neutral values (the event id is the name)."""
    from randomchess.tournament.model import Event, Player

    meta = dict(re.findall(r"(\S+)=(\S+)", trf.comment("event") or ""))
    if meta.get("system") == "knockout":
        raise TrfError("a knock-out's TRF has a column per game, not rounds: it is not read "
                       "back as an event (verify the event itself, or its PGN's setups)",
                       es="el TRF de una eliminatoria tiene una columna por partida, no rondas: "
                          "no se lee como torneo (verifique el propio torneo, o las posiciones "
                          "de su PGN)")
    boards = [b for b in trf.boards() if upto is None or b.round <= upto]
    setups = trf.setups()
    fixed = []
    for b in boards:
        key = (b.round, 0) if (b.round, 0) in setups else (b.round, b.board)
        number, fen = setups.get(key, (None, ""))
        fixed.append(Board(b.round, b.board, b.white, b.black, b.result, b.bye,
                           None if b.is_bye else number, "" if b.is_bye else fen))
    ties = dict(re.findall(r"(\S+)=(\S*)", trf.comment("tiebreaks") or ""))
    codes = tuple(c for c in ties.get("codes", "").split(",") if c)
    if any(c not in TIEBREAKS for c in codes):
        raise TrfError(f"unknown tiebreak in {trf.comment('tiebreaks')!r}",
                       es=f"desempate desconocido en {trf.comment('tiebreaks')!r}")
    if ties.get("edition", DEFAULT_EDITION) not in EDITIONS:
        raise TrfError(f"unknown tiebreak edition in {trf.comment('tiebreaks')!r}",
                       es=f"edición de desempates desconocida en {trf.comment('tiebreaks')!r}")
    event = Event(
        id=meta.get("id", trf.name), name=trf.name, variant=meta.get("variant", "chess960"),
        system=meta.get("system", "swiss"),
        rounds=trf.rounds or max((b.round for b in boards), default=0),
        time_control=trf.time_control, tiebreaks=codes,
        tiebreak_edition=ties.get("edition", DEFAULT_EDITION),
        setup_policy=meta.get("policy", "round"),
        mini_match=meta.get("mini-match") == "1",
        exclude_standard=meta.get("exclude-standard") == "1",
        bishops=meta.get("bishops", "any"), no_repeat=meta.get("no-repeat") == "1",
        commitment=trf.comment("commitment") or "", status="closed",
        initial_colour=trf.initial_colour,
        salt=bytes.fromhex(trf.comment("salt") or "") or None,
        eval_band=int(meta["eval-band"]) if meta.get("eval-band", "").isdigit() else None,
        eval_digest=meta.get("eval-digest"),
        setup_source="hall" if meta.get("source") == "hall" else "salt",
        prep_minutes=int(meta["prep"]) if meta.get("prep", "").isdigit() else 0,
        excluded=_trf_numbers(meta.get("exclude")) or (),
        shortlist=_trf_numbers(meta.get("only")),
    )
    players = tuple(Player(p.number, p.name, p.rating, p.fide_id, p.federation)
                    for p in trf.players)
    return Tournament(event, players, tuple(fixed), reveals=tuple(trf.reveals()))


def _trf_numbers(text: str | None) -> tuple[int, ...] | None:
    if text is None:
        return None
    if not re.fullmatch(r"\d+(,\d+)*", text):
        raise TrfError(f"bad list of setup numbers {text!r}",
                       es=f"lista de números de posición incorrecta {text!r}")
    return tuple(int(x) for x in text.split(","))
