// Game page: the board (chessgroundx), moves from the server's legal_moves, castling by king
// onto rook with a preview, the Bishop Adjustment with its explanation, promotion chooser,
// SAN input, clocks, draw/resign, invite link and live updates.

import { Chessground } from 'chessgroundx';
import {
  ApiError, follow, getGame, loadSeat, pgnUrl, postAction, postMove, saveSeat,
} from './api.js';
import { h, clear, copyText, modal } from './dom.js';
import { t, localizeLetters, delocalizeSan } from './i18n.js';
import { classify, dimensionsOf, parseUci, piecesOf, previewPieces } from './moves.js';

const VARIANT_NAMES = { chess960: 'variant.chess960', mrc: 'variant.mrc', modern: 'variant.modern',
  chess: 'variant.chess' };
const PROMO_ORDER = ['q', 'm', 'r', 'b', 'n', 'k'];

const cgRole = letter => `${letter}-piece`;
const cgPieces = pieces => {
  const out = new Map();
  for (const [sq, p] of pieces) out.set(sq, { role: cgRole(p.role), color: p.color });
  return out;
};

function colourName(c) {
  return t(`colour.${c}`);
}

/** "1-0" / "0-1" / "1/2-1/2" and the server's termination as a sentence. */
export function resultText(state) {
  const r = state.result;
  let head = '';
  if (r === '1-0' || state.winner === 'white') head = t('result.white');
  else if (r === '0-1' || state.winner === 'black') head = t('result.black');
  else if (r === '1/2-1/2' || r === '½-½' || state.winner === null) head = t('result.draw');
  const term = state.termination;
  if (!term) return head;
  const key = `term.${String(term).toLowerCase().replace(/[\s-]+/g, '_')}`;
  const why = t(key) === key ? String(term) : t(key);
  return head ? `${head} — ${why}` : why;
}

function isOver(state) {
  return !!state.result && state.result !== '*' || ['finished', 'over', 'ended', 'aborted']
    .includes(state.status);
}

/** Milliseconds left for `color` (the server's clocks are {white, black} in ms). */
function clockMillis(clocks, color) {
  if (!clocks) return null;
  const v = clocks[color];
  return typeof v === 'number' ? v : null;
}

