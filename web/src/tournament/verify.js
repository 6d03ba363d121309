// The verification of a closed event, in words (issue 30): #/tournament/<id>/verify shows what
// GET /api/tournaments/<id>/verify re-derived, round by round, instead of its raw JSON.

import { h, clear } from '../dom.js';
import { lang, t } from '../i18n.js';
import { request } from '../api.js';

const tt = (key, vars = {}) => t(`tournament.${key}`, vars);
const api = id => `/api/tournaments/${encodeURIComponent(id)}`;

export async function renderVerify(main, id) {
  const root = h('section.verify', { 'data-testid': 't-verify-page' });
  main.append(root);
  const back = h('p', h('a', { href: `#/tournament/${encodeURIComponent(id)}` }, tt('backToEvent')));
  let ev;
  let report;
  try {
    ev = await request('GET', api(id));
    report = await request('GET', `${api(id)}/verify?lang=${lang()}`);
  } catch (e) {
    // Not closed yet (the salt is secret until then), or no such event: said in words.
    const text = e.status === 404 && !ev ? tt('noEvent', { id }) : `${tt('error')}: ${e.message}`;
    clear(root).append(h('h1', ev ? tt('verifyTitle', { name: ev.name }) : tt('verify')),
      h('p.error', { role: 'alert', 'data-testid': 't-verify-result' }, text), back);
    return;
  }
  const rows = report.rounds.map((numbers, i) => h('tr',
    h('th', `${tt('round')} ${i + 1}`),
    h('td', numbers.map((n, b) => `${tt('board')} ${b + 1}: ${n ?? '—'}`).join(' · '))));
  clear(root).append(
    h('h1', tt('verifyTitle', { name: ev.name })),
    h(report.verified ? 'p.ok' : 'p.error', { role: 'status', 'data-testid': 't-verify-result' },
      report.verified ? tt('verifyOk') : tt('verifyBad')),
    report.mismatches.length ? h('ul', { 'data-testid': 't-mismatches' }, report.mismatches.map(m => h('li', m))) : null,
    h('p', `${tt('commitment')}: `, h('code', ev.commitment)),
    h('p', `${tt('salt')}: `, h('code', ev.salt || '')),
    h('table.pairings', { 'data-testid': 't-verify-rounds' }, h('caption', tt('verifyRounds')), h('tbody', rows)),
    h('p', h('a', { href: `${api(id)}/verify` }, tt('rawJson'))),
    back);
}
