// setups.js takes every variant fact from the server's metadata (GET /api/variants; here its
// copy web/test/variants.json, which tests/test_server_variants.py keeps equal to what the
// server serves): counts, standard numbers, the bishop filter, board and symmetry. Only the
// numbering schemes are written in the browser, and they agree with startpos.py.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.location = { search: '' };
globalThis.navigator = { language: 'en' };
globalThis.document = { documentElement: {} };

const {
  SetupPool, drawSeeded, fromHex, gameCommitment, gameSetup, isNumbered, newClientValue, numberOf, rankOf,
  setupCount, setupFen,
} = await import('../src/setups.js');

const VARIANTS = JSON.parse(readFileSync(new URL('./variants.json', import.meta.url)));
const info = key => VARIANTS.find(v => v.key === key);

test('the numbered variants are the ones the metadata numbers', () => {
  assert.deepEqual(VARIANTS.filter(isNumbered).map(v => v.key), ['chess960', 'mrc', 'crc', 'pmcrc', 'double960', 'double-mrc', 'ifrc']);
  assert.equal(setupCount(info('double960')), 921600);
  assert.equal(setupCount(info('double-mrc')), 15120 * 15120);
  assert.equal(setupCount(info('crc')), 1680);
  assert.equal(setupCount(info('chess960')), 960);
  assert.equal(setupCount(info('mrc')), 15120);
  assert.equal(setupCount(info('caparandom')), 0);
});

test('ranks and numbers agree with startpos.py', () => {
  assert.equal(rankOf(info('chess960'), 518), 'RNBQKBNR');
  assert.equal(rankOf(info('chess960'), 0), 'BBQNNRKR');
  assert.equal(rankOf(info('mrc'), 8226), 'RNBMKQBNR');
  assert.equal(numberOf(info('chess960'), 'RNBQKBNR'), 518);
  assert.equal(numberOf(info('mrc'), 'RNBMKQBNR'), 8226);
  // Double Fischer Random: 960 x White's Scharnagl number + Black's, written WHITE/BLACK.
  assert.equal(rankOf(info('double960'), 518 * 960 + 0), 'RNBQKBNR/BBQNNRKR');
  assert.equal(numberOf(info('double960'), 'RNBQKBNR/BBQNNRKR'), 518 * 960);
  assert.equal(numberOf(info('double960'), 'RNBQKBNR'), null);
  assert.equal(setupFen(info('double960'), 'RNBQKBNR/BBQNNRKR'),
    'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR');
  // IFRC: Chess960's numbers, the arrays inside the 10x10 board's empty edges.
  assert.equal(rankOf(info('ifrc'), 518), 'RNBQKBNR');
  assert.equal(setupFen(info('ifrc'), 'RNBQKBNR'),
    '10/1rnbqkbnr1/1pppppppp1/10/10/10/10/1PPPPPPPP1/1RNBQKBNR1/10');
  // CRC-Id (docs/rules.md): 911 is the orthodox array, 0 is BBQNNRKR (startpos.py agrees).
  assert.equal(rankOf(info('crc'), 911), 'RNBQKBNR');
  assert.equal(rankOf(info('crc'), 0), 'BBQNNRKR');
  assert.equal(rankOf(info('pmcrc'), 911), 'RNBMKBNR'); // PM-CRC: CRC-Id, M for Q
  assert.equal(numberOf(info('pmcrc'), 'RBKNMBNR'), 10 + 28 * (3 + 6 * 7));
  // RBKNQBNR: bishop pair (1,5) is pair 10, the queen the 4th free square (3), knights row 7.
  assert.equal(numberOf(info('crc'), 'RBKNQBNR'), 10 + 28 * (3 + 6 * 7));
  assert.equal(numberOf(info('caparandom'), 'RNABQKBCNR'), null);
});

test('the standard array excluded and the pool tag come from the metadata', () => {
  const p = new SetupPool(info('chess960'), 'any', true);
  assert.equal(p.numbers.length, 959);
  assert.ok(!p.numbers.includes(518));
  assert.equal(p.tag, 'chess960:any:518');
  const m = new SetupPool(info('mrc'), 'same', true);
  assert.equal(m.numbers.length, 6719); // Maura's array has same-coloured bishops
  assert.equal(m.tag, 'mrc:same:8226');
  assert.equal(new SetupPool(info('mrc'), 'opposite').numbers.length, 8400);
  assert.equal(new SetupPool(info('crc'), 'same').numbers.length, 720);
  assert.equal(new SetupPool(info('crc'), 'same', true).numbers.length, 720); // 911 is opposite
  // A different served fact changes the pool: nothing is taken from a table of its own.
  const edited = structuredClone(info('chess960'));
  edited.setup.standard_number = 7;
  const q = new SetupPool(edited, 'any', true);
  assert.ok(q.numbers.includes(518) && !q.numbers.includes(7));
  assert.equal(q.tag, 'chess960:any:7');
  edited.setup.count = 10;
  assert.throws(() => rankOf(edited, 10), e => e.key === 'err.badSetup');
});

