// The CLI (src/cli/bin.ts) as CommonJS files, code-split: `cli.cjs` and `chunks/`, what only some
// commands need (undici, zod, the sandbox, ora, cli-table3, ...) in chunks required on first use,
// and everything every command loads in one chunk (startupInOneChunk below). The package's dist/
// (scripts/build.mjs) and the standalone binary's assets (scripts/build-binary.mjs) are both this
// build, with their own target and plugins.
// esbuild splits only ES module output, so the CLI is built as ES modules first, then each file is
// turned into CommonJS on its own (imports into require()s of the same files).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { build } from 'esbuild';
import {
  chalkWithoutDetection,
  define,
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

/**
 * Writes `<outdir>/cli.cjs` and `<outdir>/chunks/*.cjs` (with the zod schemas' own entry,
 * `chunks/api-schemas.cjs`, required only when a body fails the generated validators).
 * @param {{ outdir: string, target: string, sourcemap: boolean, moduleUrl: string,
 *   plugins?: import('esbuild').Plugin[] }} options  moduleUrl: the expression whose file URL is
 *   each file's `import.meta.url` (`__filename` in the package; the binary's path in the binary)
 */
export async function buildSplitCli({ outdir, target, sourcemap, moduleUrl, plugins = [] }) {
  const views = await prebuiltViews();
  // The client's validators generated at build time; the zod schemas in a file of their own,
  // required only when a body fails them (scripts/build-plugins.mjs).
  const validators = await prebuiltValidators({ schemas: './api-schemas.cjs', external: true });
  // First as ES modules, for esbuild's code splitting (it splits only ES module output): files
  // named .cjs already, so that the imports between them name the final files.
  const { outputFiles } = await build({
    entryPoints: { cli: 'src/cli/bin.ts', 'chunks/api-schemas': 'src/api/schemas.ts' },
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    loader: { '.mustache': 'text' },
    target,
    minify: true,
    sourcemap: sourcemap ? 'linked' : false,
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
      ...plugins,
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
  // Then each file as CommonJS: imports become require()s of the same files, import() of a chunk
  // a require() on first use, exports getters (live, as ES module bindings are). esbuild reads each
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
          target,
          supported: { 'dynamic-import': false },
          minify: true,
          sourcemap: sourcemap ? 'linked' : false,
          legalComments: 'none',
          banner: f.text.includes('__mtgModuleUrl')
            ? { js: `const __mtgModuleUrl = require('node:url').pathToFileURL(${moduleUrl}).href;` }
            : undefined,
          logLevel: 'warning',
        }),
      ),
  );
  return outputFiles.filter((f) => f.path.endsWith('.cjs')).map((f) => f.path);
}
