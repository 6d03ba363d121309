// Tournament pages (issues 15 and 30), English and Spanish:
//   #/tournaments                         the list of events (upcoming, running, finished)
//   #/tournament/new                      create an event: owned by the signed-in account, or
//                                         run with an organiser secret shown once
//   #/tournament/<id>                     public page: commitment, pairings with the round's setup
//                                         diagram, standings, links to the online games; the
//                                         organiser's controls for its organiser and co-arbiters
//                                         (their accounts) and for whoever holds the secret
//   #/tournament/<id>/hall                projector view of the current round's setup
//   #/tournament/<id>/verify              the verification, in words
//   #/tournament/<id>/seat/<game>/<token> a player's personal link (White): keep the seat, play
//   #/tournament/<id>/join/<game>/<code>  Black's link to a hall round's game (tournament/seat.js)

import { h, clear, copyText } from './dom.js';
import { lang, t } from './i18n.js';
import { allVariants, variantName } from './variants.js';
import { checkValue, explainInvalid, formLimits } from './limits.js';
import { isNumbered } from './setups.js';
import { request } from './api.js';
import { currentUser } from './account/ctrl.js';
import { renderEventList } from './tournament/list.js';
import { renderVerify } from './tournament/verify.js';
import { renderSeatLink } from './tournament/seat.js';
import { followLive } from './tournament/live.js';
import { bracketView, liveLinks } from './bracket.js';
import { diagram } from './diagram.js';
import { briefBox } from './setup_brief.js';
import './tournament.css';

const tt = (key, vars = {}) => t(`tournament.${key}`, vars);
const secretKey = id => `rc-tournament-${id}`;
const api = id => `/api/tournaments/${encodeURIComponent(id)}`;

const call = (method, path, body, secret) =>
  request(method, path, body, secret ? { 'X-Organiser-Secret': secret } : {});

// The limits of the event's and the player's fields: the server's models (GET /openapi.json).
let createLimits = {};
let playerLimits = {};
let loadingLimits = null;
// Fetched when a tournament page first needs them, not when the bundle loads.
const limitsReady = () => {
  if (!loadingLimits) {
    loadingLimits = Promise.all([
      formLimits('POST', '/api/tournaments').then(l => { createLimits = l; }),
      formLimits('POST', '/api/tournaments/{event_id}/players').then(l => { playerLimits = l; }),
    ]);
  }
  return loadingLimits;
};
const createLabels = () => ({ name: tt('name'), rounds: tt('rounds'), time_control: tt('timeControl'),
  eval_band: tt('evalBand'), tiebreaks: tt('tiebreaks'), preview: tt('preview') });
const playerLabels = () => ({ name: tt('name'), rating: tt('rating'), federation: tt('federation') });

/** The first field of `values` ({field: text}) outside its limits, explained; or null. */
function firstProblem(values, lims, labels) {
  for (const [name, value] of Object.entries(values)) {
    const problem = checkValue(value, lims[name], labels[name]);
    if (problem) return problem;
  }
  return null;
}

/** A refusal as the page says it: a field outside its limits explained, else the reason. */
const refusalText = (e, labels, lims) => explainInvalid(e, labels, lims) || `${tt('error')}: ${e.message}`;

function field(label, input) {
  return h('label.field', h('span', label), input);
}

