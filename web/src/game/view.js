// The game page's view (issue 11, lichess's ui/ shape): builds the page once and redraws it
// from the controller's view() (ctrl.js) — the board from the newest state, the side panel,
// the player lines and clocks — and shows the controller's dialogs. Event handlers only call
// controller actions; nothing here decides what the player may do.

import { h, clear, modal } from '../dom.js';
import { lang, t, localizeLetters } from '../i18n.js';
import { keyToNav } from './nav.js';
import { formatClock } from './clock.js';
import { createMoveList } from './movelist.js';
import { createControls } from './controls.js';
import { pickGate, pickPromotion } from './promotion.js';
import { handBadge } from './hand.js';
import { statsHref } from '../setupstats.js';
import { numberLabel } from '../variants.js';
import { briefBox } from '../setup_brief.js';
import { evaluationText } from '../setup_eval.js';

const colourName = c => t(`colour.${c}`);
const CLOCK_TICK_MS = 200;

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

/**
 * The page of the game `ctrl` controls, appended to `root`. links: {pgn, pgnName, analysis}.
 * Returns {boardEl, attach(board), redraw(board), tick(), ask(kind, data), destroy()}: the
 * board (board.js) is made on boardEl and attached before the first redraw.
 */
export function createGameView(root, ctrl, links) {
  let board = null;
  let ground = null;
  let torn = false; // replaced by the "No such game" page
  let drawnShapes = null;
  let drawnRatings = null;

  const boardEl = h('div.board', { 'data-testid': 'board' });
  const boardWrap = h('div.board-wrap', boardEl);
  const topPlayer = h('div.player.top');
  const bottomPlayer = h('div.player.bottom');
  const banner = h('div.banner', { 'data-testid': 'result', hidden: true });
  // After a rated game: each side's rating change (GET /api/games/{id}/ratings, issue 18).
  const ratingsBox = h('div.rating-changes', { 'data-testid': 'rating-changes', hidden: true });
  const status = h('p.status', { 'data-testid': 'status' });
  // An event's game: a link back to its event, round and board (issue 30).
  const eventLine = h('p.event-board', { hidden: true });
  const seatLine = h('p.seat', { 'data-testid': 'seat' });
  const connection = h('p.connection', { 'data-testid': 'connection', role: 'status', hidden: true },
    t('disconnected'));
  const room = h('div.invite', { 'data-testid': 'waiting-room', hidden: true });
  // The setup preview (issue 32): the countdown, Ready and the rule in a bar (kept on a
  // phone's screen, style.css), the setup's facts below it.
  const previewCount = h('strong.preview-count', { 'data-testid': 'setup-preview-countdown' });
  const previewReady = h('button.primary', { type: 'button', 'data-testid': 'setup-preview-ready',
    onclick: () => ctrl.action('ready') }, t('preview.ready'));
  const previewWho = h('span.preview-who', { 'data-testid': 'setup-preview-who' });
  const previewRule = h('p.preview-rule', { 'data-testid': 'setup-preview-rule' });
  const previewFacts = h('div.preview-facts', { 'data-testid': 'setup-preview-facts' });
  const previewBox = h('section.preview-box', { 'data-testid': 'setup-preview', hidden: true },
    h('div.preview-bar', h('h3', t('preview.title')), previewCount,
      h('div.actions', previewReady, previewWho), previewRule),
    previewFacts);
  let previewKey = null;
  const hint = h('div.hint-box', { 'data-testid': 'hint', hidden: true });
  const castleBar = h('div.controls.castle', { 'data-testid': 'castle-controls' });
  const adjustBar = h('div.controls.adjust', { 'data-testid': 'adjust-controls' });
  const message = h('p.message', { role: 'alert', 'data-testid': 'message' });
  const announce = h('p.sr-only', { 'aria-live': 'polite', 'data-testid': 'announce' });
  const moveList = createMoveList(where => ctrl.navigate(where), ply => ctrl.pick(ply));
  const sanIn = h('input', {
    type: 'text', 'aria-label': t('typeMove'), placeholder: t('typeMove'), autocomplete: 'off',
    autocapitalize: 'off', spellcheck: 'false', 'data-testid': 'san-input',
  });
  const sanForm = h('form.san', {
    onsubmit: async ev => {
      ev.preventDefault();
      if (await ctrl.sendText(sanIn.value)) sanIn.value = '';
    },
  }, sanIn, h('button.secondary', { type: 'submit' }, t('send')));
  const controls = createControls(name => ctrl.action(name));
  // No engine help on a game between people while it is played (fair play, issue 28).
  const analyseLink = h('a.button.secondary', { href: links.analysis, 'data-testid': 'analyse-game' },
    t('analyseGame'));
  controls.tools.append(
    h('a.button.secondary', { href: links.pgn, download: links.pgnName, 'data-testid': 'pgn' }, t('pgn')),
    // The analysis board opens a spectator's copy of this game (web/src/analysis.js).
    analyseLink);
  const claimButton = h('button.secondary', { type: 'button', 'data-testid': 'claim-seat',
    onclick: () => ctrl.claimSeat() }, t('claimSeat'));

  // The setup brief (issue 33), folded, while no move has been played.
  const briefEl = h('details.game-brief', { 'data-testid': 'game-brief', hidden: true },
    h('summary', t('brief.title')));
  let briefOf = '';
  const page = h('div.game',
    h('div.board-col', topPlayer, boardWrap, bottomPlayer),
    h('aside.side', banner, ratingsBox, connection, seatLine, briefEl, eventLine, previewBox, status, room, hint, castleBar, adjustBar,
      moveList.el, sanForm, controls.el, message, controls.tools, announce));
  root.append(page);

  // ------------------------------------------------------------------ drawing
  function drawBoard(b) {
    // Board geometry for the CSS (style.css: squares, checkerboard, aspect ratio).
    boardWrap.style.setProperty('--files', String(b.width));
    boardWrap.style.setProperty('--ranks', String(b.height));
    boardEl.classList.toggle('dark-corner', b.darkCorner);
    boardEl.dataset.files = String(b.width);
    boardEl.dataset.ranks = String(b.height);
    boardEl.dataset.fen = b.fen;
    boardEl.dataset.ply = String(b.total);
    boardEl.dataset.shown = String(b.shown);
    boardEl.dataset.live = String(b.live);
    const resized = ground.state.dimensions.width !== b.width || ground.state.dimensions.height !== b.height;
    ground.set({
      dimensions: { width: b.width, height: b.height },
      fen: b.placement,
      orientation: b.orientation,
      turnColor: b.turnColor,
      lastMove: b.lastMove,
      check: b.check,
      viewOnly: b.viewOnly,
      movable: b.movable,
      premovable: b.premovable,
    });
    if (!b.keepPremove && ground.state.premovable.current) ground.cancelPremove();
    if (resized) ground.redrawAll(); // rebuilds the board's DOM: only when its size changes
    board.refresh();
    if (b.playPremove && ground.state.premovable.current) {
      // After this redraw: the premove is played as a move of ours (it goes through ctrl.move).
      setTimeout(() => {
        if (ctrl.canPlayPremove()) ground.playPremove();
      });
    }
  }

  function drawMessage(m) {
    message.textContent = m.text;
    message.classList.toggle('error', m.error);
    if (m.kind) message.dataset.kind = m.kind;
  }

  function drawRatings(r) {
    if (r.rated !== null) ratingsBox.dataset.rated = String(r.rated); // tests wait for it
    ratingsBox.hidden = r.shown === 'hidden';
    const key = r.shown === 'changes' ? JSON.stringify(r.changes) : r.shown;
    if (drawnRatings === key) return;
    drawnRatings = key;
    clear(ratingsBox);
    if (r.shown === 'pending') ratingsBox.append(h('p.hint', t('ratingsPending')));
    if (r.shown !== 'changes') return;
    const signed = n => (n > 0 ? `+${n}` : n < 0 ? `-${-n}` : '±0');
    ratingsBox.append(h('h3', t('ratingChanges')), h('ul', r.changes.map(c =>
      h(`li.${c.change > 0 ? 'up' : c.change < 0 ? 'down' : 'same'}`,
        { 'data-testid': `rating-change-${c.color}` },
        h(`span.dot.${c.color}`),
        t('ratingChange', { player: c.player || t('anonymousPlayer'), before: c.before,
          after: c.after, change: signed(c.change) })))));
  }

  function drawClaim(c) {
    if (c.stage) page.dataset.claim = c.stage; // decided (tests wait for it)
    claimButton.disabled = c.busy;
    if (c.button && !claimButton.isConnected) controls.tools.append(claimButton);
    if (!c.button && claimButton.isConnected) claimButton.remove();
  }

  function drawBrief(v) {
    const st = v.seat;
    // Folded until move 1; during the setup preview its box shows the brief instead.
    const show = st.numbered && v.board.total === 0 && !v.preview;
    briefEl.hidden = !show;
    const key = show ? `${st.variant}/${st.number}` : briefOf;
    if (show && key !== briefOf) {
      briefOf = key;
      briefEl.querySelector('section.brief')?.remove();
      briefEl.append(briefBox(st.variant, st.number));
    }
  }

  function drawSeat(v) {
    const st = v.seat;
    seatLine.textContent = st.text;
    seatLine.append(' · ', st.variantName, st.numbered ? ' ' : '',
      st.numbered ? h('a', { href: statsHref(st.variant, st.number), 'data-testid': 'setup-stats-link',
        title: t('setupStats') }, `#${numberLabel(st.variant, st.number)}`)
      : st.number !== null ? ` #${numberLabel(st.variant, st.number)}` : '');
    if (st.days) seatLine.append(' · ', t('daysPerMove', { n: st.days }));
    else if (st.control) {
      seatLine.append(' · ', h('span.control', { 'data-testid': 'time-control', title: st.control.pgn },
        st.control.label));
    }
  }

  function drawPreview(p) {
    previewBox.hidden = !p;
    page.classList.toggle('previewing', !!p);
    if (!p) {
      previewKey = null;
      return;
    }
    previewReady.hidden = !p.canReady;
    previewWho.textContent = p.mineReady ? t('preview.waitingOpponent')
      : p.opponentReady ? t('preview.opponentReady') : '';
    previewRule.textContent = p.rated === null ? '' : t(p.rated ? 'preview.ruleRated' : 'preview.ruleCasual');
    const key = `${p.variant}/${p.number}`;
    if (previewKey === key) return;
    previewKey = key;
    clear(previewFacts);
    if (p.number !== null) {
      previewFacts.append(h('p', { 'data-testid': 'setup-preview-number' },
        t('preview.number', { number: numberLabel(p.variant, p.number) })));
    }
    if (p.castling && p.castling.length) {
      previewFacts.append(h('p', { 'data-testid': 'setup-preview-castling' }, t('preview.castling'), ' ',
        p.castling.map(c => `${c.san}: ${localizeLetters('K')}${c.king} ${localizeLetters('R')}${c.rook}`).join(' · ')));
    }
    if (p.numbered) {
      // The setup's evaluation where the package ships one (issue 32), from the brief's
      // answer; nothing at all when it is not known.
      const evaluation = h('p', { 'data-testid': 'setup-preview-evaluation', hidden: true });
      previewFacts.append(evaluation, briefBox(p.variant, p.number, b => {
        if (!b || !b.evaluation) {
          evaluation.remove();
          return;
        }
        evaluation.textContent = evaluationText({ ...b.evaluation, evaluation: b.evaluation });
        evaluation.hidden = false;
      }));
    }
  }

  function drawCountdown() {
    const left = ctrl.previewCountdown();
    if (previewBox.hidden) return;
    const seconds = Math.ceil(left / 1000);
    previewCount.textContent = t('preview.countdown', { n: seconds });
    previewCount.dataset.seconds = String(seconds);
  }

  function drawRoom(r) {
    room.hidden = !r;
    if (!r || room.firstChild) return;
    const abs = new URL(r.url, location.origin).href;
    const inp = h('input', { type: 'text', readonly: true, value: abs, 'data-testid': 'invite-url' });
    room.append(h('h3', t('waitingTitle')),
      h('p', t('waitingHelp', { colour: colourName(r.friend) })),
      h('div.copyrow', inp, h('button.primary', { type: 'button', 'data-testid': 'copy-invite',
        onclick: () => ctrl.copy(abs, inp) }, t('copy'))));
  }

  // Castling and the adjustment are explained once per browser, not in a dialog every time.
  function drawHint(which) {
    hint.hidden = !which;
    if (!which || hint.dataset.which === which) return;
    hint.dataset.which = which;
    clear(hint);
    hint.append(h('p', t(which === 'castle' ? 'castleHint' : 'adjustHint')),
      h('button.secondary', { type: 'button', 'data-testid': 'hint-ok',
        onclick: () => ctrl.dismissHint(which) }, t('gotIt')));
  }

  function drawBars(v) {
    clear(castleBar);
    clear(adjustBar);
    if (v.castles) {
      castleBar.append(h('span.label', t('castle')));
      for (const c of v.castles) {
        castleBar.append(h('button.secondary', {
          type: 'button', disabled: c.disabled, 'data-testid': `castle-${c.san}`, title: c.title,
          onclick: () => ctrl.castle(c.side),
        }, c.san));
      }
    }
    if (v.adjustments) {
      adjustBar.append(h('span.label', t('adjust')));
      for (const a of v.adjustments) {
        adjustBar.append(h('button.secondary', {
          type: 'button', disabled: a.disabled, 'data-testid': `adjust-${a.bishop}${a.partner}`,
          onclick: () => ctrl.adjust(a.bishop, a.partner),
        }, a.label));
      }
    }
  }

  function drawPlayers(players) {
    for (const p of players) {
      const el = p.place === 'top' ? topPlayer : bottomPlayer;
      clear(el);
      el.classList.toggle('active', p.active);
      const clockEl = h('span.clock', { 'data-testid': `clock-${p.color}`, 'data-color': p.color });
      el.append(h(`span.dot.${p.color}`), h('span.name', { 'data-testid': `player-${p.color}` },
        p.account ? h('a', { href: `/#/players/${encodeURIComponent(p.account)}`,
          'data-testid': `profile-${p.color}` }, p.name) : p.name),
      // A rated game's ratings beside the names (issue 32); '?' marks a provisional one.
      p.rating ? h('span.rating', { 'data-testid': `rating-${p.color}` }, p.rating) : '',
      // PM-CRC's queen waiting in hand (it enters by gating, docs/rules.md D-31).
      handBadge(p.color, p.hand),
      clockEl);
      if (p.toControl !== null) {
        clockEl.before(h('span.to-control', { 'data-testid': `to-control-${p.color}` },
          t('movesToControl', { n: p.toControl })));
      }
      if (p.deadline) {
        const when = new Date(p.deadline).toLocaleString(lang(), { dateStyle: 'medium', timeStyle: 'short' });
        el.append(h('span.deadline', { 'data-testid': `deadline-${p.color}`, 'data-deadline': String(p.deadline) },
          t('deadline', { when })));
      }
    }
  }

  function tick() {
    if (!torn) drawCountdown();
    const c = ctrl.clocks();
    if (!c || torn) return;
    for (const el of page.querySelectorAll('.clock')) {
      const { ms, low, synced, delay } = c[el.dataset.color];
      el.textContent = ms === null ? '' : formatClock(ms);
      // A simple delay running: the time stands still; the delay left is shown beside it.
      if (ms !== null && delay > 0) el.append(h('span.delay', { 'data-testid': `delay-${el.dataset.color}` },
        ` +${Math.ceil(delay / 1000)}`));
      el.classList.toggle('low', low);
      el.classList.toggle('unsynced', !synced && ms !== null);
      el.dataset.synced = String(synced);
      el.title = synced ? '' : t('unsynced');
    }
  }
  const ticker = setInterval(tick, CLOCK_TICK_MS);

  /** Draw the controller's view(); `withBoard` false leaves the board as it is. */
  function redraw(withBoard = true) {
    if (torn) return;
    const v = ctrl.view();
    if (v.gone) {
      torn = true;
      board.destroy();
      renderNotFound(root);
      return;
    }
    drawMessage(v.message);
    drawRatings(v.ratings);
    drawClaim(v.claim);
    announce.textContent = v.announce;
    if (!v.state) return;
    if (withBoard) drawBoard(v.board);
    if (drawnShapes !== v.shapes) {
      drawnShapes = v.shapes;
      ground.setAutoShapes(v.shapes);
    }
    drawSeat(v);
    drawBrief(v);
    analyseLink.hidden = v.state.opponent === 'friend' && v.state.status !== 'ended';
    banner.hidden = v.banner === null;
    banner.textContent = v.banner || '';
    connection.hidden = v.connected;
    status.textContent = v.status;
    eventLine.hidden = !v.event;
    if (v.event && eventLine.dataset.text !== v.event.text) {
      eventLine.dataset.text = v.event.text;
      clear(eventLine).append(h('a', { href: v.event.href, 'data-testid': 'event-board' }, v.event.text));
    }
    drawRoom(v.room);
    drawPreview(v.preview);
    drawBars(v);
    drawHint(v.hint);
    moveList.update(v.moves.san, v.moves.shown);
    sanForm.hidden = !v.sanInput;
    controls.update(v.controls);
    drawPlayers(v.players);
    tick();
  }

  // ------------------------------------------------------------------ dialogs
  function ask(kind, data) {
    if (kind === 'resign') {
      return modal(t('resign'), h('p', t('confirmResign')), [
        { label: t('cancel'), value: false, testid: 'confirm-no' },
        { label: t('resign'), value: true, primary: true, testid: 'confirm-yes' },
      ]);
    }
    if (kind === 'rematch') {
      return modal(t('rematchTitle'), h('p', t(data.fresh ? 'rematchFreshHelp' : 'rematchHelp')),
        data.fresh ? [
          { label: t('cancel'), value: null, testid: 'confirm-no' },
          { label: t('newSetup'), value: 'new', primary: true, testid: 'rematch-new' },
        ] : [
          { label: t('cancel'), value: null, testid: 'confirm-no' },
          { label: t('newSetup'), value: 'new', testid: 'rematch-new' },
          { label: t('sameSetup'), value: 'same', primary: true, testid: 'rematch-same' },
        ]);
    }
    if (kind === 'promotion') {
      // On the promotion square, not a centred dialog (issue 37; promotion.js).
      const { width, height } = ground.state.dimensions;
      return pickPromotion(boardWrap, { ...data, width, height, orientation: ground.state.orientation });
    }
    if (kind === 'gate') {
      // Over the square the move leaves, like the promotion picker (PM-CRC's queen).
      const { width, height } = ground.state.dimensions;
      return pickGate(boardWrap, { ...data, width, height, orientation: ground.state.orientation });
    }
    if (kind === 'adjust') {
      const a = data.adjustment;
      const partner = t(`piece.${a.role}`).toLowerCase();
      const san = `${localizeLetters('B')}=${localizeLetters(a.role.toUpperCase())}`;
      return modal(t('adjust'), h('div',
        h('p.preview', { 'data-testid': 'adjust-preview' },
          t('adjustPreview', { san, from: a.bishop, to: a.partner, partner })),
        h('p.why', t('adjustWhy'))), [
        { label: t('cancel'), value: false, testid: 'confirm-no' },
        { label: t('confirm'), value: true, primary: true, testid: 'confirm-yes' },
      ]);
    }
    return Promise.resolve(null);
  }

  // ------------------------------------------------------------------ keys
  const onKey = ev => {
    if (ev.target.closest && ev.target.closest('input, textarea, select, [role=dialog]')) return;
    // Typing a move anywhere on the page starts keyboard move entry.
    if (ev.key.length === 1 && /[a-pA-Z0-9]/.test(ev.key) && !ev.ctrlKey && !ev.metaKey &&
        !ev.altKey && !sanForm.hidden) {
      sanIn.focus();
      return;
    }
    const where = keyToNav(ev.key);
    if (!where || !ctrl.state) return;
    ev.preventDefault();
    ctrl.navigate(where);
  };
  document.addEventListener('keydown', onKey);
  // The mouse wheel over the board steps through the moves (issue 37), as on lichess: up
  // goes back. A touchpad sends many small deltas: they add up to one step per 40 px.
  let wheelSum = 0;
  boardEl.addEventListener('wheel', ev => {
    if (!ctrl.state || ev.ctrlKey) return;
    ev.preventDefault();
    wheelSum += ev.deltaY;
    if (Math.abs(wheelSum) < 40) return;
    ctrl.navigate(wheelSum < 0 ? 'prev' : 'next');
    wheelSum = 0;
  }, { passive: false });

  return {
    boardEl,
    attach(b) {
      board = b;
      ground = b.ground;
    },
    redraw,
    tick,
    ask,
    destroy() {
      clearInterval(ticker);
      document.removeEventListener('keydown', onKey);
      if (!torn && board) board.destroy();
    },
  };
}
