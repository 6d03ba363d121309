// Setup numbering and draws, following docs/shuffler.md step by step: an independent
// implementation of src/randomchess/startpos.py (the reference), so arbiters can draw and
// check setups in the browser. tests/test_web_browser.py compares the two.

// The facts of each variant (how many numbered setups, the standard array's number, whether
// the bishop filter applies, board size, symmetry) come from the server's metadata
// (GET /api/variants, `info` below, issue 12); only the two numbering schemes themselves are
// written here, keyed by the metadata's `setup.numbering`.

import { PAIRS, setupPlacement } from './variants.js';

function pairs(n) {
  const out = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) out.push([i, j]);
  return out;
}
const KNIGHT_TABLE = pairs(5); // RULES.md §2.4
const MRC_BISHOP_PAIRS = pairs(9); // RULES.md §4.8 step 1
const CRC_BISHOP_PAIRS = pairs(8); // docs/rules.md, CRC-Id
// The numberings whose bishops may share a colour: a number's remainder is its bishop pair.
const BISHOP_PAIRS = { mrc: MRC_BISHOP_PAIRS, crc: CRC_BISHOP_PAIRS, 'pm-crc': CRC_BISHOP_PAIRS };

function fill(squares, index, piece) {
  const empty = squares.flatMap((c, i) => (c ? [] : [i]));
  squares[empty[index]] = piece;
}

function finish(squares, knights) {
  const empty = squares.flatMap((c, i) => (c ? [] : [i]));
  for (const k of KNIGHT_TABLE[knights]) squares[empty[k]] = 'N';
  const rest = squares.flatMap((c, i) => (c ? [] : [i]));
  rest.forEach((sq, i) => (squares[sq] = 'RKR'[i]));
  return squares.join('');
}

// The numbering schemes, by the name the server gives them (variants.py `Numbering`).
const SCHEMES = {
  // Scharnagl's 0-959 (RULES.md §2.4)
  scharnagl(number) {
    const squares = Array(8).fill('');
    let n = number;
    squares[2 * (n % 4) + 1] = 'B';
    n = Math.floor(n / 4);
    squares[2 * (n % 4)] = 'B';
    n = Math.floor(n / 4);
    fill(squares, n % 6, 'Q');
    return finish(squares, Math.floor(n / 6));
  },
  // The project's MRC-Id 0-15,119 (RULES.md §4.8)
  mrc(number) {
    const squares = Array(9).fill('');
    let n = number;
    for (const i of MRC_BISHOP_PAIRS[n % 36]) squares[i] = 'B';
    n = Math.floor(n / 36);
    fill(squares, n % 7, 'Q');
    n = Math.floor(n / 7);
    fill(squares, n % 6, 'M');
    return finish(squares, Math.floor(n / 6));
  },
  // The project's CRC-Id 0-1,679 (docs/rules.md): MRC-Id on 8 files without the minister
  crc(number) {
    const squares = Array(8).fill('');
    let n = number;
    for (const i of CRC_BISHOP_PAIRS[n % 28]) squares[i] = 'B';
    n = Math.floor(n / 28);
    fill(squares, n % 6, 'Q');
    return finish(squares, Math.floor(n / 6));
  },
  // PM-CRC (docs/rules.md): the CRC-Id with the minister in the queen's place
  'pm-crc'(number) {
    return SCHEMES.crc(number).replace('Q', 'M');
  },
  // Double Fischer Random (docs/rules.md): 960 x White's Scharnagl number + Black's; the
  // setup is written WHITE/BLACK, both a-file first
  'double-scharnagl'(number) {
    return `${SCHEMES.scharnagl(Math.floor(number / 960))}/${SCHEMES.scharnagl(number % 960)}`;
  },
  // Double MRC: 15,120 x White's MRC-Id + Black's, Black's array read from Black's side
  // (8226/8226 is Modern Chess); written WHITE/BLACK, both a-file first
  'double-mrc'(number) {
    const black = [...SCHEMES.mrc(number % 15120)].reverse().join('');
    return `${SCHEMES.mrc(Math.floor(number / 15120))}/${black}`;
  },
};


