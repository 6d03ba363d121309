// The game server's HTTP and WebSocket API (issue 6). Every call returns parsed JSON or throws
// an ApiError carrying the server's reason.
import { lang } from './i18n.js';

// The shapes below are the server's, generated from its OpenAPI document (api_types.js).
/** @typedef {import('./api_types.js').GameState} GameState */
/** @typedef {import('./api_types.js').CreateGameIn} CreateGameIn */
/** @typedef {import('./api_types.js').CreateGameOut} CreateGameOut */
/** @typedef {import('./api_types.js').VariantInfo} VariantInfo */
/** @typedef {import('./api_types.js').SetupEvaluationOut} SetupEvaluationOut */
/** @typedef {import('./api_types.js').EvaluationSummaryOut} EvaluationSummaryOut */
/** @typedef {import('./api_types.js').LevelsOut} LevelsOut */
/** @typedef {import('./api_types.js').InviteOut} InviteOut */
/** @typedef {import('./api_types.js').RematchOfferOut} RematchOfferOut */
/** @typedef {import('./api_types.js').GameRatingsOut} GameRatingsOut */
/** @typedef {import('./api_types.js').ServerFrame} ServerFrame */

export class ApiError extends Error {
  constructor(status, reason, body = null) {
    super(reason);
    this.status = status;
    // The server's stable error code and its text in both languages (docs/server.md).
    this.code = body && typeof body.code === 'string' ? body.code : null;
    this.detailEn = body && typeof body.detail_en === 'string' ? body.detail_en : null;
    this.detailEs = body && typeof body.detail_es === 'string' ? body.detail_es : null;
    // request.invalid: pydantic's errors [{loc, msg, type}], for limits.js to explain.
    this.errors = body && Array.isArray(body.errors) ? body.errors : null;
  }
}

/**
 * An error body's reason in the language `language` ('en' or 'es'): the server's
 * detail_es/detail_en when it gave them, else its detail (or whatever field a proxy used).
 */
export function localReason(body, status, language = lang()) {
  if (body && language === 'es' && typeof body.detail_es === 'string') return body.detail_es;
  if (body && language !== 'es' && typeof body.detail_en === 'string') return body.detail_en;
  return reasonOf(body, status);
}

/** An Error for a refused fetch: message in the page's language, .status and .code. */
export function refusal(body, status) {
  return new ApiError(status, localReason(body, status), body);
}

function reasonOf(body, status) {
  if (!body) return `HTTP ${status}`;
  const d = body.detail ?? body.reason ?? body.error ?? body.message;
  if (typeof d === 'string') return d;
  if (Array.isArray(d)) return d.map(e => e.msg ?? JSON.stringify(e)).join('; ');
  if (d && typeof d === 'object') return d.reason ?? d.message ?? JSON.stringify(d);
  return `HTTP ${status}`;
}

/** The value of cookie `name` in this browser ('' without one). */
export function cookie(name) {
  const jar = typeof document !== 'undefined' && typeof document.cookie === 'string' ? document.cookie : '';
  const hit = jar.split('; ').find(c => c.startsWith(`${name}=`));
  return hit ? decodeURIComponent(hit.slice(name.length + 1)) : '';
}

/**
 * The one fetch wrapper of every page: `method` `path` with a JSON `body` (or none) and
 * extra `headers`; resolves to the parsed JSON answer (null for an empty one) or throws an
 * ApiError (api.js `refusal`: the server's reason in the page's language, .status, .code,
 * .errors). The CSRF token of the rc_csrf cookie goes along when there is one
 * (cookie-authenticated account and lobby calls, docs/accounts.md).
 */
export async function request(method, path, body, headers = {}) {
  const all = { ...headers };
  const csrf = cookie('rc_csrf');
  if (csrf) all['X-CSRF-Token'] = csrf;
  if (body !== undefined) all['Content-Type'] = 'application/json';
  const res = await fetch(path, {
    method,
    cache: 'no-store',
    credentials: 'same-origin',
    headers: all,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: text };
  }
  if (!res.ok) throw refusal(data, res.status);
  return data;
}

/** @type {(spec: CreateGameIn) => Promise<CreateGameOut>} */
export const createGame = spec => request('POST', '/api/games', spec);
/** @type {() => Promise<Array<VariantInfo>>} */
export const getVariants = () => request('GET', '/api/variants');
// Setup evaluations (issue 17): one setup's score and the most/least balanced setups.
/** @type {(variant: string, number: number) => Promise<SetupEvaluationOut>} */
export const getSetupEvaluation = (variant, number) =>
  request('GET', `/api/setups/${encodeURIComponent(variant)}/${Number(number)}`);
