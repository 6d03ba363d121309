"""A fake UCI engine for the UCI client's tests: a shell script that writes every line it is
sent to a log and answers ``go`` with one scored ``info`` line and ``bestmove``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def logging_engine(tmp_path: Path, variants: Sequence[str] = ("chess", "mrc"),
                   move: str = "e2e4", options: Sequence[str] = ()) -> tuple[Path, Path]:
    """The fake engine's path and its log: it offers ``options`` (whole ``option name …``
    lines) and UCI_Variant with ``variants``, and plays ``move`` (cp 31) to every ``go``."""
    log = tmp_path / "sent.log"
    fake = tmp_path / "logging-engine"
    offered = "".join(f"         echo '{line}'\n" for line in options)
    fake.write_text(
        "#!/bin/sh\n"
        f"while read line; do\n  echo \"$line\" >> '{log}'\n  case \"$line\" in\n"
        "    uci) echo 'id name logger'\n"
        f"{offered}"
        "         echo 'option name UCI_Variant type combo default chess"
        f"{''.join(f' var {v}' for v in variants)}'\n"
        "         echo uciok;;\n"
        "    isready) echo readyok;;\n"
        f"    go*) echo 'info depth 1 score cp 31 pv {move}'; echo 'bestmove {move}';;\n"
        "    quit) exit 0;;\n  esac\ndone\n")
    fake.chmod(0o755)
    return fake, log
