from __future__ import annotations

import itertools
import json
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"


def load_cases(name: str) -> list[dict[str, Any]]:
    with open(DATA / name, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


@cache
def all_setups(key: str) -> list[str]:
    """Every start array (White's back rank) of a random variant, by brute force: an
    enumeration independent of the numbering code in startpos.py."""
    from randomchess import get_variant

    v = get_variant(key)
    if v.independent_sides:  # Double Fischer Random: every pair of one side's arrays
        one = sorted(r for r in {"".join(p) for p in itertools.permutations(v.army)}
                     if v.is_setup(f"{r}/{r}"))
        if len(one) <= 1000:
            return [f"{w}/{b}" for w in one for b in one]
        # Double MRC's 228 million pairs: every array for White, each with 8 spread-out
        # arrays for Black (120,960 pairs).
        n = len(one)
        return sorted(f"{w}/{one[(i * 7919 + j * 1999) % n]}" for i, w in enumerate(one)
                      for j in range(8))
    return sorted(r for r in {"".join(p) for p in itertools.permutations(v.army)} if v.is_setup(r))
