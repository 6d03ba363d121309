"""The knock-out module (issue 34), pure: bracket order and byes, match decisions through
stages and the Armageddon, colours, bids, setup units and their derivation."""

from __future__ import annotations

from fractions import Fraction

import pytest

from randomchess.startpos import SetupPool, round_setup, round_setups
from randomchess.tournament.knockout import (
    Bid,
    Game,
    KnockoutError,
    bracket_order,
    bracket_size,
    build,
    check_result,
    colours,
    derive_setup,
    make_format,
    parse_armageddon,
    parse_bid,
    parse_stage,
    rounds_needed,
    setup_board,
)
from randomchess.tournament.model import Event

SALT = bytes(range(32))


def _event(**kw: object) -> Event:
    base: dict[str, object] = dict(
        id="x", name="Example Open 2025", variant="chess960", system="knockout", rounds=3,
        time_control="900+10", tiebreaks=(), setup_policy="round", mini_match=False,
        exclude_standard=False, bishops="any", no_repeat=False, commitment="",
        status="running")
    base.update(kw)
    return Event(**base)  # type: ignore[arg-type]


FMT = make_format(2, "900+10", ["2:600+5", "2:300+3"], "bid:300+2")


def test_the_standard_bracket_order() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    assert [bracket_size(n) for n in (2, 3, 5, 8, 9)] == [2, 4, 8, 8, 16]
    assert rounds_needed(8) == 3 and rounds_needed(5) == 3


def test_the_top_seeds_get_the_byes() -> None:
    b = build(FMT, 5)
    first = b.rounds[0]
    assert [(m.top, m.bottom, m.status, m.winner) for m in first] == [
        (1, None, "bye", 1), (4, 5, "playing", None), (2, None, "bye", 2),
        (3, None, "bye", 3)]
    # the bye winners meet in round 2 as soon as they are known
    assert (b.rounds[1][1].top, b.rounds[1][1].bottom, b.rounds[1][1].status) == \
        (2, 3, "playing")
    assert b.rounds[1][0].status == "waiting" and b.rounds[1][0].top == 1
    with pytest.raises(KnockoutError):
        bracket_size(1)


def test_slots_per_match_and_per_pair() -> None:
    per_match = make_format(4, "900", ["2:600"], "fixed:300,240")
    assert [(s.game, s.stage, s.unit) for s in per_match.slots()] == [
        (1, 0, 1), (2, 0, 1), (3, 0, 1), (4, 0, 1), (5, 1, 2), (6, 1, 2), (7, 2, 3)]
    per_pair = make_format(4, "900", ["2:600"], "fixed:300,240", setups="pair")
    assert [(s.game, s.unit) for s in per_pair.slots()] == [
        (1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3), (7, 4)]
    assert per_pair.slots()[-1].armageddon and per_pair.slots()[4].time_control == "600"


def _games(rnd: int, match: int, top: int, bottom: int, results: list[str]) -> list[Game]:
    out = []
    for i, r in enumerate(results, 1):
        w, b = (top, bottom) if i % 2 else (bottom, top)
        out.append(Game(rnd, match, i, w, b, r))
    return out


def test_a_match_won_in_its_games_a_tie_break_and_an_armageddon() -> None:
    # 1 v 8 decided 1.5-0.5; 4 v 5 tied, won in the first tie-break stage; 2 v 7 tied through
    # both stages, Armageddon drawn: Black wins the match
    games = _games(1, 1, 1, 8, ["1-0", "1/2-1/2"])
    games += _games(1, 2, 4, 5, ["1-0", "1-0", "0-1", "1/2-1/2"])
    games += _games(1, 3, 2, 7, ["1/2-1/2"] * 6)
    bids = [Bid(1, 3, 2, 200), Bid(1, 3, 7, 180)]
    games.append(Game(1, 3, 7, 2, 7, "1/2-1/2"))
    b = build(FMT, 8, games, bids)
    m1, m2, m3, m4 = b.rounds[0]
    assert (m1.status, m1.winner, m1.score(1), m1.score(8)) == ("decided", 1, Fraction(3, 2),
                                                                 Fraction(1, 2))
    # 4 v 5: 1-0 (4 White), 1-0 (5 White): 1-1; tie-break 0-1 (4 White: 5 wins), draw
    assert (m2.winner, m2.loser) == (5, 4)
    assert m3.winner == 7 and m3.status == "decided"
    assert m4.status == "playing" and m4.next is not None and m4.next.game == 1
    assert b.undecided(1) == [m4]
    assert b.rounds[1][0].top == 1 and b.rounds[1][0].bottom == 5
    assert b.rounds[1][1].status == "waiting"


