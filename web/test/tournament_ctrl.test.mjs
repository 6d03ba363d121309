// The tournament pages' controller (web/src/tournament/ctrl.js, issue 27) driven from node: a
// fake server, fake limits, a fake storage, no DOM. Each test names the behaviour it guards.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.location = { search: '' };
globalThis.navigator = { language: 'en' };
globalThis.document = { documentElement: {} };

const { setLang } = await import('../src/i18n.js');
const {
  bidBoxShown, clockText, countdownText, createBidsCtrl, createEventCtrl, createNewCtrl, eventRequest,
  exportFormats, formFields, heldSeat, limitsLoader, matchControls, myBidView, koOnlineDue, opensText,
  pageParts, resultEntry, resultLabel, roundLinks, shownLinks, staffActions, tournamentApi,
} = await import('../src/tournament/ctrl.js');

setLang('en');

// POST /api/tournaments's and POST .../players's limits as limits.js reads them.
const CREATE_LIMITS = { name: { minLength: 1, maxLength: 80, type: 'string' },
  rounds: { min: 1, max: 30, type: 'integer' }, time_control: { maxLength: 40, type: 'string' },
  eval_band: { above: 0, max: 5, type: 'number' }, preview: { min: 0, max: 600, type: 'integer' } };
const PLAYER_LIMITS = { name: { minLength: 1, maxLength: 60, type: 'string' },
  rating: { min: 0, max: 4000, type: 'integer' }, federation: { maxLength: 3, type: 'string' } };

/** A fake request(method, path, body, headers) over `routes` ("METHOD path": answer or fn). */
function server(routes = {}) {
  const calls = [];
  const request = async (method, path, body, headers = {}) => {
    calls.push({ method, path, body, headers });
    const answer = routes[`${method} ${path}`];
    if (answer === undefined) throw Object.assign(new Error(`no route ${method} ${path}`), { status: 404 });
    const out = await (typeof answer === 'function' ? answer(body, headers) : answer);
    if (out instanceof Error) throw out;
    return structuredClone(out);
  };
  const limitsOf = async path => (path.endsWith('/players') ? PLAYER_LIMITS : CREATE_LIMITS);
  return { api: tournamentApi(request, limitsOf), calls };
}

function memory(items = {}) {
  const kept = new Map(Object.entries(items));
  return { get: key => kept.get(key) ?? null, set: (key, value) => kept.set(key, value), kept };
}

