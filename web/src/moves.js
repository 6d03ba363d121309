// What the board needs to know about the server's legal moves: destinations for chessground,
// and which moves are castling (king takes own rook, RULES.md §2.6) or a Bishop Adjustment
// (bishop square + partner square, §4.7) or gates a piece from the hand (PM-CRC, docs/rules.md
// D-32: a piece's move with a fifth letter, `b1c3q`; castling gating on the rook's square is
// rook square + king square, `h1e1q`). The server is the only judge of legality.

const FILES = 'abcdefghijklmnop';

export function parseUci(uci) {
  const m = /^([a-p])(\d{1,2})([a-p])(\d{1,2})([a-z]?)$/.exec(uci);
  if (!m) return null;
  return { from: m[1] + m[2], to: m[3] + m[4], promo: m[5] || '' };
}

/** Board size from a FEN's placement: {width, height}. */
export function dimensionsOf(fen) {
  const rows = fen.split(' ')[0].split('[')[0].split('/');
  let width = 0;
  for (const part of rows[0].match(/\d+|[^\d]/g) || []) width += /\d/.test(part) ? +part : 1;
  return { width, height: rows.length };
}

/** Map square -> {role: 'k'|'q'…, color: 'white'|'black'} from a FEN's placement. */
export function piecesOf(fen) {
  const rows = fen.split(' ')[0].split('[')[0].split('/'); // without a gating variant's hand
  const out = new Map();
  rows.forEach((row, i) => {
    const rank = rows.length - i;
    let file = 0;
    for (const part of row.match(/\d+|[^\d]/g) || []) {
      if (/\d/.test(part)) file += +part;
      else {
        if (part !== '~' && part !== '+') {
          out.set(FILES[file] + rank, {
            role: part.toLowerCase(),
            color: part === part.toUpperCase() ? 'white' : 'black',
          });
        }
        file += 1;
      }
    }
  });
  return out;
}

export const fileIndex = sq => FILES.indexOf(sq[0]);
export const rankOf = sq => sq.slice(1);
export const square = (file, rank) => FILES[file] + rank;

// Castling squares as file indexes per side ('a' = a-file side, 'h' = far side), as
// variants.js's castlingOf gives them from the server's metadata; this default is RULES.md §6's
// c/d and g/f, for callers (tests) that pass none.
const DEFAULT_CASTLING = { a: { king: 2, rook: 3 }, h: { king: 6, rook: 5 } };

/**
 * Sort the legal moves into kinds. castles: [{uci, king, rook, side: 'a'|'h', kingTo, rookTo}],
 * adjustments: [{uci, bishop, partner, role}], promotions: Map 'from+to' -> [letters].
 * `castling` gives the variant's castling files (castlingOf in variants.js).
 */
export function classify(legal, pieces, width, castling = DEFAULT_CASTLING) {
  const castles = [];
  const adjustments = [];
  const promotions = new Map();
  const dests = new Map();
  // Gating (PM-CRC): the move without its gate (`b1c3`, castling as king takes rook) ->
  // [{letter, square, uci}], the pieces from the hand that may enter and where.
  const gates = new Map();
  const kingFile = { a: castling.a.king, h: castling.h.king };
  const rookFile = { a: castling.a.rook, h: castling.h.rook };
  for (const uci of legal) {
    const mv = parseUci(uci);
    if (!mv) continue;
    const p = pieces.get(mv.from);
    const q = pieces.get(mv.to);
    if (mv.promo && p && p.role !== 'p') {
      const rookFirst = p.role === 'r' && q && q.color === p.color && q.role === 'k';
      const base = rookFirst ? mv.to + mv.from : mv.from + mv.to;
      gates.set(base, [...(gates.get(base) || []), { letter: mv.promo, square: mv.from, uci }]);
      continue;
    }
    const push = (from, to) => {
      const list = dests.get(from) || [];
      if (!list.includes(to)) list.push(to);
      dests.set(from, list);
    };
    push(mv.from, mv.to);
    if (mv.promo) {
      const key = mv.from + mv.to;
      promotions.set(key, [...(promotions.get(key) || []), mv.promo]);
      continue;
    }
    if (!p || !q || p.color !== q.color) {
      // Classical UCI castling (e1g1, Capablanca's f1i1): the king steps two or more files.
      if (p && p.role === 'k' && Math.abs(fileIndex(mv.from) - fileIndex(mv.to)) >= 2 &&
          rankOf(mv.from) === rankOf(mv.to)) {
        const side = fileIndex(mv.to) < fileIndex(mv.from) ? 'a' : 'h';
        const rookSq = square(side === 'a' ? 0 : width - 1, rankOf(mv.from));
        castles.push({
          uci, king: mv.from, rook: rookSq, side,
          kingTo: mv.to, rookTo: square(rookFile[side], rankOf(mv.from)),
        });
      }
      continue;
    }
    if (p.role === 'k' && q.role === 'r') {
      const side = fileIndex(mv.to) < fileIndex(mv.from) ? 'a' : 'h';
      const rank = rankOf(mv.from);
      castles.push({
        uci, king: mv.from, rook: mv.to, side,
        kingTo: square(kingFile[side], rank), rookTo: square(rookFile[side], rank),
      });
    } else if (p.role === 'b') {
      adjustments.push({ uci, bishop: mv.from, partner: mv.to, role: q.role });
    }
  }
  // A king may also be dropped on its castling square when that is not an ordinary move.
  for (const c of castles) {
    const list = dests.get(c.king) || [];
    if (c.kingTo !== c.king && !list.includes(c.kingTo)) {
      list.push(c.kingTo);
      c.viaKingSquare = true;
    }
    dests.set(c.king, list);
  }
  return { dests, castles, adjustments, promotions, gates };
}

