// The move list (issue 11): numbered pairs of clickable moves, the shown one marked, with
// step buttons. Clicking a move shows the position after it (read-only).

import { h, clear } from '../dom.js';
import { t, localizeLetters } from '../i18n.js';

export function createMoveList(onNavigate, onPick) {
  const list = h('ol.movelist', { 'data-testid': 'moves', 'aria-label': t('moves') });
  list.addEventListener('click', ev => {
    const mv = ev.target.closest('.mv');
    if (mv) onPick(Number(mv.dataset.ply) + 1);
  });
  const nav = (where, label, testid, key) => h('button.secondary.nav', {
    type: 'button', 'data-testid': testid, title: `${t(key)}`, 'aria-label': t(key),
    onclick: () => onNavigate(where),
  }, label);
  const buttons = h('div.navbar', nav('first', '«', 'nav-first', 'navFirst'),
    nav('prev', '‹', 'nav-prev', 'navPrev'), nav('next', '›', 'nav-next', 'navNext'),
    nav('live', '»', 'nav-live', 'navLive'));
  const note = h('p.viewing', { 'data-testid': 'nav-banner', hidden: true });
  let drawn = null;
  return {
    el: h('div.movebox', list, buttons, note),
    /** Redraw for the game's SAN list with `shown` plies on the board (total = live). */
    update(san, shown) {
      const key = san.join(' ');
      if (drawn !== key) {
        clear(list);
        for (let i = 0; i < san.length; i += 2) {
          list.append(h('li',
            h('span.mv', { 'data-ply': String(i), tabindex: '-1' }, localizeLetters(san[i])),
            san[i + 1] !== undefined
              ? h('span.mv', { 'data-ply': String(i + 1), tabindex: '-1' }, localizeLetters(san[i + 1])) : ''));
        }
        drawn = key;
        list.scrollTop = list.scrollHeight;
      }
      for (const el of list.querySelectorAll('.mv')) {
        const on = Number(el.dataset.ply) === shown - 1;
        el.classList.toggle('current', on);
        if (on && shown < san.length) el.scrollIntoView({ block: 'nearest' });
      }
      const live = shown >= san.length;
      note.hidden = live;
      note.textContent = live ? '' : shown === 0 ? t('viewingStart') : t('viewing', { n: shown });
      for (const b of buttons.querySelectorAll('button')) {
        const where = b.dataset.testid.slice(4);
        b.disabled = (where === 'first' || where === 'prev') ? shown === 0 : live;
      }
    },
  };
}
