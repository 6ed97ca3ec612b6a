// What `require('./cli.cjs')` of entry.ts is in the standalone binary (scripts/build-binary.mjs):
// the CLI from the binary's assets, with the code cache of its kind of command (sea-cli.ts).
import { getRawAsset } from 'node:sea';
import { cacheFromAsset, cacheKind, compileCli, runCli } from './sea-cli.js';

// The build stores the script in ASCII: read as latin1, a copy, where utf8 would decode it.
const source = Buffer.from(getRawAsset('cli.js') as ArrayBuffer).toString('latin1');
const cache = getRawAsset(`cli-${cacheKind(process.argv.slice(2), process.env)}.cache`) as ArrayBuffer;
runCli(compileCli(source, cacheFromAsset(new Uint8Array(cache))));
