"""``GET /api/variants`` serves the rules core's Variant data (board size, pieces and their
letters in both languages, castling files, promotions, adjustment, setup family)."""

from __future__ import annotations

import time
from pathlib import Path

from randomchess.pieces import PIECE_TYPES
from randomchess.position import Position
from randomchess.variants import VARIANTS, get_variant
from server_support import client


def test_variants_endpoint_matches_the_variant_data(tmp_path: Path) -> None:
    with client(f"sqlite:///{tmp_path / 'g.sqlite3'}") as c:
        r = c.get("/api/variants")
        assert r.status_code == 200
        data = r.json()
        schema = c.get("/openapi.json").json()
    assert [d["key"] for d in data] == list(VARIANTS)
    assert "VariantInfo" in schema["components"]["schemas"]
    for d in data:
        v = get_variant(d["key"])
        assert (d["files"], d["ranks"], d["name"]) == (v.files, v.ranks, v.pgn_name)
        letters = {p["letter"] for p in d["pieces"]}
        assert letters == {PIECE_TYPES[k].letter.lower() for k in v.kinds}
        for p in d["pieces"]:
            t = next(t for t in PIECE_TYPES.values() if t.letter.lower() == p["letter"])
            assert (p["letter_es"], p["name"], p["name_es"]) == (t.spanish, t.name,
                                                                 t.spanish_name)
        assert d["promotions"] == [PIECE_TYPES[k].letter.lower() for k in v.promotions]
        king, rook = v.castle_h
        assert d["castling_far_side"] == {"san": v.castle_san[1], "king_file": "abcdefghij"[king],
                                          "rook_file": "abcdefghij"[rook]}
        assert d["setup"]["random"] == v.is_random and d["default_fen"] == v.default_fen
        assert bool(d["adjustment_partners"]) == v.has_adjustment
    capa = next(d for d in data if d["key"] == "capablanca")
    assert capa["castling_a_side"] == {"san": "O-O-O", "king_file": "c", "rook_file": "d"}
    assert {"letter": "c", "letter_es": "E", "name": "chancellor",
            "name_es": "canciller"} in capa["pieces"]
    mrc = next(d for d in data if d["key"] == "mrc")
    assert mrc["adjustment_partners"] == ["k", "m", "n", "q", "r"]
    assert mrc["setup"]["symmetry"] == "reverse" and mrc["setup"]["numbering"] == "mrc"


def test_every_random_variant_starts_with_setup_random(tmp_path: Path) -> None:
    """Issue 12: ``setup: "random"`` must work for every variant whose metadata says its
    setups are random, numbered (Chess960, MRC) or not (Capablanca Random, Pseudo-MRC,
    Chess8400, PMRC): a legal start array of that variant, drawn by the server."""
    from randomchess.position import Position

    with client(f"sqlite:///{tmp_path / 'g.sqlite3'}") as c:
        data = c.get("/api/variants").json()
        random_ones = [d for d in data if d["setup"]["random"]]
        assert {"caparandom", "pseudo-mrc", "chess8400", "pmrc"} <= {
            d["key"] for d in random_ones}
        for d in random_ones:
            v = get_variant(d["key"])
            ranks = set()
            for _ in range(6):
                r = c.post("/api/games", json={"variant": d["key"], "setup": "random",
                                               "opponent": "hotseat"})
                assert r.status_code == 201, (d["key"], r.text)
                s = c.get(f"/api/games/{r.json()['id']}").json()
                assert s["variant"] == d["key"] and s["moves"] == []
                placement = s["start_fen"].split()[0].split("[")[0].split("/")  # no hand
                # The home ranks (IFRC's inside its empty edges, without the edge files).
                m = v.margin
                white = placement[-1 - m].strip("0123456789")
                if v.independent_sides:  # Double Fischer Random: WHITE/BLACK
                    white = f"{white}/{placement[m].upper()}"
                assert v.is_setup(white), (d["key"], white)
                assert s["start_fen"] == v.setup_fen(white)
                Position(s["start_fen"], v)  # the one validation gate accepts it
                assert (s["number"] is None) == (d["setup"]["numbering"] is None)
                ranks.add(white)
            assert len(ranks) > 1, d["key"]  # drawn, not one fixed array


