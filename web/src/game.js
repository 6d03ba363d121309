// Game page (issue 11): puts together the modules in game/ — the state store (one source of
// truth, version-ordered), the board (chessgroundx with fresh bounds), the move list with
// navigation, the clocks, the controls and the sounds — around the server's API.

import {
  follow, getGame, getRatings, getRematch, loadSeat, pgnUrl, postAction, postMove, postRematch, saveSeat,
} from './api.js';
import { h, clear, copyText, modal } from './dom.js';
import { lang, t, localizeLetters, delocalizeSan } from './i18n.js';
import { classify, dimensionsOf, parseUci, piecesOf, positionAt } from './moves.js';
import { createStore, soundFor } from './game/state.js';
import { keyToNav, navigate, shownPly } from './game/nav.js';
import { errorKey } from './game/messages.js';
import { clockLeft, formatClock } from './game/clock.js';
import { createSounds } from './game/sounds.js';
import { createBoard } from './game/board.js';
import { createMoveList } from './game/movelist.js';
import { createControls } from './game/controls.js';
import { statsHref } from './setupstats.js';
import { claimSeat, currentUser } from './account.js';
import { isNumbered } from './setups.js';
import { castlingOf, promotionOrder, variantInfo } from './variants.js';

const LOW_TIME_MS = 10_000;

const colourName = c => t(`colour.${c}`);
/** The variant's name in the current language; the server's PGN name for one without a text. */
export function variantName(key) {
  const text = t(`variant.${key}`);
  if (text !== `variant.${key}`) return text;
  const info = variantInfo(key);
  return info ? info.name : key;
}

/** "White wins — checkmate", "Game aborted". */
export function resultText(state) {
  const r = state.result;
  let head = '';
  if (r === '1-0' || state.winner === 'white') head = t('result.white');
  else if (r === '0-1' || state.winner === 'black') head = t('result.black');
  else if (r === '1/2-1/2') head = t('result.draw');
  const term = state.termination;
  if (!term) return head;
  const key = `term.${String(term).toLowerCase().replace(/[\s-]+/g, '_')}`;
  const why = t(key) === key ? '' : t(key);
  return head && why ? `${head} — ${why}` : head || why;
}

const isOver = state => state.status === 'ended' || (!!state.result && state.result !== '*');

/** The "No such game" page (defect 3): no board, no retries, a way home. */
export function renderNotFound(root, { used = false, id = null } = {}) {
  clear(root);
  root.append(h('section.notfound', { 'data-testid': 'not-found' },
    h('h1', t(used ? 'err.inviteUsed' : 'notFoundTitle')),
    h('p', t(used ? 'inviteUsedHelp' : 'notFoundHelp')),
    h('p.actions',
      used && id ? h('a.button.secondary', { href: `/#/game/${encodeURIComponent(id)}`,
        'data-testid': 'watch-link' }, t('watchGame')) : '',
      h('a.button.primary', { href: '/#/', 'data-testid': 'home-link' }, t('goHome')))));
}