const board = (n, extra = {}) => ({ board: n, white: 2 * n - 1, black: 2 * n, result: '', bye: null,
  setup: 518, fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', game_id: null, ...extra });
const round = (n, boards, extra = {}) => ({ round: n, boards, awaits_reveal: false, opens_at: null, reveal: null, ...extra });
const players = k => Array.from({ length: k }, (_, i) => ({ number: i + 1, name: `P${i + 1}` }));
const event = (extra = {}) => ({ id: 'e1', name: 'Open', system: 'swiss', status: 'running', rounds: 3,
  paired_rounds: 1, completed_rounds: 0, players: players(4), round_list: [round(1, [board(1), board(2)])], ...extra });
const ORGANISER = { can: true, role: 'organiser', secret: null };
const ARBITER = { can: true, role: 'arbiter', secret: null };
const NOBODY = { can: false, role: null, secret: null };

const FORM = { name: 'Open', variant: 'chess960', system: 'swiss', rounds: '5', time_control: '5400+30',
  setup_policy: 'round', tiebreaks: '', bishops: 'any', initial_colour: 'white', mini_match: false,
  exclude_standard: true, no_repeat: false, eval_band: '', setup_source: 'salt', excluded: '', shortlist: '',
  prep_minutes: '0', preview: '', ko: { games: '2', stages: '2:600+5; 2:300+3', armageddon: ' bid:300+2 ',
    setups: 'match', seeding: 'rating' } };

function newCtrl(routes) {
  const { api, calls } = server(routes);
  const storage = memory();
  return { ctrl: createNewCtrl({ api, limits: limitsLoader(api), storage }), calls, storage };
}

test('the creation form: limits explained before anything is sent, rounds only for a Swiss', async () => {
  const { ctrl, calls } = newCtrl();
  assert.match((await ctrl.submit({ ...FORM, name: '' })).error, /Name/);
  assert.match((await ctrl.submit({ ...FORM, rounds: '99' })).error, /Rounds/);
  assert.match((await ctrl.submit({ ...FORM, preview: '601' })).error, /600/);
  setLang('es');
  assert.match((await ctrl.submit({ ...FORM, eval_band: '9' })).error, /5/);
  setLang('en');
  assert.deepEqual(calls, []);
  // a round robin's rounds follow from its players: the field is not checked, nor sent
  const { ctrl: rr, calls: sent } = newCtrl({ 'POST /api/tournaments': { id: 'e2', organiser: 'ann', organiser_secret: null } });
  assert.equal((await rr.submit({ ...FORM, system: 'rr', rounds: '99' })).event.id, 'e2');
  assert.equal(sent[0].body.rounds, null);
  assert.deepEqual(formFields('rr'), { rounds: false, roundOnly: true, knockout: false });
  assert.deepEqual(formFields('knockout'), { rounds: false, roundOnly: false, knockout: true });
});

test('the creation request: a Swiss body as typed, a knock-out to its own route', () => {
  const swiss = eventRequest({ ...FORM, tiebreaks: 'BH-C1, BH,,SB', eval_band: '0.3', shortlist: ' ', preview: '30' });
  assert.equal(swiss.path, '/api/tournaments');
  assert.deepEqual(swiss.body.tiebreaks, ['BH-C1', 'BH', 'SB']);
  assert.deepEqual([swiss.body.rounds, swiss.body.eval_band, swiss.body.shortlist, swiss.body.preview,
    swiss.body.prep_minutes], [5, 0.3, null, 30, 0]);
  assert.equal(eventRequest(FORM).body.tiebreaks, null);
  const ko = eventRequest({ ...FORM, system: 'knockout' });
  assert.equal(ko.path, '/api/tournaments/knockout');
  assert.deepEqual(ko.body.tiebreaks, ['2:600+5', '2:300+3']);
  assert.deepEqual([ko.body.games, ko.body.armageddon, ko.body.match_setups, ko.body.seeding, ko.body.preview],
    [2, 'bid:300+2', 'match', 'rating', null]);
  assert.equal('rounds' in ko.body, false);
  assert.equal('setup_policy' in ko.body, false);
});

test('an event made without an account keeps its secret; a refusal is said in words', async () => {
  const { ctrl, storage } = newCtrl({ 'POST /api/tournaments': { id: 'e3', organiser: null, organiser_secret: 's3' } });
  const out = await ctrl.submit(FORM);
  assert.equal(out.event.organiser_secret, 's3');
  assert.equal(storage.kept.get('rc-tournament-e3'), 's3');
  const refused = newCtrl({ 'POST /api/tournaments': Object.assign(new Error('unknown variant'), { status: 400 }) });
  assert.equal((await refused.ctrl.submit(FORM)).error, 'Error: unknown variant');
});

test('staff and players: only the staff get steps, co-arbiters no arbiters list, none once closed', () => {
  const ev = event();
  const organiser = staffActions(ev, ORGANISER);
  assert.deepEqual(organiser, { players: true, byes: true, start: false, reveal: null, pair: true, online: true,
    close: false, closeEarly: false, gameEntry: 1, arbiters: true });
  assert.deepEqual({ ...staffActions(ev, ARBITER), arbiters: true }, organiser);
  assert.equal(staffActions(ev, ARBITER).arbiters, false);
  const none = staffActions(ev, NOBODY);
  assert.ok(Object.values(none).every(v => v === false || v === null));
  assert.ok(Object.values(staffActions({ ...ev, status: 'closed' }, ORGANISER)).every(v => v === false || v === null));
  // the page: the panel with rights, the secret's field without; neither once closed
  assert.deepEqual([pageParts(ev, ORGANISER, null).panel, pageParts(ev, ORGANISER, null).secretEntry], [true, false]);
  assert.deepEqual([pageParts(ev, NOBODY, null).panel, pageParts(ev, NOBODY, null).secretEntry], [false, true]);
  const closed = pageParts({ ...ev, status: 'closed' }, NOBODY, null);
  assert.deepEqual([closed.panel, closed.secretEntry, closed.verify, closed.live], [false, false, true, null]);
  // the results' menus: a column for the staff, a menu on every board but a bye
  assert.equal(resultEntry(ev, ORGANISER, board(1)), true);
  assert.equal(resultEntry(ev, ORGANISER, board(3, { bye: 'U', black: null })), false);
  assert.equal(resultEntry(ev, NOBODY, board(1)), false);
});

test('the steps follow the event: start, reveal, online, close, close early', () => {
  const registration = event({ status: 'registration', paired_rounds: 0, round_list: [] });
  const r = staffActions(registration, ORGANISER);
  assert.deepEqual([r.start, r.players, r.pair, r.gameEntry], [true, true, false, null]);
  // a hall round to reveal: no online games before the reveal
  const hall = event({ round_list: [round(1, [board(1, { setup: null, fen: '' })], { awaits_reveal: true })] });
  assert.deepEqual([staffActions(hall, ORGANISER).reveal, staffActions(hall, ORGANISER).online], [1, false]);
  // the server opens the games itself: no online button; nor once every game is open or played
  const opens = event({ round_list: [round(1, [board(1)], { opens_at: 5 })] });
  assert.equal(staffActions(opens, ORGANISER).online, false);
  const open = event({ round_list: [round(1, [board(1, { game_id: 'g1' }), board(2, { result: '1-0' })])] });
  assert.equal(staffActions(open, ORGANISER).online, false);
  // every game played in the last round: close early (a Swiss cut short), the players' list stays
  const played = event({ round_list: [round(1, [board(1, { result: '1-0' }), board(2, { result: '0-1' })])] });
  assert.deepEqual([staffActions(played, ORGANISER).closeEarly, staffActions(played, ORGANISER).close], [true, false]);
  const done = event({ paired_rounds: 3, round_list: played.round_list });
  assert.deepEqual([staffActions(done, ORGANISER).close, staffActions(done, ORGANISER).closeEarly,
    staffActions(done, ORGANISER).pair], [true, false, false]);
  // a round robin takes no players once running; a knock-out no byes, no scoresheet, no early close
  assert.equal(staffActions(event({ system: 'rr' }), ORGANISER).players, false);
  const ko = staffActions(event({ system: 'knockout', round_list: played.round_list }), ORGANISER);
  assert.deepEqual([ko.byes, ko.gameEntry, ko.closeEarly], [false, null, false]);
});

test('the links shown per round: the round paired only, a knock-out\'s decided matches hidden', () => {
  const links = [{ round: 1, games: [{ board: 1, game_id: 'g1' }, { board: 2, game_id: 'g2' }] }];
  assert.equal(roundLinks(links, { paired_rounds: 1 }), links);
  assert.equal(roundLinks(links, { paired_rounds: 2 }), null);  // the next round paired: gone
  assert.equal(roundLinks(null, { paired_rounds: 1 }), null);
  assert.equal(shownLinks(links, null), links);
  const game = (id, result) => ({ game_id: id, result });
  const bracket = { rounds: [{ matches: [
    { winner: null, games: [game('g1', null)] },
    { winner: 3, games: [game('g2', null)] },  // decided: its link leads nowhere now
  ] }] };
  assert.deepEqual(shownLinks(links, bracket), [{ round: 1, games: [{ board: 1, game_id: 'g1' }] }]);
  bracket.rounds[0].matches[0].games[0].result = '1-0';  // played
  assert.equal(shownLinks(links, bracket), null);
  assert.equal(shownLinks(null, bracket), null);
});

/** An event page's controller over a fake server; `redraws` collects the steps' answers. */
function eventCtrl(routes, items = {}) {
  const { api, calls } = server(routes);
  const storage = memory(items);
  const redraws = [];
  const ctrl = createEventCtrl('e1', { api, storage, limits: limitsLoader(api),
    redraw: async out => { redraws.push(out); } });
  return { ctrl, calls, storage, redraws };
}

test('the reveal answer\'s links are kept and shown once, while their round is the one paired', async () => {
  const online = [{ round: 1, games: [{ board: 1, white: { link: '/w' }, black: { link: '/b' } }] }];
  const ev = event({ round_list: [round(1, [board(1)], { opens_at: 9 })] });
  const { ctrl, calls, redraws } = eventCtrl({
    'POST /api/tournaments/e1/rounds/1/reveal': { online },
    'GET /api/tournaments/e1': () => ev,
    'GET /api/tournaments/e1/staff': { you: 'organiser', organiser: 'ann', arbiters: [] },
  }, { 'rc-tournament-e1': 'sec' });
  ctrl.state.ui.drafts['reveal-digits'] = '123456';
  await ctrl.reveal(1, '123456', true);
  assert.deepEqual(calls[0], { method: 'POST', path: '/api/tournaments/e1/rounds/1/reveal',
    body: { input: '123456', online: true }, headers: { 'X-Organiser-Secret': 'sec' } });
  assert.deepEqual(redraws, [{ links: online }]);
  assert.equal(ctrl.state.ui.drafts['reveal-digits'], undefined);  // the digits used are cleared
  const first = await ctrl.load(redraws[0]);
  assert.deepEqual(first.draw.links, online);
  // the automatic refreshes that follow keep them; the next round paired drops them
  assert.deepEqual((await ctrl.load(undefined, { auto: true })).draw.links, online);
  ev.paired_rounds = 2;
  assert.equal((await ctrl.load(undefined, { auto: true })).draw.links, null);
});

test('a refresh: rights from the staff answer, a stale or busy one not drawn, a missing event said', async () => {
  let answer;
  const pending = new Promise(resolve => { answer = resolve; });
  let first = true;
  const { ctrl } = eventCtrl({
    'GET /api/tournaments/e1': () => event(),
    // the first staff answer arrives after the second refresh's
    'GET /api/tournaments/e1/staff': () => (first ? (first = false, pending) : { you: 'arbiter', arbiters: ['bob'] }),
  });
  const older = ctrl.load(undefined, { auto: true });
  const newer = await ctrl.load();
  assert.deepEqual(newer.draw.rights, { can: true, role: 'arbiter', secret: null });
  answer({ you: null, arbiters: [] });
  assert.deepEqual(await older, {});  // older than what is drawn: not drawn
  assert.deepEqual(await ctrl.load(undefined, { auto: true, busy: () => true }), {});  // a menu open
  assert.ok((await ctrl.load(undefined, { busy: () => true })).draw);  // a step's redraw draws
  const { ctrl: gone } = eventCtrl({});
  assert.deepEqual(await gone.load(), { error: { missing: true, message: 'no route GET /api/tournaments/e1' } });
  assert.deepEqual(await gone.load(undefined, { auto: true }), {});  // an automatic one is silent
});

test('the organiser secret: a wrong one is said, a right one kept and sent', async () => {
  const { ctrl, storage, calls } = eventCtrl({
    'GET /api/tournaments/e1/staff': (body, headers) => ({ you: headers['X-Organiser-Secret'] === 'good' ? 'organiser' : null,
      arbiters: [] }),
  });
  await ctrl.useSecret('bad');
  assert.equal(ctrl.state.ui.flash, 'This secret does not run this event.');
  assert.equal(storage.kept.size, 0);
  ctrl.state.ui.drafts.secret = 'good';
  await ctrl.useSecret('good');
  assert.equal(ctrl.state.ui.flash, null);
  assert.equal(storage.kept.get('rc-tournament-e1'), 'good');
  assert.equal(ctrl.state.ui.drafts.secret, undefined);
  await ctrl.useSecret('');  // nothing typed: nothing asked
  assert.equal(calls.length, 2);
});

test('a player entered: limits checked first, the fields cleared after; a refusal flashed', async () => {
  const { ctrl, calls, redraws } = eventCtrl({
    'POST /api/tournaments/e1/players': body => (body.name === 'Dup' ? Object.assign(new Error('taken'), { status: 409 }) : { number: 5 }),
  });
  await ctrl.addPlayer({ name: 'Ann', rating: '99999', federation: 'ESP' });
  assert.match(ctrl.state.ui.flash, /Rating/);
  assert.deepEqual(calls, []);
  Object.assign(ctrl.state.ui.drafts, { 'player-name': 'Ann', 'player-rating': '2100', 'player-fed': 'ESP' });
  await ctrl.addPlayer({ name: 'Ann', rating: '2100', federation: '' });
  assert.deepEqual(calls[0].body, { name: 'Ann', rating: 2100, federation: null });
  assert.equal(ctrl.state.ui.flash, null);
  assert.deepEqual(ctrl.state.ui.drafts, {});
  ctrl.state.ui.drafts['player-name'] = 'Dup';
  await ctrl.addPlayer({ name: 'Dup', rating: '', federation: '' });
  assert.equal(ctrl.state.ui.flash, 'Error: taken');
  assert.equal(ctrl.state.ui.drafts['player-name'], 'Dup');  // kept to correct
  assert.equal(redraws.length, 3);
});

test('results, corrections, online rounds, byes and arbiters: the requests the steps make', async () => {
  const { ctrl, calls, redraws } = eventCtrl({
    'POST /api/tournaments/e1/results': { ok: true },
    'POST /api/tournaments/e1/rounds/2/online': { round: 2, games: [] },
    'POST /api/tournaments/e1/byes': {},
    'POST /api/tournaments/e1/players/3/withdraw': {},
    'DELETE /api/tournaments/e1/arbiters/b%20b': {},
    'POST /api/tournaments/e1/rounds/2/boards/4/game': {},
  });
  ctrl.state.ui.chosen.set('e1:1:2', '1-0');
  await ctrl.enterResult(1, 2, '1-0', null, 'e1:1:2');
  await ctrl.enterResult(1, 2, '0-1', 'typo', 'e1:1:2');
  assert.deepEqual(calls.map(c => c.body), [{ round: 1, board: 2, result: '1-0' },
    { round: 1, board: 2, result: '0-1', reason: 'typo' }]);
  assert.equal(ctrl.state.ui.chosen.size, 0);
  await ctrl.online(2, true);
  assert.deepEqual(calls[2].body, { rated: true });
  assert.deepEqual(redraws[2], { links: [{ round: 2, games: [] }] });
  await ctrl.online(2, false);
  assert.equal(calls[3].body, undefined);
  await ctrl.bye('3', '2', 'H');
  await ctrl.withdraw('3');
  await ctrl.removeArbiter('b b');
  assert.deepEqual(calls.slice(4).map(c => [c.method, c.path, c.body]), [
    ['POST', '/api/tournaments/e1/byes', { player: 3, round: 2, kind: 'H' }],
    ['POST', '/api/tournaments/e1/players/3/withdraw', undefined],
    ['DELETE', '/api/tournaments/e1/arbiters/b%20b', undefined]]);
  // the scoresheet typed is kept across redraws, and forgotten once stored
  ctrl.keepSheet({ board: '4', text: '1. e4', result: '', replace: false });
  assert.equal(ctrl.sheet().text, '1. e4');
  await ctrl.storeGame(2, ctrl.sheet());
  assert.deepEqual(calls.at(-1).body, { text: '1. e4', result: null, replace: false });
  assert.equal(ctrl.sheet().text, '');
});

test('a knock-out: the organiser enters results or the bids not in; the player\'s bids hidden until both are in', () => {
  assert.deepEqual(matchControls({ status: 'playing', next_game: 3 }), { result: 3 });
  assert.deepEqual(matchControls({ status: 'bids', top: 1, bottom: 8, bids_in: [8] }), { bids: [1] });
  assert.equal(matchControls({ status: 'decided' }), null);
  const arm = { black_time_control: '240+2', game_id: 'g9', result: null };
  const running = { status: 'running' };
  assert.equal(bidBoxShown(running, { status: 'bids', games: [] }, true), true);
  assert.equal(bidBoxShown(running, { status: 'bids', games: [] }, false), false);  // no bidding
  assert.equal(bidBoxShown(running, { status: 'playing', games: [arm] }, true), true);  // its Armageddon open
  assert.equal(bidBoxShown({ status: 'closed' }, { status: 'bids', games: [] }, true), false);
  // the bid made: the opponent's not in yet, so neither is shown
  assert.deepEqual(myBidView({ mine: 120, status: 'bids', bids: [], base: 300 }, null).made,
    { seconds: 120, waiting: true });
  const both = myBidView({ mine: 120, status: 'armageddon', bids: [{}, {}], armageddon_game: 'g9', colour: 'black' },
    { token: 't' });
  assert.deepEqual([both.input, both.made.waiting, both.play], [false, false, { game: 'g9', colour: 'black', held: true }]);
  assert.equal(myBidView({ mine: null, status: 'bids', bids: [], base: 300 }, null).input, true);
  assert.deepEqual(myBidView(null, null), { input: false, made: null, play: null });
  const seats = { g2: { token: 'x' } };
  assert.deepEqual(heldSeat({ games: [{ game_id: 'g1' }, { game_id: 'g2' }] }, id => seats[id] || null),
    { game_id: 'g2', token: 'x' });
  // the round's due games open online with the staff's rights only
  const r = { open: true, matches: [{ games: [{ result: null, game_id: null }] }] };
  assert.equal(koOnlineDue(running, r, 'sec'), true);
  assert.equal(koOnlineDue(running, r, null), false);
  assert.deepEqual(exportFormats({}), ['pgn', 'trf', 'html']);
});

test('a knock-out step from the bracket: the result chosen or the bid typed forgotten once sent, kept when refused', async () => {
  const { ctrl, calls, redraws } = eventCtrl({
    'POST /api/tournaments/e1/games': { round: 1, match: 2, games: [] },
    'POST /api/tournaments/e1/bids': body => (body.bid === '-5'
      ? Object.assign(new Error('negative'), { status: 422 }) : { seconds: 200 }),
  });
  const { drafts } = ctrl.state.ui;
  Object.assign(drafts, { 'ko-result-1-2-3': '1/2', 'ko-bid-1-4-5': '-5', 'ko-bid-1-4-6': '90' });
  await ctrl.bracketStep('games', { round: 1, match: 2, game: 3, result: '1/2' }, ['ko-result-1-2-3']);
  assert.deepEqual(calls[0].body, { round: 1, match: 2, game: 3, result: '1/2' });
  assert.equal(drafts['ko-result-1-2-3'], undefined);
  await ctrl.bracketStep('bids', { round: 1, match: 4, player: 5, bid: '-5' }, ['ko-bid-1-4-5']);
  assert.equal(ctrl.state.ui.flash, 'Error: negative');
  assert.equal(drafts['ko-bid-1-4-5'], '-5');  // kept to correct
  drafts['ko-bid-1-4-5'] = '200';
  await ctrl.bracketStep('bids', { round: 1, match: 4, player: 5, bid: '200' }, ['ko-bid-1-4-5']);
  assert.deepEqual([ctrl.state.ui.flash, drafts['ko-bid-1-4-5'], drafts['ko-bid-1-4-6']], [null, undefined, '90']);
  assert.equal(redraws.length, 3);
});

test('a player\'s bid kept across redraws; the account\'s games asked at most every 20 s', async () => {
  let clock = 0;
  const { api, calls } = server({
    'POST /api/tournaments/e1/bids/mine': body => ({ mine: body.bid === undefined ? null : Number(body.bid), bids: [] }),
    'GET /api/account/session': { account: { name: 'ann' } },
    'GET /api/account/games': { games: [{ id: 'g1' }] },
  });
  const bids = createBidsCtrl(api, () => clock);
  bids.drafts.set('e1/1-1', '12');
  assert.equal((await bids.send('e1', 'e1/1-1', { round: 1, match: 1 })).changed, true);
  assert.equal((await bids.send('e1', 'e1/1-1', { round: 1, match: 1 })).changed, false);  // nothing new
  assert.equal(bids.drafts.get('e1/1-1'), '12');  // the field being typed stays
  const sent = await bids.send('e1', 'e1/1-1', { round: 1, match: 1, bid: '12' });
  assert.deepEqual([sent.state.mine, bids.drafts.has('e1/1-1')], [12, false]);
  assert.deepEqual([...await bids.accountGameIds()], ['g1']);
  await bids.accountGameIds();
  clock = 21_000;
  await bids.accountGameIds();
  assert.equal(calls.filter(c => c.path === '/api/account/session').length, 2);
});

test('the words of the page: results, byes, countdowns', () => {
  assert.equal(resultLabel({ bye: 'H' }), 'half-point bye');
  assert.equal(resultLabel({ bye: 'U' }), 'bye');
  assert.equal(resultLabel({ result: '1-0' }), '1-0');
  assert.equal(clockText(61_001), '1:02');
  assert.equal(clockText(-5), '0:00');
  assert.match(opensText(90_000), /1:30/);
  assert.equal(opensText(0), 'Opening the games…');
  assert.equal(countdownText(-1), 'The preparation time is over: the games may start.');
  setLang('es');
  assert.notEqual(countdownText(-1), 'The preparation time is over: the games may start.');
  setLang('en');
});
