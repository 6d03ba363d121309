// The puzzle page (#/puzzles[?variant=mrc&theme=fork&id=<id>], issue 33): a position where
// the side to move has one winning line. The solver moves on the game page's board
// (game/board.js); every move goes to POST /api/puzzles/<id>/attempt, which judges it as the
// game page's moves are judged (an illegal one is refused with the same message) and answers
// with the opponent's reply. Hints, retry, the solution played out move by move, the themes
// and the account's puzzle rating (Glicko-2) beside the board.

import { h, clear } from './dom.js';
import { localizeLetters, t } from './i18n.js';
import { request } from './api.js';
import { createBoard } from './game/board.js';
import { errorMessage } from './game/messages.js';
import { classify, parseUci, piecesOf } from './moves.js';
import { castlingOf, promotionOrder, variantInfo, variantName } from './variants.js';

const VARIANTS = ['chess960', 'mrc'];
const THEMES = ['mate', 'mateIn1', 'mateIn2', 'mateIn3', 'mateIn4', 'mateIn5', 'advantage',
  'fork', 'pin', 'castling', 'adjustment', 'promotion', 'primeMinisterPromotion',
  'hangingPiece', 'oneMove', 'short', 'long'];
const STEP_MS = 600; // between the moves of a solution played out

const P = id => `/api/puzzles/${encodeURIComponent(id)}`;
const API = {
  next: q => request('GET', `/api/puzzles/next?${q}`),
  get: id => request('GET', P(id)),
  attempt: (id, body) => request('POST', `${P(id)}/attempt`, body),
  hint: (id, moves) => request('GET', `${P(id)}/hint?${moves.map(m => `moves=${encodeURIComponent(m)}`).join('&')}`),
  position: body => request('POST', '/api/analysis/position', body),
};

