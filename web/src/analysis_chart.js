// The review's evaluation chart: White's winning chances after every ply as an SVG area
// (drawn here, no chart library), the marks as coloured dots, the current ply as a line.
// A click picks the nearest ply.

const NS = 'http://www.w3.org/2000/svg';
const COLOURS = { inaccuracy: '#56b4e9', mistake: '#e69f00', blunder: '#d55e00' };

function el(name, attrs = {}) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

export function renderChart(review, { current = 0, onSelect = () => {} } = {}) {
  const W = 600;
  const H = 120;
  const start = review.start_score ? winOf(review.start_score) : 50;
  const wins = [start, ...review.plies.map(p => p.win)];
  const n = Math.max(1, wins.length - 1);
  const x = i => (i / n) * W;
  const y = w => H - (w / 100) * H;
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'review-chart', role: 'img',
    'data-testid': 'review-chart', 'aria-label': 'evaluation chart', preserveAspectRatio: 'none' });
  svg.append(el('rect', { x: 0, y: 0, width: W, height: H, fill: '#3a3a3a' }));
  const pts = wins.map((w, i) => `${x(i).toFixed(1)},${y(w).toFixed(1)}`);
  svg.append(el('polygon', { points: `0,${H} ${pts.join(' ')} ${W},${H}`, fill: '#f0f0f0',
    'data-testid': 'chart-area' }));
  svg.append(el('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, stroke: '#888', 'stroke-dasharray': '4 3' }));
  svg.append(el('polyline', { points: pts.join(' '), fill: 'none', stroke: '#b58863', 'stroke-width': 1.5 }));
  review.plies.forEach((p, i) => {
    if (!p.judgement) return;
    const dot = el('circle', { cx: x(i + 1), cy: y(p.win), r: 4, fill: COLOURS[p.judgement],
      'data-testid': `chart-mark-${p.ply}`, class: `mark-${p.judgement}` });
    const title = el('title');
    title.textContent = `${p.san} ${p.judgement}`;
    dot.append(title);
    svg.append(dot);
  });
  svg.append(el('line', { x1: x(current), y1: 0, x2: x(current), y2: H, stroke: '#4a90d9',
    'stroke-width': 2, 'data-testid': 'chart-cursor' }));
  svg.addEventListener('click', ev => {
    const box = svg.getBoundingClientRect();
    const ply = Math.round(((ev.clientX - box.left) / box.width) * n);
    onSelect(Math.max(0, Math.min(n, ply)));
  });
  return svg;
}

function winOf(score) {
  if (score.mate !== null && score.mate !== undefined) return score.mate > 0 ? 100 : 0;
  const cp = Math.max(-1000, Math.min(1000, score.cp));
  return 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * cp)) - 1);
}
