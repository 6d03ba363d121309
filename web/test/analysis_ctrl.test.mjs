// The analysis board's controller (web/src/analysis/ctrl.js, issue 27) driven from node over
// fake server calls and a fake engine socket, no DOM. Each test names the behaviour it guards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.location = { search: '' };
globalThis.navigator = { language: 'en' };
globalThis.document = { documentElement: {} };

const { createAnalysisCtrl } = await import('../src/analysis/ctrl.js');
const { setLang, setPieceLetters } = await import('../src/i18n.js');

const VARIANTS = JSON.parse(readFileSync(new URL('./variants.json', import.meta.url)));
const variants = key => VARIANTS.find(v => v.key === key) || null;
setPieceLetters(VARIANTS.flatMap(v => v.pieces));

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const SAN = { e2e4: 'e4', e7e5: 'e5', c7c5: 'c5', g1f3: 'Nf3', b8c6: 'Nc6' };
const settle = () => new Promise(resolve => setImmediate(resolve));

/** A controller over a fake server (every move legal, SAN from a table) and socket. */
function harness({ query = '', game = null, review = null, postReview = null, polls = [] } = {}) {
  const calls = { position: [], sent: [], redraws: 0 };
  let onMessage = null;
  const api = {
    position: async body => {
      calls.position.push(body);
      const moves = body.moves || [];
      return { variant: body.variant, start_fen: body.fen || START, fen: START,
        legal_moves: Object.keys(SAN), to_move: moves.length % 2 ? 'black' : 'white',
        san: moves.map(m => SAN[m]), over: false, check: false, moves };
    },
    pgn: async () => ({ variant: 'chess', start_fen: START, moves: ['e2e4', 'e7e5'], san: ['e4', 'e5'] }),
    getGame: async () => game,
    getReview: async () => (polls.length ? polls.shift() : { review }),
    postReview: async () => postReview,
    engines: async () => ({ engines: ['randomchess', 'stockfish'] }),
  };
  const connect = fn => {
    onMessage = fn;
    return { send: obj => calls.sent.push(obj), close: () => {} };
  };
  const ctrl = createAnalysisCtrl({ api, connect, query: new URLSearchParams(query), variants,
    redraw: () => { calls.redraws += 1; }, sleep: async () => {} });
  return { ctrl, calls, engine: msg => onMessage(msg) };
}

test('moves build a tree: main line, a side line, delete, promote, keys', async () => {
  const { ctrl, calls } = harness();
  await ctrl.start();
  assert.equal(ctrl.view().board.ply, 0);
  assert.equal(ctrl.play('e2e4'), true);
  ctrl.play('e7e5');
  await settle();
  assert.ok(ctrl.key('left'));
  await settle();
  ctrl.play('c7c5');
  await settle();
  const tree = ctrl.view().tree;
  assert.deepEqual(tree.map(n => [n.number, n.san]), [['1.', 'e4'], ['', 'e5']]);
  assert.deepEqual(tree[1].sidelines[0].map(n => [n.number, n.san, n.current]), [['1…', 'c5', true]]);
  assert.deepEqual(calls.position.at(-1).moves, ['e2e4', 'c7c5']);
  ctrl.promoteCurrent();
  assert.equal(ctrl.view().tree[1].san, 'c5');
  ctrl.deleteCurrent();
  await settle();
  assert.equal(ctrl.view().board.ply, 1);
  assert.deepEqual(ctrl.view().tree[0].sidelines, []);
  assert.equal(ctrl.view().tree[1].san, 'e5');
  assert.ok(ctrl.key('last'));
  await settle();
  assert.equal(ctrl.view().board.ply, 2);
  assert.ok(ctrl.key('first'));
  await settle();
  assert.equal(ctrl.view().board.ply, 0);
  assert.equal(ctrl.view().hands, null); // chess has no hand
  assert.equal(ctrl.key('x'), false);
  assert.equal(ctrl.play('a1a8'), false); // not legal: nothing changes
  assert.equal(ctrl.view().board.ply, 0);
});

