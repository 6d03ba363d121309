// The profile chart's axis (web/src/players.js, issue 37): round-number ticks, at most five
// intervals, the values inside.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.location = { search: '' };
globalThis.navigator = { language: 'en' };
globalThis.document = { documentElement: {} };

const { chartScale } = await import('../src/players.js');

test('ticks are round numbers around the ratings', () => {
  for (const [min, max] of [[1500, 1500], [1487, 1513], [1320, 1790], [1499, 1502], [800, 2400]]) {
    const { lo, hi, step } = chartScale(min, max);
    assert.ok([10, 20, 25, 50, 100, 200, 250, 500, 1000].includes(step), `step ${step}`);
    assert.equal(lo % step, 0);
    assert.equal(hi % step, 0);
    assert.ok(lo < min && hi > max, `${lo}..${hi} around ${min}..${max}`);
    assert.ok((hi - lo) / step <= 5, `${(hi - lo) / step} intervals`);
  }
  assert.deepEqual(chartScale(1487, 1513), { lo: 1460, hi: 1540, step: 20 });
});
