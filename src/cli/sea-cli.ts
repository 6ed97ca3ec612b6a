// The standalone binary's CLI (scripts/build-binary.mjs): src/cli/bin.ts bundled as one script,
// kept in the binary as an asset beside V8 code caches of it that the build makes by running the
// commands users run most (scripts/sea-train.ts): one cache for the commands that ask the API, one
// for those that read the mirror (cacheKind), so that each command deserializes only what its kind
// runs (find read 26 M instructions of cache instead of 31 M, bench/README.md's fifth round). Node's own `useCodeCache` compiles a script
// without running it, so its cache holds the top level only and every function a command calls was
// still parsed and compiled at each run (a third of a one-page command's instructions); this cache
// holds those functions compiled. The binary's main script (sea-main.ts, entry.ts) stays small:
// `--version` and help never compile or run the CLI.
import { createRequire } from 'node:module';
import { Script } from 'node:vm';
import { offlineFromEnv } from '../shared/offline.js';

/** The CLI's bundle as the build stores it: a function of what a CommonJS module is given. */
export function wrapCliBundle(bundle: string): string {
  return `(function (require, module, exports) {${bundle}\n})`;
}

/**
 * Compiled with the cache when V8 accepts it (same node, V8's default flags: the CLI sets its own
 * only once undici has loaded, src/cli/v8-flags.ts), from the source otherwise.
 */
export function compileCli(source: string, cachedData: Uint8Array | undefined): Script {
  return new Script(source, { filename: 'mtg-cli.js', cachedData });
}

/** The kinds of command the build makes a code cache for: each cache is `cli-<kind>.cache`. */
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

/** Run the CLI (its bin.ts: process.argv, the exit code). */
export function runCli(script: Script): void {
  const module = { exports: {} };
  // A require that finds files too (beside the binary: @napi-rs/keyring), as the package's does.
  script.runInThisContext()(createRequire(process.execPath), module, module.exports);
}
