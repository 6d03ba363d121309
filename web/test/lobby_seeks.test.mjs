// The lobby's seeks built from the socket's frames (web/src/lobby/seeks.js, issue 28).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { applyLobbyFrame, openSeeks } from '../src/lobby/seeks.js';

const seek = (id, expires = 60_000) => ({ id, player: 'p', expires_in_ms: expires });

test('a whole-lobby frame, then changes, give the lobby in order', () => {
  let s = applyLobbyFrame(new Map(), { type: 'seeks', seeks: [seek('a'), seek('b')] }, 1000);
  s = applyLobbyFrame(s, { type: 'seeks-delta', added: [seek('c')], removed: ['a'] }, 2000);
  s = applyLobbyFrame(s, { type: 'pong' }, 2500);
  assert.deepEqual(openSeeks(s, 3000).open.map(x => x.id), ['b', 'c']);
  // A change already in the whole-lobby frame (sent meanwhile) changes nothing twice.
  s = applyLobbyFrame(s, { type: 'seeks-delta', added: [], removed: ['a'] }, 3000);
  assert.deepEqual([...s.keys()], ['b', 'c']);
  // A new whole-lobby frame (after a reconnect) replaces everything.
  s = applyLobbyFrame(s, { type: 'seeks', seeks: [seek('d')] }, 4000);
  assert.deepEqual([...s.keys()], ['d']);
});

test('a seek lapses when its time is up, on the page clock', () => {
  const s = applyLobbyFrame(new Map(), { type: 'seeks', seeks: [seek('a', 500), seek('b', 900)] }, 100);
  assert.deepEqual(openSeeks(s, 599), { open: [...s.values()], next: 600 });
  const later = openSeeks(s, 600);
  assert.deepEqual(later.open.map(x => x.id), ['b']);
  assert.equal(later.next, 1000);
  assert.deepEqual(openSeeks(s, 1000), { open: [], next: null });
});

test('a written time control is checked as the server reads it, with its limits', async () => {
  const { controlProblem } = await import('../src/lobby/seeks.js');
  for (const ok of ['5400+30', '40/5400+30:1800+30', '30/1500:300+5', '300+3d', '180+2b', '36000']) {
    assert.equal(controlProblem(ok, 600, 600), null, ok);
  }
  assert.equal(controlProblem('*60').key, 'controlNotOnline');
  assert.equal(controlProblem('-').key, 'controlNotOnline');
  assert.equal(controlProblem('?').key, 'controlNotOnline');
  for (const bad of ['', '90 + 30', '5400+30:1800', '40/5400:abc', '5400+30x', '0/60:60', '1:2:3:4:5:6:7:8:9']) {
    assert.equal(controlProblem(bad).key, 'controlBad', bad);
  }
  assert.deepEqual(controlProblem('36001', 600, 600), { key: 'controlRange', vars: { control: '36001', minutes: 600, bonus: 600 } });
  assert.equal(controlProblem('300+601', 600, 600).key, 'controlRange');
  assert.equal(controlProblem('0', 600, 600).key, 'controlRange');
  assert.equal(controlProblem('0+1', 600, 600).key, 'controlRange');  // online, the first period needs time
  assert.equal(controlProblem('40/600:0', 600, 600), null);  // a later period may have no time
});
