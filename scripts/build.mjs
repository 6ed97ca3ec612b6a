// Bundles the CLI into dist/, all CommonJS:
//   - dist/mtg.cjs (src/cli/entry.ts, run by bin/mtg.js) answers --version and help itself, from
//     dist/help.json, and requires dist/cli.cjs for everything else;
//   - dist/cli.cjs (src/cli/bin.ts) and dist/chunks/: the CLI, code-split so that what only some
//     commands need (undici, zod, the sandbox, ora, cli-table3, ...) is in chunks required on first
//     use, and everything every command loads is in one chunk (startupInOneChunk below).
// esbuild splits only ES module output, so the CLI is built as ES modules first, then each file is
// turned into CommonJS on its own (imports into require()s of the same files).
// Why CommonJS: node sets up its ES module loader when the first ES module loads, and links every
// ES module file in a graph. A CommonJS `--version` ran in 1.11x bare node against 1.36x for the
// same one line as an ES module (15 interleaved runs each); on node 26 a one-page API command spent
// tens of ms in the loader (linking, and the namespaces of the builtins it imported), and node 22+
// keeps each CommonJS file in its compile cache (src/cli/entry.ts). Why chunks, not one file: the
// whole CLI in one file (1 MB) cost node 20, which has no compile cache, ~19 ms of compiling at
// every run, and node 26 ~7 ms with its cache (bench/README.md, "Start-up on each Node line").
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';

// MTG_BUILD_OUTDIR builds elsewhere (bench/run.mjs measures a private copy that a concurrent
// `npm run build` cannot delete mid-run); the default is dist/.
const outdir = process.env.MTG_BUILD_OUTDIR || 'dist';

import {
  chalkWithoutDetection,
  define,
  importBundled,
  lazyAssertForUndici,
  lazyChildProcess,
  lazyChildProcessForCommander,
  lazyCrypto,
  lazyFsPromises,
  lazyUndiciHttp2,
  leanUndici,
  prebuiltValidators,
  prebuiltViews,
  undiciWithoutHttp,
  zodEnglishOnly,
} from './build-plugins.mjs';

// The start-up path in one chunk. With splitting, esbuild gives each module to a chunk per set of
// entry points (the entry and every dynamic import() target) that reach it, so main.ts's static
// imports ended up spread over a dozen small files, each costing a resolve, a read and a compile
// at every start (bench figure a). Every dynamic import of our own modules is routed through a
// proxy that also imports everything main.ts loads: the whole start-up closure is then reached by
// the same entry points and lands in one chunk. Only chunk boundaries change: no module is
// duplicated, each still runs once, and what was lazy stays lazy.
async function startupClosure() {
  const result = await build({
    entryPoints: ['src/cli/bin.ts'],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    loader: { '.mustache': 'text' },
    outdir: 'unused',
    logLevel: 'silent',
    plugins: [
      {
        name: 'static-only',
        setup(b) {
          b.onResolve({ filter: /.*/ }, (args) =>
            args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
          );
        },
      },
    ],
  });
  return Object.keys(result.metafile.inputs)
    .filter((input) => !input.endsWith('src/cli/bin.ts'))
    .map((input) => resolve(input));
}

