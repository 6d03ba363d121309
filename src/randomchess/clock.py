"""Chess clocks: time controls and all their arithmetic, in one place (issue 34).

A :class:`TimeControl` is a list of periods, each ``moves`` in ``time`` (the last may run to
the end of the game, or repeat), with a bonus per move of one :class:`Bonus` kind:

* **Fischer increment**: ``bonus`` is added after every move of the period;
* **Bronstein delay**: after every move, the time the move took is given back, at most
  ``bonus``; the clock counts down meanwhile (a flag can fall inside the delay);
* **simple (US) delay**: the clock waits ``bonus`` before it starts counting down.

A period's time is added to what is left when the previous period's last move is made
(FIDE Laws, 6.2 and the Appendix on clock settings).  Correspondence (days per move, the time
given afresh after every move), the sandclock (what one side uses, the other gains) and "no
clock" are time controls too.  Each side counts its own moves from 1: move ``n`` is the
``n``-th move that side makes.

Text: :meth:`TimeControl.parse` / :meth:`TimeControl.pgn` read and write the PGN standard's
``TimeControl`` tag (section 9.6.1: ``?``, ``-``, ``40/9000``, ``300``, ``300+2``, ``*60``,
periods joined by ``:``), with the usual extension of an increment on a moves period
(``40/5400+30:1800+30``).  The standard has no delay: a delay is written as the bonus with a
letter, ``300+3d`` (simple delay, as python-chess reads it) or ``300+3b`` (Bronstein)
(docs/rules.md, clocks).  Standard library only.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from randomchess.errors import RandomChessError

DAY_MS = 86_400_000
# The largest control the parser accepts (more is a typo, not a game).
MAX_PERIODS = 8
MAX_PERIOD_MS = 14 * 86_400_000  # 14 days: a correspondence move
MAX_BONUS_MS = 600_000  # 10 minutes
MAX_MOVES = 500


class TimeControlError(RandomChessError):
    """A time control that cannot be read or cannot be played; ``es`` says it in Spanish."""

    def __init__(self, en: str, es: str) -> None:
        super().__init__(en)
        self.es = es


class Bonus(enum.StrEnum):
    """What a period gives per move."""

    INCREMENT = "increment"  # Fischer
    BRONSTEIN = "bronstein"
    DELAY = "delay"  # simple (US) delay


class Kind(enum.StrEnum):
    CLOCK = "clock"
    CORRESPONDENCE = "correspondence"
    SANDCLOCK = "sandclock"
    UNLIMITED = "unlimited"  # PGN "-"
    UNKNOWN = "unknown"  # PGN "?"


@dataclass(frozen=True)
class Period:
    """``time_ms`` for ``moves`` moves (None: to the end of the game), ``bonus_ms`` a move."""

    time_ms: int
    moves: int | None = None
    bonus_ms: int = 0
    bonus: Bonus = Bonus.INCREMENT


@dataclass(frozen=True)
class TimeControl:
    """A whole game's control.  For ``CORRESPONDENCE`` ``days`` is the days per move; for
    ``SANDCLOCK`` the one period is each side's starting time."""

    periods: tuple[Period, ...] = ()
    kind: Kind = Kind.CLOCK
    days: int | None = None

    # ------------------------------------------------------------- making
    @classmethod
    def fischer(cls, initial_ms: int, increment_ms: int = 0) -> TimeControl:
        return cls((Period(initial_ms, None, increment_ms),))

    @classmethod
    def correspondence(cls, days: int) -> TimeControl:
        if days < 1:
            raise TimeControlError("days per move must be at least 1",
                                   "los días por jugada deben ser al menos 1")
        return cls((Period(days * DAY_MS),), Kind.CORRESPONDENCE, days)

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """A PGN ``TimeControl`` value (with the delay letters above); raises
        :class:`TimeControlError` saying what is wrong."""
        return _parse(text)

    # ------------------------------------------------------------- reading
    @property
    def timed(self) -> bool:
        return self.kind in (Kind.CLOCK, Kind.CORRESPONDENCE, Kind.SANDCLOCK)

    @property
    def initial_ms(self) -> int:
        """Each side's time before its first move."""
        return self.periods[0].time_ms if self.periods else 0

    @property
    def simple(self) -> bool:
        """One sudden-death period with a Fischer increment (or none)."""
        return self.kind == Kind.CLOCK and len(self.periods) == 1 and \
            self.periods[0].moves is None and self.periods[0].bonus == Bonus.INCREMENT

    def period_of(self, move: int) -> int:
        """The index of the period the side's ``move``-th move (from 1) is made in."""
        start = 1
        for i, p in enumerate(self.periods):
            if p.moves is None or move < start + p.moves or i == len(self.periods) - 1:
                return i
            start += p.moves
        return 0

    def period_start(self, index: int) -> int:
        """The move (from 1) that period ``index`` starts at (its first time round)."""
        return 1 + sum(p.moves or 0 for p in self.periods[:index])

    def moves_to_control(self, made: int) -> int | None:
        """After ``made`` moves of a side: the moves it still owes before its next time
        control (None in a sudden-death period)."""
        if self.kind != Kind.CLOCK:
            return None
        move = made + 1
        i = self.period_of(move)
        p = self.periods[i]
        if p.moves is None:
            return None
        start = self.period_start(i)
        return p.moves - (move - start) % p.moves

    def _ends_period(self, move: int) -> Period | None:
        """The period whose time is added once the side's ``move``-th move is made."""
        i = self.period_of(move)
        p = self.periods[i]
        if p.moves is None:
            return None
        if (move - self.period_start(i) + 1) % p.moves:
            return None
        return self.periods[i + 1] if i + 1 < len(self.periods) else p  # the last repeats

    def bonus_of(self, move: int) -> Period:
        """The period (its bonus and kind) the side's ``move``-th move is made in."""
        return self.periods[self.period_of(move)] if self.periods else Period(0)

    # ------------------------------------------------------------- arithmetic
    def shown(self, left_ms: int, elapsed_ms: int, move: int) -> int:
        """What the clock of the side thinking over its ``move``-th move shows after
        ``elapsed_ms`` of it, from ``left_ms`` at the start: a simple delay is not counted
        down.  Below 0 means the flag fell."""
        if not self.timed:
            return left_ms
        p = self.bonus_of(move)
        if p.bonus == Bonus.DELAY:
            return left_ms - max(0, elapsed_ms - p.bonus_ms)
        return left_ms - elapsed_ms

    def delay_left(self, elapsed_ms: int, move: int) -> int:
        """How much of a simple delay remains after ``elapsed_ms`` of the ``move``-th move
        (0 for any other kind of bonus)."""
        p = self.bonus_of(move)
        if not self.timed or p.bonus != Bonus.DELAY:
            return 0
        return max(0, p.bonus_ms - elapsed_ms)

    def flag_after(self, left_ms: int, move: int) -> int:
        """The thinking time on the ``move``-th move after which the flag falls."""
        p = self.bonus_of(move)
        return left_ms + (p.bonus_ms if p.bonus == Bonus.DELAY else 0)

    def after_move(self, left_ms: int, used_ms: int, move: int, timed: bool = True) -> int:
        """The mover's time once its ``move``-th move is made, having had ``left_ms`` when
        it started thinking and used ``used_ms``.  An untimed move (a side's first move
        online, as on lichess) is charged nothing and earns no bonus, but counts towards
        the period.  The caller has checked the flag (``used_ms`` <= :meth:`flag_after`)."""
        if self.kind == Kind.CORRESPONDENCE:
            return self.initial_ms  # the full days again for the next move
        if not self.timed:
            return left_ms
        after = left_ms
        if timed:
            p = self.bonus_of(move)
            after = self.shown(left_ms, used_ms, move)
            if p.bonus == Bonus.INCREMENT:
                after += p.bonus_ms
            elif p.bonus == Bonus.BRONSTEIN:
                after += min(used_ms, p.bonus_ms)  # never more than the move took
        if self.kind == Kind.CLOCK:
            ends = self._ends_period(move)
            if ends is not None:
                after += ends.time_ms
        return after

    def sandclock_gain(self, used_ms: int) -> int:
        """What the opponent's clock gains while the mover thinks ``used_ms``."""
        return used_ms if self.kind == Kind.SANDCLOCK else 0

    # ------------------------------------------------------------- writing
    def pgn(self) -> str:
        """The PGN ``TimeControl`` value (correspondence: ``1/<seconds>``, one move in the
        days; a reader of the standard sees the per-move limit, not the reset)."""
        if self.kind == Kind.UNKNOWN:
            return "?"
        if self.kind == Kind.UNLIMITED:
            return "-"
        if self.kind == Kind.SANDCLOCK:
            return "*" + _secs(self.initial_ms)
        if self.kind == Kind.CORRESPONDENCE:
            return f"1/{_secs(self.initial_ms)}"
        return ":".join(_period_text(p) for p in self.periods)

    def __str__(self) -> str:
        return self.pgn()

    def label(self, lang: str = "en") -> str:
        """The control in words, English or Spanish ("30 moves in 25 min, then 5 min,
        +5 s per move from move 31")."""
        return _label(self, lang == "es")


