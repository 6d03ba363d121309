// The creation form of an event (#/tournament/new, issues 15, 30, 32, 34): owned by the
// signed-in account, or run with an organiser secret shown once. The view only: the request,
// its limits checked before sending and the secret kept are the controller's (ctrl.js,
// createNewCtrl).

import { h, clear, copyText } from '../dom.js';
import { allVariants, variantName } from '../variants.js';
import { isNumbered } from '../setups.js';
import { currentUser } from '../account/ctrl.js';
import { formFields, tt } from './ctrl.js';
import { field } from './common.js';

export function renderNew(main, go, ctrl) {
  const name = h('input', { name: 'name', 'data-testid': 't-name' });
  // Variants a tournament can use (GET /api/variants): numbered setups, drawn per round, or
  // one fixed start position.
  const variant = h('select', { name: 'variant' }, allVariants()
    .filter(v => isNumbered(v) || !v.setup.random)
    .map(v => h('option', { value: v.key, selected: v.key === 'chess960' }, variantName(v.key))));
  const system = h('select', { name: 'system', 'data-testid': 't-system' },
    ['swiss', 'rr', 'drr', 'knockout'].map(v => h('option', { value: v }, tt(v))));
  const ko = knockoutFields();
  const rounds = h('input', { name: 'rounds', type: 'number', value: 5 });
  const tc = h('input', { name: 'time_control', placeholder: '5400+30' });
  const policy = h('select', { name: 'setup_policy' }, h('option', { value: 'round' }, tt('perRound')), h('option', { value: 'board' }, tt('perBoard')));
  const tiebreaks = h('input', { name: 'tiebreaks', placeholder: 'BH-C1,BH,SB,PS,DE,WIN' });
  const bishops = h('select', { name: 'bishops' }, ['any', 'same', 'opposite'].map(v => h('option', { value: v }, tt(`bishops.${v}`))));
  const initial = h('select', { name: 'initial_colour' }, ['white', 'black'].map(v => h('option', { value: v }, tt(v))));
  const box = n => h('input', { type: 'checkbox', name: n });
  const mini = box('mini_match'), excl = box('exclude_standard'), norep = box('no_repeat');
  const band = h('input', { name: 'eval_band', type: 'number', step: 0.05,
    placeholder: '0.3', 'data-testid': 't-eval-band' });
  // Issue 30: setups revealed in the hall, the organiser's exclusions and shortlist, and the
  // preparation window after a reveal.
  const source = h('select', { name: 'setup_source', 'data-testid': 't-source' },
    ['salt', 'hall'].map(v => h('option', { value: v }, tt(`source.${v}`))));
  const excluded = h('input', { name: 'excluded', placeholder: 'standard, 0, 959', 'data-testid': 't-excluded' });
  const shortlist = h('input', { name: 'shortlist', placeholder: '12, 300, 700', 'data-testid': 't-shortlist' });
  const prep = h('select', { name: 'prep_minutes', 'data-testid': 't-prep' },
    [0, 5, 10, 15].map(n => h('option', { value: n }, n ? tt('prepMinutes', { n }) : tt('prepNone'))));
  // Issue 32: the setup preview's countdown of the event's online games (empty: by speed).
  const preview = h('input', { name: 'preview', type: 'number', min: 0, max: 600,
    placeholder: tt('previewDefault'), 'data-testid': 't-preview' });
  const error = h('p.error', { role: 'alert' });
  // Whose the event will be (issue 30): the signed-in account, or a secret shown once.
  const owner = h('p.hint', { 'data-testid': 't-owner-hint' });
  currentUser().then(user => {
    owner.textContent = user ? tt('signedInHint', { name: user.name }) : tt('anonymousHint');
  }, () => { owner.textContent = tt('anonymousHint'); });
  const form = h('form.tournament-new', { novalidate: true },
    h('h1', tt('newEvent')), owner,
    field(tt('name'), name), field(tt('variant'), variant), field(tt('system'), system),
    field(tt('rounds'), rounds), field(tt('timeControl'), tc), field(tt('setups'), policy),
    field(tt('tiebreaks'), tiebreaks), field(tt('bishopsLabel'), bishops), field(tt('initial'), initial),
    field(tt('evalBand'), band), field(tt('setupSource'), source),
    field(tt('excludedList'), excluded), field(tt('shortlist'), shortlist), field(tt('prep'), prep),
    field(tt('preview'), preview),
    h('label', mini, ' ', tt('miniMatch')), h('label', excl, ' ', tt('excludeStandard')),
    h('label', norep, ' ', tt('noRepeat')), ko.box,
    h('p', h('button.primary', { type: 'submit', 'data-testid': 't-create' }, tt('create'))), error);
  // A knock-out (issue 34) has matches instead of rounds: its own fields, not the rounds'.
  const roundOnly = [policy, tiebreaks, mini, band, source, excluded, shortlist, prep];
  system.addEventListener('change', () => {
    const shown = formFields(system.value);
    rounds.disabled = !shown.rounds;
    for (const x of roundOnly) x.disabled = !shown.roundOnly;
    ko.box.hidden = !shown.knockout;
  });
  const values = () => ({
    name: name.value, variant: variant.value, system: system.value, rounds: rounds.value,
    time_control: tc.value, setup_policy: policy.value, tiebreaks: tiebreaks.value, bishops: bishops.value,
    initial_colour: initial.value, mini_match: mini.checked, exclude_standard: excl.checked,
    no_repeat: norep.checked, eval_band: band.value, setup_source: source.value, excluded: excluded.value,
    shortlist: shortlist.value, prep_minutes: prep.value, preview: preview.value, ko: ko.values(),
  });
  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    const out = await ctrl.submit(values());
    if (out.error) {
      error.textContent = out.error;
    } else if (out.event.organiser) {
      go(`/tournament/${out.event.id}`);
    } else {
      clear(main).append(secretShown(out.event, go));
    }
  });
  main.append(form);
}

