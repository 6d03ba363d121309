// The lobby's seeks built from the socket's frames (web/src/lobby_seeks.js, issue 28).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { applyLobbyFrame, openSeeks } from '../src/lobby_seeks.js';

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
