// English and Spanish: one message catalogue per language (i18n/en.js, i18n/es.js), plural
// rules (Intl.PluralRules), number formats (Intl.NumberFormat) and the notation letters.
// The language is kept in localStorage and can be forced with ?lang=es.

import EN from './i18n/en.js';
import ES from './i18n/es.js';

const TABLES = { en: EN, es: ES };
/** Both tables, for the unit tests (every key in both languages). */
export const MESSAGES = TABLES;
export const LANGUAGES = ['en', 'es'];

let current = (() => {
  const q = new URLSearchParams(location.search).get('lang');
  if (q && TABLES[q]) return q;
  const saved = localStorage.getItem('rc-lang');
  if (saved && TABLES[saved]) return saved;
  return (navigator.language || 'en').startsWith('es') ? 'es' : 'en';
})();

export const lang = () => current;

export function setLang(l) {
  if (!TABLES[l]) return;
  current = l;
  localStorage.setItem('rc-lang', l);
  document.documentElement.lang = l;
}

const cache = new Map();
function cached(kind, l, options, make) {
  const k = `${kind}|${l}|${JSON.stringify(options)}`;
  if (!cache.has(k)) cache.set(k, make());
  return cache.get(k);
}
const plurals = l => cached('plural', l, null, () => new Intl.PluralRules(l));
const numbers = (l, options) => cached('number', l, options, () => new Intl.NumberFormat(l, options));

/** `x` written for language `l`: its decimal mark, at most 2 decimals unless `options` say. */
export function formatNumber(x, options = {}, l = current) {
  return numbers(l, { useGrouping: false, maximumFractionDigits: 2, ...options }).format(x);
}

/** A percentage 0..100 ("69.2%", "69,2%"), one decimal at most. */
export const formatPercent = (x, digits = 1, l = current) =>
  `${formatNumber(x, { maximumFractionDigits: digits }, l)}%`;

/**
 * Centipawns as signed pawns with two decimals: "+0.36", "-1.20" (English), "+0,36" (Spanish).
 * `zeroSign`: "+0.00" rather than "0.00"; `minus`: the minus sign to write.
 */
export function formatPawns(cp, { zeroSign = false, minus = '-' } = {}, l = current) {
  const text = formatNumber(Math.abs(cp) / 100, { minimumFractionDigits: 2, maximumFractionDigits: 2 }, l);
  if (cp < 0) return `${minus}${text}`;
  return cp > 0 || zeroSign ? `+${text}` : text;
}

/** The catalogue entry of `key` in `l`: plural forms chosen by vars.n. */
function entry(key, vars, l) {
  const raw = TABLES[l][key] ?? EN[key];
  if (raw === undefined || raw === null) return null;
  if (typeof raw === 'string') return raw;
  const n = Number(vars.n);
  return raw[plurals(l).select(Number.isFinite(n) ? n : 0)] ?? raw.other;
}

/**
 * The text for `key` in the current language, with {name} placeholders filled; numbers are
 * written with the language's decimal mark, and a key with plural forms picks the one for
 * vars.n. A key missing from the catalogue comes back as itself (the catalogue test forbids it).
 */
export function t(key, vars = {}) {
  const l = current;
  const text = entry(key, vars, l);
  if (text === null) return key;
  return text.replace(/\{(\w+)\}/g, (_, k) => {
    if (!(k in vars)) return `{${k}}`;
    const v = vars[k];
    return typeof v === 'number' ? formatNumber(v, {}, l) : String(v);
  });
}

/** Whether the catalogue has `key` (in English, every key's language). */
export const hasText = key => key in EN;

// Piece letters (RULES.md, pieces.py): R is the rook in English and the king (rey) in Spanish.
// The tables come from the server's variant metadata (GET /api/variants, setPieceLetters);
// L is also read as the bishop (alfil), as players type it.
let TO_ES = {};
let FROM_ES = { L: 'B' };

/** Install the piece letters of `pieces` ([{letter, letter_es}], English letter lower case). */
export function setPieceLetters(pieces) {
  TO_ES = {};
  FROM_ES = { L: 'B' };
  for (const p of pieces) {
    TO_ES[p.letter.toUpperCase()] = p.letter_es.toUpperCase();
    FROM_ES[p.letter_es.toUpperCase()] = p.letter.toUpperCase();
  }
}

/** English SAN or back rank written with the current language's piece letters (one
 * argument only: `list.map(localizeLetters)` must not pass the index as a language). */
export function localizeLetters(text) {
  if (current !== 'es') return text;
  return text.replace(/[A-Z]/g, c => TO_ES[c] ?? c);
}

/** A move typed with the current language's letters, as English SAN (UCI passes through). */
export function delocalizeSan(text) {
  if (current !== 'es' || /^[a-p]\d+[a-p]\d+[a-z]?$/.test(text.trim())) return text;
  return text.replace(/[A-Z]/g, c => FROM_ES[c] ?? c);
}