test('the engine lines in Spanish: letters and decimal mark (issue 27)', async () => {
  setLang('es');
  try {
    const { ctrl, calls, engine } = harness({ query: 'variant=chess' });
    await ctrl.start();
    ctrl.toggleEngine();
    assert.equal(calls.sent.at(-1).type, 'analyse');
    engine({ type: 'lines', seq: 1, depth: 7, lines: [
      { multipv: 1, score: { cp: 36, mate: null }, pv: ['g1f3'], san: ['Nf3', 'Nc6', 'Qd8#'] }] });
    const v = ctrl.view();
    assert.equal(v.eval.lines[0].pv, 'Cf3 Cc6 Dd8#');
    assert.equal(v.eval.lines[0].score, '+0,36');
    assert.equal(v.eval.figure, '+0,36');
    assert.equal(v.eval.depth, 'profundidad 7');
  } finally {
    setLang('en');
  }
});

test('Stop, then Start again: the new lines are shown', async () => {
  // The page counted Stop as a request of its own: the server's answers to the next
  // request carried a number one lower and were all dropped.
  const { ctrl, calls, engine } = harness();
  await ctrl.start();
  ctrl.toggleEngine(); // request 1
  engine({ type: 'lines', seq: 1, depth: 3, lines: [{ multipv: 1, score: { cp: 10, mate: null }, pv: ['e2e4'], san: ['e4'] }] });
  ctrl.toggleEngine(); // stop
  assert.equal(calls.sent.at(-1).type, 'stop');
  engine({ type: 'lines', seq: 1, depth: 4, lines: [{ multipv: 1, score: { cp: 20, mate: null }, pv: ['e2e4'], san: ['e4'] }] });
  assert.equal(ctrl.view().eval.depthValue, 3, 'a line after Stop is not shown');
  ctrl.toggleEngine(); // request 2
  engine({ type: 'lines', seq: 2, depth: 5, lines: [{ multipv: 1, score: { cp: -120, mate: null }, pv: ['e2e4'], san: ['e4'] }] });
  assert.equal(ctrl.view().eval.depthValue, 5);
  assert.equal(ctrl.view().eval.figure, '-1.20');
  // A move sends a new request; answers to the old one are dropped.
  ctrl.play('e2e4');
  await settle();
  engine({ type: 'lines', seq: 2, depth: 9, lines: [{ multipv: 1, score: { cp: 0, mate: null }, pv: ['e7e5'], san: ['e5'] }] });
  assert.notEqual(ctrl.view().eval.depthValue, 9);
});

test('a stored game opens at its last move; its review counts with plurals', async () => {
  const review = { engine: 'randomchess', accuracy: { white: 91.25, black: 33.2 },
    counts: { white: { inaccuracy: 2 }, black: { blunder: 1 } },
    plies: [{ ply: 1, san: 'e4' }, { ply: 2, san: 'e5', judgement: 'blunder', best_san: 'Nc6' }] };
  const game = { variant: 'chess', start_fen: START, moves: ['e2e4', 'e7e5'], san: ['e4', 'e5'] };
  const { ctrl } = harness({ query: 'game=g1', game, review });
  await ctrl.start();
  const v = ctrl.view();
  assert.equal(v.board.ply, 2);
  assert.equal(v.tree[1].glyph, '??');
  assert.equal(v.review.black.counts, '0 inaccuracies, 0 mistakes, 1 blunder');
  assert.equal(v.review.white.counts, '2 inaccuracies, 0 mistakes, 0 blunders');
  assert.equal(v.review.white.accuracy, 'Accuracy 91.3%');
  assert.deepEqual(v.review.marks.map(m => m.ply), [2]);
  setLang('es');
  try {
    const es = ctrl.view().review;
    assert.equal(es.black.counts, '0 imprecisiones, 0 errores, 1 error grave');
    assert.equal(es.black.accuracy, 'Precisión 33,2%');
    assert.match(es.marks[0].best, /Cc6/);
  } finally {
    setLang('en');
  }
  ctrl.goToPly(0);
  await settle();
  assert.equal(ctrl.view().board.ply, 0);
});

