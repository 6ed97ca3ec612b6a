// The standalone binary's CLI (scripts/build-binary.mjs): src/cli/bin.ts built as the package
// builds it (scripts/build-cli.mjs: `cli.cjs` and the chunks it requires on first use), each file an
// asset of the binary with V8 code caches of it that the build makes by running the commands users
// run most (scripts/sea-train.ts): one for the commands that ask the API, one for those that read
// the mirror (cacheKind). A command compiles and deserializes only the files it requires: `find`
// never reads undici, zod, yaml or the MCP SDK, which were ~935 KB of the one 1.6 MB script before
// (bench/README.md, issue 33's seventh round). Node's own `useCodeCache` compiles a script
// without running it, so its cache holds the top level only and every function a command calls was
// still parsed and compiled at each run (a third of a one-page command's instructions); these caches
// hold those functions compiled. The binary's main script (sea-main.ts, entry.ts) stays small:
// `--version` and help never compile or run the CLI.
import { createRequire } from 'node:module';
import { posix } from 'node:path';
import { Script } from 'node:vm';
import { offlineFromEnv } from '../shared/offline.js';

/** The CLI's first file, among its assets (the others are the chunks it requires). */
export const CLI_MAIN = 'cli.cjs';

/** One of the CLI's files as the build stores it: a function of what a CommonJS module is given. */
export function wrapCliBundle(bundle: string): string {
  return `(function (require, module, exports) {${bundle}\n})`;
}

/**
 * Compiled with the cache when V8 accepts it (same node, V8's default flags: the CLI sets its own
 * only once undici has loaded, src/cli/v8-flags.ts), from the source otherwise.
 */
export function compileCli(name: string, source: string, cachedData: Uint8Array | undefined): Script {
  return new Script(source, { filename: `mtg:${name}`, cachedData });
}

/** The kinds of command the build makes code caches for (cacheAssetName). */
export const CACHE_KINDS = ['api', 'mirror'] as const;
export type CacheKind = (typeof CACHE_KINDS)[number];

// The commands that read the mirror, and never or seldom the API.
const MIRROR_COMMANDS = new Set(['find', 'sql', 'mirror', 'mcp']);

/**
 * Which cache a command line starts with: 'mirror' for the mirror's commands and under --offline
 * or MTG_OFFLINE, 'api' otherwise. A guess from the words alone (commander has not parsed them):
 * either cache is of the same script, so a wrong guess only compiles at run time what the other
 * cache held.
 */
export function cacheKind(argv: readonly string[], env: NodeJS.ProcessEnv): CacheKind {
  const command = argv.find((word) => !word.startsWith('-'));
  const offline = argv.includes('--offline') || offlineFromEnv(env);
  return offline || (command !== undefined && MIRROR_COMMANDS.has(command)) ? 'mirror' : 'api';
}

/**
 * The asset that holds the code cache of the CLI's file `name` for a command of `kind`, if any:
 * `<name>@<kind>.cache` when the build trained one for that kind, else `<name>.cache` (the file's
 * top level only, for files no training run of that kind required), else another kind's. The build
 * stores no two equal caches (scripts/build-binary.mjs, cacheAssets): a kind whose training left a
 * file's cache as the untrained one has no cache of its own, and a cache equal for every kind is
 * stored under the first.
 */
export function cacheAssetName(
  name: string,
  kind: CacheKind,
  has: (asset: string) => boolean,
): string | undefined {
  const candidates = [
    `${name}@${kind}.cache`,
    `${name}.cache`,
    ...CACHE_KINDS.filter((other) => other !== kind).map((other) => `${name}@${other}.cache`),
  ];
  return candidates.find(has);
}

/**
 * A code cache as the binary stores it: CACHE_ASSET_PAD bytes more than the cache, the first byte
 * the cache's offset in the asset (1-8), the cache at that offset, zeros around it. V8 reads a
 * cache in place only at an address that is a multiple of 8 and copies it first otherwise (the
 * mirror's 850 KB into fresh pages at every start: ~210 page faults); node lays out a binary's
 * assets one after another, at whatever address, so the build picks each cache's offset once it
 * knows where its asset landed (scripts/build-binary.mjs), without changing any asset's length.
 */
export const CACHE_ASSET_PAD = 8;

export function cacheAsset(cache: Uint8Array, offset: number): Uint8Array {
  if (!Number.isInteger(offset) || offset < 1 || offset > CACHE_ASSET_PAD)
    throw new RangeError(`a cache's offset in its asset is 1-${CACHE_ASSET_PAD}, not ${offset}`);
  const asset = new Uint8Array(cache.length + CACHE_ASSET_PAD);
  asset[0] = offset;
  asset.set(cache, offset);
  return asset;
}

/** The code cache in an asset of cacheAsset, as a view of it (no copy). */
export function cacheFromAsset(asset: Uint8Array): Uint8Array {
  const offset = asset[0] ?? 0;
  return asset.subarray(offset, asset.length - CACHE_ASSET_PAD + offset);
}

/**
 * Run the CLI: its first file, and each file it requires by a relative path, compiled by
 * `compile(name)` (`cli.cjs`, `chunks/chunk-XYZ.cjs`) and run once, as node's require does
 * (a module is in the table before it runs, so that a cycle gets its exports so far). Anything
 * else (node's modules, node:sqlite, @napi-rs/keyring beside the binary) is node's own require's.
 */
export function runCli(compile: (name: string) => Script): void {
  const nodeRequire = createRequire(process.execPath);
  const modules = new Map<string, { exports: unknown }>();
  const requireFrom =
    (dir: string) =>
    (id: string): unknown => {
      if (!id.startsWith('./') && !id.startsWith('../')) return nodeRequire(id);
      const name = posix.join(dir, id);
      const known = modules.get(name);
      if (known) return known.exports;
      const module = { exports: {} };
      modules.set(name, module);
      try {
        compile(name).runInThisContext()(requireFrom(posix.dirname(name)), module, module.exports);
      } catch (err) {
        modules.delete(name);
        throw err;
      }
      return module.exports;
    };
  requireFrom('.')(`./${CLI_MAIN}`);
}
