// The lobby page's controller (web/src/lobby/ctrl.js, issue 27) driven from node: a fake
// server, fake limits, a fake page clock, no DOM. Each test names the behaviour it guards.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.location = { search: '' };
globalThis.navigator = { language: 'en' };
globalThis.document = { documentElement: {} };

const { setLang } = await import('../src/i18n.js');
const { createLobbyCtrl, seekRequest, seekRow, clockProblem } = await import('../src/lobby/ctrl.js');

const LIMITS = { 'clock.minutes': { above: 0, max: 600, type: 'number' },
  'clock.increment': { min: 0, max: 600, type: 'number' } };
const FORM = { variant: 'chess960', minutes: '5', increment: '3', days: '', control: '', setupKind: 'random',
  number: '', rated: true, preview: '', challenge: '' };

function harness(routes = {}) {
  const calls = [];
  const seats = [];
  const went = [];
  let clock = 1000;
  const call = async (method, path, body) => {
    calls.push([method, path, body]);
    const answer = routes[`${method} ${path}`];
    if (answer === undefined) throw Object.assign(new Error(`no route ${method} ${path}`), { status: 404 });
    const out = typeof answer === 'function' ? answer(body) : answer;
    if (out instanceof Error) throw out;
    return out;
  };
  const ctrl = createLobbyCtrl('alice', {
    call, limitsOf: async () => LIMITS, clientValue: () => 'ab'.repeat(16),
    saveSeat: (id, seat) => seats.push([id, seat]), go: path => went.push(path), now: () => clock,
  });
  return { ctrl, calls, seats, went, tick: ms => { clock += ms; } };
}

test('a seek is posted as the form says: clock, setup, preview, or a challenge', () => {
  assert.deepEqual(seekRequest(FORM), { path: '/api/lobby/seeks',
    body: { variant: 'chess960', rated: true, setup: 'random', clock: { minutes: 5, increment: 3 } } });
  assert.deepEqual(seekRequest({ ...FORM, number: '518', preview: '30' }).body,
    { variant: 'chess960', rated: true, setup: 518, clock: { minutes: 5, increment: 3 }, preview: 30 });
  assert.deepEqual(seekRequest({ ...FORM, days: '3', preview: '30' }).body.clock, { days: 3 });
  assert.equal('preview' in seekRequest({ ...FORM, days: '3', preview: '30' }).body, false);
  const written = seekRequest({ ...FORM, days: '3', control: ' 40/5400+30:1800+30 ', preview: '0' });
  assert.deepEqual(written.body.clock, { control: '40/5400+30:1800+30' });
  assert.equal(written.body.preview, 0);
  const named = seekRequest({ ...FORM, challenge: ' bob ', setupKind: 'new-per-game' });
  assert.equal(named.path, '/api/lobby/challenges');
  assert.deepEqual([named.body.name, named.body.setup], ['bob', 'new-per-game']);
});

test('a clock outside the server limits is explained before anything is sent', async () => {
  setLang('es');
  const { ctrl, calls } = harness();
  assert.match((await ctrl.post({ ...FORM, minutes: '999' })).error, /600/);
  assert.match((await ctrl.quick({ ...FORM, control: '*60' })).error, /no tiene un reloj que funcione en línea/);
  assert.match(clockProblem({ ...FORM, control: '36001' }, LIMITS), /fuera de rango/);
  assert.equal(clockProblem({ ...FORM, days: '7', minutes: '999' }, LIMITS), null);
  assert.deepEqual(calls, []);
  setLang('en');
});

