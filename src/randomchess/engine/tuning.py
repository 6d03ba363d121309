"""The evaluation as a linear function of its weights, for fitting them (issue 16).

:func:`features` splits :func:`randomchess.engine.evaluate.evaluate` into a constant (the
material, and the few weights that are not fitted) plus one feature value per fitted weight,
so that ``offset + sum(weight * feature)`` is the evaluation from White's point of view.
``bench/tune_eval.py`` fits the weights to Stockfish's scores of quiet positions (least
squares on the win-probability scale) and prints them as the module's constants;
``tests/test_engine_tuning.py`` checks that the split adds up to what ``evaluate`` says with
the shipped weights, so the two cannot drift apart.

Standard library only: the fit itself (numpy) lives in the benchmark script.
"""

from __future__ import annotations

from randomchess.engine.evaluate import (
    ADJUSTMENT_RIGHT,
    BISHOP_PAIR,
    CASTLING_RIGHT,
    DOUBLED_PAWN,
    ISOLATED_PAWN,
    KING_DANGER,
    MINOR_DEFENDED_BY_PAWN,
    MOBILITY,
    OPEN_FILE_NEAR_KING,
    PASSED_PAWN,
    PASSED_PAWN_LINEAR,
    PAWN_SHIELD,
    PAWN_THREAT_TO_MOVER,
    PAWN_THREAT_TO_WAITING,
    PST_BASIS,
    PST_SHAPE,
    ROOK_HALF_OPEN_FILE,
    ROOK_OPEN_FILE,
    SAME_COLOUR_BISHOPS,
    TEMPO,
    _pawn_structure,
    _Tables,
    _tables,
    king_shelter,
    pst_basis,
    square_tables,
)
from randomchess.pieces import (
    BISHOP,
    BLACK,
    KING,
    KNIGHT,
    PAWN,
    PIECE_COLOR,
    PIECE_KIND,
    QUEEN,
    ROOK,
    WHITE,
    PieceKind,
)
from randomchess.position import Position

PST_KINDS: tuple[PieceKind, ...] = (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING)
MOBILITY_KINDS: tuple[PieceKind, ...] = (KNIGHT, BISHOP, ROOK, QUEEN)
_PHASES = ("mg", "eg")
# The board whose per-square corrections (evaluate.square_tables) are fitted.
SQUARES_BOARD = (8, 8)
_SQUARES = SQUARES_BOARD[0] * SQUARES_BOARD[1]


def _tapered(name: str) -> list[str]:
    return [f"{name}:{ph}" for ph in _PHASES]


# Every fitted weight, in a fixed order.
NAMES: tuple[str, ...] = tuple(
    [f"pst:{k}:{ph}:{i}" for k in PST_KINDS for ph in _PHASES for i in range(len(PST_BASIS))]
    + [n for k in MOBILITY_KINDS for n in _tapered(f"mobility:{k}")]
    + ["king_danger", "pawn_shield", "open_file_near_king"]
    + _tapered("doubled") + _tapered("isolated") + _tapered("passed") + _tapered("passed_linear")
    + _tapered("bishop_pair") + ["castling"] + _tapered("rook_open") + _tapered("rook_half_open")
    + ["tempo"] + _tapered("threat_mover") + _tapered("threat_waiting")
    + _tapered("minor_defended")
    + [f"sq:{k}:{ph}:{i}" for k in PST_KINDS for ph in _PHASES for i in range(_SQUARES)]
)

# Weights the fit leaves as they are: the endgame king's table, the hand-set
# centralisation (50 cp from corner to centre).  Fitted freely it learns that an advanced
# king goes with the better score (the winning side's king marches), and even fitted as a
# function of the centre alone (78 cp) the lone king of KBNK then holds the centre long
# enough that the self-play mates of tests/test_engine_endgame.py fail at 4,000 nodes a move
# (measured: 1 of 5 positions mated within 250 plies, against 5 of 5 with 50 or 60 cp).
# The same holds for the endgame king's per-square corrections.
FIXED: frozenset[str] = frozenset(
    [f"pst:{KING}:eg:{i}" for i in range(len(PST_BASIS))]
    + [f"sq:{KING}:eg:{i}" for i in range(_SQUARES)])


