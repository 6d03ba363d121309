// The computer levels of GET /api/levels (issues 11 and 14): who plays each one and the rating
// the match runner measured for it (Chess960, against Stockfish's UCI_Elo; docs/engine.md).

import { getLevels } from './api.js';
import { t } from './i18n.js';

let table = null;

/** The levels table, asked once per page load. */
export function loadLevels() {
  if (!table) table = getLevels().catch(err => { table = null; throw err; });
  return table;
}

/** "≈1450 Elo" for a level row with a measured rating, '' without one. */
export function ratingText(row) {
  return row && row.rating ? t('levelRating', { rating: row.rating }) : '';
}

/** The tooltip that says how the rating was measured. */
export function ratingTitle(row) {
  return row && row.rating
    ? t('levelRatingHow', { margin: row.rating_margin, games: row.rating_games })
    : '';
}
