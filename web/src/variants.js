// The variants the server plays (GET /api/variants, issue 12): board size, pieces and their
// letters in both languages, castling squares and SAN, promotion choices and setup family.
// Fetched once per page load and cached; every board, castling preview, promotion menu and
// notation letter is drawn from it, so a variant registered on the server needs no change here.

import { getVariants } from './api.js';
import { hasText, lang, setPieceLetters, t } from './i18n.js';

const FILES = 'abcdefghijklmnop';
let loading = null;
let table = new Map();

/** Fetch the metadata once (later calls share the same request); resolves to the table. */
export function loadVariants() {
  if (!loading) {
    loading = getVariants().then(list => {
      table = new Map(list.map(v => [v.key, v]));
      setPieceLetters(list.flatMap(v => v.pieces));
      return table;
    }, e => {
      loading = null; // a later page may try again
      throw e;
    });
  }
  return loading;
}

/** The metadata of variant `key` (after loadVariants), or null. */
export const variantInfo = key => table.get(key) || null;

/**
 * The name of variant `key` in the page's language: the catalogue's variant.<key>, else the
 * server's display name in this language (a variants file's display_name), else in English,
 * else the server's PGN name for it, else the key.
 * `lookup` is the metadata source (the game controller passes its own for the unit tests).
 */
export function variantName(key, lookup = variantInfo) {
  if (hasText(`variant.${key}`)) return t(`variant.${key}`);
  const meta = lookup(key);
  if (!meta) return key;
  const shown = meta.display_name || {};
  return shown[lang()] || shown.en || meta.name || key;
}

/** Every variant in the server's order. */
export const allVariants = () => [...table.values()];

/** Variants offered on the home page: those the built-in engine plays (every opponent works). */
export const playableVariants = () => allVariants().filter(v => v.engine);

/**
 * Castling of `info` as file indexes and SAN: {a: {king, rook, san}, h: {...}}; 'a' is the
 * a-file side, 'h' the far side (RULES.md §6; Capablanca's c/d and i/h, docs/rules.md).
 */
export function castlingOf(info) {
  const side = s => ({ king: FILES.indexOf(s.king_file), rook: FILES.indexOf(s.rook_file), san: s.san });
  return { a: side(info.castling_a_side), h: side(info.castling_far_side) };
}

/** Promotion letters in the order the server lists them (its menu order). */
export const promotionOrder = info => [...info.promotions];

/** The back rank of `rank` set up as a placement: Black's array mirrored or reversed (or
 * its own, after the slash, when each side has its own array). */
export function setupPlacement(info, rank) {
  if (info.setup.symmetry === 'independent') { // Double Fischer Random: WHITE/BLACK
    const [white, own] = rank.split('/');
    return placement(info, white, own.toLowerCase());
  }
  const black = (info.setup.symmetry === 'reverse' ? [...rank].reverse().join('') : rank).toLowerCase();
  return placement(info, rank, black);
}

function placement(info, rank, black) {
  // IFRC's margin (issue 35): empty edge files beside each row, empty edge ranks around.
  const m = info.setup.margin || 0;
  const row = text => (m ? `${m}${text}${m}` : text);
  const pawns = 'p'.repeat(rank.length);
  const empty = String(info.files);
  const edge = Array(m).fill(empty);
  return [...edge, row(black), row(pawns), ...Array(info.ranks - 4 - 2 * m).fill(empty),
    row(pawns.toUpperCase()), row(rank), ...edge].join('/');
}

// The pair numberings: the one-array scheme per side, its count, and whether Black's array
// is read from Black's side (variants.py PAIR_NUMBERINGS).
export const PAIRS = {
  'double-scharnagl': { scheme: 'scharnagl', count: 960, fromBlackSide: false },
  'double-mrc': { scheme: 'mrc', count: 15120, fromBlackSide: true },
};

/** A setup number as players write it: `518`, or `518/123` (White's Scharnagl number, then
 * Black's) in Double Fischer Random, whose served number is 960 x White's + Black's. */
export function numberLabel(key, number, lookup = variantInfo) {
  const meta = lookup(key);
  const pair = meta && meta.setup ? PAIRS[meta.setup.numbering] : null;
  if (pair) {
    return `${Math.floor(number / pair.count)}/${number % pair.count}`;
  }
  return String(number);
}
