// Run by scripts/build-binary.mjs, under the binary's own node, on the CLI's files as the binary
// stores them (MTG_SEA_TRAIN_SOURCE, a folder: cli.cjs, chunks/*.cjs) and a folder of code caches
// (MTG_SEA_TRAIN_CACHE: `<file>.cache` each), compiled as the binary compiles them
// (src/cli/sea-cli.ts):
//   MTG_SEA_TRAIN_MODE=seed    every file compiled, not run: its cache (the top level) written
//   MTG_SEA_TRAIN_MODE=check   every file compiled with its cache: fails if V8 rejects one
//   (otherwise)                the CLI run on this process's arguments, each file it requires
//                              compiled with its cache; at exit, each of those files' caches
//                              rewritten with everything compiled so far
// A cache V8 rejected fails the run.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Script } from 'node:vm';
import { compileCli, runCli } from '../src/cli/sea-cli.js';
import { resetV8Flags } from '../src/cli/v8-flags.js';

const sourceDir = process.env.MTG_SEA_TRAIN_SOURCE;
const cacheDir = process.env.MTG_SEA_TRAIN_CACHE;
if (!sourceDir || !cacheDir) throw new Error('MTG_SEA_TRAIN_SOURCE and MTG_SEA_TRAIN_CACHE are required');
const mode = process.env.MTG_SEA_TRAIN_MODE;
const cacheOf = (name: string) => join(cacheDir, `${name}.cache`);

const compiled = new Map<string, Script>();
function compile(name: string, withCache = true): Script {
  const file = cacheOf(name);
  const cache = withCache && existsSync(file) ? readFileSync(file) : undefined;
  const script = compileCli(name, readFileSync(join(sourceDir as string, name), 'utf8'), cache);
  if (cache && script.cachedDataRejected) {
    process.stderr.write(`sea-train: V8 rejected the code cache ${file}\n`);
    process.exit(70);
  }
  compiled.set(name, script);
  return script;
}
function writeCaches() {
  // Written under V8's default flags, as the binary reads them (a command that sent set its own).
  resetV8Flags();
  for (const [name, script] of compiled) {
    mkdirSync(dirname(cacheOf(name)), { recursive: true });
    writeFileSync(cacheOf(name), script.createCachedData());
  }
}

if (mode === 'seed' || mode === 'check') {
  const names = (readdirSync(sourceDir, { recursive: true }) as string[]).filter((n) => n.endsWith('.cjs'));
  for (const name of names) compile(name.split('\\').join('/'), mode === 'check');
  if (mode === 'seed') writeCaches();
} else {
  process.once('exit', writeCaches);
  runCli((name) => compile(name));
}
