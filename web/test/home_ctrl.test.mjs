// The home page's controller (web/src/home/ctrl.js, issue 27) driven from node over fake
// server calls and storage, no DOM. Each test names the behaviour it guards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.location = { search: '' };
globalThis.navigator = { language: 'en' };
globalThis.document = { documentElement: {} };

const { createHomeCtrl } = await import('../src/home/ctrl.js');
const { setLang, setPieceLetters } = await import('../src/i18n.js');
const { ApiError } = await import('../src/api.js');

const VARIANTS = JSON.parse(readFileSync(new URL('./variants.json', import.meta.url)));
const info = key => VARIANTS.find(v => v.key === key) || null;
setPieceLetters(VARIANTS.flatMap(v => v.pieces));
const variants = { all: () => VARIANTS, playable: () => VARIANTS.filter(v => v.engine), info };

// POST /api/games's limits as limits.js reads them from the OpenAPI document.
const LIMITS = {
  'clock.minutes': { min: 0, max: 1440, type: 'number' },
  'clock.increment': { min: 0, max: 180, type: 'number' },
  preview: { min: 0, max: 600, type: 'integer' },
};
const settle = () => new Promise(resolve => setImmediate(resolve));

const CLIENT_VALUE = '00112233445566778899aabbccddeeff';

/** A controller over fake calls; `created` collects the bodies sent, `draws` the variants of
 * the setup draws opened (`drawFails`: the server refuses them). */
function harness({ saved = {}, levels = { variants: {} }, limits = LIMITS, answer = null,
  drawFails = false } = {}) {
  const calls = { created: [], saved: [], seats: [], went: [], redraws: 0, draws: [] };
  const api = {
    openSetupDraw: async variant => {
      calls.draws.push(variant);
      if (drawFails) throw new ApiError('busy', 429, { code: 'rate.limited' });
      return { id: `draw-${calls.draws.length}`, commitment: 'c'.repeat(64) };
    },
    newClientValue: () => CLIENT_VALUE,
    createGame: async body => {
      calls.created.push(body);
      if (answer instanceof Error) throw answer;
      return answer || { id: 'g1', seat: { color: 'white', token: 't' }, invite_url: null };
    },
    loadLevels: async () => levels,
    formLimits: async () => limits,
  };
  const storage = { load: () => saved, save: obj => calls.saved.push(obj) };
  const ctrl = createHomeCtrl({
    api, storage, variants, draw: () => 518,
    saveSeat: (id, seat) => calls.seats.push([id, seat]), go: path => calls.went.push(path),
    redraw: () => { calls.redraws += 1; },
  });
  ctrl.start();
  return { ctrl, calls };
}

test('the saved choices come back, a chess960 draw shows its number and back rank', async () => {
  setLang('en');
  const { ctrl } = harness({ saved: { variant: 'chess960', opponent: 'friend', color: 'black', minutes: '5', increment: '3' } });
  await settle();
  let v = ctrl.view();
  assert.equal(v.variant, 'chess960');
  assert.equal(v.opponent, 'friend');
  assert.equal(v.color, 'black');
  // Against a friend the setup is drawn verifiably at the join (issue 32): none to preview.
  assert.deepEqual(v.setup.shown, { fair: 'friend' });
  assert.equal(v.setup.redrawHidden, true);
  ctrl.set('opponent', 'hotseat'); // on one screen this page's draw is the setup played
  v = ctrl.view();
  assert.equal(v.setup.redrawHidden, false);
  assert.equal(v.setup.shown.number, '518');
  assert.equal(v.setup.shown.rank, 'RNBQKBNR');
  assert.ok(v.setup.shown.placement.endsWith('RNBQKBNR'));
  assert.deepEqual(v.presets.filter(p => p.on).map(p => [p.minutes, p.increment]), [[5, 3]]);
  assert.equal(v.levelHidden, true);
  ctrl.set('opponent', 'friend');
  assert.deepEqual(ctrl.spec(), { variant: 'chess960', opponent: 'friend', setup: 518, color: 'black',
    clock: { minutes: 5, increment: 3 } });
});

test('a typed number is judged as it is typed; a wrong one is said, not sent', async () => {
  const { ctrl, calls } = harness();
  ctrl.set('setup', 'number');
  ctrl.set('number', '99999');
  assert.match(ctrl.view().error, /959/);
  assert.equal(ctrl.view().setup.shown, null);
  assert.equal(await ctrl.submit(), false);
  assert.deepEqual(calls.created, []);
  ctrl.set('number', '0');
  assert.equal(ctrl.view().error, '');
  assert.equal(ctrl.view().setup.shown.rank, 'BBQNNRKR');
  // A variant without numbers falls back to the random draw.
  ctrl.set('variant', 'caparandom');
  assert.equal(ctrl.view().setup.mode, 'random');
  // An empty FEN is not an error until something is typed, but is one on submit.
  ctrl.set('variant', 'chess');
  ctrl.set('variant', 'chess960');
  ctrl.set('setup', 'fen');
  assert.equal(ctrl.view().error, '');
  await ctrl.submit();
  assert.notEqual(ctrl.view().error, '');
});

