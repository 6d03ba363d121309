"""Setup evaluation (issue 17): how balanced each numbered start position is.

Every Chess960 setup (960) and every MRC setup (15,120) is searched to a fixed depth by the
strongest installed engine that plays the variant (Stockfish for Chess960, Fairy-Stockfish
with the package's variants.ini for MRC; the own engine otherwise).  In MRC the Bishop
Adjustment is considered at the root: :class:`~randomchess.analysis.uci_client.UciClient`
searches the position after each legal adjustment beside the ordinary moves, so a setup's
score is White's best first choice of either kind.

Scores are centipawns from White's point of view (a mate counts as ``MATE_PAWNS`` pawns).
An :class:`EvaluationSet` is one variant's evaluations by one engine at one depth: it is what
the batch stores (``randomchess setups evaluate``), what ``randomchess setups export`` writes
as a data file, what the shuffler page shows and what an arbiter's evaluation band filters
by.  Its :meth:`~EvaluationSet.digest` names it, so an event drawn from a band can be
verified against the very same numbers.  The package ships the sets in ``data/``.
"""

from __future__ import annotations

import hashlib
import json
import statistics
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from randomchess.analysis.core import Analyser, AnalysisError, Limit
from randomchess.position import Position
from randomchess.startpos import setup_count, setup_from_number
from randomchess.variants import get_variant, numbered_variant_keys

# The numbered variants (``Variant.numbering``): those whose setups can be listed and evaluated.
EVALUATED_VARIANTS = numbered_variant_keys()
MATE_PAWNS = 100  # a forced mate, as a figure for sorting and bands
FORMAT = "randomchess-setup-evaluations/1"


class SetupEvaluationError(AnalysisError):
    """A bad request about setup evaluations: variant, band, data file, missing set."""


@dataclass(frozen=True)
class SetupEvaluation:
    """One setup's score: centipawns (or a mate in ``mate`` moves, positive for White) from
    White's point of view, with the engine's first move (UCI)."""

    number: int
    cp: int | None
    mate: int | None
    best: str

    @property
    def centipawns(self) -> int:
        """The score as centipawns, a mate counted as ``MATE_PAWNS`` pawns."""
        if self.mate is not None:
            return MATE_PAWNS * 100 * (1 if self.mate > 0 else -1)
        assert self.cp is not None
        return self.cp

    def as_dict(self) -> dict[str, Any]:
        return {"number": self.number, "cp": self.cp, "mate": self.mate, "best": self.best}


@dataclass
class EvaluationSet:
    """One variant's setup evaluations by one engine at one depth."""

    variant: str
    engine: str
    depth: int
    items: dict[int, SetupEvaluation] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return setup_count(self.variant)

    @property
    def complete(self) -> bool:
        return len(self.items) == self.total

    def digest(self) -> str:
        """SHA-256 of the set's canonical text (variant, engine, depth, every score)."""
        h = hashlib.sha256(f"{self.variant}|{self.engine}|{self.depth}\n".encode())
        for n in sorted(self.items):
            e = self.items[n]
            h.update(f"{n}:{e.cp}:{e.mate}\n".encode())
        return h.hexdigest()

    def outside(self, band_cp: int) -> list[int]:
        """The setups whose score lies outside ``±band_cp`` (or has not been evaluated)."""
        if band_cp < 0:
            raise SetupEvaluationError(f"an evaluation band is at least 0, not {band_cp}")
        return [n for n in range(self.total)
                if n not in self.items or abs(self.items[n].centipawns) > band_cp]

    def ranked(self) -> list[SetupEvaluation]:
        """Most balanced first (smallest |score|), ties by number."""
        return sorted(self.items.values(), key=lambda e: (abs(e.centipawns), e.number))

    def balance_rank(self, number: int) -> int | None:
        """``number``'s place in :meth:`ranked` (1 = the most balanced), None if not
        evaluated."""
        e = self.items.get(number)
        if e is None:
            return None
        key = (abs(e.centipawns), number)
        return 1 + sum(1 for x in self.items.values() if (abs(x.centipawns), x.number) < key)

    def summary(self, k: int = 5) -> dict[str, Any]:
        scores = [e.centipawns for e in self.items.values()]
        ranked = self.ranked()
        return {
            "variant": self.variant, "engine": self.engine, "depth": self.depth,
            "evaluated": len(self.items), "total": self.total, "digest": self.digest(),
            "mean_cp": round(statistics.fmean(scores), 1) if scores else None,
            "median_cp": statistics.median(scores) if scores else None,
            "within_30cp": sum(1 for s in scores if abs(s) <= 30),
            "most_balanced": [e.as_dict() for e in ranked[:k]],
            "least_balanced": [e.as_dict() for e in ranked[::-1][:k]],
        }

    # ------------------------------------------------------------------ files
    def to_json(self) -> str:
        data = {"format": FORMAT, "variant": self.variant, "engine": self.engine,
                "depth": self.depth, "digest": self.digest(),
                "evaluations": [[n, e.cp, e.mate, e.best] for n, e in sorted(self.items.items())]}
        return json.dumps(data, separators=(",", ":")) + "\n"

    @classmethod
    def from_json(cls, text: str) -> EvaluationSet:
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                raise SetupEvaluationError(f"not a setup evaluation file ({FORMAT})")
            out = cls(get_variant(data["variant"]).key, str(data["engine"]), int(data["depth"]))
            for n, cp, mate, best in data["evaluations"]:
                out.add(SetupEvaluation(int(n), None if cp is None else int(cp),
                                        None if mate is None else int(mate), str(best)))
        except SetupEvaluationError:
            raise
        except (ValueError, KeyError, TypeError) as e:
            raise SetupEvaluationError(f"malformed setup evaluation file: {e}") from None
        if data.get("digest") not in (None, out.digest()):
            raise SetupEvaluationError("the setup evaluation file's digest does not match its "
                                       "scores")
        return out

    def add(self, e: SetupEvaluation) -> None:
        if not 0 <= e.number < self.total:
            raise SetupEvaluationError(
                f"{e.number} is not a {self.variant} setup (0-{self.total - 1})")
        if (e.cp is None) == (e.mate is None):
            raise SetupEvaluationError(f"setup {e.number}: a score is centipawns or a mate")
        self.items[e.number] = e


