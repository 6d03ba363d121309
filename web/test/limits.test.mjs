// Form limits read from the server's OpenAPI document (web/src/limits.js, issue 27): the
// constraints of a route's body, what a value outside them is told in each language, and a
// request.invalid refusal explained instead of pydantic's English.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.location = { search: '' };
globalThis.navigator = { language: 'en' };
globalThis.document = { documentElement: {} };

const { setLang } = await import('../src/i18n.js');
const { checkValue, explainInvalid, limitsFrom, limitText } = await import('../src/limits.js');
const { refusal } = await import('../src/api.js');

// The shape FastAPI writes (a $ref, anyOf with null, a nested model): the numbers here are
// the test's own, not the server's.
const DOC = {
  paths: {
    '/api/games': { post: { requestBody: { content: { 'application/json': {
      schema: { $ref: '#/components/schemas/CreateGameIn' } } } } } },
    '/api/things/{id}/players': { post: { requestBody: { content: { 'application/json': {
      schema: { $ref: '#/components/schemas/PlayerIn' } } } } } },
  },
  components: { schemas: {
    ClockIn: { type: 'object', properties: {
      minutes: { anyOf: [{ type: 'number', maximum: 300, exclusiveMinimum: 0 }, { type: 'null' }] },
      increment: { anyOf: [{ type: 'number', maximum: 30, minimum: 0 }, { type: 'null' }] },
    } },
    CreateGameIn: { type: 'object', properties: {
      variant: { type: 'string', maxLength: 40 },
      clock: { anyOf: [{ $ref: '#/components/schemas/ClockIn' }, { type: 'null' }] },
    } },
    PlayerIn: { type: 'object', properties: {
      name: { type: 'string', minLength: 1, maxLength: 50 },
      rating: { anyOf: [{ type: 'integer', minimum: 0, maximum: 3000 }, { type: 'null' }] },
    } },
  } },
};

test('the limits of a route body, nested models and nullable fields included', () => {
  const games = limitsFrom(DOC, 'POST', '/api/games');
  assert.deepEqual(games['clock.minutes'], { max: 300, above: 0, type: 'number' });
  assert.deepEqual(games['clock.increment'], { min: 0, max: 30, type: 'number' });
  assert.deepEqual(games.variant, { maxLength: 40, type: 'string' });
  const players = limitsFrom(DOC, 'post', '/api/things/{id}/players');
  assert.deepEqual(players.name, { minLength: 1, maxLength: 50, type: 'string' });
  assert.deepEqual(players.rating, { min: 0, max: 3000, type: 'integer' });
  assert.deepEqual(limitsFrom(DOC, 'POST', '/api/nothing'), {});
  assert.deepEqual(limitsFrom(null, 'POST', '/api/games'), {});
});

test('a value outside the limits is explained in the page language', () => {
  const players = limitsFrom(DOC, 'POST', '/api/things/{id}/players');
  const minutes = limitsFrom(DOC, 'POST', '/api/games')['clock.minutes'];
  setLang('en');
  assert.equal(checkValue('x'.repeat(50), players.name, 'Name'), null);
  assert.equal(checkValue('x'.repeat(51), players.name, 'Name'), 'Name: at most 50 characters.');
  assert.equal(checkValue('', players.name, 'Name'), 'Name: required.');
  assert.equal(checkValue('', players.rating, 'Rating'), null); // optional
  assert.equal(checkValue('3001', players.rating, 'Rating'), 'Rating: from 0 to 3000.');
  assert.equal(checkValue('12.5', players.rating, 'Rating'), 'Rating: enter a number.');
  assert.equal(checkValue('0', minutes, 'Minutes'), 'Minutes: more than 0 and at most 300.');
  assert.equal(checkValue('2.5', minutes, 'Minutes'), null);
  setLang('es');
  assert.equal(checkValue('x'.repeat(51), players.name, 'Nombre'), 'Nombre: como máximo 50 caracteres.');
  assert.equal(checkValue('-5', minutes, 'Minutos'), 'Minutos: más de 0 y como máximo 300.');
  assert.equal(limitText('Banda', { min: 0, max: 0.5 }), 'Banda: de 0 a 0,5.');
  setLang('en');
});

test('a request.invalid refusal is explained, never shown as pydantic text', () => {
  const body = {
    code: 'request.invalid', detail: 'body.name: String should have at most 50 characters',
    detail_en: 'body.name: String should have at most 50 characters',
    detail_es: 'la petición no es válida (body.name)',
    errors: [{ loc: ['body', 'name'], msg: 'String should have at most 50 characters', type: 'string_too_long' }],
  };
  const lims = limitsFrom(DOC, 'POST', '/api/things/{id}/players');
  setLang('es');
  assert.equal(explainInvalid(refusal(body, 422), { name: 'Nombre' }, lims), 'Nombre: como máximo 50 caracteres.');
  // A field the page has no label for: the page's own message, not the server's English.
  assert.equal(explainInvalid(refusal(body, 422), {}, lims), 'El servidor no ha podido leer la petición.');
  // A nested field: the clock's minutes.
  const clock = { ...body, errors: [{ loc: ['body', 'clock', 'minutes'], msg: '...', type: 'less_than_equal' }] };
  const games = limitsFrom(DOC, 'POST', '/api/games');
  assert.equal(explainInvalid(refusal(clock, 422), { 'clock.minutes': 'Minutos' }, games),
    'Minutos: más de 0 y como máximo 300.');
  // Any other refusal is not this function's.
  assert.equal(explainInvalid(refusal({ code: 'game.over', detail: 'x' }, 409), {}, {}), null);
  setLang('en');
});
