// Engine scores as the analysis page writes them (issue 27: the page's decimal mark).

import { formatPawns } from '../i18n.js';

/** "+0.35", "-1.20" ("+0,35" in Spanish), "#3", "#-2" from a White-point-of-view score. */
export function scoreText(score) {
  if (!score) return '';
  if (score.mate !== null && score.mate !== undefined) return `#${score.mate}`;
  return formatPawns(score.cp);
}

/** White's winning chances 0..100 (the server's model, lichess's curve). */
export function winPercent(score) {
  if (!score) return 50;
  if (score.mate !== null && score.mate !== undefined) return score.mate > 0 ? 100 : 0;
  const cp = Math.max(-1000, Math.min(1000, score.cp));
  return 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * cp)) - 1);
}
