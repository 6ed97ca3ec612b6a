// Schema 6 stores the sync's pass (passes, pass_lists) instead of inferring it from runs, walks
// and meta keys. A mirror that mtg of schema 5 left in the middle of its work (fixtures/*.sql, made
// by that mtg against the sandbox: see their headers) goes on after the upgrade where it stood:
// no request of the work already done is made again.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/mirror/driver.js';
import { type MirrorEnv, mirrorEnvs, readMirror, snapshotContent, sql } from './helpers.js';

const env = mirrorEnvs();
const SIZES = { meetings: 6, actionItems: 8, people: 5, companies: 3 };

/** The fixture's mirror of schema 5 as `m`'s data dir's mirror, pointing at `m`'s sandbox. */
function restore(m: MirrorEnv, fixture: string, tamper?: string): void {
  const text = readFileSync(join(import.meta.dirname, 'fixtures', fixture), 'utf8');
  const db = openDb(m.dbPath);
  try {
    db.exec(text.replaceAll('{{BASE_URL}}', m.sandbox.baseUrl.replace(/\/$/, '')));
    if (tamper) db.exec(tamper);
  } finally {
    db.close();
  }
}

/** The GETs the sandbox answered since request `from`, as "path" or "path?cursor". */
const gets = (m: MirrorEnv, from: number) =>
  m.sandbox.requests
    .slice(from)
    .filter((r) => r.method === 'GET')
    .map((r) => `${r.path}${r.query.has('cursor') ? '?cursor' : ''}`);

describe('a mirror of schema 5 in the middle of a pass, upgraded', () => {
  it.each([
    ['stopped at its --budget', undefined],
    // What a SIGKILL leaves: the run's row never finished.
    ['killed', 'UPDATE runs SET finished_at = NULL WHERE id = 2'],
  ])(
    '%s: the next budgeted sync goes on where it stood, each page of the pass fetched once',
    async (_how, tamper) => {
      const options = { seed: 41, pageSize: 2, sizes: SIZES };
      // One whole pass of the same server, for the pages it takes.
      const whole = await env(options);
      expect(JSON.parse((await whole.sync(['--no-transcripts'])).stdout).complete).toBe(true);
      const pass = gets(whole, 0);
      // The fixture's syncs fetched the meetings' 3 pages and the first 3 of the action items.
      expect(pass.slice(0, 7)).toEqual([
        '/meetings',
        '/meetings?cursor',
        '/meetings?cursor',
        '/action-items',
        '/action-items?cursor',
        '/action-items?cursor',
        '/action-items?cursor',
      ]);

      const m = await env(options);
      restore(m, 'mirror-v5-budget-chain.sql', tamper);
      const r = await m.sync(['--no-transcripts', '--budget', '100']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).complete).toBe(true);
      expect(r.stderr).toContain('they walked meetings to the end');
      expect(gets(m, 0)).toEqual(pass.slice(6));
      const { tombstones, transcripts: _m, ...mirrored } = readMirror(m.dbPath);
      const { transcripts: _s, ...server } = snapshotContent(m.sandbox);
      expect(mirrored).toEqual(server);
      expect(tombstones.meetings).toEqual([]);
      // The pass closed; nothing of schema 5's inference is left.
      expect(sql(m.dbPath, 'SELECT count(*) AS n FROM passes WHERE closed_at IS NULL')).toEqual([{ n: 0 }]);
      expect(sql(m.dbPath, "SELECT key FROM meta WHERE key LIKE '%chain%' OR key LIKE '%gone%'")).toEqual([]);
    },
    60_000,
  );

  it('a --full sync stopped at its budget: the next sync goes on with it, every transcript and company detail fetched again, the meetings not walked again', async () => {
    const m = await env({ seed: 42, pageSize: 2, sizes: SIZES });
    restore(m, 'mirror-v5-full-chain.sql');
    const r = await m.sync(['--budget', '100']);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.complete).toBe(true);
    expect(summary.transcripts.fetched).toBe(6);
    const sent = gets(m, 0);
    expect(sent.filter((p) => p.startsWith('/meetings'))).toEqual([]);
    expect(sent.filter((p) => p.startsWith('/company/'))).toHaveLength(3);
    // The --full pass is over: the sync after it fetches nothing again.
    const next = JSON.parse((await m.sync(['--budget', '100'])).stdout);
    expect(next).toMatchObject({ complete: true, transcripts: { fetched: 0 } });
  }, 60_000);
});
