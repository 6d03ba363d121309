// The tournament pages' controller (issue 27, the game page's shape: web/src/game/ctrl.js):
// what the event page asks the server and decides, as plain data and functions with no DOM —
// the event's state and its refreshes (the newest wins), the organiser secret, the staff's
// steps (start, pair, reveal, online, results, games, players, byes, arbiters, close), which
// of them the staff may take now, the players' links shown once (`shownLinks`: a knock-out's
// go once their game is played or their match decided), the creation form's request and its
// limits checked before sending, the hall's countdown, and the knock-out's Armageddon bids.
// The server comes in as an `api` object (`tournamentApi(request)`), the browser's storage as
// `storage`, so node drives it in web/test/tournament_ctrl.test.mjs. The views (view.js,
// new.js, hall.js, bracket.js) draw and call these.

import { lang, t } from '../i18n.js';
import { checkValue, explainInvalid, formLimits } from '../limits.js';

/** @typedef {import('../api_types.js').EventOut} EventOut */
/** @typedef {import('../api_types.js').OnlineOut} OnlineOut */
/** @typedef {import('../api_types.js').BracketOut} BracketOut */
/** @typedef {import('../api_types.js').MyBidOut} MyBidOut */
/** The page's rights: may it run the event, as whom ('organiser' | 'arbiter' | null), with
 *  which organiser secret.
 *  @typedef {{can: boolean, role: string|null, secret: string|null}} Rights */

/** The tournament pages' texts (the catalogue's tournament.* keys). */
export const tt = (key, vars = {}) => t(`tournament.${key}`, vars);

/** Where this browser keeps an event's organiser secret (localStorage). */
export const secretKey = id => `rc-tournament-${id}`;
/** The event's API path. */
export const eventPath = id => `/api/tournaments/${encodeURIComponent(id)}`;

export const CREATE_PATH = '/api/tournaments';
export const KNOCKOUT_PATH = '/api/tournaments/knockout';
export const PLAYERS_PATH = '/api/tournaments/{event_id}/players';

/**
 * The server's tournament routes over `request(method, path, body, headers)` (api.js): the
 * organiser secret, when there is one, goes in X-Organiser-Secret.
 */
export function tournamentApi(request, limitsOf = path => formLimits('POST', path)) {
  const call = (method, path, body, secret) =>
    request(method, path, body, secret ? { 'X-Organiser-Secret': secret } : {});
  return {
    event: id => call('GET', eventPath(id)),
    staff: (id, secret) => call('GET', `${eventPath(id)}/staff`, undefined, secret),
    bracket: id => call('GET', `${eventPath(id)}/bracket`),
    live: (id, round) => call('GET', `${eventPath(id)}/rounds/${round}/live`),
    /** An organiser's step: POST <event>/<path>. */
    step: (id, path, body, secret) => call('POST', `${eventPath(id)}/${path}`, body, secret),
    /** DELETE <event>/<path>. */
    remove: (id, path, secret) => call('DELETE', `${eventPath(id)}/${path}`, undefined, secret),
    create: (path, body) => call('POST', path, body),
    /** A player's own Armageddon bid (issue 34): POST <event>/bids/mine[/seat]. */
    myBid: (id, body, seat = false) => call('POST', `${eventPath(id)}/bids/mine${seat ? '/seat' : ''}`, body),
    session: () => request('GET', '/api/account/session'),
    accountGames: () => request('GET', '/api/account/games'),
    limits: limitsOf,
  };
}

// ---------------------------------------------------------------- limits and labels

export const createLabels = () => ({ name: tt('name'), rounds: tt('rounds'), time_control: tt('timeControl'),
  eval_band: tt('evalBand'), tiebreaks: tt('tiebreaks'), preview: tt('preview') });
export const playerLabels = () => ({ name: tt('name'), rating: tt('rating'), federation: tt('federation') });

/** The forms' limits (the server's models, GET /openapi.json), asked once when a tournament
 *  page first needs them: ready() → Promise<{create, player}>. */
export function limitsLoader(api) {
  let loading = null;
  return () => {
    if (!loading) {
      loading = Promise.all([api.limits(CREATE_PATH), api.limits(PLAYERS_PATH)])
        .then(([create, player]) => ({ create, player }));
    }
    return loading;
  };
}

