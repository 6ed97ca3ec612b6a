// What `require('./cli.cjs')` of entry.ts is in the standalone binary (scripts/build-binary.mjs):
// the CLI's files from the binary's assets, each with the code cache of its kind of command
// (sea-cli.ts).
import * as sea from 'node:sea';
import { cacheAssetName, cacheFromAsset, cacheKind, compileCli, runCli } from './sea-cli.js';

// (node 24.8+; @types/node of node 20 does not know it)
const { getAssetKeys, getRawAsset } = sea as typeof sea & { getAssetKeys(): string[] };
const kind = cacheKind(process.argv.slice(2), process.env);
const assets = new Set(getAssetKeys());
runCli((name) => {
  // The build stores each file in ASCII: read as latin1, a copy, where utf8 would decode it.
  const source = Buffer.from(getRawAsset(name) as ArrayBuffer).toString('latin1');
  const cacheName = cacheAssetName(name, kind, (asset) => assets.has(asset));
  const cache = cacheName ? cacheFromAsset(new Uint8Array(getRawAsset(cacheName) as ArrayBuffer)) : undefined;
  return compileCli(name, source, cache);
});
