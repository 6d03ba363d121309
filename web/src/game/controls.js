// The buttons around the game (issue 11): abort, resign (confirmed), draw offer / accept /
// decline / claim, takeback offer / accept / decline, rematch, flip, sound, FEN, PGN. Each
// is shown or enabled from the newest state only (update), never left as a click set it.

import { h } from '../dom.js';
import { t } from '../i18n.js';

export function createControls(act) {
  const btn = (key, testid, onclick, cls = 'secondary') =>
    h(`button.${cls}`, { type: 'button', 'data-testid': testid, onclick }, t(key));
  const b = {
    abort: btn('abort', 'abort', () => act('abort')),
    resign: btn('resign', 'resign', () => act('resign')),
    offerDraw: btn('offerDraw', 'draw-offer', () => act('draw-offer')),
    acceptDraw: btn('acceptDraw', 'draw-accept', () => act('draw-accept'), 'primary'),
    declineDraw: btn('declineDraw', 'draw-decline', () => act('draw-decline')),
    claimDraw: btn('claimDraw', 'draw-claim', () => act('draw-claim')),
    offerTakeback: btn('offerTakeback', 'takeback-offer', () => act('takeback-offer')),
    acceptTakeback: btn('acceptTakeback', 'takeback-accept', () => act('takeback-accept'), 'primary'),
    declineTakeback: btn('declineTakeback', 'takeback-decline', () => act('takeback-decline')),
    rematch: btn('rematch', 'rematch', () => act('rematch'), 'primary'),
    acceptRematch: btn('acceptRematch', 'rematch-accept', () => act('rematch-accept'), 'primary'),
    declineRematch: btn('declineRematch', 'rematch-decline', () => act('rematch-decline')),
    flip: btn('flip', 'flip', () => act('flip')),
    sound: btn('sound', 'sound', () => act('sound')),
    copyFen: btn('copyFen', 'copy-fen', () => act('copy-fen')),
    // After a game, beside Rematch (issue 37): the home form, and the lobby when the
    // opponent was a person.
    newGame: h('a.button.secondary', { href: '/#/', 'data-testid': 'new-game', hidden: true }, t('newGame')),
    newOpponent: h('a.button.secondary', { href: '/#/lobby', 'data-testid': 'new-opponent', hidden: true },
      t('newOpponent')),
  };
  const offers = h('p.offer', { 'data-testid': 'offer', hidden: true });
  // The offers and the offerer's notices: kept on screen on a phone (style.css, issue 32).
  const offerBox = h('div.offer-box', { 'data-testid': 'offer-box', role: 'status', hidden: true },
    offers,
    h('div.actions', b.acceptDraw, b.declineDraw, b.acceptTakeback, b.declineTakeback,
      b.acceptRematch, b.declineRematch));
  const el = h('div.controls-box',
    offerBox,
    h('div.actions', b.abort, b.offerDraw, b.claimDraw, b.offerTakeback, b.resign, b.rematch,
      b.newGame, b.newOpponent));
  const tools = h('div.actions.tools', b.flip, b.sound, b.copyFen);
  return {
    el,
    tools,
    buttons: b,
    /** v: {playing, over, hotseat, computer, mine, ply, offer, takeback, claims, myTurn,
     *  canAbort, canTakeback, rematchOffer: {by}|null, rematchMine, notice: text|null,
     *  seatHolder, muted} */
    update(v) {
      const show = (button, on) => { button.hidden = !on; };
      show(b.abort, v.playing && v.canAbort);
      show(b.resign, v.playing && !v.canAbort);
      show(b.offerDraw, v.playing && !v.hotseat && !v.computer && !v.canAbort);
      b.offerDraw.disabled = !!v.offer;
      const theirDraw = v.playing && v.offer && (v.hotseat || v.offer !== v.mine);
      show(b.acceptDraw, theirDraw);
      show(b.declineDraw, theirDraw);
      show(b.claimDraw, v.playing && v.claims.length > 0);
      b.claimDraw.disabled = !v.myTurn;
      b.claimDraw.title = v.claims.join(', ');
      show(b.offerTakeback, v.playing && v.canTakeback);
      b.offerTakeback.textContent = v.hotseat || v.computer ? t('undo') : t('offerTakeback');
      b.offerTakeback.disabled = !!v.takeback && v.takeback === v.mine;
      const theirTakeback = v.playing && v.takeback && !v.hotseat && v.takeback !== v.mine;
      show(b.acceptTakeback, theirTakeback);
      show(b.declineTakeback, theirTakeback);
      const theirRematch = v.over && v.seatHolder && v.rematchOffer && v.rematchOffer.by !== v.mine;
      show(b.rematch, v.over && v.seatHolder && !theirRematch);
      b.rematch.disabled = !!v.rematchMine;
      show(b.newGame, v.over);
      show(b.newOpponent, v.over && !v.hotseat && !v.computer);
      show(b.acceptRematch, !!theirRematch);
      show(b.declineRematch, !!theirRematch);
      // The button names what a click does ("Mute" while the sound is on), so no
      // aria-pressed: a toggle whose name changes would say the state twice.
      b.sound.textContent = v.muted ? t('soundOff') : t('soundOn');
      const lines = [];
      if (theirDraw) lines.push(t('drawOffered', { colour: t(`colour.${v.offer}`) }));
      if (theirTakeback) lines.push(t('takebackOffered', { colour: t(`colour.${v.takeback}`) }));
      if (theirRematch) lines.push(t('rematchOffered', { colour: t(`colour.${v.rematchOffer.by}`) }));
      if (v.notice) lines.push(v.notice);
      else if (v.rematchMine) lines.push(t('rematchWaiting'));
      offers.hidden = !lines.length;
      offers.textContent = lines.join(' ');
      offerBox.hidden = !lines.length;
    },
  };
}
