"""Setup evaluation (issue 17's batch, issue 15's evaluation band): the data set, the
resumable CLI batch, the shipped files, and a tournament drawn only from balanced setups."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from randomchess.analysis import EngineConfig
from randomchess.analysis.setup_eval import (
    EvaluationSet,
    SetupEvaluation,
    SetupEvaluationError,
    evaluate_setup,
    parse_band,
    shipped,
)
from randomchess.cli import main
from randomchess.startpos import setup_from_number
from randomchess.tournament import TournamentStore
from randomchess.tournament.errors import TournamentError
from randomchess.tournament.setups import outside_band


def _set(scores: dict[int, int], variant: str = "chess960") -> EvaluationSet:
    s = EvaluationSet(variant, "test", 1)
    for n, cp in scores.items():
        s.add(SetupEvaluation(n, cp, None, "e2e4"))
    return s


def test_a_set_round_trips_and_its_digest_names_its_scores() -> None:
    s = _set({0: 12, 1: -40, 518: 35})
    again = EvaluationSet.from_json(s.to_json())
    assert again.items == s.items and again.digest() == s.digest()
    changed = _set({0: 12, 1: -41, 518: 35})
    assert changed.digest() != s.digest()
    # A file whose scores were edited after export is refused.
    data = json.loads(s.to_json())
    data["evaluations"][0][1] = 99
    with pytest.raises(SetupEvaluationError, match="digest"):
        EvaluationSet.from_json(json.dumps(data))


@pytest.mark.parametrize("text", ["", "{}", '{"format": "other"}', "[1,2]",
                                  '{"format": "randomchess-setup-evaluations/1", "variant": '
                                  '"chess960", "engine": "x", "depth": 1, "evaluations": '
                                  '[[960, 1, null, "e2e4"]]}'])
def test_malformed_files_get_a_typed_error(text: str) -> None:
    with pytest.raises(SetupEvaluationError):
        EvaluationSet.from_json(text)


def test_band_summary_and_ranking() -> None:
    s = _set({0: 12, 1: -40, 2: 31, 3: 30, 4: -5})
    s.add(SetupEvaluation(5, None, 3, "e2e4"))  # a forced mate is as unbalanced as it gets
    assert s.outside(30) == [1, 2, 5, *range(6, 960)]  # not evaluated counts as outside
    summary = s.summary(2)
    assert [e["number"] for e in summary["most_balanced"]] == [4, 0]
    assert [e["number"] for e in summary["least_balanced"]] == [5, 1]
    assert summary["within_30cp"] == 3
    with pytest.raises(SetupEvaluationError):
        s.outside(-1)


@pytest.mark.parametrize(("text", "cp"), [("0.3", 30), ("±0.3", 30), ("30cp", 30), ("+1", 100),
                                          ("0", 0)])
def test_bands_read_as_pawns(text: str, cp: int) -> None:
    assert parse_band(text) == cp


@pytest.mark.parametrize("text", ["abc", "-0.3", "101", "0.3 pawns"])
def test_bad_bands_are_refused(text: str) -> None:
    with pytest.raises(SetupEvaluationError):
        parse_band(text)


@pytest.mark.parametrize("variant", ["chess960", "mrc"])
def test_the_package_ships_a_complete_set_per_variant(variant: str) -> None:
    s = shipped(variant)
    assert s is not None and s.complete, f"{variant}: {len(s.items) if s else 0} evaluated"
    assert s.engine in ("stockfish", "fairy-stockfish") and s.depth >= 6
    # Every best move is a legal first move of its setup (an adjustment included, in MRC).
    from randomchess import Position, get_variant

    for n in (0, 1, s.total // 2, s.total - 1):
        pos = Position(setup_from_number(variant, n).fen, get_variant(variant))
        assert s.items[n].best in {pos.uci(m) for m in pos.legal_moves()}


def test_evaluate_setup_is_the_engines_best_line() -> None:
    config = EngineConfig.detect()
    analyser = config.open("randomchess", "mrc")
    try:
        e = evaluate_setup(analyser, "mrc", 8226, 2)
    finally:
        analyser.close()
    assert e.number == 8226 and (e.cp is not None) != (e.mate is not None)
    assert len(e.best) >= 4
    with pytest.raises(SetupEvaluationError):
        evaluate_setup(analyser, "chess", 0, 2)


def test_the_batch_resumes_exports_and_shows(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'evals.db'}"
    runner = CliRunner()
    args = ["setups", "evaluate", "--variant", "chess960", "--depth", "1", "--engine",
            "randomchess", "--db", db, "-q"]
    first = runner.invoke(main, [*args, "--to", "3"])
    assert first.exit_code == 0, first.output
    assert "4 setup(s) evaluated now, 4/960" in first.output
    # Interrupted there, the next run goes on from what is stored: only 4-7 are new.
    second = runner.invoke(main, [*args, "--to", "7", "-j", "2"])
    assert second.exit_code == 0, second.output
    assert "4 setup(s) evaluated now, 8/960" in second.output
    assert "already" in runner.invoke(main, [*args, "--to", "7"]).output
    out = tmp_path / "part.json"
    refused = runner.invoke(main, ["setups", "export", "--db", db, "-o", str(out)])
    assert refused.exit_code != 0 and "8/960" in refused.output
    ok = runner.invoke(main, ["setups", "export", "--db", db, "-o", str(out), "--partial"])
    assert ok.exit_code == 0, ok.output
    s = EvaluationSet.from_json(out.read_text(encoding="utf-8"))
    assert sorted(s.items) == list(range(8)) and s.engine == "randomchess" and s.depth == 1
    shown = runner.invoke(main, ["setups", "show", "--file", str(out), "--lang", "es"])
    assert shown.exit_code == 0 and "más equilibradas" in shown.output
    one = runner.invoke(main, ["setups", "show", "--file", str(out), "--number", "5"])
    assert one.output.startswith("#5: ")


# ------------------------------------------------------------------ tournaments (issue 15)
def test_an_event_with_a_band_draws_only_balanced_setups_and_verifies(tmp_path: Path) -> None:
    store = TournamentStore(f"sqlite:///{tmp_path / 't.db'}")
    store.migrate()
    evals = shipped("chess960")
    assert evals is not None
    created = store.create("Balanced Open", rounds=3, eval_band=20)
    e = created.event
    assert e.eval_band == 20 and e.eval_digest == evals.digest()
    allowed = {n for n, x in evals.items.items() if abs(x.centipawns) <= 20}
    assert 0 < len(allowed) < 960
    assert set(outside_band(e)) == set(range(960)) - allowed
    for name in "ABCD":
        store.add_player(e.id, name)
    store.start(e.id)
    for rnd in (1, 2, 3):
        for b in store.pair(e.id):
            assert b.is_bye or b.setup in allowed, (rnd, b.setup)
            if not b.is_bye:
                store.set_result(e.id, rnd, b.board, "1/2-1/2")
    store.close(e.id)
    from randomchess.tournament.store import verify

    v = verify(store.load(e.id))
    assert v.commitment_ok and not v.mismatches


def test_a_band_that_leaves_nothing_or_too_little_is_refused(tmp_path: Path) -> None:
    store = TournamentStore(f"sqlite:///{tmp_path / 't.db'}")
    store.migrate()
    evals = shipped("chess960")
    assert evals is not None
    tightest = min(abs(x.centipawns) for x in evals.items.values())
    if tightest > 0:
        with pytest.raises(TournamentError, match="no setup"):
            store.create("Empty", rounds=3, eval_band=tightest - 1)
    with pytest.raises(TournamentError, match="numbered"):
        store.create("Classic", variant="chess", rounds=3, eval_band=30)
    with pytest.raises(TournamentError):
        store.create("Negative", rounds=3, eval_band=-5)
    assert store.events() == []


# ------------------------------------------------------------------ the API
def test_the_api_serves_summaries_and_single_setups(tmp_path: Path) -> None:
    from server_support import client

    with client(f"sqlite:///{tmp_path / 'api.db'}") as c:
        for variant, total in (("chess960", 960), ("mrc", 15_120)):
            summary = c.get(f"/api/setups/{variant}/evaluations", params={"k": 3}).json()
            assert summary["evaluated"] == summary["total"] == total
            best = summary["most_balanced"][0]
            one = c.get(f"/api/setups/{variant}/{best['number']}").json()
            assert one["evaluation"] == best and one["balance_rank"] == 1
            worst = summary["least_balanced"][0]
            assert c.get(f"/api/setups/{variant}/{worst['number']}").json()[
                "balance_rank"] == total
        # The tournament API takes the band in pawns and publishes it with its digest.
        made = c.post("/api/tournaments", json={"name": "Band", "rounds": 2, "eval_band": 0.25})
        assert made.status_code == 201, made.text
        event = c.get(f"/api/tournaments/{made.json()['id']}").json()
        assert event["eval_band"] == 0.25 and len(event["eval_digest"]) == 64
        for bad in ("/api/setups/chess/0", "/api/setups/nonsense/evaluations",
                    "/api/setups/chess960/960", "/api/setups/mrc/-1"):
            r = c.get(bad)
            assert r.status_code in (404, 422), (bad, r.status_code)
        assert c.get("/api/setups/chess960/evaluations", params={"k": 0}).status_code == 422
        assert c.post("/api/tournaments", json={"name": "B2", "rounds": 2,
                                                "eval_band": -1}).status_code == 422


def test_a_score_does_not_depend_on_the_setups_searched_before() -> None:
    """Each setup is searched afresh (``ucinewgame``): Fairy-Stockfish reused for a batch once
    carried its hash from setup to setup into scores of +15 pawns where a fresh search said
    +0.84 (MRC 1779).  One engine for the run, or one per setup: the same scores."""
    config = EngineConfig.detect()
    name = "fairy-stockfish" if "fairy-stockfish" in config.paths else "randomchess"
    numbers = [1772, 1773, 1774, 1775]
    shared = config.open(name, "mrc")
    try:
        in_a_row = [evaluate_setup(shared, "mrc", n, 5) for n in numbers]
    finally:
        shared.close()
    alone = []
    for n in numbers:
        own = config.open(name, "mrc")
        try:
            alone.append(evaluate_setup(own, "mrc", n, 5))
        finally:
            own.close()
    assert in_a_row == alone


class _Spiky:
    """An analyser whose depth-8 score spikes (as Fairy-Stockfish's MRC scores do)."""

    name = "spiky"

    def __init__(self, scores: dict[int, int]) -> None:
        self.scores, self.asked, self.fresh = scores, [], 0

    def new_game(self) -> None:
        self.fresh += 1

    def analyse(self, pos: object, limit: object, *args: object, **kw: object) -> list[object]:
        from types import SimpleNamespace

        from randomchess.analysis.core import Score

        depth = limit.depth  # type: ignore[attr-defined]
        self.asked.append(depth)
        return [SimpleNamespace(score=Score(cp=self.scores[depth]), pv=[f"d{depth}"])]


def test_a_spiking_score_is_confirmed_one_and_two_plies_deeper() -> None:
    spiky = _Spiky({8: 686, 9: 60, 10: 108})
    e = evaluate_setup(spiky, "mrc", 187, 8)  # type: ignore[arg-type]
    assert spiky.asked == [8, 9, 10] and spiky.fresh == 3  # every search starts afresh
    assert (e.cp, e.best) == (108, "d10")  # the median of 686, 60 and 108
    calm = _Spiky({8: 150})
    assert evaluate_setup(calm, "mrc", 187, 8).cp == 150 and calm.asked == [8]  # type: ignore[arg-type]
    alone = _Spiky({8: 686})
    assert evaluate_setup(alone, "mrc", 187, 8, confirm_cp=None).cp == 686  # type: ignore[arg-type]