/** The first field of `values` ({field: text}) outside its limits, explained; or null. */
export function firstProblem(values, lims, labels) {
  for (const [name, value] of Object.entries(values)) {
    const problem = checkValue(value, lims[name], labels[name]);
    if (problem) return problem;
  }
  return null;
}

/** A refusal as the page says it: a field outside its limits explained, else the reason. */
export const refusalText = (e, labels = {}, lims = {}) =>
  explainInvalid(e, labels, lims) || `${tt('error')}: ${e.message}`;

// ---------------------------------------------------------------- the creation form

/**
 * The creation form's values as typed (strings; the check boxes booleans): {name, variant,
 * system, rounds, time_control, setup_policy, tiebreaks, bishops, initial_colour, mini_match,
 * exclude_standard, no_repeat, eval_band, setup_source, excluded, shortlist, prep_minutes,
 * preview, ko: {games, stages, armageddon, setups, seeding}}.
 * @typedef {object} EventForm
 */

/** Which fields the system leaves to type: a knock-out (issue 34) has matches, not rounds. */
export function formFields(system) {
  const knockout = system === 'knockout';
  return { rounds: system === 'swiss', roundOnly: !knockout, knockout };
}

/** The first of the form's fields outside the server's limits, explained; or null. */
export function formProblem(form, lims) {
  return firstProblem({ name: form.name, time_control: form.time_control, eval_band: form.eval_band,
    preview: form.preview, ...(form.system === 'swiss' ? { rounds: form.rounds } : {}) }, lims, createLabels());
}

const orNull = text => (String(text).trim() === '' ? null : Number(text));

/** The request the form makes: {path, body}, a knock-out's to its own route. */
export function eventRequest(form) {
  const common = { name: form.name, variant: form.variant, time_control: form.time_control,
    exclude_standard: form.exclude_standard, no_repeat: form.no_repeat, bishops: form.bishops,
    initial_colour: form.initial_colour, preview: orNull(form.preview) };
  if (form.system === 'knockout') {
    const ko = form.ko;
    return { path: KNOCKOUT_PATH, body: { ...common,
      games: Number(ko.games), armageddon: ko.armageddon.trim(),
      tiebreaks: ko.stages.split(';').map(x => x.trim()).filter(Boolean),
      match_setups: ko.setups, seeding: ko.seeding } };
  }
  return { path: CREATE_PATH, body: { ...common, system: form.system,
    rounds: form.system === 'swiss' ? Number(form.rounds) : null,
    setup_policy: form.setup_policy, mini_match: form.mini_match,
    eval_band: orNull(form.eval_band),
    setup_source: form.setup_source, excluded: form.excluded,
    shortlist: form.shortlist.trim() === '' ? null : form.shortlist,
    prep_minutes: Number(form.prep_minutes),
    tiebreaks: form.tiebreaks.trim() ? form.tiebreaks.split(',').map(x => x.trim()).filter(Boolean) : null } };
}

/**
 * The creation form's controller. deps: api (tournamentApi), limits() → Promise<{create}>,
 * storage {get(key), set(key, value)}. submit(form) → {error} (the limits broken, or the
 * server's refusal, in the page's language) or {event} (the server's answer: its secret kept).
 */
export function createNewCtrl({ api, limits, storage }) {
  return {
    async submit(form) {
      const lims = (await limits()).create;
      const problem = formProblem(form, lims);
      if (problem) return { error: problem };
      const { path, body } = eventRequest(form);
      try {
        const out = await api.create(path, body);
        storage.set(secretKey(out.id), out.organiser_secret);
        return { event: out };
      } catch (e) {
        return { error: refusalText(e, createLabels(), lims) };
      }
    },
  };
}

// ---------------------------------------------------------------- what the event page shows

/** A board's result in words: TRF's letters (issue 37), U the pairing's bye, H/F/Z asked for. */
export function resultLabel(b) {
  if (b.bye) return ['H', 'F', 'Z'].includes(b.bye) ? tt(`bye${b.bye}`) : tt('bye');
  return b.result || '';
}

/** "Name (n)", or the number alone for a player the event does not list. */
export function playerName(ev, n) {
  const p = ev.players.find(x => x.number === n);
  return p ? `${p.name} (${n})` : String(n);
}

