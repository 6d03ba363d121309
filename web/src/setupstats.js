// Per-setup statistics (issue 18, docs/accounts.md): #/stats/<variant>/<number> — this
// server's finished games from one Chess960 or MRC setup (GET /api/setups/{variant}/{number}/
// stats): how many, the results, White's score, the most common first moves and the latest
// games; a search by setup number. Linked from the shuffler's cards and the game page.

import { h, clear } from './dom.js';
import { formatPercent, lang, t, localizeLetters } from './i18n.js';
import { resultText } from './game/ctrl.js';
import { isNumbered, rankOf, setupCount, setupFen } from './setups.js';
import { allVariants, variantInfo, variantName } from './variants.js';
import { diagram } from './diagram.js';
import { request } from './api.js';

export const statsHref = (variant, number) =>
  `/#/stats/${encodeURIComponent(variant)}/${encodeURIComponent(number)}`;

/** One of the latest games: its players, result, length and date, linked to the game. */
function latestGame(g) {
  const name = n => n || t('anonymousPlayer');
  const moves = Math.ceil(g.plies / 2);
  const when = new Date(g.ended_at).toLocaleDateString(lang(), { dateStyle: 'medium' });
  return h('li', { 'data-testid': 'stats-game', 'data-id': g.id },
    h('a', { href: `/#/game/${encodeURIComponent(g.id)}` }, `${name(g.white)} – ${name(g.black)}`),
    ` · ${resultText(g)} · ${t(moves === 1 ? 'statsOneMove' : 'statsMoves', { n: moves })} · ${when}`);
}

export function renderSetupStats(main, variant, number, go) {
  const root = h('section.setup-stats', { 'data-testid': 'setup-stats' });
  main.append(root);
  const n = Number(number);
  // The numbered variants and their counts come from GET /api/variants (issue 12).
  const info = variantInfo(variant);
  const count = setupCount(info);
  const search = h('form.stats-search', {
    'data-testid': 'stats-search',
    onsubmit: ev => {
      ev.preventDefault();
      go(`/stats/${sel.value}/${Number(num.value)}`);
    },
  });
  const sel = h('select', { 'data-testid': 'stats-variant', 'aria-label': t('variant') },
    allVariants().filter(isNumbered).map(v => h('option', { value: v.key, selected: v.key === variant }, variantName(v.key))));
  const num = h('input', { type: 'number', min: '0', value: Number.isInteger(n) ? String(n) : '',
    'data-testid': 'stats-number', 'aria-label': t('setupNumber') });
  search.append(h('label', `${t('statsSearch')} `, sel, ' ', num), ' ',
    h('button.secondary', { type: 'submit', 'data-testid': 'stats-go' }, t('statsGo')));
  if (!count || !Number.isInteger(n) || n < 0 || n >= count) {
    root.append(h('h1', t('setupStats')), search,
      h('p.error', { role: 'alert', 'data-testid': 'stats-error' },
        t('badNumber', { max: (count || 960) - 1 })));
    return;
  }
  const rank = rankOf(info, n);
  const body = h('div', { 'data-testid': 'stats-body' }, h('p.hint', '…'));
  root.append(h('h1', { 'data-testid': 'stats-title' }, t('statsTitle', { variant: variantName(variant), number: n })),
    search,
    h('div.stats-setup', diagram(setupFen(info, rank), { small: true }),
      h('p.rank', localizeLetters(rank)),
      // Issue 33: the moves played from this setup, move by move.
      h('p', h('a', { href: `/#/explorer?variant=${encodeURIComponent(variant)}&setup=${n}`,
        'data-testid': 'stats-explorer' }, t('explorer.open')))),
    body);
  (async () => {
    let s;
    try {
      s = await request('GET', `/api/setups/${encodeURIComponent(variant)}/${n}/stats`);
    } catch (e) {
      clear(body).append(h('p.error', { role: 'alert' }, t('error', { reason: e.message })));
      return;
    }
    clear(body);
    if (!s.games) {
      body.append(h('p', { 'data-testid': 'stats-none' }, t('statsNone')));
      return;
    }
    body.append(
      h('p', { 'data-testid': 'stats-games' }, t('statsGames', { n: s.games })),
      h('p', { 'data-testid': 'stats-results' },
        t('statsResults', { w: s.white_wins, d: s.draws, b: s.black_wins })),
      s.white_score === null ? '' : h('p', { 'data-testid': 'stats-score' },
        `${t('statsWhiteScore')}: ${formatPercent(s.white_score * 100, 0)}`),
      s.first_moves.length ? h('div', h('h2', t('statsFirstMoves')),
        h('ol', { 'data-testid': 'stats-first-moves' }, s.first_moves.map(m =>
          h('li', `${localizeLetters(m.san)} (${m.games})`)))) : '',
      h('h2', t('statsRecent')),
      h('ul.stats-recent', { 'data-testid': 'stats-recent' }, s.latest.map(latestGame)));
  })();
}
