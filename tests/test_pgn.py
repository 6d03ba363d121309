"""PGN: lossless import of lichess-, cutechess- and python-chess-style files (made by
tests/data/make_pgn_samples.py), read -> write -> read round trips in every variant, Variant
tag spellings (D-26), streaming, and per-game error reports."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import pytest

from randomchess.game import Game
from randomchess.pgn import (
    Node,
    PgnError,
    PgnGame,
    parse_game,
    read_games,
    variant_from_tag,
    write_game,
    write_games,
)
from randomchess.position import Move, Position
from randomchess.variants import get_variant

DATA = Path(__file__).parent / "data"
SAMPLES = ["lichess_chess960.pgn", "cutechess_fischerandom.pgn", "python_chess_export.pgn"]


def tree(nodes: list[Node]) -> list[Any]:
    return [(n.move, sorted(n.nags), n.comment, n.starting_comment,
             [tree(v) for v in n.variations]) for n in nodes]


def their_tree(node: chess.pgn.GameNode, board: chess.Board | None = None) -> list[Any]:
    """python-chess's move tree in our terms (castling as king takes rook, D-21)."""
    board = node.board() if board is None else board
    out = []
    while node.variations:
        main = node.variations[0]
        out.append((ours(board, main.move), sorted(main.nags), main.comment,
                    main.starting_comment,
                    [their_line(board, v) for v in node.variations[1:]]))
        board.push(main.move)
        node = main
    return out


def their_line(board: chess.Board, start: chess.pgn.ChildNode) -> list[Any]:
    first = (ours(board, start.move), sorted(start.nags), start.comment,
             start.starting_comment, [])
    board = board.copy()
    board.push(start.move)
    return [first, *their_tree(start, board)]


def ours(board: chess.Board, move: chess.Move) -> Move:
    if board.is_castling(move) and not board.chess960:
        rook = chess.H1 if chess.square_file(move.to_square) == 6 else chess.A1
        return Move(move.from_square, rook + 56 * (board.turn == chess.BLACK))
    return Move(move.from_square, move.to_square, move.promotion or 0)


def same(a: PgnGame, b: PgnGame) -> None:
    assert a.headers == b.headers
    assert a.variant == b.variant
    assert Position(a.start_fen, a.variant) == Position(b.start_fen, b.variant)
    assert tree(a.moves) == tree(b.moves)
    assert (a.comment, a.result) == (b.comment, b.result)


# ---------------------------------------------------------------------------- import
@pytest.mark.parametrize("name", SAMPLES)
def test_samples_import_without_loss(name: str) -> None:
    ours = list(read_games(DATA / name))
    with open(DATA / name) as handle:
        theirs = []
        while (g := chess.pgn.read_game(handle)) is not None:
            theirs.append(g)
    assert len(ours) == len(theirs) == 12
    for a, b in zip(ours, theirs, strict=True):
        assert a.error is None and not a.warnings
        assert a.variant.key == ("chess960" if "Variant" in b.headers else "chess")
        assert a.headers == dict(b.headers)
        assert a.result == b.headers["Result"]
        assert tree(a.moves) == their_tree(b)
        assert a.comment == b.comment


@pytest.mark.parametrize("name", SAMPLES)
def test_samples_round_trip(name: str) -> None:
    for game in read_games(DATA / name):
        for lang in ("en", "es"):
            for fen in ("xfen", "shredder"):
                text = write_game(game, lang=lang, fen=fen)  # type: ignore[arg-type]
                again = parse_game(text, lang=lang)  # type: ignore[arg-type]
                roster = {k: v for k, v in game.headers.items()
                          if k not in ("Variant", "SetUp", "FEN")}
                assert {k: again.headers[k] for k in roster} == roster
                assert tree(again.moves) == tree(game.moves)
                assert again.result == game.result


def test_our_output_reads_in_python_chess() -> None:
    for game in read_games(DATA / "python_chess_export.pgn"):
        text = write_game(game)
        theirs = chess.pgn.read_game(io.StringIO(text))
        assert theirs is not None and not theirs.errors
        assert their_tree(theirs) == tree(game.moves)