/** A player's line in the players' list. */
export const playerLine = p => `${p.name}${p.rating ? ` (${p.rating})` : ''}${p.federation ? ` ${p.federation}` : ''}` +
  `${p.withdrawn_round ? ` — ${tt('withdrawn')} (${tt('round')} ${p.withdrawn_round})` : ''}`;

/** "Organised by … · Arbiters: …". */
export function staffText(staff) {
  const parts = [tt('organisedBy', { name: staff.organiser || tt('anonymous') })];
  if (staff.arbiters.length) parts.push(tt('arbitersShown', { names: staff.arbiters.join(', ') }));
  return parts.join(' · ');
}

export const revealedText = r => tt('revealed', { at: new Date(r.at).toLocaleString(lang()), digits: r.input });

/** "m:ss" of the milliseconds left (never negative). */
export function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The event page's line "the games open in m:ss" (issue 30), `left` ms before they do. */
export const opensText = left => (left > 0 ? tt('opensIn', { time: clockText(left) }) : tt('opening'));
/** The hall's countdown of the preparation window. */
export const countdownText = left => (left > 0 ? tt('countdown', { time: clockText(left) }) : tt('prepOver'));

/** English SAN as the page writes it: Spanish piece letters in Spanish (castling kept). */
const SPANISH = { K: 'R', Q: 'D', R: 'T', B: 'A', N: 'C' };
const localSan = san => (lang() === 'es' ? san.replace(/[KQRBN]/g, c => SPANISH[c]) : san);

export function movesText(san) {
  return san.map((m, i) => (i % 2 === 0 ? `${i / 2 + 1}. ${localSan(m)}` : localSan(m))).join(' ');
}

/** The board whose setup a round's figure shows (its first board, else the first game). */
export const figureBoard = (round, board = 1) => round.boards.find(x => x.board === board && !x.bye) || null;
export const hallBoard = round => round.boards.find(x => !x.bye) || null;

/** The results an arbiter may enter for a board, and the scoresheet's. */
export const RESULTS = ['', '1-0', '0-1', '1/2', '+-', '-+', '--'];
export const GAME_RESULTS = ['', '1-0', '0-1', '1/2-1/2'];

/** The pairing table's arbiter column (result menus): on every row while the event is open
 *  and the page has rights; a menu on each board that is not a bye. */
export function arbiterColumn(ev, rights) {
  return rights.can && ev.status !== 'closed';
}
export const resultEntry = (ev, rights, b) => arbiterColumn(ev, rights) && !b.bye;

/** The exports offered: a knock-out has no CSV. */
export const exportFormats = bracket => (bracket ? ['pgn', 'trf', 'html'] : ['trf', 'pgn', 'csv', 'html']);

/** The parts of the event page to draw.
 *  @param {EventOut} ev @param {Rights} rights @param {BracketOut|null} bracket */
export function pageParts(ev, rights, bracket) {
  const open = ev.status !== 'closed';
  const last = ev.round_list[ev.round_list.length - 1] || null;
  return {
    // Nothing is left to organise once the event is closed (issue 37): no empty box.
    panel: rights.can && open,
    secretEntry: !rights.can && open,
    round: last,
    noRound: !last && !bracket,
    bracket: !!(bracket && bracket.rounds.length),
    // Live boards while the event runs (issue 31); the bulletin keeps the games afterwards.
    live: last && ev.status === 'running' ? last.round : null,
    standings: ev.completed_rounds > 0 && !bracket,
    earlier: ev.round_list.length > 1,
    verify: ev.status === 'closed',
    exports: exportFormats(bracket),
  };
}

/** The round's games still to open online: none while the server is to open them itself,
 *  nor once every game is open (issue 30), nor when every game is played (issue 37). */
export function onlineOpen(last) {
  return !!(last && !last.awaits_reveal && !last.opens_at &&
    last.boards.some(x => !x.bye && x.black && !x.result && !x.game_id));
}

/**
 * The staff's steps open now (`rights` {can, role}): the players' and byes' controls, start,
 * reveal (the round to reveal), pair, online, close, close early (issue 29: after the last
 * complete round, when no legal pairing is left or the event is cut short), the scoresheet
 * entry (its round) and the co-arbiters (the organiser only). Nothing without rights.
 * @param {EventOut} ev @param {Rights} rights
 */
