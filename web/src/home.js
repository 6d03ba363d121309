// Home page: choose variant, setup, opponent, colour and clock; shows the setup number and
// back rank before the game starts.

import { createGame, saveSeat } from './api.js';
import { loadLevels, ratingText, ratingTitle } from './levels.js';
import { h, clear } from './dom.js';
import { t, lang, localizeLetters } from './i18n.js';
import { errorMessage } from './game/messages.js';
import {
  SetupPool, bishopsSameColour, drawRandom, isNumbered, numberOf, rankOf, setupCount,
} from './setups.js';
import { diagram } from './diagram.js';
import {
  PAIRS, allVariants, numberLabel, playableVariants, setupPlacement, variantInfo, variantName,
} from './variants.js';
import { checkValue, explainInvalid, formLimits } from './limits.js';

// The numbered random family a variant's arrays belong to (chess -> chess960 #518, modern ->
// mrc #8226): a random variant on the same board with the same army whose numbering this page
// implements (setups.js), or null (Capablanca's arrays are not numbered). All from the
// server's metadata.
function numberedFamily(info) {
  const sameArmy = v => [...v.setup.army].sort().join('') === [...info.setup.army].sort().join('');
  const family = [info, ...playableVariants()].find(v => v.setup.random && isNumbered(v) &&
    v.files === info.files && v.ranks === info.ranks && sameArmy(v));
  return family || null;
}
const fixedNumbers = new Map();
function fixedNumber(info) {
  if (!fixedNumbers.has(info.key)) {
    const family = numberedFamily(info);
    fixedNumbers.set(info.key, family ? numberOf(family, info.setup.fixed_rank) : null);
  }
  return fixedNumbers.get(info.key);
}

function radio(name, value, label, checked) {
  return h('label.choice', h('input', { type: 'radio', name, value, checked }), ' ', label);
}

