// The event page (#/tournament/<id>, issues 15, 29-31, 34, 37): commitment, pairings with the
// round's setup diagram, standings, links to the online games, the live boards; the staff's
// controls for its organiser and co-arbiters (their accounts) and for whoever holds the
// secret. The view only: what the page asks, decides and keeps is the controller's (ctrl.js,
// createEventCtrl and the functions beside it); this file draws it, refreshes every 5 s and
// owns the timers and the live boards' socket.

import { h, clear, copyText } from '../dom.js';
import { lang } from '../i18n.js';
import { variantName } from '../variants.js';
import { diagram } from '../diagram.js';
import { followLive } from './live.js';
import { bracketView } from './bracket.js';
import {
  GAME_RESULTS, RESULTS, arbiterColumn, createEventCtrl, eventPath, figureBoard, movesText, opensText,
  pageParts, playerLine, playerName, resultEntry, resultLabel, revealedText, shownLinks, staffActions,
  staffText, tt,
} from './ctrl.js';
import { draft, draftSelect, field, focusOf, giveFocusBack, missing, section, tickLine } from './common.js';

function setupFigure(ev, round) {
  const b = figureBoard(round);
  if (!b) return null;
  if (round.awaits_reveal) return h('p.awaits-reveal', { 'data-testid': 't-awaits-reveal' }, tt('awaitsReveal', { round: round.round }));
  if (!b.fen) return null;
  const l = lang();
  // Drawn with the app's piece set (issue 37: the server's SVG for print letters its pieces).
  return h('figure.setup',
    h('div.t-diagram', { 'data-testid': 't-diagram', title: `${tt('setup')} ${b.setup ?? ''}` },
      diagram(b.fen.split(' ')[0])),
    h('figcaption', b.setup != null ? `${tt('setup')} ${b.setup}: ${b.rank[l] || b.rank.en}` : ''));
}

function resultCell(ev, round, b, ctrl) {
  const { ui } = ctrl.state;
  const key = `${ev.id}:${round.round}:${b.board}`;
  const sel = h('select', { 'aria-label': tt('result'), 'data-testid': `t-select-${round.round}-${b.board}` },
    RESULTS.map(v => h('option', { value: v }, v)));
  if (ui.chosen.has(key)) sel.value = ui.chosen.get(key);
  sel.addEventListener('change', () => (sel.value ? ui.chosen.set(key, sel.value) : ui.chosen.delete(key)));
  const button = h('button', { type: 'button', 'data-testid': `t-enter-${round.round}-${b.board}` }, b.result ? tt('correct') : tt('enter'));
  button.addEventListener('click', async () => {
    if (!sel.value) return;
    let why = null;
    if (b.result) { // a correction says why
      why = prompt(tt('reason'));
      if (!why) return;
    }
    await ctrl.enterResult(round.round, b.board, sel.value, why, key);
  });
  return h('td.arbiter', sel, ' ', button);
}

function pairingTable(ev, round, rights, ctrl) {
  // The arbiter's column (result menus) is a column of the table, headed, on every row.
  const arbiter = arbiterColumn(ev, rights);
  const rows = round.boards.map(b => {
    const cells = [
      h('td', String(b.board)), h('td', playerName(ev, b.white)),
      h('td', b.black ? playerName(ev, b.black) : ''), h('td', { 'data-testid': `t-result-${round.round}-${b.board}` }, resultLabel(b)),
      h('td', b.setup != null ? String(b.setup) : (!b.bye && b.fen === '' ? tt('toReveal') : '')),
      h('td', b.game_id ? h('a', { href: `#/game/${encodeURIComponent(b.game_id)}` }, tt('watch')) : ''),
    ];
    if (resultEntry(ev, rights, b)) cells.push(resultCell(ev, round, b, ctrl));
    else if (arbiter) cells.push(h('td.arbiter'));
    return h('tr', cells);
  });
  return h('table.pairings', { 'data-testid': `t-round-${round.round}` },
    h('caption', `${tt('round')} ${round.round}`),
    h('thead', h('tr', [tt('board'), tt('white'), tt('black'), tt('result'), tt('setup'), '',
      ...(arbiter ? [tt('arbiterColumn')] : [])].map(x => h('th', x)))),
    h('tbody', rows));
}

