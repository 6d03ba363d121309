// Unit tests of the play page's pure parts (issue 11), run with `node --test web/test/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createStore, isNewer, soundFor } from '../src/game/state.js';
import { cursorAt, keyToNav, navigate, shownPly } from '../src/game/nav.js';
import { errorKey } from '../src/game/messages.js';
import { clockLeft, delayLeft, formatClock } from '../src/game/clock.js';
import {
  applyMove, classify, droppedMove, gatedMove, handAt, piecesOf, placementOf, positionAt, premoveDests,
} from '../src/moves.js';

const S = (version, extra = {}) => ({ id: 'g', fen: '8/8/8/8/8/8/8/8 w - - 0 1', version, ...extra });

test('older versions never replace newer ones; equal versions refresh', () => {
  assert.equal(isNewer(S(1), null), true);
  assert.equal(isNewer(S(1), S(2)), false);
  assert.equal(isNewer(S(3), S(2)), true);
  assert.equal(isNewer(S(2), S(2)), true);
  assert.equal(isNewer({ version: 9 }, S(2)), false); // not a state
  assert.equal(isNewer({ ...S(9), id: 'other' }, S(2)), false);
});

test('the store redraws from the newest state after every apply, even a stale one', () => {
  const seen = [];
  const store = createStore((s, accepted) => seen.push([s.version, accepted]));
  store.apply(S(1)); // resync
  store.apply(S(3)); // push: the computer's reply
  store.apply(S(2)); // late POST answer of our move
  assert.equal(store.state.version, 3);
  assert.deepEqual(seen, [[1, true], [3, true], [3, false]]);
});

test('sounds follow the last move', () => {
  const a = { id: 'g', moves: [], san: [], status: 'playing' };
  assert.equal(soundFor(a, { ...a, moves: ['e2e4'], san: ['e4'] }), 'move');
  assert.equal(soundFor(a, { ...a, moves: ['x'], san: ['Nxe5'] }), 'capture');
  assert.equal(soundFor(a, { ...a, moves: ['x'], san: ['Qh5+'] }), 'check');
  assert.equal(soundFor(a, { ...a, moves: ['x'], san: ['O-O-Oc'] }), 'castle');
  assert.equal(soundFor(a, { ...a, moves: ['x'], san: ['Qh4#'], status: 'ended' }), 'end');
  assert.equal(soundFor(a, { ...a, status: 'ended' }), 'end');
  assert.equal(soundFor(a, a), null);
});

test('move-list navigation', () => {
  assert.equal(shownPly(null, 10), 10);
  assert.equal(navigate(null, 10, 'prev'), 9);
  assert.equal(navigate(9, 10, 'next'), null); // back at the live position
  assert.equal(navigate(0, 10, 'prev'), 0);
  assert.equal(navigate(5, 10, 'first'), 0);
  assert.equal(navigate(5, 10, 'live'), null);
  assert.equal(navigate(null, 0, 'prev'), null);
  assert.equal(navigate(null, 0, 'first'), null);
  assert.equal(cursorAt(12, 10), null);
  assert.equal(keyToNav('ArrowLeft'), 'prev');
  assert.equal(keyToNav('End'), 'live');
  assert.equal(keyToNav('a'), null);
});

test('server reasons become short message keys', () => {
  const api = (status, message) => Object.assign(new Error(message), { status });
  assert.equal(errorKey(new TypeError('Failed to fetch')), 'err.offline');
  assert.equal(errorKey(api(409, "illegal move 'Ke2': illegal move 'Ke2' in rnbq...")), 'err.illegal');
  assert.equal(errorKey(api(409, 'not your turn: white to move')), 'err.notYourTurn');
  assert.equal(errorKey(api(404, 'no such game')), 'err.noGame');
  assert.equal(errorKey(api(409, 'this invitation has already been used')), 'err.inviteUsed');
  assert.equal(errorKey(api(403, 'wrong invitation for this game')), 'err.inviteBad');
  assert.equal(errorKey(api(429, 'slow down')), 'err.tooMany');
  assert.equal(errorKey(api(500, 'boom')), 'err.server');
  assert.equal(errorKey(api(409, 'something new')), 'err.generic');
});

