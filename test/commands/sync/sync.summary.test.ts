// What `mtg sync` reports: one --json summary even when it stops early (--max-wait), a first sync
// that fails pins nothing and claims nothing, transcripts gone (404) mid-sync are not pending, and
// the progress counts in the singular. (A sync stopped by SIGINT: test/e2e/sync-killed.test.ts.)
import { describe, expect, it } from 'vitest';
import { openDb } from '../../../src/mirror/driver.js';
import { waitUntil } from '../../hardening/helpers.js';
import { mirrorEnvs } from '../../mirror/helpers.js';

/** mirrorEnv(), each stopped after this file's tests. */
const env = mirrorEnvs();

describe('mtg sync --json when it stops early', () => {
  it('--max-wait (exit 5) still prints one summary object with complete: false and the counts so far', async () => {
    const m = await env({ seed: 22, limits: '3/10s' });
    const r = await m.sync(['--max-wait', '1']);
    expect(r.code).toBe(5);
    const summary = JSON.parse(r.stdout);
    expect(summary.complete).toBe(false);
    expect(summary.requests).toBe(3);
    expect(summary.meetings.total).toBeGreaterThan(0);
    expect(r.stderr).toMatch(/keeps what this sync committed/);
  });
});

describe('a first sync that fails', () => {
  it('does not pin the mirror to its base URL, and does not claim to keep what it committed', async () => {
    const m = await env({ seed: 24 });
    const refused = await m.sync([], { MTG_BASE_URL: 'http://127.0.0.1:1' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).not.toMatch(/keeps what this sync committed/);
    const unauthorized = await m.sync([], { MTG_API_KEY: 'not-the-key' });
    expect(unauthorized.code).not.toBe(0);
    expect(unauthorized.stderr).not.toMatch(/keeps what this sync committed/);
    const r = await m.sync();
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).meetings.total).toBe(12);
    const status = await m.mtg(['mirror', 'status', '--json']);
    expect(JSON.parse(status.stdout).baseUrl).toBe(m.sandbox.baseUrl.replace(/\/+$/, ''));
  });
});

describe('transcripts answering 404 during a sync', () => {
  it('are not counted as pending by the summary, as the progress does not count them as left', async () => {
    const m = await env({
      seed: 29,
      limits: '8/1s',
      sizes: { meetings: 40, actionItems: 10, people: 6, companies: 3 },
    });
    // In this process: the sandbox changes while the sync runs.
    const run = m.sync();
    const transcriptAsked = (id: string) =>
      m.sandbox.requests.some((r) => r.path === `/meeting/${encodeURIComponent(id)}/transcript`);
    await waitUntil(
      () => m.sandbox.requests.some((r) => r.path.endsWith('/transcript')),
      30_000,
      'the first transcript request',
    );
    const gone: string[] = [];
    for (let round = 0; round < 200 && gone.length < 3; round++) {
      for (const id of m.sandbox.churn(1).meetings.deleted) if (!transcriptAsked(id)) gone.push(id);
    }
    expect(gone.length).toBeGreaterThanOrEqual(3);
    const { code, stdout } = await run;
    expect(code).toBe(0);
    const notFound = m.sandbox.requests.filter((r) => r.path.endsWith('/transcript') && r.status === 404);
    expect(notFound.length).toBeGreaterThanOrEqual(3);
    expect(JSON.parse(stdout).transcripts.pending).toBe(0);
  });
});

describe('sync progress wording', () => {
  it('counts one transcript and one request in the singular', async () => {
    // Every list on one page: the meetings walk ends after one request.
    const m = await env({ pageSize: 100 });
    const first = await m.sync(['--verbose']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/Syncing meetings: 12 \(1 page, 1 request so far\)/);
    // One transcript missing: the next sync has one left to fetch, and its first walk one request.
    const db = openDb(m.dbPath);
    db.exec('DELETE FROM transcripts WHERE rowid = (SELECT min(rowid) FROM transcripts)');
    db.close();
    const r = await m.sync(['--verbose']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/; 1 transcript left[;,]/);
    expect(r.stderr).not.toMatch(/\b1 (transcripts|requests)\b/);
  });
});