test('a review asked for is polled until stored', async () => {
  const review = { engine: 'randomchess', accuracy: {}, counts: { white: {}, black: {} }, plies: [] };
  const game = { variant: 'chess', start_fen: START, moves: [], san: [] };
  // The page's GET at start finds none; the POST answers "running"; two polls later it is there.
  const polls = [{ review: null }, { status: 'running' }, { status: 'running' }, { review }];
  const h = harness({ query: 'game=g2', game, postReview: { status: 'running' }, polls });
  await h.ctrl.start();
  assert.equal(h.ctrl.view().review.data, undefined);
  const asked = h.ctrl.requestReview();
  assert.equal(h.ctrl.view().review.reviewing, true);
  await asked;
  assert.equal(polls.length, 0);
  assert.equal(h.ctrl.view().review.data, review);
  assert.equal(h.ctrl.view().review.reviewing, false);
  assert.equal(h.ctrl.view().review.engine, 'by randomchess');
});

test('a live game between people opens without engine help (issue 28, fair play)', async () => {
  const live = { variant: 'chess', start_fen: START, moves: ['e2e4'], san: ['e4'],
    opponent: 'friend', status: 'playing' };
  const { ctrl, calls } = harness({ query: 'game=abc', game: live });
  await ctrl.start();
  assert.equal(ctrl.view().locked, true);
  ctrl.toggleEngine();
  assert.equal(ctrl.view().engineOn, false);
  assert.equal(calls.sent.length, 0, 'no analysis is asked for');
  assert.match(ctrl.view().message, /ends/);
  // The same game once it has ended, or a game against the computer, is analysed.
  for (const game of [{ ...live, status: 'ended' }, { ...live, opponent: 'computer' }]) {
    const h = harness({ query: 'game=abc', game });
    await h.ctrl.start();
    assert.equal(h.ctrl.view().locked, false);
    h.ctrl.toggleEngine();
    assert.equal(h.calls.sent.at(-1).type, 'analyse');
  }
});

test('load: setup 0 is a setup; a paste and a number together load nothing (issue 37)', async () => {
  const { ctrl, calls } = harness();
  await ctrl.start();
  calls.position.length = 0;
  await ctrl.load({ text: '', variant: 'chess960', number: '0' });
  assert.equal(calls.position[0].setup, 0);
  calls.position.length = 0;
  const before = ctrl.view().board.fen;
  await ctrl.load({ text: '1. e4 e5 *', variant: 'chess960', number: '5' });
  assert.equal(calls.position.length, 0);
  assert.match(ctrl.view().message, /PGN/);
  assert.equal(ctrl.view().board.fen, before);
});

// PM-CRC (docs/rules.md D-31..D-36): a fake server for setup 911, the queen in hand.
const PM = 'rnbkmbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKBNR[Qq] w KQBCDFGkqbcefg - 0 1';
const PM_AFTER = {
  b1c3q: ['rnbkmbnr/pppppppp/8/8/8/2N5/PPPPPPPP/RQBMKBNR[q] b KQkqbcefg - 1 1', 'Nc3/Q'],
  b1c3: ['rnbkmbnr/pppppppp/8/8/8/2N5/PPPPPPPP/R1BMKBNR[Qq] b KQCDFGkqbcefg - 1 1', 'Nc3'],
  e2e4: ['rnbkmbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBMKBNR[Qq] b KQBCDFGkqbcefg - 0 1', 'e4'],
};