def current_weights() -> dict[str, float]:
    """The weights ``evaluate`` uses now, by name."""
    w: dict[str, float] = {}
    for k in PST_KINDS:
        for j, ph in enumerate(_PHASES):
            for i, value in enumerate(PST_SHAPE[k][j]):
                w[f"pst:{k}:{ph}:{i}"] = value
    for k in MOBILITY_KINDS:
        mg, eg, _ = MOBILITY[k]
        w[f"mobility:{k}:mg"], w[f"mobility:{k}:eg"] = mg, eg
    w["king_danger"] = KING_DANGER
    w["pawn_shield"] = PAWN_SHIELD
    w["open_file_near_king"] = OPEN_FILE_NEAR_KING
    w["tempo"] = TEMPO
    w["castling"] = CASTLING_RIGHT
    for name, pair in (("doubled", DOUBLED_PAWN), ("isolated", ISOLATED_PAWN),
                       ("passed", PASSED_PAWN), ("passed_linear", PASSED_PAWN_LINEAR),
                       ("bishop_pair", BISHOP_PAIR), ("rook_open", ROOK_OPEN_FILE),
                       ("rook_half_open", ROOK_HALF_OPEN_FILE),
                       ("threat_mover", PAWN_THREAT_TO_MOVER),
                       ("threat_waiting", PAWN_THREAT_TO_WAITING),
                       ("minor_defended", MINOR_DEFENDED_BY_PAWN)):
        w[f"{name}:mg"], w[f"{name}:eg"] = pair
    tables = square_tables().get(SQUARES_BOARD, {})
    for k in PST_KINDS:
        for j, ph in enumerate(_PHASES):
            for i in range(_SQUARES):
                w[f"sq:{k}:{ph}:{i}"] = tables[k][j][i] if k in tables else 0.0
    return w


def features(pos: Position) -> tuple[dict[str, float], float]:
    """(feature values by weight name, constant), both from White's point of view:
    ``evaluate(pos)`` is, up to rounding, ``constant + sum(w[n] * f[n])`` for White to move
    (negated for Black).  Only for the orthodox kinds (an 8x8 army)."""
    t = _tables(pos.variant)
    f: dict[str, float] = dict.fromkeys(NAMES, 0.0)
    phase, (material_mg, material_eg), pieces, pawn_bits, bishops = _placement(pos, t, f)
    phase = min(phase, t.max_phase)
    fm = phase / t.max_phase
    fe = 1.0 - fm
    const = material_mg * fm + material_eg * fe
    counts = _pawn_features(pos, t, f, pawn_bits)
    _, _, _, pawn_attacks = _pawn_structure(t, pawn_bits[0], pawn_bits[1])
    const, attack, attackers = _piece_features(pos, t, f, pieces, counts, pawn_attacks,
                                               (fm, fe), const)
    _king_features(pos, f, counts, attack, attackers)
    const = _bishops_and_rights(pos, t, f, bishops, fm, const)
    f["tempo"] = 1.0 if pos.turn == WHITE else -1.0
    # Taper: a weight's eg feature counts by the rest of the phase, every other (mg, and the
    # middlegame-only king safety and castling terms) by the phase; the tempo is not tapered.
    tempo = f.pop("tempo")
    tapered = {name: v * (fe if ":eg" in name else fm) for name, v in f.items()}
    tapered["tempo"] = tempo
    return tapered, const


