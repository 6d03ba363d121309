// The opening explorer's panel (issue 33): for the position on the analysis board, reached
// from a numbered start setup, the moves played there before, from GET /api/explorer/{variant}
// ?start_fen=…&fen=… — each with its number of games, a White/draw/Black bar and the average
// rating of its rated games, the engine's evaluation after it where known, and the games behind a move (players, result, date, a link to
// a game of this server) — filtered by source (this server's games, imported collections
// by name), speed class and rating range. A click on a move plays it on the board
// (onPlay(uci)). Used in the analysis board's side panel and, first, on its own page
// (#/explorer?variant=…&setup=…).

import { h, clear } from './dom.js';
import { t, localizeLetters } from './i18n.js';
import { request } from './api.js';
import { errorMessage } from './game/messages.js';

const tx = (key, vars = {}) => t(`explorer.${key}`, vars);
const SPEEDS = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence'];

/** The engine's evaluation after a move, White's point of view: "+0.4", "#3", "#-2". */
function evalText(e) {
  if (!e) return '';
  if (e.mate !== null && e.mate !== undefined) return `#${e.mate}`;
  const pawns = e.cp / 100;
  return `${pawns > 0 ? '+' : ''}${pawns.toFixed(1)}`;
}

const percent = (n, total) => (total ? Math.round((1000 * n) / total) / 10 : 0);

function sourceName(s) {
  return s === 'server' || s === 'otb' ? tx(`source.${s}`) : s;
}

function bar(m) {
  const w = percent(m.white_wins, m.games);
  const d = percent(m.draws, m.games);
  const b = percent(m.black_wins, m.games);
  const part = (cls, value, key) => h(`span.${cls}`, { style: `width:${value}%`,
    title: tx(key, { n: value }), 'data-value': String(value) }, value >= 12 ? `${Math.round(value)}%` : '');
  return h('div.wdl', { 'data-testid': `explorer-bar-${m.uci}`, 'aria-label': tx('barLabel', { w, d, b }) },
    part('w', w, 'white'), part('d', d, 'draws'), part('b', b, 'black'));
}

/** The panel; update(variant, startFen, fen) shows that position (asks only when it or the
 * filters changed). `heading`: false on the explorer's own page, whose title says it. */
