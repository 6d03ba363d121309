// Game page (issue 11), in lichess's ui/ shape: the controller (game/ctrl.js: state and every
// decision, no DOM), the view (game/view.js: the page drawn from the controller) and the board
// (game/board.js: chessgroundx), wired here to the server's API, the browser's storage, clock
// and sounds. The other game/ modules are their parts (state store, navigation, clocks, move
// list, controls, messages, sounds).

import {
  acceptRematch, follow, getGame, getGameEvent, getRatings, getRematch, loadSeat, openSetupDraw, pgnUrl, postAction,
  postMove, postRematch, saveSeat,
} from './api.js';
import { newClientValue } from './setups.js';
import { copyText } from './dom.js';
import { claimSeat, currentUser } from './account/ctrl.js';
import { loadLevels } from './levels.js';
import { createGameCtrl } from './game/ctrl.js';
import { createGameView, renderNotFound } from './game/view.js';
import { createBoard } from './game/board.js';
import { createSounds } from './game/sounds.js';
import { setupDrawBox } from './setup_draw.js';

export { resultText } from './game/ctrl.js';
export { renderNotFound };

const API = {
  follow, getGame, getRatings, getRematch, postAction, postMove, postRematch, saveSeat, claimSeat, currentUser,
  getLevels: loadLevels, getGameEvent, acceptRematch, openSetupDraw, newClientValue,
};

export function renderGame(root, id, go) {
  const sounds = createSounds();
  let view = null;
  let drawBox = null; // the verifiable setup draw's box (issue 32), made below
  const ctrl = createGameCtrl({
    id,
    seat: loadSeat(id),
    api: API,
    ask: (kind, data) => view.ask(kind, data),
    redraw: withBoard => {
      view.redraw(withBoard);
      drawBox?.follow(ctrl.state);
    },
    sounds,
    storage: localStorage,
    copy: copyText,
    go,
  });
  view = createGameView(root, ctrl, {
    pgn: pgnUrl(id), pgnName: `randomchess-${id}.pgn`,
    analysis: `/#/analysis?game=${encodeURIComponent(id)}`,
  });
  const board = createBoard(view.boardEl, {
    onMove: ctrl.move,
    onSelect: ctrl.select,
    onPremoveSet: ctrl.premoveSet,
    onPremoveUnset: ctrl.premoveUnset,
    dims: ctrl.dims,
  });
  view.attach(board);
  // A lobby game's verifiable setup draw (issue 32): below the side panel's tools.
  const side = root.querySelector('aside.side');
  drawBox = setupDrawBox(id, pending => root.classList.toggle('setup-pending', pending));
  if (side) side.append(drawBox.el);
  // For the browser tests (tests/test_web_*.py): the state, the board, the sounds played.
  window.rcGame = { get state() { return ctrl.state; }, ground: board.ground, sounds, store: ctrl.store };

  // A message left by the page that sent the player here (a failed invite, a rematch).
  const pendingFlash = sessionStorage.getItem('rc-flash');
  if (pendingFlash) {
    sessionStorage.removeItem('rc-flash');
    ctrl.flash(pendingFlash, true);
  }
  ctrl.start();
  return {
    destroy() {
      ctrl.destroy();
      view.destroy();
    },
  };
}
