// The game page's controller (web/src/game/ctrl.js) driven from node (issue 11): fake server
// calls, a fake clock and fake dialogs, no DOM. Each test names the behaviour it guards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.location = { search: '' };
globalThis.navigator = { language: 'en' };
globalThis.document = { documentElement: {} };

const { createGameCtrl } = await import('../src/game/ctrl.js');
const { t } = await import('../src/i18n.js');

const VARIANTS = JSON.parse(readFileSync(new URL('./variants.json', import.meta.url)));
const variants = key => VARIANTS.find(v => v.key === key) || null;

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const AFTER_E4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1';
const AFTER_E4_E5 = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2';
const WHITE = { color: 'white', token: 'tok-w' };

/** A GameState as the server sends it (server/contract.py), White to move against level 1. */
const state = (version, extra = {}) => ({
  id: 'g1', variant: 'chess', number: null, start_fen: START, fen: START, moves: [], san: [],
  status: 'playing', result: null, termination: null, winner: null, clocks: null,
  to_move: 'white', legal_moves: ['e2e4', 'd2d4', 'g1f3'], check: false, ply: 0,
  opponent: 'computer', level: 1, players: { white: 'human', black: 'computer' },
  invite_open: false, draw_offer: null, takeback_offer: null, claimable: [], version, ...extra,
});
// Our e4 answered (Black, the computer, to move) and the computer's e5 (White to move).
const afterE4 = v => state(v, { fen: AFTER_E4, moves: ['e2e4'], san: ['e4'], to_move: 'black',
  legal_moves: ['e7e5'], ply: 1 });
const afterE5 = v => state(v, { fen: AFTER_E4_E5, moves: ['e2e4', 'e7e5'], san: ['e4', 'e5'],
  legal_moves: ['d2d4', 'g1f3', 'f1c4'], ply: 2 });

const settle = () => new Promise(resolve => setImmediate(resolve));