/** @type {(variant: string, k?: number) => Promise<EvaluationSummaryOut>} */
export const getEvaluationSummary = (variant, k = 5) =>
  request('GET', `/api/setups/${encodeURIComponent(variant)}/evaluations?k=${Number(k)}`);
/** @type {() => Promise<LevelsOut>} */
export const getLevels = () => request('GET', '/api/levels');
/** @type {(id: string) => Promise<GameState>} */
export const getGame = id => request('GET', `/api/games/${encodeURIComponent(id)}`);
/** @type {(id: string, move: string, token: string, lag?: number) => Promise<GameState>} */
export const postMove = (id, move, token, lag = 0) =>
  request('POST', `/api/games/${encodeURIComponent(id)}/moves`,
    lag > 0 ? { move, token, lag: Math.min(60_000, Math.round(lag)) } : { move, token });
/**
 * The game's state after an action; the new game's seat after rematch-accept.
 * @type {(id: string, action: string, token: string) => Promise<GameState|CreateGameOut|RematchOfferOut>}
 */
export const postAction = (id, action, token) =>
  request('POST', `/api/games/${encodeURIComponent(id)}/${action}`, { token });
// The game's PGN; a reviewed game's comes with its [%eval] comments and marks in the page's
// language (issue 14).
export const pgnUrl = id => `/api/games/${encodeURIComponent(id)}/pgn?lang=${lang() === 'es' ? 'es' : 'en'}`;

/** What invite link /invite/<id>/<code> offers (no seat is claimed by reading it). */
/** @type {(id: string, invite: string) => Promise<InviteOut>} */
export const describeInvite = (id, invite) =>
  request('GET', `/invite/${encodeURIComponent(id)}/${encodeURIComponent(invite)}`, undefined,
    { Accept: 'application/json' });
/**
 * A rematch; `extra`: the accepting side's `client_value`, or against the computer the
 * `setup_draw` the page opened (issue 32, docs/shuffler.md §10).
 * @type {(id: string, token: string, setup?: 'same'|'new'|null, extra?: object) => Promise<CreateGameOut>}
 */
export const postRematch = (id, token, setup, extra = {}) =>
  request('POST', `/api/games/${encodeURIComponent(id)}/rematch`, { token, setup, ...extra });
/** Take the rematch the other side offered, with this browser's share of a new setup. */
/** @type {(id: string, token: string, clientValue?: string) => Promise<CreateGameOut>} */
export const acceptRematch = (id, token, clientValue) =>
  request('POST', `/api/games/${encodeURIComponent(id)}/rematch-accept`,
    clientValue ? { token, client_value: clientValue } : { token });
/** Open a verifiable setup draw for a game against the computer: {id, variant, commitment}. */
/** @type {(variant: string) => Promise<OpenDrawOut>} */
export const openSetupDraw = variant => request('POST', '/api/setup-draws', { variant });
/** @type {(id: string) => Promise<RematchOfferOut>} */
export const getRematch = id => request('GET', `/api/games/${encodeURIComponent(id)}/rematch`);
/** Rated or casual, the speed class and each side's rating change once rated (issue 18). */
/** @type {(id: string) => Promise<GameRatingsOut>} */
/** An event's online game: its event, round, board and the players' names (issue 30). */
export const getGameEvent = id => request('GET', `/api/games/${encodeURIComponent(id)}/event`);
export const getRatings = id => request('GET', `/api/games/${encodeURIComponent(id)}/ratings`);

/** Claim the seat of invite link /invite/<id>/<code>: {id, seat: {color, token}}. */
/** `clientValue`: this browser's share of a setup drawn at the join (issue 32). */
/** @type {(id: string, invite: string, clientValue?: string) => Promise<CreateGameOut>} */
export const joinGame = (id, invite, clientValue) =>
  request('POST', `/api/games/${encodeURIComponent(id)}/join`,
    clientValue ? { invite, client_value: clientValue } : { invite });

// ------------------------------------------------------------------------- seats
// A seat's token is kept in this browser only (localStorage), never in the address bar.
const seatKey = id => `rc-seat-${id}`;

