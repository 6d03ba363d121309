// Accounts and the lobby (issue 18, docs/accounts.md): #/account (log in, sign up, profile)
// and #/lobby (open seeks live over /ws/lobby). Cookie-authenticated calls send the CSRF
// token from the rc_csrf cookie in X-CSRF-Token.

import { h, clear, modal } from './dom.js';
import { lang, t } from './i18n.js';
import { request, saveSeat } from './api.js';
import { allVariants, variantName } from './variants.js';
import { checkValue, explainInvalid, formLimits } from './limits.js';
import { applyLobbyFrame, controlProblem, openSeeks } from './lobby_seeks.js';
import { newClientValue } from './setups.js';
import { myEvents } from './tournament/list.js';

/** The account, lobby and profile pages' texts (the catalogue's account.* keys). */
export const tr = (key, vars = {}) => t(`account.${key}`, vars);

const call = (method, path, body) => request(method, path, body);

// The fields' limits: the server's models (GET /openapi.json), said before sending.
const limitsOf = path => formLimits('POST', path);
const clockLabels = () => ({ 'clock.minutes': tr('minutes'), 'clock.increment': tr('increment'),
  name: tr('name'), password: tr('password') });

/** The first of `values` ({field path: text}) outside `lims`, explained; or null. */
function firstProblem(values, lims, labels) {
  for (const [name, value] of Object.entries(values)) {
    const problem = checkValue(value, lims[name], labels[name]);
    if (problem) return problem;
  }
  return null;
}

/** @typedef {import('./api_types.js').SessionOut} SessionOut */

// GET /api/account/session answers 200 with or without an account, so an anonymous page
// load logs no 401 in the console (issue 32).
async function me() {
  /** @type {SessionOut} */
  const session = await call('GET', '/api/account/session');
  return session.account;
}

/** The logged-in account ({name, csrf, ratings}) or null. */
export const currentUser = () => me();

/** Give this browser's seat of a game to the logged-in account (POST .../claim). */
export const claimSeat = (gameId, token) =>
  call('POST', `/api/account/games/${encodeURIComponent(gameId)}/claim`, { token });

function errorLine() {
  return h('p.error', { role: 'alert', 'data-testid': 'account-error' });
}

function show(line, e, lims = {}) {
  line.textContent = explainInvalid(e, clockLabels(), lims) || tr('error', { reason: e.message });
}

