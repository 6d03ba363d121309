// Clock display (issue 11): the time left from the server's reading, counted down locally
// while connected and shown as unsynchronised (greyed, with a marker) while the connection is
// down. formatClock is pure.

/** 5:03, 1:02:03, 0:09.4 under ten seconds, or 2d 03h from a day up (correspondence). */
export function formatClock(ms) {
  if (ms === null || ms === undefined) return '';
  const total = Math.max(0, ms);
  if (total >= 86_400_000) {
    const hours = Math.floor(total / 3_600_000);
    return `${Math.floor(hours / 24)}d ${String(hours % 24).padStart(2, '0')}h`;
  }
  const s = Math.floor(total / 1000);
  const m = Math.floor(s / 60);
  const rest = String(s % 60).padStart(2, '0');
  if (total < 10_000) return `${m}:${rest}.${Math.floor((total % 1000) / 100)}`;
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

/** Milliseconds left for `color` at `now` (performance.now()) from base {at, white, black,
 * delay}: `delay` is the simple delay the running side still had at `at` (the server's
 * `clocks.delay`, randomchess.clock), during which its clock does not count down. */
export function clockLeft(base, running, color, now) {
  if (!base) return null;
  const v = base[color];
  if (typeof v !== 'number') return null;
  return running === color ? v - Math.max(0, now - base.at - (base.delay || 0)) : v;
}

/** The simple delay left at `now` from the same base (0 when none or spent). */
export function delayLeft(base, running, color, now) {
  if (!base || running !== color) return 0;
  return Math.max(0, (base.delay || 0) - (now - base.at));
}
