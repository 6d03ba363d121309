// Router: #/ (new game), #/game/<id>[?invite=<url>], #/shuffler[?seed=&client=&variant=&commit=],
// #/analysis[?game=<id>], #/explorer?variant=<v>&setup=<n> (the opening explorer, on the analysis board),
// #/puzzles[?variant=&theme=&id=] (issue 33), #/account, #/lobby, #/tournaments and #/tournament/..., #/players/<name> (ratings chart), #/stats/<variant>/<number>. Hash routes, so the server
// only has to serve index.html at "/".

import 'chessgroundx/assets/chessground.base.css';
import './style.css';
import { h, clear } from './dom.js';
import { LANGUAGES, lang, setLang, t } from './i18n.js';
import { renderHome } from './home.js';
import { renderGame, renderNotFound } from './game.js';
import { numberLabel, variantName } from './variants.js';
import { errorKey, errorMessage } from './game/messages.js';
import { newClientValue } from './setups.js';
import { renderShuffler } from './shuffler.js';
import { renderAnalysis } from './analysis.js';
import { renderPuzzles } from './puzzles.js';
import { renderTournament } from './tournament.js';
import { renderAccount } from './account/view.js';
import { renderLobby } from './lobby/view.js';
import { renderPlayer } from './players.js';
import { renderSetupStats } from './setupstats.js';
import { describeInvite, joinGame, loadSeat, saveSeat } from './api.js';
import { loadVariants } from './variants.js';

const app = document.getElementById('app');
let page = null;