test('posting and quick pairing: the seek is remembered as ours, a pairing goes to the game', async () => {
  const { ctrl, calls, seats, went } = harness({
    'POST /api/lobby/seeks': { id: 's1' },
    'POST /api/lobby/quick': body => (body.clock.control === '5400+30'
      ? { paired: true, id: 'g7', seat: { color: 'black', token: 't' } } : { paired: false, seek: 's2' }),
  });
  assert.deepEqual(await ctrl.post(FORM), { ok: true });
  assert.deepEqual(await ctrl.quick({ ...FORM, control: '40/5400+30:1800+30' }), { ok: true });
  assert.deepEqual([...ctrl.state.mine], ['s1', 's2']);
  assert.deepEqual(calls[1][2], { variant: 'chess960', clock: { control: '40/5400+30:1800+30' },
    rated: true, client_value: 'ab'.repeat(16) });
  await ctrl.quick({ ...FORM, control: '5400+30' });
  assert.deepEqual(seats, [['g7', { color: 'black', token: 't', opponent: 'friend' }]]);
  assert.deepEqual(went, ['/game/g7']);
});

test('the socket frames build the open seeks; one of ours that started takes our seat', async () => {
  const { ctrl, seats, went, tick } = harness({
    'POST /api/account/games/g1/seat': { seat: { color: 'white', token: 'w' } },
  });
  const seek = (id, player, expires = 60_000) => ({ id, player, expires_in_ms: expires, setup: 'random',
    clock: { minutes: 3, increment: 2 }, rated: false, preview: 0 });
  assert.equal(ctrl.frame({ type: 'pong' }), null);
  assert.deepEqual(ctrl.frame({ type: 'seeks', seeks: [seek('a', 'alice'), seek('b', 'bob', 500)] }), { started: null });
  let open = ctrl.open();
  assert.deepEqual(open.open.map(s => s.id), ['a', 'b']);
  assert.equal(open.next, 1500);
  assert.ok(ctrl.state.mine.has('a') && !ctrl.state.mine.has('b'));  // our own seek is ours
  tick(600);
  assert.deepEqual(ctrl.open().open.map(s => s.id), ['a']);  // b lapsed on the page clock
  const out = ctrl.frame({ type: 'seeks-delta', added: [], removed: ['a'], started: { seek: 'a', game: 'g1' } });
  assert.equal(out.started, 'g1');
  assert.deepEqual(await ctrl.takeSeat(out.started), { ok: true });
  assert.deepEqual([seats, went], [[['g1', { color: 'white', token: 'w', opponent: 'friend' }]], ['/game/g1']]);
  // someone else's seek that started is not ours
  assert.equal(ctrl.frame({ type: 'seeks-delta', added: [], removed: [], started: { seek: 'b', game: 'g2' } }).started, null);
});

test('a seek row: whose, its setup and clock, its mode; a challenge to us can be declined', () => {
  const row = seekRow({ player: 'bob', setup: 'new-per-game', clock: { control: '300+3d' }, rated: true,
    preview: 30, challenge: true }, 'alice');
  assert.equal(row.own, false);
  assert.equal(row.clock, '300+3d');
  assert.equal(row.mode, 'Rated');
  assert.ok(row.canDecline && row.preview.includes('30'));
  const mine = seekRow({ player: 'alice', setup: 518, clock: { days: 3 }, rated: false, preview: 0, challenge: true }, 'alice');
  assert.deepEqual([mine.own, mine.setup, mine.canDecline, mine.preview], [true, '#518', false, '']);
  assert.match(mine.clock, /3/);
});

test('accepting, cancelling and declining: a refusal is said in the page language', async () => {
  const { ctrl, calls, went } = harness({
    'POST /api/lobby/seeks/s9/accept': { id: 'g3', seat: { color: 'black', token: 'b' } },
    'DELETE /api/lobby/seeks/s8': Object.assign(new Error('not yours'), { status: 404 }),
  });
  assert.deepEqual(await ctrl.accept('s9'), { ok: true });
  assert.deepEqual(calls[0][2], { client_value: 'ab'.repeat(16) });
  assert.deepEqual(went, ['/game/g3']);
  assert.match((await ctrl.remove('s8')).error, /not yours/);
});
