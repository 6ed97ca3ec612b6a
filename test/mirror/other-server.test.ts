// Issue 20, item 4: a mirror holds the data of the server it was synced from. Read while another
// base URL is configured (flag, env or profile), every reader of the mirror refuses it (exit 2
// naming both), where it used to print server A's meetings as server B's; with no base URL
// configured the mirror's own is used, and the comparison ignores trailing slashes, the host's
// case and a default port. `mirror status` only shows it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMirror } from '../../src/mirror/open.js';
import { tempDir } from '../helpers/temp.js';
import { type MirrorEnv, mirrorEnv } from './helpers.js';

let m: MirrorEnv;
const OTHER = 'https://other.example:8443/api';

beforeAll(async () => {
  m = await mirrorEnv({ seed: 41 });
  const synced = await m.sync(['--no-transcripts']);
  expect(synced.code, synced.stderr).toBe(0);
}, 60_000);

afterAll(async () => {
  await m.sandbox.close();
});

const READS = [
  ['meetings', 'list', '--offline', '--json'],
  ['action-items', 'list', '--offline', '--json'],
  ['find', 'the', '--json'],
  ['sql', 'SELECT count(*) AS n FROM meetings', '--json'],
  ['changes', '--json'],
];

describe('a mirror of another base URL than the configured one', () => {
  it('is refused by every reader (exit 2, both URLs named, nothing on stdout)', async () => {
    const own = m.sandbox.baseUrl.replace(/\/+$/, '');
    const out = tempDir('mtg-other-export-');
    for (const args of [...READS, ['export', 'markdown', out, '--json']]) {
      const r = await m.mtg(args, { MTG_BASE_URL: OTHER });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr, args.join(' ')).toContain(own);
      expect(r.stderr, args.join(' ')).toContain(OTHER);
    }
    // --base-url (a flag) and the profile's stored base URL are configured base URLs too.
    const flagged = await m.mtg(['meetings', 'list', '--offline', '--json', '--base-url', OTHER]);
    expect(flagged.code).toBe(2);
    expect(flagged.stderr).toContain(OTHER);
    const set = await m.mtg(['config', 'set', 'base-url', OTHER], { MTG_BASE_URL: '' });
    expect(set.code, set.stderr).toBe(0);
    try {
      const stored = await m.mtg(['find', 'the', '--json'], { MTG_BASE_URL: '' });
      expect(stored.code).toBe(2);
      expect(stored.stderr).toContain(OTHER);
    } finally {
      expect((await m.mtg(['config', 'unset', 'base-url'], { MTG_BASE_URL: '' })).code).toBe(0);
    }
  });

  it('mirror status shows the base URL it holds instead of refusing', async () => {
    const r = await m.mtg(['mirror', 'status', '--json'], { MTG_BASE_URL: OTHER });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(r.stdout))).toContain(m.sandbox.baseUrl.replace(/\/+$/, ''));
  });
});

describe('the same base URL written differently, or none configured', () => {
  it('reads the mirror: trailing slash, host case and default port do not matter; no base URL uses the mirror’s', async () => {
    const url = new URL(m.sandbox.baseUrl);
    const variants = [
      `${m.sandbox.baseUrl.replace(/\/+$/, '')}/`,
      `${url.protocol}//${url.hostname.toUpperCase()}:${url.port}${url.pathname}`,
      '',
    ];
    const expected = (await m.mtg(['meetings', 'list', '--offline', '--json'])).stdout;
    expect(JSON.parse(expected).length).toBeGreaterThan(0);
    for (const base of variants) {
      for (const args of READS) {
        const r = await m.mtg(args, { MTG_BASE_URL: base });
        expect(r.code, `${base} ${args.join(' ')}: ${r.stderr}`).toBe(0);
      }
      expect((await m.mtg(READS[0]!, { MTG_BASE_URL: base })).stdout).toBe(expected);
    }
  });

  it('openMirror (what every reader, `mtg mcp` included, goes through) takes a default port as none', () => {
    const dir = tempDir('mtg-other-port-');
    openMirror({ profile: 'default', dataDir: dir, baseUrl: 'https://api.example.com/v1' }).close();
    openMirror({
      profile: 'default',
      dataDir: dir,
      readonly: true,
      baseUrl: 'HTTPS://API.Example.com:443/v1/',
    }).close();
    openMirror({ profile: 'default', dataDir: dir, readonly: true }).close();
    expect(() =>
      openMirror({
        profile: 'default',
        dataDir: dir,
        readonly: true,
        baseUrl: 'https://api.example.com:8443/v1',
      }),
    ).toThrow(
      /holds https:\/\/api\.example\.com\/v1, not the configured base URL https:\/\/api\.example\.com:8443\/v1/,
    );
  });
});