export function explorerPanel({ onPlay, heading = true }) {
  const filters = { source: '', speed: '', min: '', max: '' };
  let shown = null;
  let asked = 0;
  const sourceSel = h('select', { 'data-testid': 'explorer-source', 'aria-label': tx('source'),
    onchange: () => { filters.source = sourceSel.value; ask(); } },
  h('option', { value: '' }, tx('allSources')));
  const speedSel = h('select', { 'data-testid': 'explorer-speed', 'aria-label': tx('speed'),
    onchange: () => { filters.speed = speedSel.value; ask(); } },
  h('option', { value: '' }, tx('allSpeeds')), SPEEDS.map(s => h('option', { value: s }, tx(`speed.${s}`))));
  const rating = (key, testid) => {
    const input = h('input', { type: 'number', min: '0', max: '4000', step: '100', inputmode: 'numeric',
      placeholder: tx(key), 'aria-label': tx(key), 'data-testid': testid,
      onchange: () => { filters[key === 'minRating' ? 'min' : 'max'] = input.value.trim(); ask(); } });
    return input;
  };
  const minIn = rating('minRating', 'explorer-min');
  const maxIn = rating('maxRating', 'explorer-max');
  const status = h('p.small.explorer-status', { 'data-testid': 'explorer-status', role: 'status' });
  const body = h('tbody');
  const table = h('table.explorer-moves', { 'data-testid': 'explorer-moves' },
    h('thead', h('tr', h('th', tx('move')), h('th.num', tx('games')), h('th', tx('results')),
      h('th.num', tx('rating')), h('th.num', { title: tx('evalHelp') }, tx('eval')))), body);
  const gamesBox = h('div.explorer-games', { 'data-testid': 'explorer-games' });
  const el = h('section.explorer', { 'data-testid': 'explorer', 'aria-label': tx('title') },
    heading ? h('h3', tx('title')) : '',
    h('div.explorer-filters', sourceSel, speedSel, minIn, maxIn), status, table, gamesBox);
  let answered = null;

  function sources(available) {
    const have = [...sourceSel.options].map(o => o.value).slice(1);
    // This server's own games are always a choice, with or without games yet.
    const wanted = [...new Set(['server', ...available, ...(filters.source ? [filters.source] : [])])];
    if (have.join('\n') === wanted.join('\n')) return;
    clear(sourceSel).append(h('option', { value: '' }, tx('allSources')),
      ...wanted.map(s => h('option', { value: s, selected: s === filters.source }, sourceName(s))));
  }

  function filterParams(q) {
    if (filters.source) q.append('source', filters.source);
    if (filters.speed) q.append('speed', filters.speed);
    if (filters.min) q.append('min_rating', filters.min);
    if (filters.max) q.append('max_rating', filters.max);
    return q;
  }

  const elo = n => (n ? ` (${n})` : '');

  /** The games behind move `m` of the answer shown, latest first. */
  async function listGames(m) {
    if (!answered) return;
    const mine = asked;
    const q = filterParams(new URLSearchParams({ move: m.uci, fen: answered.fen }));
    gamesBox.dataset.ready = 'no';
    try {
      const a = await request('GET', `/api/explorer/${encodeURIComponent(answered.variant)}/${answered.number}/games?${q}`);
      if (mine !== asked) return;
      clear(gamesBox).append(h('h4', tx('gamesWith', { san: localizeLetters(m.san) })),
        h('ul', a.games.map(g => {
          const players = `${g.white}${elo(g.white_elo)} – ${g.black}${elo(g.black_elo)}`;
          const rest = [g.result, g.date, sourceName(g.source), g.event].filter(Boolean).join(' · ');
          return h('li', { 'data-testid': 'explorer-game' },
            g.game_id ? h('a', { href: `#/game/${encodeURIComponent(g.game_id)}`, 'data-testid': 'explorer-game-link' }, players) : players,
            ` · ${rest}`);
        })));
    } catch (e) {
      clear(gamesBox).append(h('p.small', errorMessage(e, t)));
    }
    gamesBox.dataset.ready = 'yes';
  }

  function draw(answer) {
    answered = answer;
    clear(gamesBox);
    clear(body);
    sources(answer.available);
    el.dataset.games = String(answer.games);
    el.dataset.fen = answer.fen;
    status.textContent = answer.games ? tx('total', { n: answer.games }) : tx('none');
    for (const m of answer.moves) {
      body.append(h('tr', { 'data-testid': `explorer-move-${m.uci}`, 'data-uci': m.uci,
        'data-games': String(m.games) },
      h('td', h('button.link', { type: 'button', 'data-testid': `explorer-play-${m.uci}`,
        title: tx('playIt'), onclick: () => onPlay(m.uci) }, localizeLetters(m.san))),
      h('td.num', h('button.link.count', { type: 'button', 'data-testid': `explorer-games-${m.uci}`,
        title: tx('showGames'), onclick: () => listGames(m) },
      `${t('explorer.count', { n: m.games })} · ${percent(m.games, answer.games)}%`)),
      h('td', bar(m)),
      h('td.num', m.average_rating === null ? '–' : String(m.average_rating)),
      h('td.num', { 'data-testid': `explorer-eval-${m.uci}` }, evalText(m.evaluation))));
    }
  }

  async function ask() {
    if (!shown) return;
    const mine = ++asked;
    const q = filterParams(new URLSearchParams({ start_fen: shown.startFen, fen: shown.fen }));
    el.dataset.ready = 'no';
    try {
      const answer = await request('GET', `/api/explorer/${encodeURIComponent(shown.variant)}?${q}`);
      if (mine !== asked) return;
      draw(answer);
    } catch (e) {
      if (mine !== asked) return;
      answered = null;
      clear(body);
      clear(gamesBox);
      el.dataset.games = '0';
      status.textContent = e && (e.code === 'setup.invalid' || e.code === 'variant.unknown')
        ? tx('notNumbered') : errorMessage(e, t);
    }
    el.dataset.ready = 'yes';
  }

  return {
    el,
    update(variant, startFen, fen) {
      if (!variant || !startFen || !fen) return;
      if (shown && shown.variant === variant && shown.startFen === startFen && shown.fen === fen) return;
      shown = { variant, startFen, fen };
      ask();
    },
  };
}