/** The knock-out's own settings on the creation form (issue 34): games per match, the
 * tie-break stages, the Armageddon, one setup per stage or per pair of games, the seeding. */
function knockoutFields() {
  const games = h('input', { type: 'number', min: 1, max: 20, value: 2, 'data-testid': 't-ko-games' });
  const stages = h('input', { placeholder: '2:600+5; 2:300+3', size: 24, 'data-testid': 't-ko-stages' });
  const armageddon = h('input', { value: 'bid:300+2', size: 18, 'data-testid': 't-ko-armageddon' });
  const setups = h('select', { 'data-testid': 't-ko-setups' },
    ['match', 'pair'].map(v => h('option', { value: v }, tt(`koSetups.${v}`))));
  const seeding = h('select', { 'data-testid': 't-ko-seeding' },
    ['rating', 'entered'].map(v => h('option', { value: v }, tt(`koSeeding.${v}`))));
  const box = h('fieldset.knockout', { hidden: true, 'data-testid': 't-ko-fields' },
    h('legend', tt('knockout')), field(tt('koGamesField'), games), field(tt('koStagesField'), stages),
    field(tt('koArmageddonField'), armageddon), field(tt('koSetupsField'), setups),
    field(tt('koSeedingField'), seeding));
  const values = () => ({ games: games.value, stages: stages.value, armageddon: armageddon.value,
    setups: setups.value, seeding: seeding.value });
  return { box, values };
}

/** An event made without an account: its organiser secret, shown once, with a copy button
 * and the warning that it is the only way to run the event from another browser. */
function secretShown(out, go) {
  const code = h('input', { readonly: true, value: out.organiser_secret, size: 40, 'data-testid': 't-secret' });
  const said = h('p.hint', { role: 'status', 'data-testid': 't-copied' });
  const copy = h('button', { type: 'button', 'data-testid': 't-copy-secret' }, tt('copySecret'));
  copy.addEventListener('click', async () => {
    said.textContent = (await copyText(out.organiser_secret, code)) ? tt('copied') : tt('copyFailed');
  });
  const onward = h('button.primary', { type: 'button', 'data-testid': 't-to-event' }, tt('toEvent'));
  onward.addEventListener('click', () => go(`/tournament/${out.id}`));
  return h('section.secret-once', { 'data-testid': 't-secret-box' },
    h('h1', tt('secretTitle')),
    h('p.warning', { role: 'alert' }, tt('secretWarning')),
    h('p', code, ' ', copy), said,
    h('p', `${tt('commitment')}: `, h('code', out.commitment)),
    h('p', onward));
}
