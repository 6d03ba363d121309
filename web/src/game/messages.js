// What a player is told when something fails (issue 11): the server's errors and the
// browser's network errors become short i18n keys, never raw text. Pure: no DOM.
//
// The server names every error with a stable code (docs/server.md, errors): the key comes
// from it. The regular expressions below read the English text of a body without a code
// only (an older server, a proxy's page).

export const CODES = {
  'game.not_found': 'err.noGame',
  'game.bad_id': 'err.noGame',
  'invite.used': 'err.inviteUsed',
  'invite.wrong': 'err.inviteBad',
  'seat.wrong_token': 'err.noSeat',
  'seat.token_required': 'err.noSeat',
  'turn.not_yours': 'err.notYourTurn',
  'claim.not_your_turn': 'err.notYourTurn',
  'move.empty': 'err.illegal',
  'move.missing': 'err.illegal',
  'move.illegal': 'err.illegal',
  'move.malformed': 'err.illegal',
  'move.ambiguous': 'err.illegal',
  'game.over': 'err.over',
  'game.time_up': 'err.over',
  'game.ended_before': 'err.over',
  'draw.already_offered': 'err.alreadyOffered',
  'takeback.already_asked': 'err.alreadyAsked',
  'takeback.none': 'err.noTakeback',
  'claim.none': 'err.noClaim',
  'claim.bad_move': 'err.noClaim',
  'draw.no_offer': 'err.noOffer',
  'takeback.no_offer': 'err.noOffer',
  'rematch.no_offer': 'err.noOffer',
  'game.too_late_to_abort': 'err.tooLateToAbort',
  'preview.running': 'err.previewRunning',
  'preview.none': 'err.previewOver',
  'preview.already_ready': 'err.alreadyReady',
  'rate.too_many_games': 'err.tooMany',
  'rate.too_many_events': 'err.tooMany',
  'game.busy': 'err.busy',
  'setup.ascii_digits': 'err.badSetup',
  'setup.no_legal_move': 'err.badSetup',
  'setup.invalid': 'err.badSetup',
  'setup.bad_number': 'err.badSetup',
  'setup.out_of_range': 'err.badSetup',
  'fen.invalid': 'err.badSetup',
  'request.invalid': 'err.badRequest',
  'request.too_large': 'err.badRequest',
  'request.too_deep': 'err.badRequest',
  'frame.invalid': 'err.badRequest',
  'frame.too_large': 'err.badRequest',
  'frame.binary': 'err.badRequest',
};

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

function byStatus(status) {
  if (status === 404) return 'err.noGame';
  if (status === 403) return 'err.noSeat';
  if (status === 429) return 'err.tooMany';
  if (status === 413 || status === 422) return 'err.badRequest';
  if (status >= 500) return 'err.server';
  return 'err.generic';
}

/** The i18n key for error `e` (an ApiError with .status, .code and .message, or a network
 * error). A code the page has no message for falls back to the status, never to the text. */
export function errorKey(e) {
  if (!e) return 'err.generic';
  if (e.name === 'TypeError' || e.status === 0 || /failed to fetch|networkerror|load failed/i
    .test(String(e.message || ''))) {
    return 'err.offline';
  }
  if (typeof e.code === 'string' && e.code) return CODES[e.code] || byStatus(e.status);
  const text = String(e.message || '');
  for (const [re, key] of RULES) if (re.test(text)) return key;
  return byStatus(e.status);
}

/** What to show for `e` with the page's translator `t`: the page's own message for the code,
 * else the server's reason, already in the page's language (api.js `refusal`), rather than
 * a message that only names the status. */
export function errorMessage(e, t) {
  if (e && typeof e.code === 'string' && e.code && !CODES[e.code] && e.message) {
    return String(e.message);
  }
  return t(errorKey(e));
}
