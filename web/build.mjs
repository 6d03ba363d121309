// Bundles web/src into src/randomchess/web/static/build/ (app.js, app.css), which the Python
// package serves. `node build.mjs --watch` rebuilds on change.

import * as esbuild from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const options = {
  entryPoints: { app: join(here, 'src', 'main.js') },
  outdir: join(here, '..', 'src', 'randomchess', 'web', 'static', 'build'),
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  legalComments: 'linked',
  external: ['/pieces/*'],
  logLevel: 'info',
};

if (process.argv.includes('--watch')) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  await esbuild.build(options);
}