def test_variants_serve_the_setup_numbering_facts(tmp_path: Path) -> None:
    """The browser's shuffler and home page take the numbering facts from the server (one
    source of truth, issue 12): how many numbered setups, the number of the standard array
    that "exclude the standard array" leaves out, and whether the bishop filter applies."""
    from randomchess.startpos import SetupPool, SetupPoolError, setup_count

    with client(f"sqlite:///{tmp_path / 'g.sqlite3'}") as c:
        data = c.get("/api/variants").json()
    for d in data:
        v = get_variant(d["key"])
        setup = d["setup"]
        if v.numbering is None:
            assert (setup["count"], setup["standard_number"], setup["bishop_filter"]) == (
                None, None, False), d["key"]
            continue
        assert setup["count"] == setup_count(v)
        assert (setup["standard_number"],) == SetupPool(v, exclude_standard=True).excluded
        try:
            SetupPool(v, "same")
        except SetupPoolError:
            assert setup["bishop_filter"] is False
        else:
            assert setup["bishop_filter"] is True
    by_key = {d["key"]: d["setup"] for d in data}
    assert (by_key["chess960"]["count"], by_key["chess960"]["standard_number"]) == (960, 518)
    assert (by_key["mrc"]["count"], by_key["mrc"]["standard_number"]) == (15_120, 8226)
    assert by_key["mrc"]["bishop_filter"] and not by_key["chess960"]["bishop_filter"]


WEB_FIXTURE = Path(__file__).resolve().parents[1] / "web" / "test" / "variants.json"


def test_the_web_tests_copy_of_the_metadata_is_current(tmp_path: Path) -> None:
    """web/test/setups.test.mjs reads GET /api/variants from web/test/variants.json; it must
    be what the server serves.  To refresh it:
    ``.venv/bin/python tests/test_server_variants.py``."""
    import json

    with client(f"sqlite:///{tmp_path / 'g.sqlite3'}") as c:
        served = c.get("/api/variants").json()
    assert json.loads(WEB_FIXTURE.read_text(encoding="utf-8")) == served, \
        "web/test/variants.json is stale: run .venv/bin/python tests/test_server_variants.py"


if __name__ == "__main__":  # rewrite web/test/variants.json from the variant data
    import json

    from randomchess.server.games.variants_routes import variant_info

    WEB_FIXTURE.write_text(json.dumps(
        [variant_info(v).model_dump(mode="json") for v in VARIANTS.values()],
        indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def test_pm_crc_gating_through_the_api_against_the_computer(tmp_path: Path) -> None:
    # The server offers the gating moves (b1c3q), takes them in SAN (Nc3/Q) and its engine
    # answers in the position with the queen gated (docs/rules.md D-31).

    with client(f"sqlite:///{tmp_path / 'g.sqlite3'}") as c:
        r = c.post("/api/games", json={"variant": "pmcrc", "setup": 911, "opponent": "computer",
                                       "color": "white", "level": 1})
        assert r.status_code == 201, r.text
        g = r.json()
        s = c.get(f"/api/games/{g['id']}").json()
        assert s["start_fen"].startswith("rnbkmbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKBNR[Qq] w")
        assert {"b1c3q", "d1e3q", "g1f3q"} <= set(s["legal_moves"])
        r = c.post(f"/api/games/{g['id']}/moves",
                   json={"move": "Nc3/Q", "token": g["seat"]["token"]})
        assert r.status_code == 200, r.text
        end = time.monotonic() + 60
        while len(s["moves"]) < 2 and time.monotonic() < end:
            time.sleep(0.05)
            s = c.get(f"/api/games/{g['id']}").json()
        assert s["moves"][0] == "b1c3q" and len(s["moves"]) == 2
        pos = Position(s["start_fen"], get_variant("pmcrc"))
        for m in s["moves"]:
            pos.push_uci(m)
        assert s["fen"] == pos.fen() and "/RQBMKBNR[" in s["fen"]