/**
 * What a piece dropped from `orig` on `dest` asks for, read from classify()'s kinds `k` (the
 * game page's and the analysis board's one reading of a drag):
 *  - {promotions: [letters]}: a pawn that may promote there (the page picks the piece);
 *  - {adjustment}: a Bishop Adjustment (the bishop dropped on its partner);
 *  - {uci, square, gates}: the move (castling by the king dropped on its rook or on its
 *    castling square, or by king-takes-rook), the square a gate's picker is shown over (the
 *    king's for castling, else the one the piece leaves) and the pieces that may enter from
 *    the hand with it (classify's gates, PM-CRC), null when none may.
 */
export function droppedMove(k, orig, dest) {
  const promotions = k.promotions.get(orig + dest);
  if (promotions) return { promotions };
  const castle = k.castles.find(c => c.king === orig && (c.rook === dest ||
    (c.viaKingSquare && c.kingTo === dest) || c.uci === orig + dest));
  if (castle) return { uci: castle.uci, square: castle.king, gates: k.gates.get(castle.uci) || null };
  const adjustment = k.adjustments.find(a => a.bishop === orig && a.partner === dest);
  if (adjustment) return { adjustment };
  return { uci: orig + dest, square: orig, gates: k.gates.get(orig + dest) || null };
}

/** The move the gate's picker (promotion.js pickGate) leaves to make after `base`: the
 * gating move it chose, `base` itself for "none" (''), or null when it was cancelled. */
export function gatedMove(base, choice) {
  if (choice === null || choice === undefined) return null;
  return choice || base;
}

/** The placement after a castling or adjustment, for the preview before it is confirmed. */
export function previewPieces(pieces, kind, move) {
  const out = new Map(pieces);
  if (kind === 'castle') {
    const k = out.get(move.king);
    const r = out.get(move.rook);
    out.delete(move.king);
    out.delete(move.rook);
    out.set(move.kingTo, k);
    out.set(move.rookTo, r);
  } else {
    const b = out.get(move.bishop);
    out.set(move.bishop, out.get(move.partner));
    out.set(move.partner, b);
  }
  return out;
}

/** The placement after one UCI move, judged only as far as drawing needs (castling as king
 * takes rook or the classical two-file step, the Bishop Adjustment, en passant, promotion):
 * the server has already judged the move legal. */
export function applyMove(pieces, uci, width, castling = DEFAULT_CASTLING) {
  const mv = parseUci(uci);
  const out = new Map(pieces);
  if (!mv) return out;
  let p = out.get(mv.from);
  let q = out.get(mv.to);
  if (!p) return out;
  // A gate (PM-CRC): the piece from the hand lands on the square the move leaves, once the
  // move is made; castling gating on the rook's square is written rook square first.
  const gate = mv.promo && p.role !== 'p' ? { role: mv.promo, color: p.color } : null;
  const gateSquare = mv.from;
  if (gate) {
    mv.promo = '';
    if (p.role === 'r' && q && q.color === p.color && q.role === 'k') {
      [mv.from, mv.to, p, q] = [mv.to, mv.from, q, p];
    }
  }
  const rank = rankOf(mv.from);
  const castle = (side, rookSq) => {
    const r = out.get(rookSq);
    out.delete(mv.from);
    out.delete(rookSq);
    out.set(square(castling[side].king, rank), p);
    if (r) out.set(square(castling[side].rook, rank), r);
  };
  if (q && q.color === p.color && p.role === 'k' && q.role === 'r') {
    castle(fileIndex(mv.to) < fileIndex(mv.from) ? 'a' : 'h', mv.to);
  } else if (q && q.color === p.color && p.role === 'b') {
    out.set(mv.from, q);
    out.set(mv.to, p);
  } else if (p.role === 'k' && !q && rankOf(mv.to) === rank &&
             Math.abs(fileIndex(mv.to) - fileIndex(mv.from)) >= 2) {
    const side = fileIndex(mv.to) < fileIndex(mv.from) ? 'a' : 'h';
    castle(side, square(side === 'a' ? 0 : width - 1, rank));
  } else {
    if (p.role === 'p' && !q && fileIndex(mv.from) !== fileIndex(mv.to)) {
      out.delete(square(fileIndex(mv.to), rank)); // en passant
    }
    out.delete(mv.from);
    out.set(mv.to, mv.promo ? { role: mv.promo, color: p.color } : p);
  }
  if (gate && !out.has(gateSquare)) out.set(gateSquare, gate);
  return out;
}

