// Run by scripts/build-binary.mjs, under the binary's own node: the CLI's bundle (MTG_SEA_TRAIN_SOURCE,
// as the binary stores it) compiled as the binary compiles it (src/cli/sea-cli.ts) with the cache of
// the runs before (MTG_SEA_TRAIN_CACHE, if it exists), run on this process's arguments; at exit, the
// code cache of everything compiled so far replaces that file. A cache V8 rejected fails the run.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { compileCli, runCli } from '../src/cli/sea-cli.js';
import { resetV8Flags } from '../src/cli/v8-flags.js';

const source = process.env.MTG_SEA_TRAIN_SOURCE;
const cacheFile = process.env.MTG_SEA_TRAIN_CACHE;
if (!source || !cacheFile) throw new Error('MTG_SEA_TRAIN_SOURCE and MTG_SEA_TRAIN_CACHE are required');
const cache = existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
const script = compileCli(readFileSync(source, 'utf8'), cache);
if (cache && script.cachedDataRejected) {
  process.stderr.write(`sea-train: V8 rejected the code cache ${cacheFile}\n`);
  process.exit(70);
}
// Written under V8's default flags, as the binary reads it (a command that sent set its own).
process.once('exit', () => {
  resetV8Flags();
  writeFileSync(cacheFile, script.createCachedData());
});
runCli(script);
