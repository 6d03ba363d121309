"""PGN of a stored game (RULES.md §2.7, §4.7): seven-tag roster, ``Variant``, ``SetUp``,
``FEN``, the setup number, and ``%clk`` comments when the game had a clock.

Thin adapter until :mod:`randomchess.pgn` offers a writer the server can call with a move
list; the movetext is the SAN stored with each move, so it is exactly what players saw.
"""

from __future__ import annotations

import datetime as dt

from randomchess.server.live import LiveGame
from randomchess.variants import get_variant

_NAMES = {"human": "Player", "friend": "Friend", "hotseat": "Player"}


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _clk(ms: int) -> str:
    s = max(0, ms) // 1000
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def export_pgn(game: LiveGame, site: str = "randomchess server") -> str:
    r = game.record
    variant = get_variant(r.variant)
    date = dt.datetime.fromtimestamp(r.created_at / 1000, dt.UTC).strftime("%Y.%m.%d")
    players = {"white": "White", "black": "Black"}
    if r.computer_color:
        players[r.computer_color] = f"randomchess level {r.level}"
    result = r.result or "*"
    tags: list[tuple[str, str]] = [
        ("Event", "randomchess online game"), ("Site", site), ("Date", date), ("Round", "-"),
        ("White", players["white"]), ("Black", players["black"]), ("Result", result),
    ]
    if variant.key != "chess":
        tags.append(("Variant", variant.pgn_name))
    if variant.key != "chess" or r.start_fen != variant.setup_fen(variant.fixed_rank or ""):
        tags += [("SetUp", "1"), ("FEN", r.start_fen)]
    if r.number is not None:
        tags.append(("SetupNumber", str(r.number)))
        if variant.key == "mrc":
            tags.append(("MRCId", str(r.number)))  # RULES.md §4.7
    if r.termination:
        tags.append(("Termination", r.termination))
    if r.clock_initial_ms is not None:
        tags.append(("TimeControl",
                     f"{r.clock_initial_ms // 1000}+{(r.clock_increment_ms or 0) // 1000}"))
    lines = [f'[{k} "{_escape(v)}"]' for k, v in tags]
    words: list[str] = []
    clocks = r.clock_log.split()
    first_black = game.record.start_fen.split()[1] == "b"
    for i, text in enumerate(game.sans):
        ply = i + (1 if first_black else 0)
        if ply % 2 == 0:
            words.append(f"{ply // 2 + 1}.")
        elif i == 0:
            words.append(f"{ply // 2 + 1}...")
        words.append(text)
        if i < len(clocks) and clocks[i].isdigit():
            words.append(f"{{[%clk {_clk(int(clocks[i]))}]}}")
    words.append(result)
    body: list[str] = []
    line = ""
    for w in words:
        if line and len(line) + 1 + len(w) > 79:
            body.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    body.append(line)
    return "\n".join(lines) + "\n\n" + "\n".join(body) + "\n"
