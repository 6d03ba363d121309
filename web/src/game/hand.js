// The pieces a side holds in hand (PM-CRC's queen waiting to enter by gating, docs/rules.md
// D-31), drawn the same way on the game page's player lines and on the analysis board.

import { h } from '../dom.js';
import { t, localizeLetters } from '../i18n.js';

/** The pieces `hand` (letters, 'q') of `color` as small pieces and their letters, titled
 * "In hand: Queen"; '' when the hand is empty. */
export function handBadge(color, hand) {
  if (!hand) return '';
  return h('span.hand', { 'data-testid': `hand-${color}`,
    title: t('inHand', { pieces: [...hand].map(c => t(`piece.${c}`)).join(', ') }) },
  [...hand].map(c => h(`span.pc.${color}.${c}-piece`)),
  h('span.letter', localizeLetters(hand.toUpperCase())));
}
