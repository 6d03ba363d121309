"""The crosstable CSV never hands a spreadsheet a formula (issue 28, item 11).

Measured before: names beginning with ``=``, ``+``, ``-`` or ``@`` were written as they are,
and a spreadsheet opening the arbiter's export ran them as formulas.  Such a cell now starts
with an apostrophe (OWASP's advice for CSV injection); the name itself is unchanged
everywhere else (TRF, HTML, the page).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from randomchess.db import make_engine
from randomchess.tournament.export import crosstable_csv, crosstable_html
from randomchess.tournament.store import TournamentStore

NAMES = ["=HYPERLINK(\"http://x\",\"y\")", "+1+2", "-2+3", "@SUM(A1)", "\tTab", "Ana"]


def test_formula_like_names_are_neutralised(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 't.sqlite3'}")
    store = TournamentStore(engine)
    store.migrate()
    e = store.create("Formulas", rounds=3).event
    for n, name in enumerate(NAMES):
        store.add_player(e.id, name, rating=2000 - n)
    t = store.load(e.id)
    rows = list(csv.reader(io.StringIO(crosstable_csv(t))))
    names = [r[2] for r in rows[1:len(NAMES) + 1]]
    stored = [p.name for p in t.players]  # as the store keeps them (stripped)
    assert sorted(names) == sorted("'" + n if n[:1] in "=+-@\t\r" else n for n in stored)
    assert sum(n.startswith("'") for n in names) == 4
    for row in rows[1:len(NAMES) + 1]:
        assert not any(cell[:1] in ("=", "+", "@", "\t", "\r") for cell in row if cell != "+")
    assert "=HYPERLINK" in crosstable_html(t)  # escaped as HTML there, shown as typed
    engine.dispose()
