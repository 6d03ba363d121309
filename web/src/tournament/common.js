// The tournament pages' common pieces of DOM (issue 27): a labelled field, the inputs and
// sections whose text and open state live in the controller's ui model (ctrl.js, newUi) so a
// redraw keeps them, the focus given back after a redraw, and the "no such event" line.

import { h } from '../dom.js';
import { tt } from './ctrl.js';

export function field(label, input) {
  return h('label.field', h('span', label), input);
}

/** An input whose text is ui.drafts[key]. */
export function draft(ui, key, attrs = {}) {
  const el = h('input', { ...attrs, 'data-key': key, value: ui.drafts[key] ?? '' });
  el.addEventListener('input', () => { ui.drafts[key] = el.value; });
  return el;
}

/** A menu whose choice is ui.drafts[key] (else its first option). */
export function draftSelect(ui, key, attrs, options) {
  const el = h('select', { ...attrs, 'data-key': key }, options);
  if (ui.drafts[key] !== undefined) el.value = ui.drafts[key];
  el.addEventListener('change', () => { ui.drafts[key] = el.value; });
  return el;
}

/** A <details> section whose open state is ui.open[key]. */
export function section(ui, key, summary, ...body) {
  const el = h('details', { 'data-key': key, 'data-testid': `t-section-${key}`, open: !!ui.open[key] },
    h('summary', summary), ...body);
  el.addEventListener('toggle', () => { ui.open[key] = el.open; });
  return el;
}

/** The field that has the focus (its key and caret), to give it back after a redraw. */
export function focusOf(main) {
  const el = document.activeElement;
  if (!el || !main.contains(el) || !el.dataset.key) return null;
  let caret = null;
  try { caret = [el.selectionStart, el.selectionEnd]; } catch { caret = null; }
  return { key: el.dataset.key, caret };
}

export function giveFocusBack(main, focus) {
  if (!focus) return;
  const el = main.querySelector(`[data-key="${focus.key}"]`);
  if (!el) return;
  el.focus();
  if (focus.caret && focus.caret[0] !== null) {
    try { el.setSelectionRange(focus.caret[0], focus.caret[1]); } catch { /* not a text field */ }
  }
}

/** "No event <id>". */
export const missing = id => h('p.error', { role: 'alert', 'data-testid': 't-missing' }, tt('noEvent', { id }));

/** Fill the countdown element `testid` of `main` from its data-ends (ms since the epoch). */
export function tickLine(main, testid, text) {
  const el = main.querySelector(`[data-testid="${testid}"]`);
  if (!el) return;
  el.textContent = text(Number(el.dataset.ends) - Date.now());
}
