// A game's setup both players can verify (issue 32, docs/shuffler.md §10): the commitment the
// seek showed, the server seed revealed once the game started and the joiner's client value,
// with a link to the shuffler page that recomputes the setup from them in the browser.

import { h } from './dom.js';
import { t } from './i18n.js';
import { request } from './api.js';

/** A box for the game page, filled (and shown) when game `id` had a committed setup draw. */
export function setupDrawBox(id) {
  const box = h('details.setup-draw', { 'data-testid': 'setup-draw', hidden: true });
  request('GET', `/api/games/${encodeURIComponent(id)}/setup-draw`).then(d => {
    if (!d || !d.committed) return;
    const q = new URLSearchParams({ variant: d.variant, seed: d.server_seed,
      client: d.client_value || '-', commit: d.commitment });
    const row = (label, value, testid) => h('p.small', `${label}: `,
      h('code', { 'data-testid': testid }, value));
    box.append(h('summary', t('setupDrawTitle')),
      h('p.small', t('setupDrawHelp')),
      row(t('setupCommit'), d.commitment, 'sd-commit'),
      row(t('serverSeed'), d.server_seed, 'sd-seed'),
      row(t('clientValue'), d.client_value || t('noClientValue'), 'sd-client'),
      h('p.small', h('a', { href: `/#/shuffler?${q}`, 'data-testid': 'sd-verify' }, t('verifyGameLink'))));
    box.hidden = false;
  }).catch(() => { /* the page works without it */ });
  return box;
}