export function staffActions(ev, rights) {
  const none = { players: false, byes: false, start: false, reveal: null, pair: false, online: false,
    close: false, closeEarly: false, gameEntry: null, arbiters: false };
  if (!rights.can || ev.status === 'closed') return none;
  const running = ev.status === 'running';
  const knockout = ev.system === 'knockout';
  const last = ev.round_list[ev.round_list.length - 1];
  const close = running && ev.paired_rounds === ev.rounds;
  return {
    players: ev.status === 'registration' || (running && ev.system === 'swiss'),
    byes: ev.players.length > 0 && !knockout,
    start: ev.status === 'registration',
    reveal: running && last && last.awaits_reveal ? last.round : null,
    pair: running && ev.paired_rounds < ev.rounds,
    online: running && ev.paired_rounds > 0 && onlineOpen(last),
    close,
    closeEarly: running && !close && !knockout && !!last && !last.boards.some(x => !x.bye && x.black && !x.result),
    gameEntry: ev.paired_rounds > 0 && !knockout ? ev.paired_rounds : null,
    arbiters: rights.role === 'organiser',
  };
}

// ---------------------------------------------------------------- the players' links

/** The players' links of a knock-out round still worth showing (issue 34): those of games not
 *  played yet in matches not decided yet (a decided match's links lead nowhere now). */
export function liveLinks(links, bracket) {
  const where = new Map();
  for (const r of bracket.rounds) {
    for (const m of r.matches) for (const g of m.games) if (g.game_id) where.set(g.game_id, { m, g });
  }
  return links.filter(l => {
    const found = where.get(l.game_id);
    return !found || (found.g.result === null && found.m.winner === null);
  });
}

/** The rounds' links still worth showing (a knock-out's go once their game is played or their
 *  match decided, issue 34), or null when none is left.
 *  @param {OnlineOut[]|null} rounds @param {BracketOut|null} bracket @returns {OnlineOut[]|null} */
export function shownLinks(rounds, bracket) {
  if (!rounds) return null;
  const left = bracket
    ? rounds.map(o => ({ ...o, games: liveLinks(o.games || [], bracket) })).filter(o => o.games.length)
    : rounds;
  return left.length ? left : null;
}

/** The links kept from a step's answer ({links} to show them once), else the answer itself:
 *  the reveal's games the server opens (issue 30), a round opened online, a knock-out's. */
export const revealAnswer = out => (out.online && out.online.length ? { links: out.online } : out);
export const onlineAnswer = out => ({ links: [out] });
export const bracketAnswer = (path, out) =>
  (path.endsWith('/online') && out && out.games ? { links: [out] } : out);

/** The links to draw: those last shown once, while their round is the one paired. */
export const roundLinks = (links, ev) => (links && links.some(o => o.round === ev.paired_rounds) ? links : null);

// ---------------------------------------------------------------- the event page

/** What the organiser opened and typed, by key: every redraw (every 5 s, and after each step)
 *  draws from it, so a refresh neither closes a section nor loses a half-typed field (issue
 *  30). `chosen`: results chosen in a board's menu but not entered yet. */
export function newUi() {
  return { open: {}, drafts: {}, chosen: new Map(), flash: null, refreshes: 0 };
}

// Scoresheets being typed, by event (issue 31): the page's refresh must not drop them.
const sheets = new Map();
const EMPTY_SHEET = { board: '1', text: '', result: '', replace: false };

/**
 * The event page's controller for event `id`. deps: api (tournamentApi), storage {get, set}
 * (the organiser secret), limits() → Promise<{player}>, redraw(out) → Promise: the view
 * refreshes after each step (`out`: the step's answer, {links} to show them once). State:
 * ui (newUi), links (the players' links last shown once: [{round, games}]), secret.
 */