# ---------------------------------------------------------------------------- 9x9 round trips
def random_record(variant: str, rng: random.Random, adjustment: bool) -> PgnGame:
    v = get_variant(variant)
    army = list(v.army)
    while True:
        rng.shuffle(army)
        rank = "".join(army)
        if v.is_setup(rank) and (not adjustment or v.bishops_same_colour(rank)):
            break
    if not v.is_random:
        rank = v.army if v.fixed_rank is None else v.fixed_rank
    fen = v.setup_fen(rank, adjustment=adjustment) if v.has_adjustment else v.setup_fen(rank)
    pos = Position(fen, v)
    root: list[Node] = []
    nodes = root
    for i in range(rng.randrange(30, 90)):
        moves = pos.legal_moves()
        if not moves:
            break
        special = [m for m in moves if pos.is_castling(m) or pos.is_adjustment(m)]
        move = rng.choice(special if special and rng.random() < 0.6 else moves)
        node = Node(move, comment=f"c{i}" if i % 4 == 0 else "", nags=[1] if i % 5 == 0 else [])
        if i % 6 == 2 and len(moves) > 1:
            alt = [m for m in moves if m != move]
            pos_alt = pos.copy()
            pos_alt.push(alt[0])
            follow = pos_alt.legal_moves()
            node.variations.append([Node(alt[0], starting_comment="try"),
                                    *([Node(follow[0])] if follow else [])])
        nodes.append(node)
        pos.push(move)
    return PgnGame(headers={"Event": "rt", "White": "a", "Black": "b", "Result": "*"},
                   variant=v, start_fen=fen, moves=root)


@pytest.mark.parametrize("variant", ["mrc", "modern", "chess960"])
def test_round_trip_random_games(variant: str) -> None:
    rng = random.Random(variant)
    adjustments = 0
    for n in range(12):
        record = random_record(variant, rng, adjustment=variant != "chess960" and n % 2 == 0)
        for lang in ("en", "es"):
            text = write_game(record, lang=lang)  # type: ignore[arg-type]
            again = parse_game(text)  # language inferred per game
            assert tree(again.moves) == tree(record.moves), text
            assert again.variant == record.variant
            assert write_game(again, lang=lang) == text  # type: ignore[arg-type]
        pos = record.start_position()
        for node in record.moves:
            adjustments += pos.is_adjustment(node.move)
            pos.push(node.move)
    if variant != "chess960":
        assert adjustments


# ---------------------------------------------------------------------------- tags
@pytest.mark.parametrize("tag,key", [
    ("Chess960", "chess960"), ("Chess 960", "chess960"), ("Fischerandom", "chess960"),
    ("fischerandom", "chess960"), ("Fischer Random", "chess960"), ("FRC", "chess960"),
    ("Modern Random Chess", "mrc"), ("MRC", "mrc"), ("Modern", "modern"),
    ("Standard", "chess"), ("From Position", "chess"),
])
def test_variant_tag_spellings_d26(tag: str, key: str) -> None:
    assert variant_from_tag(tag).key == key


def test_written_variant_tags() -> None:
    sp3 = "bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1"
    text = write_game(Game(sp3, "chess960"))
    assert '[Variant "Chess960"]' in text and '[SetUp "1"]' in text
    assert f'[FEN "{sp3}"]' in text
    assert '[FEN "bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w GEge - 0 1"]' in \
        write_game(Game(sp3, "chess960"), fen="shredder")
    mrc = get_variant("mrc").setup_fen("RBKNQBNMR")
    assert '[Variant "Modern Random Chess"]' in write_game(Game(mrc, "mrc"))
    assert '[Variant "Modern"]' in write_game(Game(None, "modern"))
    plain = write_game(Game())
    assert "Variant" not in plain and "FEN" not in plain
    lines = plain.splitlines()
    assert [line.split()[0][1:] for line in lines[:7]] == \
        ["Event", "Site", "Date", "Round", "White", "Black", "Result"]


def test_variant_inferred_from_fen() -> None:
    game = parse_game('[FEN "bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1"]\n\n'
                      "1. O-O *")
    assert game.variant.key == "chess960"
    nine = get_variant("mrc").setup_fen("RBKNQBNMR")
    game = parse_game(f'[FEN "{nine}"]\n\n1. B=K *')
    assert game.variant.key == "mrc" and game.warnings
    assert parse_game("1. e4 *").variant.key == "chess"


