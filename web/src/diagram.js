// A static diagram of a FEN placement (setup previews, shuffler cards): a CSS grid of squares
// with the same piece images as the board. a1 is dark on every board size (RULES.md §4.1).

import { h } from './dom.js';
import { dimensionsOf, piecesOf } from './moves.js';

const FILES = 'abcdefghijklmnop';

export function diagram(placement, { small = false, ranks = null } = {}) {
  const { width, height } = dimensionsOf(placement);
  const pieces = piecesOf(placement);
  const shown = ranks ?? [...Array(height).keys()].map(i => height - i);
  const grid = h(`div.diagram${small ? '.small' : ''}`, {
    style: `--files:${width};--ranks:${shown.length}`, role: 'img', 'aria-label': placement,
  });
  for (const rank of shown) {
    for (let f = 0; f < width; f++) {
      const sq = FILES[f] + rank;
      const dark = (f + rank) % 2 === 1;
      const cell = h(`div.sq.${dark ? 'dark' : 'light'}`);
      const p = pieces.get(sq);
      if (p) cell.append(h(`span.pc.${p.color}.${p.role}-piece`));
      grid.append(cell);
    }
  }
  return grid;
}
