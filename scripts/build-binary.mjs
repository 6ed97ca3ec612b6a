// `npm run build:binary`: mtg as a standalone binary, Node's single executable application
// (`node --build-sea`), for the platform it runs on, into dist-binary/:
//   mtg                     the binary: the official node binary of NODE_VERSION (npm's
//                           node-<platform>-<arch> package, fetched once into the cache that
//                           scripts/node-lines.sh uses) with the whole CLI in one script and its
//                           V8 code cache (nothing is parsed at start)
//   help.json               the pre-rendered help that answers --help without loading the CLI
//   node_modules/           what mtg loads from files at run time: @napi-rs/keyring and its native
//                           part (the credential store's helper), jq-web's jq.js and jq.wasm (--jq)
//   completions/, man/      as in the npm package
// The mirror uses node:sqlite, part of the binary. Run it on another platform to build for that one.
//
//   MTG_SEA_NODE=/path/to/node   use this node binary instead of fetching NODE_VERSION (same major)
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import {
  define,
  importBundled,
  lazyChildProcessForCommander,
  lazyCrypto,
  lazyUndiciHttp2,
  leanUndici,
  prebuiltValidators,
  prebuiltViews,
  undiciWithoutHttp,
  zodEnglishOnly,
} from './build-plugins.mjs';

// The newest Node 26 (scripts/node-lines.sh pins the same; bump them together).
const NODE_VERSION = '26.10.0';
const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const outdir = join(root, process.env.MTG_BINARY_OUTDIR || 'dist-binary');
const started = Date.now();
// MTG_SEA_SNAPSHOT=1 builds with a start-up snapshot holding zod, the schemas and commander already
// loaded (src/cli/sea-warm.ts). Not the default: it measured slower (node 26.10, CPU, 11 interleaved
// rounds: --version 1.38x against 1.16x `node -e ""` with the code cache alone, a one-page command
// 2.37x against 2.34x): deserializing the larger heap costs every run what loading those modules
// saves the runs that use them, and undici, the largest, cannot be in it (node's snapshot builder
// aborts: CheckGlobalAndEternalHandles). bench/README.md has the figures.
const SNAPSHOT = process.env.MTG_SEA_SNAPSHOT === '1';

/** The official node binary, fetched once per version (npm pack: the registry npm ci uses). */
function officialNode() {
  if (process.env.MTG_SEA_NODE) return process.env.MTG_SEA_NODE;
  const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'mtg-node');
  const dir = join(cache, `v${NODE_VERSION}`);
  const node = join(dir, 'package', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!existsSync(node)) {
    mkdirSync(cache, { recursive: true });
    const tmp = mkdtempSync(join(cache, `.v${NODE_VERSION}.`));
    try {
      const pkg = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}@${NODE_VERSION}`;
      const file = execFileSync('npm', ['pack', '--silent', pkg], { cwd: tmp, encoding: 'utf8' }).trim();
      execFileSync('tar', ['-xzf', file], { cwd: tmp });
      rmSync(join(tmp, file));
      renameSync(tmp, dir);
    } catch (err) {
      rmSync(tmp, { recursive: true, force: true });
      if (!existsSync(node)) throw err; // another build got there first otherwise
    }
  }
  return node;
}

// src/cli/entry.ts requires the CLI as './cli.cjs' (the package's second file): here it is
// bundled in, from its source.
const cliInOneFile = {
  name: 'cli-in-one-file',
  setup(b) {
    b.onResolve({ filter: /^\.\/cli\.cjs$/ }, () => ({ path: join(root, 'src', 'cli', 'bin.ts') }));
  },
};

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
const work = mkdtempSync(join(outdir, '.build-'));
try {
  const main = join(work, 'main.cjs');
  // One CommonJS file: what the package splits into chunks (required on first use) becomes lazy
  // initialisers in the same file, so the same modules run, only when used.
  await build({
    entryPoints: [join(root, 'src', 'cli', 'sea-main.ts')],
    outfile: main,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node26',
    minify: true,
    legalComments: 'none',
    loader: { '.mustache': 'text' },
    // better-sqlite3 is the driver of node < 22.13 only; jq-web is loaded from node_modules/ beside
    // the binary by its path (src/cli/jq.ts).
    external: ['node:sqlite', 'better-sqlite3', 'jq-web'],
    // import.meta.url (createRequire in src/mirror/driver.ts, keychain.ts, jq.ts): the binary's
    // own path, so that node_modules/ beside it is where files are found.
    define: { ...define, 'import.meta.url': '__mtgModuleUrl' },
    banner: { js: "const __mtgModuleUrl = require('node:url').pathToFileURL(process.execPath).href;" },
    plugins: [
      cliInOneFile,
      lazyChildProcessForCommander,
      zodEnglishOnly,
      leanUndici,
      undiciWithoutHttp,
      lazyUndiciHttp2,
      lazyCrypto,
      await prebuiltViews(),
      await prebuiltValidators(),
    ],
    logLevel: 'warning',
  });
  const config = join(work, 'sea-config.json');
  writeFileSync(
    config,
    JSON.stringify({
      main,
      output: join(outdir, process.platform === 'win32' ? 'mtg.exe' : 'mtg'),
      executable: officialNode(),
      disableExperimentalSEAWarning: true,
      useSnapshot: SNAPSHOT,
      // (node ignores the code cache with a snapshot: the snapshot holds the compiled code)
      useCodeCache: !SNAPSHOT,
    }),
  );
  execFileSync(officialNode(), ['--build-sea', config], { stdio: ['ignore', 'ignore', 'inherit'] });

  const { buildHelpTexts } = await importBundled('src/cli/help-build.ts');
  writeFileSync(join(outdir, 'help.json'), JSON.stringify(buildHelpTexts()));
  const modules = join(root, 'node_modules');
  const keyrings = readdirSync(join(modules, '@napi-rs')).filter((name) => name.startsWith('keyring'));
  for (const name of keyrings)
    cpSync(join(modules, '@napi-rs', name), join(outdir, 'node_modules', '@napi-rs', name), {
      recursive: true,
    });
  for (const file of ['package.json', 'jq.js', 'jq.wasm', 'LICENSE'])
    cpSync(join(modules, 'jq-web', file), join(outdir, 'node_modules', 'jq-web', file));
  for (const dir of ['completions', 'man']) cpSync(join(root, dir), join(outdir, dir), { recursive: true });
  for (const file of ['README.md', 'LICENSE'])
    if (existsSync(join(root, file))) cpSync(join(root, file), join(outdir, file));
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.stderr.write(
  `built ${outdir} (node ${NODE_VERSION}, ${((Date.now() - started) / 1000).toFixed(0)} s)\n`,
);
