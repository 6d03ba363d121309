// The game page's controller (issue 11, lichess's ui/ shape: ctrl / view / board): the page's
// state and every decision — what the player may move, pending moves, dialogs asked, the
// navigation cursor, clocks, offers, rematch, ratings, messages — as plain data and functions.
// No DOM: the server, the clock, storage, sounds and dialogs all come in as parameters, so
// node drives it in web/test/ctrl.test.mjs. The view (view.js) draws view() and calls the
// actions; the board (board.js) reports gestures to move() and select().

import { createStore, soundFor } from './state.js';
import { navigate, shownPly } from './nav.js';
import { errorKey, errorMessage } from './messages.js';
import { clockLeft, delayLeft } from './clock.js';
import {
  classify, dimensionsOf, droppedMove, gatedMove, handAt, parseUci, piecesOf, positionAt,
} from '../moves.js';
import { lang, t, localizeLetters, delocalizeSan } from '../i18n.js';
import { isNumbered } from '../setups.js';
import { castlingOf, promotionOrder, variantInfo, variantName } from '../variants.js';
import { ratingText } from '../levels.js';

const LOW_TIME_MS = 10_000; // the low-time sound, once per game
const LOW_CLASS_MS = 20_000; // the clock turns red
const FLASH_MS = 4000; // an info message stays this long
const RATINGS_TRIES = 15; // the server rates a game just after it ends: ask again, once a second
const RATINGS_RETRY_MS = 1000;
const EMPTY_FEN = '8/8/8/8/8/8/8/8';
const COLOURS = ['white', 'black'];

const colourName = c => t(`colour.${c}`);
const other = c => (c === 'white' ? 'black' : 'white');

export const isOver = state => state.status === 'ended' || (!!state.result && state.result !== '*');

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

/** The side that moved at ply `ply` (0-based) of a game starting from `startFen`. */
const moverAt = (startFen, ply) => ((ply % 2 === 0) === !/ b /.test(startFen) ? 'white' : 'black');

/**
 * The controller of game `id`. deps:
 *  - seat: the browser's seat {color: 'white'|'black'|'both', token, invite_url, …} or null;
 *  - api: {getGame, postMove, postAction, postRematch, getRatings, getRematch, follow,
 *    saveSeat, claimSeat, currentUser, getLevels?, getGameEvent?} (api.js, account.js,
 *    levels.js);
 *  - ask(kind, data) → Promise: the view's dialogs — 'resign' → bool, 'rematch' {fresh} →
 *    'same'|'new'|null, 'promotion' {options, color, square} → letter|null, 'gate' {options,
 *    color, square} → uci|''|null, 'adjust' {adjustment} → bool;
 *  - redraw(board): draw view() again; board false when the board itself is unchanged (a
 *    message, a hint, the castling targets), so the board is re-set only from the state;
 *  - sounds {muted, setMuted, play}, storage {getItem, setItem}, copy(text, el) → Promise<bool>,
 *    go(path), now() (ms, monotonic), timers {setTimeout, clearTimeout}, variants(key) → info.
 */
