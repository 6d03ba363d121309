"""Scoresheet entry (issue 31): games typed in English and in Spanish read as the same game,
and the first bad move is named at its ply with what the sheet most likely meant."""

from __future__ import annotations

from pathlib import Path

import pytest

from randomchess import Position, get_variant
from randomchess.pgn import read_games
from randomchess.san import variation_san
from randomchess.scoresheet import (
    AmbiguousScoresheetMoveError,
    ClockError,
    IllegalScoresheetMoveError,
    MalformedTokenError,
    MoveNumberError,
    MovesAfterEndError,
    ScoresheetError,
    ScoresheetResultError,
    UnknownPieceLetterError,
    read_scoresheet,
    split_pgn,
)

DATA = Path(__file__).parent / "data"
REAL_WORLD = ["lichess_chess960.pgn", "cutechess_fischerandom.pgn", "python_chess_export.pgn"]
MRC_FEN, MRC_UCI = (DATA / "otb" / "mrc_40_moves.uci").read_text().split("\n")[:2]


def _paper(text: str) -> str:
    """A SAN line as people write it on paper: no check marks, castling with zeros."""
    return text.replace("+", "").replace("#", "").replace("O-O", "0-0")


def _real_games() -> list[tuple[str, int]]:
    return [(name, i) for name in REAL_WORLD
            for i, _ in enumerate(read_games(DATA / name))]


@pytest.mark.parametrize(("name", "index"), _real_games())
def test_real_world_games_read_the_same_in_english_and_spanish(name: str, index: int) -> None:
    game = list(read_games(DATA / name))[index]
    assert game.error is None
    start = game.start_position()
    uci = []
    pos = game.start_position()
    for move in game.mainline():
        uci.append(pos.uci(move))
        pos.push(move)
    # the file as it is (tags, clocks, comments), then typed in each language
    raw = read_scoresheet(_nth_game(DATA / name, index), game.variant, game.start_fen)
    assert raw.uci() == uci
    for lang in ("en", "es"):
        line = variation_san(start, game.mainline(), lang)
        for text in (line, _paper(line)):
            sheet = read_scoresheet(text, game.variant, game.start_fen)
            assert sheet.uci() == uci, (lang, text)
            assert sheet.lang in (lang, None)


def _nth_game(path: Path, index: int) -> str:
    tags, body = split_pgn(path.read_text())[index]
    head = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
    return head + "\n" + body


def test_the_mrc_game_typed_in_english_and_in_spanish_is_one_game() -> None:
    en = read_scoresheet((DATA / "otb" / "mrc_40_moves_en.pgn").read_text(), "mrc", MRC_FEN)
    es = read_scoresheet((DATA / "otb" / "mrc_40_moves_es.txt").read_text(), "mrc", MRC_FEN)
    assert en.lang == "en" and es.lang == "es"
    assert en.uci() == es.uci() == MRC_UCI.split()
    assert len(en.moves) == 80
    sans = [m.san for m in en.moves]
    assert {"O-O-Oc", "O-O-Og"} <= set(sans)  # both castlings
    assert "B=Q" in sans and "B=N" in sans  # Bishop Adjustments, written A=D / A=C in Spanish
    assert [m.token for m in es.moves][2:4] == ["A=D", "A=C"]
    assert en.clocks()[:2] == [5363, 5325]  # {[%clk 1:29:23]}
    assert es.clocks()[:2] == [5363, 5325]  # a column of clock times
    assert es.clocks()[-1] is None
    assert en.result == es.result == "*"


def _spanish_sheet_with(ply: int, token: str) -> str:
    tokens = []
    for line in (DATA / "otb" / "mrc_40_moves_es.txt").read_text().splitlines():
        tokens += [t for t in line.split() if ":" not in t]
    moves = [t for t in tokens if not t.endswith(".")]
    moves[ply - 1] = token
    return " ".join(moves[:ply])


def test_a_castling_written_as_a_king_move_is_named_with_the_castling() -> None:
    # 8...O-O-Og is ply 16; the sheet says "Rg9" (the king, in Spanish, onto g9)
    with pytest.raises(IllegalScoresheetMoveError) as info:
        read_scoresheet(_spanish_sheet_with(16, "Rg9"), "mrc", MRC_FEN)
    e = info.value
    assert (e.ply, e.number, e.token) == (16, 8, "Rg9")
    assert e.suggestions[0] == "O-O-Og"
    assert str(e).startswith("8...Rg9 is illegal: did you mean O-O-Og (king g9, rook f9)")
    assert e.localized("es").startswith("8...Rg9 es ilegal: ¿quiso decir O-O-Og (rey g9, "
                                        "torre f9)")


def test_the_issue_example_a_rook_move_that_was_a_queen_side_castling() -> None:
    with pytest.raises(IllegalScoresheetMoveError) as info:
        read_scoresheet("1. Tc1", "chess960", "r3k2r/8/8/8/8/8/8/RK4NR w HAha - 0 1",
                        lang="es")
    assert str(info.value).startswith("1.Tc1 is illegal: did you mean O-O-O (king c1, rook d1)")
    assert info.value.suggestions[0] == "O-O-O"


def test_a_disambiguation_from_the_wrong_origin_suggests_the_right_one() -> None:
    with pytest.raises(IllegalScoresheetMoveError) as info:
        read_scoresheet("1. e4 e5 2. Cf3 Cc6 3. Cbd4", "chess")
    assert (info.value.ply, info.value.token) == (5, "Cbd4")
    assert info.value.suggestions[0] == "Cd4"


