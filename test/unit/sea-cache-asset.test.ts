import { describe, expect, it } from 'vitest';
import { CACHE_ASSET_PAD, cacheAsset, cacheFromAsset } from '../../src/cli/sea-cli.js';

// The binary stores each code cache at an offset of its asset that the build picks so that V8 reads
// the cache in place (scripts/build-binary.mjs): whatever the offset, the binary must read back the
// very bytes the build trained, and every offset gives an asset of the same length (so that
// changing one moves no other asset).
describe("the binary's code cache assets", () => {
  const cache = Uint8Array.from({ length: 37 }, (_, i) => (i * 7 + 3) & 0xff);

  it('give back the cache at each offset 1-8, from assets of one length', () => {
    const lengths = new Set<number>();
    for (let offset = 1; offset <= CACHE_ASSET_PAD; offset++) {
      const asset = cacheAsset(cache, offset);
      lengths.add(asset.length);
      const back = cacheFromAsset(asset);
      expect(Array.from(back)).toEqual(Array.from(cache));
      // A view of the asset, at the offset the build chose: no copy.
      expect(back.buffer).toBe(asset.buffer);
      expect(back.byteOffset).toBe(offset);
    }
    expect([...lengths]).toEqual([cache.length + CACHE_ASSET_PAD]);
  });

  it('refuse an offset outside 1-8', () => {
    expect(() => cacheAsset(cache, 0)).toThrow(RangeError);
    expect(() => cacheAsset(cache, CACHE_ASSET_PAD + 1)).toThrow(RangeError);
  });
});