function deferred() {
  let resolve;
  let reject;
  const promise = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

class ApiError extends Error {
  constructor(status, reason) {
    super(reason);
    this.status = status;
  }
}

/** A controller over fake dependencies; `answers(kind, data)` answers its dialogs. */
function harness({ first = state(1), seat = WHITE, answers = () => null, storage = new Map(),
  getGame, overrides = {} } = {}) {
  const calls = { postMove: [], postAction: [], postRematch: [], asks: [], redraws: [], sounds: [],
    saveSeat: [], go: [], follow: 0, closed: 0 };
  const moves = []; // one deferred answer per postMove
  const timers = [];
  let ws = null;
  const clock = { now: 0 };
  const api = {
    getGame: getGame || (async () => first),
    postMove(id, uci, token) {
      calls.postMove.push([id, uci, token]);
      const d = deferred();
      moves.push(d);
      return d.promise;
    },
    async postAction(id, name, token) {
      calls.postAction.push([id, name, token]);
      return first;
    },
    async postRematch(id, token, setup) {
      calls.postRematch.push([id, token, setup]);
      return { id: 'g2', seat: { color: 'black', token: 'tok-2' }, invite_url: null };
    },
    follow(id, onState, onStatus, onMessage) {
      calls.follow += 1;
      ws = { onState, onStatus, onMessage };
      return { close: () => { calls.closed += 1; } };
    },
    getRatings: async () => ({ rated: false, players: {}, fresh_setup: false, changes: [] }),
    getRematch: async () => ({ offer: null }),
    saveSeat: (id, s) => calls.saveSeat.push([id, s]),
    claimSeat: async () => ({}),
    currentUser: async () => null,
    ...overrides,
  };
  let muted = false;
  const ctrl = createGameCtrl({
    id: 'g1', seat, api, variants,
    ask: (kind, data) => {
      calls.asks.push([kind, data]);
      return Promise.resolve(answers(kind, data));
    },
    redraw: withBoard => calls.redraws.push(withBoard),
    sounds: {
      get muted() { return muted; },
      setMuted: v => { muted = v; },
      play: name => calls.sounds.push(name),
    },
    storage: { getItem: k => storage.get(k) ?? null, setItem: (k, v) => storage.set(k, v) },
    go: path => calls.go.push(path),
    now: () => clock.now,
    timers: {
      setTimeout: (fn, ms) => timers.push({ fn, at: clock.now + ms }) - 1,
      clearTimeout: i => { if (timers[i]) timers[i].fn = null; },
    },
  });
  const advance = ms => {
    clock.now += ms;
    for (const tm of timers) {
      if (tm.fn && tm.at <= clock.now) {
        const fn = tm.fn;
        tm.fn = null;
        fn();
      }
    }
  };
  return { ctrl, calls, moves, storage, advance, ws: () => ws, board: () => ctrl.view().board };
}

async function started(options) {
  const hx = harness(options);
  await hx.ctrl.start();
  await settle();
  return hx;
}

test('a move is sent once, and the board is not movable while it is pending', async () => {
  const { ctrl, calls, moves, board } = await started();
  assert.equal(board().movable.color, 'white');
  assert.deepEqual(board().movable.dests.get('e2'), ['e4']);
  const sent = ctrl.move('e2', 'e4');
  assert.deepEqual(calls.postMove, [['g1', 'e2e4', 'tok-w']]);
  assert.equal(board().movable.color, undefined);
  assert.equal(board().movable.dests.size, 0);
  assert.equal(ctrl.canPlayPremove(), false);
  // A second move while the first is unanswered (typed, or a board event) is not sent.
  ctrl.move('d2', 'd4');
  const typed = ctrl.sendText('d4');
  await settle();
  assert.equal(calls.postMove.length, 1);
  assert.equal(await typed, false);
  moves[0].resolve(afterE5(3)); // the answer already carries the computer's reply
  assert.equal(await sent, true);
  assert.equal(ctrl.state.version, 3);
  assert.equal(board().movable.color, 'white');
  assert.deepEqual(board().movable.dests.get('f1'), ['c4']);
  assert.equal(calls.redraws.at(-1), true); // the board is re-set from the answer
});

test('a stale (lower-version) state is ignored: a late answer cannot lock the board', async () => {
  const { ctrl, moves, ws, board } = await started();
  const sent = ctrl.move('e2', 'e4');
  ws().onState(afterE5(3)); // the push of the computer's reply overtakes the POST answer
  assert.equal(board().movable.color, 'white'); // pending ended: the game moved past it
  moves[0].resolve(afterE4(2)); // the late answer of our own move
  await sent;
  ws().onState(afterE4(2)); // and the same stale state pushed again
  assert.equal(ctrl.state.version, 3);
  assert.equal(board().placement, AFTER_E4_E5.split(' ')[0]);
  assert.equal(board().turnColor, 'white');
  assert.equal(board().movable.color, 'white');
  assert.deepEqual(board().movable.dests.get('g1'), ['f3']);
});

test('a promotion asks for the piece and sends it as the UCI letter', async () => {
  const fen = '4k3/P7/8/8/8/8/8/4K3 w - - 0 1';
  const promo = state(1, { fen, start_fen: fen,
    legal_moves: ['a7a8q', 'a7a8r', 'a7a8b', 'a7a8n', 'e1d1', 'e1f1'] });
  let answer = 'n';
  const { ctrl, calls, moves, board } = await started({ first: promo, answers: () => answer });
  const asked = ctrl.move('a7', 'a8');
  assert.equal(board().movable.color, undefined); // the board waits for the choice
  await settle();
  assert.deepEqual(calls.asks, [['promotion', { options: ['q', 'r', 'b', 'n'], color: 'white', square: 'a8' }]]);
  assert.deepEqual(calls.postMove.map(c => c[1]), ['a7a8n']);
  moves[0].reject(new ApiError(409, 'test over'));
  await asked;
  answer = null; // cancelled: nothing is sent and the board is movable again
  await ctrl.move('a7', 'a8');
  assert.equal(calls.postMove.length, 1);
  assert.equal(board().movable.color, 'white');
});

test('the Bishop Adjustment is explained once, then sent as bishop square + partner square', async () => {
  const fen = 'rmnbqnkbr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RBKNQBNMR w IAia - 0 1';
  const mrc = state(1, { variant: 'mrc', fen, start_fen: fen, number: 1234,
    legal_moves: ['b1a1', 'b1c1', 'f1e1', 'f1g1', 'e2e4'] });
  const { ctrl, calls, moves, storage } = await started({ first: mrc, answers: () => true });
  assert.deepEqual(ctrl.view().adjustments.map(a => `${a.bishop}${a.partner}`), ['b1a1', 'b1c1', 'f1e1', 'f1g1']);
  assert.equal(ctrl.view().seat.numbered, true);
  const first = ctrl.move('b1', 'c1'); // the bishop dropped on its neighbour, the king
  await settle();
  assert.equal(calls.asks.length, 1);
  assert.equal(calls.asks[0][0], 'adjust');
  assert.deepEqual(calls.asks[0][1].adjustment, { uci: 'b1c1', bishop: 'b1', partner: 'c1', role: 'k' });
  assert.deepEqual(calls.postMove.map(c => c[1]), ['b1c1']);
  assert.equal(storage.get('rc-hint-adjust'), '1');
  moves[0].reject(new ApiError(409, 'illegal move'));
  await first;
  ctrl.adjust('f1', 'g1'); // the button; explained already: no dialog
  await settle();
  assert.equal(calls.asks.length, 1);
  assert.deepEqual(calls.postMove.map(c => c[1]), ['b1c1', 'f1g1']);
});

test('castling in one gesture: king on its rook or on its castling square, king-takes-rook UCI', async () => {
  const fen = 'rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1';
  const c960 = state(1, { variant: 'chess960', fen, start_fen: fen, legal_moves: ['b1a1', 'b1h1', 'b1c2'] });
  const { ctrl, calls, moves } = await started({ first: c960 });
  const castles = ctrl.view().castles;
  assert.deepEqual(castles.map(c => [c.san, c.disabled]), [['O-O', false], ['O-O-O', false]]);
  ctrl.select('b1');
  // Where the king lands (green) and the rook's path (blue), for both castlings.
  assert.deepEqual(ctrl.view().shapes.map(s => `${s.orig}${s.dest || ''}:${s.brush}`),
    ['c1:green', 'a1d1:blue', 'g1:green', 'h1f1:blue']);
  ctrl.move('b1', 'g1'); // the king dropped on its castling square
  moves[0].reject(new ApiError(409, 'no'));
  await settle();
  ctrl.move('b1', 'a1'); // the king dropped on its rook
  assert.deepEqual(calls.postMove.map(c => c[1]), ['b1h1', 'b1a1']);
});

test('navigating away from the live ply makes the board read-only; returning restores it', async () => {
  const { ctrl, board } = await started({ first: afterE5(3) });
  assert.equal(board().movable.color, 'white');
  ctrl.navigate('prev');
  assert.equal(board().live, false);
  assert.equal(board().shown, 1);
  assert.equal(board().placement, AFTER_E4.split(' ')[0]);
  assert.equal(board().movable.color, undefined);
  assert.equal(board().movable.dests.size, 0);
  assert.equal(ctrl.canPlayPremove(), false);
  assert.equal(ctrl.view().castles, null); // no castling at all here; nothing offered
  ctrl.navigate('first');
  assert.equal(board().placement, START.split(' ')[0]);
  ctrl.navigate('live');
  assert.equal(board().live, true);
  assert.equal(board().placement, AFTER_E4_E5.split(' ')[0]);
  assert.equal(board().movable.color, 'white');
  ctrl.pick(1); // a click on White's first move in the list
  assert.equal(board().shown, 1);
  ctrl.pick(2); // the last move: live again
  assert.equal(board().live, true);
  assert.equal(ctrl.canPlayPremove(), true);
});

test('a refused move puts the position back and says why; a network failure says it was not sent', async () => {
  const { ctrl, calls, moves, board } = await started();
  const sent = ctrl.move('e2', 'e5');
  const before = calls.redraws.length;
  moves[0].reject(new ApiError(409, "illegal move 'e2e5': illegal move 'e2e5' in rnbqkbnr/..."));
  assert.equal(await sent, false);
  // Redrawn with the board from the unchanged state: the dragged piece goes back.
  assert.ok(calls.redraws.slice(before).includes(true));
  assert.equal(calls.redraws.at(-1), true);
  assert.equal(board().placement, START.split(' ')[0]);
  assert.equal(board().movable.color, 'white');
  assert.deepEqual(board().movable.dests.get('e2'), ['e4']);
  assert.deepEqual(ctrl.view().message, { text: t('err.illegal'), error: true, kind: 'error' });
  const again = ctrl.move('e2', 'e4');
  moves[1].reject(new TypeError('Failed to fetch'));
  await again;
  assert.equal(ctrl.view().message.text, `${t('moveNotSent')} ${t('err.offline')}`);
  assert.equal(board().movable.color, 'white');
});

test('the clocks count from the server reading and freeze while the connection is down', async () => {
  const clocks = { white: 10_500, black: 60_000, running: 'white', initial: 60_000, increment: 0,
    days: null, deadline: null };
  const hx = harness({ first: state(1, { clocks }) });
  await hx.ctrl.start();
  await settle();
  hx.advance(400);
  assert.equal(hx.ctrl.clocks().white.ms, 10_100);
  assert.equal(hx.ctrl.clocks().black.ms, 60_000);
  assert.deepEqual(hx.calls.sounds, []);
  hx.advance(200); // under ten seconds on our running clock: the low-time sound, once
  assert.equal(hx.ctrl.clocks().white.low, true);
  hx.advance(200);
  hx.ctrl.clocks();
  assert.deepEqual(hx.calls.sounds, ['low']);
  hx.ws().onStatus('closed');
  hx.advance(5000);
  assert.deepEqual(hx.ctrl.clocks().white, { ms: 9700, low: true, synced: false, delay: 0 });
  assert.equal(hx.ctrl.view().connected, false);
});

test('a delay clock stands still through the delay; the control and the moves to it are shown (issue 34)', async () => {
  const clocks = { white: 60_000, black: 55_000, running: 'white', initial: 60_000, increment: 0,
    days: null, deadline: null, control: '3/60:30+5d', delay: 1500,
    label: { en: '3 moves in 1 min, then 30 s, 5 s delay from move 4', es: '3 jugadas en 1 min, después 30 s' },
    to_control: { white: 1, black: 2 } };
  const hx = harness({ first: state(1, { clocks }) });
  await hx.ctrl.start();
  await settle();
  hx.advance(1000);
  assert.deepEqual(hx.ctrl.clocks().white, { ms: 60_000, low: false, synced: true, delay: 500 });
  hx.advance(1500);
  assert.deepEqual(hx.ctrl.clocks().white, { ms: 59_000, low: false, synced: true, delay: 0 });
  assert.equal(hx.ctrl.clocks().black.ms, 55_000);
  const v = hx.ctrl.view();
  assert.equal(v.seat.control.label, clocks.label.en);
  assert.equal(v.seat.control.pgn, '3/60:30+5d');
  assert.deepEqual(v.players.map(p => [p.color, p.toControl]).sort(), [['black', 2], ['white', 1]]);
});

test('resigning asks first; a rematch is asked for with the chosen setup and opens the new game', async () => {
  let answer = false;
  const { ctrl, calls } = await started({ answers: () => answer });
  await ctrl.resign();
  assert.deepEqual(calls.asks.map(a => a[0]), ['resign']);
  assert.deepEqual(calls.postAction, []);
  answer = true;
  await ctrl.resign();
  assert.deepEqual(calls.postAction, [['g1', 'resign', 'tok-w']]);
  answer = 'same';
  await ctrl.action('rematch');
  assert.deepEqual(calls.asks.at(-1), ['rematch', { fresh: false }]);
  assert.deepEqual(calls.postRematch, [['g1', 'tok-w', 'same']]);
  assert.deepEqual(calls.saveSeat, [['g2', { color: 'black', token: 'tok-2', opponent: 'computer', invite_url: null }]]);
  assert.deepEqual(calls.go, ['/game/g2']);
});

test('a spectator gets a read-only board and no premoves', async () => {
  const { ctrl, board } = await started({ seat: null });
  assert.equal(board().viewOnly, true);
  assert.equal(board().movable.color, undefined);
  assert.equal(board().premovable.enabled, false);
  assert.equal(ctrl.view().seat.text, t('spectator'));
  await ctrl.move('e2', 'e4');
  assert.equal(ctrl.view().castles, null);
});

test('while the computer thinks our colour may premove; the premove waits for our turn', async () => {
  const { ctrl, ws, board } = await started({ first: afterE4(2) });
  assert.equal(board().movable.color, 'white'); // premove colour, no dests
  assert.equal(board().movable.dests.size, 0);
  assert.equal(board().keepPremove, true);
  assert.equal(board().playPremove, false);
  ctrl.premoveSet('d2', 'd4');
  assert.equal(ctrl.view().message.kind, 'premove');
  ws().onState(afterE5(3));
  assert.equal(board().playPremove, true);
  assert.equal(ctrl.canPlayPremove(), true);
  ctrl.premoveUnset();
  assert.equal(ctrl.view().message.text, '');
});

test('an unknown game shows "No such game" and follows nothing', async () => {
  const { ctrl, calls } = await started({ getGame: async () => { throw new ApiError(404, 'no such game'); } });
  assert.equal(ctrl.view().gone, true);
  assert.equal(ctrl.view().state, null);
  assert.equal(calls.follow, 0);
  const followed = await started(); // one that goes while followed (the socket's 4404)
  assert.equal(followed.ctrl.view().gone, false);
  followed.ws().onStatus('gone');
  assert.equal(followed.ctrl.view().gone, true);
  assert.equal(followed.calls.redraws.at(-1), true);
});

test('a page left before its game loaded opens no WebSocket', async () => {
  const first = deferred();
  const hx = harness({ getGame: () => first.promise });
  const loading = hx.ctrl.start();
  hx.ctrl.destroy(); // the player navigated away
  first.resolve(state(1));
  await loading;
  await settle();
  assert.equal(hx.calls.follow, 0);
});

test('an info message goes after four seconds; an error stays', async () => {
  const hx = await started();
  hx.ctrl.flash('hello');
  hx.advance(3999);
  assert.equal(hx.ctrl.view().message.text, 'hello');
  hx.advance(1);
  assert.equal(hx.ctrl.view().message.text, '');
  hx.ctrl.flash('broken', true);
  hx.advance(10_000);
  assert.equal(hx.ctrl.view().message.text, 'broken');
});

test('after a rated game the rating changes are asked for until the server has them', async () => {
  const answers = [
    { rated: false, players: {}, fresh_setup: false, changes: [] }, // at load: who plays
    { rated: true, players: {}, fresh_setup: false, changes: [] }, // just ended: not yet rated
    { rated: true, players: {}, fresh_setup: false,
      changes: [{ color: 'white', player: 'ann', before: 1500, after: 1512, change: 12 }] },
  ];
  let asked = 0;
  const hx = await started({ overrides: { getRatings: async () => answers[Math.min(asked++, 2)] } });
  assert.equal(asked, 1);
  assert.equal(hx.ctrl.view().ratings.rated, null); // the load's question is not the result's
  hx.ws().onState(state(2, { status: 'ended', result: '0-1', winner: 'black',
    termination: 'resignation', legal_moves: [] }));
  await settle();
  assert.equal(asked, 2);
  assert.deepEqual(hx.ctrl.view().ratings, { rated: true, shown: 'pending', changes: [] });
  assert.equal(hx.ctrl.view().banner, 'Black wins — resignation');
  hx.advance(999);
  await settle();
  assert.equal(asked, 2);
  hx.advance(1); // a second later: asked again
  await settle();
  assert.equal(asked, 3);
  assert.equal(hx.ctrl.view().ratings.shown, 'changes');
  assert.equal(hx.ctrl.view().ratings.changes[0].after, 1512);
  hx.ws().onState(state(3, { status: 'ended', result: '0-1', legal_moves: [] }));
  await settle();
  assert.equal(asked, 3); // once per game
});

test('a logged-in player whose seat no account holds is offered to keep the game', async () => {
  let refuse = false;
  const claimed = [];
  const hx = await started({ overrides: {
    currentUser: async () => ({ name: 'ann' }),
    claimSeat: async (id, token) => {
      claimed.push([id, token]);
      if (refuse) throw new Error('no');
    },
  } });
  await settle();
  assert.deepEqual(hx.ctrl.view().claim, { stage: 'offered', button: true, busy: false });
  refuse = true;
  await hx.ctrl.claimSeat();
  assert.deepEqual(hx.ctrl.view().claim, { stage: 'offered', button: true, busy: false });
  assert.equal(hx.ctrl.view().message.error, true);
  refuse = false;
  await hx.ctrl.claimSeat();
  assert.deepEqual(claimed, [['g1', 'tok-w'], ['g1', 'tok-w']]);
  assert.equal(hx.ctrl.view().claim.button, false);
  const white = hx.ctrl.view().players.find(p => p.color === 'white');
  assert.deepEqual([white.name, white.account], ['ann (You)', 'ann']);
  const held = await started({ overrides: { currentUser: async () => ({ name: 'ann' }),
    getRatings: async () => ({ rated: false, players: { white: 'ann' }, changes: [] }) } });
  await settle();
  assert.deepEqual(held.ctrl.view().claim, { stage: 'no', button: false, busy: false });
});

test("the computer's name carries its level's measured rating once GET /api/levels answers", async () => {
  const table = { variants: { chess: [{ level: 1, rating: 640, rating_margin: 200, rating_games: 24 }] } };
  let asked = 0;
  const { ctrl } = await started({ overrides: { getLevels: async () => { asked += 1; return table; } } });
  const name = () => ctrl.view().players.find(p => p.color === 'black').name;
  assert.equal(asked, 1);
  assert.equal(name(), 'Computer, level 1 (beginner, ≈640 Elo)');
  // A level the table does not rate keeps the plain label.
  table.variants.chess[0].rating = null;
  assert.equal(name(), 'Computer, level 1 (beginner)');
});

test('a game between people does not ask for the levels', async () => {
  let asked = 0;
  await started({ first: state(1, { opponent: 'friend', level: null, players: { white: 'human', black: 'human' } }),
    overrides: { getLevels: async () => { asked += 1; return { variants: {} }; } } });
  assert.equal(asked, 0);
});

// Issue 32: a friend's rematch keeps the offerer on the finished game until it is answered.
const friendEnded = v => state(v, { opponent: 'friend', players: { white: 'human', black: 'human' },
  status: 'ended', result: '*', termination: 'aborted' });

async function offered(newGame) {
  const hx = await started({
    first: friendEnded(3), answers: kind => (kind === 'rematch' ? 'same' : null),
    getGame: async id => (id === 'g2' ? newGame : friendEnded(3)),
    overrides: {
      async postRematch() {
        return { id: 'g2', seat: { color: 'black', token: 'tok-2' }, invite_url: '/invite/g2/x' };
      },
    },
  });
  await hx.ctrl.action('rematch');
  await settle();
  return hx;
}

test('a friend rematch stays on the finished game, says it was sent, and says "declined"', async () => {
  const hx = await offered(state(1, { id: 'g2', invite_open: true, opponent: 'friend' }));
  assert.deepEqual(hx.calls.go, []);
  assert.equal(hx.calls.saveSeat[0][0], 'g2');
  assert.equal(hx.ctrl.view().controls.notice, t('rematchSent'));
  hx.ws().onMessage({ type: 'rematch', offer: { by: 'white', id: 'g2' } });
  hx.ws().onMessage({ type: 'rematch', offer: null });
  await settle();
  assert.deepEqual(hx.calls.go, []);
  assert.equal(hx.ctrl.view().controls.notice, t('rematchDeclined'));
  assert.equal(hx.ctrl.view().controls.rematchMine, false);
});

test('an accepted friend rematch takes the offerer into the new game', async () => {
  const hx = await offered(state(2, { id: 'g2', invite_open: false, opponent: 'friend' }));
  hx.ws().onMessage({ type: 'rematch', offer: null });
  await settle();
  assert.deepEqual(hx.calls.go, ['/game/g2']);
});

test('the side offered a draw hears it; an offer of ours that goes without a result is "declined"', async () => {
  const people = v => afterE5(v);
  const friend = extra => ({ opponent: 'friend', players: { white: 'human', black: 'human' }, ...extra });
  const hx = await started({ first: state(1, friend({})) });
  hx.ctrl.store.apply({ ...people(2), ...friend({}) });
  hx.ctrl.store.apply({ ...people(3), ...friend({ draw_offer: 'black' }) });
  assert.ok(hx.calls.sounds.includes('offer'));
  hx.ctrl.store.apply({ ...people(4), ...friend({ draw_offer: 'white' }) });
  hx.ctrl.store.apply({ ...people(5), ...friend({ draw_offer: null }) });
  assert.equal(hx.ctrl.view().controls.notice, t('drawDeclined'));
});

test("an event's online game names its players as registered, not 'You / Your friend' (issue 30)", async () => {
  const friend = state(1, { opponent: 'friend', level: null, players: { white: 'human', black: 'human' } });
  const plain = await started({ first: friend, overrides: { getGameEvent: async () => ({ board: null }) } });
  const names = c => Object.fromEntries(c.view().players.map(p => [p.color, p.name]));
  assert.deepEqual(names(plain.ctrl), { white: 'You (White)', black: 'Your friend (Black)' });
  const board = { event_id: 'e1', event: 'Open', round: 1, board: 1, white: 'Ann', black: 'Bob' };
  const { ctrl } = await started({ first: friend, overrides: { getGameEvent: async () => ({ board }) } });
  await settle();
  assert.deepEqual(names(ctrl), { white: 'Ann (You)', black: 'Bob' });
  assert.deepEqual(ctrl.view().event, { href: '#/tournament/e1', text: 'Open, round 1, board 1' });
  assert.equal(plain.ctrl.view().event, null);
  // A seat held by an account: the account beside the registered name.
  const held = await started({ first: friend, overrides: { getGameEvent: async () => ({ board }),
    getRatings: async () => ({ rated: true, players: { black: 'bob99' }, changes: [] }) } });
  await settle();
  assert.deepEqual(names(held.ctrl), { white: 'Ann (You)', black: 'Bob — bob99' });
});
