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
        return [f"{w}/{b}" for w in one for b in one]
    return sorted(r for r in {"".join(p) for p in itertools.permutations(v.army)} if v.is_setup(r))