const notNumbered = info => Object.assign(
  new Error(`${info ? info.key : 'this variant'} setups are not numbered`), { key: 'err.notNumbered' });

/** Whether this page can number `info`'s setups: the server numbers them with a scheme
 * written here. */
export const isNumbered = info =>
  !!(info && info.setup && info.setup.count && SCHEMES[info.setup.numbering]);

/** How many numbered setups `info` has (0 when it has no numbering). */
export const setupCount = info => (isNumbered(info) ? info.setup.count : 0);

function checkNumber(info, number) {
  if (!isNumbered(info)) throw notNumbered(info);
  const count = info.setup.count;
  if (!Number.isInteger(number) || number < 0 || number >= count) {
    throw Object.assign(new RangeError(`${info.key} setups are numbered 0-${count - 1}`), { key: 'err.badSetup' });
  }
}

/** White's back rank (a-file first, English letters) of `info`'s setup `number`. */
export function rankOf(info, number) {
  checkNumber(info, number);
  return SCHEMES[info.setup.numbering](number);
}

/** The number of back rank `rank` in `info`'s numbering (by search), or null. */
export function numberOf(info, rank) {
  if (!isNumbered(info)) return null;
  const pair = PAIRS[info.setup.numbering];
  if (pair) {
    const [white, black, ...rest] = rank.split('/');
    const one = text => { for (let n = 0; n < pair.count; n++) if (SCHEMES[pair.scheme](n) === text) return n; return null; };
    const w = one(white);
    const theirs = black !== undefined && pair.fromBlackSide ? [...black].reverse().join('') : black;
    const b = black === undefined || rest.length ? null : one(theirs);
    return w === null || b === null ? null : pair.count * w + b;
  }
  const scheme = SCHEMES[info.setup.numbering];
  for (let n = 0; n < info.setup.count; n++) if (scheme(n) === rank) return n;
  return null;
}

export function bishopsSameColour(rank) {
  const b = [...rank.split('/')[0]].flatMap((c, i) => (c === 'B' ? [i] : []));
  return b.length === 2 && (b[0] + b[1]) % 2 === 0;
}

/** The start placement of back rank `rank` on `info`'s board (Black's array mirrored or
 * reversed as the variant's symmetry says). */
export const setupFen = (info, rank) => setupPlacement(info, rank);

// ------------------------------------------------------------------- pools and draws
/** 0..count-1 without `excluded` (-1: none), read as an array is (length, at, includes)
 * without listing it; the i-th number steps over the excluded one (startpos.NumbersBelow). */
function numbersBelow(count, excluded) {
  const gone = excluded >= 0 && excluded < count ? excluded : -1;
  const length = gone >= 0 ? count - 1 : count;
  return {
    length,
    at: i => (i < 0 || i >= length ? undefined : gone >= 0 && i >= gone ? i + 1 : i),
    includes: n => Number.isInteger(n) && n >= 0 && n < count && n !== gone,
  };
}

