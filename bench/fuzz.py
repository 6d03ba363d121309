#!/usr/bin/env python3
"""The long fuzzing campaign of the library's parsers (issue 13; ``make fuzz``).

The targets are tests/fuzz_targets.py's (FEN, SAN, UCI, PGN, setup numbers, setup FENs):
every input must parse (and write back the same) or raise ``RandomChessError``.  Inputs are
the targets' valid seeds mutated at random (inserted characters, Unicode digits among them,
deleted and repeated stretches, huge counts, splices with other seeds) from a fixed seed, so
a run is reproducible.  An input that runs over --timeout seconds is stopped by an alarm and
counted as a failure; inputs are cut to 40,000 characters (a stretch repeated thousands of
times nests PGN variations thousands deep, issue 36); the address space is capped at
--memory-mb so a blow-up is a MemoryError, not a swapping machine.

Prints inputs tried, distinct failures (with one input each), slow inputs (over 1 s of CPU time
per 8,000 characters, at least 1 s: reading time may grow linearly with the input, no faster;
wall-clock time on a shared machine measures the other processes too, so it is only printed for
the slowest input), the slowest input and the peak memory (RSS).  Exit status 1 if anything failed.
Usage: python bench/fuzz.py [--inputs 1000000] [--seconds 3600] [--seed 13] [--targets fen,pgn]
"""

from __future__ import annotations

import argparse
import random
import resource
import signal
import sys
import time
import traceback
from pathlib import Path
from types import FrameType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fuzz_targets import SEEDS, TARGETS

SPECIAL = "0123456789/-=+#!?()[]{};$%.:xX* \n\t\"\\KQRBNMPkqrbnmpDTACLwdeahi"
UNICODE = "²³¹\u0663\u0661\uff12\u00a0\u2007\u200b\ufeff\u0130\u0131ßﬀ\x00\x7f\ud7ff🂡é"


# Inputs are cut to this many characters: enough for every field and count to overflow, for
# a few thousand PGN games (reading time grows linearly with their number) and for variations
# nested thousands deep.  The 8,000 characters of earlier campaigns hid a RecursionError at
# about 1,000 levels (9 kB, issue 36).
MAX_INPUT = 40_000
# An input is slow if it takes over 1 s of CPU time per this many characters (at least 1 s).
SLOW_PER = 8000


class Timeout(Exception):
    pass


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Timeout


_stopping: list[bool] = []  # set by SIGTERM: finish the current input, then report


def _stop(signum: int, frame: FrameType | None) -> None:
    _stopping.append(True)


def mutate(rng: random.Random, text: str, all_seeds: list[str]) -> str:
    for _ in range(rng.randint(1, 5)):
        op = rng.random()
        i = rng.randint(0, len(text))
        j = min(len(text), i + rng.randint(0, 8))
        if op < 0.30:
            pool = SPECIAL if rng.random() < 0.7 else UNICODE
            text = text[:i] + "".join(rng.choice(pool) for _ in range(rng.randint(1, 4))) + text[i:]
        elif op < 0.50:
            text = text[:i] + text[j:]
        elif op < 0.60:
            times = rng.randint(2, 50) if rng.random() < 0.8 else rng.choice((500, 2000, 8000))
            text = text[:i] + text[i:j] * times + text[i:]
        elif op < 0.70:
            text = text[:i] + "9" * rng.choice((2, 3, 8, 30, 400, 5000)) + text[j:]
        elif op < 0.80:
            other = rng.choice(all_seeds)
            k = rng.randint(0, len(other))
            text = text[:i] + other[k:k + rng.randint(1, 40)] + text[j:]
        elif op < 0.90:
            text = text[:i] + chr(rng.randint(0x20, 0x2FFF)) + text[j:]
        else:
            text = text[:i] + text[i:j].swapcase() + text[j:]
    return text[:MAX_INPUT]


