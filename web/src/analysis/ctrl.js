// The analysis board's controller (issue 27), in the game page's shape (game/ctrl.js): the
// variation tree, the cursor, the server's answer for the current position, the engine's
// lines and the stored review as plain data, and every action, with no DOM. Its
// dependencies (API calls, the engine socket, timers, the variants' metadata, redraw) are
// parameters, so test/analysis_ctrl.test.mjs drives it from node.

import { formatPercent, localizeLetters, t } from '../i18n.js';
import { classify, dimensionsOf, droppedMove, gatedMove, handAt, parseUci, piecesOf } from '../moves.js';
import { castlingOf, promotionOrder, variantInfo } from '../variants.js';
import { localReason } from '../api.js';
import { scoreText, winPercent } from './score.js';

/** The analysis page's texts (the catalogue's analysis.* keys). */
export const tr = (key, vars = {}) => t(`analysis.${key}`, vars);

export { scoreText, winPercent };

const GLYPHS = { inaccuracy: '?!', mistake: '?', blunder: '??' };
export const glyphOf = j => GLYPHS[j] || '';

/**
 * deps:
 *  - api: position(body), pgn(body), getGame(id), getReview(id), postReview(id, body),
 *    engines() — each a promise of the server's JSON answer (throws an ApiError);
 *  - connect(onMessage) → {send(obj), close()}: the /ws/analysis socket;
 *  - redraw(): the view draws ctrl.view() again;
 *  - ask(kind, data) → Promise: the view's picker, as the game page's (game/ctrl.js): 'gate'
 *    {options, color, square} → a gating move's UCI, '' for none, null when cancelled;
 *  - query: URLSearchParams of the page (game, variant, setup, fen);
 *  - variants(key) → metadata; sleep(ms) → promise (the review's polling).
 */
