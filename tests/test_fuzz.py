"""A few seconds of fuzzing in every test run (issue 13): any input to the FEN, SAN, UCI,
PGN, setup-number and setup-FEN parsers either parses (and writes back the same) or raises the
library's typed error, within a second.  ``make fuzz`` runs the long campaign
(bench/fuzz.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz_targets import SEEDS, TARGETS

# Characters that matter to the parsers, plus the Unicode digits that fooled str.isdigit().
SPECIAL = "0123456789/-=+#!?()[]{};$%.:xX* \n\t\"\\²³¹\u0663\u0661\uff12KQRBNMPkqrbnmpDTACLwdeah"


def inputs(seeds: list[str]) -> st.SearchStrategy[str]:
    char = st.one_of(st.sampled_from(SPECIAL), st.characters())
    noise = st.text(char, max_size=60)

    @st.composite
    def mutated(draw: st.DrawFn) -> str:
        text = draw(st.sampled_from(seeds))
        for _ in range(draw(st.integers(1, 4))):
            i = draw(st.integers(0, len(text)))
            j = draw(st.integers(i, min(len(text), i + 6)))
            text = text[:i] + draw(noise) + text[j:]
        return text

    @st.composite
    def repeated(draw: st.DrawFn) -> str:
        # A stretch repeated thousands of times: PGN variations nested thousands deep once
        # raised RecursionError (issue 36); short inputs never reach that.
        text = draw(st.sampled_from(seeds))
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 8)))
        return text[:i] + text[i:j] * draw(st.integers(500, 3000)) + text[i:]

    return st.one_of(noise, mutated(), repeated(), st.sampled_from(seeds))


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_fuzz_target(name: str) -> None:
    target = TARGETS[name]

    @settings(max_examples=150, deadline=timedelta(seconds=1), database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(inputs(SEEDS[name]))
    def run(text: str) -> None:
        target(text)

    run()


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_seeds_parse(name: str) -> None:
    """The seeds are valid inputs, so the targets' round-trip checks really run."""
    for text in SEEDS[name]:
        TARGETS[name](text)
