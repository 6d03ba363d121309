// The home page's controller (issue 27), in the game page's shape (game/ctrl.js): the new-game
// form's choices (variant, setup, opponent, level, colour, clock, setup preview), what they
// describe (the setup's number and back rank, the limits broken) and the submission, as plain
// data and functions with no DOM. Its dependencies (the server's calls, storage, the
// variants' metadata, the random draw, navigation, redraw) are parameters, so
// test/home_ctrl.test.mjs drives it from node. The view (home/view.js) draws view() and calls
// the actions.

import { t, lang, localizeLetters } from '../i18n.js';
import { errorMessage } from '../game/messages.js';
import { ratingText, ratingTitle } from '../levels.js';
import {
  SetupPool, bishopsSameColour, drawRandom, isNumbered, numberOf, rankOf, setupCount,
} from '../setups.js';
import {
  PAIRS, allVariants, numberLabel, playableVariants, setupPlacement, variantInfo, variantName,
} from '../variants.js';
import { checkValue, explainInvalid, limitText } from '../limits.js';
import { verifiableOpponent, verifiableSpec } from '../fair_create.js';

export const OPPONENTS = ['computer', 'friend', 'hotseat'];
export const COLOURS = ['white', 'black', 'random'];
export const SETUP_MODES = ['random', 'number', 'fen'];
// Clock presets (issue 11), as on lichess; the fields stay for any other control.
export const PRESETS = [[1, 0], [3, 2], [5, 3], [10, 5], [15, 10], [30, 0], [0, 0]];
export const DAYS = [1, 2, 3, 5, 7, 14];
const STORAGE_KEY = 'rc-home';

// The numbered random family a variant's arrays belong to (chess -> chess960 #518, modern ->
// mrc #8226): a random variant on the same board with the same army whose numbering this page
// implements (setups.js), or null (Capablanca's arrays are not numbered). All from the
// server's metadata.
function numberedFamily(info, playable) {
  const sameArmy = v => [...v.setup.army].sort().join('') === [...info.setup.army].sort().join('');
  const family = [info, ...playable()].find(v => v.setup.random && isNumbered(v) &&
    v.files === info.files && v.ranks === info.ranks && sameArmy(v));
  return family || null;
}

// Double Fischer Random and Double MRC are numbered by a pair, 518/123 (White's, Black's):
// typed as text.
const pairNumbered = info => PAIRS[info.setup.numbering] || null;
// The example pair: the standard array's number for White, 123 for Black.
function pairExample(info) {
  const pair = pairNumbered(info);
  const white = info.setup.standard_number === null ? 0 : Math.floor(info.setup.standard_number / pair.count);
  return `${white}/123`;
}

/** The choice `value` if it is one of `options`, else '' (a radio group with none checked). */
const pick = (value, options) => (options.includes(value) ? value : '');

/**
 * deps:
 *  - api: createGame(spec), loadLevels(), formLimits(method, path), openSetupDraw(variant)
 *    — promises of the server's answers (createGame throws an ApiError) — and
 *    newClientValue(): this browser's random value for a verifiable setup (issue 32);
 *  - storage: {load() → the saved choices (object), save(obj)};
 *  - saveSeat(id, seat), go(path): the seat kept in this browser, the router;
 *  - redraw(): the view draws ctrl.view() again;
 *  - variants: {all(), playable(), info(key)} — the server's metadata;
 *  - draw(info) → a random setup number of a numbered variant.
 */