test('fixed and server-drawn setups; pairs typed as text', () => {
  const { ctrl } = harness();
  ctrl.set('variant', 'chess');
  let v = ctrl.view();
  assert.equal(v.setup.fixed, true);
  assert.equal(v.setup.shown.number, '518');
  assert.equal(ctrl.spec().setup, undefined);
  ctrl.set('variant', 'caparandom');
  assert.deepEqual(ctrl.view().setup.shown, { server: true });
  assert.equal(ctrl.spec().setup, 'random');
  ctrl.set('variant', 'double960');
  v = ctrl.view();
  assert.equal(v.setup.numberType, 'text');
  ctrl.set('setup', 'number');
  ctrl.set('number', '518/123');
  assert.equal(ctrl.view().error, '');
  assert.equal(ctrl.spec().setup, 518 * 960 + 123);
});

test('the computer only where its engine plays; the level stays within the variant\'s', async () => {
  const levels = { variants: { chess960: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map(level =>
    ({ level, engine: level > 8 ? 'stockfish' : 'randomchess', rating: level * 200 })) } };
  const { ctrl } = harness({ saved: { level: '10' }, levels });
  assert.equal(ctrl.view().level.value, '8'); // before the levels arrive: 1..8
  await settle();
  let v = ctrl.view();
  assert.equal(v.level.value, '10');
  assert.equal(v.level.max, 11);
  assert.match(v.level.text, /^10 \(.*stockfish/);
  ctrl.set('variant', 'mrc'); // levels 1..8 only
  assert.equal(ctrl.view().level.value, '8');
  ctrl.set('variant', 'pmrc'); // no engine: a friend instead
  v = ctrl.view();
  assert.equal(v.computer, false);
  assert.equal(v.opponent, 'friend');
  ctrl.set('opponent', 'hotseat');
  assert.equal(ctrl.view().colourHidden, true);
  assert.equal(ctrl.spec().color, undefined);
});

test('the clock: presets, controls, correspondence, and limits said before sending', async () => {
  setLang('en');
  const { ctrl, calls } = harness();
  ctrl.preset(3, 2);
  assert.deepEqual(ctrl.spec().clock, { minutes: 3, increment: 2 });
  ctrl.set('control', '30/1500:300+5');
  assert.deepEqual(ctrl.spec().clock, { control: '30/1500:300+5' });
  ctrl.set('days', '3');
  assert.deepEqual(ctrl.spec().clock, { days: 3 });
  ctrl.set('days', '');
  ctrl.set('control', '');
  ctrl.set('minutes', '9999');
  assert.equal(await ctrl.submit(), false);
  assert.equal(ctrl.view().error, 'Minutes: from 0 (no clock) to 1440.');
  ctrl.set('minutes', '-5');
  await ctrl.submit();
  assert.equal(ctrl.view().error, 'Minutes: from 0 (no clock) to 1440.');
  ctrl.set('minutes', '0');
  ctrl.set('increment', '500');
  await ctrl.submit(); // no clock: the increment does not matter
  assert.equal(calls.created.length, 1);
  assert.equal(calls.created[0].clock, undefined);
});

test('the setup preview: timed games only, empty for the default, bounds in the language', async () => {
  setLang('es');
  const { ctrl, calls } = harness({ saved: { opponent: 'computer' } });
  await settle();
  assert.equal(ctrl.view().previewHidden, true); // no clock
  assert.match(ctrl.view().previewHint, /de 0 a 600/);
  ctrl.set('minutes', '3');
  ctrl.set('increment', '2');
  assert.equal(ctrl.view().previewHidden, false);
  assert.equal(ctrl.spec().preview, undefined); // empty: the server's default
  ctrl.set('preview', '700');
  assert.equal(await ctrl.submit(), false);
  assert.equal(ctrl.view().error, 'Vista previa de la posición (segundos): de 0 a 600.');
  ctrl.set('preview', '2.5');
  await ctrl.submit();
  assert.match(ctrl.view().error, /escribe un número/);
  assert.deepEqual(calls.created, []);
  ctrl.set('preview', '30');
  assert.equal(await ctrl.submit(), true);
  assert.equal(calls.created[0].preview, 30);
  assert.equal(calls.saved[0].preview, '30');
  ctrl.set('opponent', 'hotseat');
  assert.equal(ctrl.view().previewHidden, true);
  assert.equal(ctrl.spec().preview, undefined);
  ctrl.set('opponent', 'friend');
  ctrl.set('days', '2');
  assert.equal(ctrl.spec().preview, undefined); // correspondence has none
  setLang('en');
});

test('submitting: the body sent, the seat kept, the game page opened; a refusal explained', async () => {
  setLang('en');
  const { ctrl, calls } = harness({ saved: { variant: 'chess960', opponent: 'friend', color: 'white' } });
  assert.equal(await ctrl.submit(), true);
  assert.deepEqual(calls.created, [{ variant: 'chess960', opponent: 'friend', setup: 'random', color: 'white' }]);
  assert.deepEqual(calls.seats, [['g1', { color: 'white', token: 't', opponent: 'friend', invite_url: null }]]);
  assert.deepEqual(calls.went, ['/game/g1']);
  assert.equal(calls.saved[0].variant, 'chess960');

  const refused = new ApiError('bad', 422, { code: 'request.invalid', errors: [{ loc: ['body', 'clock', 'minutes'] }] });
  const other = harness({ answer: refused });
  other.ctrl.preset(5, 3);
  assert.equal(await other.ctrl.submit(), false);
  assert.equal(other.ctrl.view().error, 'Minutes: from 0 to 1440.');
  assert.equal(other.ctrl.view().submitting, false);
  assert.deepEqual(other.calls.went, []);
});

test('a random setup against the computer or a friend is drawn verifiably; a chosen number is not', async () => {
  setLang('en');
  // The computer: the page opens a draw (the server's commitment), then sends its own value.
  const computer = harness({ saved: { variant: 'mrc', opponent: 'computer', color: 'white', level: '2' } });
  assert.deepEqual(computer.ctrl.view().setup.shown, { fair: 'computer' });
  assert.equal(await computer.ctrl.submit(), true);
  assert.deepEqual(computer.calls.draws, ['mrc']);
  assert.deepEqual(computer.calls.created, [{ variant: 'mrc', opponent: 'computer', setup: 'random',
    level: 2, color: 'white', setup_draw: { id: 'draw-1', client_value: CLIENT_VALUE } }]);
  assert.equal('number' in computer.calls.created[0], false);
  // A friend: the server commits now and the friend's browser adds its value at the join.
  const friend = harness({ saved: { variant: 'crc', opponent: 'friend', color: 'black' } });
  assert.equal(await friend.ctrl.submit(), true);
  assert.deepEqual(friend.calls.draws, []);
  assert.deepEqual(friend.calls.created, [{ variant: 'crc', opponent: 'friend', setup: 'random', color: 'black' }]);
  // A number the player chose stays that number, with no draw opened.
  for (const opponent of ['computer', 'friend']) {
    const chosen = harness({ saved: { variant: 'chess960', opponent, color: 'white', level: '1' } });
    chosen.ctrl.set('setup', 'number');
    chosen.ctrl.set('number', '518');
    assert.notDeepEqual(chosen.ctrl.view().setup.shown, { fair: opponent });
    assert.equal(await chosen.ctrl.submit(), true);
    assert.deepEqual(chosen.calls.draws, []);
    assert.equal(chosen.calls.created[0].setup, 518);
    assert.equal(chosen.calls.created[0].setup_draw, undefined);
  }
  // On one screen (hot seat) this page's draw is the setup played, as the game page keeps
  // a hot-seat rematch's ordinary draw.
  const hotseat = harness({ saved: { variant: 'chess960', opponent: 'hotseat' } });
  assert.equal(hotseat.ctrl.view().setup.shown.number, '518');
  assert.equal(await hotseat.ctrl.submit(), true);
  assert.deepEqual(hotseat.calls.draws, []);
  assert.deepEqual(hotseat.calls.created, [{ variant: 'chess960', opponent: 'hotseat', setup: 518 }]);
  // A variant whose arrays have no numbers: the server's ordinary draw, no commitment.
  const unnumbered = harness({ saved: { variant: 'caparandom', opponent: 'computer', level: '1' } });
  assert.equal(await unnumbered.ctrl.submit(), true);
  assert.deepEqual(unnumbered.calls.draws, []);
  assert.equal(unnumbered.calls.created[0].setup_draw, undefined);
  // A draw the server cannot open: the game still starts, on this page's own draw.
  const refused = harness({ saved: { variant: 'chess960', opponent: 'computer', level: '1' }, drawFails: true });
  assert.equal(await refused.ctrl.submit(), true);
  assert.deepEqual(refused.calls.draws, ['chess960']);
  assert.equal(refused.calls.created[0].setup, 518);
  assert.equal(refused.calls.created[0].setup_draw, undefined);
});