export function renderGame(root, id, go) {
  let seat = loadSeat(id);
  let orientation = seat && seat.color === 'black' ? 'black' : 'white';
  let kinds = { dests: new Map(), castles: [], adjustments: [], promotions: new Map() };
  let pending = null; // {ply}: a move sent, not yet answered
  let asking = false; // a dialog (promotion, adjustment) is open
  let connected = true;
  let cursor = null; // move-list navigation: plies shown, null = live
  let clockBase = null; // {at: performance.now(), white, black}
  let rematchOffer = null; // {by, id} pushed for the old game
  let lowWarned = false;
  let previous = null; // the state last drawn, for sounds and announcements
  let gone = false;
  const sounds = createSounds();

  const store = createStore((s, accepted) => {
    if (accepted) received(s);
    render();
  });
  const current = () => store.state;

  // ------------------------------------------------------------------ layout
  const boardEl = h('div.board', { 'data-testid': 'board' });
  const boardWrap = h('div.board-wrap', boardEl);
  const topPlayer = h('div.player.top');
  const bottomPlayer = h('div.player.bottom');
  const banner = h('div.banner', { 'data-testid': 'result', hidden: true });
  // After a rated game: each side's rating change (GET /api/games/{id}/ratings, issue 18).
  const ratingsBox = h('div.rating-changes', { 'data-testid': 'rating-changes', hidden: true });
  const status = h('p.status', { 'data-testid': 'status' });
  const seatLine = h('p.seat', { 'data-testid': 'seat' });
  const connection = h('p.connection', { 'data-testid': 'connection', role: 'status', hidden: true },
    t('disconnected'));
  const room = h('div.invite', { 'data-testid': 'waiting-room', hidden: true });
  const hint = h('div.hint-box', { 'data-testid': 'hint', hidden: true });
  const castleBar = h('div.controls.castle', { 'data-testid': 'castle-controls' });
  const adjustBar = h('div.controls.adjust', { 'data-testid': 'adjust-controls' });
  const message = h('p.message', { role: 'alert', 'data-testid': 'message' });
  const announce = h('p.sr-only', { 'aria-live': 'polite', 'data-testid': 'announce' });
  const moveList = createMoveList(where => show(navigate(cursor, plies(), where)),
    ply => show(ply >= plies() ? null : ply));
  const sanIn = h('input', {
    type: 'text', 'aria-label': t('typeMove'), placeholder: t('typeMove'), autocomplete: 'off',
    autocapitalize: 'off', spellcheck: 'false', 'data-testid': 'san-input',
  });
  const sanForm = h('form.san', { onsubmit: ev => { ev.preventDefault(); sendText(); } },
    sanIn, h('button.secondary', { type: 'submit' }, t('send')));
  const controls = createControls(name => action(name));
  const pgnLink = h('a.button.secondary', { href: pgnUrl(id), download: `randomchess-${id}.pgn`,
    'data-testid': 'pgn' }, t('pgn'));
  // The analysis board opens a spectator's copy of this game (web/src/analysis.js).
  const analyseLink = h('a.button.secondary', {
    href: `/#/analysis?game=${encodeURIComponent(id)}`, 'data-testid': 'analyse-game',
  }, t('analyseGame'));
  controls.tools.append(pgnLink, analyseLink);

  const page = h('div.game',
    h('div.board-col', topPlayer, boardWrap, bottomPlayer),
    h('aside.side', banner, ratingsBox, connection, seatLine, status, room, hint, castleBar, adjustBar,
      moveList.el, sanForm, controls.el, message, controls.tools, announce));
  root.append(page);

  const board = createBoard(boardEl, {
    onMove: onUserMove,
    onSelect: showCastleTargets,
    onPremoveSet: (orig, dest) => flash(t('premoveSet', { move: `${orig}-${dest}` }), false, 'premove'),
    onPremoveUnset: () => {
      if (message.dataset.kind === 'premove') message.textContent = '';
    },
    dims: () => dims(),
  });
  const ground = board.ground;
  window.rcGame = { get state() { return current(); }, ground, sounds, store };

  // ------------------------------------------------------------------ helpers
  let flashTimer = null;
  function flash(text, isError = false, kind = isError ? 'error' : 'info') {
    message.textContent = text;
    message.classList.toggle('error', isError);
    message.dataset.kind = kind;
    clearTimeout(flashTimer);
    if (!isError && kind !== 'premove') flashTimer = setTimeout(() => message.textContent === text && (message.textContent = ''), 4000);
  }
  const fail = (e, prefix = '') => flash(`${prefix}${t(errorKey(e))}`, true);

  const plies = () => (current() ? (current().moves || []).length : 0);
  const hotseat = () => {
    const s = current();
    return (s && s.opponent === 'hotseat') || (seat && seat.color === 'both');
  };
  const seatHolder = () => !!(seat && seat.token);
  const mine = () => (seat && seat.color !== 'both' ? seat.color : null);
  const waitingForFriend = s => s.invite_open && s.opponent === 'friend' && !s.moves.length;
  const myTurn = () => {
    const s = current();
    if (!s || !seatHolder() || isOver(s) || waitingForFriend(s)) return false;
    return hotseat() || s.to_move === seat.color;
  };
  const dims = () => dimensionsOf(current() ? current().fen : '8/8/8/8/8/8/8/8');
  // The variant's metadata from GET /api/variants (loaded before any page is drawn).
  const info = () => (current() ? variantInfo(current().variant) : null);
  const castling = () => (info() ? castlingOf(info()) : undefined);
  const locked = () => asking || (pending !== null && pending.ply === plies());

  // ------------------------------------------------------------------ state arrival
  function received(s) {
    const prev = previous;
    previous = s;
    const w = s.clocks && typeof s.clocks.white === 'number' ? s.clocks.white : null;
    const b = s.clocks && typeof s.clocks.black === 'number' ? s.clocks.black : null;
    clockBase = w === null && b === null ? null : { at: performance.now(), white: w, black: b };
    if (pending !== null && plies() > pending.ply) pending = null;
    if (cursor !== null && cursor > plies()) cursor = null;
    const sound = soundFor(prev, s);
    if (sound) sounds.play(sound);
    if (prev && prev.moves.length !== s.moves.length) announceState(s);
    else if (prev && !isOver(prev) && isOver(s)) announceState(s);
    if (prev && prev.invite_open && !s.invite_open && !isOver(s) && seatHolder()) flash(t('friendJoined'));
    if (isOver(s) && !ratingsAsked && s.result && s.result !== '*') {
      ratingsAsked = true;
      showRatings(0);
    }
  }

  // The server rates a game just after it ends: ask again for a few seconds until it has.
  let ratingsAsked = false;
  let freshSetup = false; // the game's seek asked for a new random setup every game
  let seatNames = {}; // {white, black}: the accounts holding the seats (issue 18)
  async function showRatings(attempt) {
    let r;
    try {
      r = await getRatings(id);
    } catch {
      r = null;
    }
    if (gone || !r) return;
    ratingsBox.dataset.rated = String(!!r.rated); // what the server said (tests wait for it)
    freshSetup = !!r.fresh_setup;
    if (!r.rated) return;
    clear(ratingsBox);
    ratingsBox.hidden = false;
    if (!r.changes.length) {
      if (attempt >= 15) {
        ratingsBox.hidden = true;
        return;
      }
      ratingsBox.append(h('p.hint', t('ratingsPending')));
      setTimeout(() => showRatings(attempt + 1), 1000);
      return;
    }
    const signed = n => (n > 0 ? `+${n}` : n < 0 ? `-${-n}` : '±0');
    ratingsBox.append(h('h3', t('ratingChanges')), h('ul', r.changes.map(c =>
      h(`li.${c.change > 0 ? 'up' : c.change < 0 ? 'down' : 'same'}`,
        { 'data-testid': `rating-change-${c.color}` },
        h(`span.dot.${c.color}`),
        t('ratingChange', { player: c.player || t('anonymousPlayer'), before: c.before,
          after: c.after, change: signed(c.change) })))));
  }

  function announceState(s) {
    const parts = [];
    const n = s.san.length;
    if (n) {
      const who = n % 2 === 1 ? 'white' : 'black';
      const startBlack = / b /.test(s.start_fen);
      const colour = startBlack ? (who === 'white' ? 'black' : 'white') : who;
      parts.push(t('announceMove', { colour: colourName(colour), san: localizeLetters(s.san[n - 1]) }));
      if (s.check && !isOver(s)) parts.push(t('announceCheck'));
    }
    if (isOver(s)) parts.push(resultText(s));
    else parts.push(`${t('toMove', { colour: colourName(s.to_move) })}.`);
    announce.textContent = parts.join(' ');
  }

  // ------------------------------------------------------------------ drawing
  function render() {
    const s = current();
    if (!s) return;
    const { width, height } = dims();
    const total = plies();
    const shown = shownPly(cursor, total);
    const live = cursor === null;
    // Board geometry for the CSS (style.css: squares, checkerboard, aspect ratio): files and
    // ranks, and whether the top-left square is dark (a1 is dark on every board, RULES.md §4.1).
    boardWrap.style.setProperty('--files', String(width));
    boardWrap.style.setProperty('--ranks', String(height));
    boardEl.classList.toggle('dark-corner', (orientation === 'white' ? height : width) % 2 === 1);
    boardEl.dataset.files = String(width);
    boardEl.dataset.ranks = String(height);
    boardEl.dataset.fen = s.fen;
    boardEl.dataset.ply = String(total);
    boardEl.dataset.shown = String(shown);
    boardEl.dataset.live = String(live);
    const pieces = piecesOf(s.fen);
    const turn = myTurn();
    kinds = classify(turn ? s.legal_moves || [] : [], pieces, width, castling());
    const canMove = live && turn && !locked();
    const color = s.to_move === 'black' ? 'black' : 'white';
    // Premoves: our own colour while the opponent is to move (not on one screen).
    const canPremove = live && seatHolder() && !hotseat() && !isOver(s) && !turn &&
      !waitingForFriend(s) && mine() !== null;
    let fen = s.fen.split(' ')[0];
    let lastMove = (s.moves || []).at(-1);
    let lastMv = lastMove && parseUci(lastMove);
    if (!live) {
      const at = positionAt(s.start_fen, s.moves, shown, castling());
      fen = at.placement;
      lastMv = at.lastMove;
    }
    const lastSan = live ? (s.san || []).at(-1) || '' : (s.san || [])[shown - 1] || '';
    const resized = ground.state.dimensions.width !== width || ground.state.dimensions.height !== height;
    ground.set({
      dimensions: { width, height },
      fen,
      orientation,
      turnColor: live ? color : (shown % 2 === 0) === !/ b /.test(s.start_fen) ? 'white' : 'black',
      lastMove: lastMv ? [lastMv.from, lastMv.to] : undefined,
      check: live ? (s.check ? color : false) : /[+#]$/.test(lastSan)
        ? ((shown % 2 === 0) === !/ b /.test(s.start_fen) ? 'white' : 'black') : false,
      viewOnly: !seatHolder(),
      movable: {
        color: canMove ? color : canPremove ? mine() : undefined,
        dests: canMove ? kinds.dests : new Map(),
        rookCastle: true,
      },
      premovable: { enabled: seatHolder() && !hotseat() },
    });
    if (!canPremove && !canMove && ground.state.premovable.current) ground.cancelPremove();
    if (resized) ground.redrawAll(); // rebuilds the board's DOM: only when its size changes
    board.refresh();
    if (canMove && ground.state.premovable.current) {
      // After this redraw: the premove is played as a move of ours (it goes through send).
      setTimeout(() => {
        if (cursor === null && myTurn() && !locked()) ground.playPremove();
      });
    }
    renderSide(s, shown, total);
    renderPlayers();
  }

  function playerName(color) {
    const s = current();
    if (s.players && s.players[color] === 'computer') {
      return t('computerLevel', { level: s.level, strength: t(`strength.${s.level}`) });
    }
    const account = seatNames[color];
    if (account) return mine() === color ? `${account} (${t('youName')})` : account;
    if (hotseat() || !seatHolder()) return colourName(color);
    if (mine() === color) return `${t('youName')} (${colourName(color)})`;
    return `${s.opponent === 'friend' ? t('friendName') : colourName(color)} (${colourName(color)})`;
  }

  function renderPlayers() {
    const s = current();
    const bottom = orientation;
    const top = bottom === 'white' ? 'black' : 'white';
    for (const [el, color] of [[topPlayer, top], [bottomPlayer, bottom]]) {
      clear(el);
      el.classList.toggle('active', !isOver(s) && s.to_move === color);
      const clockEl = h('span.clock', { 'data-testid': `clock-${color}`, 'data-color': color });
      const account = seatNames[color];
      el.append(h(`span.dot.${color}`), h('span.name', { 'data-testid': `player-${color}` },
        account ? h('a', { href: `/#/players/${encodeURIComponent(account)}`, 'data-testid': `profile-${color}` },
          playerName(color)) : playerName(color)),
        clockEl);
      // Correspondence: the date and time by which the side to move must move.
      const c = s.clocks;
      if (c && c.days && c.deadline && c.running === color && !isOver(s)) {
        const when = new Date(c.deadline).toLocaleString(lang(), { dateStyle: 'medium', timeStyle: 'short' });
        el.append(h('span.deadline', { 'data-testid': `deadline-${color}`, 'data-deadline': String(c.deadline) },
          t('deadline', { when })));
      }
    }
    tickClocks();
  }

  function tickClocks() {
    const s = current();
    if (!s) return;
    const running = !isOver(s) && s.clocks ? s.clocks.running : null;
    for (const el of page.querySelectorAll('.clock')) {
      const color = el.dataset.color;
      // While the connection is down the last reading is frozen and marked (defect 5).
      const ms = clockLeft(clockBase, connected ? running : null, color, performance.now());
      el.textContent = ms === null ? '' : formatClock(ms);
      el.classList.toggle('low', ms !== null && ms < 20_000);
      el.classList.toggle('unsynced', !connected && ms !== null);
      el.dataset.synced = String(connected);
      el.title = connected ? '' : t('unsynced');
      if (ms !== null && connected && running === color && color === mine() && ms < LOW_TIME_MS) {
        if (!lowWarned) sounds.play('low');
        lowWarned = true;
      }
    }
  }
  const ticker = setInterval(tickClocks, 200);

  function renderSide(s, shown, total) {
    if (!seatHolder()) seatLine.textContent = t('spectator');
    else if (hotseat()) seatLine.textContent = t('hotseat');
    else seatLine.textContent = t('you', { colour: colourName(seat.color) });
    const numbered = s.number !== undefined && s.number !== null && isNumbered(variantInfo(s.variant));
    seatLine.append(' · ', variantName(s.variant), numbered ? ' ' : '',
      numbered ? h('a', { href: statsHref(s.variant, s.number), 'data-testid': 'setup-stats-link',
        title: t('setupStats') }, `#${s.number}`) : s.number != null ? ` #${s.number}` : '');
    if (s.clocks && s.clocks.days) {
      seatLine.append(' · ', t(s.clocks.days === 1 ? 'oneDayPerMove' : 'daysPerMove', { days: s.clocks.days }));
    }
    const over = isOver(s);
    banner.hidden = !over;
    banner.textContent = over ? resultText(s) : '';
    connection.hidden = connected;
    if (over) status.textContent = '';
    else if (waitingForFriend(s)) status.textContent = t('waiting');
    else if (s.players && s.players[s.to_move] === 'computer') status.textContent = t('thinking');
    else status.textContent = t('toMove', { colour: colourName(s.to_move) });
    renderRoom(s);
    // castling and adjustment, offered on the board and as buttons
    clear(castleBar);
    clear(adjustBar);
    const playing = seatHolder() && !over;
    const live = cursor === null;
    if (playing && kinds.castles.length) {
      const sides = castling();
      const sans = { a: sides.a.san, h: sides.h.san };
      castleBar.append(h('span.label', t('castle')));
      for (const side of ['h', 'a']) {
        const c = kinds.castles.find(x => x.side === side);
        castleBar.append(h('button.secondary', {
          type: 'button', disabled: !c || locked() || !live, 'data-testid': `castle-${sans[side]}`,
          title: c ? t('castlePreview', { san: sans[side], king: c.kingTo, rook: c.rookTo }) : '',
          onclick: () => c && send(c.uci),
        }, sans[side]));
      }
    }
    if (playing && kinds.adjustments.length) {
      adjustBar.append(h('span.label', t('adjust')));
      for (const a of kinds.adjustments) {
        adjustBar.append(h('button.secondary', {
          type: 'button', disabled: locked() || !live, 'data-testid': `adjust-${a.bishop}${a.partner}`,
          onclick: () => adjust(a),
        }, `${localizeLetters('B')}${a.bishop} ⇄ ${localizeLetters(a.role.toUpperCase())}${a.partner}`));
      }
    }
    renderHint(playing);
    moveList.update(s.san || [], shown);
    sanForm.hidden = !playing || waitingForFriend(s);
    const me = mine();
    const computer = s.opponent === 'computer';
    const myMoves = me === null ? total : (() => {
      const whiteFirst = !/ b /.test(s.start_fen);
      let n = 0;
      for (let i = 0; i < total; i++) if (((i % 2 === 0) === whiteFirst ? 'white' : 'black') === me) n++;
      return n;
    })();
    controls.update({
      playing, over, hotseat: hotseat(), computer, mine: me, ply: total,
      offer: s.draw_offer === 'white' || s.draw_offer === 'black' ? s.draw_offer : null,
      takeback: s.takeback_offer === 'white' || s.takeback_offer === 'black' ? s.takeback_offer : null,
      claims: Array.isArray(s.claimable) ? s.claimable : [],
      myTurn: myTurn(),
      canAbort: total < 2,
      canTakeback: myMoves > 0,
      rematchOffer, rematchMine: rematchOffer && rematchOffer.by === me,
      seatHolder: seatHolder(), muted: sounds.muted,
    });
  }

  function renderRoom(s) {
    const inviteUrl = seat && seat.invite_url;
    room.hidden = !(inviteUrl && waitingForFriend(s) && !isOver(s));
    if (room.hidden || room.firstChild) return;
    const abs = new URL(inviteUrl, location.origin).href;
    const inp = h('input', { type: 'text', readonly: true, value: abs, 'data-testid': 'invite-url' });
    room.append(h('h3', t('waitingTitle')),
      h('p', t('waitingHelp', { colour: colourName(seat.color === 'white' ? 'black' : 'white') })),
      h('div.copyrow', inp, h('button.primary', { type: 'button', 'data-testid': 'copy-invite',
        onclick: async () => { if (await copyText(abs, inp)) flash(t('copied')); } }, t('copy'))));
  }

  // Castling and the adjustment are explained once per browser, not in a dialog every time.
  function renderHint(playing) {
    const which = kinds.castles.length ? 'castle' : kinds.adjustments.length ? 'adjust' : null;
    const key = which && `rc-hint-${which}`;
    const want = playing && which && !localStorage.getItem(key);
    hint.hidden = !want;
    if (!want) return;
    if (hint.dataset.which === which) return;
    hint.dataset.which = which;
    clear(hint);
    hint.append(h('p', t(which === 'castle' ? 'castleHint' : 'adjustHint')),
      h('button.secondary', { type: 'button', 'data-testid': 'hint-ok', onclick: () => {
        localStorage.setItem(key, '1');
        hint.hidden = true;
      } }, t('gotIt')));
  }

  // While the king is picked up, mark where king and rook land for each castling.
  function showCastleTargets(key) {
    const shapes = [];
    for (const c of kinds.castles) {
      if (c.king !== key) continue;
      shapes.push({ orig: c.kingTo, brush: 'green' }, { orig: c.rook, dest: c.rookTo, brush: 'blue' });
    }
    for (const a of kinds.adjustments) if (a.bishop === key) shapes.push({ orig: a.partner, brush: 'blue' });
    ground.setAutoShapes(shapes);
  }

  // ------------------------------------------------------------------ navigation
  function show(next) {
    cursor = next;
    render();
  }
  const onKey = ev => {
    if (ev.target.closest && ev.target.closest('input, textarea, select, [role=dialog]')) return;
    // Typing a move anywhere on the page starts keyboard move entry.
    if (ev.key.length === 1 && /[a-pA-Z0-9]/.test(ev.key) && !ev.ctrlKey && !ev.metaKey &&
        !ev.altKey && !sanForm.hidden) {
      sanIn.focus();
      return;
    }
    const where = keyToNav(ev.key);
    if (!where || !current()) return;
    ev.preventDefault();
    show(navigate(cursor, plies(), where));
  };
  document.addEventListener('keydown', onKey);

  // ------------------------------------------------------------------ actions
  async function send(uci) {
    const s = current();
    if (!s || !seatHolder()) return false;
    pending = { ply: (s.moves || []).length };
    ground.setAutoShapes([]);
    render();
    try {
      store.apply(await postMove(id, uci, seat.token));
      if (message.classList.contains('error')) message.textContent = '';
      return true;
    } catch (e) {
      const offline = errorKey(e) === 'err.offline';
      fail(e, offline ? `${t('moveNotSent')} ` : '');
      return false;
    } finally {
      pending = null;
      render(); // the piece goes back unless the server took the move
    }
  }

  async function action(name) {
    const s = current();
    if (name === 'flip') {
      orientation = orientation === 'white' ? 'black' : 'white';
      render();
      return;
    }
    if (name === 'sound') {
      sounds.setMuted(!sounds.muted);
      render();
      return;
    }
    if (name === 'copy-fen') {
      if (s && await copyText(s.fen)) flash(t('copied'));
      return;
    }
    if (!s || !seatHolder()) return;
    if (name === 'resign') {
      const ok = await modal(t('resign'), h('p', t('confirmResign')), [
        { label: t('cancel'), value: false, testid: 'confirm-no' },
        { label: t('resign'), value: true, primary: true, testid: 'confirm-yes' },
      ]);
      if (!ok) return;
    }
    try {
      if (name === 'rematch') return await rematch();
      if (name === 'rematch-accept') {
        const res = await postAction(id, 'rematch-accept', seat.token);
        return enter(res, s.opponent);
      }
      if (name === 'rematch-decline') {
        await postAction(id, 'rematch-decline', seat.token);
        rematchOffer = null;
        return render();
      }
      store.apply(await postAction(id, name, seat.token));
    } catch (e) {
      fail(e);
      render();
    }
  }

  async function rematch() {
    const choice = await modal(t('rematchTitle'), h('p', t(freshSetup ? 'rematchFreshHelp' : 'rematchHelp')),
      freshSetup ? [
        { label: t('cancel'), value: null, testid: 'confirm-no' },
        { label: t('newSetup'), value: 'new', primary: true, testid: 'rematch-new' },
      ] : [
        { label: t('cancel'), value: null, testid: 'confirm-no' },
        { label: t('newSetup'), value: 'new', testid: 'rematch-new' },
        { label: t('sameSetup'), value: 'same', primary: true, testid: 'rematch-same' },
      ]);
    if (!choice) return;
    const res = await postRematch(id, seat.token, choice);
    enter(res, current().opponent);
  }

  function enter(res, opponent) {
    saveSeat(res.id, { ...res.seat, opponent, invite_url: res.invite_url || null });
    go(`/game/${res.id}`);
  }

  async function sendText() {
    const text = sanIn.value.trim();
    if (!text) return;
    if (!myTurn()) {
      flash(t('err.notYourTurn'), true);
      return;
    }
    if (await send(delocalizeSan(text))) sanIn.value = '';
  }

  async function adjust(a) {
    if (!localStorage.getItem('rc-hint-adjust')) {
      // Explained once: the first adjustment in this browser asks, then never again.
      asking = true;
      const partner = t(`piece.${a.role}`).toLowerCase();
      const san = `${localizeLetters('B')}=${localizeLetters(a.role.toUpperCase())}`;
      const ok = await modal(t('adjust'), h('div',
        h('p.preview', { 'data-testid': 'adjust-preview' },
          t('adjustPreview', { san, from: a.bishop, to: a.partner, partner })),
        h('p.why', t('adjustWhy'))), [
        { label: t('cancel'), value: false, testid: 'confirm-no' },
        { label: t('confirm'), value: true, primary: true, testid: 'confirm-yes' },
      ]);
      asking = false;
      if (!ok) return render();
      localStorage.setItem('rc-hint-adjust', '1');
    }
    return send(a.uci);
  }

  async function choosePromotion(from, to, options) {
    const sorted = promotionOrder(info()).filter(p => options.includes(p));
    const color = current().to_move === 'black' ? 'black' : 'white';
    asking = true;
    const choice = await modal(t('promoteTo'), h('div'), sorted.map(p => ({
      value: p, testid: `promo-${p}`,
      content: [h(`span.pc.${color}.${p}-piece`), h('span', t(`piece.${p}`))],
    })));
    asking = false;
    if (choice) await send(from + to + choice);
    else render();
  }

  function onUserMove(orig, dest) {
    if (!current()) return;
    const promos = kinds.promotions.get(orig + dest);
    if (promos) return choosePromotion(orig, dest, promos);
    // Castling in one gesture (king on its rook, or on its castling square): no dialog.
    const castle = kinds.castles.find(c => c.king === orig && (c.rook === dest ||
      (c.viaKingSquare && c.kingTo === dest) || c.uci === orig + dest));
    if (castle) return send(castle.uci);
    const adj = kinds.adjustments.find(a => a.bishop === orig && a.partner === dest);
    if (adj) return adjust(adj);
    return send(orig + dest);
  }

  // A logged-in player whose seat no account holds may keep the game in the account (issue
  // 18): it then follows the account to any browser, and a rated game between two accounts
  // (a tournament's rated round) is rated.
  async function offerClaim() {
    const colours = hotseat() ? ['white', 'black'] : mine() ? [mine()] : [];
    page.dataset.claim = 'no'; // decided (tests wait for it): 'offered' below
    if (!seatHolder() || !colours.length || colours.some(c => seatNames[c]) || isOver(current())) return;
    page.dataset.claim = 'asking';
    const user = await currentUser().catch(() => null);
    page.dataset.claim = 'no';
    if (!user || gone) return;
    page.dataset.claim = 'offered';
    const button = h('button.secondary', { type: 'button', 'data-testid': 'claim-seat' }, t('claimSeat'));
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        await claimSeat(id, seat.token);
        for (const c of colours) seatNames[c] = user.name;
        button.remove();
        flash(t('claimedSeat'));
        render();
      } catch (e) {
        button.disabled = false;
        flash(t('error', { reason: e.message }), true);
      }
    });
    controls.tools.append(button);
  }

  // ------------------------------------------------------------------ start-up
  let live = null;
  const pendingFlash = sessionStorage.getItem('rc-flash');
  if (pendingFlash) {
    sessionStorage.removeItem('rc-flash');
    flash(pendingFlash, true);
  }
  (async () => {
    try {
      store.apply(await getGame(id));
    } catch (e) {
      if (e && e.status === 404) {
        gone = true;
        board.destroy();
        renderNotFound(root);
        return;
      }
      fail(e);
    }
    if (gone) return;
    live = follow(id, s => store.apply(s), st => {
      if (st === 'gone') {
        gone = true;
        board.destroy();
        renderNotFound(root);
        return;
      }
      const was = connected;
      connected = st === 'open';
      if (was && !connected && clockBase) {
        // Freeze the clocks at what they showed when the connection dropped (defect 5).
        const s = current();
        const running = s && !isOver(s) && s.clocks ? s.clocks.running : null;
        const now = performance.now();
        clockBase = { at: now, white: clockLeft(clockBase, running, 'white', now),
          black: clockLeft(clockBase, running, 'black', now) };
      }
      render();
    }, msg => {
      // A rematch offer of this (ended) game appeared or went: its own frame, not a state.
      if (msg && msg.type === 'rematch') {
        rematchOffer = msg.offer || null;
        render();
      }
    });
    getRatings(id).then(r => {
      seatNames = (r && r.players) || {};
      freshSetup = !!(r && r.fresh_setup);
      render();
      offerClaim();
    }, () => {});
    getRematch(id).then(r => {
      if (r && r.offer) {
        rematchOffer = r.offer;
        render();
      }
    }, () => {});
  })();

  return {
    destroy() {
      clearInterval(ticker);
      document.removeEventListener('keydown', onKey);
      if (live) live.close();
      if (!gone) board.destroy();
    },
  };
}
