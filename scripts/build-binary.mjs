// `npm run build:binary`: mtg as a standalone binary, Node's single executable application
// (`node --build-sea`), for the platform it runs on, into dist-binary/:
//   mtg                     the binary: the official node binary of NODE_VERSION (npm's
//                           node-<platform>-<arch> package, fetched once into the cache that
//                           scripts/node-lines.sh uses); its main script answers --version and
//                           help (src/cli/sea-main.ts, entry.ts), and the CLI's files are assets
//                           (cli.cjs and the chunks it requires on first use, as the package builds
//                           them: scripts/build-cli.mjs), each with V8 code caches (the API's
//                           commands', the mirror's) made by running the commonest commands at
//                           build time (src/cli/sea-cli.ts): those compile nothing at start, and
//                           each command reads only the files it requires
//   help.json               the pre-rendered help that answers --help without loading the CLI
//   node_modules/           what mtg loads from files at run time: @napi-rs/keyring and its native
//                           part (the credential store's helper), jq-web's jq.js and jq.wasm (--jq)
//   completions/, man/      as in the npm package
// The mirror uses node:sqlite, part of the binary. Run it on another platform to build for that one.
//
//   MTG_SEA_NODE=/path/to/node   use this node binary instead of fetching NODE_VERSION (same major)
import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { buildSplitCli } from './build-cli.mjs';
import { define, explicitUnicodeProperties, importBundled } from './build-plugins.mjs';

// The newest Node 26 (scripts/node-lines.sh pins the same; bump them together).
const NODE_VERSION = '26.10.0';
const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const outdir = join(root, process.env.MTG_BINARY_OUTDIR || 'dist-binary');
const started = Date.now();

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

// src/cli/entry.ts requires the CLI as './cli.cjs' (the package's second file): in the binary, the
// loader of the CLI's asset.
const cliFromAssets = {
  name: 'cli-from-assets',
  setup(b) {
    b.onResolve({ filter: /^\.\/cli\.cjs$/ }, () => ({ path: join(root, 'src', 'cli', 'sea-load.ts') }));
  },
};

const bundleOptions = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node26',
  minify: true,
  legalComments: 'none',
  // import() as require(): a script run by node:vm has no loader for import().
  supported: { 'dynamic-import': false },
  logLevel: 'warning',
};

// The commands whose functions each code cache holds compiled (each run adds what it compiled), by
// the kind of command that starts with that cache (src/cli/sea-cli.ts, cacheKind): the start-up
// figures of bench/startup.mjs (a one-page API command, find, the offline list) and a table. One
// cache for all four made find deserialize the API's functions too (31 M instructions of cache
// against 26 M). What is not here still runs, compiled at run time as before.
const TRAINING = {
  api: [
    ['action-items', 'list', '--assignee', 'anyone', '--limit', '1', '--json'],
    ['meetings', 'list', '--limit', '3'],
  ],
  mirror: [
    ['find', 'roadmap', '--format', 'json'],
    ['meetings', 'list', '--offline', '--limit', '20', '--format', 'json'],
  ],
};

// Node's options for the binary (its SEA config's execArgv; the training runs take them too, so
// that the caches are made and checked under them). None: a young generation of 8 MB from the start
// (--min-semi-space-size=8, issue 33's fifth round) saved find 19 M instructions of scavenges but
// cost it ~450 more page faults (fresh pages for the larger space), which this machine pays
// ~16 us each: find 213 -> 201 ms of CPU without it, the offline list 161 -> 148 ms (bench/README.md,
// sixth round).
const EXEC_ARGV = [];

/**
 * The code caches of the CLI's files (src/cli/sea-cli.ts), in `<cacheDir>/<kind>/<file>.cache` for
 * each kind of TRAINING, and `<cacheDir>/seed/` (each file compiled, not run: its top level): the
 * files in `source` run by scripts/sea-train.ts under the binary's node and options, against its
 * own sandbox (a mirror synced from it for the offline commands), in a private home; each training
 * run starts from the caches of the one before, the first from the seed.
 */
