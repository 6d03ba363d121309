// What the board needs to know about the server's legal moves: destinations for chessground,
// and which moves are castling (king takes own rook, RULES.md §2.6) or a Bishop Adjustment
// (bishop square + partner square, §4.7). The server is the only judge of legality.

const FILES = 'abcdefghijklmnop';

export function parseUci(uci) {
  const m = /^([a-p])(\d{1,2})([a-p])(\d{1,2})([a-z]?)$/.exec(uci);
  if (!m) return null;
  return { from: m[1] + m[2], to: m[3] + m[4], promo: m[5] || '' };
}

/** Board size from a FEN's placement: {width, height}. */
export function dimensionsOf(fen) {
  const rows = fen.split(' ')[0].split('/');
  let width = 0;
  for (const part of rows[0].match(/\d+|[^\d]/g) || []) width += /\d/.test(part) ? +part : 1;
  return { width, height: rows.length };
}

/** Map square -> {role: 'k'|'q'…, color: 'white'|'black'} from a FEN's placement. */
export function piecesOf(fen) {
  const rows = fen.split(' ')[0].split('/');
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

/**
 * Sort the legal moves into kinds. castles: [{uci, king, rook, side: 'a'|'h', kingTo, rookTo}],
 * adjustments: [{uci, bishop, partner, role}], promotions: Map 'from+to' -> [letters].
 */
export function classify(legal, pieces, width) {
  const castles = [];
  const adjustments = [];
  const promotions = new Map();
  const dests = new Map();
  // Castling destinations (RULES.md §6): c/d on the a-side, g/f on the far side, on any width.
  const kingFile = { a: 2, h: 6 };
  const rookFile = { a: 3, h: 5 };
  for (const uci of legal) {
    const mv = parseUci(uci);
    if (!mv) continue;
    const p = pieces.get(mv.from);
    const q = pieces.get(mv.to);
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
      // Classical UCI castling (e1g1): the king steps two files.
      if (p && p.role === 'k' && Math.abs(fileIndex(mv.from) - fileIndex(mv.to)) === 2 &&
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
  return { dests, castles, adjustments, promotions };
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