def test_game_to_pgn_and_back() -> None:
    game = Game()
    for text in ("f3", "e5", "g4", "Qh4"):
        game.push_san(text)
    text = write_game(game, headers={"White": "me"})
    assert '[Result "0-1"]' in text and '[Termination "normal"]' in text
    assert text.rstrip().endswith("2. g4 Qh4# 0-1")
    again = parse_game(text).to_game()
    assert again.outcome == game.outcome
    out = io.StringIO()
    assert write_games([game, game], out) == 2
    assert len(list(read_games(io.StringIO(out.getvalue())))) == 2


# ---------------------------------------------------------------------------- movetext details
def test_comments_nags_glyphs_escapes() -> None:
    text = """[Event "a \\"quoted\\" name"]

{opening comment} 1. e4! {good} ; line comment
% escaped line, ignored
1... e5?! $14 2. Nf3 (2. f4 {gambit} exf4 (2... d5) 3. Nf3) 2... Nc6 1-0
"""
    game = parse_game(text)
    assert game.headers["Event"] == 'a "quoted" name'
    assert game.comment == "opening comment"
    e4, e5, nf3, nc6 = game.moves
    assert e4.nags == [1] and e4.comment == "good line comment"
    assert e5.nags == [6, 14]
    assert [n.san for n in nf3.variations[0]] == ["f4", "exf4", "Nf3"]
    assert nf3.variations[0][0].comment == "gambit"
    assert [n.san for n in nf3.variations[0][1].variations[0]] == ["d5"]
    assert nc6.move == Move(57, 42)
    assert game.result == "1-0"
    again = parse_game(write_game(game))
    assert tree(again.moves) == tree(game.moves)
    assert game.headers.items() <= again.headers.items()


def test_lenient_movetext() -> None:
    text = "1.e4 d5 2.e5 f5 3.exf6 e.p. Nxf6 4.Nf3 Nc6 5.Be2 Bf5 6.0-0 Qd7 *"
    game = parse_game(text)
    assert len(game.moves) == 12 and game.moves[4].san == "exf6"


def test_movetext_only_games_split_on_results() -> None:
    games = list(read_games(io.StringIO("1. e4 e5 1-0\n\n1. d4 d5 0-1\n\n1. c4 *\n")))
    assert [g.result for g in games] == ["1-0", "0-1", "*"]
    assert [g.line for g in games] == [1, 3, 5]


def test_result_warnings() -> None:
    game = parse_game('[Result "1-0"]\n\n1. e4 e5 0-1')
    assert game.warnings and "differs" in game.warnings[0]
    game = parse_game("1. e4 e5 1-0 2. Nf3")
    assert any("after the result" in w for w in game.warnings)
    game = parse_game('[Result "1/2-1/2"]\n\n1. e4 e5')
    assert game.result == "1/2-1/2"


def test_spanish_pgn_and_language_inference() -> None:
    spanish = "1. e4 e5 2. Cf3 Cc6 3. Ab5 a6 4. Aa4 Cf6 5. O-O b5 6. Ab3 Ae7 7. Te1 *"
    game = parse_game(spanish)
    assert [n.san for n in game.moves][-3:] == ["Ab3", "Ae7", "Te1"]
    assert parse_game(spanish, lang="es").mainline() == game.mainline()
    with pytest.raises(PgnError, match="mix English and Spanish"):
        parse_game("1. e4 e5 2. Nf3 Cc6 *")
    # Only R (king in Spanish) and pawns: the one reading that is legal is taken, with a
    # warning (issue 13); when neither is legal the English error says how to ask for Spanish.
    only_spanish = parse_game("1. e4 e5 2. Re2 *")
    assert only_spanish.moves[2].move == Move(4, 12)
    assert any("read as Spanish" in w for w in only_spanish.warnings)
    with pytest.raises(PgnError, match="--lang es"):
        parse_game("1. e4 e5 2. Re3 *")
    assert parse_game("1. e4 e5 2. Re2 *", lang="es").moves[2].move == Move(4, 12)


# ---------------------------------------------------------------------------- streaming, errors
class CountingReader(io.StringIO):
    lines_read = 0

    def __next__(self) -> str:
        self.lines_read += 1
        return super().__next__()


def test_reading_is_streamed() -> None:
    one = '[Event "x"]\n\n1. e4 e5 *\n\n'
    source = CountingReader(one * 1000)
    games = read_games(source)
    first = next(games)
    assert first.number == 1 and len(first.moves) == 2
    assert source.lines_read < 10
    assert sum(1 for _ in games) == 999