/** The analysis controller over PM-CRC's fake server; `answers`: what the gate picker says,
 * in turn (a gating UCI, '' for none, null for cancelled); `asked`: what it was asked. */
function gatingHarness(answers) {
  const asked = [];
  let release = null;
  const api = {
    position: async body => {
      const moves = body.moves || [];
      const last = moves.at(-1);
      return { variant: 'pmcrc', start_fen: PM, fen: last ? PM_AFTER[last][0] : PM,
        legal_moves: moves.length ? ['g8f6'] : ['b1c3', 'b1c3q', 'b1a3', 'b1a3q', 'e2e4'],
        to_move: moves.length % 2 ? 'black' : 'white', san: moves.map(m => PM_AFTER[m][1]),
        over: false, check: false, moves };
    },
    engines: async () => ({ engines: ['randomchess'] }),
  };
  const ask = (kind, data) => {
    asked.push({ kind, ...data });
    const answer = answers.shift();
    // 'wait': the picker stays open until release() is called with its answer.
    return answer === 'wait' ? new Promise(r => { release = r; }) : Promise.resolve(answer);
  };
  const ctrl = createAnalysisCtrl({ api, connect: () => ({ send() {}, close() {} }), ask,
    query: new URLSearchParams('variant=pmcrc'), variants });
  return { ctrl, asked, release: answer => release(answer) };
}

test('gating (PM-CRC): a drag from a gate square asks the picker; the queen, none, cancel', async () => {
  const { ctrl, asked } = gatingHarness(['b1c3q', '', null]);
  await ctrl.start();
  assert.deepEqual(ctrl.view().hands, { white: 'q', black: 'q' });
  assert.equal(ctrl.view().board.placement, 'rnbkmbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKBNR');
  assert.equal(await ctrl.move('b1', 'c3'), true);
  assert.deepEqual(asked[0], { kind: 'gate', color: 'white', square: 'b1',
    options: [{ letter: 'q', square: 'b1', uci: 'b1c3q' }] });
  await settle();
  assert.equal(ctrl.current.uci, 'b1c3q');
  assert.deepEqual(ctrl.view().tree.map(n => n.san), ['Nc3/Q']);
  assert.deepEqual(ctrl.view().hands, { white: '', black: 'q' }); // White's queen is in
  ctrl.key('left');
  await settle();
  assert.equal(await ctrl.move('b1', 'c3'), true); // "none": the plain move, a side line
  await settle();
  assert.equal(ctrl.current.uci, 'b1c3');
  assert.deepEqual(ctrl.view().hands, { white: 'q', black: 'q' });
  ctrl.key('left');
  await settle();
  assert.equal(await ctrl.move('b1', 'a3'), false); // cancelled: no move
  assert.equal(ctrl.view().board.ply, 0);
  assert.equal(ctrl.tree.children.length, 2);
  assert.equal(asked.length, 3);
  assert.equal(ctrl.move('e2', 'e4'), true); // no gate on a pawn's move: nothing asked
  assert.equal(asked.length, 3);
  // In Spanish the tree writes the gate with the Spanish letters.
  setLang('es');
  try {
    ctrl.key('first');
    await settle();
    assert.deepEqual(ctrl.view().tree[0].san, 'Cc3/D');
  } finally {
    setLang('en');
  }
});

test('gating (PM-CRC): a choice made after the board moved elsewhere plays nothing', async () => {
  const { ctrl, asked, release } = gatingHarness(['wait']);
  await ctrl.start();
  ctrl.play('e2e4');
  await settle();
  ctrl.key('left');
  await settle();
  const pending = ctrl.move('b1', 'c3');
  assert.equal(asked.length, 1);
  ctrl.key('right'); // the arrow key went on while the picker was open
  await settle();
  release('b1c3q');
  assert.equal(await pending, false);
  await settle();
  assert.equal(ctrl.current.uci, 'e2e4');
  assert.equal(ctrl.tree.children.length, 1);
});
