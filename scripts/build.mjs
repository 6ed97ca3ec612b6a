// Bundles the CLI into dist/, all CommonJS:
//   - dist/mtg.cjs (src/cli/entry.ts, run by bin/mtg.js) answers --version and help itself, from
//     dist/help.json, and requires dist/cli.cjs for everything else;
//   - dist/cli.cjs (src/cli/bin.ts) and dist/chunks/: the CLI, code-split (scripts/build-cli.mjs, the
//     build the standalone binary's assets share).
// Why CommonJS: node sets up its ES module loader when the first ES module loads, and links every
// ES module file in a graph. A CommonJS `--version` ran in 1.11x bare node against 1.36x for the
// same one line as an ES module (15 interleaved runs each); on node 26 a one-page API command spent
// tens of ms in the loader (linking, and the namespaces of the builtins it imported), and node 22+
// keeps each CommonJS file in its compile cache (src/cli/entry.ts). Why chunks, not one file: the
// whole CLI in one file (1 MB) cost node 20, which has no compile cache, ~19 ms of compiling at
// every run, and node 26 ~7 ms with its cache (bench/README.md, "Start-up on each Node line").
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { buildSplitCli } from './build-cli.mjs';
import { define, importBundled } from './build-plugins.mjs';

// MTG_BUILD_OUTDIR builds elsewhere (bench/run.mjs measures a private copy that a concurrent
// `npm run build` cannot delete mid-run); the default is dist/.
const outdir = process.env.MTG_BUILD_OUTDIR || 'dist';

// dist/help.json: every command's --help, printed by commander from the program main.ts builds
// (src/cli/help-build.ts, bundled from the same sources with the same defines), so that entry.ts
// can answer `mtg <group> <command> --help` without loading commander and the tree (bench figure
// a: about 25 ms of a 55 ms start). A build that cannot render them fails.
async function writeHelpTexts() {
  const { buildHelpTexts } = await importBundled('src/cli/help-build.ts');
  await writeFile(join(outdir, 'help.json'), JSON.stringify(buildHelpTexts()));
}

await rm(outdir, { recursive: true, force: true });
await buildSplitCli({ outdir, target: 'node20.18', sourcemap: true, moduleUrl: '__filename' });
// The start-up file: self-contained; ./cli.cjs stays a real require() of the bundle above.
await build({
  entryPoints: ['src/cli/entry.ts'],
  outfile: join(outdir, 'mtg.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.18',
  minify: true,
  sourcemap: 'linked',
  legalComments: 'none',
  external: ['./cli.cjs'],
  define,
  logLevel: 'warning',
});
await writeHelpTexts();
