import { describe, expect, it } from 'vitest';
import { CACHE_KINDS, cacheAssetName, cacheKind } from '../../src/cli/sea-cli.js';

// The standalone binary starts each command with the code cache of its kind (src/cli/sea-load.ts);
// a wrong guess costs only compiles, so these check the guesses the build trains for.
describe('the binary picks the code cache of the command it runs', () => {
  it('the mirror commands, and any read under --offline or MTG_OFFLINE, take the mirror cache', () => {
    expect(cacheKind(['find', 'zanzibarium', '--format', 'json'], {})).toBe('mirror');
    expect(cacheKind(['--json', 'sql', 'SELECT 1'], {})).toBe('mirror');
    expect(cacheKind(['mirror', 'status'], {})).toBe('mirror');
    expect(cacheKind(['mcp'], {})).toBe('mirror');
    expect(cacheKind(['meetings', 'list', '--offline', '--limit', '20'], {})).toBe('mirror');
    expect(cacheKind(['meetings', 'list'], { MTG_OFFLINE: '1' })).toBe('mirror');
    expect(cacheKind(['meetings', 'list'], { MTG_OFFLINE: 'TRUE' })).toBe('mirror');
  });

  it('every other command takes the API cache', () => {
    expect(cacheKind(['action-items', 'list', '--assignee', 'anyone', '--limit', '1', '--json'], {})).toBe(
      'api',
    );
    expect(cacheKind(['meetings', 'list'], { MTG_OFFLINE: '0' })).toBe('api');
    // Only the command word counts: a query word that names a mirror command does not.
    expect(cacheKind(['meetings', 'search', 'find'], {})).toBe('api');
    expect(cacheKind([], {})).toBe('api');
    expect(CACHE_KINDS).toEqual(['api', 'mirror']);
  });
});

// Each of the CLI's files has, in the binary, the caches the build kept for it (no two equal): the
// kind's own when its training changed the file's cache, the untrained one when it did not, and
// another kind's only when that one holds all the kinds' (scripts/build-binary.mjs, cacheAssets).
describe("the binary picks each file's code cache", () => {
  const has =
    (...assets: string[]) =>
    (asset: string) =>
      assets.includes(asset);

  it("takes the kind's own cache first, then the untrained one, then another kind's", () => {
    const all = has('chunks/a.cjs@api.cache', 'chunks/a.cjs@mirror.cache', 'chunks/a.cjs.cache');
    expect(cacheAssetName('chunks/a.cjs', 'mirror', all)).toBe('chunks/a.cjs@mirror.cache');
    expect(cacheAssetName('chunks/a.cjs', 'api', all)).toBe('chunks/a.cjs@api.cache');
    // The mirror's training never ran this file's functions: its top level is what the mirror needs.
    const apiOnly = has('chunks/a.cjs@api.cache', 'chunks/a.cjs.cache');
    expect(cacheAssetName('chunks/a.cjs', 'mirror', apiOnly)).toBe('chunks/a.cjs.cache');
    // Both kinds trained it to the same cache: stored once, under the first kind.
    expect(cacheAssetName('chunks/a.cjs', 'mirror', has('chunks/a.cjs@api.cache'))).toBe(
      'chunks/a.cjs@api.cache',
    );
  });

  it("never takes another file's cache, and none when the file has none", () => {
    expect(cacheAssetName('cli.cjs', 'api', has('chunks/cli.cjs.cache', 'cli.cjs.js'))).toBeUndefined();
    expect(cacheAssetName('chunks/b.cjs', 'api', has('chunks/a.cjs@api.cache'))).toBeUndefined();
  });
});
