// The promotion picker's placement (issue 37): a column from the promotion square towards the
// centre, whichever side is at the bottom, on 8x8, 9x9 and 10-rank boards.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.location = { search: '' };
globalThis.navigator = { language: 'en' };
globalThis.document = { documentElement: {} };

const { pickerSquares } = await import('../src/game/promotion.js');

const cols = list => list.map(p => [p.col, p.row]);

test('white promoting, white at the bottom: down from the top edge', () => {
  assert.deepEqual(cols(pickerSquares('a8', 4, { width: 8, height: 8, orientation: 'white' })),
    [[0, 0], [0, 1], [0, 2], [0, 3]]);
  assert.deepEqual(cols(pickerSquares('e9', 5, { width: 9, height: 9, orientation: 'white' })),
    [[4, 0], [4, 1], [4, 2], [4, 3], [4, 4]]);
});

test('black promoting, white at the bottom: up from the bottom edge', () => {
  assert.deepEqual(cols(pickerSquares('h1', 4, { width: 8, height: 8, orientation: 'white' })),
    [[7, 7], [7, 6], [7, 5], [7, 4]]);
  assert.deepEqual(cols(pickerSquares('c1', 5, { width: 9, height: 9, orientation: 'white' })),
    [[2, 8], [2, 7], [2, 6], [2, 5], [2, 4]]);
});

test('the board turned round: files and ranks mirrored', () => {
  // Black at the bottom: a1 is the top-right corner, h8 the bottom-left.
  assert.deepEqual(cols(pickerSquares('a1', 4, { width: 8, height: 8, orientation: 'black' })),
    [[7, 0], [7, 1], [7, 2], [7, 3]]);
  assert.deepEqual(cols(pickerSquares('b8', 4, { width: 8, height: 8, orientation: 'black' })),
    [[6, 7], [6, 6], [6, 5], [6, 4]]);
  assert.deepEqual(cols(pickerSquares('i9', 5, { width: 9, height: 9, orientation: 'black' })),
    [[0, 8], [0, 7], [0, 6], [0, 5], [0, 4]]);
});

test('a tenth rank is written ":" by chessground', () => {
  assert.deepEqual(cols(pickerSquares('j:', 4, { width: 10, height: 10, orientation: 'white' })),
    [[9, 0], [9, 1], [9, 2], [9, 3]]);
});
