"""``GET /api/variants`` serves the rules core's Variant data (board size, pieces and their
letters in both languages, castling files, promotions, adjustment, setup family)."""

from __future__ import annotations

from pathlib import Path

from randomchess.pieces import PIECE_TYPES
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
                placement = s["start_fen"].split()[0].split("/")
                white = placement[-1]
                assert v.is_setup(white), (d["key"], white)
                assert s["start_fen"] == v.setup_fen(white)
                Position(s["start_fen"], v)  # the one validation gate accepts it
                assert (s["number"] is None) == (d["setup"]["numbering"] is None)
                ranks.add(white)
            assert len(ranks) > 1, d["key"]  # drawn, not one fixed array