export function renderPuzzles(root, go, query) {
  const s = {
    variant: VARIANTS.includes(query.get('variant')) ? query.get('variant') : 'chess960',
    theme: THEMES.includes(query.get('theme')) ? query.get('theme') : '',
    puzzle: null, line: [], played: [], info: null, kinds: null,
    status: 'loading', // loading | play | wrong | solved | shown
    result: null, seen: [], timer: null, destroyed: false,
  };
  const boardEl = h('div.board', { 'data-testid': 'board' });
  const boardWrap = h('div.board-wrap', boardEl);
  const message = h('p.puzzle-message', { role: 'status', 'data-testid': 'puzzle-message' });
  const error = h('p.error', { role: 'alert', 'data-testid': 'message' });
  const themesEl = h('ul.puzzle-themes', { 'data-testid': 'puzzle-themes' });
  const infoEl = h('p.puzzle-info', { 'data-testid': 'puzzle-info' });
  const ratingEl = h('p.puzzle-rating', { 'data-testid': 'puzzle-rating' });
  const solutionEl = h('p.puzzle-solution', { 'data-testid': 'puzzle-solution' });
  const promoEl = h('div.puzzle-promotion', { 'data-testid': 'puzzle-promotion', hidden: true });
  const btn = (id, label, fn, cls = 'button.secondary') =>
    h(cls, { type: 'button', 'data-testid': id, onclick: fn }, label);
  const hintBtn = btn('puzzle-hint', t('puzzle.hint'), () => hint());
  const retryBtn = btn('puzzle-retry', t('puzzle.retry'), () => retry());
  const solutionBtn = btn('puzzle-show', t('puzzle.showSolution'), () => showSolution());
  const nextBtn = btn('puzzle-next', t('puzzle.next'), () => next(), 'button.primary');
  const variantSel = h('select', { 'data-testid': 'puzzle-variant', 'aria-label': t('variant'),
    onchange: () => go(`/puzzles?variant=${variantSel.value}${s.theme ? `&theme=${s.theme}` : ''}`) },
  VARIANTS.map(v => h('option', { value: v, selected: v === s.variant }, variantName(v))));
  const themeSel = h('select', { 'data-testid': 'puzzle-theme-filter', 'aria-label': t('puzzle.theme'),
    onchange: () => go(`/puzzles?variant=${s.variant}${themeSel.value ? `&theme=${themeSel.value}` : ''}`) },
  h('option', { value: '' }, t('puzzle.anyTheme')),
  THEMES.map(k => h('option', { value: k, selected: k === s.theme }, t(`theme.${k}`))));

  root.append(h('div.game.puzzle', { 'data-testid': 'puzzle-page' },
    h('div.board-col', boardWrap, promoEl),
    h('aside.side',
      h('h2', t('puzzle.title')),
      h('div.row', variantSel, themeSel),
      infoEl, message, error,
      h('div.actions', hintBtn, retryBtn, solutionBtn, nextBtn),
      h('h3', t('puzzle.themes')), themesEl,
      solutionEl, ratingEl)));

  const board = createBoard(boardEl, { onMove: (orig, dest) => move(orig, dest), dims: () => dims() });
  const meta = () => variantInfo(s.variant);
  function dims() {
    const m = meta();
    return m ? { width: m.files, height: m.ranks } : { width: 8, height: 8 };
  }
  const solverColour = () => (s.puzzle ? s.puzzle.turn : 'white');

  // ------------------------------------------------------------------ drawing
  function draw() {
    if (s.destroyed) return;
    const { width, height } = dims();
    boardWrap.style.setProperty('--files', String(width));
    boardWrap.style.setProperty('--ranks', String(height));
    const orientation = solverColour();
    boardEl.classList.toggle('dark-corner', (orientation === 'white' ? height : width) % 2 === 1);
    const info = s.info;
    if (info) {
      Object.assign(boardEl.dataset, { fen: info.fen, ply: String(s.line.length), status: s.status });
      const lastUci = s.line.length ? s.line[s.line.length - 1] : s.puzzle && s.puzzle.last_move;
      const last = lastUci && parseUci(lastUci);
      const { ground } = board;
      const resized = ground.state.dimensions.width !== width || ground.state.dimensions.height !== height;
      const playing = s.status === 'play' && info.to_move === solverColour();
      ground.set({
        dimensions: { width, height }, fen: info.fen.split(' ')[0], orientation,
        turnColor: info.to_move, lastMove: last ? [last.from, last.to] : undefined,
        check: info.check ? info.to_move : false,
        movable: { color: playing ? info.to_move : undefined, dests: playing ? s.kinds.dests : new Map() },
      });
      if (resized) ground.redrawAll();
    }
    const p = s.puzzle;
    if (p) {
      infoEl.textContent = t('puzzle.info', { variant: variantName(p.variant), rating: p.rating, n: p.plays });
      clear(themesEl);
      const over = s.status === 'solved' || s.status === 'shown';
      const shown = over ? p.themes : p.themes.filter(k => !k.startsWith('mate') && k !== 'advantage');
      for (const k of shown) themesEl.append(h('li', { 'data-theme': k }, t(`theme.${k}`)));
      if (!over && shown.length < p.themes.length) themesEl.append(h('li.hidden-themes', t('puzzle.moreThemes')));
      const mine = (s.result && s.result.my_rating) || p.my_rating;
      ratingEl.textContent = mine
        ? t('puzzle.myRating', { rating: mine.rating, provisional: mine.provisional ? '?' : '' }) +
          (s.result && s.result.rated && s.result.rating_diff !== null
            ? ` (${s.result.rating_diff >= 0 ? '+' : ''}${s.result.rating_diff})` : '')
        : t('puzzle.signIn');
    }
    message.textContent = {
      loading: t('puzzle.loading'),
      play: s.played.length ? t('puzzle.keepGoing') : t(`puzzle.toMove.${solverColour()}`),
      wrong: t('puzzle.wrong'),
      solved: t('puzzle.solved'),
      shown: t('puzzle.shown'),
    }[s.status];
    message.dataset.status = s.status;
    hintBtn.disabled = s.status !== 'play';
    retryBtn.disabled = !(s.status === 'wrong' || s.status === 'shown' || s.status === 'solved');
    solutionBtn.disabled = !(s.status === 'play' || s.status === 'wrong');
    clear(solutionEl);
    if (s.result && s.result.solution_san && (s.status === 'solved' || s.status === 'shown')) {
      // Numbered from the puzzle's FEN: "31. Qc1#", "23… Rd1+ 24. Kxd1 Qd2#".
      const fields = s.puzzle.fen.split(' ');
      let number = Number(fields[5]) || 1;
      let black = fields[1] === 'b';
      s.result.solution_san.forEach((m, i) => {
        if (!black) solutionEl.append(`${number}. `);
        else if (i === 0) solutionEl.append(`${number}… `);
        solutionEl.append(h('span.san', { 'data-ply': String(i) }, localizeLetters(m)), ' ');
        if (black) number += 1;
        black = !black;
      });
    }
  }

  // ------------------------------------------------------------------ the server
  async function refresh() {
    s.info = await API.position({ variant: s.variant, fen: s.puzzle.fen, moves: s.line });
    const m = meta();
    s.kinds = classify(s.info.legal_moves, piecesOf(s.info.fen), dims().width, m ? castlingOf(m) : undefined);
    draw();
  }

  async function load(id) {
    stopTimer();
    s.status = 'loading';
    s.result = null;
    error.textContent = '';
    draw();
    try {
      if (id) s.puzzle = await API.get(id);
      else {
        const q = new URLSearchParams({ variant: s.variant });
        if (s.theme) q.set('theme', s.theme);
        for (const x of s.seen.slice(-40)) q.append('exclude', x);
        s.puzzle = await API.next(q.toString());
      }
      s.variant = s.puzzle.variant;
      variantSel.value = s.variant;
      s.seen.push(s.puzzle.id);
      s.line = [];
      s.played = [];
      s.status = 'play';
      await refresh();
    } catch (e) {
      error.textContent = errorMessage(e, t);
      draw();
    }
  }

  function next() {
    load(null);
  }

  function retry() {
    stopTimer();
    s.line = [];
    s.played = [];
    s.result = null;
    s.status = 'play';
    error.textContent = '';
    board.ground.setAutoShapes([]);
    refresh().catch(e => { error.textContent = errorMessage(e, t); });
  }

  // ------------------------------------------------------------------ moves
  function move(orig, dest) {
    const k = s.kinds;
    if (!k) return;
    const promos = k.promotions.get(orig + dest);
    if (promos) {
      askPromotion(promos, letter => play(orig + dest + letter));
      return;
    }
    const adj = k.adjustments.find(a => a.bishop === orig && a.partner === dest);
    if (adj) {
      play(adj.uci);
      return;
    }
    const castle = k.castles.find(c => c.king === orig && (c.rook === dest ||
      (c.viaKingSquare && c.kingTo === dest) || c.uci === orig + dest));
    play(castle ? castle.uci : orig + dest);
  }

  function askPromotion(letters, done) {
    clear(promoEl);
    const m = meta();
    const order = m ? promotionOrder(m).filter(p => letters.includes(p)) : letters;
    for (const letter of order.length ? order : letters) {
      promoEl.append(h('button.secondary', { type: 'button', 'data-testid': `promote-${letter}`,
        onclick: () => { promoEl.hidden = true; done(letter); } }, t(`piece.${letter}`)));
    }
    promoEl.hidden = false;
  }

  async function play(uci) {
    if (s.status !== 'play') return;
    error.textContent = '';
    board.ground.setAutoShapes([]);
    const moves = [...s.played, uci];
    let a;
    try {
      a = await API.attempt(s.puzzle.id, { moves });
    } catch (e) {
      // Refused as on the game page: the board goes back to the position before the move.
      error.textContent = errorMessage(e, t);
      draw();
      return;
    }
    s.played = moves;
    s.line = [...s.line, uci];
    if (a.finished) {
      s.result = a;
      s.status = a.solved ? 'solved' : 'wrong';
    } else {
      s.status = 'play';
      s.line = [...s.line, a.reply];
    }
    await refresh();
  }

  async function hint() {
    try {
      const { square } = await API.hint(s.puzzle.id, s.played);
      board.ground.setAutoShapes([{ orig: square, brush: 'green' }]);
      message.textContent = t('puzzle.hintText', { square });
    } catch (e) {
      error.textContent = errorMessage(e, t);
    }
  }

  /** The whole solution, played out move by move from the puzzle's start. */
  async function showSolution() {
    try {
      if (!s.result || !s.result.solution) {
        s.result = await API.attempt(s.puzzle.id, { moves: s.status === 'play' ? s.played : [], give_up: true });
      }
    } catch (e) {
      error.textContent = errorMessage(e, t);
      return;
    }
    s.status = 'shown';
    s.line = [];
    error.textContent = '';
    await refresh();
    const solution = s.result.solution;
    const step = async () => {
      if (s.destroyed || s.status !== 'shown' || s.line.length >= solution.length) return;
      s.line = solution.slice(0, s.line.length + 1);
      await refresh();
      s.timer = setTimeout(step, STEP_MS);
    };
    s.timer = setTimeout(step, STEP_MS);
  }

  function stopTimer() {
    if (s.timer) clearTimeout(s.timer);
    s.timer = null;
  }

  // For the browser tests (tests/test_puzzles_browser.py).
  window.rcPuzzle = {
    get puzzle() { return s.puzzle; }, get status() { return s.status; },
    get line() { return s.line; }, ground: board.ground,
  };
  load(query.get('id'));
  return {
    destroy() {
      s.destroyed = true;
      stopTimer();
      board.destroy();
    },
  };
}