NO_CLOCK = TimeControl(kind=Kind.UNLIMITED)

_SECONDS = re.compile(r"\d{1,9}(?:\.\d{1,3})?", re.ASCII)
_BONUS = re.compile(r"(\d{1,9}(?:\.\d{1,3})?)([db]?)", re.ASCII)
_BONUS_LETTER = {"": Bonus.INCREMENT, "d": Bonus.DELAY, "b": Bonus.BRONSTEIN}


def _secs(ms: int) -> str:
    whole, frac = divmod(ms, 1000)
    return str(whole) if not frac else f"{whole}.{frac:03d}".rstrip("0")


def _period_text(p: Period) -> str:
    out = _secs(p.time_ms) if p.moves is None else f"{p.moves}/{_secs(p.time_ms)}"
    if p.bonus_ms or p.bonus != Bonus.INCREMENT:
        letter = {v: k for k, v in _BONUS_LETTER.items()}[p.bonus]
        out += f"+{_secs(p.bonus_ms)}{letter}"
    return out


def _bad(text: str, en: str, es: str) -> TimeControlError:
    return TimeControlError(f"bad time control {text!r}: {en}",
                            f"control de tiempo {text!r} no válido: {es}")


def _ms(text: str, whole: str, what_en: str, what_es: str) -> int:
    if not _SECONDS.fullmatch(text):
        raise _bad(whole, f"{what_en} {text!r} is not a number of seconds",
                   f"{what_es} {text!r} no es un número de segundos")
    whole_s, _, frac = text.partition(".")
    return int(whole_s) * 1000 + int((frac + "00")[:3] or 0)


