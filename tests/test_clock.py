"""The clock arithmetic (randomchess.clock, issue 34): one test group per kind of control."""

from __future__ import annotations

import chess.pgn
import pytest

from randomchess.clock import (
    Bonus,
    Kind,
    Period,
    TimeControl,
    TimeControlError,
)

MIN = 60_000
S = 1000


def play(tc: TimeControl, uses: list[int], timed_from: int = 1) -> list[int]:
    """One side's clock after each move, thinking ``uses[i]`` ms on move i + 1; moves before
    ``timed_from`` are untimed."""
    left, out = tc.initial_ms, []
    for i, used in enumerate(uses):
        move = i + 1
        assert used <= tc.flag_after(left, move)
        left = tc.after_move(left, used, move, timed=move >= timed_from)
        out.append(left)
    return out


# ----------------------------------------------------------------- parsing and writing
@pytest.mark.parametrize("text", [
    "40/5400+30:1800+30", "300+2", "-", "?", "*60", "30/1500:300+5", "40/9000", "300",
    "40/7200:20/3600:900+30", "300+3d", "300+3b", "0+1", "0.5+0.25", "1/259200",
    "40/5400+5d:1800+5b"])
def test_pgn_round_trips(text: str) -> None:
    assert TimeControl.parse(text).pgn() == text


def test_parse_reads_periods() -> None:
    tc = TimeControl.parse("30/1500:300+5")
    assert tc.periods == (Period(1_500_000, 30), Period(300_000, None, 5_000))
    assert tc.kind == Kind.CLOCK and tc.initial_ms == 25 * MIN
    assert TimeControl.parse("300+3d").periods[0].bonus == Bonus.DELAY
    assert TimeControl.parse("300+3b").periods[0].bonus == Bonus.BRONSTEIN
    assert TimeControl.parse("-").kind == Kind.UNLIMITED
    assert TimeControl.parse("?").kind == Kind.UNKNOWN
    sand = TimeControl.parse("*60")
    assert sand.kind == Kind.SANDCLOCK and sand.initial_ms == MIN


@pytest.mark.parametrize("text", [
    "40/5400+30:1800+30", "300+2", "30/1500:300+5", "40/9000", "300+3d", "900",
    "40/7200:20/3600:900+30"])
def test_python_chess_reads_what_we_write_the_same(text: str) -> None:
    ours = TimeControl.parse(text)
    theirs = chess.pgn.parse_time_control(ours.pgn())
    assert len(theirs.parts) == len(ours.periods)
    for part, p in zip(theirs.parts, ours.periods, strict=True):
        assert part.time * 1000 == p.time_ms and part.moves == (p.moves or 0)
        if p.bonus == Bonus.DELAY:
            assert part.delay * 1000 == p.bonus_ms and part.increment == 0
        else:
            assert part.increment * 1000 == p.bonus_ms and part.delay == 0


def test_python_chess_refuses_bronstein_rather_than_misreading_it() -> None:
    with pytest.raises(ValueError):
        chess.pgn.parse_time_control(TimeControl.parse("300+3b").pgn())


@pytest.mark.parametrize(("text", "words"), [
    ("", "empty"), ("abc", "not a number"), ("300:40/60", "only the last period"),
    ("0/300", "moves of a period"), ("300+x", "bonus"), ("0", "needs some time"),
    ("300+2e", "bonus"), ("٣00", "not a number"), ("1:" * 8 + "1", "at most 8"),
    ("*0", "sandclock"), ("300+601", "at most 10 minutes"), ("40/60/60", "not a number")])
def test_bad_controls_say_why_in_both_languages(text: str, words: str) -> None:
    with pytest.raises(TimeControlError) as e:
        TimeControl.parse(text)
    assert words in str(e.value)
    assert e.value.es and e.value.es != str(e.value)


def test_labels_in_english_and_spanish() -> None:
    tc = TimeControl.parse("30/1500:300+5")
    assert tc.label() == "30 moves in 25 min, then 5 min, +5 s per move from move 31"
    assert tc.label("es") == ("30 jugadas en 25 min, después 5 min, +5 s por jugada desde "
                              "la jugada 31")
    assert TimeControl.parse("300+2").label() == "5 min + 2 s"
    assert TimeControl.parse("300+3d").label("es") == "5 min, demora de 3 s"
    assert TimeControl.parse("300+3b").label() == "5 min, 3 s Bronstein delay"
    assert TimeControl.parse("40/5400+30:1800+30").label() == \
        "40 moves in 90 min, then 30 min, +30 s per move"
    assert TimeControl.correspondence(3).label("es") == "3 días por jugada"
    assert TimeControl.parse("-").label() == "no clock"
    assert TimeControl.parse("0.5+0").label("es") == "0,5 s"


# ----------------------------------------------------------------- Fischer increment
def test_fischer_increment_after_every_move() -> None:
    tc = TimeControl.fischer(5 * MIN, 3 * S)
    assert play(tc, [10 * S, 0, 2 * S]) == [5 * MIN - 7 * S, 5 * MIN - 4 * S, 5 * MIN - 3 * S]
    assert tc.flag_after(1000, 7) == 1000


def test_untimed_first_move_earns_no_increment_but_counts() -> None:
    tc = TimeControl.parse("1/60:60+1")
    # Move 1 is untimed (online: the clock starts after both first moves) yet ends period 1.
    assert tc.after_move(60 * S, 0, 1, timed=False) == 120 * S
    assert TimeControl.fischer(MIN, 5 * S).after_move(MIN, 0, 1, timed=False) == MIN


