// A variant's name in the page's language (issue 35): the catalogue names the built-in
// variants; a variant from a variants file brings its own display_name in English and Spanish
// (GET /api/variants), and one without falls back to its PGN name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.location = { search: '' };
globalThis.navigator = { language: 'en' };
globalThis.document = { documentElement: {} };

const { setLang } = await import('../src/i18n.js');
const { variantName } = await import('../src/variants.js');

const VARIANTS = JSON.parse(readFileSync(new URL('./variants.json', import.meta.url)));
const crc = VARIANTS.find(v => v.key === 'crc');
const fromFile = {
  ...crc, key: 'crc-copy', name: 'Contemporary Random Chess (file)',
  display_name: { en: 'CRC from a file', es: 'CRC de un archivo' },
};
const lookup = key => ({ 'crc-copy': fromFile, plain: { ...fromFile, key: 'plain', display_name: { en: '', es: '' } },
  english: { ...fromFile, key: 'english', display_name: { en: 'Only English', es: '' } } })[key] || null;

test('a variant from a file is named in the page language', () => {
  setLang('es');
  assert.equal(variantName('crc-copy', lookup), 'CRC de un archivo');
  assert.equal(variantName('english', lookup), 'Only English');
  assert.equal(variantName('plain', lookup), 'Contemporary Random Chess (file)');
  setLang('en');
  assert.equal(variantName('crc-copy', lookup), 'CRC from a file');
  assert.equal(variantName('unknown', lookup), 'unknown');
});

test('the catalogue still names the built-in variants', () => {
  setLang('es');
  assert.notEqual(variantName('crc', () => crc), crc.name);
  setLang('en');
});
