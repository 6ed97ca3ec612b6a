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
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const pkg = JSON.parse(await (await import('node:fs/promises')).readFile('package.json', 'utf8'));
// MTG_BUILD_OUTDIR builds elsewhere (bench/run.mjs measures a private copy that a concurrent
// `npm run build` cannot delete mid-run); the default is dist/.
const outdir = process.env.MTG_BUILD_OUTDIR || 'dist';

// commander requires node:child_process at load time, only to run stand-alone executable
// subcommands, which mtg never declares. Loading that builtin (it pulls in net, dgram, ...) costs
// 2-3 ms of every start (median of 15 cold `require('node:child_process')`, against a budget of
// about 15 ms over bare node): give commander a stand-in that loads the real module on first use.
const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(b) {
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: 'lazy-child-process', namespace: 'mtg-lazy' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'mtg-lazy' }, () => ({
      contents:
        'let real; module.exports = new Proxy({}, { get: (_, key) => (real ??= require("node:child_process"))[key] });',
      loader: 'js',
    }));
  },
};

// zod's namespace object (`import { z } from 'zod'`) re-exports every locale (`z.locales`), and a
// namespace object cannot be tree-shaken: 264 of the 456 kB of the zod chunk, compiled by every
// API command (bench figure b). mtg uses only English, the default that zod registers itself from
// locales/en.js: give `z.locales` just that one.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /[\\/]locales[\\/]index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: resolve(args.resolveDir, args.path), namespace: 'mtg-zod-locales' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'mtg-zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), 'en.js'))};`,
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

// undici's index.js loads everything it offers (fetch, WebSocket, caches, mocks, ...): 535 kB that
// every API command compiled before its first request (bench figure b), where the client needs two
// dispatchers and Dispatcher.request. Give src/api/client.ts just those, set up as index.js does
// (the api methods mixed into Dispatcher.prototype): 320 kB. Deep requires, so an undici that moves
// these files fails this build rather than mtg at run time.
const leanUndici = {
  name: 'lean-undici',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, (args) =>
      /[\\/]src[\\/]api[\\/]client\.ts$/.test(args.importer)
        ? { path: 'lean-undici', namespace: 'mtg-lean-undici' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'mtg-lean-undici' }, () => ({
      contents: [
        "const Dispatcher = require('undici/lib/dispatcher/dispatcher');",
        "Object.assign(Dispatcher.prototype, require('undici/lib/api'));",
        'module.exports = {',
        "  Agent: require('undici/lib/dispatcher/agent'),",
        "  EnvHttpProxyAgent: require('undici/lib/dispatcher/env-http-proxy-agent'),",
        "  Pool: require('undici/lib/dispatcher/pool'),",
        '};',
      ].join('\n'),
      resolveDir: process.cwd(),
      loader: 'js',
    }));
  },
};

// undici's client.js requires client-h2.js, which requires node:http2 at load time (and with it
// tls, http and crypto): on node 26, 20-50 ms of a one-page command that never speaks HTTP/2
// (undici negotiates h2 only with `allowH2`, which mtg never sets). Bundle it as is, but evaluate
// it on the first h2 connection: client.js calls it only then.
const lazyUndiciHttp2 = {
  name: 'lazy-undici-http2',
  setup(b) {
    b.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/.test(args.importer)
        ? { path: join(args.resolveDir, 'client-h2.js'), namespace: 'mtg-lazy-h2' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'mtg-lazy-h2' }, (args) => ({
      contents: `let real; module.exports = function connectH2(...args) { return (real ??= require(${JSON.stringify(args.path)}))(...args); };`,
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

// node:crypto costs 5-15 ms to load on node 26 (its module graph grew: webcrypto's algorithm
// tables, argon2, ...), and modules on every command's path import it for temporary file names
// (config/store.ts, output/sink.ts; the export's and the sandbox's hashes too). Give them functions
// that load it on first call. A name not listed here fails the build ("No matching export").
const lazyCrypto = {
  name: 'lazy-crypto',
  setup(b) {
    b.onResolve({ filter: /^node:crypto$/ }, (args) =>
      /[\\/]src[\\/]/.test(args.importer) ? { path: 'node:crypto', namespace: 'mtg-lazy-crypto' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'mtg-lazy-crypto' }, () => ({
      contents: [
        "const crypto = () => process.getBuiltinModule('node:crypto');",
        ...['randomBytes', 'createHash', 'createHmac', 'timingSafeEqual'].map(
          (name) => `export function ${name}(...args) { return crypto().${name}(...args); }`,
        ),
      ].join('\n'),
      loader: 'js',
    }));
  },
};

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

// Some CommonJS dependencies call require(); give the ESM bundle of help-build.ts one.
const requireBanner =
  "import { createRequire as __mtgCreateRequire } from 'node:module'; const require = __mtgCreateRequire(import.meta.url);";
const define = { __MTG_VERSION__: JSON.stringify(pkg.version) };

/** Bundles one of our modules as an ES module, with the build's defines, and imports it here. */
async function importBundled(entry) {
  const bundled = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    loader: { '.mustache': 'text' },
    target: 'node20.18',
    define,
    banner: { js: requireBanner },
    logLevel: 'warning',
  });
  const dir = await mkdtemp(join(tmpdir(), 'mtg-build-'));
  try {
    const file = join(dir, 'module.mjs');
    await writeFile(file, bundled.outputFiles[0].contents);
    return await import(pathToFileURL(file).href);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// dist/help.json: every command's --help, printed by commander from the program main.ts builds
// (src/cli/help-build.ts, bundled from the same sources with the same defines), so that entry.ts
// can answer `mtg <group> <command> --help` without loading commander and the tree (bench figure
// a: about 25 ms of a 55 ms start). A build that cannot render them fails.
async function writeHelpTexts() {
  const { buildHelpTexts } = await importBundled('src/cli/help-build.ts');
  await writeFile(join(outdir, 'help.json'), JSON.stringify(buildHelpTexts()));
}

// The output views (src/output/views.ts) as data: that module derives each resource's fields from
// the API's zod schemas, which made every command that prints anything build zod and all the
// schemas (~30 ms of CPU on node 26; `find` and `meetings list --offline` validate nothing else).
// The build runs it once and bundles what it returns instead: the same views, each call a fresh
// object as before, and no zod (test/e2e/prebuilt-views.test.ts compares them).
async function prebuiltViews() {
  const { RESOURCE_NAMES, viewFor } = await importBundled('src/output/views.ts');
  const views = RESOURCE_NAMES.map(
    (name) => `  ${JSON.stringify(name)}: () => (${JSON.stringify(viewFor(name))}),`,
  );
  const contents = [
    '// Generated by scripts/build.mjs from src/output/views.ts.',
    `const views = {\n${views.join('\n')}\n};`,
    `export const RESOURCE_NAMES = ${JSON.stringify(RESOURCE_NAMES)};`,
    'export function viewFor(resource) { return views[resource](); }',
  ].join('\n');
  return {
    name: 'prebuilt-views',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/]output[\\/]views\.ts$/ }, () => ({ contents, loader: 'js' }));
    },
  };
}

await rm(outdir, { recursive: true, force: true });
const views = await prebuiltViews();
// First as ES modules, for esbuild's code splitting (it splits only ES module output): files named
// .cjs already, so that the imports between them name the final files.
const { outputFiles } = await build({
  entryPoints: { cli: 'src/cli/bin.ts' },
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
    lazyUndiciHttp2,
    lazyCrypto,
    views,
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
