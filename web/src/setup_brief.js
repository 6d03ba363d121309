// The setup brief on the shuffler's cards (issue 33): what to know before move 1, from
// GET /api/setups/{variant}/{number}/brief (the rules core's facts, src/randomchess/brief.py,
// with the shipped evaluation and this server's statistics). The answer is data; every word
// here comes from the catalogue, so the brief reads in English or Spanish and prints with
// its card.

import { h, clear } from './dom.js';
import { t, localizeLetters } from './i18n.js';
import { request } from './api.js';

const tb = (key, params = {}) => t(`brief.${key}`, params);

/** A FEN piece letter in the page's language, White upper case and Black lower case. */
function letter(p) {
  const local = localizeLetters(p.toUpperCase());
  return p === p.toUpperCase() ? local : local.toLowerCase();
}

const listed = xs => (xs.length ? xs.join(', ') : tb('none'));

function diagonalText(d) {
  return tb('diagonal', { piece: letter(d.piece), square: d.square, target: d.target,
    moves: d.opened_by.join(' / '), defenders: listed(d.target_defenders) });
}

function lineText(k) {
  const pieces = k.pieces.map(([sq, p]) => `${letter(p)}${sq}`).join(' ') || tb('none');
  return `${tb(`line.${k.line}`, { end: k.end })}: ${pieces}`;
}

function planText(c) {
  if (!c.moves) return tb('ready', { san: c.san });
  const unlock = c.unlock.length ? tb('unlock', { n: c.unlock.length, pawns: c.unlock.join(', ') }) : '';
  return tb('plan', { san: c.san, n: c.moves, squares: c.blockers.join(', '), unlock });
}

function side(s) {
  const row = (key, ...content) => [h('dt', tb(key)), h('dd', { 'data-fact': key }, ...content)];
  return h('div.brief-side', { 'data-testid': `brief-${s.color}` },
    h('h4', t(`colour.${s.color}`)),
    h('dl',
      row('undefended', listed(s.undefended_pawns)),
      row('kingOnly', listed(s.king_only_pawns)),
      row('diagonals', s.diagonals.length
        ? h('ul', s.diagonals.map(d => h('li', diagonalText(d)))) : tb('none')),
      row('lines', h('ul', s.king_lines.map(k => h('li', lineText(k))))),
      row('castling', h('ul', s.castling.map(c => h('li', { 'data-side': c.side,
        'data-moves': String(c.moves) }, planText(c)))))));
}

function statsText(s) {
  if (!s.games) return tb('noGames');
  return tb('games', { n: s.games, w: s.white_wins, d: s.draws, b: s.black_wins });
}

/** The brief of setup `number` of `variant`, filled in when the answer comes (removed if the
 * server cannot give it); `onBrief(answer)`, if given, is called with the answer too (the
 * game's setup preview shows its evaluation from it). */
export function briefBox(variant, number, onBrief = null) {
  const box = h('section.brief', { 'data-testid': 'card-brief' }, h('h4', tb('title')), h('p.small', '…'));
  request('GET', `/api/setups/${encodeURIComponent(variant)}/${Number(number)}/brief`).then(b => {
    clear(box).append(h('h4', tb('title')), side(b.white), side(b.black),
      h('p.small', { 'data-testid': 'brief-stats' }, statsText(b.stats)));
    box.dataset.ready = 'yes';
    if (onBrief) onBrief(b);
  }, () => { box.hidden = true; box.remove(); if (onBrief) onBrief(null); });
  return box;
}