def check_variant(variant: str) -> str:
    key = get_variant(variant).key
    if key not in EVALUATED_VARIANTS:
        raise SetupEvaluationError(
            f"setup evaluations exist for {', '.join(EVALUATED_VARIANTS)}, not {variant}")
    return key


CONFIRM_CP = 200  # a score beyond ±2 pawns is searched again one and two plies deeper


def evaluate_setup(analyser: Analyser, variant: str, number: int, depth: int,
                   confirm_cp: int | None = CONFIRM_CP) -> SetupEvaluation:
    """Search setup ``number`` of ``variant`` to ``depth`` plies (adjustments at the root).

    Each search starts afresh.  A score beyond ``±confirm_cp`` is searched again one and two
    plies deeper and the median of the three is kept (with its move): Fairy-Stockfish 11.1's
    fixed-depth MRC scores spike to +6 to +15 pawns on roughly one setup in 400 at depths
    6-8 (MRC 6952: +15.30 at depth 6, +1.20 at 7, +0.87 at 8), a horizon effect that one ply
    more removes.  ``confirm_cp=None`` keeps the single search."""
    key = check_variant(variant)
    if not 1 <= depth <= 58:
        raise SetupEvaluationError(f"a search depth is 1-58, not {depth}")
    first = _search(analyser, key, number, depth)
    if confirm_cp is None or abs(first.centipawns) <= confirm_cp:
        return first
    tries = [first, _search(analyser, key, number, depth + 1),
             _search(analyser, key, number, depth + 2)]
    return sorted(tries, key=lambda e: e.centipawns)[1]


def _search(analyser: Analyser, key: str, number: int, depth: int) -> SetupEvaluation:
    setup = setup_from_number(key, number)
    pos = Position(setup.fen, get_variant(key))
    # A fresh search per setup: a score must not depend on which setups the same engine
    # process searched before (order, worker).  Fairy-Stockfish 11.1 carried its hash from
    # one 9x9 setup to the next into scores of +5 to +15 pawns that a fresh search puts
    # below +1 (seen on 94 of the first 5,700 MRC setups).
    analyser.new_game()
    lines = analyser.analyse(pos, Limit(depth=depth))
    if not lines:
        raise SetupEvaluationError(f"{analyser!r} returned no line for setup {number}")
    best = lines[0]
    return SetupEvaluation(number, best.score.cp, best.score.mate,
                           best.pv[0] if best.pv else "")


def shipped_path(variant: str) -> Path:
    key = check_variant(variant)
    return Path(str(resources.files("randomchess.analysis").joinpath(
        "data", f"setup_evals_{key}.json")))


_SHIPPED: dict[str, tuple[float, EvaluationSet]] = {}


def shipped(variant: str) -> EvaluationSet | None:
    """The evaluation set the package ships for ``variant`` (None: none shipped); read once
    (again when the file changes).  Callers must not modify it."""
    path = shipped_path(variant)
    if not path.is_file():
        return None
    mtime = path.stat().st_mtime
    cached = _SHIPPED.get(str(path))
    if cached is None or cached[0] != mtime:
        cached = (mtime, EvaluationSet.from_json(path.read_text(encoding="utf-8")))
        _SHIPPED[str(path)] = cached
    return cached[1]


def parse_band(text: str | float) -> int:
    """An evaluation band in pawns (``0.3``, ``±0.3``, ``30cp``) as centipawns."""
    raw = str(text).strip().lstrip("±+").strip()
    try:
        cp = int(raw[:-2]) if raw.endswith("cp") else round(float(raw) * 100)
    except ValueError:
        raise SetupEvaluationError(
            f"an evaluation band is a number of pawns such as 0.3, not {text!r}") from None
    if not 0 <= cp <= 10_000:
        raise SetupEvaluationError(f"an evaluation band is 0-100 pawns, not {text!r}")
    return cp