function renderNew(main, go) {
  const name = h('input', { name: 'name', 'data-testid': 't-name' });
  // Variants a tournament can use (GET /api/variants): numbered setups, drawn per round, or
  // one fixed start position.
  const variant = h('select', { name: 'variant' }, allVariants()
    .filter(v => isNumbered(v) || !v.setup.random)
    .map(v => h('option', { value: v.key, selected: v.key === 'chess960' }, variantName(v.key))));
  const system = h('select', { name: 'system', 'data-testid': 't-system' },
    ['swiss', 'rr', 'drr', 'knockout'].map(v => h('option', { value: v }, tt(v))));
  const ko = knockoutFields();
  const rounds = h('input', { name: 'rounds', type: 'number', value: 5 });
  const tc = h('input', { name: 'time_control', placeholder: '5400+30' });
  const policy = h('select', { name: 'setup_policy' }, h('option', { value: 'round' }, tt('perRound')), h('option', { value: 'board' }, tt('perBoard')));
  const tiebreaks = h('input', { name: 'tiebreaks', placeholder: 'BH-C1,BH,SB,PS,DE,WIN' });
  const bishops = h('select', { name: 'bishops' }, ['any', 'same', 'opposite'].map(v => h('option', { value: v }, tt(`bishops.${v}`))));
  const initial = h('select', { name: 'initial_colour' }, ['white', 'black'].map(v => h('option', { value: v }, tt(v))));
  const box = n => h('input', { type: 'checkbox', name: n });
  const mini = box('mini_match'), excl = box('exclude_standard'), norep = box('no_repeat');
  const band = h('input', { name: 'eval_band', type: 'number', step: 0.05,
    placeholder: '0.3', 'data-testid': 't-eval-band' });
  // Issue 30: setups revealed in the hall, the organiser's exclusions and shortlist, and the
  // preparation window after a reveal.
  const source = h('select', { name: 'setup_source', 'data-testid': 't-source' },
    ['salt', 'hall'].map(v => h('option', { value: v }, tt(`source.${v}`))));
  const excluded = h('input', { name: 'excluded', placeholder: 'standard, 0, 959', 'data-testid': 't-excluded' });
  const shortlist = h('input', { name: 'shortlist', placeholder: '12, 300, 700', 'data-testid': 't-shortlist' });
  const prep = h('select', { name: 'prep_minutes', 'data-testid': 't-prep' },
    [0, 5, 10, 15].map(n => h('option', { value: n }, n ? tt('prepMinutes', { n }) : tt('prepNone'))));
  // Issue 32: the setup preview's countdown of the event's online games (empty: by speed).
  const preview = h('input', { name: 'preview', type: 'number', min: 0, max: 600,
    placeholder: tt('previewDefault'), 'data-testid': 't-preview' });
  const previewValue = () => (preview.value.trim() === '' ? null : Number(preview.value));
  const error = h('p.error', { role: 'alert' });
  // Whose the event will be (issue 30): the signed-in account, or a secret shown once.
  const owner = h('p.hint', { 'data-testid': 't-owner-hint' });
  currentUser().then(user => {
    owner.textContent = user ? tt('signedInHint', { name: user.name }) : tt('anonymousHint');
  }, () => { owner.textContent = tt('anonymousHint'); });
  const form = h('form.tournament-new', { novalidate: true },
    h('h1', tt('newEvent')), owner,
    field(tt('name'), name), field(tt('variant'), variant), field(tt('system'), system),
    field(tt('rounds'), rounds), field(tt('timeControl'), tc), field(tt('setups'), policy),
    field(tt('tiebreaks'), tiebreaks), field(tt('bishopsLabel'), bishops), field(tt('initial'), initial),
    field(tt('evalBand'), band), field(tt('setupSource'), source),
    field(tt('excludedList'), excluded), field(tt('shortlist'), shortlist), field(tt('prep'), prep),
    field(tt('preview'), preview),
    h('label', mini, ' ', tt('miniMatch')), h('label', excl, ' ', tt('excludeStandard')),
    h('label', norep, ' ', tt('noRepeat')), ko.box,
    h('p', h('button.primary', { type: 'submit', 'data-testid': 't-create' }, tt('create'))), error);
  // A knock-out (issue 34) has matches instead of rounds: its own fields, not the rounds'.
  const roundOnly = [rounds, policy, tiebreaks, mini, band, source, excluded, shortlist, prep];
  system.addEventListener('change', () => {
    const knockout = system.value === 'knockout';
    rounds.disabled = system.value !== 'swiss';
    for (const x of roundOnly) if (x !== rounds) x.disabled = knockout;
    ko.box.hidden = !knockout;
  });
  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    await limitsReady();
    const problem = firstProblem({ name: name.value, time_control: tc.value, eval_band: band.value,
      preview: preview.value, ...(system.value === 'swiss' ? { rounds: rounds.value } : {}) }, createLimits, createLabels());
    if (problem) {
      error.textContent = problem;
      return;
    }
    try {
      const out = system.value === 'knockout' ? await call('POST', '/api/tournaments/knockout', {
        name: name.value, variant: variant.value, time_control: tc.value, ...ko.body(),
        exclude_standard: excl.checked, no_repeat: norep.checked, bishops: bishops.value,
        initial_colour: initial.value, preview: previewValue(),
      }) : await call('POST', '/api/tournaments', {
        name: name.value, variant: variant.value, system: system.value,
        rounds: system.value === 'swiss' ? Number(rounds.value) : null,
        time_control: tc.value, setup_policy: policy.value, mini_match: mini.checked,
        exclude_standard: excl.checked, no_repeat: norep.checked, bishops: bishops.value,
        initial_colour: initial.value,
        eval_band: band.value.trim() === '' ? null : Number(band.value),
        setup_source: source.value, excluded: excluded.value,
        shortlist: shortlist.value.trim() === '' ? null : shortlist.value,
        prep_minutes: Number(prep.value), preview: previewValue(),
        tiebreaks: tiebreaks.value.trim() ? tiebreaks.value.split(',').map(x => x.trim()).filter(Boolean) : null,
      });
      localStorage.setItem(secretKey(out.id), out.organiser_secret);
      if (out.organiser) go(`/tournament/${out.id}`);
      else clear(main).append(secretShown(out, go));
    } catch (e) {
      error.textContent = refusalText(e, createLabels(), createLimits);
    }
  });
  main.append(form);
}

/** The knock-out's own settings on the creation form (issue 34): games per match, the
 * tie-break stages, the Armageddon, one setup per stage or per pair of games, the seeding. */
function knockoutFields() {
  const games = h('input', { type: 'number', min: 1, max: 20, value: 2, 'data-testid': 't-ko-games' });
  const stages = h('input', { placeholder: '2:600+5; 2:300+3', size: 24, 'data-testid': 't-ko-stages' });
  const armageddon = h('input', { value: 'bid:300+2', size: 18, 'data-testid': 't-ko-armageddon' });
  const setups = h('select', { 'data-testid': 't-ko-setups' },
    ['match', 'pair'].map(v => h('option', { value: v }, tt(`koSetups.${v}`))));
  const seeding = h('select', { 'data-testid': 't-ko-seeding' },
    ['rating', 'entered'].map(v => h('option', { value: v }, tt(`koSeeding.${v}`))));
  const box = h('fieldset.knockout', { hidden: true, 'data-testid': 't-ko-fields' },
    h('legend', tt('knockout')), field(tt('koGamesField'), games), field(tt('koStagesField'), stages),
    field(tt('koArmageddonField'), armageddon), field(tt('koSetupsField'), setups),
    field(tt('koSeedingField'), seeding));
  const body = () => ({
    games: Number(games.value), armageddon: armageddon.value.trim(),
    tiebreaks: stages.value.split(';').map(x => x.trim()).filter(Boolean),
    match_setups: setups.value, seeding: seeding.value,
  });
  return { box, body };
}

