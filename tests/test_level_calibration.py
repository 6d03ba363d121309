"""The computer levels' ratings (issues 11 and 14): the Elo fit behind them, the match runner's
per-engine time that the calibration plays at, and the shipped tallies the labels come from."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

from randomchess.analysis import calibration
from randomchess.analysis.calibration import Pairing, expected, fit, level_ratings, ratings_from
from randomchess.analysis.levels import EXTERNAL_LEVELS, MAXIMUM, OWN_LEVELS
from randomchess.analysis.match import EngineSpec, TimeControl, run_match

DATA = Path(calibration.__file__).with_name("data") / "level_ratings.json"


def tallies(true: dict[str, float], pairs: list[tuple[str, str]], n: int,
            draw_rate: float = 0.2) -> list[Pairing]:
    """Exactly the model's expected results of ``n`` games per pairing (draws a fixed share
    of the games, wins and losses making up the expected score)."""
    out = []
    for a, b in pairs:
        e = expected(true[a], true[b])
        draws = draw_rate * n * 2 * min(e, 1 - e)
        wins = n * e - draws / 2
        out.append(Pairing(a, b, round(wins), round(draws), n - round(wins) - round(draws)))
    return out


def test_the_fit_recovers_the_ratings_that_made_the_results() -> None:
    true = {"L1": 700.0, "L2": 950.0, "L3": 1200.0, "L4": 1450.0, "L5": 1750.0,
            "SF1350": 1350.0, "SF1800": 1800.0}
    pairs = [("L1", "L2"), ("L2", "L3"), ("L3", "L4"), ("L3", "SF1350"), ("L4", "SF1350"),
             ("L5", "SF1800"), ("L4", "L5")]
    got = fit(tallies(true, pairs, 20_000), {"SF1350": 1350, "SF1800": 1800})
    assert set(got) == {"L1", "L2", "L3", "L4", "L5"}
    for name, r in got.items():
        assert abs(r.rating - true[name]) < 3, (name, r)
        assert 0 < r.margin < 40
    # The chain's end is the least certain.
    assert got["L1"].margin > got["L3"].margin


def test_one_pairing_against_an_anchor_is_the_elo_formula_with_the_virtual_draw() -> None:
    # 7 wins, 2 draws, 3 losses against a 1500 anchor (8 points), plus one virtual draw: 8.5/13.
    got = fit([Pairing("L6", "SF1500", 7, 2, 3)], {"SF1500": 1500})["L6"]
    assert got.rating == pytest.approx(1500 + 400 * math.log10(8.5 / (13 - 8.5)), abs=0.01)
    assert got.games == 12
    # Without the prior the same games give 8/12.
    bare = fit([Pairing("L6", "SF1500", 7, 2, 3)], {"SF1500": 1500}, prior_draws=0)["L6"]
    assert bare.rating == pytest.approx(1500 + 400 * math.log10(8 / 4), abs=0.01)


def test_the_margin_shrinks_with_the_square_root_of_the_games() -> None:
    small = fit([Pairing("A", "X", 10, 0, 10)], {"X": 1500}, prior_draws=0)["A"]
    large = fit([Pairing("A", "X", 40, 0, 40)], {"X": 1500}, prior_draws=0)["A"]
    assert small.rating == pytest.approx(1500) and large.rating == pytest.approx(1500)
    assert small.margin / large.margin == pytest.approx(2, rel=1e-6)
    # 20 games at 50 %: sd of the score 0.5 / sqrt(20), Elo slope 400 / (ln 10 * 0.25).
    assert small.margin == pytest.approx(1.96 * 0.5 / math.sqrt(20) * 1600 / math.log(10),
                                         rel=1e-6)


def test_a_clean_sweep_gives_a_finite_figure_above_the_anchor() -> None:
    got = fit([Pairing("L11", "SF2850", 6, 0, 0)], {"SF2850": 2850})["L11"]
    assert 2850 + 300 < got.rating < 2850 + 600
    assert math.isfinite(got.margin)


def test_a_player_not_connected_to_an_anchor_is_refused() -> None:
    with pytest.raises(ValueError, match="L2"):
        fit([Pairing("L1", "SF1350", 1, 0, 1), Pairing("L2", "L3", 1, 0, 1)],
            {"SF1350": 1350})


# ----------------------------------------------------------- the match runner's timing
FAKE_ENGINE = r"""
import sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    line = line.strip()
    if line == "uci":
        print("id name fake"); print("uciok", flush=True)
    elif line == "isready":
        print("readyok", flush=True)
    elif line.startswith("go"):
        log.write(line + "\n"); log.flush()
        print("bestmove 0000", flush=True)
    elif line == "quit":
        break
"""


def test_each_engine_may_have_its_own_time_per_move(tmp_path: Path) -> None:
    script = tmp_path / "fake.py"
    script.write_text(FAKE_ENGINE)
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    a = EngineSpec.parse(f"{sys.executable} {script} {logs[0]}")
    b = EngineSpec.parse(f"{sys.executable} {script} {logs[1]}")
    a.name, b.name = "A", "B"
    a.movetime_ms = 777
    # The fake's "0000" is illegal: each game ends at White's first move, after one "go".
    score, records = run_match(a, b, "chess960", 2, TimeControl(0, 0, 20), seed=1)
    assert score.games == 2 and all("illegal move" in r.termination for r in records)
    assert logs[0].read_text().splitlines() == ["go movetime 777"]
    assert logs[1].read_text().splitlines() == ["go movetime 20"]


# ----------------------------------------------------------------- the shipped tallies
def test_every_level_has_a_measured_rating_from_the_shipped_games() -> None:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    ratings = level_ratings()
    assert sorted(ratings) == [*OWN_LEVELS, *EXTERNAL_LEVELS]
    for level, r in ratings.items():
        assert r.games >= 4, (level, r)
        assert 0 < r.margin < 800, (level, r)
    # The labels are what the recorded games say: refit from the file itself.
    assert ratings_from(data) == ratings
    assert data["conditions"]["variant"] == "chess960"
    assert data["conditions"]["level_movetime_ms"] == 1500
    # Anchors are Stockfish at a UCI_Elo it offers (1350..2850).
    anchors = [p["anchor"] for p in data["players"].values() if p.get("anchor") is not None]
    assert anchors and all(1350 <= a <= 2850 for a in anchors)
    # The players named as levels are played as the server plays those levels.
    for p in data["players"].values():
        if p.get("level") in OWN_LEVELS:
            assert p["engine"] == "self" and p["options"] == {"Skill Level": str(p["level"])}
        elif p.get("level") is not None:
            spec = EXTERNAL_LEVELS[p["level"]]
            assert p["engine"] == "stockfish"
            assert p["options"].get("UCI_Elo") == (None if spec.elo is None else str(spec.elo))


def test_stronger_levels_are_rated_higher() -> None:
    # Our levels climb one by one, and so do the external ones (levels 8 and 9 are not
    # ordered: docs/engine.md says why).
    ratings = level_ratings()
    for ladder in (OWN_LEVELS, (*EXTERNAL_LEVELS,)):
        figures = [ratings[level].rating for level in ladder]
        assert figures == sorted(set(figures)), (ladder, figures)
    assert max(EXTERNAL_LEVELS) == MAXIMUM