export class SetupPool {
  // `also`: more excluded numbers (an event's own list, the setups a no-repeat event has
  // used); `only`: a shortlist, named in the tag (docs/shuffler.md §2).
  constructor(info, bishops = 'any', excludeStandard = false, also = [], only = null) {
    if (!isNumbered(info)) throw notNumbered(info);
    if (bishops !== 'any' && !info.setup.bishop_filter) throw Object.assign(new Error(`the bishop filter does not apply to ${info.key}`), { key: 'err.bishopFilter' });
    if (bishops !== 'any' && !BISHOP_PAIRS[info.setup.numbering]) throw Object.assign(new Error('the bishop filter needs the MRC or CRC numbering'), { key: 'err.bishopFilter' });
    this.variant = info.key;
    this.info = info;
    this.bishops = bishops;
    this.excludeStandard = excludeStandard;
    const standard = excludeStandard && info.setup.standard_number !== null ? [info.setup.standard_number] : [];
    const excluded = [...new Set([...standard, ...also])].sort((a, b) => a - b);
    const keep = only === null ? null : new Set(only);
    if (bishops === 'any' && excluded.length <= 1 && keep === null) {
      // Not listed (Double MRC has 228 million): 0..count-1 without the excluded number.
      this.numbers = numbersBelow(info.setup.count, excluded.length ? excluded[0] : -1);
    } else {
      const out = new Set(excluded);
      this.numbers = [];
      for (let n = 0; n < info.setup.count; n++) {
        if (out.has(n) || (keep && !keep.has(n))) continue;
        if (bishops !== 'any') {
          const table = BISHOP_PAIRS[info.setup.numbering];
          const [i, j] = table[n % table.length];
          if (((i + j) % 2 === 0) !== (bishops === 'same')) continue;
        }
        this.numbers.push(n);
      }
    }
    this.tag = `${info.key}:${bishops}:${excluded.length ? excluded.join(',') : '-'}`;
    if (keep) this.tag += `:only=${[...keep].sort((a, b) => a - b).join(',')}`;
    this.options = { bishops, excludeStandard, also: excluded, only };
  }
}

const enc = new TextEncoder();

function concat(...parts) {
  const bytes = parts.map(p => (typeof p === 'string' ? enc.encode(p) : p));
  const out = new Uint8Array(bytes.reduce((a, b) => a + b.length + 1, -1));
  let at = 0;
  bytes.forEach((b, i) => {
    if (i) out[at++] = 0;
    out.set(b, at);
    at += b.length;
  });
  return out;
}

function toBigInt(bytes) {
  return BigInt('0x' + [...bytes].map(b => b.toString(16).padStart(2, '0')).join(''));
}

export function toHex(bytes) {
  return [...new Uint8Array(bytes)].map(b => b.toString(16).padStart(2, '0')).join('');
}

export function fromHex(text) {
  const t = text.trim();
  if (!/^[0-9a-fA-F]{64}$/.test(t)) throw Object.assign(new Error('a salt is 64 hexadecimal digits'), { key: 'err.badSalt' });
  return Uint8Array.from(t.match(/../g), h => parseInt(h, 16));
}

/** uniform(key, message, n) of docs/shuffler.md §3: HMAC-SHA256 with rejection sampling. */
export async function uniformBelow(n, key, message) {
  const k = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const N = BigInt(n);
  const limit = (1n << 256n) - ((1n << 256n) % N);
  for (let counter = 0; ; counter++) {
    const block = await crypto.subtle.sign('HMAC', k, concat(message, String(counter)));
    const x = toBigInt(new Uint8Array(block));
    if (x < limit) return Number(x % N);
  }
}

/** A draw from the operating system's random source (crypto.getRandomValues). */
export function drawRandom(pool) {
  const n = pool.numbers.length;
  const limit = Math.floor(2 ** 32 / n) * n;
  const buf = new Uint32Array(1);
  do crypto.getRandomValues(buf);
  while (buf[0] >= limit);
  return pool.numbers.at(buf[0] % n);
}

export async function drawSeeded(pool, seed, count) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const msg = concat('randomchess-seed-v1', pool.tag, String(i));
    out.push(pool.numbers.at(await uniformBelow(pool.numbers.length, enc.encode(seed), msg)));
  }
  return out;
}

export async function commitment(salt, event) {
  const ev = enc.encode(event.normalize('NFC'));
  const data = new Uint8Array([...enc.encode('randomchess-commit-v1'), 0, ...salt, ...ev]);
  return toHex(await crypto.subtle.digest('SHA-256', data));
}