/** An event made without an account: its organiser secret, shown once, with a copy button
 * and the warning that it is the only way to run the event from another browser. */
function secretShown(out, go) {
  const code = h('input', { readonly: true, value: out.organiser_secret, size: 40, 'data-testid': 't-secret' });
  const said = h('p.hint', { role: 'status', 'data-testid': 't-copied' });
  const copy = h('button', { type: 'button', 'data-testid': 't-copy-secret' }, tt('copySecret'));
  copy.addEventListener('click', async () => {
    said.textContent = (await copyText(out.organiser_secret, code)) ? tt('copied') : tt('copyFailed');
  });
  const onward = h('button.primary', { type: 'button', 'data-testid': 't-to-event' }, tt('toEvent'));
  onward.addEventListener('click', () => go(`/tournament/${out.id}`));
  return h('section.secret-once', { 'data-testid': 't-secret-box' },
    h('h1', tt('secretTitle')),
    h('p.warning', { role: 'alert' }, tt('secretWarning')),
    h('p', code, ' ', copy), said,
    h('p', `${tt('commitment')}: `, h('code', out.commitment)),
    h('p', onward));
}

function resultLabel(b) {
  // TRF's letters in words (issue 37): U is the pairing's bye, H/F/Z the ones asked for.
  if (b.bye) return ['H', 'F', 'Z'].includes(b.bye) ? tt(`bye${b.bye}`) : tt('bye');
  return b.result || '';
}

function playerName(ev, n) {
  const p = ev.players.find(x => x.number === n);
  return p ? `${p.name} (${n})` : String(n);
}

