// The analysis board's view (issue 27), as game/view.js: builds the page once and redraws
// it from ctrl.view(); its handlers only call controller actions. The board is the game
// page's (game/board.js), attached by analysis.js.

import { h, clear, copyText } from '../dom.js';
import { lang } from '../i18n.js';
import { allVariants, variantName } from '../variants.js';
import { renderChart } from '../analysis_chart.js';
import { tr } from './ctrl.js';
import { explorerPanel } from '../explorer.js';
import { pickGate } from '../game/promotion.js';
import { handBadge } from '../game/hand.js';
import { t } from '../i18n.js';

const KEYS = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'first', Home: 'first',
  ArrowDown: 'last', End: 'last' };

/** `explorerFirst`: the explorer's own page (#/explorer): its panel heads the side panel. */
export function createAnalysisView(root, ctrl, { explorerFirst = false } = {}) {
  const first = ctrl.view();
  const explorer = explorerPanel({ onPlay: uci => ctrl.play(uci), heading: !explorerFirst });
  const boardEl = h('div.board', { 'data-testid': 'analysis-board' });
  const boardWrap = h('div.board-wrap', boardEl);
  // PM-CRC's pieces in hand above and below the board, the side at the top first.
  const topHand = h('div.analysis-hand', { 'data-testid': 'analysis-hand-top', hidden: true });
  const bottomHand = h('div.analysis-hand', { 'data-testid': 'analysis-hand-bottom', hidden: true });
  const barFill = h('div.evalbar-white', { 'data-testid': 'evalbar-white' });
  const bar = h('div.evalbar', { 'data-testid': 'evalbar', title: tr('evalFor') }, barFill);
  const figure = h('span.evalfigure', { 'data-testid': 'eval' });
  const depthEl = h('span.depth', { 'data-testid': 'depth' });
  const linesEl = h('ol.lines', { 'data-testid': 'lines', 'aria-label': tr('lines') });
  const treeEl = h('div.tree', { 'data-testid': 'tree', tabindex: '0' });
  const message = h('p.message', { role: 'alert', 'data-testid': 'analysis-message' });
  const multipvSel = h('select', { 'data-testid': 'multipv', 'aria-label': tr('lines'),
    onchange: () => ctrl.setMultipv(multipvSel.value) },
  [1, 2, 3].map(n => h('option', { value: String(n), selected: n === first.multipv }, String(n))));
  const engineSel = h('select', { 'data-testid': 'engine', 'aria-label': tr('engine'),
    onchange: () => ctrl.setEngine(engineSel.value) });
  const toggle = h('button.primary', { type: 'button', 'data-testid': 'engine-toggle',
    onclick: () => ctrl.toggleEngine() }, tr('start'));
  const pasteIn = h('textarea', { 'data-testid': 'paste', rows: 3, placeholder: tr('pastePgn'),
    'aria-label': tr('pastePgn') });
  const variantSel = h('select', { 'data-testid': 'analysis-variant', 'aria-label': tr('variant') },
    allVariants().map(v => h('option', { value: v.key, selected: v.key === first.variant }, variantName(v.key))));
  const numberIn = h('input', { type: 'number', min: '0', 'data-testid': 'setup-number',
    placeholder: tr('setupNumber'), 'aria-label': tr('setupNumber') });
  const loadForm = h('form.load', { onsubmit: ev => {
    ev.preventDefault();
    ctrl.load({ text: pasteIn.value, variant: variantSel.value, number: numberIn.value });
  } }, pasteIn, h('div.row', variantSel, numberIn,
    h('button.secondary', { type: 'submit', 'data-testid': 'load' }, tr('load'))));
  const reviewBox = h('section.review', { 'data-testid': 'review' });

  root.append(h('div.game.analysis',
    h('div.board-col', topHand, h('div.analysis-board-row', bar, boardWrap), bottomHand),
    h('aside.side',
      h('h2', explorerFirst ? t('explorer.pageTitle') : tr('title'),
        first.gameId ? ` · ${tr('fromGame', { id: first.gameId })}` : ''),
      explorerFirst ? explorer.el : '',
      h('div.engine-row', engineSel, multipvSel, toggle, figure, depthEl),
      linesEl, treeEl,
      h('div.actions',
        h('button.secondary', { type: 'button', 'data-testid': 'delete-node', onclick: () => ctrl.deleteCurrent() }, tr('delete')),
        h('button.secondary', { type: 'button', 'data-testid': 'promote-node', onclick: () => ctrl.promoteCurrent() }, tr('promote')),
        h('button.secondary', { type: 'button', 'data-testid': 'analysis-flip', onclick: () => ctrl.flip() }, tr('flip'))),
      explorerFirst ? '' : explorer.el, loadForm, reviewBox, message)));

  let board = null;
  let shownEngines = '';
  let shownVariant = null;

  function drawBoard(b) {
    if (!board || !b) return;
    boardWrap.style.setProperty('--files', String(b.width));
    boardWrap.style.setProperty('--ranks', String(b.height));
    boardEl.classList.toggle('dark-corner', (b.orientation === 'white' ? b.height : b.width) % 2 === 1);
    Object.assign(boardEl.dataset, { files: String(b.width), ranks: String(b.height), fen: b.fen, ply: String(b.ply) });
    const { ground } = board;
    const resized = ground.state.dimensions.width !== b.width || ground.state.dimensions.height !== b.height;
    ground.set({
      dimensions: { width: b.width, height: b.height }, fen: b.placement, orientation: b.orientation,
      turnColor: b.turn, lastMove: b.lastMove, check: b.check ? b.turn : false,
      movable: { color: b.movable, dests: b.dests },
    });
    if (resized) ground.redrawAll();
  }

  function drawHands(v) {
    const bottom = v.board ? v.board.orientation : 'white';
    const top = bottom === 'white' ? 'black' : 'white';
    for (const [el, color] of [[topHand, top], [bottomHand, bottom]]) {
      el.hidden = !v.hands;
      clear(el);
      if (v.hands) el.append(handBadge(color, v.hands[color]));
    }
  }

  const line = (items, depth) => {
    const out = h(depth ? 'span.sideline' : 'div.mainline');
    for (const n of items) {
      out.append(h('span', {
        class: `node${n.current ? ' current' : ''}${n.judgement ? ` mark-${n.judgement}` : ''}`,
        'data-testid': `node-${n.id}`, 'data-uci': n.uci, 'data-ply': String(n.ply),
        onclick: () => ctrl.goTo(n.id),
      }, n.number ? h('span.num', n.number) : '', n.san,
      n.glyph ? h('span.glyph', { 'data-testid': `glyph-${n.ply}` }, n.glyph) : ''), ' ');
      for (const side of n.sidelines) out.append(h('span.paren', '('), line(side, depth + 1), h('span.paren', ')'), ' ');
    }
    return out;
  };

  function drawEngine(v) {
    toggle.textContent = v.engineOn ? tr('stop') : tr('start');
    toggle.disabled = v.locked;
    toggle.dataset.on = v.engineOn ? 'true' : 'false';
    const e = v.eval;
    figure.textContent = e.figure;
    depthEl.textContent = e.depth;
    depthEl.dataset.done = e.done ? 'true' : 'false';
    if (e.depthValue !== null) depthEl.dataset.depth = String(e.depthValue);
    barFill.style.height = `${e.win}%`;
    bar.dataset.win = e.win.toFixed(1);
    clear(linesEl);
    for (const l of e.lines) {
      linesEl.append(h('li', { 'data-testid': `line-${l.multipv}` },
        h('span.score', l.score), ' ', h('span.pv', { onclick: () => ctrl.play(l.first) }, l.pv)));
    }
  }

  function drawReview(v) {
    clear(reviewBox);
    const r = v.review;
    if (!r || v.locked) return;
    reviewBox.append(h('h3', tr('review')));
    if (!r.data) {
      if (r.reviewing) reviewBox.append(h('p', { 'data-testid': 'reviewing' }, tr('reviewing')));
      else {
        reviewBox.append(h('p', tr('noReview')), h('button.secondary', { type: 'button',
          'data-testid': 'request-review', onclick: () => ctrl.requestReview() }, tr('analyse')));
      }
      return;
    }
    const link = `${location.origin}/#/analysis?game=${encodeURIComponent(v.gameId)}`;
    const side = color => h('div.acc', { 'data-testid': `accuracy-${color}` },
      h('strong', `${r[color].name}: `), r[color].accuracy, h('span.counts', ` · ${r[color].counts}`));
    reviewBox.append(h('p.review-by', { 'data-testid': 'review-engine' }, r.engine),
      h('div.actions',
        h('button.secondary', { type: 'button', 'data-testid': 'share-review', onclick: async () => {
          if (await copyText(link)) message.textContent = tr('copied');
        } }, tr('share')),
        h('a.button.secondary', { href: `/api/games/${encodeURIComponent(v.gameId)}/review.pgn?lang=${lang()}`,
          download: `randomchess-${v.gameId}-review.pgn`, 'data-testid': 'review-pgn' }, tr('pgn'))),
      renderChart(r.data, { current: v.board ? v.board.ply : 0, onSelect: ply => ctrl.goToPly(ply) }),
      side('white'), side('black'),
      h('ul.marks', { 'data-testid': 'marks' }, r.marks.map(m =>
        h('li', { 'data-testid': `mark-${m.ply}`, onclick: () => ctrl.goToPly(m.ply) }, m.text, m.best))));
  }

  function redraw() {
    const v = ctrl.view();
    if (v.engines.join() !== shownEngines) {
      shownEngines = v.engines.join();
      clear(engineSel).append(...v.engines.map(e => h('option', { value: e, selected: e === v.engine }, e)));
    }
    if (v.variant !== shownVariant) {
      shownVariant = v.variant;
      for (const opt of variantSel.options) opt.selected = opt.value === v.variant;
    }
    drawBoard(v.board);
    drawHands(v);
    clear(treeEl);
    if (v.tree.length) treeEl.append(line(v.tree, 0));
    const cur = treeEl.querySelector('.current');
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
    drawEngine(v);
    drawReview(v);
    if (v.board) explorer.update(v.variant, v.startFen, v.board.fen);
    message.textContent = v.message;
  }

  function onKey(ev) {
    if (ev.target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(ev.target.tagName)) return;
    const name = KEYS[ev.key];
    if (name && ctrl.key(name)) ev.preventDefault();
  }
  document.addEventListener('keydown', onKey);

  return {
    boardEl,
    /** The controller's questions: the gate's picker over the square the move leaves, as on
     * the game page (game/promotion.js). */
    ask(kind, data) {
      if (kind !== 'gate' || !board) return Promise.resolve(null);
      const { width, height } = board.ground.state.dimensions;
      return pickGate(boardWrap, { ...data, width, height, orientation: board.ground.state.orientation });
    },
    attach(b) {
      board = b;
      redraw();
    },
    redraw,
    destroy() {
      document.removeEventListener('keydown', onKey);
      if (board) board.destroy();
    },
  };
}