/** FEN placement of a square -> piece map. */
export function placementOf(pieces, width, height) {
  const rows = [];
  for (let r = height; r >= 1; r--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < width; f++) {
      const p = pieces.get(square(f, r));
      if (!p) {
        empty += 1;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      row += p.color === 'white' ? p.role.toUpperCase() : p.role;
    }
    if (empty) row += String(empty);
    rows.push(row);
  }
  return rows.join('/');
}

/** The placement after the first `ply` moves of a game, and the last of them. */
export function positionAt(startFen, moves, ply, castling = DEFAULT_CASTLING) {
  const { width, height } = dimensionsOf(startFen);
  let pieces = piecesOf(startFen);
  const n = Math.max(0, Math.min(ply, moves.length));
  for (let i = 0; i < n; i++) pieces = applyMove(pieces, moves[i], width, castling);
  return { placement: placementOf(pieces, width, height), lastMove: n ? parseUci(moves[n - 1]) : null };
}

/**
 * The pieces each side still holds in hand after the first `ply` moves (gating variants,
 * PM-CRC: `{white: 'q', black: ''}`), from the start FEN's `[Qq]`: a move with a fifth
 * letter that leaves its side's home rank is a gate (a promotion leaves the 7th rank).
 */
export function handAt(startFen, moves, ply) {
  const [placement, turn] = startFen.split(' ');
  const hand = { white: '', black: '' };
  const inside = /\[([^\]]*)\]/.exec(placement);
  if (!inside) return hand;
  for (const c of inside[1]) hand[c === c.toUpperCase() ? 'white' : 'black'] += c.toLowerCase();
  const { height } = dimensionsOf(startFen);
  let color = turn === 'b' ? 'black' : 'white';
  for (const uci of moves.slice(0, ply)) {
    const mv = parseUci(uci);
    const home = color === 'white' ? '1' : String(height);
    if (mv && mv.promo && rankOf(mv.from) === home) hand[color] = hand[color].replace(mv.promo, '');
    color = color === 'white' ? 'black' : 'white';
  }
  return hand;
}

/**
 * Premove destinations (issue 11) for the piece on `key` of chessground's board state: the
 * squares its kind could reach on an empty board of width x height, pawn captures included,
 * and castling as the king dropped on its own rook on the back rank.
 */
export function premoveDests(pieces, key, width, height) {
  const piece = pieces.get(key);
  if (!piece) return [];
  const role = String(piece.role).replace(/-piece$/, '');
  const x = fileIndex(key);
  const y = Number(rankOf(key)) - 1;
  const white = piece.color === 'white';
  const out = [];
  const add = (f, r) => {
    if (f >= 0 && f < width && r >= 0 && r < height && (f !== x || r !== y)) out.push(square(f, r + 1));
  };
  const slide = dirs => {
    for (const [dx, dy] of dirs) for (let i = 1; i < Math.max(width, height); i++) add(x + dx * i, y + dy * i);
  };
  const diag = [[1, 1], [1, -1], [-1, 1], [-1, -1]];
  const line = [[1, 0], [-1, 0], [0, 1], [0, -1]];
  const jumps = [[1, 2], [2, 1], [-1, 2], [-2, 1], [1, -2], [2, -1], [-1, -2], [-2, -1]];
  if (role === 'p') {
    const d = white ? 1 : -1;
    add(x, y + d);
    add(x - 1, y + d);
    add(x + 1, y + d);
    if ((white && y === 1) || (!white && y === height - 2)) add(x, y + 2 * d);
  } else if (role === 'n') {
    for (const [dx, dy] of jumps) add(x + dx, y + dy);
  } else if (role === 'b') {
    slide(diag);
  } else if (role === 'r') {
    slide(line);
  } else if (role === 'q') {
    slide([...diag, ...line]);
  } else if (role === 'm' || role === 'a') { // minister, archbishop: bishop + knight
    slide(diag);
    for (const [dx, dy] of jumps) add(x + dx, y + dy);
  } else if (role === 'c') { // chancellor: rook + knight
    slide(line);
    for (const [dx, dy] of jumps) add(x + dx, y + dy);
  } else if (role === 'k') {
    for (const [dx, dy] of [...diag, ...line]) add(x + dx, y + dy);
    const back = white ? 0 : height - 1;
    if (y === back) {
      for (let f = 0; f < width; f++) {
        const p = pieces.get(square(f, back + 1));
        if (p && p.color === piece.color && String(p.role).startsWith('r')) out.push(square(f, back + 1));
      }
    }
  }
  return [...new Set(out)];
}
