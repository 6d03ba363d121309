// Game sounds (issue 11) with a mute toggle remembered in localStorage. The files are
// synthesised by web/sounds.mjs (GPL-3.0-or-later). `log` records what was played, for tests.

const NAMES = ['move', 'capture', 'castle', 'check', 'end', 'low', 'offer'];
const KEY = 'rc-mute';

export function createSounds() {
  const cache = new Map();
  const log = [];
  let muted = localStorage.getItem(KEY) === '1';
  const audio = name => {
    if (!cache.has(name)) {
      const a = new Audio(`/sounds/${name}.wav`);
      a.preload = 'auto';
      cache.set(name, a);
    }
    return cache.get(name);
  };
  return {
    log,
    get muted() {
      return muted;
    },
    setMuted(value) {
      muted = !!value;
      localStorage.setItem(KEY, muted ? '1' : '0');
    },
    play(name) {
      if (!NAMES.includes(name) || muted) return;
      log.push(name);
      try {
        const a = audio(name);
        a.currentTime = 0;
        const p = a.play();
        if (p && p.catch) p.catch(() => {}); // autoplay refused before any gesture: silence
      } catch {
        /* no audio in this browser */
      }
    },
  };
}