export function renderHome(root, go) {
  const saved = JSON.parse(localStorage.getItem('rc-home') || '{}');
  const form = h('form.home', { 'data-testid': 'new-game', novalidate: true });
  const preview = h('div.setup-preview', { 'data-testid': 'setup-preview' });
  const error = h('p.error', { role: 'alert' });
  let drawn = null; // {variant, number} of the current random draw

  // Every variant the server plays; the computer is offered for those its engine plays.
  const variantSel = h('select', { name: 'variant', 'data-testid': 'variant' },
    allVariants().map(v => h('option', { value: v.key,
      selected: v.key === (saved.variant || 'chess960') }, variantName(v.key))));
  // The rules a player could not guess from the name (CRC's inferred castling squares...).
  const about = h('p.note', { 'data-testid': 'variant-about', hidden: true });
  const numberIn = h('input', {
    type: 'number', name: 'number', min: '0', inputmode: 'numeric', 'data-testid': 'setup-number',
  });
  const fenIn = h('textarea', { name: 'fen', rows: '2', 'data-testid': 'setup-fen', spellcheck: 'false' });
  const setupBox = h('fieldset',
    h('legend', t('setup')),
    radio('setup', 'random', t('setup.random'), true),
    radio('setup', 'number', t('setup.number'), false),
    radio('setup', 'fen', t('setup.fen'), false),
    h('div.setup-inputs', numberIn, fenIn,
      h('button.secondary', { type: 'button', 'data-testid': 'redraw', onclick: () => { drawn = null; update(); } },
        t('redraw'))),
    preview);
  // Levels 1-8 always; 9, 10 and maximum (11) where the server has Stockfish or
  // Fairy-Stockfish for the variant (GET /api/levels says which, and who plays them).
  const levelIn = h('input', {
    type: 'range', name: 'level', min: '1', max: '8', value: saved.level || '4', 'data-testid': 'level',
  });
  let levelRows = {}; // variant -> [{level, engine, ...}]
  const levelText = () => {
    const row = (levelRows[variantSel.value] || []).find(r => String(r.level) === levelIn.value);
    const engine = row && row.level > 8 ? `, ${t('levelEngine', { engine: row.engine })}` : '';
    const rating = ratingText(row);
    levelOut.title = ratingTitle(row);
    return `${levelIn.value} (${t(`strength.${levelIn.value}`)}${rating ? `, ${rating}` : ''}${engine})`;
  };
  const levelOut = h('output', { 'data-testid': 'level-out' });
  levelOut.textContent = levelText();
  levelIn.addEventListener('input', () => (levelOut.textContent = levelText()));
  const wantedLevel = saved.level || '4';
  const fitLevels = () => {
    const rows = levelRows[variantSel.value] || [];
    const max = rows.length ? Math.max(...rows.map(r => r.level)) : 8;
    levelIn.max = String(max);
    // Keep the saved choice where the variant offers it; the range clamps it otherwise.
    if (Number(wantedLevel) <= max && Number(levelIn.value) !== Number(wantedLevel) &&
        !form.dataset.levelTouched) levelIn.value = wantedLevel;
    if (Number(levelIn.value) > max) levelIn.value = String(max);
    levelOut.textContent = levelText();
  };
  levelIn.addEventListener('input', () => (form.dataset.levelTouched = '1'));
  loadLevels().then(table => {
    levelRows = table.variants || {};
    fitLevels();
  }).catch(() => {});
  const opponentBox = h('fieldset',
    h('legend', t('opponent')),
    ['computer', 'friend', 'hotseat'].map(o =>
      radio('opponent', o, t(`opponent.${o}`), o === (saved.opponent || 'computer'))),
    h('label.level', t('level'), ' ', levelIn, ' ', levelOut),
    h('p.note', { 'data-testid': 'no-engine', hidden: true }, t('noEngine')));
  const colourBox = h('fieldset',
    h('legend', t('colour')),
    ['white', 'black', 'random'].map(c => radio('color', c, t(`colour.${c}`), c === (saved.color || 'white'))));
  const minutesIn = h('input', { type: 'number', name: 'minutes', min: '0', step: 'any', value: saved.minutes ?? '0' });
  const incIn = h('input', { type: 'number', name: 'increment', min: '0', step: 'any', value: saved.increment ?? '0' });
  // The clock's limits are the server's (ClockIn in GET /openapi.json), said before sending.
  let limits = {};
  const limitsReady = formLimits('POST', '/api/games').then(l => {
    limits = l;
    const m = limits['clock.minutes'] || {};
    const i = limits['clock.increment'] || {};
    if (m.max !== undefined) minutesIn.max = String(m.max);
    if (i.max !== undefined) incIn.max = String(i.max);
  });
  const clockLabels = () => ({ 'clock.minutes': t('field.minutes'), 'clock.increment': t('field.increment') });
  // What is wrong with the clock fields (null: nothing). 0 minutes is no clock; below 0 or
  // above the server's maximum is refused here rather than sent (or silently untimed).
  const clockProblem = () => {
    if (daysIn.value || controlIn.value.trim()) return null; // the server reads a control
    const m = limits['clock.minutes'] || {};
    const text = minutesIn.value.trim();
    const minutes = text === '' ? 0 : Number(text);
    if (!Number.isFinite(minutes)) return t('limit.number', { field: t('field.minutes') });
    if (minutes === 0) return null;
    if (minutes < 0 || (m.max !== undefined && minutes > m.max) || (m.above !== undefined && minutes <= m.above)) {
      return m.max !== undefined ? t('limit.clockMinutes', { max: m.max })
        : t('limit.min', { field: t('field.minutes'), min: 0 });
    }
    const inc = limits['clock.increment'] || { min: 0 };
    return checkValue(incIn.value.trim() === '' ? '0' : incIn.value, { ...inc, type: 'number' }, t('field.increment'));
  };
  // Clock presets (issue 11), as on lichess; the fields below stay for any other control.
  const PRESETS = [[1, 0], [3, 2], [5, 3], [10, 5], [15, 10], [30, 0], [0, 0]];
  const presetBar = h('div.presets', { role: 'group', 'aria-label': t('presets') },
    PRESETS.map(([m, i]) => h('button.secondary.preset', {
      type: 'button', 'data-testid': m ? `preset-${m}+${i}` : 'preset-unlimited',
      'data-minutes': String(m), 'data-increment': String(i),
      onclick: () => {
        minutesIn.value = String(m);
        incIn.value = String(i);
        markPreset();
      },
    }, m ? `${m}+${i}` : t('unlimited'))));
  const markPreset = () => {
    for (const b of presetBar.querySelectorAll('button')) {
      const on = Number(b.dataset.minutes) === (Number(minutesIn.value) || 0) &&
        Number(b.dataset.increment) === (Number(incIn.value) || 0);
      b.classList.toggle('on', on);
      b.setAttribute('aria-pressed', on ? 'true' : 'false');
    }
  };
  minutesIn.addEventListener('input', markPreset);
  incIn.addEventListener('input', markPreset);
  // Correspondence (issue 18): days per move instead of a clock.
  const daysIn = h('select', { name: 'days', 'data-testid': 'days' },
    h('option', { value: '' }, t('noCorrespondence')),
    [1, 2, 3, 5, 7, 14].map(d => h('option', { value: String(d), selected: String(d) === saved.days },
      t('daysPerMove', { n: d }))));
  // Any control players and arbiters use (issue 34), as PGN TimeControl: periods, delays.
  const controlIn = h('input', { type: 'text', name: 'control', 'data-testid': 'control', maxlength: '200',
    placeholder: '30/1500:300+5', value: saved.control ?? '', spellcheck: 'false', autocomplete: 'off' });
  const clockBox = h('fieldset',
    h('legend', t('timeControl')),
    presetBar,
    h('label', minutesIn, ' ', t('minutes')), ' + ',
    h('label', incIn, ' ', t('increment')),
    h('small.hint', ` (0 = ${t('unlimited')})`),
    h('p', h('label', `${t('otherControl')}: `, controlIn), h('small.hint', ` ${t('otherControlHint')}`)),
    h('p', h('label', `${t('correspondence')}: `, daysIn)));
  markPreset();

  const value = name => form.elements[name].value;

  // The setup the form describes: {rank, number, fen?} or {error}.
  function currentSetup() {
    const variant = variantSel.value;
    const info = variantInfo(variant);
    const mode = value('setup');
    if (info.setup.fixed_rank) {
      return { rank: info.setup.fixed_rank, number: fixedNumber(info), fixed: true };
    }
    if (mode === 'fen') {
      const fen = fenIn.value.trim();
      if (!fen) return { error: t('badFen') };
      const rows = fen.split(' ')[0].split('/');
      const rank = rows[rows.length - 1].toUpperCase();
      const number = /^[A-Z]+$/.test(rank) ? numberOf(info, rank) : null;
      return { fen, rank: /^[A-Z]+$/.test(rank) ? rank : null, number };
    }
    if (!numbered(info)) return { server: true }; // random arrays without numbers
    if (mode === 'number') {
      const n = typedNumber(info);
      if (n === null) {
        const pair = pairNumbered(info);
        return { error: pair ? t('badPair', { max: pair.count - 1, example: pairExample(info) })
          : t('badNumber', { max: setupCount(info) - 1 }) };
      }
      return { rank: rankOf(info, n), number: n };
    }
    if (!drawn || drawn.variant !== variant) {
      drawn = { variant, number: drawRandom(new SetupPool(info)) };
    }
    return { rank: rankOf(info, drawn.number), number: drawn.number };
  }

  // Double Fischer Random and Double MRC are numbered by a pair, 518/123 (White's, Black's):
  // typed as text.
  const pairNumbered = info => PAIRS[info.setup.numbering] || null;
  // The example pair: the standard array's number for White, 123 for Black.
  const pairExample = info => {
    const pair = pairNumbered(info);
    const white = info.setup.standard_number === null ? 0 : Math.floor(info.setup.standard_number / pair.count);
    return `${white}/123`;
  };
  function typedNumber(info) {
    const text = numberIn.value.trim();
    const pair = pairNumbered(info);
    if (pair) {
      const m = /^(\d{1,5})\/(\d{1,5})$/.exec(text);
      const [w, b] = m ? [Number(m[1]), Number(m[2])] : [pair.count, pair.count];
      return w < pair.count && b < pair.count ? pair.count * w + b : null;
    }
    const n = Number(text);
    return text === '' || !Number.isInteger(n) || n < 0 || n >= setupCount(info) ? null : n;
  }

  // Setups this page can number and draw itself (setups.js); others are drawn by the server.
  const numbered = info => isNumbered(info);

  function update() {
    const variant = variantSel.value;
    const info = variantInfo(variant);
    const mode = value('setup');
    const fixed = !!info.setup.fixed_rank;
    const numberRadio = setupBox.querySelector('input[value=number]');
    if (!numbered(info) && mode === 'number') form.querySelector('input[value=random]').checked = true;
    numberRadio.disabled = !numbered(info);
    numberIn.hidden = fixed || value('setup') !== 'number';
    fenIn.hidden = fixed || mode !== 'fen';
    numberIn.max = String((setupCount(info) || 1) - 1);
    numberIn.type = pairNumbered(info) ? 'text' : 'number';
    numberIn.placeholder = pairNumbered(info) ? pairExample(info) : '';
    for (const el of setupBox.querySelectorAll('label.choice')) el.hidden = fixed;
    // "Draw again" only where this page draws (numbered arrays); the server draws the others.
    form.querySelector('[data-testid=redraw]').hidden = fixed || mode !== 'random' || !numbered(info);
    const text = info.description ? info.description[lang()] || info.description.en : '';
    about.textContent = text;
    about.hidden = !text;
    const computerRadio = opponentBox.querySelector('input[value=computer]');
    computerRadio.disabled = !info.engine;
    if (!info.engine && computerRadio.checked) opponentBox.querySelector('input[value=friend]').checked = true;
    opponentBox.querySelector('[data-testid=no-engine]').hidden = info.engine;
    levelIn.closest('label').hidden = value('opponent') !== 'computer';
    fitLevels();
    colourBox.hidden = value('opponent') === 'hotseat';
    clear(preview);
    error.textContent = '';
    const s = currentSetup();
    if (s.error) {
      if (mode !== 'fen' || fenIn.value) error.textContent = s.error;
      return;
    }
    if (s.server) {
      preview.append(h('p.note', { 'data-testid': 'server-draws' }, t('serverDraws')));
      return;
    }
    const dl = h('dl.facts');
    if (s.number !== null && s.number !== undefined) {
      dl.append(h('dt', t('setupNumber')), h('dd', { 'data-testid': 'preview-number' }, numberLabel(variant, s.number)));
    }
    if (s.rank) {
      dl.append(h('dt', t('backRank')),
        h('dd.rank', { 'data-testid': 'preview-rank' }, localizeLetters(s.rank)));
    }
    preview.append(dl);
    if (s.rank && info.adjustment_partners.length && bishopsSameColour(s.rank)) {
      preview.append(h('p.note', t('sameBishops')));
    }
    const placement = s.fen ? s.fen.split(' ')[0] : s.rank ? setupPlacement(info, s.rank) : null;
    if (placement) preview.append(diagram(placement, { small: true }));
  }

  form.addEventListener('change', update);
  numberIn.addEventListener('input', update);
  fenIn.addEventListener('input', update);

  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    const s = currentSetup();
    if (s.error) {
      error.textContent = s.error;
      return;
    }
    await limitsReady; // a quick submit must not beat the limits (fetched once, cached)
    const clockError = clockProblem();
    if (clockError) {
      error.textContent = clockError;
      return;
    }
    const variant = variantSel.value;
    const opponent = value('opponent');
    const spec = { variant, opponent };
    if (s.server) spec.setup = 'random';
    else if (!s.fixed) spec.setup = s.fen ? s.fen : s.number;
    if (opponent === 'computer') spec.level = Number(levelIn.value);
    if (opponent !== 'hotseat') spec.color = value('color');
    const minutes = Number(minutesIn.value) || 0;
    const increment = Number(incIn.value) || 0;
    if (daysIn.value) spec.clock = { days: Number(daysIn.value) };
    else if (controlIn.value.trim()) spec.clock = { control: controlIn.value.trim() };
    else if (minutes > 0) spec.clock = { minutes, increment };
    localStorage.setItem('rc-home', JSON.stringify({
      variant, opponent, color: value('color'), level: levelIn.value,
      minutes: minutesIn.value, increment: incIn.value, days: daysIn.value, control: controlIn.value,
    }));
    const button = form.querySelector('button[type=submit]');
    button.disabled = true;
    try {
      const res = await createGame(spec);
      saveSeat(res.id, { ...res.seat, opponent, invite_url: res.invite_url || null });
      go(`/game/${res.id}`);
    } catch (e) {
      error.textContent = explainInvalid(e, clockLabels(), limits) || errorMessage(e, t);
      button.disabled = false;
    }
  });

  form.append(
    h('h1', t('newGame')),
    h('label.field', t('variant'), ' ', variantSel),
    about, setupBox, opponentBox, colourBox, clockBox,
    error,
    h('button.primary.big', { type: 'submit', 'data-testid': 'start' }, t('start')),
    // Inside the form: a sibling of it shifted the form's layout (the clock-limit test).
    h('p.home-puzzles', h('a', { href: '/#/puzzles', 'data-testid': 'home-puzzles' }, t('puzzle.homeLink'))));
  root.append(form);
  update();
}
