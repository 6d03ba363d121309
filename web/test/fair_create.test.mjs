// Issue 32: a creation form's request made verifiable (web/src/fair_create.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.location = { search: '' };
globalThis.navigator = { language: 'en' };
globalThis.document = { documentElement: {} };

const { verifiableSpec } = await import('../src/fair_create.js');

const opened = [];
const open = async variant => { opened.push(variant); return { id: '~draw', commitment: 'c' }; };
const value = () => '00112233445566778899aabbccddeeff';

test("a friend's game asks the server to draw at the join", async () => {
  const spec = { variant: 'chess960', opponent: 'friend', setup: 12, color: 'white' };
  assert.deepEqual(await verifiableSpec(spec, true, open, value),
    { variant: 'chess960', opponent: 'friend', setup: 'random', color: 'white' });
  assert.equal(opened.length, 0);
});

test('a game against the computer opens a draw first and sends its own value', async () => {
  const out = await verifiableSpec({ variant: 'mrc', opponent: 'computer', setup: 5, level: 2 },
    true, open, value);
  assert.deepEqual(opened, ['mrc']);
  assert.deepEqual(out, { variant: 'mrc', opponent: 'computer', setup: 'random', level: 2,
    setup_draw: { id: '~draw', client_value: '00112233445566778899aabbccddeeff' } });
});

test('a chosen number, a hot-seat game or a failed draw leave the request alone', async () => {
  const chosen = { variant: 'chess960', opponent: 'computer', setup: 518 };
  assert.equal(await verifiableSpec(chosen, false, open, value), chosen);
  const hotseat = { variant: 'chess960', opponent: 'hotseat', setup: 3 };
  assert.equal(await verifiableSpec(hotseat, true, open, value), hotseat);
  const fail = async () => { throw new Error('offline'); };
  const computer = { variant: 'chess960', opponent: 'computer', setup: 7 };
  assert.equal(await verifiableSpec(computer, true, fail, value), computer);
});
