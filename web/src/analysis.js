// Analysis board (#/analysis): a position from a game (?game=<id>), a pasted PGN or FEN, or a
// setup number; free moves build a variation tree (main line and side lines, clickable,
// deletable, arrow keys); the engine's evaluation bar, depth and 1-3 best lines stream in over
// /ws/analysis; a stored game's computer review draws its evaluation chart with the marks
// and each side's accuracy. The server judges legality (POST /api/analysis/position).

import { Chessground } from 'chessgroundx';
import { h, clear, copyText } from './dom.js';
import { formatPawns, formatPercent, lang, localizeLetters, t } from './i18n.js';
import { classify, dimensionsOf, parseUci, piecesOf } from './moves.js';
import { allVariants, castlingOf, promotionOrder, variantInfo, variantName } from './variants.js';
import { renderChart } from './analysis_chart.js';
import { localReason, request } from './api.js';
import './analysis.css';

/** The analysis page's texts (the catalogue's analysis.* keys). */
export const tr = (key, vars = {}) => t(`analysis.${key}`, vars);

const post = (path, body) => request('POST', path, body);
const get = path => request('GET', path);

/** "+0.35", "-1.20" ("+0,35" in Spanish), "#3", "#-2" from a White-point-of-view score. */
export function scoreText(score) {
  if (!score) return '';
  if (score.mate !== null && score.mate !== undefined) return `#${score.mate}`;
  return formatPawns(score.cp);
}

/** White's winning chances 0..100 (the server's model, lichess's curve). */
export function winPercent(score) {
  if (!score) return 50;
  if (score.mate !== null && score.mate !== undefined) return score.mate > 0 ? 100 : 0;
  const cp = Math.max(-1000, Math.min(1000, score.cp));
  return 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * cp)) - 1);
}

// ------------------------------------------------------------------ the variation tree
let nextId = 1;
const newNode = (parent, uci, san) => ({ id: nextId++, parent, uci, san, children: [] });

function pathOf(node) {
  const out = [];
  for (let n = node; n && n.parent; n = n.parent) out.unshift(n);
  return out;
}

