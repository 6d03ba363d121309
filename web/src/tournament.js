// Tournament pages (issue 15), English and Spanish:
//   #/tournament/new                      create an event (the organiser secret stays in this browser)
//   #/tournament/<id>                     public page: commitment, pairings with the round's setup
//                                         diagram, standings, links to the online games; the
//                                         organiser's controls when this browser holds the secret
//   #/tournament/<id>/hall                projector view of the current round's setup
//   #/tournament/<id>/seat/<game>/<token> a player's personal link (White): keep the seat, play

import { h, clear } from './dom.js';
import { lang, t } from './i18n.js';
import { allVariants, variantName } from './variants.js';
import { checkValue, explainInvalid, formLimits } from './limits.js';
import { isNumbered } from './setups.js';
import { request, saveSeat } from './api.js';
import { bracketView } from './bracket.js';
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
  eval_band: tt('evalBand'), tiebreaks: tt('tiebreaks') });
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
  const system = h('select', { name: 'system' }, ['swiss', 'rr', 'drr'].map(v => h('option', { value: v }, tt(v))));
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
  const error = h('p.error', { role: 'alert' });
  const form = h('form.tournament-new', { novalidate: true },
    h('h1', tt('newEvent')),
    field(tt('name'), name), field(tt('variant'), variant), field(tt('system'), system),
    field(tt('rounds'), rounds), field(tt('timeControl'), tc), field(tt('setups'), policy),
    field(tt('tiebreaks'), tiebreaks), field(tt('bishopsLabel'), bishops), field(tt('initial'), initial),
    field(tt('evalBand'), band),
    h('label', mini, ' ', tt('miniMatch')), h('label', excl, ' ', tt('excludeStandard')),
    h('label', norep, ' ', tt('noRepeat')),
    h('p', h('button.primary', { type: 'submit', 'data-testid': 't-create' }, tt('create'))), error);
  system.addEventListener('change', () => { rounds.disabled = system.value !== 'swiss'; });
  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    await limitsReady();
    const problem = firstProblem({ name: name.value, time_control: tc.value, eval_band: band.value,
      ...(system.value === 'swiss' ? { rounds: rounds.value } : {}) }, createLimits, createLabels());
    if (problem) {
      error.textContent = problem;
      return;
    }
    try {
      const out = await call('POST', '/api/tournaments', {
        name: name.value, variant: variant.value, system: system.value,
        rounds: system.value === 'swiss' ? Number(rounds.value) : null,
        time_control: tc.value, setup_policy: policy.value, mini_match: mini.checked,
        exclude_standard: excl.checked, no_repeat: norep.checked, bishops: bishops.value,
        initial_colour: initial.value,
        eval_band: band.value.trim() === '' ? null : Number(band.value),
        tiebreaks: tiebreaks.value.trim() ? tiebreaks.value.split(',').map(x => x.trim()).filter(Boolean) : null,
      });
      localStorage.setItem(secretKey(out.id), out.organiser_secret);
      go(`/tournament/${out.id}`);
    } catch (e) {
      error.textContent = refusalText(e, createLabels(), createLimits);
    }
  });
  main.append(form);
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
  const l = lang();
  return h('figure.setup',
    h('img', { src: `${api(ev.id)}/rounds/${round.round}/setup.svg?board=${board}&lang=${l}`, alt: `${tt('setup')} ${b.setup ?? ''}`, width: 280, 'data-testid': 't-diagram' }),
    h('figcaption', b.setup != null ? `${tt('setup')} ${b.setup}: ${b.rank[l] || b.rank.en}` : ''));
}

// Results chosen in a board's menu but not entered yet, by "event:round:board": the page
// refreshes itself every 5 s and must not drop them (the organiser's Enter did nothing).
const chosen = new Map();

