// What the bench scripts share: the project's own TypeScript bundled for one run with esbuild — the
// sandbox that serves the figures (run by bench/sandbox-server.mjs in a process of its own) and the
// fixture that writes a bench mirror through src/mirror's own modules.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

async function bundle(entry, outfile, external = [], extra = {}) {
  const { build } = await import('esbuild');
  await build({
    ...(typeof entry === 'string' ? { entryPoints: [entry] } : { stdin: entry }),
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.18',
    external,
    logLevel: 'warning',
    ...extra,
  });
}

/** src/sandbox as one ES module at `outfile`, for bench/sandbox-server.mjs. */
export function bundleSandbox(outfile) {
  return bundle(join(ROOT, 'src', 'sandbox', 'index.ts'), outfile);
}

/**
 * bench/mirror-fixture.ts's buildFixture. Bundled beside this script, so that the driver's
 * require('better-sqlite3') resolves in the project.
 */
export async function loadMirrorFixture() {
  return (await loadSourceModule('bench/mirror-fixture.ts', ['better-sqlite3'])).buildFixture;
}

/** A module of the project (path from its root), bundled beside this script, loaded, and removed at once. */
export async function loadSourceModule(path, external = []) {
  const module = join(ROOT, 'bench', `.module-${process.pid}-${Date.now()}.mjs`);
  await bundle(join(ROOT, path), module, external);
  try {
    return await import(pathToFileURL(module).href);
  } finally {
    rmSync(module, { force: true });
  }
}

/**
 * TypeScript `contents` (imports from the project root, e.g. './src/mcp/server.js') bundled beside
 * this script with every package left to load as itself from node_modules (zod's cycles do not
 * survive a re-bundle), loaded, and removed at once: the module's exports.
 */
export async function loadSourceText(contents) {
  const module = join(ROOT, 'bench', `.source-${process.pid}-${Date.now()}.mjs`);
  await bundle({ contents, resolveDir: ROOT, loader: 'ts' }, module, [], {
    packages: 'external',
    loader: { '.mustache': 'text' },
  });
  try {
    return await import(pathToFileURL(module).href);
  } finally {
    rmSync(module, { force: true });
  }
}

/**
 * The CLI's run(argv, io, env) (src/cli/main.ts) and testIO (src/cli/io.ts), bundled from the same
 * sources as dist/ (same defines, same external drivers), for running many commands in one process:
 * the same code path as `mtg ARGS`, without a process start per command. Bundled beside this script
 * (so the drivers resolve in the project) and removed as soon as it is loaded.
 */
export async function loadCli() {
  const module = join(ROOT, 'bench', `.cli-${process.pid}.mjs`);
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  await bundle(
    {
      contents: "export { run } from './src/cli/main.ts';\nexport { testIO } from './src/cli/io.ts';\n",
      resolveDir: ROOT,
      loader: 'ts',
    },
    module,
    ['node:sqlite', 'better-sqlite3', 'jq-web'],
    {
      loader: { '.mustache': 'text' },
      define: { __MTG_VERSION__: JSON.stringify(version) },
      // Some CommonJS dependencies call require().
      banner: {
        js: "import { createRequire as __mtgCreateRequire } from 'node:module'; const require = __mtgCreateRequire(import.meta.url);",
      },
    },
  );
  try {
    return await import(pathToFileURL(module).href);
  } finally {
    rmSync(module, { force: true });
  }
}

/**
 * A private folder for one bench run (`work`, removed by the caller), its data folder (0700, as mtg
 * makes it) and the environment that points mtg at them and at nothing of the developer's.
 */
export function benchFolders(prefix) {
  const work = mkdtempSync(join(tmpdir(), prefix));
  const dataDir = join(work, 'data');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const env = {
    PATH: process.env.PATH,
    HOME: work,
    MTG_DATA_DIR: dataDir,
    MTG_CONFIG_DIR: join(work, 'config'),
  };
  return { work, dataDir, env };
}

/** The median of numbers. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
