// The account page's controller (web/src/account/ctrl.js, issue 27) driven from node: a fake
// server, fake form limits, no DOM. Each test names the behaviour it guards.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.location = { search: '' };
globalThis.navigator = { language: 'en' };
globalThis.document = { documentElement: {} };

const { setLang } = await import('../src/i18n.js');
const {
  createAccountCtrl, gameText, gamesQuery, signUpProblem, SIGN_UP_RULES,
} = await import('../src/account/ctrl.js');

/** A fake server: answers by "METHOD path" (a function of the body, or a value; an Error
 *  object is thrown), and the calls made. */
function fakeServer(routes) {
  const calls = [];
  const call = async (method, path, body) => {
    calls.push([method, path, body]);
    const answer = routes[`${method} ${path}`];
    if (answer === undefined) throw Object.assign(new Error(`no route ${method} ${path}`), { status: 404 });
    const out = typeof answer === 'function' ? answer(body) : answer;
    if (out instanceof Error) throw out;
    return out;
  };
  return { call, calls };
}

const refused = (message, extra = {}) => Object.assign(new Error(message), extra);
const LIMITS = { name: { minLength: 1, maxLength: 20 }, password: { minLength: 1, maxLength: 200 } };

test('a sign-up is checked against the server rules before anything is sent', async () => {
  setLang('en');
  const server = fakeServer({});
  const ctrl = createAccountCtrl({ call: server.call, limitsOf: async () => LIMITS });
  const r = SIGN_UP_RULES;
  assert.match((await ctrl.signUp('ab', 'long enough pw', 'long enough pw')).error, new RegExp(`${r.nameLow}`));
  assert.match((await ctrl.signUp('_bad', 'long enough pw', 'long enough pw')).error, /name/i);
  assert.match((await ctrl.signUp('alice', 'short', 'short')).error, new RegExp(`${r.password}`));
  assert.ok((await ctrl.signUp('alice', 'long enough pw', 'other one pw')).error);
  assert.deepEqual(server.calls, []);
  assert.equal(signUpProblem('alice', 'long enough pw', 'long enough pw'), null);
});

test('logging in sends the form once it fits the limits, and a refusal is said in words', async () => {
  setLang('es');
  const server = fakeServer({
    'POST /api/account/login': body => (body.password === 'right one'
      ? {} : refused('nombre o contraseña incorrectos', { status: 401, code: 'account.wrong_login' })),
  });
  const ctrl = createAccountCtrl({ call: server.call, limitsOf: async () => LIMITS });
  const tooLong = await ctrl.logIn('x'.repeat(21), 'pw');
  assert.match(tooLong.error, /20/);
  assert.deepEqual(server.calls, []);
  const wrong = await ctrl.logIn('carol', 'wrong');
  assert.match(wrong.error, /nombre o contraseña incorrectos/);
  assert.deepEqual(await ctrl.logIn('carol', 'right one'), { ok: true, changed: true });
  assert.deepEqual(server.calls.at(-1), ['POST', '/api/account/login', { name: 'carol', password: 'right one' }]);
  setLang('en');
});

test('loading the page: the CSRF cookie for the forms, or the account with its games and turn', async () => {
  const anon = fakeServer({ 'GET /api/account/session': { account: null }, 'GET /api/account/csrf': {} });
  assert.deepEqual(await createAccountCtrl({ call: anon.call }).load(), { user: null });
  assert.deepEqual(anon.calls.map(c => c[1]), ['/api/account/session', '/api/account/csrf']);
  const user = { name: 'bob', ratings: [] };
  const known = fakeServer({
    'GET /api/account/session': { account: user },
    'GET /api/account/games': { games: [{ id: 'g1' }] },
    'GET /api/account/turn': { details: [{ id: 'g2' }] },
  });
  assert.deepEqual(await createAccountCtrl({ call: known.call }).load(),
    { user, games: [{ id: 'g1' }], turn: [{ id: 'g2' }] });
});

test('the password change says so; deletion and logging out redraw the page', async () => {
  const server = fakeServer({
    'POST /api/account/password': {}, 'POST /api/account/delete': {},
    'POST /api/account/logout': {}, 'POST /api/account/logout-everywhere': {},
  });
  const ctrl = createAccountCtrl({ call: server.call });
  assert.match((await ctrl.changePassword('old one', 'new one')).message, /Password changed/);
  assert.deepEqual(server.calls[0], ['POST', '/api/account/password', { old: 'old one', new: 'new one' }]);
  assert.equal((await ctrl.deleteAccount('pw')).changed, true);
  assert.equal((await ctrl.logOut()).changed, true);
  assert.equal((await ctrl.logOut(true)).changed, true);
  assert.deepEqual(server.calls.slice(1).map(c => c[1]),
    ['/api/account/delete', '/api/account/logout', '/api/account/logout-everywhere']);
});

test('the games filter leaves the empty fields out of the query', async () => {
  assert.equal(gamesQuery({ variant: '', speed: 'blitz', result: ' ', opponent: ' bob ', number: '518' }),
    'speed=blitz&opponent=bob&number=518');
  const server = fakeServer({ 'GET /api/account/games?result=win': { games: [{ id: 'g9' }] } });
  const out = await createAccountCtrl({ call: server.call }).filterGames({ result: 'win' });
  assert.deepEqual(out, { ok: true, games: [{ id: 'g9' }] });
  assert.match(gameText({ variant: 'chess', number: null, speed: 'blitz', opponent: null, result: '1-0' }),
    /blitz vs anonymous 1-0/);
});
