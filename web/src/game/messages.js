// What a player is told when something fails (issue 11): the server's reasons and the
// browser's network errors become short i18n keys, never raw text. Pure: no DOM.

const RULES = [
  [/no such game/i, 'err.noGame'],
  [/already been used/i, 'err.inviteUsed'],
  [/wrong invitation/i, 'err.inviteBad'],
  [/wrong token|seat token is required/i, 'err.noSeat'],
  [/not your turn|only the player to move/i, 'err.notYourTurn'],
  [/illegal move|no legal move|empty or overlong/i, 'err.illegal'],
  [/game is over|game ended|time is up/i, 'err.over'],
  [/already offered a draw/i, 'err.alreadyOffered'],
  [/already asked to take back/i, 'err.alreadyAsked'],
  [/nothing to take back|no move of yours to take back/i, 'err.noTakeback'],
  [/no draw to claim/i, 'err.noClaim'],
  [/no (draw|takeback|rematch) offer/i, 'err.noOffer'],
  [/too late to abort/i, 'err.tooLateToAbort'],
  [/too many games/i, 'err.tooMany'],
  [/changing too fast/i, 'err.busy'],
  [/bad setup|setup number|not a valid|fen/i, 'err.badSetup'],
];

/** The i18n key for error `e` (an ApiError with .status and .message, or a network error). */
export function errorKey(e) {
  if (!e) return 'err.generic';
  if (e.name === 'TypeError' || e.status === 0 || /failed to fetch|networkerror|load failed/i
    .test(String(e.message || ''))) {
    return 'err.offline';
  }
  const text = String(e.message || '');
  for (const [re, key] of RULES) if (re.test(text)) return key;
  if (e.status === 404) return 'err.noGame';
  if (e.status === 403) return 'err.noSeat';
  if (e.status === 429) return 'err.tooMany';
  if (e.status === 413 || e.status === 422) return 'err.badRequest';
  if (e.status >= 500) return 'err.server';
  return 'err.generic';
}