// ------------------------------------------------------------------------- account page
// The server's sign-up rules (server/accounts/store.py NAME_RE and MIN_PASSWORD; the test
// tests/test_web_account_lobby_browser.py holds the two to the same numbers).
export const SIGN_UP_RULES = { nameLow: 3, nameHigh: 20, password: 8 };
const NAME_SHAPE = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** Why a sign-up would be refused (in the page's language), or null: checked before sending. */
export function signUpProblem(name, password, again) {
  const r = SIGN_UP_RULES;
  if (name.length < r.nameLow || name.length > r.nameHigh || !NAME_SHAPE.test(name)) {
    return tr('badName', { low: r.nameLow, high: r.nameHigh });
  }
  if (password.length < r.password) return tr('shortPassword', { min: r.password });
  if (password !== again) return tr('mismatch');
  return null;
}

export function renderAccount(main, go) {
  const root = h('section.account', { 'data-testid': 'account' });
  main.append(root);
  draw(root, go);
}

async function draw(root, go) {
  clear(root);
  const user = await me();
  if (!user) {
    await call('GET', '/api/account/csrf');
    const field = (label, input) => h('label.stack', label, input);
    // Log in.
    const name = h('input', { name: 'name', autocomplete: 'username', 'data-testid': 'name' });
    const password = h('input', { name: 'password', type: 'password', 'data-testid': 'password',
      autocomplete: 'current-password' });
    // Sign up: its own form, its rules stated before anything is sent (the server's:
    // SIGN_UP_RULES), and the password typed twice.
    const newName = h('input', { name: 'new-name', autocomplete: 'username', 'data-testid': 'signup-name',
      maxlength: String(SIGN_UP_RULES.nameHigh) });
    const newPassword = h('input', { name: 'new-password', type: 'password', autocomplete: 'new-password',
      'data-testid': 'signup-password' });
    const again = h('input', { name: 'password-again', type: 'password', autocomplete: 'new-password',
      'data-testid': 'password-again' });
    const line = errorLine();
    const send = async (path, body) => {
      const lims = await limitsOf(path);
      const problem = firstProblem(body, lims, clockLabels());
      if (problem) {
        line.textContent = problem;
        return;
      }
      try {
        await call('POST', path, body);
        draw(root, go);
      } catch (e) {
        show(line, e);
      }
    };
    const logIn = ev => {
      ev.preventDefault();
      send('/api/account/login', { name: name.value, password: password.value });
    };
    const signUp = ev => {
      ev.preventDefault();
      const problem = signUpProblem(newName.value, newPassword.value, again.value);
      if (problem) {
        line.textContent = problem;
        return;
      }
      send('/api/account/signup', { name: newName.value, password: newPassword.value });
    };
    const r = SIGN_UP_RULES;
    root.append(h('h1', tr('account')),
      h('div.account-forms',
        h('form.stacked', { onsubmit: logIn, 'data-testid': 'login-form' },
          h('h2', tr('haveAccount')),
          field(tr('name'), name), field(tr('password'), password),
          h('button', { type: 'submit', 'data-testid': 'login' }, tr('logIn'))),
        h('form.stacked', { onsubmit: signUp, 'data-testid': 'signup-form' },
          h('h2', tr('newAccount')),
          h('p.hint', { 'data-testid': 'signup-rules' },
            tr('signUpRules', { low: r.nameLow, high: r.nameHigh, min: r.password })),
          field(tr('name'), newName), field(tr('password'), newPassword),
          field(tr('passwordAgain'), again),
          h('button', { type: 'submit', 'data-testid': 'signup' }, tr('signUp')))),
      line);
    return;
  }
  const games = (await call('GET', '/api/account/games')).games;
  const gamesList = h('div', { 'data-testid': 'games-list' });
  paintGames(gamesList, games);
  const turn = (await call('GET', '/api/account/turn')).details;
  const line = errorLine();
  const oldPw = h('input', { type: 'password', autocomplete: 'current-password',
    'data-testid': 'old-password' });
  const newPw = h('input', { type: 'password', autocomplete: 'new-password',
    'data-testid': 'new-password' });
  const changePassword = async ev => {
    ev.preventDefault();
    try {
      await call('POST', '/api/account/password', { old: oldPw.value, new: newPw.value });
      oldPw.value = newPw.value = '';
      line.textContent = tr('passwordChanged');
    } catch (e) {
      show(line, e);
    }
  };
  // Deleting asks first, in a dialog with its own password field (issue 32): not the
  // change-password form's box beside it, and never in one click.
  const deleteAccount = async () => {
    const password = h('input', { type: 'password', autocomplete: 'current-password',
      'data-testid': 'delete-password' });
    const asked = modal(tr('deleteTitle'), h('div', h('p', tr('deleteHelp')),
      h('label.stack', tr('deletePassword'), password)), [
      { label: t('cancel'), value: false, testid: 'confirm-no' },
      { label: tr('deleteConfirm'), value: true, testid: 'delete-confirm' },
    ]);
    password.focus();
    if (!await asked) return;
    try {
      await call('POST', '/api/account/delete', { password: password.value });
      draw(root, go);
    } catch (e) {
      show(line, e);
    }
  };
  const out = path => async () => {
    try {
      await call('POST', path);
      draw(root, go);
    } catch (e) {
      show(line, e);
    }
  };
  root.append(
    h('h1', { 'data-testid': 'logged-in' }, tr('loggedInAs', { name: user.name })),
    h('p', h('a', { href: '/#/lobby', 'data-testid': 'to-lobby' }, tr('lobby')), ' · ',
      h('a', { href: `/#/players/${encodeURIComponent(user.name)}`, 'data-testid': 'to-profile' },
        tr('profile'))),
    h('h2', tr('yourTurn')),
    turn.length
      ? h('ul', { 'data-testid': 'your-turn' }, turn.map(g =>
        h('li', h('a', { href: `#/game/${encodeURIComponent(g.id)}` },
          `${variantName(g.variant)}${g.number != null ? ` #${g.number}` : ''}`),
        g.deadline ? h('span.hint', { 'data-testid': 'turn-deadline' }, ` · ${tr('moveBy', {
          when: new Date(g.deadline).toLocaleString(lang(), { dateStyle: 'medium', timeStyle: 'short' }) })}`)
          : '')))
      : h('p', tr('noTurn')),
    h('h2', tr('ratings')),
    user.ratings.length
      ? h('ul', user.ratings.map(r => h('li', `${variantName(r.variant)} · ${tr(`speed.${r.speed}`)}: ${r.rating}${
        r.provisional ? '?' : ''} (±${r.rd})`)))
      : h('p', tr('noRatings')),
    h('h2', tr('games')),
    gamesFilter(line),
    gamesList,
    myEvents(),
    h('button', { onclick: out('/api/account/logout'), 'data-testid': 'logout' }, tr('logOut')),
    h('button', { onclick: out('/api/account/logout-everywhere') }, tr('logOutEverywhere')),
    h('form.row-form', { onsubmit: changePassword }, h('h2', tr('changePassword')),
      h('label.stack', tr('oldPassword'), oldPw), h('label.stack', tr('newPassword'), newPw),
      h('button', { type: 'submit', 'data-testid': 'change-password' }, tr('changePassword')),
      h('button', { type: 'button', onclick: deleteAccount, 'data-testid': 'delete-account' },
        tr('deleteAccount'))),
    line);
}

function paintGames(list, games) {
  clear(list);
  list.append(games.length
    ? h('ul', games.map(g => h('li', { 'data-testid': 'game-row' },
      h('a', { href: `#/game/${encodeURIComponent(g.id)}` },
        `${variantName(g.variant)}${g.number != null ? ` #${g.number}` : ''} ${g.speed ? tr(`speed.${g.speed}`) : ''} ${
          tr('vs', { name: g.opponent || tr('anonymous') })} ${g.result || ''}`))))
    : h('p', { 'data-testid': 'no-games' }, tr('noGames')));
}

// The account's games with the filters of GET /api/account/games (variant, speed, result from
// the account's side, opponent, setup number).
function gamesFilter(line) {
  const any = h('option', { value: '' }, tr('any'));
  const variant = h('select', { name: 'variant', 'data-testid': 'filter-variant' }, any,
    allVariants().map(v => h('option', { value: v.key }, variantName(v.key))));  // GET /api/variants
  const speed = h('select', { name: 'speed', 'data-testid': 'filter-speed' },
    h('option', { value: '' }, tr('any')),
    ['bullet', 'blitz', 'rapid', 'classical', 'correspondence', 'unlimited'].map(v =>
      h('option', { value: v }, tr(`speed.${v}`))));
  const result = h('select', { name: 'result', 'data-testid': 'filter-result' },
    h('option', { value: '' }, tr('any')),
    ['win', 'draw', 'loss'].map(v => h('option', { value: v }, tr(`result.${v}`))));
  const opponent = h('input', { name: 'opponent', 'data-testid': 'filter-opponent', size: 10 });
  const number = h('input', { name: 'number', type: 'number', min: '0', 'data-testid': 'filter-number' });
  const form = h('form.filters.row-form', {
    'data-testid': 'games-filter',
    onsubmit: async ev => {
      ev.preventDefault();
      const q = new URLSearchParams();
      for (const [k, el] of [['variant', variant], ['speed', speed], ['result', result],
        ['opponent', opponent], ['number', number]]) {
        if (el.value.trim() !== '') q.set(k, el.value.trim());
      }
      try {
        const games = (await call('GET', `/api/account/games?${q}`)).games;
        paintGames(form.parentNode.querySelector('[data-testid=games-list]'), games);
      } catch (e) {
        show(line, e);
      }
    },
  }, h('label.stack', tr('variantLabel'), variant), h('label.stack', tr('speedLabel'), speed),
  h('label.stack', tr('resultLabel'), result), h('label.stack', tr('opponentLabel'), opponent),
  h('label.stack', tr('numberLabel'), number),
  h('button.secondary', { type: 'submit', 'data-testid': 'filter-go' }, tr('filter')));
  return form;
}

// ------------------------------------------------------------------------- lobby page
export function renderLobby(main, go) {
  const root = h('section.lobby', { 'data-testid': 'lobby' });
  main.append(root);
  const state = { socket: null, closed: false, mine: new Set(), seeks: new Map(), lapse: null };
  start(root, go, state);
  return {
    destroy() {
      state.closed = true;
      clearTimeout(state.lapse);
      if (state.socket) state.socket.close();
    },
  };
}

async function takeSeat(gameId, go) {
  const res = await call('POST', `/api/account/games/${encodeURIComponent(gameId)}/seat`);
  saveSeat(gameId, { ...res.seat, opponent: 'friend' });
  go(`/game/${encodeURIComponent(gameId)}`);
}

async function start(root, go, state) {
  const user = await me();
  if (!user) {
    root.append(h('p', tr('needAccount')), h('a', { href: '#/account' }, tr('account')));
    return;
  }
  const line = errorLine();
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
  const controlHint = h('p.hint', { 'data-testid': 'seek-control-hint' });
  const number = h('input', { type: 'number', min: '0', 'data-testid': 'seek-number' });
  const setupKind = h('select', { 'data-testid': 'seek-setup' },
    h('option', { value: 'random' }, tr('setupRandom')),
    h('option', { value: 'new-per-game' }, tr('setupPerGame')),
    h('option', { value: 'number' }, tr('setupByNumber')));
  const rated = h('input', { type: 'checkbox', checked: true, 'data-testid': 'seek-rated' });
  // The setup preview's countdown (issue 32): empty for the speed's default.
  const preview = h('input', { type: 'number', min: '0', max: '600', step: '1', placeholder: '20–180',
    'data-testid': 'seek-preview' });
  const list = h('tbody');
  const table = h('table.seeks', { 'data-testid': 'seeks' },
    h('thead', h('tr', ['colPlayer', 'colRating', 'colVariant', 'colSetup', 'colClock', 'colMode']
      .map(k => h('th', { scope: 'col' }, tr(k))), h('th', h('span.sr-only', tr('accept'))))),
    list);
  const challenge = h('input', { 'data-testid': 'seek-opponent', size: 12, autocomplete: 'off' });
  const written = () => control.value.trim();
  const clock = () => (written() ? { control: written() } : days.value
    ? { days: Number(days.value) }
    : { minutes: Number(minutes.value), increment: Number(increment.value) });
  // The server's limits of a period and a bonus (its models' minutes and increment).
  const controlLimits = lims => [lims['clock.minutes']?.max ?? 600, lims['clock.increment']?.max ?? 600];
  limitsOf('/api/lobby/seeks').then(lims => {
    const [mins, bonus] = controlLimits(lims);
    controlHint.textContent = tr('controlHint', { minutes: mins, bonus });
  });
  // Quick pairing: the oldest open seek of another player in this variant, speed class and
  // rated or casual, whatever its exact clock; else this becomes an open seek.
  const clockProblem = lims => {
    if (written()) {
      const problem = controlProblem(written(), ...controlLimits(lims));
      return problem ? tr(problem.key, problem.vars) : null;
    }
    return days.value ? null
      : firstProblem({ 'clock.minutes': minutes.value, 'clock.increment': increment.value }, lims, clockLabels());
  };
  const quickPair = async () => {
    const lims = await limitsOf('/api/lobby/quick');
    const problem = clockProblem(lims);
    if (problem) {
      line.textContent = problem;
      return;
    }
    try {
      const res = await call('POST', '/api/lobby/quick',
        { variant: variant.value, clock: clock(), rated: rated.checked, client_value: newClientValue() });
      if (res.paired) {
        saveSeat(res.id, { ...res.seat, opponent: 'friend' });
        go(`/game/${encodeURIComponent(res.id)}`);
      } else {
        state.mine.add(res.seek);
      }
    } catch (e) {
      show(line, e, lims);
    }
  };
  root.append(h('h1', tr('lobby')),
    h('form', {
      'data-testid': 'seek-form',
      onsubmit: async ev => {
        ev.preventDefault();
        const lims = await limitsOf('/api/lobby/seeks');
        const problem = clockProblem(lims);
        if (problem) {
          line.textContent = problem;
          return;
        }
        try {
          const setup = setupKind.value === 'number' || number.value !== ''
            ? (number.value === '' ? 'random' : Number(number.value)) : setupKind.value;
          const body = { variant: variant.value, rated: rated.checked, setup, clock: clock() };
          if (preview.value !== '' && (!days.value || written())) body.preview = Number(preview.value);
          const name = challenge.value.trim();
          const res = name
            ? await call('POST', '/api/lobby/challenges', { ...body, name })
            : await call('POST', '/api/lobby/seeks', body);
          state.mine.add(res.id);
        } catch (e) {
          show(line, e, lims);
        }
      },
    }, h('h2', tr('newSeek')),
    h('div.row-form', h('label.stack', tr('colVariant'), variant),
      h('label.stack', tr('minutes'), minutes), h('label.stack', tr('increment'), increment),
      h('label.stack', tr('days'), days)),
    h('div.row-form', h('label.stack.wide', tr('control'), control)), controlHint,
    h('div.row-form', h('label.stack', tr('setupKind'), setupKind),
      h('label.stack', tr('setupNumber'), number)),
    h('div.row-form', h('label.stack.wide', tr('challengeName'), challenge),
      h('label.choice', rated, ` ${tr('rated')}`)),
    h('div.row-form', h('label.stack', t('preview.seconds'), preview)),
    // The rule against setup-shopping, where the seek is made (docs/rules.md, "no setup-shopping").
    h('p.hint', { 'data-testid': 'seek-rule' }, t('preview.seekRule')),
    h('div.actions', h('button', { type: 'submit', 'data-testid': 'seek-post' }, tr('post')),
      h('button.secondary', { type: 'button', 'data-testid': 'quick-pair', onclick: quickPair },
        tr('quick')))),
    h('h2', tr('openSeeks')), h('div.table-scroll', table), line);

  const paint = seeks => {
    clear(list);
    if (!seeks.length) list.append(h('tr', h('td', { colspan: '7' }, tr('noSeeks'))));
    for (const s of seeks) {
      const own = s.player === user.name;
      if (own) state.mine.add(s.id);
      const setupText = s.setup === 'random' ? tr('random')
        : s.setup === 'new-per-game' ? tr('perGame') : `#${s.setup}`;
      const clockText = s.clock.days ? tr('perMove', { days: s.clock.days })
        : s.clock.control || `${s.clock.minutes}+${s.clock.increment}`;
      const act = own
        ? h('button', { onclick: () => call('DELETE', `/api/lobby/seeks/${s.id}`)
          .catch(e => show(line, e)) }, `${tr('cancel')} (${tr('yours')})`)
        : h('button', {
          'data-testid': 'seek-accept',
          onclick: async () => {
            try {
              // This browser's share of the setup draw both players can verify (issue 32).
              const res = await call('POST', `/api/lobby/seeks/${encodeURIComponent(s.id)}/accept`,
                { client_value: newClientValue() });
              saveSeat(res.id, { ...res.seat, opponent: 'friend' });
              go(`/game/${encodeURIComponent(res.id)}`);
            } catch (e) {
              show(line, e);
            }
          },
        }, tr('accept'));
      // A challenge to this account may be declined (issue 32): it goes for both players.
      const decline = s.challenge && !own
        ? h('button.secondary', { 'data-testid': 'challenge-decline',
          onclick: () => call('DELETE', `/api/lobby/seeks/${encodeURIComponent(s.id)}`)
            .catch(e => show(line, e)) }, tr('declineChallenge'))
        : '';
      list.append(h('tr', { 'data-testid': 'seek', class: own ? 'own' : undefined },
        h('td', s.challenge ? `${tr('challenge')}: ` : '',
          h('a', { href: `/#/players/${encodeURIComponent(s.player)}`, title: tr('profile') }, s.player)),
        h('td.num', `${s.rating}${s.provisional ? '?' : ''}`),
        h('td', variantName(s.variant)), h('td', setupText, s.setup_commit
          ? h('span.small', ' · ', h('abbr', { 'data-testid': 'seek-commit', 'data-commit': s.setup_commit,
            title: `${tr('setupCommit')}: ${s.setup_commit}` }, `${tr('commitShort')} ${s.setup_commit.slice(0, 8)}…`))
          : ''),
        h('td.num', clockText),
        h('td', { 'data-testid': 'seek-mode', title: s.rated ? t('preview.seekRule') : '' },
          s.rated ? tr('rated') : tr('casual'),
          s.preview ? h('span.small', ` · ${t('preview.short', { n: s.preview })}`) : ''),
        h('td.seek-actions', act, decline)));
    }
  };
  // Paint the open seeks, and again when the next one lapses.
  const repaint = () => {
    clearTimeout(state.lapse);
    const { open, next } = openSeeks(state.seeks, performance.now());
    paint(open);
    if (next !== null && !state.closed) state.lapse = setTimeout(repaint, next - performance.now() + 50);
  };
  const connect = () => {
    if (state.closed) return;
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${proto}://${location.host}/ws/lobby`);
    state.socket = ws;
    ws.onmessage = ev => {
      const msg = JSON.parse(ev.data);
      if (msg.type !== 'seeks' && msg.type !== 'seeks-delta') return;
      state.seeks = applyLobbyFrame(state.seeks, msg, performance.now());
      repaint();
      if (msg.started && state.mine.has(msg.started.seek)) {
        takeSeat(msg.started.game, go).catch(e => show(line, e));
      }
    };
    ws.onclose = () => setTimeout(connect, 1000);
  };
  connect();
}
