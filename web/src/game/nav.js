// Stepping through a game's moves (issue 11). The cursor is the number of plies shown, or
// null for the live position. Pure: no DOM.

/** The ply shown for `cursor` in a game of `total` plies. */
export const shownPly = (cursor, total) => (cursor === null ? total : Math.max(0, Math.min(cursor, total)));

/** The cursor for showing `ply` plies: null (live) once it reaches the end. */
export function cursorAt(ply, total) {
  if (ply >= total) return null;
  return Math.max(0, ply);
}

/** One key or button: 'first', 'prev', 'next', 'live'. */
export function navigate(cursor, total, where) {
  const now = shownPly(cursor, total);
  switch (where) {
    case 'first': return cursorAt(0, total) ?? (total === 0 ? null : 0);
    case 'prev': return total === 0 ? null : cursorAt(now - 1, total);
    case 'next': return cursorAt(now + 1, total);
    case 'live': return null;
    default: return cursor;
  }
}

/** The navigation a key stands for, or null. */
export function keyToNav(key) {
  return { ArrowLeft: 'prev', ArrowRight: 'next', ArrowUp: 'first', ArrowDown: 'live',
    Home: 'first', End: 'live' }[key] ?? null;
}
