// The standalone binary's CLI (scripts/build-binary.mjs): src/cli/bin.ts bundled as one script,
// kept in the binary as an asset beside a V8 code cache of it that the build makes by running the
// commands users run most (scripts/sea-train.ts). Node's own `useCodeCache` compiles a script
// without running it, so its cache holds the top level only and every function a command calls was
// still parsed and compiled at each run (a third of a one-page command's instructions); this cache
// holds those functions compiled. The binary's main script (sea-main.ts, entry.ts) stays small:
// `--version` and help never compile or run the CLI.
import { createRequire } from 'node:module';
import { Script } from 'node:vm';

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

/** Run the CLI (its bin.ts: process.argv, the exit code). */
export function runCli(script: Script): void {
  const module = { exports: {} };
  // A require that finds files too (beside the binary: @napi-rs/keyring), as the package's does.
  script.runInThisContext()(createRequire(process.execPath), module, module.exports);
}
