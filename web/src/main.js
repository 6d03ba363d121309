// Router: #/ (new game), #/game/<id>[?invite=<url>], #/shuffler. Hash routes, so the server
// only has to serve index.html at "/".

import 'chessgroundx/assets/chessground.base.css';
import './style.css';
import { h, clear } from './dom.js';
import { LANGUAGES, lang, setLang, t } from './i18n.js';
import { renderHome } from './home.js';
import { renderGame } from './game.js';
import { renderShuffler } from './shuffler.js';
import { joinGame, loadSeat, saveSeat } from './api.js';

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
    h('a.brand', { href: '#/' }, 'randomchess'),
    h('nav', h('a', { href: '#/' }, t('play')), h('a', { href: '#/shuffler' }, t('shuffler'))),
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
  const { path, query } = parse();
  const m = /^\/game\/([^/]+)$/.exec(path);
  if (m) page = renderGame(main, decodeURIComponent(m[1]), go, query);
  else if (path === '/shuffler') renderShuffler(main);
  else renderHome(main, go);
}

// An invite link is /invite/<game>/<code> (the server answers a browser with this page):
// claim the seat once, keep its token in this browser, and go to the game.
async function openInvite() {
  const m = /^\/invite\/([^/]+)\/([^/]+)\/?$/.exec(location.pathname);
  if (!m) return;
  const id = decodeURIComponent(m[1]);
  let failure = null;
  const existing = loadSeat(id);
  if (!(existing && existing.token)) {
    try {
      const res = await joinGame(id, decodeURIComponent(m[2]));
      saveSeat(id, { ...res.seat, opponent: 'friend' });
    } catch (e) {
      failure = e.message; // e.g. the seat was taken: watch as a spectator
    }
  }
  history.replaceState(null, '', `/#/game/${encodeURIComponent(id)}`);
  if (failure) sessionStorage.setItem('rc-flash', t('error', { reason: failure }));
}

await openInvite();
window.addEventListener('hashchange', route);
route();