function standingsTable(ev) {
  const l = lang();
  const codes = ev.tiebreaks.map(x => x.code);
  return h('table.standings', { 'data-testid': 't-standings' },
    h('caption', `${tt('standings')} ${ev.completed_rounds}`),
    h('thead', h('tr', [tt('rank'), tt('name'), tt('points'), ...codes].map(x => h('th', x)))),
    h('tbody', ev.standings.map(s => h('tr',
      h('td', `${s.rank}${s.shared ? '=' : ''}`), h('td', s.name), h('td', String(s.points)),
      codes.map(c => h('td', { title: `${ev.tiebreaks.find(x => x.code === c)[l]}: ${s.tiebreaks[c].arithmetic}` }, s.tiebreaks[c].text)))),
    ));
}

/** The organiser's scoresheet entry for round `round` (checked move by move by the server). */
function gameEntry(round, ctrl) {
  const d = ctrl.sheet();
  const board = h('input', { type: 'number', min: 1, size: 4, value: d.board, 'data-testid': 't-game-board' });
  const sheet = h('textarea', { rows: 4, placeholder: tt('scoresheetHint'), 'data-testid': 't-game-text',
    'aria-label': tt('scoresheet'), 'data-key': 'game-text' });
  sheet.value = d.text;
  const res = h('select', { 'data-testid': 't-game-result', 'aria-label': tt('result') },
    GAME_RESULTS.map(v => h('option', { value: v }, v || '*')));
  res.value = d.result;
  const replace = h('input', { type: 'checkbox', 'data-testid': 't-game-replace' });
  replace.checked = d.replace;
  const typed = () => ({ board: board.value, text: sheet.value, result: res.value, replace: replace.checked });
  const keep = () => ctrl.keepSheet(typed());
  for (const x of [board, sheet, res, replace]) { x.addEventListener('input', keep); x.addEventListener('change', keep); }
  const enter = h('button.primary', { type: 'button', 'data-testid': 't-game-enter' }, tt('storeGame'));
  enter.addEventListener('click', () => ctrl.storeGame(round, typed()));
  return h('div.game-entry', h('h3', `${tt('enterGame')} · ${tt('round')} ${round}`),
    h('p', field(tt('board'), board), ' ', field(tt('result'), res), ' ',
      h('label', replace, ` ${tt('replaceGame')}`)), sheet, h('p', enter));
}

function playersControls(ctrl) {
  const { ui } = ctrl.state;
  const name = draft(ui, 'player-name', { placeholder: tt('name'), 'data-testid': 't-player-name' });
  const rating = draft(ui, 'player-rating', { type: 'number', placeholder: tt('rating'), 'data-testid': 't-player-rating' });
  const fed = draft(ui, 'player-fed', { placeholder: tt('federation'), size: 4, 'data-testid': 't-player-fed' });
  const add = h('button', { type: 'button', 'data-testid': 't-add' }, tt('addPlayer'));
  add.addEventListener('click', () => ctrl.addPlayer({ name: name.value, rating: rating.value, federation: fed.value }));
  return h('p', name, ' ', rating, ' ', fed, ' ', add);
}

function byeControls(ev, ctrl) {
  const { ui } = ctrl.state;
  const who = draft(ui, 'who', { type: 'number', min: 1, placeholder: tt('player'), 'data-testid': 't-who', size: 6 });
  const rnd = draft(ui, 'bye-round', { type: 'number', min: 1, max: ev.rounds || 99, placeholder: tt('round'), size: 5 });
  const kind = draftSelect(ui, 'bye-kind', {}, ['H', 'Z', 'F'].map(k => h('option', { value: k }, k)));
  const bye = h('button', { type: 'button', 'data-testid': 't-bye' }, tt('requestBye'));
  bye.addEventListener('click', () => ctrl.bye(who.value, rnd.value, kind.value));
  const out = h('button', { type: 'button', 'data-testid': 't-withdraw' }, tt('withdraw'));
  out.addEventListener('click', () => ctrl.withdraw(who.value));
  return h('p', who, ' ', out, ' · ', rnd, ' ', kind, ' ', bye);
}