def _parse_period(part: str, whole: str) -> Period:
    head, plus, bonus_text = part.partition("+")
    bonus_ms, bonus = 0, Bonus.INCREMENT
    if plus:
        m = _BONUS.fullmatch(bonus_text)
        if m is None:
            raise _bad(whole, f"the bonus {bonus_text!r} is not seconds (with d for a "
                       "delay or b for Bronstein)",
                       f"la bonificación {bonus_text!r} no son segundos (con d para una "
                       "demora o b para Bronstein)")
        bonus_ms = _ms(m.group(1), whole, "the bonus", "la bonificación")
        bonus = _BONUS_LETTER[m.group(2)]
    moves_text, slash, time_text = head.partition("/")
    moves = None
    if slash:
        if not moves_text.isascii() or not moves_text.isdigit() or \
                not 1 <= int(moves_text) <= MAX_MOVES:
            raise _bad(whole, f"the moves of a period are 1 to {MAX_MOVES}",
                       f"las jugadas de un periodo son de 1 a {MAX_MOVES}")
        moves = int(moves_text)
    else:
        time_text = moves_text
    time_ms = _ms(time_text, whole, "the time", "el tiempo")
    if time_ms > MAX_PERIOD_MS or bonus_ms > MAX_BONUS_MS:
        raise _bad(whole, "a period is at most 14 days and a bonus at most 10 minutes",
                   "un periodo dura como mucho 14 días y una bonificación 10 minutos")
    return Period(time_ms, moves, bonus_ms, bonus)


