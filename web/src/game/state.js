// The page's one source of truth (issue 11): every state that arrives (a POST answer, a
// WebSocket push, a resync GET) goes through apply(), which keeps the newest by version and
// then always asks for a redraw from the newest state. Pure: no DOM.

/** True when `next` should replace `current`: a newer version of the same game, or the same
 * version read again (its clock reading is fresher). Older versions never win. */
export function isNewer(next, current) {
  if (!next || typeof next !== 'object' || typeof next.fen !== 'string') return false;
  if (!current) return true;
  if (next.id !== undefined && current.id !== undefined && next.id !== current.id) return false;
  const a = typeof next.version === 'number' ? next.version : -1;
  const b = typeof current.version === 'number' ? current.version : -1;
  return a >= b;
}

/** A store calling onChange(state, accepted) after every apply, accepted or not, so the page
 * is always redrawn from the newest state (the board lock came from a skipped redraw). */
export function createStore(onChange) {
  let current = null;
  return {
    get state() {
      return current;
    },
    apply(next) {
      const accepted = isNewer(next, current);
      if (accepted) current = next;
      if (current) onChange(current, accepted);
      return accepted;
    },
  };
}

/** A sound name for the step from `prev` to `next` (or null): move, capture, check, castle,
 * end. */
export function soundFor(prev, next) {
  if (!prev || !next || prev.id !== next.id) return null;
  const over = s => s.status === 'ended';
  if (over(next) && !over(prev)) return 'end';
  const before = (prev.moves || []).length;
  const after = (next.moves || []).length;
  if (after <= before) return null;
  const san = (next.san || [])[after - 1] || '';
  if (/#$/.test(san)) return 'end';
  if (/\+$/.test(san)) return 'check';
  if (/^O-O/.test(san)) return 'castle';
  if (san.includes('x')) return 'capture';
  return 'move';
}
