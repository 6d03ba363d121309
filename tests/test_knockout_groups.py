"""Issue 34's group stage -> knock-out: two closed round-robin groups whose top two seed a
knock-out by their standings (``tournament knockout-from``, ``POST /api/tournaments/
knockout/from-groups`` in test_server_knockout_online.py); the cross-over bracket, and the
refusals (group still running, a knock-out as a group, a cut inside a shared place, too few
players, one name in two groups), in English and Spanish, each creating nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from randomchess.cli import main
from randomchess.tournament import TournamentStore
from randomchess.tournament.knockout_groups import GroupsError, qualifiers
from randomchess.tournament.knockout_store import KnockoutStore

GROUP_A = [("Ann", 2700), ("Bea", 2600), ("Cal", 2500), ("Dot", 2400)]
GROUP_B = [("Eli", 2650), ("Fin", 2550), ("Gil", 2450), ("Hoy", 2350)]


def _group(store: TournamentStore, name: str, players: list[tuple[str, int]],
           decisive: bool = True, close: bool = True) -> str:
    """A round robin where the better seed always wins (places 1..4 in seed order), or
    where every game is drawn (everyone shares place 1)."""
    eid = store.create(name, system="rr").event.id
    for player, rating in players:
        store.add_player(eid, player, rating)
    store.start(eid)
    t = store.load(eid)
    for rnd in range(1, t.event.rounds + 1):
        for b in store.pair(eid):
            if b.black is None:
                continue
            result = ("1-0" if b.white < b.black else "0-1") if decisive else "1/2-1/2"
            store.set_result(eid, rnd, b.board, result)
    if close:
        store.close(eid)
    return eid


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'groups.sqlite3'}"


def _cli(db: str, *args: str, ok: bool = True, lang: str = "en") -> str:
    result = CliRunner().invoke(main, ["tournament", "--db", db, "--lang", lang, *args])
    assert (result.exit_code == 0) == ok, (args, result.output, result.exception)
    return result.output


def test_two_groups_seed_a_cross_over_bracket_through_the_cli(db: str) -> None:
    store = TournamentStore(db)
    store.migrate()
    _group(store, "Group A", GROUP_A)
    _group(store, "Group B", GROUP_B)
    out = _cli(db, "knockout-from", "Final KO", "--group", "Group A", "--group", "Group B",
               "--top", "2", "--games", "2", "--tiebreak", "2:300+2",
               "--armageddon", "fixed:300,240", "--time-control", "900+10")
    assert "format=knockout" in out and "seeding=entered" in out
    for line in ("1. Ann (Group A, place 1)", "2. Eli (Group B, place 1)",
                 "3. Bea (Group A, place 2)", "4. Fin (Group B, place 2)"):
        assert line in out
    _cli(db, "start", "Final KO")
    _cli(db, "pair", "Final KO")
    ko = KnockoutStore(store).load(store.resolve("Final KO"))
    names = [(ko.name(m.top), ko.name(m.bottom)) for m in ko.bracket.rounds[0]]
    assert names == [("Ann", "Fin"), ("Eli", "Bea")]  # the groups cross in round 1
    assert ko.format.time_control == "900+10" and ko.format.armageddon is not None
    assert ko.event.variant == "chess960"
    log = [(e.action, e.reason) for e in ko.tournament.log if e.action == "qualified"]
    assert len(log) == 4 and log[0][1] is not None and log[0][1].startswith("Group A place 1")
    es = _cli(db, "knockout-from", "KO 2", "--group", "Group A", "--group", "Group B",
              "--top", "1", "--armageddon", "bid:300", lang="es")
    assert "1. Ann (Group A, puesto 1)" in es and "2. Eli (Group B, puesto 1)" in es
    store.dispose()


def test_bad_groups_are_refused_and_create_nothing(db: str) -> None:
    store = TournamentStore(db)
    store.migrate()
    a = _group(store, "Group A", GROUP_A)
    running = _group(store, "Running", [("Ivo", 2000), ("Jon", 1900)], close=False)
    level = _group(store, "Level", [("Kai", 2000), ("Lux", 1900), ("Mo", 1800), ("Ned", 1700)],
                   decisive=False)
    _group(store, "Twin", [("Ann", 2000), ("Oz", 1900)])
    before = len(store.events())
    cases = [
        (["--group", "Running", "--top", "1", "--group", "Group A"], "is not closed",
         "no está cerrado"),
        (["--group", "Level", "--top", "2"], "falls inside a shared place",
         "cae en un puesto compartido"),
        (["--group", "Group A", "--top", "5"], "fewer than the top 5", "menos que los 5"),
        (["--group", "Group A", "--group", "Twin", "--top", "1"], "'Ann' qualifies from",
         "'Ann' se clasifica en"),
        (["--group", "Group A", "--top", "2", "--armageddon", "bid:-3"],
         "bidding Armageddon's base time", "tiempo base"),
        (["--group", "Nowhere", "--top", "2"], "no event with id or name", "ningún torneo"),
    ]
    for args, en, es in cases:
        extra = [] if "--armageddon" in args else ["--armageddon", "bid:300"]
        assert en in _cli(db, "knockout-from", "KO", *args, *extra, ok=False)
        assert es in _cli(db, "knockout-from", "KO", *args, *extra, ok=False, lang="es")
    ko = KnockoutStore(store).create("A KO", 2, armageddon="bid:300")
    with pytest.raises(GroupsError, match="is a knock-out"):
        qualifiers([store.load(ko.event.id)], 2)
    with pytest.raises(GroupsError, match="at most 256 players"):
        qualifiers([store.load(a)] * 3, 100)
    with pytest.raises(GroupsError, match="named twice"):
        qualifiers([store.load(a), store.load(a)], 1)
    assert len(store.events()) == before + 1  # only "A KO"
    del running, level
    store.dispose()


def test_a_swiss_seeds_the_knockout_by_its_standings_and_tiebreaks(db: str) -> None:
    """One Swiss as the group: its top 4 by the standings (points, then its tiebreaks) are
    seeds 1-4, in that order."""
    from randomchess.tournament.tiebreaks import Calculator

    store = TournamentStore(db)
    store.migrate()
    eid = store.create("Open", rounds=3).event.id
    for i in range(8):
        store.add_player(eid, f"P{i + 1}", 2400 - 50 * i)
    store.start(eid)
    for rnd in range(1, 4):
        for b in store.pair(eid):
            if b.black is not None:  # the better seed wins, but board 2 of round 3 is drawn
                draw = rnd == 3 and b.board == 2
                store.set_result(eid, rnd, b.board, "1/2" if draw else
                                 "1-0" if b.white < b.black else "0-1")
    store.close(eid)
    order = [s.number for s in Calculator(store.load(eid)).standings()]
    created, seeds = KnockoutStore(store).from_groups(["Open"], 4, "Open KO", 2,
                                                      armageddon="bid:300")
    t = store.load(eid)
    assert [q.player.name for q in seeds] == [t.player(n).name for n in order[:4]]
    assert [q.place for q in seeds] == [1, 2, 3, 4]
    ko = KnockoutStore(store).start(created.event.id)
    assert [p.name for p in sorted(ko.tournament.players, key=lambda p: p.number)] == \
        [q.player.name for q in seeds]  # seeding "entered": the order of qualification
    store.dispose()
