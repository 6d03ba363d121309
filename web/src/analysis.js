// Analysis board (#/analysis), in the game page's shape (issue 27): the controller
// (analysis/ctrl.js: the variation tree, the engine's lines, the review, every action, no
// DOM), the view (analysis/view.js) and the game page's board (game/board.js), wired here
// to the server: POST /api/analysis/position judges legality, /ws/analysis streams the
// engine's lines, a stored game's review draws its chart and marks.

import { request } from './api.js';
import { createAnalysisCtrl } from './analysis/ctrl.js';
import { createAnalysisView } from './analysis/view.js';
import { createBoard } from './game/board.js';
import './analysis.css';

export { scoreText, winPercent } from './analysis/score.js';

const game = id => `/api/games/${encodeURIComponent(id)}`;
const API = {
  position: body => request('POST', '/api/analysis/position', body),
  pgn: body => request('POST', '/api/analysis/pgn', body),
  getGame: id => request('GET', game(id)),
  getReview: id => request('GET', `${game(id)}/review`),
  postReview: (id, body) => request('POST', `${game(id)}/review`, body),
  engines: () => request('GET', '/api/analysis/engines'),
};

/** The /ws/analysis socket: messages sent once it is open, answers to onMessage. */
function connect(onMessage) {
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/analysis`);
  ws.onmessage = ev => {
    try {
      onMessage(JSON.parse(ev.data));
    } catch { /* not JSON: ignored */ }
  };
  return {
    send(obj) {
      const text = JSON.stringify(obj);
      if (ws.readyState === 1) ws.send(text);
      else if (ws.readyState === 0) ws.addEventListener('open', () => ws.send(text), { once: true });
    },
    close: () => ws.close(),
  };
}

/** The analysis board; `explorer`: the opening explorer's own page (#/explorer), the same
 * board with the explorer's panel first. */
export function renderAnalysis(root, go, query, { explorer = false } = {}) {
  let view = null;
  const ctrl = createAnalysisCtrl({ api: API, connect, query, redraw: () => view && view.redraw(),
    ask: (kind, data) => (view ? view.ask(kind, data) : Promise.resolve(null)) });
  view = createAnalysisView(root, ctrl, { explorerFirst: explorer });
  const board = createBoard(view.boardEl, { onMove: ctrl.move, dims: () => {
    const b = ctrl.view().board;
    return b ? { width: b.width, height: b.height } : { width: 8, height: 8 };
  }, duration: 120 });
  view.attach(board);
  // For the browser tests (tests/test_analysis_browser.py).
  window.rcAnalysis = {
    get info() { return ctrl.info; }, get current() { return ctrl.current; }, get tree() { return ctrl.tree; },
    get review() { return ctrl.review; }, ground: board.ground, play: uci => ctrl.play(uci),
  };
  ctrl.start();
  return {
    destroy() {
      ctrl.destroy();
      view.destroy();
    },
  };
}
