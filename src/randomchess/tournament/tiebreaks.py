"""Tiebreaks by FIDE's Play-Off and Tie-Break Regulations (Handbook C.07), with the arithmetic
behind every value, in either of two editions (:data:`EDITIONS`): the text in force from
1 March 2026 (the default) or the 2023/24 text it replaced (approved 1 August 2023, applied
from 1 September 2023 to FIDE events and from 1 April 2024 to all rated ones).  For the
tiebreaks offered here they differ only in Article 16.4 (below).

Codes (as in the regulations): ``BH`` Buchholz, ``BH-C1`` Buchholz cut 1, ``BH-M1`` median
Buchholz (cut the highest and the lowest), ``SB`` Sonneborn-Berger, ``PS`` progressive
score, ``DE`` direct encounter, ``WIN`` rounds won (with or without playing), ``WON``
games won over the board.

Unplayed rounds (Article 16, as implemented here; docs/tournaments.md has examples):

* a participant's **own** unplayed round (any bye, a forfeit won or lost, an absence) counts
  in BH and SB as a game against a *dummy opponent* whose score is the participant's own
  final score; the 2026 text caps it (16.4.1: a forfeit, won or lost, at the scheduled
  opponent's adjusted score; 16.4.2: any bye or absence at draw points x rounds, half the
  rounds counted); low cuts remove the *voluntarily* unplayed rounds (unplayed without a
  win's points: half- and zero-point byes, absences, forfeits lost) first, then the lowest
  value;
* an **opponent's** score keeps the points of his unplayed rounds, except the rounds without
  an opponent after his last round available to play (he withdrew): draws;
* in a round robin a forfeit counts as a game against the scheduled opponent, a free round
  not at all, and a withdrawn opponent's unpaired rounds count nothing;
* DE (Article 6): the score among the players still tied, in games over the board (a
  forfeit counts in a round robin), repeated encounters averaged; ordered by it when all have
  met (6.1), else a player is split off only when no other could catch him by winning every
  missing encounter (6.2); every part still tied is ranked again on its own games;
* under the 2023/24 text this is how the FIDE Technical Commission's own TieBreakServer
  computes them; its tie-break exercise of 18 March 2024 is a test here, and so are its
  answers on 57 random events (the 2026 caps are checked by hand);
* PS adds the participant's running score after each round (byes included); WIN counts
  every round with a win's points (PAB, full-point bye and forfeit wins included); WON only
  games won over the board.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from randomchess.tournament.errors import TournamentError
from randomchess.tournament.model import Entry, Tournament

TIEBREAKS: dict[str, str] = {
    "BH": "Buchholz",
    "BH-C1": "Buchholz cut 1",
    "BH-M1": "median Buchholz",
    "SB": "Sonneborn-Berger",
    "PS": "progressive score",
    "DE": "direct encounter",
    "WIN": "number of wins",
    "WON": "games won",
}
TIEBREAK_NAMES_ES: dict[str, str] = {
    "BH": "Buchholz",
    "BH-C1": "Buchholz menos 1",
    "BH-M1": "Buchholz mediano",
    "SB": "Sonneborn-Berger",
    "PS": "puntuación progresiva",
    "DE": "encuentro directo",
    "WIN": "número de victorias",
    "WON": "partidas ganadas",
}
# The editions of the regulations, by the year of the text: the one in force and the one
# it replaced (kept as an event option for events played under it).
EDITIONS: dict[str, str] = {
    "2026": "FIDE Play-Off and Tie-Break Regulations, in force from 1 March 2026",
    "2023": "FIDE Tie-Break Regulations of 2023/24 (applied 1 September 2023 to "
            "28 February 2026)",
}
EDITIONS_ES: dict[str, str] = {
    "2026": "Reglamento FIDE de desempates y play-off, en vigor desde el 1 de marzo de 2026",
    "2023": "Reglamento FIDE de desempates de 2023/24 (aplicado del 1 de septiembre de 2023 "
            "al 28 de febrero de 2026)",
}
DEFAULT_EDITION = "2026"
DEFAULT_SWISS = ("BH-C1", "BH", "SB", "PS", "DE", "WIN")
DEFAULT_ROUND_ROBIN = ("DE", "SB", "WIN")


def parse_tiebreaks(text: str | Sequence[str]) -> tuple[str, ...]:
    """Tiebreak codes from ``"BH-C1,BH,SB"`` (case-insensitive); ``TournamentError`` if one
    is unknown or repeated."""
    items = text.split(",") if isinstance(text, str) else list(text)
    codes = tuple(c.strip().upper() for c in items if c.strip())
    for c in codes:
        if c not in TIEBREAKS:
            raise TournamentError(
                f"unknown tiebreak {c!r}; known: {', '.join(TIEBREAKS)}",
                es=f"desempate desconocido {c!r}; se conocen: {', '.join(TIEBREAKS)}"
            )
    if len(set(codes)) != len(codes):
        raise TournamentError(f"a tiebreak is listed twice in {', '.join(codes)}",
                              es=f"un desempate aparece dos veces en {', '.join(codes)}")
    return codes


def fmt(x: Fraction) -> str:
    """``2½`` style without the glyph: ``2.5``, ``3``."""
    return str(int(x)) if x.denominator == 1 else f"{float(x):g}"


# The words of the arithmetic (``standings --explain``), in English and Spanish.
WORDS: dict[str, dict[str, str]] = {
    "en": {"unplayed": "R{r} unplayed ({code}): ", "own": "own score",
           "capped": "own score {own}, at most {why}", "opponents": "{name}'s",
           "half": "half the rounds", "cut": "cut", "won_rounds": "won rounds {rounds} = {n}",
           "won_games": "won games in rounds {rounds} = {n}", "none": "none", "vs": "vs",
           "mean": " (mean of {n} games)", "at_most": " (at most {x})",
           "still_tied": "; among {n} still tied: ", "not_tied": "not tied"},
    "es": {"unplayed": "R{r} no jugada ({code}): ", "own": "puntuación propia",
           "capped": "puntuación propia {own}, como máximo {why}", "opponents": "la de {name}",
           "half": "la mitad de las rondas", "cut": "corte",
           "won_rounds": "rondas ganadas {rounds} = {n}",
           "won_games": "partidas ganadas en las rondas {rounds} = {n}", "none": "ninguna",
           "vs": "contra", "mean": " (media de {n} partidas)", "at_most": " (como máximo {x})",
           "still_tied": "; entre los {n} aún empatados: ", "not_tied": "sin empate"},
}


@dataclass(frozen=True)
class Value:
    value: Fraction
    arithmetic: str
    defined: bool = True  # DE is undefined for a player who is not tied
    key: Fraction | None = None  # what ranks by it, when not the value itself (DE: the tier)


@dataclass(frozen=True)
class Standing:
    rank: int
    shared: bool  # tied on points and every tiebreak with the one above or below
    number: int
    name: str
    points: Fraction
    values: dict[str, Value]


class Calculator:
    """Tiebreaks of one snapshot after round ``upto`` (default: the last paired round)."""

    def __init__(self, tournament: Tournament, upto: int | None = None,
                 edition: str | None = None, lang: str = "en") -> None:
        self.t = tournament
        self.words = WORDS["es" if lang == "es" else "en"]
        self.upto = tournament.paired_rounds if upto is None else upto
        self.edition = tournament.event.tiebreak_edition if edition is None else edition
        if self.edition not in EDITIONS:
            raise TournamentError(f"unknown tiebreak edition {self.edition!r}; known: "
                                  f"{', '.join(EDITIONS)}",
                                  es=f"edición de desempates desconocida {self.edition!r}; se "
                                     f"conocen: {', '.join(EDITIONS)}")
        self._entries = {p.number: tournament.entries(p.number, self.upto)
                         for p in tournament.players}
        self._score = {n: sum((e.points for e in es), Fraction(0))
                       for n, es in self._entries.items()}

    def score(self, number: int) -> Fraction:
        return self._score[number]

    @staticmethod
    def _voluntary(e: Entry) -> bool:
        """A voluntarily unplayed round (VUR): unplayed without a win's points, that is a
        half- or zero-point bye, an absence, a forfeit lost.  The pairing-allocated bye, a
        full-point bye and a forfeit won are not."""
        return not e.played and e.points < 1

    @property
    def _round_robin(self) -> bool:
        return self.t.event.system != "swiss"

    def adjusted_score(self, number: int) -> Fraction:
        """The score an opponent contributes (16.3): his rounds keep their points, except
        the rounds without an opponent after his last round available to play (he
        withdrew), which count as draws in a Swiss and as nothing in a round robin."""
        entries = self._entries[number]
        last = max((e.round for e in entries if not self._voluntary(e)), default=0)
        instead = Fraction(0) if self._round_robin else Fraction(1, 2)
        return sum((e.points if e.round <= last or e.opponent is not None else instead
                    for e in entries), Fraction(0))

    def _contributions(self, number: int) -> list[tuple[Fraction, bool, str, Entry]]:
        """Per round: (opponent value, voluntarily unplayed?, label, entry).  In a round
        robin a forfeit counts as a game against the scheduled opponent and a free round
        not at all."""
        out = []
        own = self._score[number]
        for e in self._entries[number]:
            if e.opponent is not None and (e.played or self._round_robin):
                name = self.t.player(e.opponent).name
                out.append((self.adjusted_score(e.opponent), False, name, e))
            elif not self._round_robin:
                value, label = self._dummy(e, own)
                out.append((value, self._voluntary(e),
                            self.words["unplayed"].format(r=e.round, code=e.code) + label, e))
        return out

    def _dummy(self, e: Entry, own: Fraction) -> tuple[Fraction, str]:
        """The score of the dummy opponent of an own unplayed round (16.4), and its label:
        the participant's own score; in the 2026 text at most the scheduled opponent's
        adjusted score for a forfeit (16.4.1) and at most draw points x rounds for a bye or
        an absence (16.4.2)."""
        w = self.words
        if self.edition == "2023":
            return own, w["own"]
        if e.opponent is not None:
            cap = self.adjusted_score(e.opponent)
            why = w["opponents"].format(name=self.t.player(e.opponent).name)
        else:
            cap = Fraction(self.upto, 2)
            why = w["half"]
        if own <= cap:
            return own, w["own"]
        return cap, w["capped"].format(own=fmt(own), why=why)

    def buchholz(self, number: int, cut_low: int = 0, cut_high: int = 0) -> Value:
        items = self._contributions(number)
        remaining = list(range(len(items)))
        cut: list[int] = []
        # Low cuts take a voluntarily unplayed round first, then the lowest value (14.6);
        # high cuts the highest value, whatever it is.
        for _ in range(min(cut_low, len(remaining))):
            pick = min(remaining, key=lambda i: (not items[i][1], items[i][0]))
            remaining.remove(pick)
            cut.append(pick)
        for _ in range(min(cut_high, len(remaining))):
            pick = max(remaining, key=lambda i: items[i][0])
            remaining.remove(pick)
            cut.append(pick)
        kept = [items[i] for i in remaining]
        total = sum((v for v, *_ in kept), Fraction(0))
        parts = [f"{label} {fmt(v)}" for v, _, label, _ in kept]
        cuts = [f"{items[i][2]} {fmt(items[i][0])}" for i in sorted(cut)]
        text = " + ".join(parts) or "0"
        if cuts:
            text += f" ({self.words['cut']}: {', '.join(cuts)})"
        return Value(total, f"{text} = {fmt(total)}")

    def sonneborn_berger(self, number: int) -> Value:
        total = Fraction(0)
        parts = []
        for v, _, label, e in self._contributions(number):
            if e.points:
                total += v * e.points
                parts.append(f"{fmt(e.points)} x {label} {fmt(v)}")
        return Value(total, f"{' + '.join(parts) or '0'} = {fmt(total)}")

    def progressive(self, number: int) -> Value:
        running = Fraction(0)
        steps = []
        for e in self._entries[number]:
            running += e.points
            steps.append(running)
        total = sum(steps, Fraction(0))
        return Value(total, f"{' + '.join(fmt(s) for s in steps) or '0'} = {fmt(total)}")

    def wins(self, number: int) -> Value:
        rounds = [e.round for e in self._entries[number] if e.points == 1]
        return Value(Fraction(len(rounds)), self.words["won_rounds"].format(
            rounds=", ".join(map(str, rounds)) or self.words["none"], n=len(rounds)))

    def won(self, number: int) -> Value:
        rounds = [e.round for e in self._entries[number] if e.played and e.points == 1]
        return Value(Fraction(len(rounds)), self.words["won_games"].format(
            rounds=", ".join(map(str, rounds)) or self.words["none"], n=len(rounds)))

    def _encounters(self, number: int, group: Sequence[int]) -> tuple[Fraction, int, list[str]]:
        """``number``'s score against the others of ``group`` in games played over the board
        (a forfeit counts only in a round robin, as a game against the scheduled opponent,
        as for BH and SB), several games against one opponent averaged (6.1); the number of
        those opponents met; the arithmetic's parts."""
        against: dict[int, list[Fraction]] = {}
        for e in self._entries[number]:
            if e.opponent is not None and (e.played or self._round_robin) \
                    and e.opponent in group and e.opponent != number:
                against.setdefault(e.opponent, []).append(e.points)
        total = Fraction(0)
        parts = []
        for opp, pts in against.items():
            mean = sum(pts, Fraction(0)) / len(pts)
            total += mean
            games = "" if len(pts) == 1 else self.words["mean"].format(n=len(pts))
            parts.append(f"{fmt(mean)} {self.words['vs']} {self.t.player(opp).name}{games}")
        return total, len(against), parts

    def _de_once(self, group: Sequence[int]) -> tuple[list[list[int]], dict[int, str]]:
        """One application of Article 6 to a tied ``group``: its tiers, best first, and each
        player's arithmetic.  When all have met (and always in a round robin) the scores
        among them order the group (6.1); in a Swiss where some have not met, a player is
        ranked above the rest only if his score beats the most any of them could have had by
        winning every missing encounter (6.2), and the first who does not stops the split."""
        scores, maxima, texts = {}, {}, {}
        missing = False
        for n in group:
            score, met, parts = self._encounters(n, group)
            scores[n] = score
            unmet = len(group) - 1 - met
            if not self._round_robin and unmet > 0:
                missing = True
                maxima[n] = score + unmet
            else:
                maxima[n] = score
            texts[n] = " + ".join(parts) or "0"
        if not missing:
            order = sorted(group, key=lambda n: (-scores[n], n))
            tiers: list[list[int]] = []
            for n in order:
                if tiers and scores[tiers[-1][0]] == scores[n]:
                    tiers[-1].append(n)
                else:
                    tiers.append([n])
            return tiers, {n: f"{texts[n]} = {fmt(scores[n])}" for n in group}
        order = sorted(group, key=lambda n: (-scores[n], -maxima[n], n))
        tiers = [[order[0]]]
        for i in range(1, len(order)):
            best_rest = max(maxima[m] for m in order[i:])
            if len(tiers) == i and scores[order[i - 1]] > best_rest:
                tiers.append([order[i]])
            else:
                tiers[-1].append(order[i])
        return tiers, {n: f"{texts[n]} = {fmt(scores[n])}"
                       + self.words["at_most"].format(x=fmt(maxima[n])) for n in group}

    def direct_encounter_tiers(
            self, group: Sequence[int]) -> tuple[list[list[int]], dict[int, str]]:
        """Article 6 applied to ``group`` and again to every part still tied after a split,
        with only that part's games, until nothing changes (as FIDE's TieBreakServer does)."""
        tiers, texts = self._de_once(group)
        if len(tiers) == 1:
            return tiers, texts
        out: list[list[int]] = []
        for tier in tiers:
            if len(tier) == 1:
                out.append(tier)
                continue
            sub, subtexts = self.direct_encounter_tiers(tier)
            out.extend(sub)
            for n in tier:
                if subtexts[n] != texts[n]:
                    texts[n] = (texts[n] + self.words["still_tied"].format(n=len(tier))
                                + subtexts[n])
        return out, texts

    def direct_encounter(self, number: int, group: Sequence[int]) -> Value:
        """Points scored against the others of ``group`` (players tied so far), with the
        player's tier in the group's Article 6 order as the sort key."""
        if len([g for g in group if g != number]) == 0:
            return Value(Fraction(0), self.words["not_tied"], defined=False)
        tiers, texts = self.direct_encounter_tiers(group)
        tier = next(i for i, members in enumerate(tiers) if number in members)
        score, _, _ = self._encounters(number, group)
        return Value(score, texts[number], key=Fraction(-tier))

    def value(self, code: str, number: int, group: Sequence[int] = ()) -> Value:
        table: dict[str, Callable[[int], Value]] = {
            "BH": self.buchholz,
            "BH-C1": lambda n: self.buchholz(n, cut_low=1),
            "BH-M1": lambda n: self.buchholz(n, cut_low=1, cut_high=1),
            "SB": self.sonneborn_berger,
            "PS": self.progressive,
            "WIN": self.wins,
            "WON": self.won,
        }
        if code == "DE":
            return self.direct_encounter(number, group)
        return table[code](number)

    def standings(self, codes: Sequence[str] | None = None) -> list[Standing]:
        """Players ranked by points and then ``codes`` in order (DE applies within the group
        still tied when it comes up); remaining ties share their rank."""
        codes = tuple(self.t.event.tiebreaks if codes is None else codes)
        players = list(self.t.players)
        values: dict[int, dict[str, Value]] = {p.number: {} for p in players}
        for code in codes:
            if code == "DE":
                continue
            for p in players:
                values[p.number][code] = self.value(code, p.number)

        def key_upto(n: int, k: int) -> tuple[Fraction, ...]:
            out: list[Fraction] = [self._score[n]]
            for code in codes[:k]:
                v = values[n][code]
                out.append((v.value if v.key is None else v.key) if v.defined else Fraction(-1))
            return tuple(out)

        for k, code in enumerate(codes):
            if code != "DE":
                continue
            groups: dict[tuple[Fraction, ...], list[int]] = {}
            for p in players:
                groups.setdefault(key_upto(p.number, k), []).append(p.number)
            for group in groups.values():
                for n in group:
                    values[n][code] = self.direct_encounter(n, group if len(group) > 1 else [])
        full = {p.number: key_upto(p.number, len(codes)) for p in players}
        ordered = sorted(players, key=lambda p: (tuple(-x for x in full[p.number]), p.number))
        out: list[Standing] = []
        for i, p in enumerate(ordered):
            rank = i + 1
            if out and full[out[-1].number] == full[p.number]:
                rank = out[-1].rank
            shared = any(full[q.number] == full[p.number] for q in ordered if q is not p)
            out.append(Standing(rank, shared, p.number, p.name, self._score[p.number],
                                values[p.number]))
        return out
