// The lobby page's controller (issue 27, the game page's shape: web/src/game/ctrl.js): the
// seek form's values turned into the request the server takes (checked first against the
// server's limits, explained in the page's language), quick pairing, accepting, cancelling
// and declining, and the open seeks built from the socket's frames, as plain data and
// functions. No DOM: the server (`call`), the page clock (`now`), the seat store, the
// setup-draw value and the navigation come in as parameters, so node drives it in
// web/test/lobby_ctrl.test.mjs. The view (view.js) draws the form and the seeks, owns the
// socket and its timers, and calls these.

import { t } from '../i18n.js';
import { request, saveSeat as storeSeat } from '../api.js';
import { formLimits } from '../limits.js';
import { newClientValue } from '../setups.js';
import { clockLabels, errorText, firstProblem, tr } from '../account/ctrl.js';
import { applyLobbyFrame, controlProblem, openSeeks } from './seeks.js';

export { applyLobbyFrame, controlProblem, openSeeks };

/**
 * The seek form's values, as typed: {variant, minutes, increment, days, control, setupKind,
 * number, rated, preview, challenge} (strings, `rated` a boolean).
 * @typedef {object} SeekForm
 */

/** The clock the form asks for: a written control, days per move, or minutes + increment. */
export function clockOf(form) {
  const control = String(form.control ?? '').trim();
  if (control) return { control };
  if (form.days) return { days: Number(form.days) };
  return { minutes: Number(form.minutes), increment: Number(form.increment) };
}

/** The server's limits of a period and a bonus (its models' minutes and increment). */
export const controlLimits = lims => [lims['clock.minutes']?.max ?? 600, lims['clock.increment']?.max ?? 600];

/** The hint under the control field: what a control may be, with the server's limits. */
export function controlHint(lims) {
  const [minutes, bonus] = controlLimits(lims);
  return tr('controlHint', { minutes, bonus });
}

/** Why the form's clock would be refused (in the page's language), or null. */
export function clockProblem(form, lims) {
  const control = String(form.control ?? '').trim();
  if (control) {
    const problem = controlProblem(control, ...controlLimits(lims));
    return problem ? tr(problem.key, problem.vars) : null;
  }
  return form.days ? null
    : firstProblem({ 'clock.minutes': form.minutes, 'clock.increment': form.increment }, lims, clockLabels());
}

/** The request a posted form makes: {path, body} (a challenge when a name is typed). */
export function seekRequest(form) {
  const number = String(form.number ?? '');
  const setup = form.setupKind === 'number' || number !== ''
    ? (number === '' ? 'random' : Number(number)) : form.setupKind;
  const clock = clockOf(form);
  const body = { variant: form.variant, rated: form.rated, setup, clock };
  if (String(form.preview ?? '') !== '' && !clock.days) body.preview = Number(form.preview);
  const name = String(form.challenge ?? '').trim();
  return name ? { path: '/api/lobby/challenges', body: { ...body, name } }
    : { path: '/api/lobby/seeks', body };
}

/** What a seek's row shows: whose, its setup and clock texts, and its mode. */
export function seekRow(s, userName) {
  return {
    own: s.player === userName,
    setup: s.setup === 'random' ? tr('random') : s.setup === 'new-per-game' ? tr('perGame') : `#${s.setup}`,
    clock: s.clock.days ? tr('perMove', { days: s.clock.days })
      : s.clock.control || `${s.clock.minutes}+${s.clock.increment}`,
    mode: s.rated ? tr('rated') : tr('casual'),
    preview: s.preview ? ` · ${t('preview.short', { n: s.preview })}` : '',
    canDecline: !!s.challenge && s.player !== userName,
  };
}

/**
 * The lobby's controller for the account `userName`. deps: call(method, path, body) (api.js
 * request), limitsOf(path) → Promise<limits>, clientValue() → this browser's share of a
 * setup draw, saveSeat(id, seat), go(path), now() → ms on the page's clock. Actions answer
 * {ok: true} or {error: text in the page's language}.
 */
export function createLobbyCtrl(userName, {
  call = request, limitsOf = path => formLimits('POST', path), clientValue = newClientValue,
  saveSeat = storeSeat, go = () => {}, now = () => performance.now(),
} = {}) {
  const state = { seeks: new Map(), mine: new Set() };
  const enter = (id, seat) => {
    saveSeat(id, { ...seat, opponent: 'friend' });
    go(`/game/${encodeURIComponent(id)}`);
  };
  const attempt = async (run, lims = {}) => {
    try {
      await run();
      return { ok: true };
    } catch (e) {
      return { error: errorText(e, lims) };
    }
  };
  return {
    state,
    /** Post the form as a seek (or a challenge to the name typed). */
    async post(form) {
      const lims = await limitsOf('/api/lobby/seeks');
      const problem = clockProblem(form, lims);
      if (problem) return { error: problem };
      const { path, body } = seekRequest(form);
      return attempt(async () => { state.mine.add((await call('POST', path, body)).id); }, lims);
    },
    /** Quick pairing: the oldest open seek of another player in this variant, speed class
     *  and rated or casual, whatever its exact clock; else this becomes an open seek. */
    async quick(form) {
      const lims = await limitsOf('/api/lobby/quick');
      const problem = clockProblem(form, lims);
      if (problem) return { error: problem };
      return attempt(async () => {
        const res = await call('POST', '/api/lobby/quick',
          { variant: form.variant, clock: clockOf(form), rated: form.rated, client_value: clientValue() });
        if (res.paired) enter(res.id, res.seat);
        else state.mine.add(res.seek);
      }, lims);
    },
    /** Accept a seek, with this browser's share of the setup draw both can verify (issue 32). */
    accept: id => attempt(async () => {
      const res = await call('POST', `/api/lobby/seeks/${encodeURIComponent(id)}/accept`,
        { client_value: clientValue() });
      enter(res.id, res.seat);
    }),
    /** Cancel one's own seek, or decline a challenge (it goes for both players). */
    remove: id => attempt(() => call('DELETE', `/api/lobby/seeks/${encodeURIComponent(id)}`)),
    /** One socket frame: the open seeks after it (oldest first, with the next lapse), and
     *  whether a seek of this page's became a game (then the seat is taken). */
    frame(msg) {
      if (msg.type !== 'seeks' && msg.type !== 'seeks-delta') return null;
      state.seeks = applyLobbyFrame(state.seeks, msg, now());
      const started = msg.started && state.mine.has(msg.started.seek) ? msg.started.game : null;
      return { started };
    },
    /** The seeks open now (one's own remembered as one's own) and when the next one lapses. */
    open() {
      const out = openSeeks(state.seeks, now());
      for (const s of out.open) if (s.player === userName) state.mine.add(s.id);
      return out;
    },
    /** Take this account's seat of a game a seek of its became, and go there. */
    takeSeat: gameId => attempt(async () => {
      const res = await call('POST', `/api/account/games/${encodeURIComponent(gameId)}/seat`);
      enter(gameId, res.seat);
    }),
  };
}