export function createEventCtrl(id, { api, storage, limits, redraw }) {
  const state = { ui: newUi(), links: null, secret: storage.get(secretKey(id)) };
  const ui = state.ui;
  // The newest refresh wins: an older one whose answers arrive later (an automatic refresh
  // that started before the organiser's step) must not draw the state before the step.
  let started = 0;
  let drawn = 0;

  /** One step: `fn`'s answer goes to redraw; a refusal is said above the page. `done` runs
   *  after a success (e.g. to clear the fields the step used). */
  async function act(fn, { labels = {}, lims = {}, done = () => {} } = {}) {
    try {
      const out = await fn();
      ui.flash = null;
      done();
      await redraw(out);
    } catch (e) {
      ui.flash = refusalText(e, labels, lims);
      await redraw();
    }
  }
  const step = (path, body) => api.step(id, path, body, state.secret);
  const clear = (...keys) => () => { for (const k of keys) delete ui.drafts[k]; };

  return {
    state,
    act,
    /**
     * Ask for the event (and its staff, and a knock-out's bracket). `out`: a step's answer;
     * `auto`: an automatic refresh (a failure is then silent); `busy()`: a menu is open, an
     * automatic refresh waits. → {draw: {ev, staff, bracket, rights, links}} |
     * {error: {missing, message}} | {} (nothing to draw).
     */
    async load(out, { auto = false, busy = () => false } = {}) {
      const mine = ++started;
      if (out && out.links) state.links = out.links;
      let ev;
      let staff;
      try {
        [ev, staff] = await Promise.all([api.event(id), api.staff(id, state.secret)]);
      } catch (e) {
        if (auto) return {}; // a missed automatic refresh: the next one comes in 5 s
        return { error: { missing: e.status === 404, message: e.message } };
      }
      // A knock-out's bracket (issue 34): its rounds open one after the other.
      let bracket = null;
      if (ev.system === 'knockout') {
        bracket = await api.bracket(id).catch(() => null);
        if (bracket) ev.paired_rounds = bracket.opened;
      }
      if (mine < drawn) return {};
      // An open menu's list would close under the organiser's pointer: wait for the next one.
      if (auto && busy()) return {};
      drawn = mine;
      const rights = { can: !!staff.you, role: staff.you, secret: state.secret };
      return { draw: { ev, staff, bracket, rights, links: roundLinks(state.links, ev) } };
    },
    /** Use the organiser secret pasted (kept at the creation): checked against the staff. */
    async useSecret(value) {
      const seen = value ? await api.staff(id, value).catch(() => null) : null;
      if (seen && seen.you) {
        storage.set(secretKey(id), value);
        state.secret = value;
        delete ui.drafts.secret;
        ui.flash = null;
      } else {
        ui.flash = tt('wrongSecret');
      }
      await redraw();
    },
    start: () => act(() => step('start')),
    pair: () => act(() => step('pair')),
    close: () => act(() => step('close')),
    closeEarly: reason => act(() => step('close', { early: reason })),
    /** The digits drawn in the hall (issue 30); `online`: the server opens the round's games
     *  when the preparation ends, and their links are shown this once. */
    reveal: (round, digits, online) => act(async () => revealAnswer(
      await step(`rounds/${round}/reveal`, { input: digits, online })), { done: clear('reveal-digits') }),
    /** Open the round's games online (rated, issue 18: once both players claim their seats). */
    online: (round, rated) => act(async () => onlineAnswer(
      await step(`rounds/${round}/online`, rated ? { rated: true } : undefined))),
    /** A board's result (`reason`: a correction's); the menu's choice `key` then forgotten. */
    enterResult: (round, board, result, reason, key) => act(async () => {
      const body = { round, board, result };
      if (reason) body.reason = reason;
      const answer = await step('results', body);
      ui.chosen.delete(key);
      return answer;
    }),
    /** A scoresheet being typed for the current round (kept across refreshes). */
    sheet: () => sheets.get(id) || EMPTY_SHEET,
    keepSheet: sheet => { sheets.set(id, sheet); },
    storeGame: (round, sheet) => act(async () => {
      const answer = await step(`rounds/${round}/boards/${Number(sheet.board)}/game`,
        { text: sheet.text, result: sheet.result || null, replace: sheet.replace });
      sheets.delete(id);
      return answer;
    }),
    /** Enter a player, the fields checked against the server's limits before sending. */
    async addPlayer(values) {
      const lims = (await limits()).player;
      const problem = firstProblem(values, lims, playerLabels());
      if (problem) {
        ui.flash = problem;
        await redraw();
        return;
      }
      await act(() => step('players', {
        name: values.name, rating: values.rating ? Number(values.rating) : null, federation: values.federation || null,
      }), { labels: playerLabels(), lims, done: clear('player-name', 'player-rating', 'player-fed') });
    },
    bye: (player, round, kind) => act(() => step('byes', { player: Number(player), round: Number(round), kind })),
    withdraw: player => act(() => step(`players/${Number(player)}/withdraw`)),
    addArbiter: name => act(() => step('arbiters', { name }), { done: clear('arbiter-name') }),
    removeArbiter: name => act(() => api.remove(id, `arbiters/${encodeURIComponent(name)}`, state.secret)),
    /** A knock-out's organiser step from the bracket (issue 34): a result, bids, a round online;
     *  `keys`: the ui.drafts it was chosen or typed in (kept across redraws), forgotten once it
     *  is made (a refused one stays, to be corrected). */
    bracketStep: (path, body, keys = []) => act(async () => bracketAnswer(path, await step(path, body)),
      { done: clear(...keys) }),
  };
}

