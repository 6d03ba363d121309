// A player's profile (issue 18, docs/accounts.md): #/players/<name> — ratings, the rating
// history as an SVG chart and the statistics, per variant and speed class, from
// GET /api/players/{name}. The chart is drawn here (no chart library), as analysis_chart.js.

import { h, clear } from './dom.js';
import { variantName } from './variants.js';
import { tr } from './account/ctrl.js';
import { request } from './api.js';
import { formatPercent } from './i18n.js';

const NS = 'http://www.w3.org/2000/svg';
const SPEEDS = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence', 'unlimited'];

function svgEl(name, attrs = {}, text = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== null) e.textContent = text;
  return e;
}

/** The chart's vertical scale (issue 37): round-number ticks (a step of 10, 20, 25, 50,
 * 100, ...), at most five intervals, with room above and below the ratings. */
export function chartScale(min, max) {
  const a = min - 10;
  const b = max + 10;
  for (const step of [10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000]) {
    const lo = Math.floor(a / step) * step;
    const hi = Math.ceil(b / step) * step;
    if ((hi - lo) / step <= 5) return { lo, hi, step };
  }
  return { lo: Math.floor(a / 5000) * 5000, hi: Math.ceil(b / 5000) * 5000, step: 5000 };
}

/** The rating after each rated game of one variant and speed, from the first game's rating
 * before it: an SVG line with a dot per game (its title: rating and change). */
export function ratingChart(points) {
  const W = 600;
  const H = 220;
  const L = 44; // room for the rating labels
  const P = 12;
  const values = points.length ? [points[0].before, ...points.map(p => p.rating)] : [1500];
  const { lo, hi, step } = chartScale(Math.min(...values), Math.max(...values));
  const n = Math.max(1, values.length - 1);
  const x = i => L + (i / n) * (W - L - P);
  const y = v => P + (1 - (v - lo) / (hi - lo)) * (H - 2 * P);
  const svg = svgEl('svg', { viewBox: `0 0 ${W} ${H}`, class: 'rating-chart', role: 'img',
    'data-testid': 'rating-chart', 'aria-label': tr('chart') });
  svg.append(svgEl('rect', { x: L, y: P, width: W - L - P, height: H - 2 * P, fill: '#fff', stroke: '#ddd' }));
  for (let v = lo; v <= hi; v += step) {
    svg.append(svgEl('line', { x1: L, x2: W - P, y1: y(v), y2: y(v), stroke: '#eee' }));
    svg.append(svgEl('text', { x: L - 4, y: y(v) + 4, 'text-anchor': 'end', 'font-size': 11,
      fill: '#6b6b66', class: 'axis' }, String(Math.round(v))));
  }
  const pts = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`);
  svg.append(svgEl('polyline', { points: pts.join(' '), fill: 'none', stroke: '#2f6f4f',
    'stroke-width': 2, 'data-testid': 'chart-line' }));
  points.forEach((p, i) => {
    const change = p.rating - p.before;
    const dot = svgEl('circle', { cx: x(i + 1), cy: y(p.rating), r: 4,
      fill: change >= 0 ? '#2f6f4f' : '#a3261c', 'data-testid': 'chart-point',
      'data-rating': p.rating, 'data-game': p.game });
    dot.append(svgEl('title', {}, `${p.rating} (${change >= 0 ? '+' : ''}${change})`));
    svg.append(dot);
  });
  return svg;
}

const pct = x => (x === null || x === undefined ? '–' : formatPercent(x * 100, 0));
const speedName = s => tr(`speed.${s}`);

export function renderPlayer(main, name) {
  const root = h('section.profile', { 'data-testid': 'profile' });
  main.append(root);
  (async () => {
    let data;
    try {
      data = await request('GET', `/api/players/${encodeURIComponent(name)}`);
    } catch (e) {
      root.append(h('p.error', { role: 'alert', 'data-testid': 'profile-error' },
        tr('error', { reason: e.message })));
      return;
    }
    draw(root, data);
  })();
}

function draw(root, data) {
  // Every variant and speed the player has a rating, a history point or a finished game in.
  const pairs = new Map();
  for (const list of [data.ratings, data.history, data.stats]) {
    for (const r of list) pairs.set(`${r.variant}/${r.speed}`, { variant: r.variant, speed: r.speed });
  }
  const keys = [...pairs.keys()].sort((a, b) => {
    const [va, sa] = a.split('/');
    const [vb, sb] = b.split('/');
    return va.localeCompare(vb) || SPEEDS.indexOf(sa) - SPEEDS.indexOf(sb);
  });
  const choose = h('select', { 'data-testid': 'profile-pair', 'aria-label': tr('chart') },
    keys.map(k => h('option', { value: k },
      `${variantName(pairs.get(k).variant)} · ${speedName(pairs.get(k).speed)}`)));
  const detail = h('div.profile-detail', { 'data-testid': 'profile-detail' });
  const show = () => {
    clear(detail);
    const key = choose.value;
    if (!key) {
      detail.append(h('p', tr('noHistory')));
      return;
    }
    const { variant, speed } = pairs.get(key);
    const points = data.history.filter(p => p.variant === variant && p.speed === speed);
    const rating = data.ratings.find(r => r.variant === variant && r.speed === speed);
    const s = data.stats.find(r => r.variant === variant && r.speed === speed);
    detail.append(h('h2', tr('chart')),
      rating ? h('p.rating-now', { 'data-testid': 'rating-now' },
        `${rating.rating}${rating.provisional ? '?' : ''} (±${rating.rd}) · ${tr('gamesCount', { n: rating.games })}${
          rating.provisional ? ` · ${tr('provisional')}` : ''}`) : '',
      points.length ? ratingChart(points) : h('p', tr('noHistory')),
      h('h2', tr('stats')),
      s ? statsTable(s) : h('p', tr('noGames')));
  };
  choose.addEventListener('change', show);
  root.append(h('h1', { 'data-testid': 'profile-name' }, `${tr('profile')}: ${data.name}`),
    keys.length ? h('label', `${tr('variantSpeed')} `, choose) : '', detail,
    data.stats.length ? h('details', h('summary', tr('allStats')), h('table.stats', { 'data-testid': 'all-stats' },
      h('tr', [tr('variantSpeed'), tr('gamesShort'), tr('wins'), tr('draws'), tr('losses'), tr('score')]
        .map(x => h('th', x))),
      data.stats.map(r => h('tr', h('td', `${variantName(r.variant)} · ${speedName(r.speed)}`),
        [r.games, r.wins, r.draws, r.losses, pct(r.score)].map(x => h('td', String(x))))))) : '');
  show();
}

function statsTable(s) {
  const row = (label, r, games, score, testid) => h('tr', { 'data-testid': testid },
    h('th', label), [games, r.wins, r.draws, r.losses, pct(score)].map(x => h('td', String(x))));
  const part = c => {
    const g = c.wins + c.draws + c.losses;
    return [g, g ? (c.wins + c.draws / 2) / g : null];
  };
  return h('table.stats', { 'data-testid': 'stats-table' },
    h('tr', ['', tr('gamesShort'), tr('wins'), tr('draws'), tr('losses'), tr('score')].map(x => h('th', x))),
    row(tr('allColours'), s, s.games, s.score, 'stats-all'),
    row(tr('asWhite'), s.white, ...part(s.white), 'stats-white'),
    row(tr('asBlack'), s.black, ...part(s.black), 'stats-black'));
}
