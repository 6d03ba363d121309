// Tournament pages (issues 15 and 30), English and Spanish, in the game page's shape (issue
// 27): the controller without DOM in tournament/ctrl.js (node-tested in
// web/test/tournament_ctrl.test.mjs), the views beside it. This file routes:
//   #/tournaments                         the list of events (tournament/list.js)
//   #/tournament/new                      create an event: owned by the signed-in account, or
//                                         run with an organiser secret shown once (new.js)
//   #/tournament/<id>                     public page: commitment, pairings with the round's setup
//                                         diagram, standings, links to the online games; the
//                                         organiser's controls for its organiser and co-arbiters
//                                         (their accounts) and for whoever holds the secret
//                                         (view.js; a knock-out's bracket in bracket.js)
//   #/tournament/<id>/hall                projector view of the current round's setup (hall.js)
//   #/tournament/<id>/verify              the verification, in words (verify.js)
//   #/tournament/<id>/seat/<game>/<token> a player's personal link (White): keep the seat, play
//   #/tournament/<id>/join/<game>/<code>  Black's link to a hall round's game (seat.js)

import { request } from './api.js';
import { createNewCtrl, limitsLoader, tournamentApi } from './tournament/ctrl.js';
import { renderEventList } from './tournament/list.js';
import { renderNew } from './tournament/new.js';
import { renderEvent } from './tournament/view.js';
import { renderHall } from './tournament/hall.js';
import { renderVerify } from './tournament/verify.js';
import { renderSeatLink } from './tournament/seat.js';
import './tournament.css';

const api = tournamentApi(request);
// The limits of the event's and the player's fields (GET /openapi.json): fetched when a
// tournament page first needs them, not when the bundle loads.
const limits = limitsLoader(api);
const storage = {
  get: key => localStorage.getItem(key),
  set: (key, value) => localStorage.setItem(key, value),
};

/** Route #/tournament/... ; returns the page object (with destroy) or null. */
export function renderTournament(main, path, go) {
  main.classList.add('tournament-page');
  limits(); // the forms' limits, ready before the first submit
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent); // tournament, id, ...
  if (parts[0] === 'tournaments') {
    renderEventList(main);
    return null;
  }
  if (parts[1] === 'new' || parts.length === 1) {
    renderNew(main, go, createNewCtrl({ api, limits, storage }));
    return null;
  }
  const id = parts[1];
  if (parts[2] === 'hall') return renderHall(main, id, api);
  if (parts[2] === 'verify') {
    renderVerify(main, id);
    return null;
  }
  if ((parts[2] === 'seat' || parts[2] === 'join') && parts[3] && parts[4]) {
    return renderSeatLink(main, id, parts[3], parts[4], parts[2] === 'seat' ? 'white' : 'black', go);
  }
  return renderEvent(main, id, { api, storage, limits });
}