/** The setups of one round (docs/shuffler.md §5): one shared draw, or one per board. */
export async function roundSetups(salt, event, round, boards, pool, perBoard) {
  const ev = event.normalize('NFC');
  if (!ev.trim()) throw Object.assign(new Error('the event name must not be empty'), { key: 'err.noEvent' });
  const derive = async board => {
    const msg = concat('randomchess-draw-v1', pool.tag, ev, String(round), String(board));
    return pool.numbers.at(await uniformBelow(pool.numbers.length, salt, msg));
  };
  if (!perBoard) return Array(boards).fill(await derive(0));
  const out = [];
  for (let b = 1; b <= boards; b++) out.push(await derive(b));
  return out;
}

export function newSalt() {
  return crypto.getRandomValues(new Uint8Array(32));
}

// ------------------------------------------------------- setups revealed in the hall (§6)
const HALL_MIN = 6;
const HALL_MAX = 64;

/** The hall input as it enters the derivation (docs/shuffler.md §6): the digits typed,
 * spaces removed, 6-64 of 0-9; else an error with the page's reason key. */
export function hallInput(text) {
  const digits = String(text).replace(/ /g, '');
  const fail = (key, msg) => Object.assign(new Error(msg), { key });
  if (!digits) throw fail('err.hallEmpty', 'the hall input is empty');
  if (!/^[0-9]*$/.test(digits)) throw fail('err.hallAlphabet', 'the hall input may hold only the digits 0-9');
  if (digits.length < HALL_MIN) throw fail('err.hallShort', `at least ${HALL_MIN} digits`);
  if (digits.length > HALL_MAX) throw fail('err.hallLong', `at most ${HALL_MAX} digits`);
  return digits;
}

/** The numbers of a typed list ("standard, 7 959"): the word standard is the variant's
 * standard array and its mirror image (Chess960 518 and 534), as the server reads it. */
export function setupList(info, text) {
  const out = new Set();
  for (const word of String(text).replace(/,/g, ' ').split(/\s+/).filter(Boolean)) {
    if (word.toLowerCase() === 'standard' && isNumbered(info) && info.setup.standard_number !== null) {
      const std = info.setup.standard_number;
      out.add(std);
      const mirror = numberOf(info, [...rankOf(info, std)].reverse().join(''));
      if (mirror !== null) out.add(mirror);
    } else if (/^[0-9]{1,6}$/.test(word)) {
      out.add(Number(word));
    } else {
      throw Object.assign(new Error(`${word} is not a setup number`), { key: 'err.setupList' });
    }
  }
  return [...out].sort((a, b) => a - b);
}

async function hmac(key, message) {
  const k = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, message));
}

/** round_key(R) = HMAC-SHA256(salt, "randomchess-hall-v1" 0 event_tag 0 NAME 0 R 0 INPUT). */
export async function hallRoundKey(salt, event, round, input, eventTag) {
  const ev = event.normalize('NFC');
  if (!ev.trim()) throw Object.assign(new Error('the event name must not be empty'), { key: 'err.noEvent' });
  return hmac(salt, concat('randomchess-hall-v1', eventTag, ev, String(round), hallInput(input)));
}

/** A setup drawn with a round key: pool[uniform(key, "randomchess-hall-draw-v1" 0 tag 0 b)]. */
export async function hallDraw(key, pool, board = 0) {
  if (!pool.numbers.length) throw Object.assign(new Error('cannot draw from an empty pool'), { key: 'err.emptyPool' });
  return pool.numbers.at(await uniformBelow(pool.numbers.length, key, concat('randomchess-hall-draw-v1', pool.tag, String(board))));
}

/** The setups of a round revealed in the hall: `pool` is the event's pool before any setup
 * is used (its tag is the round key's event_tag); with `noRepeat`, `used` (the setups of the
 * earlier rounds) and the round's earlier boards leave the pool.  {key (hex), numbers}. */
