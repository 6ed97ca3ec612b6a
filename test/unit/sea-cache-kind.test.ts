import { describe, expect, it } from 'vitest';
import { CACHE_KINDS, cacheKind } from '../../src/cli/sea-cli.js';

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