def test_a_stage_ends_when_one_player_cannot_be_caught() -> None:
    fmt = make_format(4, "900", [], "fixed:300,240")
    b = build(fmt, 2, _games(1, 1, 1, 2, ["0-1", "1-0", "0-1"]))
    # 2 leads 3-0 after three games: game 4 is not played
    assert b.match(1, 1).winner == 2 and b.champion == 2
    b = build(fmt, 2, _games(1, 1, 1, 2, ["0-1", "1/2-1/2", "1-0"]))
    assert b.match(1, 1).winner is None and b.match(1, 1).next.game == 4  # type: ignore[union-attr]


def test_the_armageddon_waits_for_the_bids_and_the_lower_bid_takes_black() -> None:
    fmt = make_format(2, "900", [], "bid:300")
    games = _games(1, 1, 1, 2, ["1-0", "1-0"])  # 1-1
    m = build(fmt, 2, games).match(1, 1)
    assert m.status == "bids" and m.next is not None and m.next.armageddon
    with pytest.raises(KnockoutError, match="bids"):
        check_result(m, 3, "1-0")
    with pytest.raises(KnockoutError, match="bids"):
        colours(fmt, m.next, 1, 2, bids=[Bid(1, 1, 1, 100)])
    assert colours(fmt, m.next, 1, 2, bids=[Bid(1, 1, 1, 100), Bid(1, 1, 2, 120)]) == (2, 1)
    assert colours(fmt, m.next, 1, 2, bids=[Bid(1, 1, 1, 130), Bid(1, 1, 2, 120)]) == (1, 2)
    # equal bids: the better seed (1) takes Black
    assert colours(fmt, m.next, 1, 2, bids=[Bid(1, 1, 1, 120), Bid(1, 1, 2, 120)]) == (2, 1)
    assert fmt.armageddon is not None and fmt.armageddon.black_control(120) == "120"
    assert make_format(2, "", [], "bid:300+2").armageddon.black_control(95) == "95+2"  # type: ignore[union-attr]
    bids = [Bid(1, 1, 1, 100), Bid(1, 1, 2, 120)]
    m = build(fmt, 2, games, bids).match(1, 1)
    assert m.status == "playing"
    with pytest.raises(KnockoutError, match="double forfeit"):
        check_result(m, 3, "--")
    assert check_result(m, 3, "1/2-1/2").armageddon
    # White (2) wins the Armageddon; a draw would have given the match to Black (1)
    assert build(fmt, 2, [*games, Game(1, 1, 3, 2, 1, "1-0")], bids).champion == 2
    assert build(fmt, 2, [*games, Game(1, 1, 3, 2, 1, "1/2-1/2")], bids).champion == 1


def test_colours_alternate_from_the_initial_colour() -> None:
    slots = FMT.slots()
    assert [colours(FMT, s, 3, 6) for s in slots[:4]] == [(3, 6), (6, 3), (3, 6), (6, 3)]
    assert colours(FMT, slots[0], 3, 6, initial="black") == (6, 3)
    fixed = make_format(2, "900", [], "fixed:300,240")
    assert colours(fixed, fixed.slots()[2], 3, 6) == (3, 6)  # game 3 continues the turn


def test_results_out_of_order_are_refused() -> None:
    b = build(FMT, 8, _games(1, 1, 1, 8, ["1-0", "0-1"]))  # 1 wins both
    with pytest.raises(KnockoutError, match="decided already") as e:
        check_result(b.match(1, 1), 3, "1-0")
    assert "ya está decidido" in (e.value.es or "")
    with pytest.raises(KnockoutError, match="plays game 1 next"):
        check_result(b.match(1, 2), 2, "1-0")
    with pytest.raises(KnockoutError, match="waits for its players"):
        check_result(b.match(2, 2), 1, "1-0")
    with pytest.raises(KnockoutError, match="matches 1-4"):
        b.match(1, 5)
    with pytest.raises(KnockoutError, match="rounds 1-3"):
        b.match(4, 1)


@pytest.mark.parametrize(("text", "seconds"), [("240", 240), ("4:00", 240), ("0", 0),
                                                ("300", 300), (" 3:05 ", 185), ("+12", 12),
                                                ("-0", 0)])
def test_bids(text: str, seconds: int) -> None:
    assert parse_bid(text, 300) == seconds


