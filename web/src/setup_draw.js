// A game's setup both players can verify (issue 32, docs/shuffler.md §10): the commitment the
// seek (or the friend's link) showed, the server seed revealed once the game started and the
// joiner's client value, with a link to the shuffler page that recomputes the setup from them
// in the browser. A friend's game waits for the join: until then the box shows the commitment
// only, and the page hides the provisional pieces (`onPending(true)`).

import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { request } from './api.js';

/** The box for the game page ({el, follow(state)}), filled (and shown) when game `id` has a
 * committed setup draw; `follow` asks again once a pending draw's game has its friend. */
export function setupDrawBox(id, onPending = () => {}) {
  const el = h('details.setup-draw', { 'data-testid': 'setup-draw', hidden: true });
  let pending = false;
  let asking = false;
  const row = (label, value, testid) => h('p.small', `${label}: `,
    h('code', { 'data-testid': testid }, value));

  function fill(d) {
    pending = !!(d && d.committed && d.revealed === false);
    onPending(pending);
    if (!d || !d.committed) return;
    clear(el);
    el.dataset.state = pending ? 'pending' : 'revealed';
    if (pending) {
      el.open = true;
      el.append(h('summary', t('setupDrawTitle')),
        h('p.small', { 'data-testid': 'sd-pending' }, t('setupDrawPending')),
        row(t('setupCommit'), d.commitment, 'sd-commit'));
    } else {
      const q = new URLSearchParams({ variant: d.variant, seed: d.server_seed,
        client: d.client_value || '-', commit: d.commitment });
      el.append(h('summary', t('setupDrawTitle')),
        h('p.small', t('setupDrawHelp')),
        row(t('setupCommit'), d.commitment, 'sd-commit'),
        row(t('serverSeed'), d.server_seed, 'sd-seed'),
        row(t('clientValue'), d.client_value || t('noClientValue'), 'sd-client'),
        h('p.small', h('a', { href: `/#/shuffler?${q}`, 'data-testid': 'sd-verify' }, t('verifyGameLink'))));
    }
    el.hidden = false;
  }

  function ask() {
    asking = true;
    return request('GET', `/api/games/${encodeURIComponent(id)}/setup-draw`).then(fill)
      .catch(() => { /* the page works without it */ })
      .finally(() => { asking = false; });
  }

  ask();
  return {
    el,
    /** The game's newest state: a pending draw is asked again once the friend has joined. */
    follow(state) {
      if (pending && !asking && state && !state.invite_open) ask();
    },
  };
}
