"""Game review ("computer analysis"): an evaluation of every position of a game's main line,
the moves that lost winning chances marked as inaccuracy, mistake or blunder with the better
move, each side's accuracy, and the game written back as PGN with ``[%eval]`` comments and
NAGs.

Modelled on lichess (docs/engine.md, "Game review"):

* winning chances: ``win% = 50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1)`` for White,
  the centipawns clamped to +-1000, a mate counting as 100 or 0;
* a move's loss is the drop of the mover's win% from before to after it; on lichess's
  [-1, 1] "winning chances" scale the marks start at 0.1 (inaccuracy ?!), 0.2 (mistake ?)
  and 0.3 (blunder ??), i.e. 5, 10 and 15 points of win%;
* a move's accuracy is ``103.1668 * exp(-0.04354 * loss) - 3.1669 + 1`` (0..100), and a
  side's game accuracy the mean of the volatility-weighted mean and the harmonic mean of
  its moves' accuracies, as lichess computes it.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from randomchess.analysis.core import Analyser, AnalysisError, Limit, Score
from randomchess.game import is_dead_position
from randomchess.pgn import Node, PgnGame, write_game
from randomchess.pieces import WHITE
from randomchess.position import Move, Position
from randomchess.san import san

Judgement = Literal["inaccuracy", "mistake", "blunder"]
# Thresholds in points of win% (lichess: 0.1 / 0.2 / 0.3 of its [-1, 1] scale).
THRESHOLDS: tuple[tuple[float, Judgement], ...] = (
    (15.0, "blunder"), (10.0, "mistake"), (5.0, "inaccuracy"))
NAGS: dict[Judgement, int] = {"inaccuracy": 6, "mistake": 2, "blunder": 4}  # ?!  ?  ??
GLYPHS: dict[Judgement, str] = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
LABELS: dict[str, dict[Judgement, str]] = {
    "en": {"inaccuracy": "Inaccuracy", "mistake": "Mistake", "blunder": "Blunder"},
    "es": {"inaccuracy": "Imprecisión", "mistake": "Error", "blunder": "Error grave"},
}
BEST_WAS = {"en": "{label}. {best} was best.", "es": "{label}. Era mejor {best}."}

Progress = Callable[[int, int], None]  # (positions done, positions in all)


@dataclass
class PlyReview:
    """The move at one ply of the main line and what the engine made of it."""

    ply: int  # 1-based
    san: str
    uci: str
    score: Score | None  # after the move, White's point of view (None: game over there)
    win: float  # White's win% after the move
    loss: float  # the mover's drop in win%, >= 0
    accuracy: float
    judgement: Judgement | None = None
    best_uci: str | None = None  # the engine's move in the position before (when marked)
    best_san: str | None = None
    best_pv: list[str] = field(default_factory=list)  # SAN of the better line
    best_pv_uci: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return {"ply": self.ply, "san": self.san, "uci": self.uci,
                "score": None if self.score is None else self.score.as_dict(),
                "win": round(self.win, 2), "loss": round(self.loss, 2),
                "accuracy": round(self.accuracy, 1), "judgement": self.judgement,
                "best_uci": self.best_uci, "best_san": self.best_san, "best_pv": self.best_pv,
                "best_pv_uci": self.best_pv_uci}


@dataclass
class Review:
    """A whole game's review."""

    engine: str
    depth: int
    movetime: int
    start_score: Score | None
    plies: list[PlyReview]
    accuracy: tuple[float | None, float | None]  # White, Black

    first_mover: int = WHITE

    def counts(self, color: int) -> dict[str, int]:
        out = {"inaccuracy": 0, "mistake": 0, "blunder": 0}
        for p in self.plies:
            mover = (p.ply - 1 + self.first_mover) % 2
            if p.judgement and mover == color:
                out[p.judgement] += 1
        return out

    def as_dict(self) -> dict[str, object]:
        return {
            "engine": self.engine, "depth": self.depth, "movetime": self.movetime,
            "start_score": None if self.start_score is None else self.start_score.as_dict(),
            "first_mover": "white" if self.first_mover == WHITE else "black",
            "plies": [p.as_dict() for p in self.plies],
            "accuracy": {"white": _round(self.accuracy[0]), "black": _round(self.accuracy[1])},
            "counts": {"white": self.counts(0), "black": self.counts(1)},
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Review:
        """The inverse of :meth:`as_dict` (for a review stored as JSON)."""
        def score(d: object) -> Score | None:
            if not isinstance(d, dict):
                return None
            return Score(cp=d.get("cp"), mate=d.get("mate"))

        plies = []
        for p in data["plies"]:  # type: ignore[attr-defined]
            plies.append(PlyReview(
                ply=p["ply"], san=p["san"], uci=p["uci"], score=score(p["score"]),
                win=p["win"], loss=p["loss"], accuracy=p["accuracy"],
                judgement=p["judgement"], best_uci=p["best_uci"], best_san=p["best_san"],
                best_pv=list(p["best_pv"]), best_pv_uci=list(p.get("best_pv_uci", []))))
        acc = data["accuracy"]
        assert isinstance(acc, dict)
        review = cls(str(data["engine"]), int(data["depth"]),  # type: ignore[call-overload]
                     int(data["movetime"]), score(data["start_score"]),  # type: ignore[call-overload]
                     plies, (acc.get("white"), acc.get("black")),
                     WHITE if data.get("first_mover", "white") == "white" else 1)
        return review


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 1)