/** The co-arbiters, added and removed by account name (the organiser only). */
function arbitersSection(staff, ctrl) {
  const { ui } = ctrl.state;
  const name = draft(ui, 'arbiter-name', { placeholder: tt('arbiterName'), 'data-testid': 't-arbiter-name', size: 20 });
  const add = h('button', { type: 'button', 'data-testid': 't-add-arbiter' }, tt('addArbiter'));
  add.addEventListener('click', () => ctrl.addArbiter(name.value));
  const list = h('ul', { 'data-testid': 't-arbiter-list' }, staff.arbiters.map(a => {
    const remove = h('button', { type: 'button', 'data-testid': `t-remove-arbiter-${a}` }, tt('removeArbiter'));
    remove.addEventListener('click', () => ctrl.removeArbiter(a));
    return h('li', a, ' ', remove);
  }));
  return section(ui, 'arbiters', `${tt('arbiters')} (${staff.arbiters.length})`, list, h('p', name, ' ', add));
}

/** Issue 30: the digits drawn in the hall, typed by the arbiter in front of the players; the
 *  server opens the round's games itself when the preparation ends. */
function revealControls(round, ctrl) {
  const { ui } = ctrl.state;
  const digits = draft(ui, 'reveal-digits', { inputmode: 'numeric', 'aria-label': tt('revealDigits'),
    placeholder: tt('revealDigits'), size: 24, 'data-testid': 't-reveal-input' });
  const reveal = h('button.primary', { type: 'button', 'data-testid': 't-reveal' }, tt('reveal'));
  const online = h('input', { type: 'checkbox', 'data-testid': 't-reveal-online', checked: ui.drafts['reveal-online'] === true });
  online.addEventListener('change', () => { ui.drafts['reveal-online'] = online.checked; });
  reveal.addEventListener('click', () => ctrl.reveal(round, digits.value, online.checked));
  return h('p', digits, ' ', reveal, ' ', h('label', online, ` ${tt('revealOnline')}`));
}

function organiserPanel(ev, rights, staff, ctrl) {
  const may = staffActions(ev, rights);
  const panel = h('section.organiser', { 'data-testid': 't-organiser' }, h('h2', tt('organiser')),
    h('p.hint', { 'data-testid': 't-role' }, rights.role === 'organiser' ? tt('youOrganise') : tt('youArbitrate')));
  if (may.players) panel.append(playersControls(ctrl));
  if (may.byes) panel.append(byeControls(ev, ctrl));
  const buttons = h('p');
  const button = (label, testid, fn) => {
    const b = h('button.primary', { type: 'button', 'data-testid': testid }, label);
    b.addEventListener('click', fn);
    buttons.append(b, ' ');
  };
  if (may.start) button(tt('start'), 't-start', ctrl.start);
  if (may.reveal !== null) panel.append(revealControls(may.reveal, ctrl));
  if (may.pair) button(tt('pair'), 't-pair', ctrl.pair);
  if (may.online) {
    // Rated (issue 18): each game is rated once both players claim their seats with accounts.
    const rated = h('input', { type: 'checkbox', 'data-testid': 't-online-rated' });
    button(tt('online'), 't-online', () => ctrl.online(ev.paired_rounds, rated.checked));
    buttons.append(h('label', rated, ` ${tt('ratedRound')}`), ' ');
  }
  if (may.close) button(tt('close'), 't-close', ctrl.close);
  else if (may.closeEarly) {
    const reason = draft(ctrl.state.ui, 'early-reason', { placeholder: tt('earlyReason'), size: 28, 'data-testid': 't-early-reason' });
    button(tt('closeEarly'), 't-close-early', () => ctrl.closeEarly(reason.value));
    buttons.append(reason, ' ');
  }
  panel.append(buttons);
  if (may.gameEntry !== null) panel.append(gameEntry(may.gameEntry, ctrl));
  if (may.arbiters) panel.append(arbitersSection(staff, ctrl));
  return panel;
}

/** For a browser without rights: paste the organiser secret kept at the creation. */
function secretEntry(ctrl) {
  const { ui } = ctrl.state;
  const input = draft(ui, 'secret', { type: 'password', size: 36, 'data-testid': 't-secret-input', autocomplete: 'off' });
  const use = h('button', { type: 'button', 'data-testid': 't-use-secret' }, tt('useSecret'));
  use.addEventListener('click', () => ctrl.useSecret(input.value.trim()));
  return section(ui, 'secret', tt('haveSecret'), h('p', input, ' ', use));
}