export function loadSeat(id) {
  try {
    return JSON.parse(localStorage.getItem(seatKey(id)) || 'null');
  } catch {
    return null;
  }
}

export function saveSeat(id, seat) {
  localStorage.setItem(seatKey(id), JSON.stringify(seat));
}

// ------------------------------------------------------------------------- live updates
// The socket is pinged (issue 32): a connection that went silent (a browser offline, a dead
// route) is noticed within PING_MS + SILENT_MS even when no close event ever arrives.
export const PING_MS = 1000;
export const SILENT_MS = 3000;

/**
 * Follow game `id` over the WebSocket, calling onState(state) for every pushed state and
 * onStatus('open'|'closed'|'gone') on connection changes. Pings every PING_MS (the round
 * trips give the lag sent with moves); a socket silent for SILENT_MS, or the browser's
 * offline event, counts as lost at once. Reconnects with back-off and resynchronises with a
 * GET, so a network drop loses nothing. Returns {send(obj), lag(), close()}.
 */
export function follow(id, onState, onStatus, onMessage) {
  let ws = null;
  let closed = false;
  let delay = 500;
  let timer = null;
  let heard = 0; // performance.now() of the last frame received
  let pingAt = null; // performance.now() of the ping awaiting its pong
  let lag = 0; // half the round trip, smoothed: sent with each move (lag compensation)
  const url = () => {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${proto}//${location.host}/ws/games/${encodeURIComponent(id)}`;
  };
  const resync = () => getGame(id).then(onState, e => {
    if (e && e.status === 404) {
      closed = true;
      if (ws) ws.close();
      onStatus('gone');
    }
  });
  const retry = () => {
    clearTimeout(timer);
    timer = setTimeout(connect, delay);
    delay = Math.min(delay * 2, 8000);
  };
  // The socket is given up (closed by us, not by the server): lost now, a new one later.
  const drop = () => {
    const old = ws;
    ws = null;
    if (old) {
      old.onclose = old.onmessage = old.onerror = old.onopen = null;
      try {
        old.close();
      } catch {
        /* already closing */
      }
    }
    if (closed) return;
    onStatus('closed');
    retry();
  };
  const connect = () => {
    if (closed) return;
    const sock = new WebSocket(url());
    ws = sock;
    sock.onopen = () => {
      delay = 500;
      heard = performance.now();
      onStatus('open');
      resync();
    };
    sock.onmessage = ev => {
      heard = performance.now();
      /** @type {ServerFrame} */
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      // The server pushes {type: 'state', game: <GameState>}, {type: 'rematch', offer} and
      // answers with {type: 'pong'} or {type: 'error', status, detail} (server/contract.py).
      const state = msg && msg.type === 'state' ? msg.game : null;
      if (state) onState(state);
      else if (msg && msg.type === 'pong') pong();
      else if (onMessage) onMessage(msg);
    };
    sock.onclose = ev => {
      if (ws !== sock) return;
      ws = null;
      if (closed) return;
      if (ev.code === 4404) { // no such game: nothing to reconnect to
        closed = true;
        onStatus('gone');
        return;
      }
      onStatus('closed');
      retry();
    };
    sock.onerror = () => sock.close();
  };
  const pong = () => {
    if (pingAt === null) return;
    const half = (performance.now() - pingAt) / 2;
    pingAt = null;
    lag = lag ? lag * 0.7 + half * 0.3 : half;
  };
  connect();
  const pinger = setInterval(() => {
    if (!ws || ws.readyState !== 1) return;
    if (performance.now() - heard > SILENT_MS) {
      drop();
      return;
    }
    pingAt = performance.now();
    ws.send(JSON.stringify({ type: 'ping' }));
  }, PING_MS);
  // The browser says the network went: lost at once, no waiting for missed pongs.
  const offline = () => {
    if (ws) drop();
  };
  // Browsers report coming back online; try at once instead of waiting for the back-off.
  const online = () => {
    if (ws && ws.readyState === 1) return;
    if (ws) drop();
    clearTimeout(timer);
    delay = 500;
    connect();
  };
  window.addEventListener('online', online);
  window.addEventListener('offline', offline);
  return {
    send: obj => ws && ws.readyState === 1 && ws.send(JSON.stringify(obj)),
    /** The measured network lag (ms): half the pings' smoothed round trip. */
    lag: () => lag,
    close: () => {
      closed = true;
      clearTimeout(timer);
      clearInterval(pinger);
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
      if (ws) ws.close();
    },
  };
}
