// The server's errors on the pages: the message comes from the stable code (server/errors.py,
// docs/server.md); the English text is read only for a body without a code.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.location = { search: '' };
globalThis.navigator = { language: 'en' };
globalThis.document = { documentElement: {} };

const { MESSAGES } = await import('../src/i18n.js');
const { CODES, errorKey, errorMessage } = await import('../src/game/messages.js');
const { ApiError, localReason, refusal } = await import('../src/api.js');

const body = (code, en, es) => ({ code, detail: en, detail_en: en, detail_es: es });

test('the code decides, whatever the text says', () => {
  // A reworded English text no longer changes the message...
  const e = refusal(body('move.illegal', 'that move cannot be played', 'no'), 409);
  assert.equal(e.code, 'move.illegal');
  assert.equal(e.status, 409);
  assert.equal(errorKey(e), 'err.illegal');
  // ... nor does a text that would match another rule.
  assert.equal(errorKey(refusal(body('invite.used', 'no such game', 'x'), 409)), 'err.inviteUsed');
  assert.equal(errorKey(refusal(body('turn.not_yours', 'not your turn: white to move', 'x'), 409)),
    'err.notYourTurn');
  assert.equal(errorKey(refusal(body('seat.token_required', 'a seat token is required', 'x'), 403)),
    'err.noSeat');
});

test('a code without a page message falls back to the status, not to the text', () => {
  assert.equal(errorKey(refusal(body('account.csrf', 'illegal move', 'x'), 403)), 'err.noSeat');
  assert.equal(errorKey(refusal(body('engine.no_worker', 'no such game', 'x'), 503)), 'err.server');
  assert.equal(errorKey(refusal(body('seek.own', 'too many games', 'x'), 409)), 'err.generic');
});

test('a body without a code still goes through the old rules', () => {
  const e = new ApiError(409, 'this invitation has already been used', { detail: 'x' });
  assert.equal(e.code, null);
  assert.equal(errorKey(e), 'err.inviteUsed');
  assert.equal(errorKey(new ApiError(404, 'Not Found')), 'err.noGame');
});

test('every code the pages map names a message in both languages', () => {
  for (const [code, key] of Object.entries(CODES)) {
    assert.match(code, /^[a-z_]+\.[a-z_]+$/);
    assert.ok(MESSAGES.en[key] && MESSAGES.es[key], `${code} -> ${key} untranslated`);
  }
});

test('the reason shown is the server text in the page language', () => {
  const b = body('game.not_found', 'no such game', 'no existe esa partida');
  assert.equal(localReason(b, 404, 'es'), 'no existe esa partida');
  assert.equal(localReason(b, 404, 'en'), 'no such game');
  // Spanish asked of a body in English only (an older server): its detail.
  assert.equal(localReason({ detail: 'no such game' }, 404, 'es'), 'no such game');
  assert.equal(localReason(null, 502, 'es'), 'HTTP 502');
  assert.equal(refusal(b, 404).message, 'no such game'); // this test runs in English
});

test('a code the page has no message for shows the server reason, in the page language', () => {
  const t = key => `t(${key})`;
  const es = refusal(body('seek.own', 'that is your own seek', 'esa búsqueda es tuya'), 409);
  es.message = localReason(body('seek.own', 'that is your own seek', 'esa búsqueda es tuya'), 409, 'es');
  assert.equal(errorMessage(es, t), 'esa búsqueda es tuya');
  // A code the page knows: its own short message.
  assert.equal(errorMessage(refusal(body('move.illegal', 'illegal move', 'x'), 409), t), 't(err.illegal)');
  // No code (an older server, a proxy): the key from the text or the status.
  assert.equal(errorMessage(new ApiError(502, 'Bad Gateway'), t), 't(err.server)');
  assert.equal(errorMessage(new TypeError('Failed to fetch'), t), 't(err.offline)');
});