export async function hallRoundSetups(salt, event, round, input, boards, pool, { perBoard = false, noRepeat = false, used = [] } = {}) {
  if (!Number.isInteger(round) || round < 1) throw Object.assign(new Error('rounds are numbered from 1'), { key: 'err.badRound' });
  if (!Number.isInteger(boards) || boards < 1) throw Object.assign(new Error('a round has at least one board'), { key: 'err.badBoards' });
  const key = await hallRoundKey(salt, event, round, input, pool.tag);
  const { bishops, excludeStandard, also, only } = pool.options;
  const poolWith = taken => (noRepeat && taken.length
    ? new SetupPool(pool.info, bishops, excludeStandard, [...also, ...taken], only) : pool);
  if (!perBoard) return { key: toHex(key), numbers: Array(boards).fill(await hallDraw(key, poolWith(used), 0)) };
  const taken = [...used];
  const numbers = [];
  for (let b = 1; b <= boards; b++) {
    const n = await hallDraw(key, poolWith(taken), b);
    numbers.push(n);
    taken.push(n);
  }
  return { key: toHex(key), numbers };
}

// ---------------------------------------------------------------- evaluation bands (issue 30)
// An event's evaluation band leaves out the setups whose engine score lies outside ±band, from
// the evaluation set the event names by its digest (randomchess.analysis.setup_eval): the
// page checks the set's digest itself and adds those setups to the pool's excluded list, as
// `tournament verify` does (randomchess.tournament.setups.pool_for).

const pyText = v => (v === null || v === undefined ? 'None' : String(v));

/** SHA-256 (hex) of a set's canonical text: "variant|engine|depth\n", then "n:cp:mate\n" by
 * number (a missing score written None, as Python writes it). `set`: the JSON of
 * GET /api/setups/{variant}/evaluation-set. */
export async function evaluationDigest(set) {
  const rows = [...set.evaluations].sort((a, b) => a[0] - b[0]);
  const text = `${set.variant}|${set.engine}|${set.depth}\n` + rows.map(([n, cp, mate]) => `${n}:${pyText(cp)}:${pyText(mate)}\n`).join('');
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', enc.encode(text))));
}

const MATE_CP = 10000; // a mate counts as 100 pawns (setup_eval.MATE_PAWNS)

/** The setups of 0..count-1 an evaluation band of `bandCp` centipawns leaves out: those not
 * evaluated, and those whose score (a mate: ±100 pawns) lies beyond ±bandCp. */
export function outsideBand(set, count, bandCp) {
  const score = new Map(set.evaluations.map(([n, cp, mate]) => [n, mate !== null && mate !== undefined ? (mate > 0 ? MATE_CP : -MATE_CP) : cp]));
  const out = [];
  for (let n = 0; n < count; n++) {
    const cp = score.get(n);
    if (cp === undefined || cp === null || Math.abs(cp) > bandCp) out.push(n);
  }
  return out;
}

// ---------------------------------------------------------------- online games (issue 32)
// The setup both players can verify (docs/shuffler.md §10): the server's committed seed and
// the joiner's client value.

/** The joiner's share: 16 random bytes as 32 lower-case hex digits. */
export function newClientValue() {
  return toHex(crypto.getRandomValues(new Uint8Array(16)));
}

/** hex(SHA-256(server seed)). */
export async function gameCommitment(seed) {
  return toHex(await crypto.subtle.digest('SHA-256', seed));
}

/** The game's setup number: pool[uniform(seed, "randomchess-game-v1" 0 tag 0 client)];
 * `pool` is every numbered setup of the variant, `client` 32-64 lower-case hex digits or ''. */
export async function gameSetup(seed, client, pool) {
  if (client !== '' && !/^[0-9a-f]{32,64}$/.test(client)) {
    throw Object.assign(new Error('a client value is 32-64 lower-case hex digits'), { key: 'err.badClientValue' });
  }
  const msg = concat('randomchess-game-v1', pool.tag, client);
  return pool.numbers.at(await uniformBelow(pool.numbers.length, seed, msg));
}
