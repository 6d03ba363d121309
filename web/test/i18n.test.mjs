// Every message a player sees exists in English and Spanish, short and without markup or
// file paths (issue 11, defect 4), and every key the error mapping names is translated.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.location = { search: '' };
globalThis.navigator = { language: 'en' };
globalThis.document = { documentElement: {} };

const { MESSAGES, t, setLang } = await import('../src/i18n.js');
const { errorKey } = await import('../src/game/messages.js');

test('both languages have the same keys', () => {
  const en = Object.keys(MESSAGES.en).sort();
  const es = Object.keys(MESSAGES.es).sort();
  assert.deepEqual(es.filter(k => !en.includes(k)), []);
  assert.deepEqual(en.filter(k => !es.includes(k)), []);
});

test('no backticks, no docs/ paths, no raw placeholders left in any message', () => {
  for (const [lang, table] of Object.entries(MESSAGES)) {
    for (const [key, entry] of Object.entries(table)) for (const text of typeof entry === 'string' ? [entry] : Object.values(entry)) {
      assert.ok(!text.includes('`'), `${lang}.${key} has a backtick`);
      assert.ok(!/docs\//.test(text), `${lang}.${key} names a file`);
      if (key.startsWith('err.')) assert.ok(text.length <= 90, `${lang}.${key} is long`);
    }
  }
});

test('error keys are translated', () => {
  const samples = [new TypeError('Failed to fetch'), { status: 409, message: "illegal move 'Ke2'" },
    { status: 404, message: 'no such game' }, { status: 500, message: 'x' }, { status: 422, message: 'y' }];
  for (const lang of ['en', 'es']) {
    setLang(lang);
    for (const e of samples) {
      const key = errorKey(e);
      assert.notEqual(t(key), key, `${lang}: ${key} untranslated`);
    }
  }
  setLang('es');
  assert.equal(t('err.illegal'), 'Esa jugada no es legal aquí.');
});

test('the Spanish Bishop Adjustment hint reads naturally (issue 37)', () => {
  assert.match(MESSAGES.es.adjustHint, /sobre la pieza vecina/);
});