test('clock text and counting', () => {
  assert.equal(formatClock(300_000), '5:00');
  assert.equal(formatClock(3_723_000), '1:02:03');
  assert.equal(formatClock(9_450), '0:09.4');
  assert.equal(formatClock(-5), '0:00.0');
  assert.equal(formatClock(3 * 86_400_000), '3d 00h'); // correspondence
  assert.equal(formatClock(86_400_000 + 5 * 3_600_000 + 59 * 60_000), '1d 05h');
  assert.equal(formatClock(86_399_000), '23:59:59');
  const base = { at: 1000, white: 60_000, black: 30_000 };
  assert.equal(clockLeft(base, 'white', 'white', 3000), 58_000);
  assert.equal(clockLeft(base, 'white', 'black', 3000), 30_000);
});

test('a simple delay holds the running clock, then it counts down (issue 34)', () => {
  const base = { at: 1000, white: 60_000, black: 30_000, delay: 5000 };
  assert.equal(clockLeft(base, 'white', 'white', 4000), 60_000); // 3 s in: still the delay
  assert.equal(delayLeft(base, 'white', 'white', 4000), 2000);
  assert.equal(clockLeft(base, 'white', 'white', 9000), 57_000); // 8 s in: 3 s charged
  assert.equal(delayLeft(base, 'white', 'white', 9000), 0);
  assert.equal(clockLeft(base, 'white', 'black', 9000), 30_000);
  assert.equal(delayLeft(base, 'white', 'black', 4000), 0);
  assert.equal(clockLeft({ at: 0, white: 10_000, black: 0 }, 'white', 'white', 1000), 9000);
});

