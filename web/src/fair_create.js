// A new game whose random setup both players can verify (issue 32, docs/shuffler.md §10): what
// a creation form sends instead of a setup number it drew itself. A friend's game asks the
// server for `setup: 'random'` (the server commits now; the friend's browser adds its value at
// the join); a game against the computer first opens a draw (the server's commitment) and then
// sends this browser's own random value with it. A setup the player chose by number, a
// hot-seat game and an unnumbered variant are left as they are.

import { openSetupDraw } from './api.js';
import { newClientValue } from './setups.js';

/** Whether a new game against `opponent` on a random setup of a numbered variant is drawn
 * verifiably (a friend's or the computer's; a hot-seat game keeps its ordinary draw). The
 * home form says so instead of previewing a setup (home/ctrl.js). */
export const verifiableOpponent = opponent => opponent === 'friend' || opponent === 'computer';

/**
 * The creation request `spec` ({variant, opponent, setup, ...}) made verifiable; `random`:
 * the player asked for a random setup of a numbered variant (not a number of their own).
 * `open` and `value` are the server's draw and the browser's random value (tests pass fakes).
 * A draw that cannot be opened leaves the request as it was.
 */
export async function verifiableSpec(spec, random, open = openSetupDraw, value = newClientValue) {
  if (!random || !verifiableOpponent(spec.opponent)) return spec;
  if (spec.opponent === 'friend') return { ...spec, setup: 'random' };
  try {
    const draw = await open(spec.variant);
    return { ...spec, setup: 'random', setup_draw: { id: draw.id, client_value: value() } };
  } catch {
    return spec;
  }
}
