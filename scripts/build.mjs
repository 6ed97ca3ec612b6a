// Bundles src/cli/main.ts into dist/ as ESM. Code splitting keeps what only some commands need
// (the sandbox, ora, cli-table3) in chunks loaded by dynamic import(), off the start-up path.
import { rm } from 'node:fs/promises';
import { build } from 'esbuild';

const pkg = JSON.parse(await (await import('node:fs/promises')).readFile('package.json', 'utf8'));
// MTG_BUILD_OUTDIR builds elsewhere (bench/run.mjs measures a private copy that a concurrent
// `npm run build` cannot delete mid-run); the default is dist/.
const outdir = process.env.MTG_BUILD_OUTDIR || 'dist';
await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: { mtg: 'src/cli/main.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  minify: true,
  sourcemap: 'linked',
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __MTG_VERSION__: JSON.stringify(pkg.version) },
  // Some CommonJS dependencies call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __mtgCreateRequire } from 'node:module'; const require = __mtgCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