def test_broken_file_reports_every_game() -> None:
    games = list(read_games(DATA / "broken.pgn"))
    assert len(games) == 9
    errors = {g.number: g.error for g in games if g.error is not None}
    assert set(errors) == {2, 3, 4, 5, 6, 7}
    assert errors[2] is not None and errors[2].ply == 5 and errors[2].move == "3. Ke3"
    assert errors[2].line == 9 and "illegal" in errors[2].reason
    assert errors[3] is not None and "ambiguous" in errors[3].reason and errors[3].ply == 7
    assert errors[4] is not None and "unterminated comment" in str(errors[4])
    assert errors[5] is not None and "Crazyhouse" in str(errors[5])
    assert errors[6] is not None and "castling" in str(errors[6])
    assert errors[7] is not None and "matching" in str(errors[7])
    # A tag pair without its closing quote is read, as python-chess reads it (issue 36).
    assert games[7].headers["Event"] == "malformed tag" and games[7].moves[0].san == "e4"
    assert any("closing quote" in w for w in games[7].warnings)
    good = [g for g in games if g.error is None]
    assert [g.headers["Event"] for g in good] == ["good one", "malformed tag", "good again"]
    assert games[0].to_game().outcome is not None
    assert "game 2, line 9" in str(errors[2])


def test_errors_in_variations_and_partial_games() -> None:
    games = list(read_games(io.StringIO("1. e4 e5 (1... e4) 2. Nf3 *\n\n1. e4 (1. e5) *\n")))
    assert games[0].error is not None and games[0].error.in_variation
    assert games[1].error is not None and "variation" in str(games[1].error)
    assert len(games[0].moves) == 2  # what was read before the error is kept
    broken = list(read_games(io.StringIO("1. e4 (1. d4 d5 *")))
    assert broken[0].error is not None
    null = list(read_games(io.StringIO("1. e4 -- 2. d4 *")))
    assert null[0].error is not None and "null" in null[0].error.reason
    with pytest.raises(PgnError, match="no game"):
        parse_game("")
    with pytest.raises(PgnError, match="needs a FEN"):
        parse_game('[Variant "MRC"]\n\n1. e3 *')


# ---------------------------------------------------------------------------- issue 13
def test_blank_lines_inside_the_tag_section() -> None:
    """ChessBase exports put blank lines between tag pairs: still one game."""
    games = list(read_games(io.StringIO('[Event "x"]\n\n[Site "y"]\n\n1. e4 *\n\n'
                                        '[Event "z"]\n\n\n[Site "w"]\n1. d4 d5 1-0\n')))
    assert [g.error for g in games] == [None, None]
    assert [g.headers for g in games] == [{"Event": "x", "Site": "y"},
                                          {"Event": "z", "Site": "w"}]
    assert [len(g.moves) for g in games] == [1, 2]
    assert parse_game('[Event "x"]\n\n[Site "y"]\n\n1. e4 *').headers["Site"] == "y"


def test_chess960_without_fen_is_the_standard_array() -> None:
    """python-chess writes a Chess960 game from SP 518 with a Variant tag and no FEN."""
    board = chess.Board(chess960=True)
    game = chess.pgn.Game.from_board(board)
    node = game
    for uci in ("e2e4", "e7e5", "g1f3"):
        node = node.add_variation(chess.Move.from_uci(uci))
    text = str(game)
    assert '[Variant "Chess960"]' in text and "FEN" not in text
    ours = parse_game(text)
    assert ours.variant.key == "chess960"
    assert Position(ours.start_fen, "chess960") == Position(
        get_variant("chess960").setup_fen("RNBQKBNR"), "chess960")
    assert [n.san for n in ours.moves] == ["e4", "e5", "Nf3"]
    # MRC has no single standard array: still an error without a FEN.
    with pytest.raises(PgnError, match="needs a FEN"):
        parse_game('[Variant "Modern Random Chess"]\n\n1. e3 *')


MRC_FEN = "qnbnrkrbm/ppppppppp/9/9/9/9/9/PPPPPPPPP/MBRKRNBNQ w ECge - 0 1"
SPANISH_KING_GAME = f'[Variant "MRC"]\n[FEN "{MRC_FEN}"]\n\n1. e3 e7 2. Re2 *\n'


