// The home page's view (issue 27), as game/view.js: builds the new-game form once and redraws
// it from ctrl.view(); its handlers only hand the fields' values to the controller. A field's
// value is written only when the controller's differs (a preset, a clamped level), so typing
// is never disturbed.

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { diagram } from '../diagram.js';
import { COLOURS, DAYS, OPPONENTS } from './ctrl.js';

function radio(name, value, label, checked) {
  return h('label.choice', h('input', { type: 'radio', name, value, checked }), ' ', label);
}

/** The setup box's content for `shown` (ctrl.view().setup.shown). */
function setupFacts(shown) {
  if (!shown) return [];
  if (shown.server) return [h('p.note', { 'data-testid': 'server-draws' }, t('serverDraws'))];
  // A setup both players can verify (issue 32): drawn at the start, so none to preview.
  if (shown.fair) return [h('p.note', { 'data-testid': 'fair-draws' }, t(`fairDraws.${shown.fair}`))];
  const dl = h('dl.facts');
  if (shown.number !== null) {
    dl.append(h('dt', t('setupNumber')), h('dd', { 'data-testid': 'preview-number' }, shown.number));
  }
  if (shown.rank) {
    dl.append(h('dt', t('backRank')), h('dd.rank', { 'data-testid': 'preview-rank' }, shown.rank));
  }
  const out = [dl];
  if (shown.sameBishops) out.push(h('p.note', t('sameBishops')));
  if (shown.placement) out.push(diagram(shown.placement, { small: true }));
  return out;
}

const setValue = (el, value) => {
  if (el.value !== value) el.value = value;
};