function formatClock(ms) {
  if (ms === null || ms === undefined) return '';
  const total = Math.max(0, ms);
  const s = Math.floor(total / 1000);
  const m = Math.floor(s / 60);
  const rest = String(s % 60).padStart(2, '0');
  if (total < 10_000) return `${m}:${rest}.${Math.floor((total % 1000) / 100)}`;
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

function drawOfferOf(state) {
  const d = state.draw_offer;
  return d === 'white' || d === 'black' ? d : null;
}

// The draws the side to move could claim now (FIDE 9.2), as listed by the server.
function claimsOf(state) {
  return Array.isArray(state.claimable) ? state.claimable : [];
}

export function renderGame(root, id, go, query) {
  let state = null;
  let seat = loadSeat(id);
  let orientation = seat && seat.color === 'black' ? 'black' : 'white';
  let kinds = { dests: new Map(), castles: [], adjustments: [], promotions: new Map() };
  let busy = false; // a move or a confirmation is in progress
  let clockBase = null; // {at: performance.now(), white, black}
  let link = null;

  const boardEl = h('div.board', { 'data-testid': 'board' });
  const boardWrap = h('div.board-wrap', boardEl);
  const topPlayer = h('div.player.top');
  const bottomPlayer = h('div.player.bottom');
  const banner = h('div.banner', { 'data-testid': 'result', role: 'status', hidden: true });
  const status = h('p.status', { 'data-testid': 'status', 'aria-live': 'polite' });
  const seatLine = h('p.seat', { 'data-testid': 'seat' });
  const invite = h('div.invite', { hidden: true });
  const castleBar = h('div.controls.castle', { 'data-testid': 'castle-controls' });
  const adjustBar = h('div.controls.adjust', { 'data-testid': 'adjust-controls' });
  const moveList = h('ol.movelist', { 'data-testid': 'moves', 'aria-label': t('moves') });
  const message = h('p.message', { role: 'alert', 'data-testid': 'message' });
  const sanIn = h('input', {
    type: 'text', 'aria-label': t('typeMove'), placeholder: t('typeMove'), autocomplete: 'off',
    autocapitalize: 'off', spellcheck: 'false', 'data-testid': 'san-input',
  });
  const sanForm = h('form.san', { onsubmit: ev => { ev.preventDefault(); sendText(); } },
    sanIn, h('button.secondary', { type: 'submit' }, t('send')));
  const btn = (key, testid, onclick) =>
    h('button.secondary', { type: 'button', 'data-testid': testid, onclick }, t(key));
  const offerBtn = btn('offerDraw', 'draw-offer', () => action('draw-offer'));
  const acceptBtn = btn('acceptDraw', 'draw-accept', () => action('draw-accept'));
  const claimBtn = btn('claimDraw', 'draw-claim', () => action('draw-claim'));
  const resignBtn = btn('resign', 'resign', async () => {
    const ok = await modal(t('resign'), h('p', t('confirmResign')), [
      { label: t('cancel'), value: false, testid: 'confirm-no' },
      { label: t('resign'), value: true, primary: true, testid: 'confirm-yes' },
    ]);
    if (ok) action('resign');
  });
  const flipBtn = btn('flip', 'flip', () => {
    orientation = orientation === 'white' ? 'black' : 'white';
    ground.set({ orientation });
    renderPlayers();
  });
  const fenBtn = btn('copyFen', 'copy-fen', async () => {
    if (state && await copyText(state.fen)) flash(t('copied'));
  });
  const pgnLink = h('a.button.secondary', { href: pgnUrl(id), download: `randomchess-${id}.pgn`,
    'data-testid': 'pgn' }, t('pgn'));

  const page = h('div.game',
    h('div.board-col', topPlayer, boardWrap, bottomPlayer),
    h('aside.side', banner, seatLine, status, invite, castleBar, adjustBar, moveList, sanForm,
      h('div.actions', offerBtn, acceptBtn, claimBtn, resignBtn),
      h('div.actions', flipBtn, fenBtn, pgnLink),
      message));
  root.append(page);

  const ground = Chessground(boardEl, {
    orientation,
    autoCastle: false, // its helper assumes 8 ranks and e-file kings; we redraw from the server
    coordinates: true,
    animation: { enabled: true, duration: 150 },
    highlight: { lastMove: true, check: true },
    movable: { free: false, color: undefined, showDests: true, events: { after: onUserMove } },
    premovable: { enabled: false },
    draggable: { enabled: true, showGhost: true },
    drawable: { enabled: true },
  });
  window.rcGame = { get state() { return state; }, ground };

  function flash(text, isError = false) {
    message.textContent = text;
    message.classList.toggle('error', isError);
    if (!isError) setTimeout(() => message.textContent === text && (message.textContent = ''), 2500);
  }

  const hotseat = () => (state && state.opponent === 'hotseat') || (seat && seat.color === 'both');
  const myTurn = () => {
    if (!state || !seat || !seat.token || isOver(state)) return false;
    return hotseat() || state.to_move === seat.color;
  };

  function dims() {
    return dimensionsOf(state ? state.fen : '8/8/8/8/8/8/8/8');
  }

  function render() {
    if (!state) return;
    const { width, height } = dims();
    boardEl.classList.toggle('board9', width === 9);
    boardEl.dataset.fen = state.fen;
    boardEl.dataset.ply = String((state.moves || []).length);
    const pieces = piecesOf(state.fen);
    kinds = myTurn() ? classify(state.legal_moves || [], pieces, width) : classify([], pieces, width);
    const last = (state.moves || []).at(-1);
    const lastMv = last && parseUci(last);
    const lastSan = (state.san || []).at(-1) || '';
    const canMove = myTurn() && !busy;
    const resized = ground.state.dimensions.width !== width || ground.state.dimensions.height !== height;
    ground.set({
      dimensions: { width, height },
      fen: state.fen.split(' ')[0],
      orientation,
      turnColor: state.to_move === 'black' ? 'black' : 'white',
      lastMove: lastMv ? [lastMv.from, lastMv.to] : undefined,
      check: state.check ?? /[+#]$/.test(lastSan) ? (state.to_move === 'black' ? 'black' : 'white') : false,
      viewOnly: !seat || !seat.token,
      movable: {
        color: canMove ? (state.to_move === 'black' ? 'black' : 'white') : undefined,
        dests: canMove ? kinds.dests : new Map(),
      },
    });
    if (resized) ground.redrawAll(); // rebuilds the board's DOM: only when its size changes
    renderSide();
  }

  function renderPlayers() {
    const bottom = orientation;
    const top = bottom === 'white' ? 'black' : 'white';
    for (const [el, color] of [[topPlayer, top], [bottomPlayer, bottom]]) {
      clear(el);
      const active = state && !isOver(state) && state.to_move === color;
      el.classList.toggle('active', !!active);
      const clockEl = h('span.clock', { 'data-testid': `clock-${color}`, 'data-color': color });
      el.append(h(`span.dot.${color}`), h('span.name', colourName(color)), clockEl);
    }
    tickClocks();
  }

  function tickClocks() {
    if (!state || !clockBase) return;
    for (const el of page.querySelectorAll('.clock')) {
      const color = el.dataset.color;
      let ms = clockBase[color];
      const running = !isOver(state) && state.clocks && state.clocks.running === color;
      if (running && ms !== null) ms -= performance.now() - clockBase.at;
      el.textContent = formatClock(ms);
      el.classList.toggle('low', ms !== null && ms < 20_000);
    }
  }
  const ticker = setInterval(tickClocks, 200);

  function variantName() {
    return t(VARIANT_NAMES[state.variant] || '') || state.variant;
  }

  function renderSide() {
    // seat and status
    if (!seat || !seat.token) seatLine.textContent = t('spectator');
    else if (hotseat()) seatLine.textContent = t('hotseat');
    else seatLine.textContent = t('you', { colour: colourName(seat.color) });
    seatLine.append(' · ', variantName(),
      state.number !== undefined && state.number !== null ? ` #${state.number}` : '');
    const over = isOver(state);
    banner.hidden = !over;
    banner.textContent = over ? resultText(state) : '';
    const offer = drawOfferOf(state);
    if (over) status.textContent = '';
    else if (state.players && state.players[state.to_move] === 'computer') {
      status.textContent = t('thinking');
    } else if (state.status === 'waiting' && state.invite_open) {
      status.textContent = t('waiting');
    } else {
      status.textContent = t('toMove', { colour: colourName(state.to_move) }) +
        (offer ? ` ${t('drawOffered', { colour: colourName(offer) })}` : '');
    }
    // invite link, shown to the inviter until the friend has made a move
    const inviteUrl = seat && seat.invite_url;
    invite.hidden = !inviteUrl || over || state.invite_open === false;
    if (inviteUrl && !invite.hidden && !invite.firstChild) {
      const abs = new URL(inviteUrl, location.origin).href;
      const inp = h('input', { type: 'text', readonly: true, value: abs, 'data-testid': 'invite-url' });
      invite.append(h('h3', t('inviteTitle')),
        h('p', t('inviteHelp', { colour: colourName(seat.color === 'white' ? 'black' : 'white') })),
        h('div.copyrow', inp, h('button.secondary', { type: 'button', onclick: async () => {
          if (await copyText(abs, inp)) flash(t('copied'));
        } }, t('copy'))));
    }
    // castle and adjustment controls
    clear(castleBar);
    clear(adjustBar);
    const { width } = dims();
    const playing = seat && seat.token && !over;
    if (playing) {
      const sans = width === 9 ? { a: 'O-O-Oc', h: 'O-O-Og' } : { a: 'O-O-O', h: 'O-O' };
      castleBar.append(h('span.label', t('castle')));
      for (const side of ['h', 'a']) {
        const c = kinds.castles.find(x => x.side === side);
        castleBar.append(h('button.secondary', {
          type: 'button', disabled: !c || busy, 'data-testid': `castle-${sans[side]}`,
          title: c ? t('castlePreview', { san: sans[side], king: c.kingTo, rook: c.rookTo }) : '',
          onclick: () => c && confirmCastle(c),
        }, sans[side]));
      }
      if (kinds.adjustments.length) {
        adjustBar.append(h('span.label', t('adjust')));
        for (const a of kinds.adjustments) {
          adjustBar.append(h('button.secondary', {
            type: 'button', disabled: busy, 'data-testid': `adjust-${a.bishop}${a.partner}`,
            onclick: () => confirmAdjust(a),
          }, `${localizeLetters('B')}${a.bishop} ⇄ ${localizeLetters(a.role.toUpperCase())}${a.partner}`));
        }
      }
    }
    // move list
    clear(moveList);
    const san = state.san || [];
    for (let i = 0; i < san.length; i += 2) {
      moveList.append(h('li',
        h('span.mv', { 'data-ply': String(i) }, localizeLetters(san[i])),
        san[i + 1] !== undefined ? h('span.mv', { 'data-ply': String(i + 1) }, localizeLetters(san[i + 1])) : ''));
    }
    moveList.scrollTop = moveList.scrollHeight;
    // actions
    const mine = playing && !hotseat();
    sanForm.hidden = !playing;
    offerBtn.hidden = !mine || state.opponent === 'computer';
    offerBtn.disabled = !!offer;
    acceptBtn.hidden = !(playing && offer && (hotseat() || offer !== seat.color));
    claimBtn.hidden = !playing;
    // Enabled exactly when the server says the side to move may claim, and it is our move.
    claimBtn.disabled = !(myTurn() && claimsOf(state).length > 0);
    claimBtn.title = claimsOf(state).join(', ');
    resignBtn.hidden = !playing;
    renderPlayers();
  }

  function setState(s) {
    // An older snapshot (a slow resync, a late reply) must not undo a newer push.
    if (state && typeof s.version === 'number' && typeof state.version === 'number' &&
        s.version < state.version) return;
    state = s;
    const w = clockMillis(s.clocks, 'white');
    const b = clockMillis(s.clocks, 'black');
    clockBase = w === null && b === null ? null : { at: performance.now(), white: w, black: b };
    if (!clockBase) for (const el of page.querySelectorAll('.clock')) el.textContent = '';
    render();
  }

  async function send(uci) {
    busy = true;
    try {
      const s = await postMove(id, uci, seat.token);
      busy = false;
      message.textContent = '';
      setState(s);
      return true;
    } catch (e) {
      busy = false;
      flash(e instanceof ApiError && e.status === 409 ? t('illegal', { reason: e.message })
        : t('error', { reason: e.message }), true);
      render();
      return false;
    }
  }

  async function action(name) {
    try {
      const s = await postAction(id, name, seat.token);
      if (s && s.fen) setState(s);
      else setState(await getGame(id));
    } catch (e) {
      flash(t('error', { reason: e.message }), true);
    }
  }

  async function sendText() {
    const text = sanIn.value.trim();
    if (!text || !myTurn()) return;
    if (await send(delocalizeSan(text))) sanIn.value = '';
  }

  function showPreview(kind, move) {
    const preview = previewPieces(piecesOf(state.fen), kind, move);
    ground.setPieces(new Map([...ground.state.boardState.pieces.keys()].map(k => [k, undefined])));
    ground.setPieces(cgPieces(preview));
    const marks = kind === 'castle'
      ? [{ orig: move.kingTo, brush: 'green' }, { orig: move.rookTo, brush: 'green' }]
      : [{ orig: move.bishop, brush: 'blue' }, { orig: move.partner, brush: 'blue' }];
    ground.setAutoShapes(marks);
  }

  async function confirmMove(kind, move, title, body) {
    busy = true;
    showPreview(kind, move);
    const ok = await modal(title, body, [
      { label: t('cancel'), value: false, testid: 'confirm-no' },
      { label: t('confirm'), value: true, primary: true, testid: 'confirm-yes' },
    ]);
    ground.setAutoShapes([]);
    busy = false;
    if (ok) await send(move.uci);
    else render();
  }

  function confirmCastle(c) {
    const width = dims().width;
    const san = width === 9 ? (c.side === 'a' ? 'O-O-Oc' : 'O-O-Og') : (c.side === 'a' ? 'O-O-O' : 'O-O');
    const body = h('div',
      h('p.preview', { 'data-testid': 'castle-preview' },
        t('castlePreview', { san, king: c.kingTo, rook: c.rookTo })),
      h('p.why', t('castleWhy', { variant: variantName() })));
    return confirmMove('castle', c, `${t('castle')} ${san}`, body);
  }

  function confirmAdjust(a) {
    const partner = t(`piece.${a.role}`).toLowerCase();
    const san = `${localizeLetters('B')}=${localizeLetters(a.role.toUpperCase())}`;
    const body = h('div',
      h('p.preview', { 'data-testid': 'adjust-preview' },
        t('adjustPreview', { san, from: a.bishop, to: a.partner, partner })),
      h('p.why', t('adjustWhy')));
    return confirmMove('adjust', a, t('adjust'), body);
  }

  async function choosePromotion(from, to, options) {
    const sorted = PROMO_ORDER.filter(p => options.includes(p));
    const color = state.to_move === 'black' ? 'black' : 'white';
    const choice = await modal(t('promoteTo'), h('div'), sorted.map(p => ({
      value: p, testid: `promo-${p}`,
      content: [h(`span.pc.${color}.${p}-piece`), h('span', t(`piece.${p}`))],
    })));
    if (choice) await send(from + to + choice);
    else render();
  }

  function onUserMove(orig, dest) {
    if (!state) return;
    const promos = kinds.promotions.get(orig + dest);
    if (promos) return choosePromotion(orig, dest, promos);
    const castle = kinds.castles.find(c => c.king === orig && (c.rook === dest ||
      (c.viaKingSquare && c.kingTo === dest) || c.uci === orig + dest));
    if (castle) return confirmCastle(castle);
    const adj = kinds.adjustments.find(a => a.bishop === orig && a.partner === dest);
    if (adj) return confirmAdjust(adj);
    return send(orig + dest);
  }

  // ---------------------------------------------------------------- start-up
  const live = follow(id, s => setState(s), st => {
    if (st === 'closed') flash(t('disconnected'), true);
    else if (message.textContent === t('disconnected')) message.textContent = '';
  });

  const pending = sessionStorage.getItem('rc-flash');
  if (pending) {
    sessionStorage.removeItem('rc-flash');
    flash(pending, true);
  }
  (async () => {
    try {
      setState(await getGame(id));
    } catch (e) {
      flash(e.status === 404 ? t('notFound') : t('error', { reason: e.message }), true);
    }
  })();

  link = {
    destroy() {
      clearInterval(ticker);
      live.close();
      ground.destroy();
    },
  };
  return link;
}