const startupInOneChunk = (closure) => ({
  name: 'startup-in-one-chunk',
  setup(b) {
    b.onResolve({ filter: /^\./ }, async (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const real = await b.resolve(args.path, {
        importer: args.importer,
        resolveDir: args.resolveDir,
        kind: 'import-statement',
      });
      if (real.errors.length > 0) return { errors: real.errors };
      return { path: real.path, namespace: 'mtg-lazy-entry' };
    });
    b.onLoad({ filter: /.*/, namespace: 'mtg-lazy-entry' }, (args) => ({
      contents: `import 'mtg-startup';\nexport * from ${JSON.stringify(args.path)};\n`,
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
    b.onResolve({ filter: /^mtg-startup$/ }, () => ({ path: 'mtg-startup', namespace: 'mtg-startup' }));
    b.onLoad({ filter: /.*/, namespace: 'mtg-startup' }, () => ({
      contents: closure.map((file) => `import ${JSON.stringify(file)};`).join('\n'),
      resolveDir: process.cwd(),
      loader: 'js',
    }));
  },
});

// dist/help.json: every command's --help, printed by commander from the program main.ts builds
// (src/cli/help-build.ts, bundled from the same sources with the same defines), so that entry.ts
// can answer `mtg <group> <command> --help` without loading commander and the tree (bench figure
// a: about 25 ms of a 55 ms start). A build that cannot render them fails.
async function writeHelpTexts() {
  const { buildHelpTexts } = await importBundled('src/cli/help-build.ts');
  await writeFile(join(outdir, 'help.json'), JSON.stringify(buildHelpTexts()));
}

await rm(outdir, { recursive: true, force: true });
const views = await prebuiltViews();
// The client's validators generated at build time; the zod schemas in a file of their own, required
// only when a body fails them (scripts/build-plugins.mjs).
const validators = await prebuiltValidators({ schemas: './api-schemas.cjs', external: true });
// First as ES modules, for esbuild's code splitting (it splits only ES module output): files named
// .cjs already, so that the imports between them name the final files.
const { outputFiles } = await build({
  entryPoints: { cli: 'src/cli/bin.ts', 'chunks/api-schemas': 'src/api/schemas.ts' },
  outdir,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  loader: { '.mustache': 'text' },
  target: 'node20.18',
  minify: true,
  sourcemap: 'linked',
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  // The SQLite drivers stay outside: node:sqlite is Node's own (absent before 22.13), and
  // better-sqlite3, the optional native one (its .node binary cannot be bundled), is required by
  // src/mirror/driver.ts only where node:sqlite falls short.
  // jq-web finds its jq.wasm beside its own jq.js at run time: src/cli/jq.ts loads it from
  // node_modules (by its resolved path, not by an import).
  external: ['node:sqlite', 'better-sqlite3', 'jq-web'],
  // import.meta.url (createRequire in src/mirror/driver.ts): each file's own URL, set below.
  define: { ...define, 'import.meta.url': '__mtgModuleUrl' },
  plugins: [
    lazyChildProcessForCommander,
    zodEnglishOnly,
    leanUndici,
    undiciWithoutHttp,
    lazyUndiciHttp2,
    lazyAssertForUndici,
    lazyChildProcess,
    lazyCrypto,
    lazyFsPromises,
    chalkWithoutDetection,
    views,
    validators,
    startupInOneChunk(await startupClosure()),
  ],
  write: false,
  logLevel: 'warning',
});
// Then each file as CommonJS: imports become require()s of the same files, import() of a chunk a
// require() on first use, exports getters (live, as ES module bindings are). esbuild reads each
// file's source map and chains it.
await Promise.all(
  outputFiles.map((f) =>
    mkdir(dirname(f.path), { recursive: true }).then(() => writeFile(f.path, f.contents)),
  ),
);
await Promise.all(
  outputFiles
    .filter((f) => f.path.endsWith('.cjs'))
    .map((f) =>
      build({
        entryPoints: [f.path],
        outfile: f.path,
        allowOverwrite: true,
        bundle: true,
        // Every import is another file of this build, a package or a builtin: left as it is.
        plugins: [
          {
            name: 'all-external',
            setup: (b) =>
              b.onResolve({ filter: /.*/ }, (args) =>
                args.kind === 'entry-point' ? undefined : { path: args.path, external: true },
              ),
          },
        ],
        format: 'cjs',
        platform: 'node',
        target: 'node20.18',
        supported: { 'dynamic-import': false },
        minify: true,
        sourcemap: 'linked',
        legalComments: 'none',
        banner: f.text.includes('__mtgModuleUrl')
          ? { js: "const __mtgModuleUrl = require('node:url').pathToFileURL(__filename).href;" }
          : undefined,
        logLevel: 'warning',
      }),
    ),
);
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
