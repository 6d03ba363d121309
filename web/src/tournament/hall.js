// The hall view of an event (#/tournament/<id>/hall, issue 30): the projector's page with the
// current round's setup, its castling, the setup brief (issue 33), the reveal's digits and the
// preparation window's countdown. Asked every 10 s, the countdown ticking every second.

import { h, clear } from '../dom.js';
import { lang } from '../i18n.js';
import { diagram } from '../diagram.js';
import { briefBox } from '../setup_brief.js';
import { countdownText, hallBoard, revealedText, tt } from './ctrl.js';
import { missing, tickLine } from './common.js';

function hallRound(ev, round, briefFor) {
  const l = lang();
  if (round.awaits_reveal) return h('p.hall-waiting', { 'data-testid': 't-hall-waiting' }, tt('awaitsReveal', { round: round.round }));
  const b = hallBoard(round);
  if (!b) return null;
  const ends = round.reveal ? round.reveal.window_ends : null;
  return h('div',
    b.fen ? h('div.hall-diagram', { 'data-testid': 't-hall-diagram' }, diagram(b.fen.split(' ')[0])) : null,
    b.setup != null ? h('p.hall-setup', h('strong', String(b.setup)), ` · ${b.rank.en} · ${b.rank.es}`) : null,
    b.castling ? h('p.hall-castling', { 'data-testid': 't-hall-castling' },
      Object.entries(b.castling[l] || b.castling.en).map(([san, squares]) => `${san}: ${squares}`).join(' · ')) : null,
    b.setup != null ? briefFor(ev.variant, b.setup) : null, // issue 33
    round.reveal ? h('p', revealedText(round.reveal)) : null,
    ends ? h('p.hall-countdown', { 'data-testid': 't-countdown', 'data-ends': String(ends) }) : null);
}

/** The countdown line of the hall view, from its data-ends (ms since the epoch). */
const tick = main => tickLine(main, 't-countdown', countdownText);

export function renderHall(main, id, api) {
  let timer = null;
  // The setup brief (issue 33): asked once per setup, the same box shown at every refresh.
  const briefs = new Map();
  const briefFor = (variant, number) => {
    const key = `${variant}/${number}`;
    if (!briefs.has(key)) briefs.set(key, briefBox(variant, number));
    return briefs.get(key);
  };
  const draw = async () => {
    let ev;
    try {
      ev = await api.event(id);
    } catch (e) {
      if (e.status === 404) { // no such event: say so, and stop asking
        clearInterval(timer);
        clear(main).append(h('section.hall', { 'data-testid': 't-hall' }, missing(id)));
      }
      return; // a missed refresh: the next one comes in 10 s
    }
    const last = ev.round_list[ev.round_list.length - 1];
    clear(main).append(h('section.hall', { 'data-testid': 't-hall' },
      h('h1', `${ev.name} · ${tt('round')} ${last ? last.round : '-'}`),
      last ? hallRound(ev, last, briefFor) : h('p', tt('noRound'))));
    tick(main);
  };
  timer = setInterval(draw, 10000);
  const ticker = setInterval(() => tick(main), 1000);
  draw();
  return { destroy: () => { clearInterval(timer); clearInterval(ticker); } };
}
