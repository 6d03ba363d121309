// The promotion picker on the promotion square (issue 37), as lichess and chessground show it:
// a column of the pieces a pawn may promote to laid over the board, starting on the promotion
// square and running towards the centre (on 9x9 MRC it includes the Minister). A click or tap
// on a piece promotes; Escape, a click anywhere else or leaving the page cancels, and the move
// is not made.

import { h } from '../dom.js';
import { t, localizeLetters } from '../i18n.js';

/**
 * Where the picker's squares go: for the promotion square `square` (chessground key: file
 * letter, rank character '1'… where ':' is the 10th) on a board of `width` by `height` seen
 * from `orientation`, the n squares as {col, row} counted from the board's top-left corner,
 * the first on the promotion square and the rest towards the centre.
 */
export function pickerSquares(square, n, { width, height, orientation }) {
  const file = square.charCodeAt(0) - 97;
  const rank = square.charCodeAt(1) - 49;
  const col = orientation === 'black' ? width - 1 - file : file;
  const row = orientation === 'black' ? rank : height - 1 - rank;
  const step = row < height / 2 ? 1 : -1;
  return Array.from({ length: n }, (_, i) => ({ col, row: row + i * step }));
}

/**
 * Shows the picker over the board inside `wrap` (the positioned element holding the board) and
 * resolves with the chosen piece letter, or null when cancelled. options: the letters in the
 * order shown; color: the promoting side; square, width, height, orientation: as above.
 */
export function pickPromotion(wrap, { options, color, square, width, height, orientation }) {
  const choices = options.map(p => {
    const name = t(`piece.${p}`);
    const letter = localizeLetters(p.toUpperCase());
    return { value: p, piece: p, letter, title: `${name} (${letter})`, name, testid: `promo-${p}` };
  });
  return pickOnBoard(wrap, { choices, color, square, width, height, orientation,
    label: t('promoteTo'), testid: 'promotion-choice' });
}

/**
 * Shows the pieces a gate may bring in (PM-CRC, docs/rules.md D-31) over the square the move
 * leaves, and "none" last; resolves with the chosen gating move's UCI, '' for the move
 * without a gate, or null when cancelled. options: [{letter, square, uci}] from the server's
 * legal moves (castling may gate on the king's or the rook's square: the square is shown).
 */
export function pickGate(wrap, { options, color, square, width, height, orientation }) {
  const squares = new Set(options.map(o => o.square)).size > 1;
  const choices = options.map(o => {
    const name = t(`piece.${o.letter}`);
    const letter = localizeLetters(o.letter.toUpperCase()) + (squares ? o.square : '');
    return { value: o.uci, piece: o.letter, letter, name,
      title: t('gateOn', { piece: name, square: o.square }),
      testid: `gate-${o.letter}${squares ? `-${o.square}` : ''}` };
  });
  choices.push({ value: '', piece: '', letter: '', name: t('gateNone'), title: t('gateNone'),
    testid: 'gate-none' });
  return pickOnBoard(wrap, { choices, color, square, width, height, orientation,
    label: t('gateChoice'), testid: 'gate-choice' });
}

/** The picker itself: a column of `choices` ({value, piece, letter, title, name, testid})
 * from `square` towards the centre; resolves with the chosen value, or null when cancelled. */
function pickOnBoard(wrap, { choices, color, square, width, height, orientation, label, testid }) {
  return new Promise(resolve => {
    const places = pickerSquares(square, choices.length, { width, height, orientation });
    const close = value => {
      layer.remove();
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('pointerdown', onOutside, true);
      window.removeEventListener('hashchange', onLeave);
      window.removeEventListener('popstate', onLeave);
      resolve(value);
    };
    const onKey = ev => {
      if (ev.key !== 'Escape') return;
      ev.preventDefault();
      ev.stopPropagation();
      close(null);
    };
    const onLeave = () => close(null);
    // Anywhere but a piece of the picker cancels (the board around it, the rest of the page).
    const onOutside = ev => {
      if (!(ev.target instanceof Element) || !ev.target.closest('.promotion-choice button')) close(null);
    };
    const buttons = choices.map((c, i) => h('button', {
      type: 'button', 'data-testid': c.testid, title: c.title, 'aria-label': c.name,
      style: `left: ${(places[i].col * 100) / width}%; top: ${(places[i].row * 100) / height}%;` +
        ` width: ${100 / width}%; height: ${100 / height}%;`,
      onclick: ev => {
        ev.stopPropagation();
        close(c.value);
      },
    }, c.piece ? h(`span.pc.${color}.${c.piece}-piece`) : h('span.none', { 'aria-hidden': 'true' }, '∅'),
    c.letter ? h('span.letter', { 'aria-hidden': 'true' }, c.letter) : null));
    const layer = h('div.promotion-choice', {
      role: 'dialog', 'aria-label': label, 'data-testid': testid, 'data-square': square,
    }, buttons);
    wrap.append(layer);
    document.addEventListener('keydown', onKey, true);
    document.addEventListener('pointerdown', onOutside, true);
    window.addEventListener('hashchange', onLeave);
    window.addEventListener('popstate', onLeave);
    buttons[0].focus({ preventScroll: true });
  });
}