/** The players' personal links (rounds: OnlineOut answers), shown once, a copy button each. */
function linksList(ev, rounds) {
  const full = link => (link.startsWith('/') ? location.origin + link : link);
  const item = (g, side) => {
    const url = full(g[side].link);
    const said = h('span.hint', { role: 'status' });
    const copy = h('button', { type: 'button', 'data-testid': `t-copy-${g.board}-${side}` }, tt('copyLink'));
    copy.addEventListener('click', async () => {
      said.textContent = (await copyText(url)) ? tt('linkCopied') : tt('linkCopyFailed');
    });
    return h('li', `${tt('board')} ${g.board}, ${tt(side)} ${playerName(ev, g[side].number)}: `,
      h('a', { href: g[side].link, 'data-testid': `t-link-${g.board}-${side}` }, url), ' ', copy, ' ', said);
  };
  return h('section.links', { 'data-testid': 't-links' }, h('p.hint', tt('linksOnce')),
    rounds.map(o => h('div', { 'data-testid': `t-links-${o.round}` }, h('h3', `${tt('round')} ${o.round}: ${tt('links')}`),
      h('ul', o.games.flatMap(g => [item(g, 'white'), item(g, 'black')])))));
}

function facts(ev, staff) {
  const last = ev.round_list[ev.round_list.length - 1];
  return [
    h('h1', { 'data-testid': 't-title' }, ev.name),
    h('p', `${tt('variant')}: ${variantName(ev.variant)} · ${tt('system')}: ${tt(ev.system)} · ${tt('rounds')}: ${ev.rounds} · ${tt('status')}: `,
      h('strong', { 'data-testid': 't-status' }, tt(ev.status))),
    staff ? h('p', { 'data-testid': 't-staff' }, staffText(staff)) : null,
    h('p', `${tt('commitment')}: `, h('code', { 'data-testid': 't-commitment' }, ev.commitment)),
    ev.eval_band !== null && ev.eval_band !== undefined ? h('p', { 'data-testid': 't-eval-band-shown' },
      tt('evalBandShown', { band: ev.eval_band, digest: String(ev.eval_digest).slice(0, 12) })) : null,
    ev.salt ? h('p', `${tt('salt')}: `, h('code', { 'data-testid': 't-salt' }, ev.salt)) : null,
    ev.excluded && ev.excluded.length ? h('p', tt('excludedShown', { list: ev.excluded.join(', ') })) : null,
    ev.shortlist ? h('p', tt('shortlistShown', { list: ev.shortlist.join(', ') })) : null,
    last && last.reveal ? h('p', { 'data-testid': 't-revealed' }, revealedText(last.reveal)) : null,
    // The server opens the round's games itself when the preparation ends (issue 30).
    last && last.opens_at ? h('p.opens', { 'data-testid': 't-opens', 'data-ends': String(last.opens_at) }) : null,
  ];
}

/** The event page's view: a function of the event, the rights and the controller's state. */
function eventView(ev, rights, staff, ctrl, bracket, links) {
  const id = ev.id;
  const { ui } = ctrl.state;
  const parts = pageParts(ev, rights, bracket);
  const last = parts.round;
  // A knock-out's links go once their game is played or their match decided (issue 34).
  const shown = shownLinks(links, bracket);
  return [
    ...facts(ev, staff),
    ui.flash ? h('p.error', { role: 'alert', 'data-testid': 't-flash' }, ui.flash) : null,
    parts.panel ? organiserPanel(ev, rights, staff, ctrl) : null,
    parts.secretEntry ? secretEntry(ctrl) : null,
    shown ? linksList(ev, shown) : null,
    parts.bracket ? bracketView(ev, bracket, rights.can ? rights.secret || true : null, ui,
      ctrl.bracketStep) : null,
    last ? h('section.round', setupFigure(ev, last), pairingTable(ev, last, rights, ctrl),
      h('p', h('a', { href: `#/tournament/${encodeURIComponent(id)}/hall` }, tt('hall'))))
      : parts.noRound ? h('p', tt('noRound')) : null,
    parts.live !== null ? h('section.live', { 'data-testid': 't-live', 'data-round': String(parts.live) }) : null,
    parts.standings ? standingsTable(ev) : null,
    section(ui, 'players', `${tt('players')} (${ev.players.length})`,
      h('ol', { 'data-testid': 't-players' }, ev.players.map(p => h('li', playerLine(p))))),
    parts.earlier ? section(ui, 'earlier', `${tt('round')} 1–${ev.round_list.length - 1}`,
      ev.round_list.slice(0, -1).reverse().map(r => pairingTable(ev, r, rights, ctrl))) : null,
    h('p', `${tt('exports')}: `, parts.exports.flatMap(f => [
      h('a', { href: `${eventPath(id)}/export.${f}?lang=${lang()}`, download: `${id}.${f}` }, f.toUpperCase()), ' ']),
      h('a', { href: `${eventPath(id)}/export.bulletin?lang=${lang()}`, download: `${id}-bulletin.html`, 'data-testid': 't-bulletin' }, tt('bulletin'))),
    parts.verify ? h('p', h('a', { href: `#/tournament/${encodeURIComponent(id)}/verify`, 'data-testid': 't-verify' }, tt('verify'))) : null,
  ].filter(Boolean);
}

