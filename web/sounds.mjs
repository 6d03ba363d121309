// Writes the game sounds (src/randomchess/web/static/sounds/*.wav): short tones synthesised
// here for randomchess, so their licence is the project's (GPL-3.0-or-later, see
// sounds/LICENSE.txt). Run with `npm run sounds` after changing one; the files are committed.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'src', 'randomchess', 'web', 'static', 'sounds');
const RATE = 22050;

// A note: frequency (Hz), start and length (s), loudness; a soft attack and an exponential
// decay, with a little of the octave for a wooden "thock".
function render(notes, seconds) {
  const n = Math.round(RATE * seconds);
  const buf = new Float64Array(n);
  for (const { f, at, len, gain = 0.6, decay = 30, noise = 0 } of notes) {
    const start = Math.round(at * RATE);
    const end = Math.min(n, start + Math.round(len * RATE));
    let seed = 12345;
    for (let i = start; i < end; i++) {
      const t = (i - start) / RATE;
      const env = Math.min(1, t * 400) * Math.exp(-decay * t);
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const hiss = noise ? noise * ((seed / 0x7fffffff) * 2 - 1) * Math.exp(-80 * t) : 0;
      buf[i] += gain * env * (Math.sin(2 * Math.PI * f * t) + 0.3 * Math.sin(4 * Math.PI * f * t)) + hiss;
    }
  }
  return buf;
}

function wav(samples) {
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, s)) * 32000), i * 2));
  const head = Buffer.alloc(44);
  head.write('RIFF', 0);
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVEfmt ', 8);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20); // PCM
  head.writeUInt16LE(1, 22); // mono
  head.writeUInt32LE(RATE, 24);
  head.writeUInt32LE(RATE * 2, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36);
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}

const SOUNDS = {
  move: render([{ f: 330, at: 0, len: 0.12, decay: 45, noise: 0.25 }], 0.14),
  capture: render([{ f: 280, at: 0, len: 0.1, decay: 40, noise: 0.4 },
    { f: 220, at: 0.06, len: 0.14, decay: 35, noise: 0.3 }], 0.22),
  castle: render([{ f: 330, at: 0, len: 0.1, decay: 45, noise: 0.25 },
    { f: 392, at: 0.09, len: 0.12, decay: 45, noise: 0.25 }], 0.23),
  check: render([{ f: 660, at: 0, len: 0.18, gain: 0.45, decay: 18 }], 0.2),
  end: render([{ f: 523, at: 0, len: 0.3, gain: 0.4, decay: 8 }, { f: 659, at: 0.12, len: 0.3, gain: 0.4, decay: 8 },
    { f: 784, at: 0.24, len: 0.5, gain: 0.4, decay: 6 }], 0.75),
  low: render([{ f: 880, at: 0, len: 0.08, gain: 0.4, decay: 20 }, { f: 880, at: 0.14, len: 0.08, gain: 0.4, decay: 20 }], 0.25),
  // An offer (draw, takeback, rematch) from the other side: a rising two-note call.
  offer: render([{ f: 587, at: 0, len: 0.16, gain: 0.4, decay: 14 }, { f: 880, at: 0.13, len: 0.22, gain: 0.4, decay: 12 }], 0.38),
};

mkdirSync(out, { recursive: true });
for (const [name, samples] of Object.entries(SOUNDS)) writeFileSync(join(out, `${name}.wav`), wav(samples));
writeFileSync(join(out, 'LICENSE.txt'), `The sounds in this folder were synthesised for randomchess (web/sounds.mjs).
Copyright (C) randomchess developers.
Licence: GPL-3.0-or-later, the same as the project (see LICENSE at the repository root).
`);
console.log(`wrote ${Object.keys(SOUNDS).length} sounds to ${out}`);