function pairingTable(ev, round, secret, refresh) {
  const rows = round.boards.map(b => {
    const cells = [
      h('td', String(b.board)), h('td', playerName(ev, b.white)),
      h('td', b.black ? playerName(ev, b.black) : ''), h('td', { 'data-testid': `t-result-${round.round}-${b.board}` }, resultLabel(b)),
      h('td', b.setup != null ? String(b.setup) : ''),
      h('td', b.game_id ? h('a', { href: `#/game/${encodeURIComponent(b.game_id)}` }, tt('watch')) : ''),
    ];
    if (secret && !b.bye && ev.status !== 'closed') {
      const key = `${ev.id}:${round.round}:${b.board}`;
      const sel = h('select', { 'aria-label': tt('result'), 'data-testid': `t-select-${round.round}-${b.board}` },
        ['', '1-0', '0-1', '1/2', '+-', '-+', '--'].map(v => h('option', { value: v }, v)));
      if (chosen.has(key)) sel.value = chosen.get(key);
      sel.addEventListener('change', () => (sel.value ? chosen.set(key, sel.value) : chosen.delete(key)));
      const button = h('button', { type: 'button', 'data-testid': `t-enter-${round.round}-${b.board}` }, b.result ? tt('correct') : tt('enter'));
      button.addEventListener('click', async () => {
        if (!sel.value) return;
        const body = { round: round.round, board: b.board, result: sel.value };
        if (b.result) {
          const why = prompt(tt('reason'));
          if (!why) return;
          body.reason = why;
        }
        await act(async () => {
          const out = await call('POST', `${api(ev.id)}/results`, body, secret);
          chosen.delete(key);
          return out;
        }, refresh);
      });
      cells.push(h('td', sel, ' ', button));
    }
    return h('tr', cells);
  });
  return h('table.pairings', { 'data-testid': `t-round-${round.round}` },
    h('caption', `${tt('round')} ${round.round}`),
    h('thead', h('tr', [tt('board'), tt('white'), tt('black'), tt('result'), tt('setup'), ''].map(x => h('th', x)))),
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

let flash = null;

async function act(fn, refresh, labels = {}, lims = {}) {
  try {
    const out = await fn();
    flash = null;
    await refresh(out);
  } catch (e) {
    flash = refusalText(e, labels, lims);
    await refresh();
  }
}

function organiserPanel(ev, secret, refresh) {
  const panel = h('section.organiser', { 'data-testid': 't-organiser' }, h('h2', tt('organiser')));
  if (ev.status === 'registration' || (ev.status === 'running' && ev.system === 'swiss')) {
    const name = h('input', { placeholder: tt('name'), 'data-testid': 't-player-name' });
    const rating = h('input', { type: 'number', placeholder: tt('rating'), 'data-testid': 't-player-rating' });
    const fed = h('input', { placeholder: tt('federation'), size: 4 });
    const add = h('button', { type: 'button', 'data-testid': 't-add' }, tt('addPlayer'));
    add.addEventListener('click', async () => {
      await limitsReady();
      const problem = firstProblem({ name: name.value, rating: rating.value, federation: fed.value },
        playerLimits, playerLabels());
      if (problem) {
        flash = problem;
        await refresh();
        return;
      }
      await act(() => call('POST', `${api(ev.id)}/players`, {
        name: name.value, rating: rating.value ? Number(rating.value) : null, federation: fed.value || null,
      }, secret), refresh, playerLabels(), playerLimits);
    });
    panel.append(h('p', name, ' ', rating, ' ', fed, ' ', add));
  }
  if (ev.status !== 'closed' && ev.players.length && ev.system !== 'knockout') {
    const who = h('input', { type: 'number', min: 1, placeholder: tt('player'), 'data-testid': 't-who', size: 6 });
    const rnd = h('input', { type: 'number', min: 1, max: ev.rounds || 99, placeholder: tt('round'), size: 5 });
    const kind = h('select', ['H', 'Z', 'F'].map(k => h('option', { value: k }, k)));
    const bye = h('button', { type: 'button', 'data-testid': 't-bye' }, tt('requestBye'));
    bye.addEventListener('click', () => act(() => call('POST', `${api(ev.id)}/byes`, {
      player: Number(who.value), round: Number(rnd.value), kind: kind.value }, secret), refresh));
    const out = h('button', { type: 'button', 'data-testid': 't-withdraw' }, tt('withdraw'));
    out.addEventListener('click', () => act(() => call('POST', `${api(ev.id)}/players/${Number(who.value)}/withdraw`, undefined, secret), refresh));
    panel.append(h('p', who, ' ', out, ' · ', rnd, ' ', kind, ' ', bye));
  }
  const buttons = h('p');
  const button = (label, testid, fn) => {
    const b = h('button.primary', { type: 'button', 'data-testid': testid }, label);
    b.addEventListener('click', () => act(fn, refresh));
    buttons.append(b, ' ');
  };
  if (ev.status === 'registration') button(tt('start'), 't-start', () => call('POST', `${api(ev.id)}/start`, undefined, secret));
  if (ev.status === 'running') {
    if (ev.paired_rounds < ev.rounds) button(tt('pair'), 't-pair', () => call('POST', `${api(ev.id)}/pair`, undefined, secret));
    const last = ev.round_list[ev.round_list.length - 1];
    // Online play only while a game of the round is still to be played (issue 37).
    const open = last && last.boards.some(x => !x.bye && x.black && !x.result);
    if (ev.paired_rounds > 0 && open) {
      // Rated (issue 18): each game is rated once both players claim their seats with accounts.
      const rated = h('input', { type: 'checkbox', 'data-testid': 't-online-rated' });
      button(tt('online'), 't-online', async () => {
        const out = await call('POST', `${api(ev.id)}/rounds/${ev.paired_rounds}/online`,
          rated.checked ? { rated: true } : undefined, secret);
        return { links: out.games, round: out.round };
      });
      buttons.append(h('label', rated, ` ${tt('ratedRound')}`), ' ');
    }
    if (ev.paired_rounds === ev.rounds) button(tt('close'), 't-close', () => call('POST', `${api(ev.id)}/close`, undefined, secret));
  }
  panel.append(buttons);
  return panel;
}

function linksList(ev, links) {
  const origin = location.origin;
  return h('section.links', { 'data-testid': 't-links' }, h('h3', `${tt('round')} ${ev.paired_rounds}: ${tt('links')}`),
    h('ul', links.flatMap(g => [
      h('li', `${tt('board')} ${g.board}, ${tt('white')} ${playerName(ev, g.white.number)}: `,
        h('a', { href: g.white.link, 'data-testid': `t-link-${g.board}-white` }, origin + g.white.link)),
      h('li', `${tt('board')} ${g.board}, ${tt('black')} ${playerName(ev, g.black.number)}: `,
        h('a', { href: g.black.link, 'data-testid': `t-link-${g.board}-black` }, g.black.link)),
    ])));
}

function renderEvent(main, id) {
  let timer = null;
  let links = null;
  let linksRound = 0;
  const secret = localStorage.getItem(secretKey(id));
  // The newest refresh wins: an older one whose answers arrive later (an automatic refresh
  // that started before the organiser's step) must not draw the state before the step.
  let started = 0;
  let drawn = 0;
  const refresh = async (out, auto = false) => {
    const mine = ++started;
    if (out && out.links) { links = out.links; linksRound = out.round; }
    let ev;
    try {
      ev = await call('GET', api(id));
    } catch (e) {
      if (auto) return; // a missed automatic refresh: the next one comes in 5 s
      clear(main).append(h('p.error', `${tt('error')}: ${e.message}`));
      return;
    }
    // A knock-out's bracket (issue 34): its rounds open one after the other.
    let bracket = null;
    if (ev.system === 'knockout') {
      bracket = await call('GET', `${api(id)}/bracket`).catch(() => null);
      if (bracket) ev.paired_rounds = bracket.opened;
    }
    if (mine < drawn) return;
    // Someone started typing or choosing while the answer was on its way: keep the page.
    if (auto && main.querySelector('select:focus, input:focus')) return;
    drawn = mine;
    const last = ev.round_list[ev.round_list.length - 1];
    const post = (path, body) => act(() => call('POST', `${api(id)}/${path}`, body, secret), refresh);
    clear(main).append(...[
      h('h1', { 'data-testid': 't-title' }, ev.name),
      h('p', `${tt('variant')}: ${variantName(ev.variant)} · ${tt('system')}: ${tt(ev.system)} · ${tt('rounds')}: ${ev.rounds} · ${tt('status')}: `,
        h('strong', { 'data-testid': 't-status' }, tt(ev.status))),
      h('p', `${tt('commitment')}: `, h('code', { 'data-testid': 't-commitment' }, ev.commitment)),
      ev.eval_band !== null && ev.eval_band !== undefined ? h('p', { 'data-testid': 't-eval-band-shown' },
        tt('evalBandShown', { band: ev.eval_band, digest: String(ev.eval_digest).slice(0, 12) })) : null,
      ev.salt ? h('p', `${tt('salt')}: `, h('code', { 'data-testid': 't-salt' }, ev.salt)) : null,
      flash ? h('p.error', { role: 'alert', 'data-testid': 't-flash' }, flash) : null,
      // Nothing is left to organise once the event is closed (issue 37): no empty box.
      secret && ev.status !== 'closed' ? organiserPanel(ev, secret, refresh) : null,
      links && linksRound === ev.paired_rounds ? linksList(ev, links) : null,
      bracket && bracket.rounds.length ? bracketView(ev, bracket, secret, post) : null,
      last ? h('section.round', setupFigure(ev, last), pairingTable(ev, last, secret, refresh),
        h('p', h('a', { href: `#/tournament/${encodeURIComponent(id)}/hall` }, tt('hall'))))
        : bracket ? null : h('p', tt('noRound')),
      ev.completed_rounds > 0 && !bracket ? standingsTable(ev) : null,
      h('details', h('summary', tt('players')),
        h('ol', ev.players.map(p => h('li', `${p.name}${p.rating ? ` (${p.rating})` : ''}${p.federation ? ` ${p.federation}` : ''}${p.withdrawn_round ? ` — ${tt('withdrawn')} (${tt('round')} ${p.withdrawn_round})` : ''}`)))),
      ev.round_list.length > 1 ? h('details', h('summary', `${tt('round')} 1–${ev.round_list.length - 1}`),
        ev.round_list.slice(0, -1).reverse().map(r => pairingTable(ev, r, secret, refresh))) : null,
      h('p', `${tt('exports')}: `, (bracket ? ['pgn', 'html'] : ['trf', 'pgn', 'csv', 'html']).flatMap(f => [
        h('a', { href: `${api(id)}/export.${f}?lang=${lang()}`, download: `${id}.${f}` }, f.toUpperCase()), ' '])),
      ev.status === 'closed' ? h('p', h('a', { href: `${api(id)}/verify` }, tt('verify'))) : null,
    ].filter(Boolean));
  };
  refresh();
  timer = setInterval(() => { if (!document.hidden && !main.querySelector('select:focus, input:focus')) refresh(undefined, true); }, 5000);
  // (A refresh keeps the menus' chosen results: see `chosen` above.)
  return { destroy: () => clearInterval(timer) };
}

function renderHall(main, id) {
  let timer = null;
  const draw = async () => {
    const ev = await call('GET', api(id)).catch(() => null);
    if (!ev) return;
    const last = ev.round_list[ev.round_list.length - 1];
    const l = lang();
    clear(main).append(h('section.hall', { 'data-testid': 't-hall' },
      h('h1', `${ev.name} · ${tt('round')} ${last ? last.round : '-'}`),
      last ? (() => {
        const b = last.boards.find(x => !x.bye);
        if (!b) return null;
        return h('div',
          h('img.hall-diagram', { src: `${api(id)}/rounds/${last.round}/setup.svg?lang=${l}`, alt: tt('setup') }),
          b.setup != null ? h('p.hall-setup', h('strong', String(b.setup)), ` · ${b.rank.en} · ${b.rank.es}`) : null);
      })() : h('p', tt('noRound'))));
  };
  draw();
  timer = setInterval(draw, 10000);
  return { destroy: () => clearInterval(timer) };
}

/** Route #/tournament/... ; returns the page object (with destroy) or null. */
export function renderTournament(main, path, go) {
  main.classList.add('tournament-page');
  limitsReady(); // the forms' limits, ready before the first submit
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent); // tournament, id, ...
  if (parts[1] === 'new' || parts.length === 1) {
    renderNew(main, go);
    return null;
  }
  const id = parts[1];
  if (parts[2] === 'hall') return renderHall(main, id);
  if (parts[2] === 'seat' && parts[3] && parts[4]) {
    saveSeat(parts[3], { color: 'white', token: parts[4], opponent: 'friend' });
    go(`/game/${encodeURIComponent(parts[3])}`, { replace: true });
    return null;
  }
  return renderEvent(main, id);
}
