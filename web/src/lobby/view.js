// The lobby page (#/lobby, issue 18, docs/accounts.md): the seek form (a clock, days per move
// or any time control; a setup kind; a challenge to a named player; quick pairing) and the
// open seeks live over /ws/lobby. The view only: the form's checks, the requests and the
// seeks' state are the controller's (ctrl.js); this file draws, and owns the socket and the
// timer that drops a lapsed seek.

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { allVariants, variantName } from '../variants.js';
import { formLimits } from '../limits.js';
import { currentUser, tr } from '../account/ctrl.js';
import { errorLine } from '../account/view.js';
import { controlHint, createLobbyCtrl, seekRow } from './ctrl.js';

export function renderLobby(main, go) {
  const root = h('section.lobby', { 'data-testid': 'lobby' });
  main.append(root);
  const page = { socket: null, closed: false, lapse: null };
  start(root, go, page);
  return {
    destroy() {
      page.closed = true;
      clearTimeout(page.lapse);
      if (page.socket) page.socket.close();
    },
  };
}

async function start(root, go, page) {
  const user = await currentUser();
  if (!user) {
    root.append(h('p', tr('needAccount')), h('a', { href: '#/account' }, tr('account')));
    return;
  }
  const ctrl = createLobbyCtrl(user.name, { go });
  const line = errorLine();
  const shown = out => { if (out.error) line.textContent = out.error; };
  const variant = h('select', { 'data-testid': 'seek-variant' },
    allVariants().map(v => h('option', { value: v.key, selected: v.key === 'chess960' }, variantName(v.key))));  // GET /api/variants
  const minutes = h('input', { type: 'number', value: '5', step: 'any',
    'data-testid': 'seek-minutes' });
  const increment = h('input', { type: 'number', value: '3', min: '0', step: 'any',
    'data-testid': 'seek-increment' });
  const days = h('select', { 'data-testid': 'seek-days' },
    h('option', { value: '' }, tr('liveClock')),
    [1, 2, 3, 5, 7, 14].map(d => h('option', { value: String(d) }, tr('perMove', { days: d }))));
  // Any clock the server runs (issue 34): a PGN TimeControl, instead of minutes + increment.
  const control = h('input', { 'data-testid': 'seek-control', size: 22, autocomplete: 'off',
    spellcheck: 'false', placeholder: '40/5400+30:1800+30' });
  const hint = h('p.hint', { 'data-testid': 'seek-control-hint' });
  formLimits('POST', '/api/lobby/seeks').then(lims => { hint.textContent = controlHint(lims); });
  const number = h('input', { type: 'number', min: '0', 'data-testid': 'seek-number' });
  const setupKind = h('select', { 'data-testid': 'seek-setup' },
    h('option', { value: 'random' }, tr('setupRandom')),
    h('option', { value: 'new-per-game' }, tr('setupPerGame')),
    h('option', { value: 'number' }, tr('setupByNumber')));
  const rated = h('input', { type: 'checkbox', checked: true, 'data-testid': 'seek-rated' });
  // The setup preview's countdown (issue 32): empty for the speed's default.
  const preview = h('input', { type: 'number', min: '0', max: '600', step: '1', placeholder: '20–180',
    'data-testid': 'seek-preview' });
  const challenge = h('input', { 'data-testid': 'seek-opponent', size: 12, autocomplete: 'off' });
  const form = () => ({ variant: variant.value, minutes: minutes.value, increment: increment.value,
    days: days.value, control: control.value, setupKind: setupKind.value, number: number.value,
    rated: rated.checked, preview: preview.value, challenge: challenge.value });
  const list = h('tbody');
  const table = h('table.seeks', { 'data-testid': 'seeks' },
    h('thead', h('tr', ['colPlayer', 'colRating', 'colVariant', 'colSetup', 'colClock', 'colMode']
      .map(k => h('th', { scope: 'col' }, tr(k))), h('th', h('span.sr-only', tr('accept'))))),
    list);
  root.append(h('h1', tr('lobby')),
    h('form', {
      'data-testid': 'seek-form',
      onsubmit: async ev => {
        ev.preventDefault();
        shown(await ctrl.post(form()));
      },
    }, h('h2', tr('newSeek')),
    h('div.row-form', h('label.stack', tr('colVariant'), variant),
      h('label.stack', tr('minutes'), minutes), h('label.stack', tr('increment'), increment),
      h('label.stack', tr('days'), days)),
    h('div.row-form', h('label.stack.wide', tr('control'), control)), hint,
    h('div.row-form', h('label.stack', tr('setupKind'), setupKind),
      h('label.stack', tr('setupNumber'), number)),
    h('div.row-form', h('label.stack.wide', tr('challengeName'), challenge),
      h('label.choice', rated, ` ${tr('rated')}`)),
    h('div.row-form', h('label.stack', t('preview.seconds'), preview)),
    // The rule against setup-shopping, where the seek is made (docs/rules.md, "no setup-shopping").
    h('p.hint', { 'data-testid': 'seek-rule' }, t('preview.seekRule')),
    h('div.actions', h('button', { type: 'submit', 'data-testid': 'seek-post' }, tr('post')),
      h('button.secondary', { type: 'button', 'data-testid': 'quick-pair',
        onclick: async () => shown(await ctrl.quick(form())) }, tr('quick')))),
    h('h2', tr('openSeeks')), h('div.table-scroll', table), line);

  const paint = seeks => {
    clear(list);
    if (!seeks.length) list.append(h('tr', h('td', { colspan: '7' }, tr('noSeeks'))));
    for (const s of seeks) {
      const row = seekRow(s, user.name);
      const act = row.own
        ? h('button', { onclick: async () => shown(await ctrl.remove(s.id)) }, `${tr('cancel')} (${tr('yours')})`)
        : h('button', { 'data-testid': 'seek-accept', onclick: async () => shown(await ctrl.accept(s.id)) },
          tr('accept'));
      // A challenge to this account may be declined (issue 32): it goes for both players.
      const decline = row.canDecline
        ? h('button.secondary', { 'data-testid': 'challenge-decline',
          onclick: async () => shown(await ctrl.remove(s.id)) }, tr('declineChallenge'))
        : '';
      list.append(h('tr', { 'data-testid': 'seek', class: row.own ? 'own' : undefined },
        h('td', s.challenge ? `${tr('challenge')}: ` : '',
          h('a', { href: `/#/players/${encodeURIComponent(s.player)}`, title: tr('profile') }, s.player)),
        h('td.num', `${s.rating}${s.provisional ? '?' : ''}`),
        h('td', variantName(s.variant)), h('td', row.setup, s.setup_commit
          ? h('span.small', ' · ', h('abbr', { 'data-testid': 'seek-commit', 'data-commit': s.setup_commit,
            title: `${tr('setupCommit')}: ${s.setup_commit}` }, `${tr('commitShort')} ${s.setup_commit.slice(0, 8)}…`))
          : ''),
        h('td.num', row.clock),
        h('td', { 'data-testid': 'seek-mode', title: s.rated ? t('preview.seekRule') : '' },
          row.mode, row.preview ? h('span.small', row.preview) : ''),
        h('td.seek-actions', act, decline)));
    }
  };
  // Paint the open seeks, and again when the next one lapses.
  const repaint = () => {
    clearTimeout(page.lapse);
    const { open, next } = ctrl.open();
    paint(open);
    if (next !== null && !page.closed) page.lapse = setTimeout(repaint, next - performance.now() + 50);
  };
  const connect = () => {
    if (page.closed) return;
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${proto}://${location.host}/ws/lobby`);
    page.socket = ws;
    ws.onmessage = async ev => {
      const out = ctrl.frame(JSON.parse(ev.data));
      if (!out) return;
      repaint();
      if (out.started) shown(await ctrl.takeSeat(out.started));
    };
    ws.onclose = () => setTimeout(connect, 1000);
  };
  connect();
}