/** The event page's line "the games open in m:ss" (issue 30), from its data-ends. */
const tickOpens = main => tickLine(main, 't-opens', opensText);

/** Fill the page's live section with `out`, GET .../rounds/{r}/live's answer (pushed). */
function drawLive(main, out) {
  const box = main.querySelector('[data-testid=t-live]');
  if (!box || Number(box.dataset.round) !== out.round) return;
  clear(box).append(h('h3', tt('live')), ...out.boards.map(b => h('div.live-board', { 'data-testid': `t-live-${b.board}` },
    h('strong', `${tt('board')} ${b.board}: ${b.white} – ${b.black}`), b.result ? ` ${b.result}` : '',
    h('p.live-moves', { 'data-testid': `t-live-moves-${b.board}` }, b.san.length ? movesText(b.san) : tt('noMovesYet')))));
}

/** The event page of `id`; deps {api, storage, limits} go to the controller. */
export function renderEvent(main, id, deps) {
  let opening = null;
  let lastLive = null;
  let live = null;
  const refresh = async (out, auto = false) => {
    const got = await ctrl.load(out, { auto, busy: () => !!main.querySelector('select:focus, textarea:focus') });
    if (got.error) {
      clear(main).append(got.error.missing ? missing(id) : h('p.error', `${tt('error')}: ${got.error.message}`));
      return;
    }
    if (!got.draw) return;
    const { ev, staff, bracket, rights, links } = got.draw;
    const current = ev.round_list[ev.round_list.length - 1];
    // Draw again just after the games open, not up to 5 s later.
    clearTimeout(opening);
    if (current && current.opens_at) {
      opening = setTimeout(() => refresh(undefined, true), Math.max(0, current.opens_at - Date.now()) + 400);
    }
    const focus = focusOf(main);
    clear(main).append(...eventView(ev, rights, staff, ctrl, bracket, links));
    giveFocusBack(main, focus);
    tickOpens(main);
    ctrl.state.ui.refreshes += 1;
    main.dataset.refreshes = String(ctrl.state.ui.refreshes); // the browser tests wait on it
    const box = main.querySelector('[data-testid=t-live]');
    live.follow(box ? Number(box.dataset.round) : null);
    if (box && lastLive && lastLive.round === Number(box.dataset.round)) drawLive(main, lastLive);
  };
  const ctrl = createEventCtrl(id, { ...deps, redraw: refresh });
  // The round's boards as moves arrive (issue 31): pushed over a WebSocket, this section only.
  live = followLive(id, {
    onLive: out => { lastLive = out; drawLive(main, out); },
    poll: r => deps.api.live(id, r),
  });
  refresh();
  const timer = setInterval(() => { if (!document.hidden) refresh(undefined, true); }, 5000);
  // The hall's countdown (issue 30) ticks every half second; the live boards are pushed.
  const ticker = setInterval(() => { if (!document.hidden) tickOpens(main); }, 500);
  return { destroy: () => { clearInterval(timer); clearInterval(ticker); live.destroy(); clearTimeout(opening); } };
}