export function createHomeView(root, ctrl) {
  const first = ctrl.view();
  const form = h('form.home', { 'data-testid': 'new-game', novalidate: true });
  const preview = h('div.setup-preview', { 'data-testid': 'setup-preview' });
  const error = h('p.error', { role: 'alert' });
  const set = (name, opts) => ev => ctrl.set(name, ev.target.value, opts);

  // Every variant the server plays; the computer is offered for those its engine plays.
  const variantSel = h('select', { name: 'variant', 'data-testid': 'variant' },
    first.variants.map(v => h('option', { value: v.key, selected: v.key === first.variant }, v.name)));
  // The rules a player could not guess from the name (CRC's inferred castling squares...).
  const about = h('p.note', { 'data-testid': 'variant-about', hidden: true });
  const numberIn = h('input', {
    type: 'number', name: 'number', min: '0', inputmode: 'numeric', 'data-testid': 'setup-number',
  });
  const fenIn = h('textarea', { name: 'fen', rows: '2', 'data-testid': 'setup-fen', spellcheck: 'false' });
  const redrawButton = h('button.secondary', { type: 'button', 'data-testid': 'redraw',
    onclick: () => ctrl.redrawSetup() }, t('redraw'));
  const setupRadios = ['random', 'number', 'fen'].map(m => radio('setup', m, t(`setup.${m}`), m === first.setup.mode));
  const setupBox = h('fieldset',
    h('legend', t('setup')),
    setupRadios,
    h('div.setup-inputs', numberIn, fenIn, redrawButton),
    preview);
  const levelIn = h('input', {
    type: 'range', name: 'level', min: '1', max: '8', value: first.level.value, 'data-testid': 'level',
  });
  const levelOut = h('output', { 'data-testid': 'level-out' });
  const levelLabel = h('label.level', t('level'), ' ', levelIn, ' ', levelOut);
  const noEngine = h('p.note', { 'data-testid': 'no-engine', hidden: true }, t('noEngine'));
  const opponentRadios = OPPONENTS.map(o => radio('opponent', o, t(`opponent.${o}`), o === first.opponent));
  const opponentBox = h('fieldset', h('legend', t('opponent')), opponentRadios, levelLabel, noEngine);
  const colourRadios = COLOURS.map(c => radio('color', c, t(`colour.${c}`), c === first.color));
  const colourBox = h('fieldset', h('legend', t('colour')), colourRadios);
  const minutesIn = h('input', { type: 'number', name: 'minutes', min: '0', step: 'any', value: first.minutes });
  const incIn = h('input', { type: 'number', name: 'increment', min: '0', step: 'any', value: first.increment });
  const presetBar = h('div.presets', { role: 'group', 'aria-label': t('presets') },
    first.presets.map(({ minutes: m, increment: i }) => h('button.secondary.preset', {
      type: 'button', 'data-testid': m ? `preset-${m}+${i}` : 'preset-unlimited',
      'data-minutes': String(m), 'data-increment': String(i),
      onclick: () => ctrl.preset(m, i),
    }, m ? `${m}+${i}` : t('unlimited'))));
  // Correspondence (issue 18): days per move instead of a clock.
  const daysIn = h('select', { name: 'days', 'data-testid': 'days' },
    h('option', { value: '' }, t('noCorrespondence')),
    DAYS.map(d => h('option', { value: String(d), selected: String(d) === first.days },
      t('daysPerMove', { n: d }))));
  // Any control players and arbiters use (issue 34), as PGN TimeControl: periods, delays.
  const controlIn = h('input', { type: 'text', name: 'control', 'data-testid': 'control', maxlength: '200',
    placeholder: '30/1500:300+5', value: first.control, spellcheck: 'false', autocomplete: 'off' });
  // The setup preview's countdown (issue 32) of a timed game: empty for the server's default.
  const previewIn = h('input', { type: 'number', name: 'preview', min: '0', step: '1', inputmode: 'numeric',
    placeholder: t('preview.default'), value: first.preview, 'data-testid': 'preview-seconds' });
  const previewHint = h('small.hint', { 'data-testid': 'preview-hint' });
  const previewField = h('p.preview-field', { 'data-testid': 'preview-field' },
    h('label', `${t('preview.seconds')}: `, previewIn), ' ', previewHint);
  const clockBox = h('fieldset',
    h('legend', t('timeControl')),
    presetBar,
    h('label', minutesIn, ' ', t('minutes')), ' + ',
    h('label', incIn, ' ', t('increment')),
    h('small.hint', ` (0 = ${t('unlimited')})`),
    h('p', h('label', `${t('otherControl')}: `, controlIn), h('small.hint', ` ${t('otherControlHint')}`)),
    h('p', h('label', `${t('correspondence')}: `, daysIn)),
    previewField);
  const startButton = h('button.primary.big', { type: 'submit', 'data-testid': 'start' }, t('start'));

  // Typing in the setup's fields redraws its preview at once; the other fields' typing
  // is taken as it comes and settled by the form's change event.
  numberIn.addEventListener('input', set('number'));
  fenIn.addEventListener('input', set('fen'));
  for (const [el, name] of [[minutesIn, 'minutes'], [incIn, 'increment'], [levelIn, 'level'],
    [controlIn, 'control'], [previewIn, 'preview']]) {
    el.addEventListener('input', set(name, { settle: false }));
  }
  form.addEventListener('change', ev => {
    if (ev.target.name) ctrl.set(ev.target.name, ev.target.value);
  });
  form.addEventListener('submit', ev => {
    ev.preventDefault();
    ctrl.submit();
  });

  form.append(
    h('h1', t('newGame')),
    h('label.field', t('variant'), ' ', variantSel),
    about, setupBox, opponentBox, colourBox, clockBox,
    error,
    startButton,
    // Inside the form: a sibling of it shifted the form's layout (the clock-limit test).
    h('p.home-puzzles', h('a', { href: '/#/puzzles', 'data-testid': 'home-puzzles' }, t('puzzle.homeLink'))));
  root.append(form);

  let shownKey = null;
  function redraw() {
    const v = ctrl.view();
    setValue(variantSel, v.variant);
    const st = v.setup;
    for (const r of setupRadios) {
      const input = r.querySelector('input');
      input.checked = input.value === st.mode;
      if (input.value === 'number') input.disabled = !st.numbered;
      r.hidden = st.fixed;
    }
    numberIn.hidden = st.numberHidden;
    fenIn.hidden = st.fenHidden;
    numberIn.max = String(st.numberMax);
    if (numberIn.type !== st.numberType) numberIn.type = st.numberType;
    numberIn.placeholder = st.numberPlaceholder;
    setValue(numberIn, st.number);
    setValue(fenIn, st.fen);
    redrawButton.hidden = st.redrawHidden;
    about.textContent = v.about;
    about.hidden = !v.about;
    for (const r of opponentRadios) {
      const input = r.querySelector('input');
      input.checked = input.value === v.opponent;
      if (input.value === 'computer') input.disabled = !v.computer;
    }
    noEngine.hidden = v.computer;
    levelLabel.hidden = v.levelHidden;
    levelIn.max = String(v.level.max);
    setValue(levelIn, v.level.value);
    levelOut.textContent = v.level.text;
    levelOut.title = v.level.title;
    colourBox.hidden = v.colourHidden;
    for (const r of colourRadios) {
      const input = r.querySelector('input');
      input.checked = input.value === v.color;
    }
    if (v.minutesMax !== undefined) minutesIn.max = String(v.minutesMax);
    if (v.incrementMax !== undefined) incIn.max = String(v.incrementMax);
    setValue(minutesIn, v.minutes);
    setValue(incIn, v.increment);
    v.presets.forEach((p, i) => {
      const b = presetBar.children[i];
      b.classList.toggle('on', p.on);
      b.setAttribute('aria-pressed', p.on ? 'true' : 'false');
    });
    setValue(daysIn, v.days);
    setValue(controlIn, v.control);
    previewField.hidden = v.previewHidden;
    if (v.previewMax !== undefined) previewIn.max = String(v.previewMax);
    setValue(previewIn, v.preview);
    previewHint.textContent = v.previewHint;
    // The setup's box is rebuilt only when what it shows changed (its diagram is not cheap).
    const key = JSON.stringify(st.shown);
    if (key !== shownKey) {
      shownKey = key;
      clear(preview);
      preview.append(...setupFacts(st.shown));
    }
    error.textContent = v.error;
    startButton.disabled = v.submitting;
  }

  return { redraw, destroy() {} };
}