def _placement(pos: Position, t: _Tables, f: dict[str, float]) -> tuple[
        int, tuple[float, float], list[tuple[int, int]], list[int], tuple[list[int], list[int]]]:
    """Material and the piece-square features, into ``f``; (phase, (mg, eg) material, the
    pieces that are not pawns or kings, the pawns of each colour as bit sets, the bishops'
    squares of each colour)."""
    g = pos.geometry
    board = pos.board
    squares = (g.files, g.ranks) == SQUARES_BOARD
    phase = 0
    material_mg = material_eg = 0.0
    pieces: list[tuple[int, int]] = []
    pawn_bits = [0, 0]
    bishops: tuple[list[int], list[int]] = ([], [])
    for c in (WHITE, BLACK):
        sign = 1 if c == WHITE else -1
        for sq in pos.piece_squares(c):
            p = board[sq]
            kind = PIECE_KIND[p]
            phase += t.phase_of[p]
            mg, eg = t.material[kind]
            material_mg += sign * mg
            material_eg += sign * eg
            rel = sq if c == WHITE else g.square(g.file_of(sq), g.ranks - 1 - g.rank_of(sq))
            for i, b in enumerate(pst_basis(g, rel)):
                f[f"pst:{kind}:mg:{i}"] += sign * b
                f[f"pst:{kind}:eg:{i}"] += sign * b
            if squares:
                f[f"sq:{kind}:mg:{rel}"] += sign
                f[f"sq:{kind}:eg:{rel}"] += sign
            if kind == PAWN:
                pawn_bits[c] |= 1 << sq
            elif kind != KING:
                pieces.append((sq, p))
                if kind == BISHOP:
                    bishops[c].append(sq)
    return phase, (material_mg, material_eg), pieces, pawn_bits, bishops


def _pawn_features(pos: Position, t: _Tables, f: dict[str, float],
                   pawn_bits: list[int]) -> list[list[int]]:
    """Doubled, isolated and passed pawns into ``f``, as _pawn_structure scores them; the
    pawns per file of each colour."""
    g = pos.geometry
    files = g.files
    counts = [[(b & m).bit_count() for m in t.file_masks] for b in pawn_bits]
    last = g.ranks - 2
    for c in (WHITE, BLACK):
        sign = 1 if c == WHITE else -1
        mine = counts[c]
        for fl in range(files):
            n = mine[fl]
            if n > 1:
                f["doubled:mg"] -= sign * (n - 1)
                f["doubled:eg"] -= sign * (n - 1)
            if n and (fl == 0 or not mine[fl - 1]) and (fl == files - 1 or not mine[fl + 1]):
                f["isolated:mg"] -= sign * n
                f["isolated:eg"] -= sign * n
        b = pawn_bits[c]
        while b:
            low = b & -b
            b ^= low
            sq = low.bit_length() - 1
            if not t.passed_masks[c][sq] & pawn_bits[c ^ 1]:
                r = sq // files
                rel = r if c == WHITE else g.ranks - 1 - r
                if 1 <= rel <= last:
                    f["passed:mg"] += sign * (rel / last) ** 2
                    f["passed:eg"] += sign * (rel / last) ** 2
                    f["passed_linear:mg"] += sign * rel / last
                    f["passed_linear:eg"] += sign * rel / last
    return counts


