// Issue 27: one message catalogue per language (src/i18n/en.js, src/i18n/es.js) used by every
// page, with plural rules and number formats; every key in both languages, every key a page
// names present, and no other translation table left in the pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.location = { search: '' };
globalThis.navigator = { language: 'en' };
globalThis.document = { documentElement: {} };

const { MESSAGES, t, setLang, formatPawns, formatPercent, formatNumber, localizeLetters,
  setPieceLetters } = await import('../src/i18n.js');

const SRC = new URL('../src/', import.meta.url).pathname;
const files = dir => readdirSync(dir).flatMap(f => {
  const p = join(dir, f);
  return statSync(p).isDirectory() ? files(p) : p.endsWith('.js') ? [p] : [];
});
const PAGES = files(SRC).filter(p => !p.includes('/i18n/'));
const placeholders = text => [...String(text).matchAll(/\{(\w+)\}/g)].map(m => m[1]).sort();
const forms = v => (typeof v === 'string' ? [v] : Object.values(v));

test('every key in both languages, the same placeholders, plurals with one and other', () => {
  const en = MESSAGES.en;
  const es = MESSAGES.es;
  assert.deepEqual(Object.keys(es).filter(k => !(k in en)), []);
  assert.deepEqual(Object.keys(en).filter(k => !(k in es)), []);
  for (const key of Object.keys(en)) {
    assert.equal(typeof en[key], typeof es[key], `${key}: plural in one language only`);
    if (typeof en[key] === 'object') {
      for (const table of [en, es]) {
        assert.ok(table[key].one && table[key].other, `${key}: needs one and other`);
      }
    }
    const want = placeholders(forms(en[key])[0]);
    for (const text of [...forms(en[key]), ...forms(es[key])]) {
      assert.ok(text.trim(), `${key}: empty`);
      assert.deepEqual(placeholders(text), want, `${key}: placeholders differ in "${text}"`);
    }
  }
});

test('every key a page names literally is in the catalogue', () => {
  // t('key'), tr('key') and tt('key') (the pages' prefixed shorthands) with a literal key.
  const prefixes = { 'analysis/ctrl.js': 'analysis.', 'analysis/view.js': 'analysis.', 'account/ctrl.js': 'account.', 'account/view.js': 'account.', 'lobby/ctrl.js': 'account.', 'lobby/view.js': 'account.', 'players.js': 'account.', 'tournament.js': 'tournament.',
    'tournament/list.js': 'tournament.', 'tournament/verify.js': 'tournament.', 'tournament/seat.js': 'tournament.',
    'tournament/ctrl.js': 'tournament.', 'tournament/view.js': 'tournament.', 'tournament/new.js': 'tournament.',
    'tournament/hall.js': 'tournament.', 'tournament/common.js': 'tournament.', 'tournament/bracket.js': 'tournament.',
    'setup_eval.js': 'setupEval.' };
  const missing = [];
  for (const file of PAGES) {
    const text = readFileSync(file, 'utf8');
    const prefix = prefixes[file.slice(SRC.length)] || '';
    for (const m of text.matchAll(/\b(t|tr|tt)\(\s*'([^'$]+)'/g)) {
      const key = m[1] === 't' ? m[2] : prefix + m[2];
      if (!(key in MESSAGES.en)) missing.push(`${file.slice(SRC.length)}: ${key}`);
    }
  }
  assert.deepEqual(missing, []);
});

test('no page keeps a translation table of its own', () => {
  for (const file of PAGES) {
    const text = readFileSync(file, 'utf8');
    assert.ok(!/^\s*es:\s*\{/m.test(text), `${file.slice(SRC.length)} has a Spanish table`);
  }
});

test('plurals follow the language', () => {
  setLang('en');
  assert.equal(t('analysis.blunders', { n: 1 }), '1 blunder');
  assert.equal(t('analysis.blunders', { n: 2 }), '2 blunders');
  assert.equal(t('analysis.blunders', { n: 0 }), '0 blunders');
  assert.equal(t('daysPerMove', { n: 1 }), '1 day per move');
  setLang('es');
  assert.equal(t('analysis.blunders', { n: 1 }), '1 error grave');
  assert.equal(t('analysis.mistakes', { n: 1 }), '1 error');
  assert.equal(t('analysis.mistakes', { n: 3 }), '3 errores');
  assert.equal(t('statsGames', { n: 1 }), '1 partida terminada');
  setLang('en');
});

test('numbers take the language decimal mark, everywhere', () => {
  setLang('es');
  assert.equal(formatPawns(36), '+0,36');
  assert.equal(formatPawns(-120), '-1,20');
  assert.equal(formatPawns(0), '0,00');
  assert.equal(formatPawns(0, { zeroSign: true, minus: '\u2212' }), '+0,00');
  assert.equal(formatPercent(69.25), '69,3%');
  assert.equal(formatNumber(0.3), '0,3');
  assert.equal(t('badNumber', { max: 959 }), 'Los números van de 0 a 959.'); // no grouping
  setLang('en');
  assert.equal(formatPawns(36), '+0.36');
  assert.equal(formatPercent(69.2), '69.2%');
  assert.equal(formatPercent(100), '100%');
  assert.equal(t('badNumber', { max: 8225 }), 'Setup numbers run from 0 to 8225.');
});

test('piece letters in Spanish whatever the caller passes along', () => {
  setPieceLetters([{ letter: 'q', letter_es: 'd' }, { letter: 'n', letter_es: 'c' },
    { letter: 'k', letter_es: 'r' }, { letter: 'r', letter_es: 't' }]);
  setLang('es');
  // Array.prototype.map passes (item, index): the index used to be taken for the language.
  assert.deepEqual(['Qd8#', 'Nf3', 'O-O'].map(localizeLetters), ['Dd8#', 'Cf3', 'O-O']);
  setLang('en');
  assert.deepEqual(['Qd8#'].map(localizeLetters), ['Qd8#']);
});