def where(exc: BaseException) -> str:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "randomchess" in f.filename]
    frame = frames[-1] if frames else traceback.extract_tb(exc.__traceback__)[-1]
    return f"{type(exc).__name__} at {Path(frame.filename).name}:{frame.lineno}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=1_000_000)
    parser.add_argument("--seconds", type=float, default=3600.0)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--targets", default=",".join(TARGETS))
    parser.add_argument("--timeout", type=float, default=5.0)
    parser.add_argument("--memory-mb", type=int, default=2048)
    parser.add_argument("--report-every", type=float, default=60.0)
    args = parser.parse_args()

    limit = args.memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    signal.signal(signal.SIGALRM, _alarm)
    signal.signal(signal.SIGTERM, _stop)
    names = [n for n in args.targets.split(",") if n]
    rng = random.Random(args.seed)
    all_seeds = [s for seeds in SEEDS.values() for s in seeds]
    tried = dict.fromkeys(names, 0)
    failures: dict[str, tuple[int, str]] = {}
    slowest = (0.0, "", "")
    slow_inputs = 0
    slowest_wall = 0.0
    start = last_report = time.monotonic()
    count = 0
    while count < args.inputs and time.monotonic() - start < args.seconds and not _stopping:
        name = names[count % len(names)]
        seeds = SEEDS[name]
        text = rng.choice(seeds)
        if rng.random() < 0.97:
            text = mutate(rng, text, all_seeds)
        t0 = time.thread_time()
        w0 = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, args.timeout)
        try:
            TARGETS[name](text)
        except Timeout:
            key = f"{name}: over {args.timeout:g} s"
            n, example = failures.get(key, (0, text))
            failures[key] = (n + 1, example)
        except BaseException as exc:  # every non-typed error is a finding
            if isinstance(exc, KeyboardInterrupt):
                raise
            key = f"{name}: {where(exc)}: {str(exc)[:80]}"
            n, example = failures.get(key, (0, text))
            failures[key] = (n + 1, example)
            if n == 0:
                print(f"new failure: {key}; input {text[:200]!r}", flush=True)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        elapsed = time.thread_time() - t0  # CPU time: a shared machine's waits do not count
        slowest_wall = max(slowest_wall, time.perf_counter() - w0)
        budget = max(1.0, len(text) / SLOW_PER)
        if elapsed > budget:
            slow_inputs += 1
            print(f"slow: {elapsed:.2f} s (over {budget:.1f} s for {len(text):,} characters),"
                  f" {name}, input {text[:200]!r}", flush=True)
        if elapsed > slowest[0]:
            slowest = (elapsed, name, text)
        tried[name] += 1
        count += 1
        now = time.monotonic()
        if now - last_report > args.report_every:
            last_report = now
            print(f"[{now - start:7.0f} s] {count:,} inputs, {len(failures)} distinct failures,"
                  f" slowest {slowest[0] * 1000:.1f} ms ({slowest[1]})", flush=True)

    if _stopping:
        print("stopped (SIGTERM): reporting what ran", flush=True)
    total = time.monotonic() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\ninputs tried: {count:,} in {total:.0f} s ({count / max(total, 1e-9):,.0f}/s)")
    for name in names:
        print(f"  {name:13} {tried[name]:,}")
    print(f"distinct failures: {len(failures)}")
    for key, (n, example) in sorted(failures.items()):
        print(f"  {key} (x{n}); e.g. {example[:200]!r}")
    print(f"slow inputs (over 1 s per {SLOW_PER:,} characters): {slow_inputs}")
    print(f"slowest input: {slowest[0] * 1000:.1f} ms, target {slowest[1]}, "
          f"{slowest[2][:120]!r}{'...' if len(slowest[2]) > 120 else ''}")
    print(f"slowest input in wall-clock time (machine load included): {slowest_wall:.2f} s")
    print(f"peak memory (RSS): {peak_mb:.0f} MB")
    return 1 if failures or slow_inputs else 0


if __name__ == "__main__":
    raise SystemExit(main())