test('seeded draws match docs/shuffler.md §6', async () => {
  assert.deepEqual(await drawSeeded(new SetupPool(info('chess960')), '42', 3), [635, 930, 895]);
  assert.deepEqual(await drawSeeded(new SetupPool(info('mrc'), 'same', true), 'abc', 3),
    [6519, 3298, 1773]);
});

test('bad requests get typed errors', () => {
  assert.throws(() => new SetupPool(info('chess960'), 'same'), e => e.key === 'err.bishopFilter');
  assert.throws(() => new SetupPool(info('caparandom')), e => e.key === 'err.notNumbered');
  assert.throws(() => rankOf(info('pmrc'), 0), e => e.key === 'err.notNumbered');
  assert.throws(() => rankOf(info('chess960'), 960), e => e.key === 'err.badSetup');
  assert.throws(() => rankOf(info('chess960'), 1.5), e => e.key === 'err.badSetup');
});

test('start placements follow the served board and symmetry', () => {
  assert.equal(setupFen(info('chess960'), 'RNBQKBNR'),
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR');
  assert.equal(setupFen(info('mrc'), 'RNBMKQBNR'),
    'rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR');
  assert.equal(setupFen(info('pseudo-mrc'), 'RNBMKQBNR'),
    'rnbmkqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR');
  assert.equal(setupFen(info('pmrc'), 'RNBQKMNBR'),
    'rnbqkmnbr/ppppppppp/9/9/9/9/PPPPPPPPP/RNBQKMNBR');
});

test('Double MRC: a pair of MRC-Ids, Black\'s read from its side, drawn without a list', async () => {
  const d = info('double-mrc');
  const maura = 8226 * 15120 + 8226; // Modern Chess for both: startpos.py agrees
  assert.equal(rankOf(d, maura), 'RNBMKQBNR/RNBQKMBNR');
  assert.equal(numberOf(d, 'RNBMKQBNR/RNBQKMBNR'), maura);
  assert.equal(d.setup.standard_number, maura);
  assert.equal(setupFen(d, 'RNBMKQBNR/RNBQKMBNR'), setupFen(info('mrc'), 'RNBMKQBNR'));
  const pool = new SetupPool(d, 'any', true);
  assert.equal(pool.numbers.length, 15120 * 15120 - 1);
  assert.ok(!pool.numbers.includes(maura) && pool.numbers.includes(maura + 1));
  assert.equal(pool.numbers.at(maura), maura + 1);
  assert.equal(pool.numbers.at(maura - 1), maura - 1);
  const drawn = await drawSeeded(pool, 'issue 35', 2);
  // The same draws as startpos.draw_seeded(SetupPool('double-mrc', exclude_standard=True), ...).
  assert.deepEqual(drawn, [150520810, 105632850]);
});

test("an online game's verifiable setup: docs/shuffler.md §10's vectors (issue 32)", async () => {
  const seed = fromHex('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
  assert.equal(await gameCommitment(seed), '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd');
  const v = '00112233445566778899aabbccddeeff';
  assert.equal(await gameSetup(seed, v, new SetupPool(info('chess960'))), 879);
  assert.equal(await gameSetup(seed, 'ffeeddccbbaa99887766554433221100', new SetupPool(info('chess960'))), 275);
  assert.equal(await gameSetup(seed, '', new SetupPool(info('chess960'))), 658);
  assert.equal(await gameSetup(seed, v, new SetupPool(info('mrc'))), 11820);
  assert.equal(await gameSetup(seed, '', new SetupPool(info('mrc'))), 7653);
  assert.equal(await gameSetup(seed, v, new SetupPool(info('crc'))), 1638);
  await assert.rejects(gameSetup(seed, 'ABC', new SetupPool(info('chess960'))), e => e.key === 'err.badClientValue');
  assert.match(newClientValue(), /^[0-9a-f]{32}$/);
  assert.notEqual(newClientValue(), newClientValue());
});