// ---------------------------------------------------------------- the knock-out's bids

/** Whether the event's Armageddon is decided by bids (issue 34). */
export const armageddonBids = format => format.armageddon.startsWith('bid:');

/** What the organiser may enter in a match: the next game's result, or the bids not in yet. */
export function matchControls(m) {
  if (m.status === 'playing' && m.next_game) return { result: m.next_game };
  if (m.status === 'bids') return { bids: [m.top, m.bottom].filter(n => !m.bids_in.includes(n)) };
  return null;
}

/** Whether a round's due games may be opened online by the staff now. */
export function koOnlineDue(ev, r, staff) {
  const due = r.matches.some(m => m.games.some(g => g.result === null && !g.game_id));
  return !!(staff && r.open && ev.status === 'running' && due);
}

/** Whether a match shows a player's own bid box: the event running with bids, the match
 *  awaiting them or its Armageddon open. */
export function bidBoxShown(ev, m, bids) {
  const arm = m.games.find(g => g.black_time_control !== null);
  const armOpen = arm && arm.game_id && arm.result === null;
  return ev.status === 'running' && !!bids && (m.status === 'bids' || !!armOpen);
}

/** The first seat this browser holds of the match's online games (`loadSeat`): {game_id, token}. */
export function heldSeat(m, loadSeat) {
  for (const g of m.games) {
    const seat = g.game_id ? loadSeat(g.game_id) : null;
    if (seat && seat.token) return { game_id: g.game_id, token: seat.token };
  }
  return null;
}

/**
 * The player's bid box from the server's answer (POST .../bids/mine): the field while the bid
 * is to make; the bid made, and whether the opponent's is still to come (the bids stay hidden
 * until both are in); the Armageddon to play once it opens (`held`: this browser has the seat).
 * @param {MyBidOut|null} state
 */
export function myBidView(state, held) {
  if (!state) return { input: false, made: null, play: null };
  return {
    input: state.mine === null && state.status === 'bids',
    base: state.base,
    made: state.mine !== null ? { seconds: state.mine, waiting: state.bids.length < 2 } : null,
    play: state.armageddon_game ? { game: state.armageddon_game, colour: state.colour === 'white' ? 'white' : 'black',
      held: !!(held && held.token) } : null,
  };
}

/**
 * A player's Armageddon bids (issue 34), kept across the page's redraws (every 5 s): the last
 * answer and the bid being typed per match, and the signed-in account's games (asked at most
 * every 20 s, only when needed): a player whose seat is their account's bids from any browser.
 */
export function createBidsCtrl(api, now = () => Date.now()) {
  const answers = new Map();
  const drafts = new Map();
  let games = { at: -Infinity, ids: null, asking: null };
  return {
    answers,
    drafts,
    /** The account's game ids known now, or null. */
    knownGames: () => games.ids,
    accountGameIds() {
      const at = now();
      if (!games.asking && at - games.at > 20_000) {
        games.at = at;
        games.asking = api.session()
          .then(s => (s.account ? api.accountGames() : { games: [] }))
          .then(r => new Set(r.games.map(g => g.id)), () => new Set())
          .then(ids => { games = { ...games, ids, asking: null }; return ids; });
      }
      return games.ids ? Promise.resolve(games.ids) : games.asking;
    },
    /** Ask (body without bid) or bid; the answer kept. → {state, changed}. */
    async send(eventId, key, body) {
      const out = await api.myBid(eventId, body);
      const changed = JSON.stringify(out) !== JSON.stringify(answers.get(key));
      answers.set(key, out);
      if (body.bid !== undefined) drafts.delete(key);
      return { state: out, changed };
    },
    seat: (eventId, body) => api.myBid(eventId, body, true),
  };
}
