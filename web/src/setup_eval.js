// Setup evaluations on the shuffler page (issue 17): the drawn setup's engine score and its
// place by balance, and the most and least balanced setups of the variant, from
// GET /api/setups/... (the evaluation set the package ships; docs/analysis.md).

import { h } from './dom.js';
import { formatPawns, t } from './i18n.js';
import { getEvaluationSummary, getSetupEvaluation } from './api.js';

const tt = (key, params = {}) => t(`setupEval.${key}`, params);

/** "+0.23" (or "+0,23" in Spanish), "mate in 3", from White's point of view. */
export function formatScore(e) {
  if (!e) return tt('none');
  if (e.mate !== null && e.mate !== undefined) return `${e.mate > 0 ? '+' : '−'}${tt('mate', { n: Math.abs(e.mate) })}`;
  return formatPawns(e.cp, { zeroSign: true, minus: '\u2212' });
}

const engineName = name => (name === 'fairy-stockfish' ? 'Fairy-Stockfish'
  : name === 'stockfish' ? 'Stockfish' : name);

/** "Evaluation: +0.23 (Stockfish, depth 14) · balance rank 5 of 960" of an answer with
 * engine, depth, evaluation ({cp, mate} or null), balance_rank and evaluated. */
export function evaluationText(r) {
  return `${tt('evaluation')}: ${formatScore(r.evaluation)} (${tt('by', {
    engine: engineName(r.engine), depth: r.depth })})${r.balance_rank ? ` · ${tt('rank', {
    rank: r.balance_rank, total: r.evaluated })}` : ''}`;
}

/** A line filled in when the answer comes: "Evaluation: +0.23 (Stockfish, depth 14) · …". */
export function evaluationLine(variant, number) {
  const el = h('p.small.evaluation', { 'data-testid': 'card-evaluation' });
  getSetupEvaluation(variant, number).then(r => {
    el.textContent = evaluationText(r);
    el.dataset.cp = r.evaluation && r.evaluation.cp !== null ? String(r.evaluation.cp) : '';
  }, () => { el.remove(); });
  return el;
}

/** The variant's summary: mean and median, the most and the least balanced setups; a click
 * on a number calls onPick(number). */
export function balancePanel(variant, onPick) {
  const box = h('section.balance', { 'data-testid': 'sh-balance' }, h('h2', tt('title')));
  getEvaluationSummary(variant, 5).then(s => {
    const pct = x => formatScore({ cp: Math.round(x), mate: null });
    box.append(h('p.small', `${engineName(s.engine)} · ${tt('by', { engine: engineName(s.engine), depth: s.depth })
      .replace(/^[^,]+, /, '')} · ${tt('summary', { mean: pct(s.mean_cp), median: pct(s.median_cp), within: s.within_30cp })}`));
    for (const [key, items, testid] of [['mostBalanced', s.most_balanced, 'sh-most'],
      ['leastBalanced', s.least_balanced, 'sh-least']]) {
      box.append(h('p', { 'data-testid': testid }, `${tt(key)}: `, ...items.flatMap((e, i) => [
        i ? ', ' : '',
        h('button.link', { type: 'button', 'data-number': String(e.number), onclick: () => onPick(e.number) },
          `#${e.number}`),
        ` ${formatScore(e)}`,
      ])));
    }
  }, () => { box.append(h('p.small', tt('unavailable'))); });
  return box;
}
