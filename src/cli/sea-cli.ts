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

/** Run the CLI (its bin.ts: process.argv, the exit code). */
export function runCli(script: Script): void {
  const module = { exports: {} };
  // A require that finds files too (beside the binary: @napi-rs/keyring), as the package's does.
  script.runInThisContext()(createRequire(process.execPath), module, module.exports);
}