export function createAnalysisCtrl({
  api, connect, redraw = () => {}, ask = async () => null, query = new URLSearchParams(),
  variants = variantInfo,
  sleep = ms => new Promise(r => setTimeout(r, ms)),
}) {
  let nextId = 1;
  const newNode = (parent, uci, san) => ({ id: nextId++, parent, uci, san, children: [] });
  const pathOf = node => {
    const out = [];
    for (let n = node; n && n.parent; n = n.parent) out.unshift(n);
    return out;
  };

  const gameId = query.get('game');
  const s = {
    tree: newNode(null, null, null),
    current: null,
    variant: query.get('variant') || 'chess',
    startFen: null,
    info: null, // the server's answer for the current position
    orientation: 'white',
    engineOn: false,
    engine: 'randomchess',
    engines: ['randomchess'],
    multipv: 2,
    lines: null, // the engine's last {depth, lines}
    done: false,
    review: null,
    reviewing: false,
    // A game between people still being played: no engine help until it ends (fair play).
    locked: false,
    message: '',
    kinds: { dests: new Map(), castles: [], adjustments: [], promotions: new Map(), gates: new Map() },
  };
  s.current = s.tree;
  let socket = null;
  let seq = 0;
  let closed = false;

  const flash = text => {
    s.message = text;
    redraw();
  };
  const failed = e => flash(tr('bad', { reason: e.message }));
  const movesOf = node => pathOf(node).map(n => n.uci);

  // ------------------------------------------------------------ the position
  async function refresh() {
    try {
      s.info = await api.position({ variant: s.variant, fen: s.startFen, moves: movesOf(s.current) });
      s.message = s.locked ? tr('liveGame') : '';
    } catch (e) {
      failed(e);
      return;
    }
    // The current line's SAN comes from the server's answer for it.
    if (s.info.san) pathOf(s.current).forEach((n, i) => { n.san = s.info.san[i]; });
    const meta = variants(s.variant);
    const { width } = dims();
    s.kinds = classify(s.info.legal_moves, piecesOf(s.info.fen), width, meta ? castlingOf(meta) : undefined);
    if (!s.engineOn) s.lines = null;
    redraw();
    if (s.engineOn) sendAnalyse();
  }

  const hasHand = () => {
    const meta = variants(s.variant);
    return !!(meta && meta.hand && meta.hand.length);
  };

  /** Board size from the variant's metadata (GET /api/variants); the FEN's size without it. */
  function dims() {
    const meta = variants(s.variant);
    if (meta) return { width: meta.files, height: meta.ranks };
    return s.info ? dimensionsOf(s.info.fen) : { width: 8, height: 8 };
  }

  function play(uci) {
    if (!s.info || !s.info.legal_moves.includes(uci)) {
      redraw();
      return false;
    }
    let child = s.current.children.find(c => c.uci === uci);
    if (!child) {
      child = newNode(s.current, uci, null);
      s.current.children.push(child);
    }
    s.current = child;
    refresh();
    return true;
  }

  /** A piece dropped from `orig` on `dest` (moves.js droppedMove, as on the game page): a
   * promotion (first choice in the variant's menu order), a Bishop Adjustment, castling by
   * king-takes-rook or onto its square, or a plain move; true when it was played. A move a
   * piece from the hand may enter with (PM-CRC's gate) asks the picker first and returns a
   * promise: the gate, none, or nothing when cancelled or when the board has moved on. */
  function move(orig, dest) {
    const d = droppedMove(s.kinds, orig, dest);
    if (d.promotions) {
      const meta = variants(s.variant);
      const pick = (meta ? promotionOrder(meta) : []).find(p => d.promotions.includes(p)) || d.promotions[0];
      return play(orig + dest + pick);
    }
    if (d.adjustment) return play(d.adjustment.uci);
    return d.gates ? gate(d) : play(d.uci);
  }

  async function gate({ uci, square, gates }) {
    const at = s.current;
    const color = s.info && s.info.to_move === 'black' ? 'black' : 'white';
    const chosen = gatedMove(uci, await ask('gate', { options: gates, color, square }));
    if (chosen === null || s.current !== at) {
      redraw(); // the piece goes back
      return false;
    }
    return play(chosen);
  }

  function goTo(node) {
    s.current = node;
    refresh();
  }

  const byId = id => {
    const walk = n => (n.id === id ? n : n.children.map(walk).find(Boolean) || null);
    return walk(s.tree);
  };

  function deleteCurrent() {
    if (!s.current.parent) return;
    const parent = s.current.parent;
    parent.children = parent.children.filter(c => c !== s.current);
    goTo(parent);
  }

  function promoteCurrent() {
    for (let n = s.current; n.parent; n = n.parent) {
      const sibs = n.parent.children;
      sibs.splice(sibs.indexOf(n), 1);
      sibs.unshift(n);
    }
    redraw();
  }

  function flip() {
    s.orientation = s.orientation === 'white' ? 'black' : 'white';
    redraw();
  }

  /** A navigation key: 'left', 'right', 'first', 'last'; true when it was one. */
  function key(name) {
    const c = s.current;
    if (name === 'left' && c.parent) goTo(c.parent);
    else if (name === 'right' && c.children[0]) goTo(c.children[0]);
    else if (name === 'first') goTo(s.tree);
    else if (name === 'last') {
      let n = c;
      while (n.children[0]) n = n.children[0];
      goTo(n);
    } else return false;
    return true;
  }

  const mainline = () => {
    const out = [];
    for (let n = s.tree.children[0]; n; n = n.children[0]) out.push(n);
    return out;
  };

  /** The main line's position after ply `ply` (0: the start), as the chart and marks pick it. */
  const goToPly = ply => goTo(ply === 0 ? s.tree : mainline()[ply - 1] || s.tree);

  // ------------------------------------------------------------ the engine
  // The server numbers the analyse requests of a socket 1, 2, … and tags every answer with
  // its request's number: `seq` counts the requests sent, so an answer to an older one (or
  // any answer after Stop) is dropped. (Stop used to count as a request too, and every line
  // after Stop and Start again was dropped.)
  function onEngine(msg) {
    if (msg.seq !== undefined && msg.seq !== seq) return;
    if (!s.engineOn && msg.type !== 'error') return;
    if (msg.type === 'lines') {
      s.lines = msg;
      s.done = false;
      redraw();
    } else if (msg.type === 'error') flash(tr('bad', { reason: localReason(msg, msg.status) }));
    else if (msg.type === 'done') {
      s.done = true;
      redraw();
    }
  }

  function sendAnalyse() {
    if (!s.info || s.info.over) {
      s.lines = null;
      redraw();
      return;
    }
    if (!socket) socket = connect(onEngine);
    seq += 1;
    s.done = false;
    socket.send({ type: 'analyse', position: {
      variant: s.variant, fen: s.startFen, moves: movesOf(s.current),
      engine: s.engine, multipv: s.multipv, depth: 12 } });
  }

  function toggleEngine() {
    if (s.locked) {
      s.message = tr('liveGame');
      redraw();
      return;
    }
    s.engineOn = !s.engineOn;
    if (s.engineOn) sendAnalyse();
    else if (socket) socket.send({ type: 'stop' });
    redraw();
  }

  const setEngine = name => { s.engine = name; };
  const setMultipv = n => { s.multipv = Number(n); };

  // ------------------------------------------------------------ the review
  async function requestReview() {
    if (s.locked) return;
    s.reviewing = true;
    redraw();
    try {
      let stored = await api.postReview(gameId, { engine: s.engine, depth: 5 });
      // A long game answers 202 {status: 'running'}: ask again until the review is stored.
      while (stored && stored.status === 'running' && !closed) {
        await sleep(1500);
        stored = await api.getReview(gameId);
      }
      s.review = stored.review;
    } catch (e) {
      s.message = tr('bad', { reason: e.message });
    }
    s.reviewing = false;
    redraw();
  }

  // ------------------------------------------------------------ loading
  function loadLine(data) {
    s.variant = data.variant;
    s.startFen = data.start_fen;
    s.tree = newNode(null, null, null);
    let n = s.tree;
    data.moves.forEach((uci, i) => {
      const child = newNode(n, uci, data.san[i]);
      n.children.push(child);
      n = child;
    });
    s.current = s.tree;
  }

  /** The load form: {text (a PGN or a FEN), variant, number}. */
  async function load({ text = '', variant = s.variant, number = '' }) {
    const body = { variant, moves: [] };
    // A paste and a number both given: say so and load neither (the number used to win
    // silently over the paste above it).
    if (String(number).trim() !== '' && text.trim()) {
      flash(tr('loadBoth'));
      return;
    }
    try {
      if (String(number).trim() !== '') loadLine(await api.position({ ...body, setup: Number(number) }));
      else if (/^[^\s[]+\/[^\s]+ [wb] /.test(text.trim())) loadLine(await api.position({ ...body, fen: text.trim() }));
      else if (text.trim()) loadLine(await api.pgn({ pgn: text.trim() }));
      else loadLine(await api.position(body));
      s.review = null;
      await refresh();
    } catch (e) {
      failed(e);
    }
  }

  async function start() {
    try {
      const engines = await api.engines();
      if (engines && engines.engines && engines.engines.length) {
        s.engines = engines.engines;
        s.engine = s.engines[0];
      }
    } catch { /* the own engine stays */ }
    try {
      if (gameId) {
        const state = await api.getGame(gameId);
        s.locked = state.opponent === 'friend' && state.status !== 'ended';
        if (s.locked) s.message = tr('liveGame');
        loadLine({ variant: state.variant, start_fen: state.start_fen, moves: state.moves || [],
          san: state.san || [] });
        try {
          s.review = s.locked ? null : (await api.getReview(gameId)).review;
        } catch { s.review = null; }
        // From a game: start at its last position, like a spectator's copy.
        const line = mainline();
        s.current = line.length ? line[line.length - 1] : s.tree;
      } else if (query.get('setup')) {
        loadLine(await api.position({ variant: s.variant, setup: Number(query.get('setup')), moves: [] }));
      } else if (query.get('fen')) {
        loadLine(await api.position({ variant: s.variant, fen: query.get('fen'), moves: [] }));
      } else {
        loadLine(await api.position({ variant: s.variant, moves: [] }));
      }
    } catch (e) {
      failed(e);
      return;
    }
    await refresh();
  }

  // ------------------------------------------------------------ what the page shows
  function treeView() {
    const fields = (s.startFen || s.info?.start_fen || '').split(' ');
    const offset = fields[1] === 'b' ? 1 : 0;
    const firstMove = Number(fields[5]) || 1;
    const mark = ply => {
      const p = s.review && s.review.plies[ply];
      return p && p.judgement ? p.judgement : null;
    };
    // A line: [{id, uci, ply, number, san, current, judgement, glyph, sidelines: [line]}].
    const line = (start, depth) => {
      const out = [];
      let needNumber = true;
      for (let n = start; n; n = n.children[0]) {
        const ply = pathOf(n).length - 1; // 0-based ply of this move
        const abs = ply + offset;
        const no = firstMove + Math.floor(abs / 2);
        const judgement = depth ? null : mark(ply);
        const item = {
          id: n.id, uci: n.uci, ply: ply + 1,
          number: abs % 2 === 0 ? `${no}.` : (needNumber ? `${no}…` : ''),
          san: localizeLetters(n.san || n.uci), current: n === s.current,
          judgement, glyph: judgement ? glyphOf(judgement) : '', sidelines: [],
        };
        needNumber = false;
        if (n.parent && n.parent.children[0] === n) {
          for (const side of n.parent.children.slice(1)) {
            item.sidelines.push(line(side, depth + 1));
            needNumber = true;
          }
        }
        out.push(item);
      }
      return out;
    };
    return s.tree.children[0] ? line(s.tree.children[0], 0) : [];
  }

  function engineView() {
    const best = s.lines && s.lines.lines && s.lines.lines[0];
    if (!best) {
      return { figure: s.info && s.info.over ? tr('gameOver') : '', depth: '', depthValue: null,
        win: 50, lines: [], done: s.done };
    }
    return {
      figure: scoreText(best.score),
      depth: tr('depth', { d: s.lines.depth }),
      depthValue: s.lines.depth,
      win: winPercent(best.score),
      done: s.done,
      lines: s.lines.lines.map(l => ({
        multipv: l.multipv, score: scoreText(l.score), first: l.pv[0],
        pv: l.san.slice(0, 10).map(san => localizeLetters(san)).join(' '),
      })),
    };
  }

  function reviewView() {
    if (!gameId) return null;
    if (!s.review) return { reviewing: s.reviewing };
    const acc = s.review.accuracy || {};
    const counts = s.review.counts || { white: {}, black: {} };
    const side = color => ({
      name: tr(color),
      accuracy: `${tr('accuracy')} ${typeof acc[color] === 'number' ? formatPercent(acc[color]) : '–'}`,
      counts: [tr('inaccuracies', { n: counts[color].inaccuracy || 0 }),
        tr('mistakes', { n: counts[color].mistake || 0 }),
        tr('blunders', { n: counts[color].blunder || 0 })].join(', '),
    });
    return {
      reviewing: s.reviewing,
      data: s.review,
      engine: tr('by', { engine: s.review.engine }),
      white: side('white'),
      black: side('black'),
      marks: s.review.plies.filter(p => p.judgement).map(p => ({
        ply: p.ply,
        text: `${Math.ceil(p.ply / 2)}${p.ply % 2 ? '.' : '…'} ${localizeLetters(p.san)}${glyphOf(p.judgement)} — `,
        best: tr('best', { best: localizeLetters(p.best_san || '') }),
      })),
    };
  }

  /** Everything the page shows, as plain data. */
  function view() {
    const { width, height } = dims();
    const info = s.info;
    const last = s.current.uci && parseUci(s.current.uci);
    return {
      gameId,
      variant: s.variant,
      startFen: s.startFen,
      message: s.message,
      locked: s.locked,
      engineOn: s.engineOn,
      engines: s.engines,
      engine: s.engine,
      multipv: s.multipv,
      board: info ? {
        fen: info.fen, placement: info.fen.split(' ')[0].split('[')[0], width, height,
        orientation: s.orientation, turn: info.to_move, check: !!info.check,
        lastMove: last ? [last.from, last.to] : undefined,
        movable: info.over ? undefined : info.to_move, dests: s.kinds.dests,
        ply: pathOf(s.current).length,
      } : null,
      // Gating variants (PM-CRC): the pieces each side still holds in hand here (null: the
      // variant has no hand).
      hands: hasHand() ? handAt(info ? info.fen : '', [], 0) : null,
      tree: treeView(),
      eval: engineView(),
      review: reviewView(),
    };
  }

  return {
    view, start, play, move, goTo: id => { const n = byId(id); if (n) goTo(n); }, goToPly,
    deleteCurrent, promoteCurrent, flip, key, toggleEngine, setEngine, setMultipv,
    requestReview, load,
    /** For the browser tests (window.rcAnalysis). */
    get info() { return s.info; },
    get current() { return s.current; },
    get tree() { return s.tree; },
    get review() { return s.review; },
    destroy() {
      closed = true;
      if (socket) socket.close();
    },
  };
}