export function renderAnalysis(root, go, query) {
  const root_ = newNode(null, null, null);
  let tree = root_;
  let current = root_;
  let variant = query.get('variant') || 'chess';
  let startFen = null;
  let info = null; // the server's answer for the current position
  let orientation = 'white';
  let engineOn = false;
  let socket = null;
  let seq = 0;
  let review = null;
  const gameId = query.get('game');
  let kinds = { dests: new Map(), castles: [], adjustments: [], promotions: new Map() };

  const boardEl = h('div.board', { 'data-testid': 'analysis-board' });
  const boardWrap = h('div.board-wrap', boardEl);
  const barFill = h('div.evalbar-white', { 'data-testid': 'evalbar-white' });
  const bar = h('div.evalbar', { 'data-testid': 'evalbar', title: tr('evalFor') }, barFill);
  const figure = h('span.evalfigure', { 'data-testid': 'eval' });
  const depthEl = h('span.depth', { 'data-testid': 'depth' });
  const linesEl = h('ol.lines', { 'data-testid': 'lines', 'aria-label': tr('lines') });
  const tree_ = h('div.tree', { 'data-testid': 'tree', tabindex: '0' });
  const message = h('p.message', { role: 'alert', 'data-testid': 'analysis-message' });
  const multipvSel = h('select', { 'data-testid': 'multipv', 'aria-label': tr('lines') },
    [1, 2, 3].map(n => h('option', { value: String(n), selected: n === 2 }, String(n))));
  const engineSel = h('select', { 'data-testid': 'engine', 'aria-label': tr('engine') },
    h('option', { value: 'randomchess' }, 'randomchess'));
  const toggle = h('button.primary', { type: 'button', 'data-testid': 'engine-toggle',
    onclick: () => (engineOn ? stopEngine() : startEngine()) }, tr('start'));
  const delBtn = h('button.secondary', { type: 'button', 'data-testid': 'delete-node',
    onclick: () => deleteCurrent() }, tr('delete'));
  const promoteBtn = h('button.secondary', { type: 'button', 'data-testid': 'promote-node',
    onclick: () => promoteCurrent() }, tr('promote'));
  const flipBtn = h('button.secondary', { type: 'button', 'data-testid': 'analysis-flip',
    onclick: () => { orientation = orientation === 'white' ? 'black' : 'white'; render(); } },
  tr('flip'));
  // loading
  const pasteIn = h('textarea', { 'data-testid': 'paste', rows: 3, placeholder: tr('pastePgn'),
    'aria-label': tr('pastePgn') });
  const variantSel = h('select', { 'data-testid': 'analysis-variant', 'aria-label': tr('variant') },
    allVariants().map(v => h('option', { value: v.key, selected: v.key === variant }, variantName(v.key))));
  const numberIn = h('input', { type: 'number', min: '1', 'data-testid': 'setup-number',
    placeholder: tr('setupNumber'), 'aria-label': tr('setupNumber') });
  const loadForm = h('form.load', { onsubmit: ev => { ev.preventDefault(); loadFromForm(); } },
    pasteIn, h('div.row', variantSel, numberIn,
      h('button.secondary', { type: 'submit', 'data-testid': 'load' }, tr('load'))));
  // review
  const reviewBox = h('section.review', { 'data-testid': 'review' });

  const page = h('div.game.analysis',
    h('div.board-col', h('div.analysis-board-row', bar, boardWrap)),
    h('aside.side',
      h('h2', tr('title'), gameId ? ` · ${tr('fromGame', { id: gameId })}` : ''),
      h('div.engine-row', engineSel, multipvSel, toggle, figure, depthEl),
      linesEl, tree_, h('div.actions', delBtn, promoteBtn, flipBtn), loadForm, reviewBox,
      message));
  root.append(page);

  const ground = Chessground(boardEl, {
    orientation, autoCastle: false, coordinates: true,
    animation: { enabled: true, duration: 120 },
    highlight: { lastMove: true, check: true },
    movable: { free: false, color: undefined, showDests: true, events: { after: onUserMove } },
    premovable: { enabled: false }, draggable: { enabled: true, showGhost: true },
    drawable: { enabled: true },
  });
  window.rcAnalysis = {
    get info() { return info; }, get current() { return current; }, get tree() { return tree; },
    get review() { return review; }, ground, play: uci => playUci(uci),
  };

  function flash(text) {
    message.textContent = text;
  }

  // ------------------------------------------------------------ the position
  async function refresh() {
    const moves = pathOf(current).map(n => n.uci);
    try {
      info = await post('/api/analysis/position', { variant, fen: startFen, moves });
      flash('');
    } catch (e) {
      flash(tr('bad', { reason: e.message }));
      return;
    }
    render();
    if (engineOn) sendAnalyse();
  }

  function render() {
    if (!info) return;
    // Board size, castling squares and promotion order from the variant's metadata
    // (GET /api/variants), as on the game page; the FEN's size only when it has none.
    const meta = variantInfo(variant);
    const { width, height } = meta ? { width: meta.files, height: meta.ranks } : dimensionsOf(info.fen);
    boardWrap.style.setProperty('--files', String(width));
    boardWrap.style.setProperty('--ranks', String(height));
    boardEl.classList.toggle('dark-corner', (orientation === 'white' ? height : width) % 2 === 1);
    boardEl.dataset.files = String(width);
    boardEl.dataset.ranks = String(height);
    boardEl.dataset.fen = info.fen;
    boardEl.dataset.ply = String(pathOf(current).length);
    const pieces = piecesOf(info.fen);
    kinds = classify(info.legal_moves, pieces, width, meta ? castlingOf(meta) : undefined);
    const last = current.uci && parseUci(current.uci);
    const resized = ground.state.dimensions.width !== width ||
      ground.state.dimensions.height !== height;
    const turn = info.to_move;
    ground.set({
      dimensions: { width, height }, fen: info.fen.split(' ')[0], orientation,
      turnColor: turn, lastMove: last ? [last.from, last.to] : undefined,
      check: info.check ? turn : false,
      movable: { color: info.over ? undefined : turn, dests: kinds.dests },
    });
    if (resized) ground.redrawAll();
    renderTree();
    if (!engineOn) showLines(null);
    renderReview();
  }

  function onUserMove(orig, dest) {
    const promos = kinds.promotions.get(orig + dest);
    if (promos) {
      const meta = variantInfo(variant);
      const pick = (meta ? promotionOrder(meta) : []).find(p => promos.includes(p)) || promos[0];
      return playUci(orig + dest + pick);
    }
    const castle = kinds.castles.find(c => c.king === orig && (c.rook === dest ||
      (c.viaKingSquare && c.kingTo === dest) || c.uci === orig + dest));
    if (castle) return playUci(castle.uci);
    return playUci(orig + dest);
  }

  function playUci(uci) {
    if (!info || !info.legal_moves.includes(uci)) {
      render();
      return false;
    }
    let child = current.children.find(c => c.uci === uci);
    if (!child) {
      child = newNode(current, uci, null);
      current.children.push(child);
    }
    current = child;
    refresh();
    return true;
  }

  function goTo(node) {
    current = node;
    refresh();
  }

  function deleteCurrent() {
    if (!current.parent) return;
    const parent = current.parent;
    parent.children = parent.children.filter(c => c !== current);
    goTo(parent);
  }

  function promoteCurrent() {
    for (let n = current; n.parent; n = n.parent) {
      const sibs = n.parent.children;
      sibs.splice(sibs.indexOf(n), 1);
      sibs.unshift(n);
    }
    renderTree();
  }

  // SAN of a node is the server's, from its path (asked again when missing).
  function sanOf(node) {
    return node.san || node.uci;
  }

  function renderTree() {
    // The current line's SAN comes from the server's answer for it.
    const path = pathOf(current);
    if (info && info.san) path.forEach((n, i) => { n.san = info.san[i]; });
    const fields = (startFen || info?.start_fen || '').split(' ');
    const offset = fields[1] === 'b' ? 1 : 0;
    const firstMove = Number(fields[5]) || 1;
    clear(tree_);
    const line = (start, depth) => {
      const out = h(depth ? 'span.sideline' : 'div.mainline');
      let needNumber = true;
      for (let n = start; n; n = n.children[0]) {
        const node = n;
        const ply = pathOf(node).length - 1; // 0-based ply of this move
        const abs = ply + offset;
        const white = abs % 2 === 0;
        const no = firstMove + Math.floor(abs / 2);
        const number = white ? `${no}.` : (needNumber ? `${no}…` : '');
        const mark = !depth ? reviewMark(ply) : null;
        const cls = `node${node === current ? ' current' : ''}${mark ? ` mark-${mark.judgement}` : ''}`;
        out.append(h('span', {
          class: cls, 'data-testid': `node-${node.id}`, 'data-uci': node.uci,
          'data-ply': String(ply + 1), onclick: () => goTo(node),
        }, number ? h('span.num', number) : '', localizeLetters(sanOf(node)),
        mark ? h('span.glyph', { 'data-testid': `glyph-${ply + 1}` }, glyphOf(mark.judgement)) : ''), ' ');
        needNumber = false;
        if (node.parent && node.parent.children[0] === node) {
          for (const side of node.parent.children.slice(1)) {
            out.append(h('span.paren', '('), line(side, depth + 1), h('span.paren', ')'), ' ');
            needNumber = true;
          }
        }
      }
      return out;
    };
    if (tree.children[0]) tree_.append(line(tree.children[0], 0));
    const cur = tree_.querySelector('.current');
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
  }

  // ------------------------------------------------------------ the engine
  function wsUrl() {
    return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/analysis`;
  }

  function openSocket() {
    if (socket && socket.readyState <= 1) return socket;
    socket = new WebSocket(wsUrl());
    socket.onmessage = ev => {
      const msg = JSON.parse(ev.data);
      if (msg.seq !== undefined && msg.seq !== seq) return;
      if (msg.type === 'lines') showLines(msg);
      else if (msg.type === 'error') flash(tr('bad', { reason: localReason(msg, msg.status) }));
      else if (msg.type === 'done') depthEl.dataset.done = 'true';
    };
    return socket;
  }

  function sendAnalyse() {
    if (!info || info.over) {
      showLines(null);
      return;
    }
    const ws = openSocket();
    seq += 1;
    depthEl.dataset.done = 'false';
    const msg = { type: 'analyse', position: {
      variant, fen: startFen, moves: pathOf(current).map(n => n.uci),
      engine: engineSel.value, multipv: Number(multipvSel.value), depth: 12 } };
    const send = () => ws.send(JSON.stringify(msg));
    if (ws.readyState === 1) send();
    else ws.addEventListener('open', send, { once: true });
  }

  function startEngine() {
    engineOn = true;
    toggle.textContent = tr('stop');
    toggle.dataset.on = 'true';
    sendAnalyse();
  }

  function stopEngine() {
    engineOn = false;
    toggle.textContent = tr('start');
    toggle.dataset.on = 'false';
    seq += 1;
    if (socket && socket.readyState === 1) socket.send(JSON.stringify({ type: 'stop' }));
  }

  function showLines(msg) {
    clear(linesEl);
    if (!msg || !msg.lines || !msg.lines.length) {
      figure.textContent = info && info.over ? tr('gameOver') : '';
      depthEl.textContent = '';
      barFill.style.height = '50%';
      bar.dataset.win = '50';
      return;
    }
    const best = msg.lines[0];
    figure.textContent = scoreText(best.score);
    depthEl.textContent = tr('depth', { d: msg.depth });
    depthEl.dataset.depth = String(msg.depth);
    const win = winPercent(best.score);
    barFill.style.height = `${win}%`;
    bar.dataset.win = win.toFixed(1);
    for (const line of msg.lines) {
      linesEl.append(h('li', { 'data-testid': `line-${line.multipv}` },
        h('span.score', scoreText(line.score)), ' ',
        h('span.pv', { onclick: () => playUci(line.pv[0]) },
          line.san.slice(0, 10).map(san => localizeLetters(san)).join(' '))));
    }
  }

  // ------------------------------------------------------------ the review
  function reviewMark(ply) {
    const p = review && review.plies[ply];
    return p && p.judgement ? p : null;
  }

  function glyphOf(j) {
    return { inaccuracy: '?!', mistake: '?', blunder: '??' }[j] || '';
  }

  function mainlineNodes() {
    const out = [];
    for (let n = tree.children[0]; n; n = n.children[0]) out.push(n);
    return out;
  }

  function renderReview() {
    clear(reviewBox);
    if (!gameId) return;
    reviewBox.append(h('h3', tr('review')));
    if (!review) {
      reviewBox.append(h('p', tr('noReview')), h('button.secondary', {
        type: 'button', 'data-testid': 'request-review', onclick: requestReview }, tr('analyse')));
      return;
    }
    const acc = review.accuracy || {};
    const counts = review.counts || { white: {}, black: {} };
    const side = color => h('div.acc', { 'data-testid': `accuracy-${color}` },
      h('strong', `${tr(color)}: `),
      `${tr('accuracy')} ${typeof acc[color] === 'number' ? formatPercent(acc[color]) : '–'}`,
      h('span.counts', ` · ${tr('inaccuracies', { n: counts[color].inaccuracy || 0 })}, ` +
        `${tr('mistakes', { n: counts[color].mistake || 0 })}, ${tr('blunders', { n: counts[color].blunder || 0 })}`));
    const link = `${location.origin}/#/analysis?game=${encodeURIComponent(gameId)}`;
    reviewBox.append(h('p.review-by', { 'data-testid': 'review-engine' }, tr('by', { engine: review.engine })),
      h('div.actions',
        h('button.secondary', { type: 'button', 'data-testid': 'share-review', onclick: async () => {
          if (await copyText(link)) flash(tr('copied'));
        } }, tr('share')),
        h('a.button.secondary', { href: `/api/games/${encodeURIComponent(gameId)}/review.pgn?lang=${lang()}`,
          download: `randomchess-${gameId}-review.pgn`, 'data-testid': 'review-pgn' }, tr('pgn'))));
    reviewBox.append(renderChart(review, {
      current: pathOf(current).length,
      onSelect: ply => {
        const nodes = mainlineNodes();
        goTo(ply === 0 ? tree : nodes[ply - 1]);
      },
    }), side('white'), side('black'));
    const marks = h('ul.marks', { 'data-testid': 'marks' });
    for (const p of review.plies) {
      if (!p.judgement) continue;
      marks.append(h('li', { 'data-testid': `mark-${p.ply}`, onclick: () => goTo(mainlineNodes()[p.ply - 1]) },
        `${Math.ceil(p.ply / 2)}${p.ply % 2 ? '.' : '…'} ${localizeLetters(p.san)}${glyphOf(p.judgement)} — `,
        tr('best', { best: localizeLetters(p.best_san || '') })));
    }
    reviewBox.append(marks);
  }

  async function requestReview() {
    clear(reviewBox);
    reviewBox.append(h('p', { 'data-testid': 'reviewing' }, tr('reviewing')));
    try {
      const path = `/api/games/${encodeURIComponent(gameId)}/review`;
      let stored = await post(path, { engine: engineSel.value, depth: 5 });
      // A long game answers 202 {status: 'running'}: ask again until the review is stored.
      while (stored && stored.status === 'running') {
        await new Promise(r => setTimeout(r, 1500));
        stored = await get(path);
      }
      review = stored.review;
    } catch (e) {
      flash(tr('bad', { reason: e.message }));
    }
    renderTree();
    renderReview();
  }

  // ------------------------------------------------------------ loading
  function loadLine(data) {
    variant = data.variant;
    startFen = data.start_fen;
    tree = newNode(null, null, null);
    let n = tree;
    data.moves.forEach((uci, i) => {
      const child = newNode(n, uci, data.san[i]);
      n.children.push(child);
      n = child;
    });
    current = tree;
    for (const opt of variantSel.options) opt.selected = opt.value === variant;
  }

  async function loadFromForm() {
    const text = pasteIn.value.trim();
    try {
      if (numberIn.value) {
        const data = await post('/api/analysis/position', { variant: variantSel.value,
          setup: Number(numberIn.value), moves: [] });
        loadLine(data);
      } else if (/^[^\s[]+\/[^\s]+ [wb] /.test(text)) {
        const data = await post('/api/analysis/position', { variant: variantSel.value, fen: text, moves: [] });
        loadLine(data);
      } else if (text) {
        loadLine(await post('/api/analysis/pgn', { pgn: text }));
      } else {
        loadLine(await post('/api/analysis/position', { variant: variantSel.value, moves: [] }));
      }
      review = null;
      await refresh();
    } catch (e) {
      flash(tr('bad', { reason: e.message }));
    }
  }

  function onKey(ev) {
    if (ev.target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(ev.target.tagName)) return;
    if (ev.key === 'ArrowLeft' && current.parent) goTo(current.parent);
    else if (ev.key === 'ArrowRight' && current.children[0]) goTo(current.children[0]);
    else if (ev.key === 'ArrowUp' || ev.key === 'Home') goTo(tree);
    else if (ev.key === 'ArrowDown' || ev.key === 'End') {
      let n = current;
      while (n.children[0]) n = n.children[0];
      goTo(n);
    } else return;
    ev.preventDefault();
  }
  document.addEventListener('keydown', onKey);

  // ------------------------------------------------------------ start-up
  (async () => {
    try {
      const engines = await get('/api/analysis/engines');
      clear(engineSel);
      for (const e of engines.engines) engineSel.append(h('option', { value: e }, e));
    } catch { /* the own engine stays */ }
    try {
      if (gameId) {
        const state = await get(`/api/games/${encodeURIComponent(gameId)}`);
        loadLine({ variant: state.variant, start_fen: state.start_fen, moves: state.moves || [],
          san: state.san || [] });
        try {
          review = (await get(`/api/games/${encodeURIComponent(gameId)}/review`)).review;
        } catch { review = null; }
      } else if (query.get('setup')) {
        loadLine(await post('/api/analysis/position', { variant,
          setup: Number(query.get('setup')), moves: [] }));
      } else if (query.get('fen')) {
        loadLine(await post('/api/analysis/position', { variant, fen: query.get('fen'), moves: [] }));
      } else {
        loadLine(await post('/api/analysis/position', { variant, moves: [] }));
      }
    } catch (e) {
      flash(tr('bad', { reason: e.message }));
      return;
    }
    // From a game: start at its last position, like a spectator's copy.
    if (gameId) {
      let n = tree;
      while (n.children[0]) n = n.children[0];
      current = n;
    }
    await refresh();
  })();

  return {
    destroy() {
      document.removeEventListener('keydown', onKey);
      if (socket) socket.close();
      ground.destroy();
    },
  };
}