export function createHomeCtrl({
  api, storage, saveSeat = () => {}, go = () => {}, redraw = () => {},
  variants = { all: allVariants, playable: playableVariants, info: variantInfo },
  draw = info => drawRandom(new SetupPool(info)),
}) {
  const saved = storage.load() || {};
  const keys = variants.all().map(v => v.key);
  const s = {
    variant: keys.includes(saved.variant || 'chess960') ? saved.variant || 'chess960' : keys[0],
    setup: 'random',
    number: '',
    fen: '',
    drawn: null, // {variant, number} of the current random draw
    opponent: pick(saved.opponent || 'computer', OPPONENTS),
    // Levels 1-8 always; 9, 10 and maximum (11) where the server has Stockfish or
    // Fairy-Stockfish for the variant (GET /api/levels says which, and who plays them).
    level: String(saved.level || '4'),
    wantedLevel: String(saved.level || '4'),
    levelTouched: false,
    levelRows: {}, // variant -> [{level, engine, ...}]
    color: pick(saved.color || 'white', COLOURS),
    minutes: String(saved.minutes ?? '0'),
    increment: String(saved.increment ?? '0'),
    days: pick(saved.days, DAYS.map(String)),
    control: String(saved.control ?? ''),
    preview: String(saved.preview ?? ''),
    // The server's limits of POST /api/games (its request model in GET /openapi.json).
    limits: {},
    error: '',
    submitting: false,
  };
  const fixedNumbers = new Map();
  const info = () => variants.info(s.variant);

  function fixedNumber(meta) {
    if (!fixedNumbers.has(meta.key)) {
      const family = numberedFamily(meta, variants.playable);
      fixedNumbers.set(meta.key, family ? numberOf(family, meta.setup.fixed_rank) : null);
    }
    return fixedNumbers.get(meta.key);
  }

  function typedNumber(meta) {
    const text = s.number.trim();
    const pair = pairNumbered(meta);
    if (pair) {
      const m = /^(\d{1,5})\/(\d{1,5})$/.exec(text);
      const [w, b] = m ? [Number(m[1]), Number(m[2])] : [pair.count, pair.count];
      return w < pair.count && b < pair.count ? pair.count * w + b : null;
    }
    const n = Number(text);
    return text === '' || !Number.isInteger(n) || n < 0 || n >= setupCount(meta) ? null : n;
  }

  /** The setup the form describes: {rank, number, fen?, fixed?, random?}, {server: true}
   * (the server draws it) or {error}. A random draw (`random`: this page drew it) is made
   * once per variant and kept; against a friend or the computer it is only the fallback of
   * a verifiable draw (submit). */
  function currentSetup() {
    const meta = info();
    if (meta.setup.fixed_rank) {
      return { rank: meta.setup.fixed_rank, number: fixedNumber(meta), fixed: true };
    }
    if (s.setup === 'fen') {
      const fen = s.fen.trim();
      if (!fen) return { error: t('badFen') };
      const rows = fen.split(' ')[0].split('/');
      const rank = rows[rows.length - 1].toUpperCase();
      const lettered = /^[A-Z]+$/.test(rank);
      return { fen, rank: lettered ? rank : null, number: lettered ? numberOf(meta, rank) : null };
    }
    // Setups this page can number and draw itself (setups.js); others are drawn by the server.
    if (!isNumbered(meta)) return { server: true };
    if (s.setup === 'number') {
      const n = typedNumber(meta);
      if (n === null) {
        const pair = pairNumbered(meta);
        return { error: pair ? t('badPair', { max: pair.count - 1, example: pairExample(meta) })
          : t('badNumber', { max: setupCount(meta) - 1 }) };
      }
      return { rank: rankOf(meta, n), number: n };
    }
    if (!s.drawn || s.drawn.variant !== s.variant) {
      s.drawn = { variant: s.variant, number: draw(meta) };
    }
    return { rank: rankOf(meta, s.drawn.number), number: s.drawn.number, random: true };
  }

  // A random setup of a numbered variant against a friend or the computer is drawn at the
  // start from the server's committed seed and a browser's value (docs/shuffler.md §10):
  // no setup to preview, nothing to draw again.
  const verifiable = setup => !!setup.random && verifiableOpponent(s.opponent);

  const levelMax = () => {
    const rows = s.levelRows[s.variant] || [];
    return rows.length ? Math.max(...rows.map(r => r.level)) : 8;
  };
  function fitLevels() {
    const max = levelMax();
    // Keep the saved choice where the variant offers it; the range clamps it otherwise.
    if (Number(s.wantedLevel) <= max && Number(s.level) !== Number(s.wantedLevel) &&
        !s.levelTouched) s.level = s.wantedLevel;
    if (Number(s.level) > max) s.level = String(max);
  }

  /** The form's choices are consistent again after a change: the number mode where the
   * variant numbers its arrays, the computer where it plays the variant, the level within
   * the variant's range; the error is the setup's (shown once there is something to judge). */
  function refresh() {
    const meta = info();
    if (!isNumbered(meta) && s.setup === 'number') s.setup = 'random';
    if (!meta.engine && s.opponent === 'computer') s.opponent = 'friend';
    fitLevels();
    const setup = currentSetup();
    s.error = setup.error && (s.setup !== 'fen' || s.fen) ? setup.error : '';
  }

  // A game with a clock (the setup preview is for timed games only): correspondence and
  // "0 minutes" without another control are not.
  const timed = () => !s.days && (s.control.trim() !== '' || Number(s.minutes) > 0);
  const previewApplies = () => s.opponent !== 'hotseat' && timed();

  const labels = () => ({
    'clock.minutes': t('field.minutes'), 'clock.increment': t('field.increment'),
    preview: t('preview.seconds'),
  });

  // What is wrong with the clock fields (null: nothing). 0 minutes is no clock; below 0 or
  // above the server's maximum is refused here rather than sent (or silently untimed).
  function clockProblem() {
    if (s.days || s.control.trim()) return null; // the server reads a control
    const m = s.limits['clock.minutes'] || {};
    const text = s.minutes.trim();
    const minutes = text === '' ? 0 : Number(text);
    if (!Number.isFinite(minutes)) return t('limit.number', { field: t('field.minutes') });
    if (minutes === 0) return null;
    if (minutes < 0 || (m.max !== undefined && minutes > m.max) || (m.above !== undefined && minutes <= m.above)) {
      return m.max !== undefined ? t('limit.clockMinutes', { max: m.max })
        : t('limit.min', { field: t('field.minutes'), min: 0 });
    }
    const inc = s.limits['clock.increment'] || { min: 0 };
    return checkValue(s.increment.trim() === '' ? '0' : s.increment, { ...inc, type: 'number' }, t('field.increment'));
  }

  // The setup preview's length (issue 32): whole seconds within the server's bounds; empty
  // is the server's default (the speed's between people, none against the computer).
  function previewProblem() {
    if (!previewApplies()) return null;
    return checkValue(s.preview, { min: 0, ...s.limits.preview, type: 'integer' }, t('preview.seconds'));
  }

  /** The request the form describes (POST /api/games), for setup `setup`. */
  function spec(setup) {
    const out = { variant: s.variant, opponent: s.opponent };
    if (setup.server) out.setup = 'random';
    else if (!setup.fixed) out.setup = setup.fen ? setup.fen : setup.number;
    if (s.opponent === 'computer') out.level = Number(s.level);
    if (s.opponent !== 'hotseat') out.color = s.color;
    const minutes = Number(s.minutes) || 0;
    const increment = Number(s.increment) || 0;
    if (s.days) out.clock = { days: Number(s.days) };
    else if (s.control.trim()) out.clock = { control: s.control.trim() };
    else if (minutes > 0) out.clock = { minutes, increment };
    if (previewApplies() && s.preview.trim() !== '') out.preview = Number(s.preview);
    return out;
  }

  const limitsReady = api.formLimits('POST', '/api/games').then(l => {
    s.limits = l || {};
    redraw();
  }, () => {});
  api.loadLevels().then(table => {
    s.levelRows = (table && table.variants) || {};
    fitLevels();
    redraw();
  }).catch(() => {});
  fitLevels();

  // ------------------------------------------------------------ actions
  /** A choice changed (a field's name, as the form's input names: variant, setup, number,
   * fen, opponent, level, color, minutes, increment, days, control, preview). `settle`:
   * the form's change (the old update: consistency and the setup's error), not just typing. */
  function set(name, value, { settle = true } = {}) {
    s[name] = String(value);
    if (name === 'level') s.levelTouched = true;
    if (settle) refresh();
    redraw();
  }

  /** A clock preset: minutes + increment. */
  function preset(minutes, increment) {
    s.minutes = String(minutes);
    s.increment = String(increment);
    redraw();
  }

  /** "Draw again": a new random setup. */
  function redrawSetup() {
    s.drawn = null;
    refresh();
    redraw();
  }

  /** Start the game: checks the setup, the clock and the preview against the server's limits
   * (said in the page's language, nothing sent), then creates it and goes to its page. */
  async function submit() {
    const setup = currentSetup();
    if (setup.error) {
      s.error = setup.error;
      redraw();
      return false;
    }
    await limitsReady; // a quick submit must not beat the limits (fetched once, cached)
    const problem = clockProblem() || previewProblem();
    if (problem) {
      s.error = problem;
      redraw();
      return false;
    }
    const body = spec(setup);
    storage.save({
      variant: s.variant, opponent: s.opponent, color: s.color, level: s.level,
      minutes: s.minutes, increment: s.increment, days: s.days, control: s.control,
      preview: s.preview,
    });
    s.submitting = true;
    redraw();
    try {
      // A random setup against a friend or the computer: the server's commitment (a draw
      // opened first, or the friend's join) instead of this page's number (issue 32).
      const res = await api.createGame(await verifiableSpec(body, !!setup.random,
        api.openSetupDraw, api.newClientValue));
      saveSeat(res.id, { ...res.seat, opponent: s.opponent, invite_url: res.invite_url || null });
      go(`/game/${res.id}`);
      return true;
    } catch (e) {
      s.error = explainInvalid(e, labels(), s.limits) || errorMessage(e, t);
      s.submitting = false;
      redraw();
      return false;
    }
  }

  // ------------------------------------------------------------ what the view draws
  function levelView() {
    const row = (s.levelRows[s.variant] || []).find(r => String(r.level) === s.level);
    const engine = row && row.level > 8 ? `, ${t('levelEngine', { engine: row.engine })}` : '';
    const rating = ratingText(row);
    return {
      value: s.level, max: levelMax(), title: ratingTitle(row),
      text: `${s.level} (${t(`strength.${s.level}`)}${rating ? `, ${rating}` : ''}${engine})`,
    };
  }

  /** The setup's preview box: {server} (the server draws), {fair: opponent} (drawn
   * verifiably at the start), null (an error or nothing to show), or {number, rank,
   * sameBishops, placement}. */
  function setupView(meta) {
    const setup = currentSetup();
    if (setup.error) return null;
    if (setup.server) return { server: true };
    if (verifiable(setup)) return { fair: s.opponent };
    return {
      number: setup.number !== null && setup.number !== undefined ? numberLabel(s.variant, setup.number) : null,
      rank: setup.rank ? localizeLetters(setup.rank) : null,
      sameBishops: !!(setup.rank && meta.adjustment_partners.length && bishopsSameColour(setup.rank)),
      placement: setup.fen ? setup.fen.split(' ')[0] : setup.rank ? setupPlacement(meta, setup.rank) : null,
    };
  }

  function view() {
    const meta = info();
    const fixed = !!meta.setup.fixed_rank;
    const numbered = isNumbered(meta);
    const pair = pairNumbered(meta);
    const minutes = Number(s.minutes) || 0;
    const increment = Number(s.increment) || 0;
    const m = s.limits['clock.minutes'] || {};
    const i = s.limits['clock.increment'] || {};
    const p = s.limits.preview || {};
    return {
      variants: variants.all().map(v => ({ key: v.key, name: variantName(v.key, variants.info) })),
      variant: s.variant,
      about: meta.description ? meta.description[lang()] || meta.description.en : '',
      setup: {
        mode: s.setup, fixed, numbered,
        number: s.number, fen: s.fen,
        numberHidden: fixed || s.setup !== 'number',
        fenHidden: fixed || s.setup !== 'fen',
        numberMax: (setupCount(meta) || 1) - 1,
        numberType: pair ? 'text' : 'number',
        numberPlaceholder: pair ? pairExample(meta) : '',
        // "Draw again" only where this page draws (numbered arrays); the server draws the others.
        redrawHidden: fixed || s.setup !== 'random' || !numbered || verifiable(currentSetup()),
        shown: setupView(meta),
      },
      opponent: s.opponent,
      computer: !!meta.engine,
      level: levelView(),
      levelHidden: s.opponent !== 'computer',
      color: s.color,
      colourHidden: s.opponent === 'hotseat',
      minutes: s.minutes, increment: s.increment, days: s.days, control: s.control,
      minutesMax: m.max, incrementMax: i.max,
      presets: PRESETS.map(([pm, pi]) => ({ minutes: pm, increment: pi, on: pm === minutes && pi === increment })),
      preview: s.preview,
      previewHidden: !previewApplies(),
      previewMax: p.max,
      // What the preview field takes, said before anything is sent: the default, and the
      // server's bounds once GET /openapi.json has given them.
      previewHint: [t('preview.homeHint'),
        p.max !== undefined ? limitText(t('preview.seconds'), { min: 0, ...p }) : ''].filter(Boolean).join(' '),
      error: s.error,
      submitting: s.submitting,
    };
  }

  return {
    view, set, preset, redrawSetup, submit,
    /** The form's first consistent state (the view calls it once it is built). */
    start() {
      refresh();
      redraw();
    },
    get limitsReady() { return limitsReady; },
    /** The request the form describes now (for the tests), before submit makes a random
     * setup verifiable. */
    spec: () => spec(currentSetup()),
  };
}

/** The saved choices in this browser's localStorage. */
export const localChoices = {
  load() {
    try {
      return JSON.parse(localStorage.getItem(STORAGE_KEY) || '{}');
    } catch {
      return {};
    }
  },
  save(obj) {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(obj));
  },
};
