"""Each round's start positions, derived from the event's committed salt by the verifiable
draw of docs/shuffler.md (``randomchess.startpos.round_setups``), so that after the event
``randomchess draw verify`` re-derives every round.

* policy ``round`` (default): every board of round R plays ``setup(R, 0)``;
* policy ``board``: board b of round R plays ``setup(R, b)``;
* ``mini_match``: rounds come in pairs; round 2k replays round 2k-1's pairings with colours
  reversed, on the same setups (derived with round number 2k-1);
* ``eval_band``: only setups whose evaluation (randomchess.analysis.setup_eval, the set whose
  digest the event keeps) lies within ±band centipawns; the others join the excluded
  numbers of the pool tag, so verification needs the same evaluation set;
* ``no_repeat``: a round draws from the pool *without* every setup used in earlier rounds
  (and, per board, on earlier boards of the round).  That is the shuffler's own pool with
  more excluded numbers: the pool tag lists them, ascending, after the standard array's
  (``chess960:any:275,442,518``), exactly as the independent sketch of docs/shuffler.md
  §8 builds it with ``pool(variant, bishops, excluded=sorted(...))``;
* the organiser's ``excluded`` numbers (e.g. 518 and its mirror 534) join the excluded
  numbers too, and a ``shortlist`` keeps only its numbers (the tag ends ``:only=...``);
* ``setup_source == "hall"``: round R's setups are drawn with a round key made from the salt
  and the digits drawn in the hall when the round is revealed (docs/shuffler.md §6), not
  from the salt alone; they are unknown to everyone, the arbiter included, until then.

Variants without numbered setups (classical chess, Modern chess, ...) have one fixed start
position: nothing is drawn and the setup number is empty.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from randomchess.startpos import (
    BishopFilter,
    NumberedSetup,
    SetupPool,
    hall_draw,
    hall_round_key,
    round_setups,
)
from randomchess.tournament.errors import TournamentError
from randomchess.tournament.model import Event
from randomchess.variants import get_variant

if TYPE_CHECKING:  # the evaluations (and the analysis package) load with a band only
    from randomchess.analysis.setup_eval import EvaluationSet


class EventPool(SetupPool):
    """A :class:`SetupPool` that also leaves out the numbers in ``also_excluded`` and, with
    a ``shortlist``, keeps only its numbers.  The shortlist is named in the tag after the
    excluded numbers: ``chess960:any:518:only=12,300,700`` (docs/shuffler.md §2)."""

    def __init__(self, variant: str, bishops: BishopFilter, exclude_standard: bool,
                 also_excluded: Iterable[int] = (),
                 shortlist: Iterable[int] | None = None) -> None:
        super().__init__(variant, bishops, exclude_standard)
        self._also = frozenset(also_excluded)
        self._only = None if shortlist is None else tuple(sorted(set(shortlist)))

    @property
    def excluded(self) -> tuple[int, ...]:
        return tuple(sorted(set(super().excluded) | self._also))

    @cached_property
    def numbers(self) -> Sequence[int]:
        every = super().numbers
        if self._only is None:
            return every
        return tuple(n for n in self._only if n in every)  # ascending, as _only is

    @property
    def tag(self) -> str:
        base = super().tag
        if self._only is None:
            return base
        return f"{base}:only={','.join(map(str, self._only))}"


def is_numbered(variant: str) -> bool:
    """Whether the variant's setups are numbered (``Variant.numbering``), so drawn."""
    return get_variant(variant).numbering is not None


def pool_for(event: Event, used: Iterable[int] = ()) -> EventPool:
    bishops: BishopFilter = "any"
    if event.bishops in ("same", "opposite"):
        bishops = "same" if event.bishops == "same" else "opposite"
    excluded = set(used) if event.no_repeat else set()
    excluded.update(outside_band(event))
    excluded.update(event.excluded)
    return EventPool(get_variant(event.variant).key, bishops, event.exclude_standard, excluded,
                     event.shortlist)


def outside_band(event: Event) -> tuple[int, ...]:
    """The setups an evaluation band leaves out (none without a band), from the evaluation
    set the event was created with (its digest is part of the event)."""
    if event.eval_band is None:
        return ()
    evals = evaluation_set(event.variant, event.eval_digest)
    return _outside(evals.digest(), evals, event.eval_band)


_OUTSIDE: dict[tuple[str, int], tuple[int, ...]] = {}


def _outside(digest: str, evals: EvaluationSet, band: int) -> tuple[int, ...]:
    key = (digest, band)
    if key not in _OUTSIDE:
        _OUTSIDE[key] = tuple(evals.outside(band))
    return _OUTSIDE[key]


