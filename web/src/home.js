// Home page (#/), in the game page's shape (issue 27): the controller (home/ctrl.js: the
// new-game form's choices, the setup they describe, the limits, the submission; no DOM) and
// the view (home/view.js), wired here to the server, this browser's storage and the router.

import { createGame, openSetupDraw, saveSeat } from './api.js';
import { loadLevels } from './levels.js';
import { formLimits } from './limits.js';
import { newClientValue } from './setups.js';
import { createHomeCtrl, localChoices } from './home/ctrl.js';
import { createHomeView } from './home/view.js';

const API = { createGame, loadLevels, formLimits, openSetupDraw, newClientValue };

export function renderHome(root, go) {
  let view = null;
  const ctrl = createHomeCtrl({ api: API, storage: localChoices, saveSeat, go,
    redraw: () => view && view.redraw() });
  view = createHomeView(root, ctrl);
  ctrl.start();
  return { destroy() { view.destroy(); } };
}