def test_an_ambiguous_move_lists_every_reading_and_guesses_none() -> None:
    with pytest.raises(AmbiguousScoresheetMoveError) as info:
        read_scoresheet("1. e4 e5 2. Nf3 Nc6 3. d3 Nf6 4. Nd2", "chess")
    e = info.value
    assert (e.ply, e.number, e.token) == (7, 4, "Nd2")
    assert set(e.suggestions) == {"Nbd2", "Nfd2"}
    assert "is ambiguous" in str(e) and "es ambigua" in e.localized("es")


def test_a_letter_of_the_other_language_is_named_with_its_reading() -> None:
    with pytest.raises(UnknownPieceLetterError) as info:
        read_scoresheet("1. e4 e5 2. Cf3 Cc6 3. Ab5 a6 4. Nc3", "chess")
    e = info.value
    assert (e.ply, e.number, e.token) == (7, 4, "Nc3")
    assert e.suggestions[0] == "Cc3"
    assert "'N' no es una letra de pieza en español" in e.localized("es")


@pytest.mark.parametrize(("text", "error", "ply", "token"), [
    ("1. e4 e5 3. Nf3", MoveNumberError, 3, "3."),
    ("1. e4 1... e5 2... Nf3", MoveNumberError, 3, "2..."),
    ("1. e4 e5 2. Nf3 %%", MalformedTokenError, 4, "%%"),
    ("1. f3 e5 2. g4 Qh4 3. a3", MovesAfterEndError, 5, "a3"),
    ("1. e4 e5 1-0 2. Nf3", MovesAfterEndError, 3, "2."),
    ("1. e4 1:75:00 e5", ClockError, 1, "1:75:00"),
    ("1:00:00 1. e4", ClockError, 0, "1:00:00"),
])
def test_bad_input_is_typed_and_named(text: str, error: type[ScoresheetError], ply: int,
                                      token: str) -> None:
    with pytest.raises(error) as info:
        read_scoresheet(text, "chess")
    assert (info.value.ply, info.value.token) == (ply, token)
    assert info.value.localized("es") != str(info.value)


def test_the_board_decides_the_result_after_mate_and_stalemate() -> None:
    mate = "1. f3 e5 2. g4 Qh4#"
    assert read_scoresheet(mate, "chess").result == "0-1"
    assert read_scoresheet(mate, "chess").forced
    assert read_scoresheet(mate + " 0-1", "chess", result="0-1").result == "0-1"
    with pytest.raises(ScoresheetResultError) as info:
        read_scoresheet(mate, "chess", result="1/2-1/2")
    assert "checkmate" in str(info.value) and "jaque mate" in info.value.localized("es")
    stalemate = "7k/4Q3/6K1/8/8/8/8/8 w - - 0 1"
    assert read_scoresheet("1. Qf7", "chess", stalemate).result == "1/2-1/2"
    with pytest.raises(ScoresheetResultError):
        read_scoresheet("1. Qf7 1-0", "chess", stalemate)


def test_otherwise_the_result_is_the_arbiters() -> None:
    assert read_scoresheet("1. e4 e5", "chess").result == "*"
    assert read_scoresheet("1. e4 e5 1-0", "chess").result == "1-0"
    assert read_scoresheet("1. e4 e5", "chess", result="0-1").result == "0-1"
    with pytest.raises(ScoresheetResultError):
        read_scoresheet("1. e4 e5 1-0", "chess", result="0-1")
    with pytest.raises(ScoresheetResultError):
        read_scoresheet("1. e4", "chess", result="2-0")


def test_long_algebraic_and_numbers_glued_to_moves() -> None:
    sheet = read_scoresheet("1.e2-e4 e7e5 2.Cg1-f3 2...Cb8-c6 3.Af1xb5", "chess")
    assert sheet.uci() == ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]
    pos = Position(get_variant("chess").start_fen, "chess")
    assert sheet.end_position().fen() != pos.fen()


def test_marks_written_apart_from_the_move_are_skipped() -> None:
    sheet = read_scoresheet("1. e4 d5 2. e5 f5 3. exf6 e.p. Cf6 ? 4. Ab5 + !", "chess")
    assert sheet.uci() == ["e2e4", "d7d5", "e4e5", "f7f5", "e5f6", "g8f6", "f1b5"]
    assert read_scoresheet("1. e4 d5 2. e5 f5 3. exf6 a.p.", "chess", lang="es").uci()[-1] \
        == "e5f6"


def test_a_text_that_is_not_a_game() -> None:
    with pytest.raises(MalformedTokenError):
        read_scoresheet("", "chess")
    with pytest.raises(MalformedTokenError):
        read_scoresheet("{unclosed comment 1. e4", "chess")


def test_what_the_fuzzer_found_is_a_typed_error() -> None:
    # a 5000-digit move number (int() refuses it), a Unicode digit, and move numbers glued
    # 3000 deep (they once recursed): each the number of the move that follows
    for text in ("1. e4 e5 2. " + "9" * 5000, "1. e4 ٣. e5"):
        with pytest.raises(ScoresheetError):
            read_scoresheet(text, "chess")
    assert read_scoresheet("1. e4 e5 " + "2." * 3000 + " Nf3", "chess").uci()[-1] == "g1f3"