async function trainCodeCaches(node, work, source, cacheDir) {
  const trainer = join(work, 'sea-train.cjs');
  await build({ ...bundleOptions, entryPoints: [join(root, 'scripts', 'sea-train.ts')], outfile: trainer });
  const home = join(work, 'home');
  mkdirSync(join(home, 'config'), { recursive: true });
  const env = (caches, extra = {}) => ({
    PATH: process.env.PATH,
    HOME: home,
    MTG_CONFIG_DIR: join(home, 'config'),
    MTG_DATA_DIR: join(home, 'data'),
    MTG_SEA_TRAIN_SOURCE: source,
    MTG_SEA_TRAIN_CACHE: join(cacheDir, caches),
    ...extra,
  });
  // (a failed run's stderr is in execFileSync's error)
  const run = (args, caches, extra) =>
    execFileSync(node, [...EXEC_ARGV, trainer, ...args], {
      env: env(caches, extra),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  run([], 'seed', { MTG_SEA_TRAIN_MODE: 'seed' });
  for (const kind of Object.keys(TRAINING))
    cpSync(join(cacheDir, 'seed'), join(cacheDir, kind), { recursive: true });
  // The untrained runs' (the sandbox, the sync).
  const sandbox = spawn(node, [trainer, 'sandbox', '--json', '--limits', 'none'], {
    env: env('scratch'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const line = await new Promise((resolvePromise, reject) => {
      const timer = setTimeout(() => reject(new Error('the training sandbox did not start in 30 s')), 30_000);
      sandbox.once('exit', (code) => reject(new Error(`the training sandbox exited (${code})`)));
      createInterface({ input: sandbox.stdout }).once('line', (l) => {
        clearTimeout(timer);
        resolvePromise(l);
      });
    });
    const { baseUrl, apiKey } = JSON.parse(line);
    const api = { MTG_BASE_URL: baseUrl, MTG_API_KEY: apiKey };
    run(['sync'], 'scratch', api);
    for (const [kind, commands] of Object.entries(TRAINING)) {
      // The mirror's commands as a user reads a mirror offline: no base URL or key in the
      // environment (with them, find ran the configuration's other branches, and ~9 KB of functions
      // it runs without them were compiled at every start).
      for (const args of commands) run(args, kind, kind === 'mirror' ? {} : api);
      // Every file compiled with the cache as written, only for the check that V8 takes it.
      run([], kind, { MTG_SEA_TRAIN_MODE: 'check' });
    }
  } finally {
    sandbox.kill();
  }
}

/**
 * The code cache assets (src/cli/sea-cli.ts, cacheAssetName), name -> file: for each of the CLI's
 * files, `<file>@<kind>.cache` for each kind whose training changed its cache from the seed (a kind
 * whose cache equals an earlier kind's stores none), and `<file>.cache`, the seed, when a kind left
 * it as it was. No two are equal, so the build finds each once in the binary.
 */
function cacheAssets(files, cacheDir) {
  const assets = {};
  for (const name of files) {
    const seed = join(cacheDir, 'seed', `${name}.cache`);
    const seedBytes = readFileSync(seed);
    const stored = [];
    let seedUsed = false;
    for (const kind of Object.keys(TRAINING)) {
      const file = join(cacheDir, kind, `${name}.cache`);
      const bytes = readFileSync(file);
      if (bytes.equals(seedBytes)) seedUsed = true;
      else if (!stored.some((other) => other.equals(bytes))) {
        stored.push(bytes);
        assets[`${name}@${kind}.cache`] = file;
      }
    }
    if (seedUsed) assets[`${name}.cache`] = seed;
  }
  return assets;
}

/**
 * `node --build-sea` with each code cache at an address V8 reads it from in place (a multiple of
 * 8; src/cli/sea-cli.ts, cacheAsset). A first build stores each cache at offset 8 of its asset and
 * finds where the cache landed in the file (its address modulo 8 is its file offset's: a loaded
 * segment's addresses and file offsets agree modulo the page size); a second stores each at the
 * offset that aligns it. No asset changes length, so none moves: the second build's caches are
 * checked where they landed, and a build that could not align them fails.
 * `caches`: asset name -> the cache's file; `assetFiles`: asset name -> the file to write the asset
 * to (named in the SEA config); `blobBytes`: at least the size of everything the SEA blob holds.
 */
async function buildWithAlignedCaches(node, config, binary, caches, assetFiles, blobBytes) {
  const { cacheAsset, CACHE_ASSET_PAD } = await importBundled('src/cli/sea-cli.ts');
  const cacheOf = Object.fromEntries(
    Object.entries(caches).map(([name, file]) => [name, readFileSync(file)]),
  );
  // Where a cache is in the binary: its first 4 KB (V8's header, with the cache's length and
  // checksum, then its data) found once and only once; all of them are in the SEA blob, so after
  // the first the search is within the blob's size of it.
  const whereIs = (built, name, near) => {
    const head = cacheOf[name].subarray(0, 4096);
    const from = near === undefined ? 0 : Math.max(0, near - blobBytes);
    const to = near === undefined ? built.length : Math.min(built.length, near + blobBytes);
    const window = built.subarray(from, to);
    const at = window.indexOf(head);
    if (at < 0 || window.indexOf(head, at + 1) >= 0)
      throw new Error(`the code cache ${name} is not once in the binary`);
    return from + at;
  };
  const offsets = Object.fromEntries(Object.keys(caches).map((name) => [name, CACHE_ASSET_PAD]));
  for (const pass of ['find', 'align']) {
    for (const [name, file] of Object.entries(assetFiles))
      writeFileSync(file, cacheAsset(cacheOf[name], offsets[name]));
    execFileSync(node, ['--build-sea', config], { stdio: ['ignore', 'ignore', 'inherit'] });
    const built = readFileSync(binary);
    let near;
    for (const name of Object.keys(caches)) {
      const at = whereIs(built, name, near);
      near ??= at;
      if (pass === 'find') offsets[name] = CACHE_ASSET_PAD - ((at - offsets[name]) % CACHE_ASSET_PAD);
      else if (at % CACHE_ASSET_PAD !== 0)
        throw new Error(`the code cache ${name} landed at ${at}, not a multiple of ${CACHE_ASSET_PAD}`);
    }
  }
}

/**
 * The bundle with every non-ASCII character escaped (\uXXXX): esbuild leaves some in regular
 * expressions, and one of them made V8 hold the whole script as a two-byte string, which each scan
 * of it (lazy compiles, the line numbers of a stack trace) reads at twice the cost. Each of those
 * characters is in a string, a regular expression or a comment, where the escape means the same.
 */
function asciiOnly(text) {
  if (/\\[^\x00-\x7f]/.test(text))
    throw new Error('the CLI bundle escapes a non-ASCII character: see asciiOnly');
  return text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
const work = mkdtempSync(join(outdir, '.build-'));
try {
  const node = officialNode();
  // The CLI (src/cli/bin.ts) as the package builds it, cli.cjs and chunks/ (scripts/build-cli.mjs),
  // for this node; each file's import.meta.url the binary's own path, so that node_modules/ beside
  // it is where files are found (createRequire in src/mirror/driver.ts, keychain.ts, jq.ts).
  const split = join(work, 'split');
  const built = await buildSplitCli({
    outdir: split,
    target: 'node26',
    sourcemap: false,
    moduleUrl: 'process.execPath',
    plugins: [explicitUnicodeProperties(node)],
  });
  const { wrapCliBundle, CACHE_KINDS } = await importBundled('src/cli/sea-cli.ts');
  // The binary asks for `<file>@<kind>.cache` of every kind it can guess (sea-load.ts).
  if (Object.keys(TRAINING).join() !== CACHE_KINDS.join())
    throw new Error(`TRAINING's kinds (${Object.keys(TRAINING)}) are not sea-cli.ts's (${CACHE_KINDS})`);
  // Each file as the binary stores it (asset name: its path under split/, with /).
  const source = join(work, 'cli');
  const files = built.map((file) => relative(split, file).split('\\').join('/'));
  for (const name of files) {
    mkdirSync(dirname(join(source, name)), { recursive: true });
    writeFileSync(join(source, name), wrapCliBundle(asciiOnly(readFileSync(join(split, name), 'utf8'))));
  }
  const cacheDir = join(work, 'caches');
  await trainCodeCaches(node, work, source, cacheDir);
  const caches = cacheAssets(files, cacheDir);

  const main = join(work, 'main.cjs');
  await build({
    ...bundleOptions,
    entryPoints: [join(root, 'src', 'cli', 'sea-main.ts')],
    outfile: main,
    // entry.ts turns node's compile cache on in the package only: the binary has its own caches.
    define: { ...define, __MTG_SEA__: 'true' },
    plugins: [cliFromAssets],
  });
  const binary = join(outdir, process.platform === 'win32' ? 'mtg.exe' : 'mtg');
  const config = join(work, 'sea-config.json');
  // Each cache asset's file, rewritten by buildWithAlignedCaches.
  const cacheAssetFiles = Object.fromEntries(
    Object.keys(caches).map((name, i) => [name, join(work, `cache-asset-${i}`)]),
  );
  writeFileSync(
    config,
    JSON.stringify({
      main,
      output: binary,
      executable: node,
      disableExperimentalSEAWarning: true,
      // The main script's own (small) cache; the CLI's are assets.
      useCodeCache: true,
      execArgv: EXEC_ARGV,
      assets: {
        ...Object.fromEntries(files.map((name) => [name, join(source, name)])),
        ...cacheAssetFiles,
      },
    }),
  );
  const blobBytes = [main, ...files.map((name) => join(source, name)), ...Object.values(caches)]
    .map((file) => statSync(file).size)
    .reduce((a, b) => a + b, 64 * 1024 + 2 * Object.keys(caches).length * 1024);
  await buildWithAlignedCaches(node, config, binary, caches, cacheAssetFiles, blobBytes);
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
