// The lobby's seeks as the socket builds them (issue 28): the whole lobby once, when the
// socket connects (type 'seeks'), then one change per frame (type 'seeks-delta': the seeks
// added, the ids removed). Each seek says how long it stays open from its frame
// (expires_in_ms); it is dropped here when that time has passed, measured on this page's
// own clock (no clock skew between the server and the browser matters).

/** The seeks after one lobby frame: a Map id -> seek (oldest first), each with `expiresAt`
 * on the `now()` clock. Frames of other types leave it as it was. */
export function applyLobbyFrame(seeks, msg, now) {
  const stamp = s => ({ ...s, expiresAt: now + s.expires_in_ms });
  if (msg.type === 'seeks') return new Map(msg.seeks.map(s => [s.id, stamp(s)]));
  if (msg.type !== 'seeks-delta') return seeks;
  const next = new Map(seeks);
  for (const id of msg.removed) next.delete(id);
  for (const s of msg.added) next.set(s.id, stamp(s));
  return next;
}

/** The seeks still open at `now`, oldest first, and when the next one lapses (or null). */
export function openSeeks(seeks, now) {
  const open = [...seeks.values()].filter(s => s.expiresAt > now);
  const next = open.length ? Math.min(...open.map(s => s.expiresAt)) : null;
  return { open, next };
}

// A seek's or quick pairing's clock written as a PGN TimeControl (issue 34): periods of moves
// in seconds, then the rest of the game, each with an increment ("+30"), a simple delay
// ("+5d") or a Bronstein delay ("+5b"). The server reads it (randomchess/clock.py); this
// check says before sending what it would refuse, with the limits of the server's models
// (the minutes and increment of GET /openapi.json: a period's longest time and a bonus's).
const PERIOD = /^(?:(\d{1,3})\/)?(\d{1,9}(?:\.\d{1,3})?)(?:\+(\d{1,9}(?:\.\d{1,3})?)([db]?))?$/;
const MAX_PERIODS = 8;

/**
 * Why `text` is no clock a seek can have, as {key, vars} of the catalogue's account.* keys
 * (null when it fits). `maxMinutes` and `maxBonus` (seconds) are the server's limits.
 */
export function controlProblem(text, maxMinutes = 600, maxBonus = 600) {
  const s = String(text ?? '').trim();
  const limits = { minutes: maxMinutes, bonus: maxBonus };
  if (s === '-' || s === '?' || s.startsWith('*')) return { key: 'controlNotOnline', vars: { control: s } };
  const parts = s.split(':');
  if (!s || parts.length > MAX_PERIODS) return { key: 'controlBad', vars: { control: s, ...limits } };
  const periods = parts.map(p => PERIOD.exec(p));
  if (periods.some(m => !m) || periods.slice(0, -1).some(m => m[1] === undefined)
      || periods.some(m => m[1] !== undefined && !(Number(m[1]) >= 1 && Number(m[1]) <= 500))) {
    return { key: 'controlBad', vars: { control: s, ...limits } };
  }
  const tooLong = periods.some(m => Number(m[2]) > maxMinutes * 60 || Number(m[3] || 0) > maxBonus);
  if (tooLong || Number(periods[0][2]) === 0) return { key: 'controlRange', vars: { control: s, ...limits } };
  return null;
}