def _parse(text: str) -> TimeControl:
    if not isinstance(text, str) or not text.strip():
        raise TimeControlError("empty time control", "control de tiempo vacío")
    t = text.strip()
    if len(t) > 200:
        raise _bad(t[:20] + "...", "too long", "demasiado largo")
    if t == "?":
        return TimeControl(kind=Kind.UNKNOWN)
    if t == "-":
        return NO_CLOCK
    if t.startswith("*"):
        ms = _ms(t[1:], t, "the sandclock", "el reloj de arena")
        if not 0 < ms <= MAX_PERIOD_MS:
            raise _bad(t, "a sandclock runs 1 second to 14 days",
                       "un reloj de arena dura de 1 segundo a 14 días")
        return TimeControl((Period(ms),), Kind.SANDCLOCK)
    parts = t.split(":")
    if len(parts) > MAX_PERIODS:
        raise _bad(t, f"at most {MAX_PERIODS} periods", f"como mucho {MAX_PERIODS} periodos")
    periods = tuple(_parse_period(p, t) for p in parts)
    if any(p.moves is None for p in periods[:-1]):
        raise _bad(t, "only the last period can run to the end of the game",
                   "solo el último periodo puede durar hasta el final de la partida")
    first = periods[0]
    if first.time_ms == 0 and not (first.bonus == Bonus.INCREMENT and first.bonus_ms):
        raise _bad(t, "the first period needs some time", "el primer periodo necesita tiempo")
    return TimeControl(periods)


# ----------------------------------------------------------------- words
def _dur(ms: int, es: bool) -> str:
    """3 days, 2 h, 25 min, 90 s, 0.5 s (0,5 s in Spanish)."""
    if ms >= DAY_MS and ms % DAY_MS == 0:
        n = ms // DAY_MS
        return f"{n} {('día' if n == 1 else 'días') if es else ('day' if n == 1 else 'days')}"
    if ms >= 60_000 and ms % 60_000 == 0:
        minutes = ms // 60_000
        if minutes >= 60 and minutes % 60 == 0:
            return f"{minutes // 60} h"
        return f"{minutes} min"
    text = f"{_secs(ms)} s"
    return text.replace(".", ",") if es else text


def _bonus_words(p: Period, es: bool) -> str:
    d = _dur(p.bonus_ms, es)
    if p.bonus == Bonus.DELAY:
        return f"demora de {d}" if es else f"{d} delay"
    if p.bonus == Bonus.BRONSTEIN:
        return f"demora Bronstein de {d}" if es else f"{d} Bronstein delay"
    return f"+{d} por jugada" if es else f"+{d} per move"


def _period_words(p: Period, es: bool, repeats: bool) -> str:
    d = _dur(p.time_ms, es)
    if p.moves is None:
        return d
    unit = ("jugada" if p.moves == 1 else "jugadas") if es else \
        ("move" if p.moves == 1 else "moves")
    text = f"{p.moves} {unit} {'en' if es else 'in'} {d}"
    if repeats:
        text += ", y así sucesivamente" if es else ", repeated"
    return text


def _label(tc: TimeControl, es: bool) -> str:
    if tc.kind == Kind.UNKNOWN:
        return "ritmo desconocido" if es else "unknown time control"
    if tc.kind == Kind.UNLIMITED:
        return "sin reloj" if es else "no clock"
    if tc.kind == Kind.SANDCLOCK:
        d = _dur(tc.initial_ms, es)
        return f"reloj de arena de {d}" if es else f"{d} sandclock"
    if tc.kind == Kind.CORRESPONDENCE:
        n = tc.days or 1
        return (f"{n} {'día' if n == 1 else 'días'} por jugada" if es
                else f"{n} {'day' if n == 1 else 'days'} per move")
    last = len(tc.periods) - 1
    texts = [_period_words(p, es, i == last) for i, p in enumerate(tc.periods)]
    shared = {(p.bonus_ms, p.bonus) for p in tc.periods}
    if len(shared) == 1:
        p = tc.periods[0]
        out = (", después " if es else ", then ").join(texts)
        if not p.bonus_ms:
            return out
        if len(tc.periods) == 1 and p.bonus == Bonus.INCREMENT:
            return f"{out} + {_dur(p.bonus_ms, es)}"
        return f"{out}, {_bonus_words(p, es)}"
    parts = []
    for i, (p, text) in enumerate(zip(tc.periods, texts, strict=True)):
        if p.bonus_ms:
            start = tc.period_start(i)
            text += (f", {_bonus_words(p, es)} desde la jugada {start}" if es
                     else f", {_bonus_words(p, es)} from move {start}")
        parts.append(text)
    return (", después " if es else ", then ").join(parts)
