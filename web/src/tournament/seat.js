// A player's personal link to an event game (issue 30): #/tournament/<id>/seat/<game>/<token>
// (White: the seat's token) and #/tournament/<id>/join/<game>/<code> (Black: the invitation).
// The links of a hall round are handed out at the reveal, before the server opens the games
// at the preparation window's end: until then the page says so and waits, then opens the game.

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { request, saveSeat } from '../api.js';

const tt = (key, vars = {}) => t(`tournament.${key}`, vars);
const WAIT_MS = 2000;

/** White's seat (token) or Black's invitation (code) of ``game``; a page with destroy. */
export function renderSeatLink(main, eventId, game, secret, side, go) {
  let timer = null;
  let gone = false;
  const open = () => {
    if (side === 'white') go(`/game/${encodeURIComponent(game)}`, { replace: true });
    else location.assign(`/invite/${encodeURIComponent(game)}/${encodeURIComponent(secret)}`);
  };
  if (side === 'white') saveSeat(game, { color: 'white', token: secret, opponent: 'friend' });
  const check = async () => {
    try {
      await request('GET', `/api/games/${encodeURIComponent(game)}`);
    } catch (e) {
      if (gone) return;
      if (e.status === 404) {
        clear(main).append(h('section.seat-wait', { 'data-testid': 't-seat-wait' },
          h('h1', tt('seatWaitTitle')), h('p', tt('seatWait')),
          h('p', h('a', { href: `#/tournament/${encodeURIComponent(eventId)}` }, tt('backToEvent')))));
      }
      timer = setTimeout(check, WAIT_MS); // not open yet, or the network away: ask again
      return;
    }
    if (!gone) open();
  };
  check();
  return { destroy: () => { gone = true; clearTimeout(timer); } };
}