@pytest.mark.parametrize(("text", "en", "es"), [
    ("-5", "cannot be negative", "no puede ser negativa"),
    ("-1:00", "cannot be negative", "no puede ser negativa"),
    ("301", "over the base time", "supera el tiempo base"),
    ("5:01", "over the base time", "supera el tiempo base"),
    ("abc", "is a number of seconds", "es un número de segundos"),
    ("", "is a number of seconds", "es un número de segundos"),
    ("nan", "is a number of seconds", "es un número de segundos"),
    ("inf", "is a number of seconds", "es un número de segundos"),
    ("1e3", "is a number of seconds", "es un número de segundos"),
    ("2.5", "whole seconds", "segundos enteros"),
    ("1:75", "00-59", "de 00 a 59"),
])
def test_bad_bids_are_refused_in_both_languages(text: str, en: str, es: str) -> None:
    with pytest.raises(KnockoutError, match=en) as e:
        parse_bid(text, 300)
    assert es in (e.value.es or "")


def test_bad_formats_are_refused() -> None:
    for bad, words in [
        (lambda: make_format(0), "1-20 games"),
        (lambda: make_format(2, "", [], None), "needs an Armageddon"),
        (lambda: make_format(2, "", ["2"], "bid:300"), "GAMES:TIME_CONTROL"),
        (lambda: make_format(2, "", ["0:300"], "bid:300"), "1-20 games"),
        (lambda: make_format(2, "", ["2:a b"], "bid:300"), "without spaces"),
        (lambda: make_format(2, "", [], "bid:five"), "base time"),
        (lambda: make_format(2, "", [], "bid:0"), "base time"),
        (lambda: make_format(2, "", [], "sudden"), "fixed:WHITE,BLACK"),
        (lambda: make_format(2, "", [], "bid:300", setups="game"), "'match' or 'pair'"),
        (lambda: make_format(2, "", [], "bid:300", seeding="age"), "'rating' or 'entered'"),
        (lambda: make_format(2, "", ["1:60"] * 9, "bid:300"), "at most 8"),
    ]:
        with pytest.raises(KnockoutError, match=words) as e:
            bad()
        assert e.value.es
    assert parse_stage(" 2:600+5 ").spec == "2:600+5"
    assert parse_armageddon("fixed:300,240").spec == "fixed:300,240"
    assert parse_armageddon("bid:300+2").base_seconds == 300


def test_one_setup_of_the_draw_is_the_board_of_round_setups() -> None:
    pool = SetupPool("mrc", "any", True)
    every = round_setups(SALT, "Example Open 2025", 2, 3, pool, per_board=True)
    assert [round_setup(SALT, "Example Open 2025", 2, b, pool).number for b in (1, 2, 3)] \
        == [s.number for s in every] == [1517, 6474, 11624]  # docs/shuffler.md §6
    assert round_setup(SALT, "Example Open 2025", 1, 0, SetupPool("chess960")).number == 275


def test_match_setups_are_draws_of_board_100_match_plus_unit() -> None:
    e = _event()
    pool = SetupPool("chess960")
    s = derive_setup(e, SALT, 3, 2, 4)
    assert setup_board(2, 4) == 204
    assert s is not None
    assert s.number == round_setup(SALT, e.name, 3, 204, pool).number
    # no repeats: the used setups leave the pool
    again = derive_setup(_event(no_repeat=True), SALT, 3, 2, 4, used=[s.number])
    assert again is not None and again.number != s.number
    assert derive_setup(_event(variant="chess"), SALT, 1, 1, 1) is None


def test_the_knockout_test_vectors_of_docs_shuffler_md() -> None:
    """docs/shuffler.md §6's knock-out vectors, by the library and by the document's own
    independent sketch (§7)."""
    import re
    from pathlib import Path
    from typing import Any

    docs = Path(__file__).resolve().parents[1] / "docs" / "shuffler.md"
    text = docs.read_text(encoding="utf-8")
    scope: dict[str, Any] = {}
    exec(compile(re.findall(r"```python\n(.*?)```", text, re.S)[0], "shuffler.md", "exec"),
         scope)
    vectors = [("chess960", 1, 1, 1, 635, "RNKQBRNB"), ("chess960", 1, 2, 1, 218, "NQRKBBNR"),
               ("chess960", 1, 2, 2, 654, "RNKRQBBN"), ("chess960", 1, 2, 3, 500, "RBBQNKNR"),
               ("chess960", 3, 1, 3, 791, "RQBKNRNB"), ("mrc", 2, 1, 1, 8902, "RBNQBKNRM")]
    for variant, rnd, match, unit, number, rank in vectors:
        assert f"**{number}** `{rank}`" in text
        s = derive_setup(_event(variant=variant), SALT, rnd, match, unit)
        assert s is not None and (s.number, s.rank) == (number, rank)
        numbers, tag = scope["pool"](variant)
        assert scope["round_number"](SALT, "Example Open 2025", rnd, setup_board(match, unit),
                                     numbers, tag) == number
