// The board (chessgroundx) and what keeps its hit-testing right (issue 11, defect 2):
// chessground caches the board's page rectangle and only refreshes it on its own resize,
// window resize and scroll, so anything that moved the board without resizing it (a clock or
// a player line appearing above it, web fonts arriving) made drops and taps land a rank off.
// The cache is cleared before every gesture and whenever the layout may have moved.

import { Chessground } from 'chessgroundx';
import { premoveDests } from '../moves.js';

/**
 * The board of the game page and the analysis board: moves go to onMove(orig, dest); with
 * onPremoveSet the player may premove (the game page), without it not (the analysis board).
 */
export function createBoard(el, { onMove, onSelect, onPremoveSet, onPremoveUnset, dims, duration = 150 }) {
  const ground = Chessground(el, {
    autoCastle: false, // its helper assumes 8 ranks and e-file kings; we redraw from the server
    coordinates: true,
    animation: { enabled: true, duration },
    highlight: { lastMove: true, check: true },
    movable: { free: false, color: undefined, showDests: true, events: { after: onMove } },
    premovable: {
      enabled: !!onPremoveSet,
      showDests: true,
      castle: true,
      premoveFunc: (boardState, key) => {
        const { width, height } = dims();
        return premoveDests(boardState.pieces, key, width, height);
      },
      events: { set: onPremoveSet, unset: onPremoveUnset },
    },
    draggable: { enabled: true, showGhost: true },
    drawable: { enabled: true },
    events: onSelect ? { select: onSelect } : {},
  });
  const refresh = () => {
    if (ground.state.dom) ground.state.dom.bounds.clear();
  };
  // Before chessground's own handlers see the gesture (capture phase on an ancestor).
  for (const ev of ['mousedown', 'touchstart', 'pointerdown']) {
    el.parentElement.addEventListener(ev, refresh, { capture: true, passive: true });
  }
  const observer = 'ResizeObserver' in window ? new ResizeObserver(refresh) : null;
  if (observer) {
    observer.observe(document.body);
    observer.observe(el.parentElement);
  }
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(refresh);
  window.addEventListener('orientationchange', refresh);
  window.addEventListener('scroll', refresh, { passive: true, capture: true });
  return {
    ground,
    refresh,
    destroy() {
      if (observer) observer.disconnect();
      window.removeEventListener('orientationchange', refresh);
      window.removeEventListener('scroll', refresh, { capture: true });
      ground.destroy();
    },
  };
}