function setupFigure(ev, round, board = 1) {
  const b = round.boards.find(x => x.board === board && !x.bye);
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

// What the organiser opened and typed on an event page, by key: every redraw (the page
// refreshes itself every 5 s, and after each step) draws from it, so a refresh neither closes
// a section nor loses a half-typed field (issue 30).  `chosen`: results chosen in a board's
// menu but not entered yet.
function newUi() {
  return { open: {}, drafts: {}, chosen: new Map(), flash: null, refreshes: 0 };
}

/** An input whose text is ui.drafts[key]. */
function draft(ui, key, attrs = {}) {
  const el = h('input', { ...attrs, 'data-key': key, value: ui.drafts[key] ?? '' });
  el.addEventListener('input', () => { ui.drafts[key] = el.value; });
  return el;
}

/** A menu whose choice is ui.drafts[key] (else its first option). */
function draftSelect(ui, key, attrs, options) {
  const el = h('select', { ...attrs, 'data-key': key }, options);
  if (ui.drafts[key] !== undefined) el.value = ui.drafts[key];
  el.addEventListener('change', () => { ui.drafts[key] = el.value; });
  return el;
}

/** A <details> section whose open state is ui.open[key]. */
function section(ui, key, summary, ...body) {
  const el = h('details', { 'data-key': key, 'data-testid': `t-section-${key}`, open: !!ui.open[key] },
    h('summary', summary), ...body);
  el.addEventListener('toggle', () => { ui.open[key] = el.open; });
  return el;
}

/** The field that has the focus (its key and caret), to give it back after a redraw. */
function focusOf(main) {
  const el = document.activeElement;
  if (!el || !main.contains(el) || !el.dataset.key) return null;
  let caret = null;
  try { caret = [el.selectionStart, el.selectionEnd]; } catch { caret = null; }
  return { key: el.dataset.key, caret };
}

function giveFocusBack(main, focus) {
  if (!focus) return;
  const el = main.querySelector(`[data-key="${focus.key}"]`);
  if (!el) return;
  el.focus();
  if (focus.caret && focus.caret[0] !== null) {
    try { el.setSelectionRange(focus.caret[0], focus.caret[1]); } catch { /* not a text field */ }
  }
}

function pairingTable(ev, round, rights, ui, refresh) {
  // The arbiter's column (result menus) is a column of the table, headed, on every row.
  const arbiter = rights.can && ev.status !== 'closed';
  const rows = round.boards.map(b => {
    const cells = [
      h('td', String(b.board)), h('td', playerName(ev, b.white)),
      h('td', b.black ? playerName(ev, b.black) : ''), h('td', { 'data-testid': `t-result-${round.round}-${b.board}` }, resultLabel(b)),
      h('td', b.setup != null ? String(b.setup) : (!b.bye && b.fen === '' ? tt('toReveal') : '')),
      h('td', b.game_id ? h('a', { href: `#/game/${encodeURIComponent(b.game_id)}` }, tt('watch')) : ''),
    ];
    if (rights.can && !b.bye && ev.status !== 'closed') {
      const key = `${ev.id}:${round.round}:${b.board}`;
      const sel = h('select', { 'aria-label': tt('result'), 'data-testid': `t-select-${round.round}-${b.board}` },
        ['', '1-0', '0-1', '1/2', '+-', '-+', '--'].map(v => h('option', { value: v }, v)));
      if (ui.chosen.has(key)) sel.value = ui.chosen.get(key);
      sel.addEventListener('change', () => (sel.value ? ui.chosen.set(key, sel.value) : ui.chosen.delete(key)));
      const button = h('button', { type: 'button', 'data-testid': `t-enter-${round.round}-${b.board}` }, b.result ? tt('correct') : tt('enter'));
      button.addEventListener('click', async () => {
        if (!sel.value) return;
        const body = { round: round.round, board: b.board, result: sel.value };
        if (b.result) {
          const why = prompt(tt('reason'));
          if (!why) return;
          body.reason = why;
        }
        await act(ui, async () => {
          const out = await call('POST', `${api(ev.id)}/results`, body, rights.secret);
          ui.chosen.delete(key);
          return out;
        }, refresh);
      });
      cells.push(h('td.arbiter', sel, ' ', button));
    } else if (arbiter) {
      cells.push(h('td.arbiter'));
    }
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

/** One organiser step: `fn`'s answer goes to `refresh`; a refusal is said above the page.
 * `done` runs after a success (e.g. to clear the fields the step used). */
async function act(ui, fn, refresh, labels = {}, lims = {}, done = () => {}) {
  try {
    const out = await fn();
    ui.flash = null;
    done();
    await refresh(out);
  } catch (e) {
    ui.flash = refusalText(e, labels, lims);
    await refresh();
  }
}

// Scoresheets being typed, by event (issue 31): the page's refresh must not drop them.
const drafts = new Map();

/** English SAN as the page writes it: Spanish piece letters in Spanish (castling kept). */
const SPANISH = { K: 'R', Q: 'D', R: 'T', B: 'A', N: 'C' };
const localSan = san => (lang() === 'es' ? san.replace(/[KQRBN]/g, c => SPANISH[c]) : san);

function movesText(san) {
  return san.map((m, i) => (i % 2 === 0 ? `${i / 2 + 1}. ${localSan(m)}` : localSan(m))).join(' ');
}

/** The organiser's scoresheet entry for the current round (checked move by move by the server). */
function gameEntry(ev, rights, ui, refresh) {
  const round = ev.paired_rounds;
  const d = drafts.get(ev.id) || { board: '1', text: '', result: '', replace: false };
  const board = h('input', { type: 'number', min: 1, size: 4, value: d.board, 'data-testid': 't-game-board' });
  const sheet = h('textarea', { rows: 4, placeholder: tt('scoresheetHint'), 'data-testid': 't-game-text',
    'aria-label': tt('scoresheet'), 'data-key': 'game-text' });
  sheet.value = d.text;
  const res = h('select', { 'data-testid': 't-game-result', 'aria-label': tt('result') },
    ['', '1-0', '0-1', '1/2-1/2'].map(v => h('option', { value: v }, v || '*')));
  res.value = d.result;
  const replace = h('input', { type: 'checkbox', 'data-testid': 't-game-replace' });
  replace.checked = d.replace;
  const keep = () => drafts.set(ev.id, { board: board.value, text: sheet.value, result: res.value, replace: replace.checked });
  for (const x of [board, sheet, res, replace]) { x.addEventListener('input', keep); x.addEventListener('change', keep); }
  const enter = h('button.primary', { type: 'button', 'data-testid': 't-game-enter' }, tt('storeGame'));
  enter.addEventListener('click', () => act(ui, async () => {
    const out = await call('POST', `${api(ev.id)}/rounds/${round}/boards/${Number(board.value)}/game`,
      { text: sheet.value, result: res.value || null, replace: replace.checked }, rights.secret);
    drafts.delete(ev.id);
    return out;
  }, refresh));
  return h('div.game-entry', h('h3', `${tt('enterGame')} · ${tt('round')} ${round}`),
    h('p', field(tt('board'), board), ' ', field(tt('result'), res), ' ',
      h('label', replace, ` ${tt('replaceGame')}`)), sheet, h('p', enter));
}

function playersControls(ev, rights, ui, refresh) {
  const name = draft(ui, 'player-name', { placeholder: tt('name'), 'data-testid': 't-player-name' });
  const rating = draft(ui, 'player-rating', { type: 'number', placeholder: tt('rating'), 'data-testid': 't-player-rating' });
  const fed = draft(ui, 'player-fed', { placeholder: tt('federation'), size: 4, 'data-testid': 't-player-fed' });
  const add = h('button', { type: 'button', 'data-testid': 't-add' }, tt('addPlayer'));
  add.addEventListener('click', async () => {
    await limitsReady();
    const problem = firstProblem({ name: name.value, rating: rating.value, federation: fed.value },
      playerLimits, playerLabels());
    if (problem) {
      ui.flash = problem;
      await refresh();
      return;
    }
    await act(ui, () => call('POST', `${api(ev.id)}/players`, {
      name: name.value, rating: rating.value ? Number(rating.value) : null, federation: fed.value || null,
    }, rights.secret), refresh, playerLabels(), playerLimits, () => {
      for (const k of ['player-name', 'player-rating', 'player-fed']) delete ui.drafts[k];
    });
  });
  return h('p', name, ' ', rating, ' ', fed, ' ', add);
}

function byeControls(ev, rights, ui, refresh) {
  const who = draft(ui, 'who', { type: 'number', min: 1, placeholder: tt('player'), 'data-testid': 't-who', size: 6 });
  const rnd = draft(ui, 'bye-round', { type: 'number', min: 1, max: ev.rounds || 99, placeholder: tt('round'), size: 5 });
  const kind = draftSelect(ui, 'bye-kind', {}, ['H', 'Z', 'F'].map(k => h('option', { value: k }, k)));
  const bye = h('button', { type: 'button', 'data-testid': 't-bye' }, tt('requestBye'));
  bye.addEventListener('click', () => act(ui, () => call('POST', `${api(ev.id)}/byes`, {
    player: Number(who.value), round: Number(rnd.value), kind: kind.value }, rights.secret), refresh));
  const out = h('button', { type: 'button', 'data-testid': 't-withdraw' }, tt('withdraw'));
  out.addEventListener('click', () => act(ui, () => call('POST', `${api(ev.id)}/players/${Number(who.value)}/withdraw`,
    undefined, rights.secret), refresh));
  return h('p', who, ' ', out, ' · ', rnd, ' ', kind, ' ', bye);
}

/** The co-arbiters, added and removed by account name (the organiser only). */
function arbitersSection(ev, rights, staff, ui, refresh) {
  const name = draft(ui, 'arbiter-name', { placeholder: tt('arbiterName'), 'data-testid': 't-arbiter-name', size: 20 });
  const add = h('button', { type: 'button', 'data-testid': 't-add-arbiter' }, tt('addArbiter'));
  add.addEventListener('click', () => act(ui, () => call('POST', `${api(ev.id)}/arbiters`, { name: name.value },
    rights.secret), refresh, {}, {}, () => { delete ui.drafts['arbiter-name']; }));
  const list = h('ul', { 'data-testid': 't-arbiter-list' }, staff.arbiters.map(a => {
    const remove = h('button', { type: 'button', 'data-testid': `t-remove-arbiter-${a}` }, tt('removeArbiter'));
    remove.addEventListener('click', () => act(ui, () => call('DELETE',
      `${api(ev.id)}/arbiters/${encodeURIComponent(a)}`, undefined, rights.secret), refresh));
    return h('li', a, ' ', remove);
  }));
  return section(ui, 'arbiters', `${tt('arbiters')} (${staff.arbiters.length})`, list, h('p', name, ' ', add));
}

function organiserPanel(ev, rights, staff, ui, refresh) {
  const panel = h('section.organiser', { 'data-testid': 't-organiser' }, h('h2', tt('organiser')),
    h('p.hint', { 'data-testid': 't-role' }, rights.role === 'organiser' ? tt('youOrganise') : tt('youArbitrate')));
  if (ev.status === 'registration' || (ev.status === 'running' && ev.system === 'swiss')) {
    panel.append(playersControls(ev, rights, ui, refresh));
  }
  if (ev.status !== 'closed' && ev.players.length && ev.system !== 'knockout') {
    panel.append(byeControls(ev, rights, ui, refresh));
  }
  const buttons = h('p');
  const button = (label, testid, fn) => {
    const b = h('button.primary', { type: 'button', 'data-testid': testid }, label);
    b.addEventListener('click', () => act(ui, fn, refresh));
    buttons.append(b, ' ');
  };
  const step = path => () => call('POST', `${api(ev.id)}/${path}`, undefined, rights.secret);
  if (ev.status === 'registration') button(tt('start'), 't-start', step('start'));
  const pending = ev.round_list[ev.round_list.length - 1];
  if (ev.status === 'running' && pending && pending.awaits_reveal) {
    // Issue 30: the digits drawn in the hall, typed by the arbiter in front of the players.
    const digits = draft(ui, 'reveal-digits', { inputmode: 'numeric', 'aria-label': tt('revealDigits'),
      placeholder: tt('revealDigits'), size: 24, 'data-testid': 't-reveal-input' });
    const reveal = h('button.primary', { type: 'button', 'data-testid': 't-reveal' }, tt('reveal'));
    // Issue 30: the server opens the round's games itself when the preparation ends.
    const online = h('input', { type: 'checkbox', 'data-testid': 't-reveal-online', checked: ui.drafts['reveal-online'] === true });
    online.addEventListener('change', () => { ui.drafts['reveal-online'] = online.checked; });
    reveal.addEventListener('click', () => act(ui, async () => {
      const out = await call('POST', `${api(ev.id)}/rounds/${pending.round}/reveal`,
        { input: digits.value, online: online.checked }, rights.secret);
      // The players' links of the games the server opens, shown this once (issue 30).
      return out.online && out.online.length ? { links: out.online } : out;
    }, refresh, {}, {}, () => { delete ui.drafts['reveal-digits']; }));
    panel.append(h('p', digits, ' ', reveal, ' ', h('label', online, ` ${tt('revealOnline')}`)));
  }
  if (ev.status === 'running') {
    if (ev.paired_rounds < ev.rounds) button(tt('pair'), 't-pair', step('pair'));
    const last = ev.round_list[ev.round_list.length - 1];
    // Online play only while a game of the round is still to be played (issue 37).
    // Not while the server is to open them itself, nor once every game is open (issue 30).
    const open = last && !last.awaits_reveal && !last.opens_at && last.boards.some(x => !x.bye && x.black && !x.result && !x.game_id);
    if (ev.paired_rounds > 0 && open) {
      // Rated (issue 18): each game is rated once both players claim their seats with accounts.
      const rated = h('input', { type: 'checkbox', 'data-testid': 't-online-rated' });
      button(tt('online'), 't-online', async () => {
        const out = await call('POST', `${api(ev.id)}/rounds/${ev.paired_rounds}/online`,
          rated.checked ? { rated: true } : undefined, rights.secret);
        return { links: [out] };
      });
      buttons.append(h('label', rated, ` ${tt('ratedRound')}`), ' ');
    }
    if (ev.paired_rounds === ev.rounds) button(tt('close'), 't-close', step('close'));
    else if (ev.system !== 'knockout' && last && !last.boards.some(x => !x.bye && x.black && !x.result)) {
      // A dead end (no legal pairing for the next round) or an event cut short: close after
      // the last complete round, with the arbiter's reason (issue 29).
      const reason = draft(ui, 'early-reason', { placeholder: tt('earlyReason'), size: 28, 'data-testid': 't-early-reason' });
      button(tt('closeEarly'), 't-close-early', () => call('POST', `${api(ev.id)}/close`, { early: reason.value }, rights.secret));
      buttons.append(reason, ' ');
    }
  }
  panel.append(buttons);
  if (ev.paired_rounds > 0 && ev.system !== 'knockout') panel.append(gameEntry(ev, rights, ui, refresh));
  if (rights.role === 'organiser') panel.append(arbitersSection(ev, rights, staff, ui, refresh));
  return panel;
}

/** For a browser without rights: paste the organiser secret kept at the creation. */
function secretEntry(ev, ui, useSecret) {
  const input = draft(ui, 'secret', { type: 'password', size: 36, 'data-testid': 't-secret-input', autocomplete: 'off' });
  const use = h('button', { type: 'button', 'data-testid': 't-use-secret' }, tt('useSecret'));
  use.addEventListener('click', () => useSecret(input.value.trim()));
  return section(ui, 'secret', tt('haveSecret'), h('p', input, ' ', use));
}

/** The rounds' links still worth showing (a knock-out's go once their game is played or their
 *  match decided, issue 34), or null when none is left. */
function shownLinks(rounds, bracket) {
  if (!rounds) return null;
  const left = bracket
    ? rounds.map(o => ({ ...o, games: liveLinks(o.games || [], bracket) })).filter(o => o.games.length)
    : rounds;
  return left.length ? left : null;
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

function staffLine(staff) {
  const parts = [tt('organisedBy', { name: staff.organiser || tt('anonymous') })];
  if (staff.arbiters.length) parts.push(tt('arbitersShown', { names: staff.arbiters.join(', ') }));
  return h('p', { 'data-testid': 't-staff' }, parts.join(' · '));
}

/** The event page's view: a function of the event, the rights and the ui model. */
function eventView(ev, rights, staff, ui, extra) {
  const id = ev.id;
  const bracket = extra.bracket || null;
  const last = ev.round_list[ev.round_list.length - 1];
  return [
    h('h1', { 'data-testid': 't-title' }, ev.name),
    h('p', `${tt('variant')}: ${variantName(ev.variant)} · ${tt('system')}: ${tt(ev.system)} · ${tt('rounds')}: ${ev.rounds} · ${tt('status')}: `,
      h('strong', { 'data-testid': 't-status' }, tt(ev.status))),
    staff ? staffLine(staff) : null,
    h('p', `${tt('commitment')}: `, h('code', { 'data-testid': 't-commitment' }, ev.commitment)),
    ev.eval_band !== null && ev.eval_band !== undefined ? h('p', { 'data-testid': 't-eval-band-shown' },
      tt('evalBandShown', { band: ev.eval_band, digest: String(ev.eval_digest).slice(0, 12) })) : null,
    ev.salt ? h('p', `${tt('salt')}: `, h('code', { 'data-testid': 't-salt' }, ev.salt)) : null,
    ev.excluded && ev.excluded.length ? h('p', tt('excludedShown', { list: ev.excluded.join(', ') })) : null,
    ev.shortlist ? h('p', tt('shortlistShown', { list: ev.shortlist.join(', ') })) : null,
    last && last.reveal ? h('p', { 'data-testid': 't-revealed' }, revealedText(last.reveal)) : null,
    // The server opens the round's games itself when the preparation ends (issue 30).
    last && last.opens_at ? h('p.opens', { 'data-testid': 't-opens', 'data-ends': String(last.opens_at) }) : null,
    ui.flash ? h('p.error', { role: 'alert', 'data-testid': 't-flash' }, ui.flash) : null,
    // Nothing is left to organise once the event is closed (issue 37): no empty box.
    rights.can && ev.status !== 'closed' ? organiserPanel(ev, rights, staff, ui, extra.refresh) : null,
    !rights.can && ev.status !== 'closed' ? secretEntry(ev, ui, extra.useSecret) : null,
    // A knock-out's links go once their game is played or their match decided (issue 34).
    shownLinks(extra.links, bracket) ? linksList(ev, shownLinks(extra.links, bracket)) : null,
    bracket && bracket.rounds.length ? bracketView(ev, bracket, rights.can ? rights.secret || true : null,
      (path, body) => act(ui, async () => {
        const out = await call('POST', `${api(id)}/${path}`, body, rights.secret);
        // online: the players' links (other steps' answers may carry games too)
        return path.endsWith('/online') && out && out.games ? { links: [out] } : out;
      }, extra.refresh)) : null,
    last ? h('section.round', setupFigure(ev, last), pairingTable(ev, last, rights, ui, extra.refresh),
      h('p', h('a', { href: `#/tournament/${encodeURIComponent(id)}/hall` }, tt('hall'))))
      : bracket ? null : h('p', tt('noRound')),
    // Live boards while the event runs (issue 31); the bulletin keeps the games afterwards.
    last && ev.status === 'running' ? h('section.live', { 'data-testid': 't-live', 'data-round': String(last.round) }) : null,
    ev.completed_rounds > 0 && !bracket ? standingsTable(ev) : null,
    section(ui, 'players', `${tt('players')} (${ev.players.length})`,
      h('ol', { 'data-testid': 't-players' }, ev.players.map(p => h('li', `${p.name}${p.rating ? ` (${p.rating})` : ''}${p.federation ? ` ${p.federation}` : ''}${p.withdrawn_round ? ` — ${tt('withdrawn')} (${tt('round')} ${p.withdrawn_round})` : ''}`)))),
    ev.round_list.length > 1 ? section(ui, 'earlier', `${tt('round')} 1–${ev.round_list.length - 1}`,
      ev.round_list.slice(0, -1).reverse().map(r => pairingTable(ev, r, rights, ui, extra.refresh))) : null,
    h('p', `${tt('exports')}: `, (bracket ? ['pgn', 'trf', 'html'] : ['trf', 'pgn', 'csv', 'html']).flatMap(f => [
      h('a', { href: `${api(id)}/export.${f}?lang=${lang()}`, download: `${id}.${f}` }, f.toUpperCase()), ' ']),
      h('a', { href: `${api(id)}/export.bulletin?lang=${lang()}`, download: `${id}-bulletin.html`, 'data-testid': 't-bulletin' }, tt('bulletin'))),
    ev.status === 'closed' ? h('p', h('a', { href: `#/tournament/${encodeURIComponent(id)}/verify`, 'data-testid': 't-verify' }, tt('verify'))) : null,
  ].filter(Boolean);
}

const missing = id => h('p.error', { role: 'alert', 'data-testid': 't-missing' }, tt('noEvent', { id }));

function renderEvent(main, id) {
  const ui = newUi();
  let links = null; // the players' links last shown once: [{round, games}]
  let secret = localStorage.getItem(secretKey(id));
  const staffOf = () => call('GET', `${api(id)}/staff`, undefined, secret);
  const useSecret = async value => {
    const seen = value ? await call('GET', `${api(id)}/staff`, undefined, value).catch(() => null) : null;
    if (seen && seen.you) {
      localStorage.setItem(secretKey(id), value);
      secret = value;
      delete ui.drafts.secret;
      ui.flash = null;
    } else {
      ui.flash = tt('wrongSecret');
    }
    await refresh();
  };
  // The newest refresh wins: an older one whose answers arrive later (an automatic refresh
  // that started before the organiser's step) must not draw the state before the step.
  let started = 0;
  let drawn = 0;
  let opening = null;
  const refresh = async (out, auto = false) => {
    const mine = ++started;
    if (out && out.links) links = out.links;
    let ev;
    let staff;
    try {
      [ev, staff] = await Promise.all([call('GET', api(id)), staffOf()]);
    } catch (e) {
      if (auto) return; // a missed automatic refresh: the next one comes in 5 s
      clear(main).append(e.status === 404 ? missing(id) : h('p.error', `${tt('error')}: ${e.message}`));
      return;
    }
    // A knock-out's bracket (issue 34): its rounds open one after the other.
    let bracket = null;
    if (ev.system === 'knockout') {
      bracket = await call('GET', `${api(id)}/bracket`).catch(() => null);
      if (bracket) ev.paired_rounds = bracket.opened;
    }
    if (mine < drawn) return;
    // An open menu's list would close under the organiser's pointer: wait for the next one.
    if (auto && main.querySelector('select:focus, textarea:focus')) return;
    drawn = mine;
    const rights = { can: !!staff.you, role: staff.you, secret };
    const current = ev.round_list[ev.round_list.length - 1];
    // Draw again just after the games open, not up to 5 s later.
    clearTimeout(opening);
    if (current && current.opens_at) {
      opening = setTimeout(() => refresh(undefined, true), Math.max(0, current.opens_at - Date.now()) + 400);
    }
    const focus = focusOf(main);
    clear(main).append(...eventView(ev, rights, staff, ui, {
      refresh, useSecret, bracket, links: links && links.some(o => o.round === ev.paired_rounds) ? links : null }));
    giveFocusBack(main, focus);
    tickOpens(main);
    ui.refreshes += 1;
    main.dataset.refreshes = String(ui.refreshes); // the browser tests wait on it
    const box = main.querySelector('[data-testid=t-live]');
    live.follow(box ? Number(box.dataset.round) : null);
    if (box && lastLive && lastLive.round === Number(box.dataset.round)) drawLive(main, lastLive);
  };
  // The round's boards as moves arrive (issue 31): pushed over a WebSocket, this section only.
  let lastLive = null;
  const live = followLive(id, {
    onLive: out => { lastLive = out; drawLive(main, out); },
    poll: r => call('GET', `${api(id)}/rounds/${r}/live`),
  });
  refresh();
  const timer = setInterval(() => { if (!document.hidden) refresh(undefined, true); }, 5000);
  // The hall's countdown (issue 30) ticks every half second; the live boards are pushed.
  const ticker = setInterval(() => { if (!document.hidden) tickOpens(main); }, 500);
  return { destroy: () => { clearInterval(timer); clearInterval(ticker); live.destroy(); clearTimeout(opening); } };
}

/** Fill the page's live section with `out`, GET .../rounds/{r}/live's answer (pushed). */
function drawLive(main, out) {
  const box = main.querySelector('[data-testid=t-live]');
  if (!box || Number(box.dataset.round) !== out.round) return;
  clear(box).append(h('h3', tt('live')), ...out.boards.map(b => h('div.live-board', { 'data-testid': `t-live-${b.board}` },
    h('strong', `${tt('board')} ${b.board}: ${b.white} – ${b.black}`), b.result ? ` ${b.result}` : '',
    h('p.live-moves', { 'data-testid': `t-live-moves-${b.board}` }, b.san.length ? movesText(b.san) : tt('noMovesYet')))));
}

const revealedText = r => tt('revealed', { at: new Date(r.at).toLocaleString(lang()), digits: r.input });

/** "m:ss" of the milliseconds left (never negative). */
function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function hallRound(ev, round, briefFor) {
  const l = lang();
  if (round.awaits_reveal) return h('p.hall-waiting', { 'data-testid': 't-hall-waiting' }, tt('awaitsReveal', { round: round.round }));
  const b = round.boards.find(x => !x.bye);
  if (!b) return null;
  const ends = round.reveal ? round.reveal.window_ends : null;
  return h('div',
    b.fen ? h('div.hall-diagram', { 'data-testid': 't-hall-diagram' }, diagram(b.fen.split(' ')[0])) : null,
    b.setup != null ? h('p.hall-setup', h('strong', String(b.setup)), ` · ${b.rank.en} · ${b.rank.es}`) : null,
    b.castling ? h('p.hall-castling', { 'data-testid': 't-hall-castling' },
      Object.entries(b.castling[l] || b.castling.en).map(([san, squares]) => `${san}: ${squares}`).join(' · ')) : null,
    b.setup != null ? briefFor(ev.variant, b.setup) : null, // issue 33
    round.reveal ? h('p', revealedText(round.reveal)) : null,
    ends ? h('p.hall-countdown', { 'data-testid': 't-countdown', 'data-ends': String(ends) }) : null);
}

/** The event page's line "the games open in m:ss" (issue 30), from its data-ends. */
function tickOpens(main) {
  const el = main.querySelector('[data-testid="t-opens"]');
  if (!el) return;
  const left = Number(el.dataset.ends) - Date.now();
  el.textContent = left > 0 ? tt('opensIn', { time: clockText(left) }) : tt('opening');
}

/** The countdown line of the hall view, from its data-ends (ms since the epoch). */
function tick(main) {
  const el = main.querySelector('[data-testid="t-countdown"]');
  if (!el) return;
  const left = Number(el.dataset.ends) - Date.now();
  el.textContent = left > 0 ? tt('countdown', { time: clockText(left) }) : tt('prepOver');
}

function renderHall(main, id) {
  let timer = null;
  // The setup brief (issue 33): asked once per setup, the same box shown at every refresh.
  const briefs = new Map();
  const briefFor = (variant, number) => {
    const key = `${variant}/${number}`;
    if (!briefs.has(key)) briefs.set(key, briefBox(variant, number));
    return briefs.get(key);
  };
  const draw = async () => {
    let ev;
    try {
      ev = await call('GET', api(id));
    } catch (e) {
      if (e.status === 404) { // no such event: say so, and stop asking
        clearInterval(timer);
        clear(main).append(h('section.hall', { 'data-testid': 't-hall' }, missing(id)));
      }
      return; // a missed refresh: the next one comes in 10 s
    }
    const last = ev.round_list[ev.round_list.length - 1];
    clear(main).append(h('section.hall', { 'data-testid': 't-hall' },
      h('h1', `${ev.name} · ${tt('round')} ${last ? last.round : '-'}`),
      last ? hallRound(ev, last, briefFor) : h('p', tt('noRound'))));
    tick(main);
  };
  timer = setInterval(draw, 10000);
  const ticker = setInterval(() => tick(main), 1000);
  draw();
  return { destroy: () => { clearInterval(timer); clearInterval(ticker); } };
}

/** Route #/tournament/... ; returns the page object (with destroy) or null. */
export function renderTournament(main, path, go) {
  main.classList.add('tournament-page');
  limitsReady(); // the forms' limits, ready before the first submit
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent); // tournament, id, ...
  if (parts[0] === 'tournaments') {
    renderEventList(main);
    return null;
  }
  if (parts[1] === 'new' || parts.length === 1) {
    renderNew(main, go);
    return null;
  }
  const id = parts[1];
  if (parts[2] === 'hall') return renderHall(main, id);
  if (parts[2] === 'verify') {
    renderVerify(main, id);
    return null;
  }
  if ((parts[2] === 'seat' || parts[2] === 'join') && parts[3] && parts[4]) {
    return renderSeatLink(main, id, parts[3], parts[4], parts[2] === 'seat' ? 'white' : 'black', go);
  }
  return renderEvent(main, id);
}
