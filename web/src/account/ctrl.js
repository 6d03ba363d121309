// The account page's controller (issue 27, the game page's shape: web/src/game/ctrl.js): what
// the page asks the server and decides — the session, logging in and signing up (their rules
// checked before sending), the password change, deletion, logging out, the games' filters —
// as plain data and functions. No DOM: the server comes in as `call(method, path, body)` and
// the form limits as `limitsOf(path)`, so node drives it in web/test/account_ctrl.test.mjs.
// The view (view.js) draws the page and calls these. Cookie-authenticated calls send the CSRF
// token from the rc_csrf cookie in X-CSRF-Token (api.js).

import { lang, t } from '../i18n.js';
import { request } from '../api.js';
import { checkValue, explainInvalid, formLimits } from '../limits.js';
import { variantName } from '../variants.js';

/** The account, lobby and profile pages' texts (the catalogue's account.* keys). */
export const tr = (key, vars = {}) => t(`account.${key}`, vars);

/** The labels of the fields whose limits the forms explain (field path -> label). */
export const clockLabels = () => ({ 'clock.minutes': tr('minutes'), 'clock.increment': tr('increment'),
  name: tr('name'), password: tr('password') });

/** The first of `values` ({field path: text}) outside `lims`, explained; or null. */
export function firstProblem(values, lims, labels) {
  for (const [name, value] of Object.entries(values)) {
    const problem = checkValue(value, lims[name], labels[name]);
    if (problem) return problem;
  }
  return null;
}

/** A refusal in the page's language: a request.invalid explained with the fields' limits,
 *  else the server's reason. */
export const errorText = (e, lims = {}) => explainInvalid(e, clockLabels(), lims) || tr('error', { reason: e.message });

/** @typedef {import('../api_types.js').SessionOut} SessionOut */

// GET /api/account/session answers 200 with or without an account, so an anonymous page
// load logs no 401 in the console (issue 32).
async function sessionOf(call) {
  /** @type {SessionOut} */
  const session = await call('GET', '/api/account/session');
  return session.account;
}

/** The logged-in account ({name, csrf, ratings}) or null. */
export const currentUser = () => sessionOf(request);

/** Give this browser's seat of a game to the logged-in account (POST .../claim). */
export const claimSeat = (gameId, token) =>
  request('POST', `/api/account/games/${encodeURIComponent(gameId)}/claim`, { token });

// The server's sign-up rules (server/accounts/store.py NAME_RE and MIN_PASSWORD; the test
// tests/test_web_account_lobby_browser.py holds the two to the same numbers).
export const SIGN_UP_RULES = { nameLow: 3, nameHigh: 20, password: 8 };
const NAME_SHAPE = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** Why a sign-up would be refused (in the page's language), or null: checked before sending. */
export function signUpProblem(name, password, again) {
  const r = SIGN_UP_RULES;
  if (name.length < r.nameLow || name.length > r.nameHigh || !NAME_SHAPE.test(name)) {
    return tr('badName', { low: r.nameLow, high: r.nameHigh });
  }
  if (password.length < r.password) return tr('shortPassword', { min: r.password });
  if (password !== again) return tr('mismatch');
  return null;
}

export const SPEEDS = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence', 'unlimited'];
export const RESULTS = ['win', 'draw', 'loss'];
const FILTERS = ['variant', 'speed', 'result', 'opponent', 'number'];

/** The query of GET /api/account/games for the filters typed ({variant, speed, ...}): the
 *  empty ones left out. */
export function gamesQuery(filters) {
  const q = new URLSearchParams();
  for (const k of FILTERS) {
    const v = String(filters[k] ?? '').trim();
    if (v !== '') q.set(k, v);
  }
  return q.toString();
}

const numbered = g => `${variantName(g.variant)}${g.number != null ? ` #${g.number}` : ''}`;

/** A game of the account's list: "Chess960 #518 blitz vs bob 1-0". */
export const gameText = g => `${numbered(g)} ${g.speed ? tr(`speed.${g.speed}`) : ''} ${
  tr('vs', { name: g.opponent || tr('anonymous') })} ${g.result || ''}`;

/** A game waiting for the account's move: its name, and its deadline (correspondence). */
export const turnText = g => ({
  name: numbered(g),
  deadline: g.deadline ? ` · ${tr('moveBy', {
    when: new Date(g.deadline).toLocaleString(lang(), { dateStyle: 'medium', timeStyle: 'short' }) })}` : '',
});

/** A rating line: "Chess960 · blitz: 1662? (±120)". */
export const ratingText = r => `${variantName(r.variant)} · ${tr(`speed.${r.speed}`)}: ${r.rating}${
  r.provisional ? '?' : ''} (±${r.rd})`;

/**
 * The account page's controller. deps: call(method, path, body) → Promise (api.js request),
 * limitsOf(path) → Promise<limits> (the server's models). Each action answers
 * {ok: true, ...} or {error: text in the page's language}; `changed` says the page is to be
 * drawn again (logged in or out).
 */
export function createAccountCtrl({ call = request, limitsOf = path => formLimits('POST', path) } = {}) {
  const attempt = async (run, lims = {}) => {
    try {
      return { ok: true, ...(await run()) };
    } catch (e) {
      return { error: errorText(e, lims) };
    }
  };
  /** POST `body` to `path` once its fields fit the server's limits. */
  const send = async (path, body) => {
    const lims = await limitsOf(path);
    const problem = firstProblem(body, lims, clockLabels());
    if (problem) return { error: problem };
    return attempt(async () => { await call('POST', path, body); return { changed: true }; });
  };
  return {
    /** {user: null} (and the CSRF cookie set, for the forms), or the account's page data. */
    async load() {
      const user = await sessionOf(call);
      if (!user) {
        await call('GET', '/api/account/csrf');
        return { user: null };
      }
      const games = (await call('GET', '/api/account/games')).games;
      const turn = (await call('GET', '/api/account/turn')).details;
      return { user, games, turn };
    },
    logIn: (name, password) => send('/api/account/login', { name, password }),
    signUp(name, password, again) {
      const problem = signUpProblem(name, password, again);
      return problem ? Promise.resolve({ error: problem }) : send('/api/account/signup', { name, password });
    },
    changePassword: (old, next) => attempt(async () => {
      await call('POST', '/api/account/password', { old, new: next });
      return { message: tr('passwordChanged') };
    }),
    deleteAccount: password => attempt(async () => {
      await call('POST', '/api/account/delete', { password });
      return { changed: true };
    }),
    logOut: (everywhere = false) => attempt(async () => {
      await call('POST', everywhere ? '/api/account/logout-everywhere' : '/api/account/logout');
      return { changed: true };
    }),
    filterGames: filters => attempt(async () =>
      ({ games: (await call('GET', `/api/account/games?${gamesQuery(filters)}`)).games })),
  };
}
