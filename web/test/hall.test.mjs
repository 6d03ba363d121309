// The hall reveal's recipe (docs/shuffler.md §6) in the browser's setups.js, checked against
// the document's test vectors (§7): the shuffler page re-derives a hall round with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.location = { search: '' };
globalThis.navigator = { language: 'en' };
globalThis.document = { documentElement: {} };

const { SetupPool, evaluationDigest, fromHex, hallInput, hallRoundSetups, outsideBand, rankOf, setupList } = await import('../src/setups.js');

const VARIANTS = JSON.parse(readFileSync(new URL('./variants.json', import.meta.url)));
const info = key => VARIANTS.find(v => v.key === key);
const SALT = fromHex('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
const EVENT = 'Example Open 2025';

test('Chess960, one setup on every board', async () => {
  const pool = new SetupPool(info('chess960'));
  assert.equal(pool.tag, 'chess960:any:-');
  const r1 = await hallRoundSetups(SALT, EVENT, 1, '123456', 2, pool);
  assert.equal(r1.key, 'a058429178f3e8aaaec18e6cbfdf6ce9c5c8272ff9da1e04c6a8d966e024364b');
  assert.deepEqual(r1.numbers, [874, 874]);
  assert.equal(rankOf(info('chess960'), 874), 'QRKRBBNN');
  assert.deepEqual((await hallRoundSetups(SALT, EVENT, 2, '615 243', 1, pool)).numbers, [487]);
  assert.deepEqual((await hallRoundSetups(SALT, EVENT, 3, '0123456789', 1, pool)).numbers, [437]);
});

test('Chess960 without 518 and 534, one setup a board, no repeats', async () => {
  const c = info('chess960');
  const pool = new SetupPool(c, 'any', false, setupList(c, 'standard'));
  assert.equal(pool.tag, 'chess960:any:518,534');
  assert.equal(pool.numbers.length, 958);
  const r = await hallRoundSetups(SALT, EVENT, 1, '314159', 3, pool, { perBoard: true, noRepeat: true });
  assert.equal(r.key, 'b0fc33d2646a79c8961a998eb8d955c733bc875ad23bb86c9133098e7cd794f3');
  assert.deepEqual(r.numbers, [809, 800, 243]);
  assert.equal(rankOf(c, 243), 'BNRKQNRB');
});

test('MRC from a shortlist', async () => {
  const m = info('mrc');
  const pool = new SetupPool(m, 'any', false, [], setupList(m, '100 200 300 standard'));
  assert.equal(pool.tag, 'mrc:any:-:only=100,200,300,8226,8406');
  const r = await hallRoundSetups(SALT, EVENT, 1, '666111', 1, pool);
  assert.equal(r.key, 'd90a705a4743bdec939a878883e48920ed73b56fe1c8db93bdb8ea32dfba0607');
  assert.deepEqual(r.numbers, [200]);
  assert.equal(rankOf(m, 200), 'MNBNRKQRB');
});

test('a bad hall input is refused with its reason', async () => {
  assert.equal(hallInput(' 12 34 56 '), '123456');
  for (const [text, key] of [['', 'err.hallEmpty'], ['12x456', 'err.hallAlphabet'],
    ['12345', 'err.hallShort'], ['1'.repeat(65), 'err.hallLong']]) {
    assert.throws(() => hallInput(text), e => e.key === key, text);
  }
  assert.throws(() => setupList(info('chess960'), '518 x'), e => e.key === 'err.setupList');
});

// An event with an evaluation band (issue 30): the shipped Chess960 evaluations, as the
// server serves them (GET /api/setups/chess960/evaluation-set), leave 598 setups out at
// ±0.30 pawns; with 518 and 534 also excluded, 362 remain.  The key and setups are what
// `tournament verify` derives (randomchess.tournament.setups, event "Band Open 2026").
test('Chess960 with an evaluation band of 0.30 pawns, one setup a board', async () => {
  const c = info('chess960');
  const set = JSON.parse(readFileSync(new URL('../../src/randomchess/analysis/data/setup_evals_chess960.json', import.meta.url)));
  const digest = await evaluationDigest(set);
  assert.equal(digest, set.digest);
  assert.equal(digest, 'f333ae0e66fcfa74a295adebc94225f060212a7062f016fc1a11c59e95e1f6af');
  const out = outsideBand(set, c.setup.count, 30);
  assert.equal(out.length, 598);
  assert.deepEqual(out.slice(0, 5), [3, 4, 5, 6, 8]);
  const pool = new SetupPool(c, 'any', false, [...setupList(c, '518, 534'), ...out]);
  assert.equal(pool.numbers.length, 362);
  const r = await hallRoundSetups(SALT, 'Band Open 2026', 1, '352614', 3, pool, { perBoard: true });
  assert.equal(r.key, '3053913e780729e561a84757f7be0db0d5acbda8f6b4779b805d6069f970d6ec');
  assert.deepEqual(r.numbers, [856, 319, 192]);
  // One score changed: another digest, so the page refuses a set that is not the event's.
  set.evaluations[0] = [set.evaluations[0][0], 999, null, ''];
  assert.notEqual(await evaluationDigest(set), digest);
});