def judge(loss: float) -> Judgement | None:
    for threshold, name in THRESHOLDS:
        if loss >= threshold:
            return name
    return None


def move_accuracy(loss: float) -> float:
    """lichess's accuracy of one move from its loss of win% (0..100)."""
    if loss <= 0:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * loss) - 3.166924740191411
    return max(0.0, min(100.0, raw + 1))


def game_accuracy(wins: Sequence[float], first: int) -> tuple[float | None, float | None]:
    """Each side's accuracy from White's win% before the first move and after each move:
    the mean of the volatility-weighted mean and the harmonic mean (lichess)."""
    moves = len(wins) - 1
    if moves < 1:
        return None, None
    window = max(2, min(8, moves // 10))
    windows = [list(wins[:window])] * max(0, min(window, len(wins)) - 2)
    windows += [list(wins[i:i + window]) for i in range(len(wins) - window + 1)]
    per_side: tuple[list[tuple[float, float]], list[tuple[float, float]]] = ([], [])
    for i in range(moves):
        color = (first + i) % 2
        before, after = wins[i], wins[i + 1]
        if color != WHITE:
            before, after = 100 - before, 100 - after
        sd = statistics.pstdev(windows[i]) if i < len(windows) else 0.5
        weight = max(0.5, min(12.0, sd))
        per_side[color].append((move_accuracy(before - after), weight))
    out: list[float | None] = []
    for items in per_side:
        if not items:
            out.append(None)
            continue
        weighted = sum(a * w for a, w in items) / sum(w for _, w in items)
        harmonic = len(items) / sum(1 / max(a, 0.01) for a, _ in items)
        out.append((weighted + harmonic) / 2)
    return out[0], out[1]


def _terminal_win(pos: Position) -> float | None:
    """White's win% in a position where the game is over by the rules, else None."""
    if not pos.legal_moves():
        if pos.is_check():
            return 0.0 if pos.turn == WHITE else 100.0
        return 50.0
    if is_dead_position(pos):
        return 50.0
    return None


def review_game(game: PgnGame, engine: Analyser, limit: Limit,
                progress: Progress | None = None) -> Review:
    """Analyse every position of ``game``'s main line (one engine search each)."""
    pos = game.start_position()
    moves = game.mainline()
    first = pos.turn
    total = len(moves) + 1
    scores: list[Score | None] = []
    bests: list[tuple[Move | None, list[str], list[str]]] = []
    wins: list[float] = []
    keys: list[int] = []
    positions: list[Position] = []
    for i in range(total):
        positions.append(pos.copy(stack=False))
        terminal = _terminal_win(pos)
        if terminal is not None:
            scores.append(None)
            bests.append((None, [], []))
            wins.append(terminal)
        else:
            lines = engine.analyse(pos, limit, 1, game_keys=keys)
            if not lines:
                raise AnalysisError(f"{engine.name} returned no line at ply {i}")
            line = lines[0]
            scores.append(line.score)
            bests.append((pos.parse_uci(line.pv[0]), line.san, line.pv))
            wins.append(line.score.win_percent())
        if progress is not None:
            progress(i + 1, total)
        if i < len(moves):
            keys.append(pos.zobrist)
            pos.push(moves[i])
    plies: list[PlyReview] = []
    for i, move in enumerate(moves):
        before_pos = positions[i]
        white = before_pos.turn == WHITE
        before, after = wins[i], wins[i + 1]
        loss = max(0.0, (before - after) if white else (after - before))
        best, best_line, best_uci_line = bests[i]
        text = san(before_pos, move)
        mark = judge(loss) if best is not None and best != move else None
        entry = PlyReview(i + 1, text, before_pos.uci(move), scores[i + 1], after, loss,
                          move_accuracy(loss), mark)
        if mark is not None and best is not None:
            entry.best_uci = before_pos.uci(best)
            entry.best_san = san(before_pos, best)
            entry.best_pv = best_line
            entry.best_pv_uci = best_uci_line
        plies.append(entry)
    limit_depth, limit_time = limit.depth, limit.movetime
    return Review(engine.name, limit_depth, limit_time, scores[0], plies,
                  game_accuracy(wins, first), first)


def annotate(game: PgnGame, review: Review, lang: str = "en") -> PgnGame:
    """A copy of ``game`` whose main-line moves carry ``[%eval]`` comments, NAGs for the
    marks and the better line as a variation; tags name the engine and the accuracies."""
    labels = LABELS.get(lang, LABELS["en"])
    best_was = BEST_WAS.get(lang, BEST_WAS["en"])
    nodes: list[Node] = []
    pos = game.start_position()
    if len(review.plies) != len(game.moves):
        raise AnalysisError("the review does not belong to this game")
    for node, p in zip(game.moves, review.plies, strict=True):
        if pos.uci(node.move) != p.uci:
            raise AnalysisError(f"the review does not belong to this game (ply {p.ply})")
        comment = node.comment
        parts = [f"[%eval {p.score.pgn()}]"] if p.score is not None else []
        if p.judgement is not None and p.best_san:
            parts.append(best_was.format(label=labels[p.judgement], best=p.best_san))
        new_comment = " ".join([c for c in (comment, *parts) if c])
        nags = [n for n in node.nags if n not in (2, 4, 6)]
        variations = list(node.variations)
        if p.judgement is not None:
            nags.append(NAGS[p.judgement])
            line = _variation(pos, p.best_pv_uci or ([p.best_uci] if p.best_uci else []))
            if line:
                variations = [*variations, line]
        nodes.append(Node(node.move, node.san, nags, new_comment, node.starting_comment,
                          variations))
        pos.push(node.move)
    headers = dict(game.headers)
    headers["Annotator"] = review.engine
    for side, acc in zip(("White", "Black"), review.accuracy, strict=True):
        if acc is not None:
            headers[f"{side}Accuracy"] = f"{acc:.1f}"
    return PgnGame(headers=headers, variant=game.variant, start_fen=game.start_fen,
                   moves=nodes, comment=game.comment, result=game.result)


def _variation(pos: Position, line_uci: list[str]) -> list[Node]:
    """The better line (at most 8 plies) as PGN nodes, stopping at a move that is not legal."""
    board = pos.copy(stack=False)
    out: list[Node] = []
    for text in line_uci[:8]:
        try:
            m = board.parse_uci(text)
        except ValueError:
            break
        out.append(Node(m))
        board.push(m)
    return out


def annotated_pgn(game: PgnGame, review: Review, lang: str = "en") -> str:
    return write_game(annotate(game, review, lang), lang="en")
