// The list of events (issue 30): #/tournaments, linked from the header, with the events in
// registration, running and finished; and the account page's "My events".

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { request } from '../api.js';
import { variantName } from '../variants.js';

const tt = (key, vars = {}) => t(`tournament.${key}`, vars);

function eventsTable(events, testid, withRole = false) {
  if (!events.length) return h('p', { 'data-testid': testid }, tt('noEvents'));
  return h('table.events', { 'data-testid': testid },
    // The variant and the system give way on a phone (tournament.css: .wide).
    h('thead', h('tr', h('th', tt('name')), h('th.wide', tt('variant')), h('th.wide', tt('system')),
      [tt('playersCount'), tt('roundsOf'), withRole ? tt('status') : tt('organiser')].map(x => h('th', x)))),
    h('tbody', events.map(e => h('tr', { 'data-event': e.id },
      h('td', h('a', { href: `#/tournament/${encodeURIComponent(e.id)}` }, e.name)),
      h('td.wide', variantName(e.variant)), h('td.wide', tt(e.system)), h('td', String(e.players)),
      h('td', e.rounds ? `${e.paired_rounds}/${e.rounds}` : String(e.paired_rounds)),
      h('td', withRole ? `${tt(e.status)} · ${tt(`role.${e.role}`)}` : (e.organiser || tt('anonymous')))))));
}

export async function renderEventList(main) {
  const root = h('section.event-list', { 'data-testid': 't-event-list' }, h('h1', tt('events')));
  main.append(root);
  let list;
  try {
    list = await request('GET', '/api/tournaments');
  } catch (e) {
    root.append(h('p.error', { role: 'alert' }, `${tt('error')}: ${e.message}`));
    return;
  }
  clear(root).append(h('h1', tt('events')),
    h('p', h('a', { href: '#/tournament/new', 'data-testid': 't-new-event' }, tt('newEvent'))),
    h('h2', tt('upcoming')), eventsTable(list.upcoming, 't-upcoming'),
    h('h2', tt('runningList')), eventsTable(list.running, 't-running'),
    h('h2', tt('finished')), eventsTable(list.finished, 't-finished'));
}

/** The account page's section: the events the signed-in account organises or arbitrates. */
export function myEvents() {
  const box = h('section', { 'data-testid': 'my-events' }, h('h2', tt('myEvents')));
  request('GET', '/api/account/events').then(out => {
    box.append(out.events.length ? eventsTable(out.events, 't-my-events', true) : h('p', tt('noMyEvents')),
      h('p', h('a', { href: '#/tournament/new' }, tt('newEvent'))));
  }, e => box.append(h('p.error', `${tt('error')}: ${e.message}`)));
  return box;
}
