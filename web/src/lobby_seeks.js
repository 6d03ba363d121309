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
