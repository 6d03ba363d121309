"""PGN of a stored game, written by :func:`randomchess.pgn.write_game` (RULES.md §2.7, §4.7).

The server adds what only it knows: the players, the date, the setup number (``SetupNumber``,
and ``MRCId`` for MRC), the ``TimeControl``, a verifiable setup draw's values and a ``%clk``
comment after every move.
"""

from __future__ import annotations

import datetime as dt

from randomchess.pgn import PgnGame, write_game
from randomchess.server.games.live import LiveGame


def _clk(ms: int) -> str:
    s = max(0, ms) // 1000
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def export_pgn(live: LiveGame, site: str = "randomchess server",
               extra: dict[str, str] | None = None) -> str:
    """The PGN; ``extra`` adds tags after the server's own (a verifiable setup draw's
    SetupCommit, SetupServerSeed and SetupClientValue, docs/shuffler.md §10)."""
    r = live.record
    players = {"white": "Anonymous", "black": "Anonymous"}  # as lichess names them
    if r.computer_color:
        players[r.computer_color] = f"randomchess level {r.level}"
    tags = {
        "Event": "randomchess online game", "Site": site,
        "Date": dt.datetime.fromtimestamp(r.created_at / 1000, dt.UTC).strftime("%Y.%m.%d"),
        "Round": "-", "White": players["white"], "Black": players["black"],
    }
    if r.number is not None:
        tags["SetupNumber"] = str(r.number)
        if live.game.variant.key == "mrc":
            tags["MRCId"] = str(r.number)  # RULES.md §4.7
    if live.control.timed:
        # randomchess.clock writes it: "300+2", "30/1500:300+5", a delay as "+3d" / "+3b";
        # correspondence as the standard's "moves/seconds", one move per so many days.
        tags["TimeControl"] = live.control.pgn()
    tags.update(extra or {})
    record = PgnGame.from_game(live.game, tags)
    log = [] if r.days_per_move is not None else r.clock_log.split()  # no %clk: days reset
    for node, entry in zip(record.moves, log, strict=False):
        if entry.isdigit():
            node.comment = f"[%clk {_clk(int(entry))}]"
    return write_game(record)