function parse() {
  const raw = location.hash.replace(/^#/, '') || '/';
  const [path, q] = raw.split('?');
  return { path, query: new URLSearchParams(q || '') };
}

export function go(path, { replace = false, silent = false } = {}) {
  const target = `/#${path}`;
  if (replace) history.replaceState(null, '', target);
  else location.hash = `#${path}`;
  if (replace && !silent) route();
}

function header() {
  const sel = h('select', { 'aria-label': t('language'), 'data-testid': 'lang' },
    LANGUAGES.map(l => h('option', { value: l, selected: l === lang() }, l === 'en' ? 'English' : 'Español')));
  sel.addEventListener('change', () => {
    setLang(sel.value);
    route();
  });
  return h('header.top',
    h('a.brand', { href: '/#/' }, 'randomchess'),
    h('nav', h('a', { href: '/#/' }, t('play')), h('a', { href: '/#/shuffler' }, t('shuffler')),
      h('a', { href: '/#/analysis', 'data-testid': 'nav-analysis' }, t('analysis')),
      h('a', { href: '/#/lobby', 'data-testid': 'nav-lobby' }, t('navLobby')),
      h('a', { href: '/#/tournaments', 'data-testid': 'nav-events' }, t('navEvents')),
      h('a', { href: '/#/account', 'data-testid': 'nav-account' }, t('navAccount'))),
    // Outside the nav: on a phone the links keep to one line without it (the home page
    // links the puzzles there).
    h('a.nav-wide', { href: '/#/puzzles', 'data-testid': 'nav-puzzles' }, t('navPuzzles')),
    sel);
}

function route() {
  if (page && page.destroy) page.destroy();
  page = null;
  clear(app);
  document.documentElement.lang = lang();
  app.append(header());
  const main = h('main');
  app.append(main);
  const invite = /^\/invite\/([^/]+)\/([^/]+)\/?$/.exec(location.pathname);
  if (invite && !location.hash) {
    renderJoin(main, decodeURIComponent(invite[1]), decodeURIComponent(invite[2]));
    return;
  }
  const { path, query } = parse();
  const m = /^\/game\/([^/]+)$/.exec(path);
  if (m) page = renderGame(main, decodeURIComponent(m[1]), go, query);
  else if (path === '/shuffler') renderShuffler(main, query);
  else if (path === '/analysis') page = renderAnalysis(main, go, query);
  else if (path === '/puzzles') page = renderPuzzles(main, go, query);
  else if (path === '/explorer') {
    if (!query.get('variant')) query.set('variant', 'chess960');
    if (!query.get('setup') && !query.get('fen')) query.set('setup', query.get('variant') === 'chess960' ? '518' : '0');
    page = renderAnalysis(main, go, query, { explorer: true });
  }
  else if (path.startsWith('/tournament')) page = renderTournament(main, path, go);
  else if (/^\/stats\/[^/]+\/[^/]+$/.test(path)) {
    const [, , v, n] = path.split('/');
    renderSetupStats(main, decodeURIComponent(v), decodeURIComponent(n), go);
  } else if (/^\/players\/[^/]+$/.test(path)) renderPlayer(main, decodeURIComponent(path.split('/')[2]));
  else if (path === '/account' || path === '/lobby') page = (path === '/lobby' ? renderLobby : renderAccount)(main, go);
  else renderHome(main, go);
  // A new page starts at its top: the home form may have been scrolled (on a phone) and the
  // game page's board would otherwise begin above the screen.
  window.scrollTo(0, 0);
}

const toGame = id => {
  history.replaceState(null, '', `/#/game/${encodeURIComponent(id)}`);
  route();
};

// An invite link is /invite/<game>/<code> (the server answers a browser with this page).
// Opening it claims nothing (link previews fetch URLs too): the page describes the game and
// the seat is claimed by the "Join this game" button, once; its token stays in this browser.
async function renderJoin(main, id, code) {
  const existing = loadSeat(id);
  if (existing && existing.token) {
    toGame(id);
    return;
  }
  let info;
  try {
    info = await describeInvite(id, code);
  } catch (e) {
    const key = errorKey(e);
    if (key === 'err.offline') {
      main.append(h('p.error', { role: 'alert', 'data-testid': 'message' }, t(key)));
    } else {
      renderNotFound(main, { used: key === 'err.inviteUsed', id });
    }
    return;
  }
  const error = h('p.error', { role: 'alert', 'data-testid': 'message' });
  const button = h('button.primary.big', { type: 'button', 'data-testid': 'join' }, t('joinButton'));
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      // This browser's share of a setup drawn at the join (issue 32, docs/shuffler.md §10).
      const res = await joinGame(id, code, info.setup_commit ? newClientValue() : undefined);
      saveSeat(id, { ...res.seat, opponent: 'friend' });
      toGame(id);
    } catch (e) {
      const key = errorKey(e);
      if (key === 'err.inviteUsed' || key === 'err.inviteBad' || key === 'err.noGame') {
        renderNotFound(main, { used: key === 'err.inviteUsed', id });
      } else {
        error.textContent = errorMessage(e, t);
        button.disabled = false;
      }
    }
  });
  const clock = info.clock && info.clock.days
    ? t('daysPerMove', { n: info.clock.days })
    : info.clock && info.clock.label
    ? t('joinControl', { label: info.clock.label[lang()] || info.clock.label.en })
    : info.clock
    ? t('joinClock', { minutes: info.clock.initial / 60000, increment: (info.clock.increment || 0) / 1000 })
    : t('unlimited');
  clear(main);
  main.append(h('section.join', { 'data-testid': 'join-page' },
    h('h1', t('joinTitle')),
    h('p', t('joinHelp', { variant: `${variantName(info.variant)}${info.number !== null &&
      info.number !== undefined ? ` #${numberLabel(info.variant, info.number)}` : ''}`, colour: t(`colour.${info.color}`) })),
    h('p.hint', clock),
    info.setup_commit ? h('p.hint', { 'data-testid': 'join-setup-commit' }, t('joinSetupCommit'), ' ',
      h('code', info.setup_commit)) : '',
    button, error));
}

// Every page draws from the server's variant metadata (GET /api/variants): it is fetched once,
// before the first page; without it there is nothing to draw, so the page says so and retries.
async function start() {
  try {
    await loadVariants();
  } catch (e) {
    clear(app);
    app.append(header(), h('main', h('p.error', { role: 'alert', 'data-testid': 'message' },
      t(errorKey(e)))));
    setTimeout(start, 3000);
    return;
  }
  window.addEventListener('hashchange', route);
  route();
}
start();