export function createGameCtrl({
  id, seat = null, api, ask, redraw = () => {}, sounds, storage, copy = async () => false,
  go = () => {}, now = () => performance.now(), timers = globalThis, variants = variantInfo,
}) {
  let orientation = seat && seat.color === 'black' ? 'black' : 'white';
  let pending = null; // {ply}: a move sent, not yet answered
  let asking = false; // a dialog (promotion, adjustment) is open
  let connected = true;
  let cursor = null; // move-list navigation: plies shown, null = live
  let clockBase = null; // {at: now(), white, black}
  // The setup preview (issue 32): {at: now(), left} while its countdown runs, else null.
  let previewBase = null;
  let previewTimer = null;
  let gameRated = null; // rated or casual, as GET /api/games/{id}/ratings said (null: unknown)
  let rematchOffer = null; // {by, id} pushed for the old game
  let lowWarned = false;
  let previous = null; // the state last received, for sounds and announcements
  let gone = false; // the game does not exist: the view shows "No such game"
  let closed = false; // destroy() was called: nothing more is started
  let live = null; // the WebSocket follower
  let ratingsAsked = false;
  let freshSetup = false; // the game's seek asked for a new random setup every game
  let seatNames = {}; // {white, black}: the accounts holding the seats (issue 18)
  let seatRatings = {}; // {white, black}: their ratings in a rated game, {rating, provisional}
  let eventBoard = null; // {event, round, board, white, black}: an event's online game (issue 30)
  let levelRows = null; // the variant's rows of GET /api/levels: the computer's rating
  let shapes = []; // the board's auto shapes: castling and adjustment targets
  let announce = '';
  let notice = null; // the offerer's notice: 'drawSent', 'drawDeclined', 'rematchSent'…
  const message = { text: '', error: false, kind: null };
  let flashTimer = null;
  // After a rated game: each side's rating change. rated: what the server said (null: not asked).
  const ratings = { rated: null, shown: 'hidden', changes: [] };
  // "Keep this game in my account": stage is 'no' | 'asking' | 'offered' once decided.
  const claim = { stage: null, button: false, busy: false, user: null, colours: [] };

  const full = () => redraw(true);
  const light = () => redraw(false);
  const store = createStore((s, accepted) => {
    if (accepted) received(s);
    full();
  });
  const current = () => store.state;

  // ------------------------------------------------------------------ derived facts
  const plies = () => (current() ? (current().moves || []).length : 0);
  const hotseat = () => {
    const s = current();
    return !!((s && s.opponent === 'hotseat') || (seat && seat.color === 'both'));
  };
  const seatHolder = () => !!(seat && seat.token);
  const mine = () => (seat && seat.color !== 'both' ? seat.color : null);
  const waitingForFriend = s => !!(s.invite_open && s.opponent === 'friend' && !s.moves.length);
  const previewLeft = () => (previewBase ? Math.max(0, previewBase.left - (now() - previewBase.at)) : 0);
  const inPreview = () => previewLeft() > 0 && !!current() && !isOver(current());
  const myTurn = () => {
    const s = current();
    if (!s || !seatHolder() || isOver(s) || waitingForFriend(s) || inPreview()) return false;
    return hotseat() || s.to_move === seat.color;
  };
  const dims = () => dimensionsOf(current() ? current().fen : EMPTY_FEN);
  const info = () => (current() ? variants(current().variant) : null);
  const castling = () => (info() ? castlingOf(info()) : undefined);
  const locked = () => asking || (pending !== null && pending.ply === plies());

  // The server's legal moves sorted for the board (dests, castles, adjustments, promotions),
  // worked out once per state.
  let kindsOf = null;
  let kindsLocked = false; // the moves were sorted during the preview (none to play)
  let kindsCache = { dests: new Map(), castles: [], adjustments: [], promotions: new Map(), gates: new Map() };
  function kinds() {
    const s = current();
    if (!s) return kindsCache;
    if (kindsOf !== s || kindsLocked !== inPreview()) {
      kindsOf = s;
      kindsLocked = inPreview();
      kindsCache = classify(myTurn() ? s.legal_moves || [] : [], piecesOf(s.fen), dims().width, castling());
    }
    return kindsCache;
  }

  // ------------------------------------------------------------------ messages
  function flash(text, isError = false, kind = isError ? 'error' : 'info') {
    message.text = text;
    message.error = isError;
    message.kind = kind;
    timers.clearTimeout(flashTimer);
    if (!isError && kind !== 'premove') {
      flashTimer = timers.setTimeout(() => {
        if (message.text === text) {
          message.text = '';
          light();
        }
      }, FLASH_MS);
    }
    light();
  }
  const fail = (e, prefix = '') => flash(`${prefix}${errorMessage(e, t)}`, true);

  // ------------------------------------------------------------------ state arrival
  function received(s) {
    const prev = previous;
    previous = s;
    const w = s.clocks && typeof s.clocks.white === 'number' ? s.clocks.white : null;
    const b = s.clocks && typeof s.clocks.black === 'number' ? s.clocks.black : null;
    const delay = s.clocks && typeof s.clocks.delay === 'number' ? s.clocks.delay : 0;
    clockBase = w === null && b === null ? null : { at: now(), white: w, black: b, delay };
    previewBase = s.preview ? { at: now(), left: s.preview.left } : null;
    if (previewTimer !== null) timers.clearTimeout(previewTimer);
    previewTimer = null;
    // The board unlocks when the countdown ends here, before the server's push arrives.
    if (s.preview && !closed) previewTimer = timers.setTimeout(() => { previewTimer = null; full(); }, s.preview.left + 20);
    if (pending !== null && plies() > pending.ply) pending = null;
    if (cursor !== null && cursor > plies()) cursor = null;
    const sound = soundFor(prev, s);
    if (sound) sounds.play(sound);
    if (prev && prev.moves.length !== s.moves.length) announceState(s);
    else if (prev && !isOver(prev) && isOver(s)) announceState(s);
    if (prev && prev.invite_open && !s.invite_open && !isOver(s) && seatHolder()) flash(t('friendJoined'));
    offersChanged(prev, s);
    if (isOver(s) && !ratingsAsked && s.result && s.result !== '*') {
      ratingsAsked = true;
      showRatings(0);
    }
  }

  // Offers (issue 32): the side offered hears it; the side offering is told when its offer
  // went without being taken (declined), in the offer box the phone keeps on screen.
  function offersChanged(prev, s) {
    const me = mine();
    if (!prev || prev.id !== s.id || !me || hotseat()) return;
    // A notice lasts until the next move (the move that declined an offer sets it again).
    if (prev.moves.length !== s.moves.length && notice !== 'rematchSent') notice = null;
    const theirs = key => s[key] && s[key] !== me && prev[key] !== s[key];
    if (!isOver(s) && (theirs('draw_offer') || theirs('takeback_offer'))) sounds.play('offer');
    if (isOver(s) && !isOver(prev)) notice = null;
    if (prev.draw_offer === me && !s.draw_offer && !isOver(s)) notice = 'drawDeclined';
    if (prev.takeback_offer === me && !s.takeback_offer) {
      notice = s.moves.length >= prev.moves.length ? 'takebackDeclined' : null;
    }
  }

  function notify(key) {
    notice = key;
    full();
  }

  function announceState(s) {
    const parts = [];
    const n = s.san.length;
    if (n) {
      parts.push(t('announceMove', { colour: colourName(moverAt(s.start_fen, n - 1)),
        san: localizeLetters(s.san[n - 1]) }));
      if (s.check && !isOver(s)) parts.push(t('announceCheck'));
    }
    if (isOver(s)) parts.push(resultText(s));
    else parts.push(`${t('toMove', { colour: colourName(s.to_move) })}.`);
    announce = parts.join(' ');
  }

  async function showRatings(attempt) {
    let r;
    try {
      r = await api.getRatings(id);
    } catch {
      r = null;
    }
    if (gone || closed || !r) return;
    ratings.rated = !!r.rated;
    freshSetup = !!r.fresh_setup;
    if (r.rated && !r.changes.length) {
      ratings.shown = attempt >= RATINGS_TRIES ? 'hidden' : 'pending';
      if (attempt < RATINGS_TRIES) timers.setTimeout(() => showRatings(attempt + 1), RATINGS_RETRY_MS);
    } else if (r.rated) {
      ratings.shown = 'changes';
      ratings.changes = r.changes;
    }
    light();
  }

  // ------------------------------------------------------------------ what the view draws
  function playerName(color) {
    const s = current();
    if (s.players && s.players[color] === 'computer') {
      // The level's measured rating (GET /api/levels) once it is known.
      const rating = ratingText((levelRows || []).find(r => r.level === s.level));
      const strength = t(`strength.${s.level}`);
      return t('computerLevel', { level: s.level, strength: rating ? `${strength}, ${rating}` : strength });
    }
    // An event's game: the players' names as registered (issue 30), not "You / Your friend";
    // the account holding the seat beside it.
    const registered = eventBoard && eventBoard[color];
    const account = seatNames[color];
    const named = registered && account && registered !== account ? `${registered} — ${account}`
      : registered || account;
    if (named) return mine() === color ? `${named} (${t('youName')})` : named;
    if (hotseat() || !seatHolder()) return colourName(color);
    if (mine() === color) return `${t('youName')} (${colourName(color)})`;
    return `${s.opponent === 'friend' ? t('friendName') : colourName(color)} (${colourName(color)})`;
  }

  function boardView(s, k, total, shown) {
    const { width, height } = dims();
    const live = cursor === null;
    const turn = myTurn();
    const canMove = live && turn && !locked();
    const color = s.to_move === 'black' ? 'black' : 'white';
    // Premoves: our own colour while the opponent is to move (not on one screen).
    const canPremove = live && seatHolder() && !hotseat() && !isOver(s) && !turn &&
      !waitingForFriend(s) && mine() !== null;
    let placement = s.fen.split(' ')[0].split('[')[0]; // the hand is not on the board
    const lastUci = (s.moves || []).at(-1);
    let lastMv = lastUci && parseUci(lastUci);
    if (!live) {
      const at = positionAt(s.start_fen, s.moves, shown, castling());
      placement = at.placement;
      lastMv = at.lastMove;
    }
    const lastSan = live ? (s.san || []).at(-1) || '' : (s.san || [])[shown - 1] || '';
    return {
      width, height, fen: s.fen, placement, orientation, total, shown, live,
      // a1 is dark on every board (RULES.md §4.1): is the top-left square dark?
      darkCorner: (orientation === 'white' ? height : width) % 2 === 1,
      turnColor: live ? color : moverAt(s.start_fen, shown),
      lastMove: lastMv ? [lastMv.from, lastMv.to] : undefined,
      check: live ? (s.check ? color : false) : /[+#]$/.test(lastSan) ? moverAt(s.start_fen, shown) : false,
      viewOnly: !seatHolder(),
      movable: {
        color: canMove ? color : canPremove ? mine() : undefined,
        dests: canMove ? k.dests : new Map(),
        rookCastle: true,
      },
      premovable: { enabled: seatHolder() && !hotseat() },
      keepPremove: canMove || canPremove, // otherwise a queued premove is cancelled
      playPremove: canMove, // a queued premove is played now (canPlayPremove, after the redraw)
    };
  }

  function castleView(k, playing, live) {
    if (!playing || !k.castles.length) return null;
    const sides = castling();
    return ['h', 'a'].map(side => {
      const c = k.castles.find(x => x.side === side);
      const san = sides[side].san;
      return {
        side, san, disabled: !c || locked() || !live,
        title: c ? t('castlePreview', { san, king: c.kingTo, rook: c.rookTo }) : '',
      };
    });
  }

  function controlsView(s, total, over, playing) {
    const me = mine();
    let myMoves = total;
    if (me !== null) {
      myMoves = 0;
      for (let i = 0; i < total; i++) if (moverAt(s.start_fen, i) === me) myMoves++;
    }
    return {
      playing, over, hotseat: hotseat(), computer: s.opponent === 'computer', mine: me, ply: total,
      offer: s.draw_offer === 'white' || s.draw_offer === 'black' ? s.draw_offer : null,
      takeback: s.takeback_offer === 'white' || s.takeback_offer === 'black' ? s.takeback_offer : null,
      claims: Array.isArray(s.claimable) ? s.claimable : [],
      myTurn: myTurn(),
      canAbort: total < 2,
      canTakeback: myMoves > 0,
      rematchOffer, rematchMine: !!rematchOffer && rematchOffer.by === me,
      notice: notice ? t(notice) : null,
      seatHolder: seatHolder(), muted: sounds.muted,
    };
  }

  function statusText(s) {
    if (isOver(s)) return '';
    if (waitingForFriend(s)) return t('waiting');
    if (inPreview()) return t('preview.status');
    if (s.players && s.players[s.to_move] === 'computer') return t('thinking');
    return t('toMove', { colour: colourName(s.to_move) });
  }

  /** Everything the view draws, from the newest state. state is null until one arrived. */
  function view() {
    const base = {
      gone, message: { ...message }, announce, shapes, connected,
      ratings: { ...ratings }, claim: { stage: claim.stage, button: claim.button, busy: claim.busy },
    };
    const s = current();
    if (!s || gone) return { ...base, state: null };
    const k = kinds();
    const total = plies();
    const shown = shownPly(cursor, total);
    const live = cursor === null;
    const over = isOver(s);
    const playing = seatHolder() && !over;
    const bottom = orientation;
    const which = k.castles.length ? 'castle' : k.adjustments.length ? 'adjust' : null;
    const running = s.clocks && s.clocks.running;
    const number = s.number !== undefined && s.number !== null ? s.number : null;
    return {
      ...base,
      state: s,
      board: boardView(s, k, total, shown),
      seat: {
        text: !seatHolder() ? t('spectator') : hotseat() ? t('hotseat') : t('you', { colour: colourName(seat.color) }),
        variant: s.variant,
        variantName: variantName(s.variant, variants),
        number,
        numbered: number !== null && isNumbered(variants(s.variant)),
        days: s.clocks && s.clocks.days ? s.clocks.days : null,
        // The control in words (server's randomchess.clock), e.g. "30 moves in 25 min, ...".
        control: s.clocks && s.clocks.label ? { label: s.clocks.label[lang()] || s.clocks.label.en,
          pgn: s.clocks.control } : null,
      },
      banner: over ? resultText(s) : null,
      status: statusText(s),
      room: seat && seat.invite_url && waitingForFriend(s) && !over
        ? { url: seat.invite_url, friend: other(seat.color) } : null,
      hint: playing && which && !storage.getItem(`rc-hint-${which}`) ? which : null,
      castles: castleView(k, playing, live),
      adjustments: playing && k.adjustments.length ? k.adjustments.map(a => ({
        bishop: a.bishop, partner: a.partner, disabled: locked() || !live,
        label: `${localizeLetters('B')}${a.bishop} ⇄ ${localizeLetters(a.role.toUpperCase())}${a.partner}`,
      })) : null,
      moves: { san: s.san || [], shown },
      sanInput: playing && !waitingForFriend(s) && !inPreview(),
      preview: previewView(s, number),
      controls: controlsView(s, total, over, playing),
      event: eventBoard ? { href: `#/tournament/${encodeURIComponent(eventBoard.event_id)}`,
        text: t(eventBoard.game ? 'tournament.matchGameOf' : 'tournament.boardOf', { event: eventBoard.event,
          round: eventBoard.round, board: eventBoard.board, game: eventBoard.game }) } : null,
      players: [[other(bottom), 'top'], [bottom, 'bottom']].map(([color, place]) => ({
        color, place, name: playerName(color), account: seatNames[color] || null,
        // Gating variants (PM-CRC): the pieces still in hand at the ply shown.
        hand: handAt(s.start_fen || '', s.moves || [], shown)[color],
        rating: seatRatings[color]
          ? `${seatRatings[color].rating}${seatRatings[color].provisional ? '?' : ''}` : null,
        active: !over && s.to_move === color,
        // Correspondence: the date and time by which the side to move must move.
        deadline: s.clocks && s.clocks.days && s.clocks.deadline && running === color && !over
          ? s.clocks.deadline : null,
        // Multi-period controls: the moves this side owes before its next time control.
        toControl: s.clocks && s.clocks.to_control && !over && typeof s.clocks.to_control[color] === 'number'
          ? s.clocks.to_control[color] : null,
      })),
    };
  }

  /** The setup preview while its countdown runs (issue 32): the setup to look at, who is
   * ready, whether this seat may still say so, and the rule against setup-shopping. */
  function previewView(s, number) {
    if (!s.preview || !inPreview()) return null;
    const ready = s.preview.ready || [];
    const me = mine();
    const mineReady = hotseat() ? ready.length === 2 : !!me && ready.includes(me);
    return {
      variant: s.variant, number, numbered: number !== null && isNumbered(variants(s.variant)),
      castling: castlingSquares(), ready, mineReady,
      canReady: seatHolder() && !mineReady,
      opponentReady: !!me && ready.includes(other(me)),
      rated: gameRated,
    };
  }

  /** Where each castling puts White's king and rook ([{san, king, rook}]; Black's mirror
   * them on its back rank), or null for a variant without castling. */
  function castlingSquares() {
    let c;
    try {
      c = castling();
    } catch {
      return null;
    }
    if (!c) return null;
    const sq = i => `${'abcdefghijklmnop'[i]}1`;
    return [c.a, c.h].filter(x => x.king >= 0 && x.rook >= 0)
      .map(x => ({ san: x.san, king: sq(x.king), rook: sq(x.rook) }));
  }

  /** How much of the countdown is left (ms, 0 when none runs). */
  function previewCountdown() {
    return inPreview() ? previewLeft() : 0;
  }

  /** The clocks now: {white, black: {ms|null, low, synced, delay}} (`delay`: ms of simple delay
   * the running side still has); plays the low-time sound once. */
  function clocks() {
    const s = current();
    if (!s) return null;
    const running = !isOver(s) && s.clocks ? s.clocks.running : null;
    const at = now();
    const out = {};
    for (const color of COLOURS) {
      // While the connection is down the last reading is frozen and marked (defect 5).
      const ms = clockLeft(clockBase, connected ? running : null, color, at);
      out[color] = { ms, low: ms !== null && ms < LOW_CLASS_MS, synced: connected,
        delay: connected ? delayLeft(clockBase, running, color, at) : 0 };
      if (ms !== null && connected && running === color && color === mine() && ms < LOW_TIME_MS) {
        if (!lowWarned) sounds.play('low');
        lowWarned = true;
      }
    }
    return out;
  }

  // ------------------------------------------------------------------ actions
  function show(next) {
    cursor = next;
    full();
  }

  async function send(uci) {
    const s = current();
    // One move at a time: a second one (typed, or a button) while the first is unanswered
    // would be judged against the old position.
    if (!s || !seatHolder() || locked()) return false;
    pending = { ply: (s.moves || []).length };
    shapes = [];
    full();
    try {
      // The measured lag goes with the move: the server gives it back (lag compensation).
      store.apply(await api.postMove(id, uci, seat.token, live && live.lag ? live.lag() : 0));
      if (message.error) message.text = '';
      return true;
    } catch (e) {
      const offline = errorKey(e) === 'err.offline';
      fail(e, offline ? `${t('moveNotSent')} ` : '');
      return false;
    } finally {
      pending = null;
      full(); // the piece goes back unless the server took the move
    }
  }

  async function adjust(a) {
    if (!storage.getItem('rc-hint-adjust')) {
      // Explained once: the first adjustment in this browser asks, then never again.
      asking = true;
      const ok = await ask('adjust', { adjustment: a });
      asking = false;
      if (!ok) return full();
      storage.setItem('rc-hint-adjust', '1');
    }
    return send(a.uci);
  }

  async function choosePromotion(from, to, options) {
    const sorted = promotionOrder(info()).filter(p => options.includes(p));
    const color = current().to_move === 'black' ? 'black' : 'white';
    asking = true;
    const choice = await ask('promotion', { options: sorted, color, square: to });
    asking = false;
    if (choice) await send(from + to + choice);
    else full();
  }

  /** Send `base`, or, when a piece from the hand may enter with it (gating, PM-CRC), the
   * choice of the picker over `square`: a gate, none, or nothing at all (cancelled). */
  async function sendOrGate(base, square) {
    const options = kinds().gates.get(base);
    if (!options) return send(base);
    const color = current().to_move === 'black' ? 'black' : 'white';
    asking = true;
    const chosen = gatedMove(base, await ask('gate', { options, color, square }));
    asking = false;
    return chosen === null ? full() : send(chosen);
  }

  /** A move made on the board (drag or taps; a premove played). */
  function move(orig, dest) {
    if (!current()) return undefined;
    // Castling in one gesture (king on its rook, or on its castling square): no dialog
    // (but the gate's, when the queen may enter on the king's or the rook's square).
    const d = droppedMove(kinds(), orig, dest);
    if (d.promotions) return choosePromotion(orig, dest, d.promotions);
    if (d.adjustment) return adjust(d.adjustment);
    return sendOrGate(d.uci, d.square);
  }

  async function sendText(raw) {
    const text = String(raw || '').trim();
    if (!text) return false;
    if (!myTurn()) {
      flash(t('err.notYourTurn'), true);
      return false;
    }
    return send(delocalizeSan(text));
  }

  async function rematch() {
    const choice = await ask('rematch', { fresh: freshSetup });
    if (!choice) return;
    // A new setup against the computer is drawn verifiably (issue 32): the server commits
    // first (a draw opened now), then this page's random value fixes it.
    let extra = {};
    const s = current();
    if (choice === 'new' && s.opponent === 'computer' && api.openSetupDraw && s.number !== null) {
      const draw = await api.openSetupDraw(s.variant).catch(() => null);
      if (draw) extra = { setup_draw: { id: draw.id, client_value: api.newClientValue() } };
    } else if (api.newClientValue && s.opponent === 'friend') {
      extra = { client_value: api.newClientValue() }; // used if this answers their offer
    }
    const res = await api.postRematch(id, seat.token, choice, extra);
    if (!res.invite_url) return enter(res, current().opponent);
    // The other side must accept (issue 32): stay on this game until it answers; the new
    // game's seat is kept for then.
    api.saveSeat(res.id, { ...res.seat, opponent: current().opponent, invite_url: res.invite_url });
    rematchOffer = { by: mine(), id: res.id };
    return notify('rematchSent');
  }

  /** Our rematch offer went: accepted (the new game has both players) or declined. */
  async function rematchAnswered(newId) {
    let s = null;
    try {
      s = await api.getGame(newId);
    } catch {
      s = null;
    }
    if (closed) return;
    if (s && !s.invite_open) {
      go(`/game/${newId}`);
      return;
    }
    notify('rematchDeclined');
  }

  function onRematchFrame(offer) {
    const was = rematchOffer;
    rematchOffer = offer || null;
    if (rematchOffer && rematchOffer.by !== mine() && !hotseat()) sounds.play('offer');
    if (was && was.by === mine() && !rematchOffer && seatHolder() && !hotseat()) {
      rematchAnswered(was.id);
    }
    full();
  }

  function enter(res, opponent) {
    api.saveSeat(res.id, { ...res.seat, opponent, invite_url: res.invite_url || null });
    go(`/game/${res.id}`);
  }

  /** A button around the game: flip, sound, copy-fen, abort, resign, draw-… , takeback-…,
   * rematch, rematch-accept, rematch-decline (the server's action names). */
  async function action(name) {
    const s = current();
    if (name === 'flip') {
      orientation = other(orientation);
      return full();
    }
    if (name === 'sound') {
      sounds.setMuted(!sounds.muted);
      return full();
    }
    if (name === 'copy-fen') {
      if (s && await copy(s.fen)) flash(t('copied'));
      return undefined;
    }
    if (!s || !seatHolder()) return undefined;
    // A dialog closed by leaving the page answers null; a destroyed page acts no more.
    if (name === 'resign' && (!await ask('resign', {}) || closed)) return undefined;
    try {
      if (name === 'rematch') return await rematch();
      if (name === 'rematch-accept') {
        const res = api.acceptRematch
          ? await api.acceptRematch(id, seat.token, api.newClientValue())
          : await api.postAction(id, 'rematch-accept', seat.token);
        return enter(res, s.opponent);
      }
      if (name === 'rematch-decline') {
        await api.postAction(id, 'rematch-decline', seat.token);
        rematchOffer = null;
        return full();
      }
      store.apply(await api.postAction(id, name, seat.token));
      if (name === 'draw-offer' && !hotseat()) notify('drawSent');
      if (name === 'takeback-offer' && !hotseat() && s.opponent !== 'computer') notify('takebackSent');
    } catch (e) {
      fail(e);
      full();
    }
    return undefined;
  }

  // A logged-in player whose seat no account holds may keep the game in the account (issue
  // 18): it then follows the account to any browser, and a rated game between two accounts
  // (a tournament's rated round) is rated.
  async function offerClaim() {
    const colours = hotseat() ? [...COLOURS] : mine() ? [mine()] : [];
    claim.stage = 'no';
    const s = current();
    if (!s || !seatHolder() || !colours.length || colours.some(c => seatNames[c]) || isOver(s)) {
      light();
      return;
    }
    claim.stage = 'asking';
    light();
    const user = await api.currentUser().catch(() => null);
    claim.stage = 'no';
    if (user && !gone && !closed) {
      claim.stage = 'offered';
      claim.button = true;
      claim.user = user;
      claim.colours = colours;
    }
    light();
  }

  async function claimSeat() {
    if (!claim.button || claim.busy) return;
    claim.busy = true;
    light();
    try {
      await api.claimSeat(id, seat.token);
      for (const c of claim.colours) seatNames[c] = claim.user.name;
      claim.button = false;
      claim.busy = false;
      flash(t('claimedSeat'));
      full();
    } catch (e) {
      claim.busy = false;
      flash(t('error', { reason: e.message }), true);
    }
  }

  function onStatus(st) {
    if (st === 'gone') {
      gone = true;
      return full();
    }
    const was = connected;
    connected = st === 'open';
    if (was && !connected && clockBase) {
      // Freeze the clocks at what they showed when the connection dropped (defect 5).
      const s = current();
      const running = s && !isOver(s) && s.clocks ? s.clocks.running : null;
      const at = now();
      clockBase = { at, white: clockLeft(clockBase, running, 'white', at),
        black: clockLeft(clockBase, running, 'black', at), delay: 0 };
    }
    return full();
  }

  /** Load the game, then follow it live; ask for the accounts, the rematch offer. */
  async function start() {
    try {
      store.apply(await api.getGame(id));
    } catch (e) {
      if (e && e.status === 404) {
        gone = true;
        full();
        return;
      }
      fail(e);
    }
    if (gone || closed) return;
    live = api.follow(id, s => store.apply(s), onStatus, msg => {
      // A rematch offer of this (ended) game appeared or went: its own frame, not a state.
      if (msg && msg.type === 'rematch') {
        onRematchFrame(msg.offer);
      }
    });
    if (api.getLevels && Object.values(current().players || {}).includes('computer')) {
      api.getLevels().then(table => {
        if (closed || !table || !table.variants) return;
        levelRows = table.variants[current().variant] || [];
        full();
      }, () => {});
    }
    if (api.getGameEvent) {
      api.getGameEvent(id).then(r => {
        if (closed || !r || !r.board) return; // not an event's game
        eventBoard = r.board;
        full();
      }, () => {});
    }
    api.getRatings(id).then(r => {
      if (closed) return;
      seatNames = (r && r.players) || {};
      seatRatings = (r && r.ratings) || {};
      freshSetup = !!(r && r.fresh_setup);
      gameRated = r ? !!r.rated : null;
      full();
      offerClaim();
    }, () => {});
    api.getRematch(id).then(r => {
      if (!closed && r && r.offer) {
        rematchOffer = r.offer;
        full();
      }
    }, () => {});
  }

  return {
    store,
    get state() {
      return current();
    },
    view,
    clocks,
    dims,
    /** After a redraw that may play a premove: is a move of ours allowed now? */
    canPlayPremove: () => cursor === null && myTurn() && !locked(),
    start,
    destroy() {
      closed = true;
      timers.clearTimeout(flashTimer);
      if (live) live.close();
    },
    flash,
    // board gestures
    move,
    /** A piece picked up: mark where king and rook land for each castling, and the partner of
     * each adjustment of that bishop. */
    select(key) {
      const next = [];
      const k = kinds();
      for (const c of k.castles) {
        if (c.king !== key) continue;
        next.push({ orig: c.kingTo, brush: 'green' }, { orig: c.rook, dest: c.rookTo, brush: 'blue' });
      }
      for (const a of k.adjustments) if (a.bishop === key) next.push({ orig: a.partner, brush: 'blue' });
      shapes = next;
      light();
    },
    premoveSet: (orig, dest) => flash(t('premoveSet', { move: `${orig}-${dest}` }), false, 'premove'),
    premoveUnset() {
      if (message.kind !== 'premove') return;
      message.text = '';
      light();
    },
    // buttons and keys
    castle(side) {
      const c = kinds().castles.find(x => x.side === side);
      return c && cursor === null ? sendOrGate(c.uci, c.king) : Promise.resolve(false);
    },
    adjust(bishop, partner) {
      const a = kinds().adjustments.find(x => x.bishop === bishop && x.partner === partner);
      return a && cursor === null ? adjust(a) : Promise.resolve(false);
    },
    sendText,
    action,
    previewCountdown,
    flip: () => action('flip'),
    toggleSound: () => action('sound'),
    resign: () => action('resign'),
    abort: () => action('abort'),
    offerDraw: () => action('draw-offer'),
    /** 'first' | 'prev' | 'next' | 'live' (nav.js). */
    navigate(where) {
      if (current()) show(navigate(cursor, plies(), where));
    },
    /** Show the position after `ply` plies (a click in the move list); the last one is live. */
    pick: ply => show(ply >= plies() ? null : ply),
    dismissHint(which) {
      storage.setItem(`rc-hint-${which}`, '1');
      light();
    },
    async copy(text, el) {
      if (await copy(text, el)) flash(t('copied'));
    },
    claimSeat,
  };
}