test('replaying moves for the move list: castling, adjustment, en passant, promotion', () => {
  const start = 'rnbbqk1r/pppppppp/8/8/8/8/PPPPPPPP/RNBBQK1R w HAha - 0 1';
  assert.equal(positionAt(start, ['f1h1'], 1).placement.split('/')[7], 'RNBBQRK1');
  const mrc = piecesOf('rmnbqnkbr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RBKNQBNMR w - - 0 1');
  assert.equal(placementOf(applyMove(mrc, 'b1c1', 9), 9, 9).split('/')[8], 'RKBNQBNMR');
  const ep = piecesOf('4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1');
  assert.equal(placementOf(applyMove(ep, 'e5d6', 8), 8, 8), '4k3/8/3P4/8/8/8/8/4K3');
  const promo = piecesOf('4k4/P8/9/9/9/9/9/9/4K4 w - - 0 1');
  assert.equal(placementOf(applyMove(promo, 'a8a9m', 9), 9, 9).split('/')[0], 'M3k4');
  const classical = piecesOf('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
  assert.equal(placementOf(applyMove(classical, 'e1g1', 8), 8, 8).split('/')[7], 'R4RK1');
  const p = positionAt(start, ['e2e4', 'e7e5'], 1);
  assert.equal(p.lastMove.from, 'e2');
});

test('premove destinations: minister, pawns, castling onto the rook', () => {
  const cg = fen => new Map([...piecesOf(fen)].map(([k, v]) => [k, { role: `${v.role}-piece`, color: v.color }]));
  const b = cg('rnbbqk1r/pppppppp/8/8/8/8/PPPPPPPP/RNBBQK1R w - - 0 1');
  assert.ok(premoveDests(b, 'f1', 8, 8).includes('h1')); // king onto its rook
  assert.ok(premoveDests(b, 'f1', 8, 8).includes('a1'));
  assert.deepEqual(premoveDests(b, 'e2', 8, 8).sort(), ['d3', 'e3', 'e4', 'f3']);
  const m = cg('9/9/9/9/4M4/9/9/9/9 w - - 0 1');
  const d = premoveDests(m, 'e5', 9, 9);
  assert.ok(d.includes('f7') && d.includes('a1') && d.includes('i9') && !d.includes('e6'));
});

test('gating (PM-CRC): the gates of the legal moves, and the board after a gating move', () => {
  const fen = '1k6/8/8/8/8/8/8/R3K1NR[Q] w KQG - 0 1';
  const pieces = piecesOf(fen);
  assert.equal(pieces.size, 5); // the hand is not on the board
  const crc = { a: { king: 1, rook: 2 }, h: { king: 6, rook: 5 } };
  const k = classify(['g1f3', 'g1f3q', 'e1h1', 'e1h1q', 'h1e1q'], pieces, 8, crc);
  assert.deepEqual(k.gates.get('g1f3'), [{ letter: 'q', square: 'g1', uci: 'g1f3q' }]);
  assert.deepEqual(k.gates.get('e1h1').map(g => g.square), ['e1', 'h1']);
  assert.deepEqual(k.dests.get('h1') || [], []); // no rook move onto the king
  assert.equal(k.promotions.size, 0);
  const after = uci => placementOf(applyMove(pieces, uci, 8, crc), 8, 8).split('/')[7];
  assert.equal(after('g1f3q'), 'R3K1QR');
  assert.equal(after('e1h1q'), 'R3QRK1');
  assert.equal(after('h1e1q'), 'R4RKQ');
  assert.equal(positionAt(fen, ['g1f3q'], 1, crc).placement.split('/')[5], '5N2');
});

test('a drop read once for the game page and the analysis board: gates, castling, promotion', () => {
  const fen = '1k6/1P6/8/8/8/8/8/R3K1NR[Q] w KQG - 0 1';
  const crc = { a: { king: 1, rook: 2 }, h: { king: 6, rook: 5 } };
  const k = classify(['g1f3', 'g1f3q', 'e1h1', 'e1h1q', 'h1e1q', 'e1d1', 'b7b8q', 'b7b8n'],
    piecesOf(fen), 8, crc);
  assert.deepEqual(droppedMove(k, 'g1', 'f3'),
    { uci: 'g1f3', square: 'g1', gates: [{ letter: 'q', square: 'g1', uci: 'g1f3q' }] });
  for (const dest of ['h1', 'g1']) { // the king on its rook or on its castling square
    const d = droppedMove(k, 'e1', dest);
    assert.deepEqual([d.uci, d.square, d.gates.map(g => g.uci)], ['e1h1', 'e1', ['e1h1q', 'h1e1q']]);
  }
  assert.deepEqual(droppedMove(k, 'e1', 'd1'), { uci: 'e1d1', square: 'e1', gates: null });
  assert.deepEqual(droppedMove(k, 'b7', 'b8'), { promotions: ['q', 'n'] });
  assert.equal(gatedMove('g1f3', 'g1f3q'), 'g1f3q');
  assert.equal(gatedMove('g1f3', ''), 'g1f3'); // "none"
  assert.equal(gatedMove('g1f3', null), null); // cancelled
});

test('the pieces in hand at each ply (PM-CRC)', () => {
  const start = 'rnbkmbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKBNR[Qq] w KQBCDFGkqbcefg - 0 1';
  const moves = ['b1c3q', 'g8f6', 'e2e4', 'f6g8', 'a2a4', 'g8f6q'];
  assert.deepEqual(handAt(start, moves, 0), { white: 'q', black: 'q' });
  assert.deepEqual(handAt(start, moves, 1), { white: '', black: 'q' });
  assert.deepEqual(handAt(start, moves, 5), { white: '', black: 'q' }); // g8 left without it
  assert.deepEqual(handAt(start, moves, 6), { white: '', black: '' });
  assert.deepEqual(handAt('4k3/1P6/8/8/8/8/8/4K3[Q] w - - 0 1', ['b7b8q'], 1), { white: 'q', black: '' });
  assert.deepEqual(handAt('4k3/8/8/8/8/8/8/4K3 w - - 0 1', [], 0), { white: '', black: '' });
});
