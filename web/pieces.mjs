// Writes the piece set (src/randomchess/web/static/pieces/*.svg): simple geometric pieces drawn
// for randomchess, including the Prime Minister (a knight's head under a bishop's mitre and
// slit). Licence: GPL-3.0-or-later, like the rest of the project (see pieces/LICENSE.txt).
// Run with `npm run pieces` after changing a shape; the SVG files are committed.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'src', 'randomchess', 'web', 'static', 'pieces');

const base = '<rect x="10" y="35" width="25" height="5" rx="2"/>';
// Each shape: body (filled with the side's colour) and detail lines (contrasting).
const SHAPES = {
  P: {
    body: '<circle cx="22.5" cy="13.5" r="5.5"/><path d="M18.5 20.5h8l3.5 14.5h-15z"/>' + base,
    detail: '',
  },
  R: {
    body: '<path d="M12 8h4v3h4.5V8h4v3H29V8h4v8l-3 3v13l3 3H12l3-3V19l-3-3z"/>' + base,
    detail: '<path d="M15 19h15M15 32h15"/>',
  },
  N: {
    body: '<path d="M15 35c0-7 3-10 6-13-3 1-6 1-8 3-2 1-4 0-4-2 0-4 4-10 8-13l1-4 2 3c8 0 14 7 14 17v9z"/>' + base,
    detail: '<circle cx="17" cy="15" r="1.3"/><path d="M10.5 22.5l1.5-.5"/>',
  },
  B: {
    body: '<circle cx="22.5" cy="7.5" r="2.5"/><path d="M22.5 10.5C15 15 14 24 17 29h11c3-5 2-14-5.5-18.5z"/>' +
      '<path d="M16 29h13l1 3H15z"/>' + base,
    detail: '<path d="M19.5 21.5l6-6M19 25h7"/>',
  },
  Q: {
    body: '<path d="M9 14l4 17h19l4-17-7 10-2-13-4.5 12L18 11l-2 13z"/><circle cx="9" cy="12" r="2.2"/>' +
      '<circle cx="18" cy="9" r="2.2"/><circle cx="27" cy="9" r="2.2"/><circle cx="36" cy="12" r="2.2"/>' +
      '<circle cx="22.5" cy="8" r="2.2"/><path d="M13 31h19l-1 4H14z"/>' + base,
    detail: '<path d="M14 31h17"/>',
  },
  K: {
    body: '<path d="M21 3h3v3h3v3h-3v4h-3V9h-3V6h3z"/>' +
      '<path d="M13 31c-5-6-3-14 3-14 3 0 5 2 6.5 4 1.5-2 3.5-4 6.5-4 6 0 8 8 3 14z"/>' +
      '<path d="M13 31h19l-1 4H14z"/>' + base,
    detail: '<path d="M22.5 21v10M14 31h17"/>',
  },
  // Prime Minister = bishop + knight: the knight's head wearing the bishop's ball and slit.
  M: {
    body: '<path d="M15 31c0-5 3-8 6-11-3 1-6 1-8 3-2 1-4 0-4-2 0-4 4-10 8-13l1-4 2 3c8 0 14 7 14 17v7z"/>' +
      '<circle cx="17.5" cy="4.3" r="2.3"/><path d="M13 31h19l1 4H12z"/>' + base,
    detail: '<circle cx="17" cy="14.5" r="1.3"/><path d="M22.5 23.5l7-7"/><path d="M14 33h17" stroke-width="1"/>',
  },
};

const COLOURS = {
  w: { fill: '#fbfbf6', stroke: '#1b1b1b', detail: '#1b1b1b' },
  b: { fill: '#2a2a2a', stroke: '#0c0c0c', detail: '#e9e9e0' },
};

mkdirSync(out, { recursive: true });
for (const [side, c] of Object.entries(COLOURS)) {
  for (const [letter, s] of Object.entries(SHAPES)) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45" width="45" height="45">
<g fill="${c.fill}" stroke="${c.stroke}" stroke-width="1.5" stroke-linejoin="round">${s.body}</g>
<g fill="${c.detail}" stroke="${c.detail}" stroke-width="1.5" stroke-linecap="round">${s.detail}</g>
</svg>
`;
    writeFileSync(join(out, `${side}${letter}.svg`), svg);
  }
}
writeFileSync(join(out, 'LICENSE.txt'), `The piece images in this folder were drawn for randomchess (web/pieces.mjs).
Copyright (C) randomchess developers.
Licence: GPL-3.0-or-later, the same as the project (see LICENSE at the repository root).
`);
console.log(`wrote ${Object.keys(SHAPES).length * 2} pieces to ${out}`);