def test_a_game_that_reads_as_two_games_is_not_guessed() -> None:
    """In this MRC array 'Re2' is a legal rook move (English) and a legal king move
    (Spanish); with no language given the reader must not pick one."""
    from randomchess.pgn import AmbiguousLanguageError

    with pytest.raises(AmbiguousLanguageError, match="English and in Spanish"):
        parse_game(SPANISH_KING_GAME)
    assert issubclass(AmbiguousLanguageError, PgnError)
    (game,) = read_games(io.StringIO(SPANISH_KING_GAME))
    assert isinstance(game.error, AmbiguousLanguageError)
    pos = Position(MRC_FEN, "mrc")
    pos.push_uci("e2e3")
    pos.push_uci("e8e7")
    king, rook = pos.parse_uci("d1e2"), pos.parse_uci("e1e2")
    assert parse_game(SPANISH_KING_GAME, lang="es").moves[2].move == king
    assert parse_game(SPANISH_KING_GAME, lang="en").moves[2].move == rook
    # The Language tag settles it.
    tagged = SPANISH_KING_GAME.replace("\n\n", '\n[Language "es"]\n\n', 1)
    assert parse_game(tagged).moves[2].san == "Re2"
    spanish_line = parse_game(tagged).mainline()
    assert spanish_line == parse_game(SPANISH_KING_GAME, lang="es").mainline()
    english = parse_game(SPANISH_KING_GAME.replace("\n\n", '\n[Language "en"]\n\n', 1))
    assert english.mainline() == parse_game(SPANISH_KING_GAME, lang="en").mainline()


def test_spanish_output_carries_the_language_tag() -> None:
    game = parse_game(SPANISH_KING_GAME, lang="es")
    text = write_game(game, lang="es")
    assert '[Language "es"]' in text
    assert parse_game(text).mainline() == game.mainline()
    assert "Language" not in write_game(parse_game(text), lang="en")


def _their_export(text: str) -> list[str]:
    handle, out = io.StringIO(text), []
    while (game := chess.pgn.read_game(handle)) is not None:
        out.append(game.accept(chess.pgn.StringExporter()) + "\n\n")
    return out


@pytest.mark.parametrize(("name", "fen"), [("lichess_chess960.pgn", "xfen"),
                                           ("python_chess_export.pgn", "xfen"),
                                           ("cutechess_fischerandom.pgn", "shredder")])
def test_written_bytes_equal_python_chess(name: str, fen: str) -> None:
    """Issue 13, item 8: python-chess's exporter and ours write the same bytes for the same
    game.  The one difference in these files: python-chess copies a Variant tag as it was
    read (cutechess's 'fischerandom'), we write the D-26 name."""
    text = (DATA / name).read_text()
    ours = [write_game(g, fen=fen) for g in read_games(io.StringIO(text))]  # type: ignore[arg-type]
    theirs = _their_export(text)
    assert len(ours) == len(theirs) == 12
    for a, b in zip(ours, theirs, strict=True):
        if name.startswith("cutechess"):
            b = b.replace('[Variant "fischerandom"]', '[Variant "Chess960"]')
        assert a == b