def evaluation_set(variant: str, digest: str | None = None) -> EvaluationSet:
    """The complete evaluation set of ``variant`` with ``digest`` (None: the shipped one):
    the package's own, or a data file in ``$RANDOMCHESS_SETUP_EVALS`` (a directory)."""
    from randomchess.analysis.setup_eval import SetupEvaluationError, shipped

    key = get_variant(variant).key
    candidates: list[EvaluationSet] = []
    own = shipped(key)
    if own is not None:
        candidates.append(own)
    extra = os.environ.get("RANDOMCHESS_SETUP_EVALS")
    if extra and Path(extra).is_dir():
        for path in sorted(Path(extra).glob("*.json")):
            try:
                found = _load(str(path))
            except SetupEvaluationError:
                continue
            if found.variant == key:
                candidates.append(found)
    for evals in candidates:
        if evals.complete and (digest is None or evals.digest() == digest):
            return evals
    if digest is None:
        raise TournamentError(f"no complete setup evaluations exist for {key}; run "
                              "`randomchess setups evaluate` and export them",
                              es=f"no hay evaluaciones completas de posiciones de {key}; ejecute "
                                 "`randomchess setups evaluate` y expórtelas")
    raise TournamentError(f"the setup evaluations this event was drawn by (digest "
                          f"{digest[:12]}…) are not available here; put their data file in "
                          "$RANDOMCHESS_SETUP_EVALS",
                          es="las evaluaciones de posiciones con las que se sorteó este torneo "
                             f"(huella {digest[:12]}…) no están disponibles aquí; ponga su "
                             "fichero de datos en $RANDOMCHESS_SETUP_EVALS")


@functools.lru_cache(maxsize=16)
def _load(path: str) -> EvaluationSet:
    from randomchess.analysis.setup_eval import EvaluationSet

    return EvaluationSet.from_json(Path(path).read_text(encoding="utf-8"))


def round_key(event: Event, salt: bytes, rnd: int, hall_input: str) -> bytes:
    """The key of hall round ``rnd`` (docs/shuffler.md §6): the salt, the event's pool tag
    (before any setup is used), the event name, the round and the digits drawn."""
    return hall_round_key(salt, event.name, rnd, hall_input, pool_for(event).tag)


def derive_round(event: Event, salt: bytes, rnd: int, boards: int,
                 used: Sequence[int], hall_input: str | None = None
                 ) -> list[NumberedSetup | None]:
    """The setups of round ``rnd`` (``boards`` games), given the setups ``used`` so far;
    for a hall event, from the round's ``hall_input`` (the digits drawn in the hall).

    ``None`` per board for a variant without numbered setups."""
    if not is_numbered(event.variant):
        return [None] * boards
    source = rnd
    if event.mini_match and rnd % 2 == 0:
        source = rnd - 1
    key = None if hall_input is None else round_key(event, salt, source, hall_input)
    if event.setup_policy == "round":
        pool = pool_for(event, used)
        if key is not None:
            return [hall_draw(key, pool, 0)] * boards
        same: list[NumberedSetup | None] = []
        same.extend(round_setups(salt, event.name, source, max(boards, 1), pool)[:boards])
        return same
    out: list[NumberedSetup | None] = []
    taken = list(used)
    for b in range(1, boards + 1):
        pool = pool_for(event, taken)
        setup = hall_draw(key, pool, b) if key is not None else \
            round_setups(salt, event.name, source, b, pool, per_board=True)[b - 1]
        out.append(setup)
        taken.append(setup.number)
    return out


def derive_all(event: Event, salt: bytes, boards_per_round: Sequence[int],
               hall_inputs: Mapping[int, str] | None = None
               ) -> list[list[NumberedSetup | None]]:
    """Every round's setups in order (each round's pool depends on the earlier rounds when
    ``no_repeat`` is set; a mini-match's second round repeats the first's).  A hall event's
    rounds come from ``hall_inputs`` (round -> digits); a round without one is not derived
    (its boards are ``None``: nothing revealed yet)."""
    out: list[list[NumberedSetup | None]] = []
    used: list[int] = []
    for i, boards in enumerate(boards_per_round):
        rnd = i + 1
        if event.mini_match and rnd % 2 == 0 and out:
            same = list(out[-1])[:boards]
            out.append(same + [None] * (boards - len(same)))
            continue
        hall_input = None
        if event.setup_source == "hall":
            hall_input = (hall_inputs or {}).get(rnd)
            if hall_input is None:
                out.append([None] * boards)
                continue
        setups = derive_round(event, salt, rnd, boards, used, hall_input)
        out.append(setups)
        used.extend(s.number for s in setups if s is not None and s.number not in used)
    return out


def start_fen(event: Event, setup: NumberedSetup | None) -> str:
    if setup is not None:
        return setup.fen
    return get_variant(event.variant).start_fen


def parse_setup_list(text: str, variant: str) -> tuple[int, ...]:
    """Setup numbers typed as a list: numbers separated by commas or spaces, and the word
    ``standard`` for the variant's standard array and its mirror image (Chess960 518 and
    534, MRC 8226 and 8406: ``startpos.standard_and_mirror``).  Sorted, without repeats."""
    from randomchess.startpos import standard_and_mirror

    out: set[int] = set()
    for word in text.replace(",", " ").split():
        if word.lower() == "standard" and is_numbered(variant):
            out.update(standard_and_mirror(variant))
        elif word.isascii() and word.isdigit() and len(word) <= 6:
            out.add(int(word))
        else:
            raise TournamentError(f"{word!r} is not a setup number; write numbers such as "
                                  "518,534 or the word standard",
                                  es=f"{word!r} no es un número de posición; escriba números "
                                     "como 518,534 o la palabra standard")
    return tuple(sorted(out))