# ----------------------------------------------------------------- multi-period
def test_multi_period_adds_the_next_period_exactly_at_the_move_count() -> None:
    tc = TimeControl.parse("30/1500:300+5")
    clocks = play(tc, [10 * S] * 32)
    assert clocks[28] == 1_500_000 - 29 * 10 * S  # after move 29: period 1 only
    assert clocks[29] == 1_500_000 - 30 * 10 * S + 300_000  # move 30 made: +5 min
    # Increment only from move 31 on.
    assert clocks[30] == clocks[29] - 10 * S + 5 * S
    assert clocks[31] == clocks[30] - 5 * S
    assert [tc.period_of(n) for n in (1, 30, 31, 100)] == [0, 0, 1, 1]
    assert tc.moves_to_control(0) == 30 and tc.moves_to_control(29) == 1
    assert tc.moves_to_control(30) is None


def test_increment_only_from_the_given_move() -> None:
    tc = TimeControl.parse("30/1500:300+5")
    clocks = play(tc, [0] * 31)
    assert clocks[:30] == [1_500_000] * 29 + [1_800_000]
    assert clocks[30] == 1_805_000


def test_per_period_increments() -> None:
    tc = TimeControl.parse("40/5400+30:1800+30")
    clocks = play(tc, [30 * S] * 41)
    assert clocks[39] == 5_400_000 + 1_800_000  # every move nets zero, then +30 min
    assert clocks[40] == clocks[39]


def test_three_periods_and_a_repeating_last_one() -> None:
    tc = TimeControl.parse("40/7200:20/3600:900+30")
    clocks = play(tc, [0] * 61)
    assert clocks[38] == 7_200_000 and clocks[39] == 10_800_000
    assert clocks[58] == 10_800_000 and clocks[59] == 11_700_000
    assert clocks[60] == 11_730_000
    repeating = TimeControl.parse("2/60")
    assert play(repeating, [10 * S] * 6) == [50 * S, 100 * S, 90 * S, 140 * S, 130 * S,
                                             180 * S]
    assert repeating.moves_to_control(3) == 1 and repeating.moves_to_control(4) == 2


def test_unused_time_carries_over_into_the_next_period() -> None:
    tc = TimeControl.parse("2/60:30")
    assert play(tc, [20 * S, 20 * S, 5 * S]) == [40 * S, 50 * S, 45 * S]


# ----------------------------------------------------------------- delays
@pytest.mark.parametrize("kind", ["d", "b"])
def test_a_delay_never_adds_time(kind: str) -> None:
    tc = TimeControl.parse(f"60+5{kind}")
    left = 60 * S
    for used in (0, 1 * S, 5 * S, 4_999, 7 * S, 30 * S):
        after = tc.after_move(left, used, 3)
        assert after <= left
        assert after == left - max(0, used - 5 * S)


def test_bronstein_gives_back_at_most_the_delay() -> None:
    tc = TimeControl.parse("60+5b")
    assert tc.after_move(60 * S, 2 * S, 1) == 60 * S  # gives back the 2 s used
    assert tc.after_move(60 * S, 9 * S, 1) == 56 * S  # at most 5 s back
    # The clock counts down during the move: the flag falls at the time left.
    assert tc.shown(60 * S, 3 * S, 1) == 57 * S and tc.flag_after(2 * S, 1) == 2 * S
    assert tc.delay_left(1 * S, 1) == 0


def test_simple_delay_waits_before_counting_down() -> None:
    tc = TimeControl.parse("60+5d")
    assert tc.shown(60 * S, 3 * S, 1) == 60 * S  # still in the delay
    assert tc.shown(60 * S, 8 * S, 1) == 57 * S
    assert tc.delay_left(3 * S, 1) == 2 * S and tc.delay_left(8 * S, 1) == 0
    assert tc.flag_after(2 * S, 1) == 7 * S  # the delay first, then the time left
    assert tc.after_move(60 * S, 3 * S, 1) == 60 * S


def test_delay_in_one_period_only() -> None:
    tc = TimeControl.parse("1/60:60+5d")
    assert tc.shown(60 * S, 3 * S, 1) == 57 * S  # move 1: no delay
    assert tc.shown(60 * S, 3 * S, 2) == 60 * S


# ----------------------------------------------------------------- other kinds
def test_correspondence_gives_the_days_again() -> None:
    tc = TimeControl.correspondence(3)
    assert tc.after_move(1000, 999, 5) == 3 * 86_400_000
    assert tc.pgn() == "1/259200" and tc.label() == "3 days per move"
    with pytest.raises(TimeControlError):
        TimeControl.correspondence(0)


def test_sandclock_moves_the_time_to_the_opponent() -> None:
    tc = TimeControl.parse("*60")
    assert tc.after_move(60 * S, 10 * S, 1) == 50 * S
    assert tc.sandclock_gain(10 * S) == 10 * S
    assert TimeControl.fischer(MIN).sandclock_gain(10 * S) == 0


def test_no_clock_never_runs() -> None:
    tc = TimeControl.parse("-")
    assert not tc.timed and tc.shown(0, 10 * S, 1) == 0 and tc.after_move(0, 10, 1) == 0