def _piece_features(pos: Position, t: _Tables, f: dict[str, float],
                    pieces: list[tuple[int, int]], counts: list[list[int]],
                    pawn_attacks: tuple[int, int], taper: tuple[float, float],
                    const: float) -> tuple[float, list[int], list[int]]:
    """Mobility, rook files, pawn threats and defended minors into ``f``, as _mobility does
    it (the mobility of kinds without a fitted weight goes into the constant); (the
    constant, the attack on each king, its attackers)."""
    board = pos.board
    files = pos.geometry.files
    fm, fe = taper
    white_attacks, black_attacks = pawn_attacks
    kings = pos.kings
    zone_flags = (t.zone_flags[kings[WHITE]], t.zone_flags[kings[BLACK]])
    attack = [0, 0]
    attackers = [0, 0]
    threatened = [0, 0]
    defended = [0, 0]
    for sq, p in pieces:
        c = PIECE_COLOR[p]
        sign = 1 if c == WHITE else -1
        kind = PIECE_KIND[p]
        leaps, leap_hits, rays, _, _, typical, king_attack, rook = t.scan[p]
        count = hits = 0
        if leaps is not None:
            count += sum(1 for s in leaps[sq] if PIECE_COLOR[board[s]] != c)
            hits = leap_hits[sq][kings[c ^ 1]]
        zone = zone_flags[c ^ 1]
        for table in rays:
            for s in table[sq]:
                q = board[s]
                hits += zone[s]
                if q:
                    if PIECE_COLOR[q] != c:
                        count += 1
                    break
                count += 1
        if kind in MOBILITY_KINDS:
            f[f"mobility:{kind}:mg"] += sign * (count - typical)
            f[f"mobility:{kind}:eg"] += sign * (count - typical)
        else:
            wmg, weg = t.scan[p][3], t.scan[p][4]
            const += sign * (count - typical) * (wmg * fm + weg * fe)
        if hits:
            attack[c] += hits * king_attack
            attackers[c] += 1
        if rook:
            fl = sq % files
            if not counts[c][fl]:
                name = "rook_half_open" if counts[c ^ 1][fl] else "rook_open"
                f[f"{name}:mg"] += sign
                f[f"{name}:eg"] += sign
        enemy_attacks = black_attacks if c == WHITE else white_attacks
        own_attacks = white_attacks if c == WHITE else black_attacks
        if enemy_attacks >> sq & 1:
            threatened[c] += 1
        if t.is_minor[p] and own_attacks >> sq & 1:
            defended[c] += 1
    us = pos.turn
    mover = threatened[us] if us == WHITE else -threatened[us]
    f["threat_mover:mg"] = f["threat_mover:eg"] = mover
    f["threat_waiting:mg"] = f["threat_waiting:eg"] = threatened[WHITE] - threatened[BLACK] - mover
    f["minor_defended:mg"] = f["minor_defended:eg"] = defended[WHITE] - defended[BLACK]
    return const, attack, attackers


def _king_features(pos: Position, f: dict[str, float], counts: list[list[int]],
                   attack: list[int], attackers: list[int]) -> None:
    """King safety into ``f``, as _king_safety does it (middlegame only)."""
    for c in (WHITE, BLACK):
        sign = 1 if c == WHITE else -1
        if attackers[c ^ 1] >= 2:
            units = attack[c ^ 1]
            f["king_danger"] -= sign * min(units * units // 2, 500) / 100
        shelter = king_shelter(pos, c, (tuple(counts[0]), tuple(counts[1])))
        if shelter is None:
            continue
        shield, open_files = shelter
        f["pawn_shield"] += sign * shield / 2
        f["open_file_near_king"] -= sign * open_files


def _bishops_and_rights(pos: Position, t: _Tables, f: dict[str, float],
                        bishops: tuple[list[int], list[int]], fm: float, const: float) -> float:
    """The bishop pair and the castling right into ``f``; same-coloured bishops and a live
    Bishop Adjustment into the constant, returned."""
    files = pos.geometry.files
    for c in (WHITE, BLACK):
        sign = 1 if c == WHITE else -1
        if len(bishops[c]) >= 2:
            colours = {(s % files + s // files) & 1 for s in bishops[c]}
            if len(colours) == 2:
                f["bishop_pair:mg"] += sign
                f["bishop_pair:eg"] += sign
            else:
                const -= sign * SAME_COLOUR_BISHOPS
        if pos.castling & t.home_masks[c]:
            f["castling"] += sign
        if pos.adjust_rights >> c & 1 and pos.adjustment_pairs(c):
            const += sign * ADJUSTMENT_RIGHT * fm
    return const


def predict(pos: Position, weights: dict[str, float]) -> float:
    """The evaluation from White's point of view that ``weights`` give."""
    f, const = features(pos)
    return const + sum(weights[n] * v for n, v in f.items())


__all__ = ["FIXED", "NAMES", "SQUARES_BOARD", "current_weights", "features", "predict"]