def test_written_bytes_equal_python_chess_on_its_own_games() -> None:
    """Games python-chess builds itself (tags in its order, a Chess960 game from SP 518 with
    no FEN, comments, NAGs, variations, long lines)."""
    rng = random.Random(13)
    for number in range(30):
        board = chess.Board.from_chess960_pos(518 if number % 5 == 0 else rng.randrange(960))
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = f"sample {number}"
        game.headers["Annotator"] = "random"
        node: chess.pgn.GameNode = game
        game.comment = "start" if number % 3 == 0 else ""
        for ply in range(rng.randrange(20, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            if ply % 11 == 5 and len(moves) > 1:
                side = node.add_variation(rng.choice([m for m in moves if m != move]))
                side.starting_comment = "idea" if ply % 2 else ""
                side.nags.update({2, 1} if ply % 3 else set())
            node = node.add_main_variation(move, comment="c" * (ply % 7) * 9)
            board.push(move)
        game.headers["Result"] = board.result()
        text = game.accept(chess.pgn.StringExporter()) + "\n\n"  # 80 columns
        assert write_game(parse_game(text)) == text


@pytest.mark.parametrize(("text", "reason"), [
    ("1. e4 $" + "9" * 5000 + " *", "NAG"),  # int() of 5,000 digits is a bare ValueError
    ("1. e4 $256 *", "NAG"),
    ("1. e4 \u00b2 e5 *", "malformed move"),  # '²'.isdigit(): not a move number
    ("1. e4 \u0663. e5 *", "malformed move"),  # Arabic-Indic 3: not a move number either
])
def test_movetext_numbers_are_ascii_and_bounded(text: str, reason: str) -> None:
    with pytest.raises(PgnError, match=reason):
        parse_game(text)


# ---------------------------------------------------------------------------- issue 36
def _nested(depth: int) -> str:
    firsts = ["d4", "c4", "Nf3", "Nc3", "b3", "g3", "f4", "b4", "a3", "h3"]
    return "1. e4 " + "".join(f"( 1. {firsts[i % 10]} " for i in range(depth)) + \
        ")" * depth + " *"


@pytest.mark.parametrize("depth", [986, 5000])
def test_deeply_nested_variations_are_read(depth: int) -> None:
    """Variations nested ~1,000 deep raised RecursionError out of read_games and lost the
    games after them (issue 36); python-chess reads them, and so do we."""
    text = _nested(depth) + '\n\n[Event "next"]\n\n1. d4 d5 *\n'
    games = list(read_games(io.StringIO(text)))
    assert [g.error for g in games] == [None, None]
    assert games[1].headers == {"Event": "next"} and len(games[1].moves) == 2
    first = games[0]
    nodes, levels = first.moves, 0
    while nodes[0].variations:
        nodes = nodes[0].variations[0]
        levels += 1
    assert levels == depth and nodes[0].san == ["d4", "c4", "Nf3", "Nc3", "b3", "g3", "f4",
                                                "b4", "a3", "h3"][(depth - 1) % 10]
    written = write_game(first)
    assert written.count("(") == depth
    again = parse_game(written)
    nodes = again.moves
    for _ in range(depth):
        nodes = nodes[0].variations[0]
    assert nodes[0].san == first_san(first, depth)
    # python-chess takes an alternative to a variation's first move as one more alternative
    # of the move itself: the same moves, flat.
    theirs = chess.pgn.read_game(io.StringIO(written))
    assert theirs is not None and len(theirs.variations) == depth + 1


def first_san(game: PgnGame, depth: int) -> str:
    nodes = game.moves
    for _ in range(depth):
        nodes = nodes[0].variations[0]
    return nodes[0].san


def deep_tree(levels: int) -> chess.pgn.Game:
    """A python-chess game whose variations nest ``levels`` deep: each line is two moves,
    the second one's alternative goes on."""
    rng = random.Random(36)
    game = chess.pgn.Game()
    node, board = game, chess.Board()
    while levels:
        xs = sorted(board.legal_moves, key=str)
        rng.shuffle(xs)
        for x in xs:
            board.push(x)
            ys = sorted(board.legal_moves, key=str)
            if len(ys) >= 2 and not board.is_check():
                break
            board.pop()
        else:
            raise AssertionError("no move with two replies")
        y = rng.choice(ys)
        alt = rng.choice([m for m in ys if m != y and has_moves(board, m)])
        first = node.add_main_variation(x)
        first.add_main_variation(y)
        node = first.add_variation(alt)
        board.push(alt)
        levels -= 1
    return game


def has_moves(board: chess.Board, move: chess.Move) -> bool:
    board.push(move)
    found = board.legal_moves.count() > 1
    board.pop()
    return found


def test_deep_variations_written_as_python_chess_writes_them() -> None:
    theirs = deep_tree(1500)
    text = theirs.accept(chess.pgn.StringExporter()) + "\n\n"
    assert text.count("(") == 1500
    assert write_game(parse_game(text)) == text


def test_no_input_ends_the_stream() -> None:
    """Unbalanced deep nesting gets a PgnError, and the next game is still read."""
    text = "1. e4 " + "( 1. d4 " * 3000 + " *\n\n1. c4 *\n\n1. e4 " + ")" * 3000 + \
        " *\n\n1. Nf3 *\n"
    games = list(read_games(io.StringIO(text)))
    assert [g.error is None for g in games] == [False, True, False, True]


@pytest.mark.parametrize("before", ["%x\n", "% youpi\n", ";comment\n", "; a note\n\n",
                                    "%youpi\n; and a comment\n"])
def test_escape_and_comment_lines_before_the_tags(before: str) -> None:
    """A `%` escape line or a `;` comment line before the first tag pair turned the tags
    into moves ("malformed move '[Event'"); python-chess and lichess skip it (issue 36)."""
    text = before + '[Event "a"]\n; between the tags\n[Site "b"]\n\n1. e4 e5 *\n' \
        '\n%second\n[Event "c"]\n\n1. d4 *\n'
    games = list(read_games(io.StringIO(text)))
    assert [g.error for g in games] == [None, None]
    assert [g.headers for g in games] == [{"Event": "a", "Site": "b"}, {"Event": "c"}]
    assert [len(g.moves) for g in games] == [2, 1]
    theirs = chess.pgn.read_game(io.StringIO(text))
    assert theirs is not None and theirs.headers["Event"] == "a"
    # A comment line before the moves (after the tags or with none) is still the game's.
    assert parse_game(before + "1. e4 *").moves[0].san == "e4"
    assert parse_game('[Event "a"]\n;note\n1. e4 *').comment == "note"
    assert parse_game(";note\n1. e4 *").comment == "note"


@pytest.mark.parametrize(("text", "result", "tag"), [
    ('[Result "1\u20130"]\n\n1. e4 e5 1\u20130\n', "1-0", "1-0"),  # en dash
    ('[Result "0\u20131"]\n\n1. e4 e5 0\u20141\n', "0-1", "0-1"),  # en dash in the tag, em dash
    ('[Result "½-½"]\n\n1. e4 e5 ½-½\n', "1/2-1/2", "1/2-1/2"),
    ("1. e4 e5 ½\u2013½\n", "1/2-1/2", None),
    ("1. e4 e5 1/2\u20131/2\n", "1/2-1/2", None),
])
def test_results_with_dashes_and_halves(text: str, result: str, tag: str | None) -> None:
    """python-chess reads these files; we refused them as a malformed move (issue 36).  The
    result is read as the standard one, and written so."""
    theirs = chess.pgn.read_game(io.StringIO(text))
    assert theirs is not None and not theirs.errors
    assert [m.uci() for m in theirs.mainline_moves()] == ["e2e4", "e7e5"]
    game = parse_game(text)
    assert [n.san for n in game.moves] == ["e4", "e5"] and game.result == result
    assert game.headers.get("Result") == tag and not game.warnings
    written = write_game(game)
    assert f'[Result "{result}"]' in written and written.endswith(f" {result}\n\n")
    # The dash result ends the game: the next one is read on its own.
    games = list(read_games(io.StringIO(text + "\n1. d4 *\n")))
    assert [len(g.moves) for g in games] == [2, 1]


@pytest.mark.parametrize("line", ['[Event "unclosed]', '[Event "unclosed'])
def test_tag_without_its_closing_quote(line: str) -> None:
    """python-chess reads a game whose tag pair lacks its closing quote; so do we, with a
    warning (issue 36)."""
    text = line + '\n[Site "b"]\n\n1. e4 e5 *\n'
    theirs = chess.pgn.read_game(io.StringIO(text))
    assert theirs is not None and theirs.headers["Site"] == "b"
    game = parse_game(text)
    assert game.headers == {"Event": "unclosed", "Site": "b"} and len(game.moves) == 2
    assert any("closing quote" in w for w in game.warnings)
    with pytest.raises(PgnError, match="malformed tag"):
        parse_game('[Event unquoted]\n\n1. e4 *\n')


@pytest.mark.parametrize(("glyph", "nag"), [
    ("⩱", 15), ("⩲", 14), ("±", 16), ("∓", 17), ("+-", 18), ("-+", 19), ("+--", 18),
    ("--+", 19), ("+/-", 16), ("-/+", 17), ("+=", 14), ("=+", 15), ("=", 10), ("∞", 13),
    ("+\u2212", 18), ("\u2212+", 19), ("□", 7),
])
def test_evaluation_glyphs_are_nags(glyph: str, nag: int) -> None:
    """Evaluation symbols after a move (`⩱`, `+--` ...) were refused as malformed moves;
    python-chess reads those files (issue 36).  They are NAGs, written as `$n`."""
    text = f"1. e4 {glyph} e5 *\n"
    theirs = chess.pgn.read_game(io.StringIO(text))
    assert theirs is not None and not theirs.errors
    game = parse_game(text)
    assert [n.san for n in game.moves] == ["e4", "e5"] and game.moves[0].nags == [nag]
    assert f"1. e4 ${nag} e5 *" in write_game(game)
    if not glyph.isascii():  # a Unicode symbol may also stick to its move
        assert parse_game(f"1. e4{glyph} e5 *").moves[0].nags == [nag]
