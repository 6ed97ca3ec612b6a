// Fixes from the QA pass on the mirror commands: what mtg refuses to delete, what sync prints when it
// stops early, which options it refuses, and the messages people act on.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/mirror/driver.js';
import { spawnCli, waitUntil } from '../hardening/helpers.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { type MirrorEnv, mirrorEnv } from './helpers.js';

const opened: MirrorEnv[] = [];
afterAll(async () => {
  await Promise.all(opened.map((m) => m.sandbox.close()));
});

async function env(options: Parameters<typeof mirrorEnv>[0] = {}): Promise<MirrorEnv> {
  const m = await mirrorEnv(options);
  opened.push(m);
  return m;
}

function localMtg(dataDir: string, args: string[]) {
  return runCli(args, { env: { MTG_DATA_DIR: dataDir, MTG_CONFIG_DIR: tempConfigDir() } });
}

describe('mtg mirror reset', () => {
  it("refuses another program's database and a non-SQLite file (exit 2, file untouched); --force deletes", async () => {
    const dir = tempDir('mtg-foreign-');
    const path = join(dir, 'default.db');
    const db = openDb(path);
    db.exec('CREATE TABLE precious (x TEXT)');
    db.prepare('INSERT INTO precious VALUES (?)').run('keep me');
    db.close();
    const before = readFileSync(path);
    const r = await localMtg(dir, ['mirror', 'reset']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(path);
    expect(r.stderr).toMatch(/not an mtg mirror \(another program's SQLite database\)/);
    expect(readFileSync(path).equals(before)).toBe(true);

    writeFileSync(path, Buffer.alloc(4096, 7));
    const sync = await localMtg(dir, ['mirror', 'status']);
    expect(sync.code).toBe(2);
    expect(sync.stderr).toMatch(/not an mtg mirror/);
    expect(sync.stderr).not.toMatch(/mirror reset`/);
    const bytes = await localMtg(dir, ['mirror', 'reset']);
    expect(bytes.code).toBe(2);
    expect(bytes.stderr).toMatch(/not an SQLite database/);
    expect(existsSync(path)).toBe(true);

    const forced = await localMtg(dir, ['mirror', 'reset', '--force']);
    expect(forced.code).toBe(0);
    expect(existsSync(path)).toBe(false);
  });

  it('still deletes an mtg mirror', async () => {
    const m = await env({ seed: 21 });
    expect((await m.sync()).code).toBe(0);
    const r = await m.mtg(['mirror', 'reset']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Deleted the mirror of profile default/);
    expect(existsSync(m.dbPath)).toBe(false);
  });
});

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

  it('SIGINT (exit 130) still prints the summary object', async () => {
    const m = await env({ seed: 23, limits: '2/1s' });
    const run = spawnCli(['sync', '--json'], m.env);
    await waitUntil(() => m.sandbox.requests.length >= 3, 20_000, 'three requests');
    run.child.kill('SIGINT');
    const { code } = await run.done;
    expect(code).toBe(130);
    const summary = JSON.parse(run.stdout());
    expect(summary.complete).toBe(false);
    expect(summary.requests).toBeGreaterThanOrEqual(3);
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

describe('options that would do nothing are refused', () => {
  it('sync: an empty --only value, -o without --json, --fields and --limit: exit 2 before any request; -o with --json writes the summary', async () => {
    const m = await env({ seed: 25 });
    for (const args of [
      ['sync', '--only', ''],
      ['sync', '--only', 'meetings,,people'],
      ['sync', '-o', join(m.dataDir, 'summary.json')],
      ['sync', '--fields', 'id'],
      ['sync', '--limit', '3'],
    ]) {
      const r = await m.mtg(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    expect(m.sandbox.requests).toHaveLength(0);
    expect(existsSync(join(m.dataDir, 'summary.json'))).toBe(false);
    const file = join(m.dataDir, 'summary.json');
    const r = await m.mtg(['sync', '--json', '-o', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(JSON.parse(readFileSync(file, 'utf8')).complete).toBe(true);
  });

  it('mirror status and sql --schema: --fields, --limit and formats they cannot print are refused', async () => {
    const m = await env({ seed: 26 });
    expect((await m.sync()).code).toBe(0);
    for (const args of [
      ['mirror', 'status', '--fields', 'path'],
      ['mirror', 'status', '--limit', '1'],
      ['mirror', 'status', '--format', 'csv'],
      ['sql', '--schema', '--limit', '1'],
      ['sql', '--schema', '--json'],
    ]) {
      const r = await m.mtg(args);
      expect(r.code, args.join(' ')).toBe(2);
    }
  });
});

describe('MTG_DATA_DIR pointing at a file', () => {
  it('every mirror command says so (exit 2) and leaves the file alone', async () => {
    const m = await env({ seed: 27 });
    const file = join(m.dataDir, 'afile');
    writeFileSync(file, 'not a folder\n');
    for (const args of [
      ['sync'],
      ['changes'],
      ['mirror', 'status'],
      ['mirror', 'reset'],
      ['find', 'roadmap'],
      ['sql', 'SELECT 1'],
      ['meetings', 'list', '--offline'],
    ]) {
      const r = await m.mtg(args, { MTG_DATA_DIR: file });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain(`MTG_DATA_DIR ${file} is a file, not a folder`);
    }
    expect(readFileSync(file, 'utf8')).toBe('not a folder\n');
    expect(m.sandbox.requests).toHaveLength(0);
  });
});

describe('mtg changes --since', () => {
  it('a run that does not exist is exit 2 naming the latest; a bad value lists last and a run number', async () => {
    const m = await env({ seed: 28 });
    expect((await m.sync()).code).toBe(0);
    const missing = await m.mtg(['changes', '--since', '99', '--json']);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/no sync run 99 \(the latest is 1\)/);
    expect((await m.mtg(['changes', '--since', '1', '--json'])).code).toBe(0);
    const bogus = await m.mtg(['changes', '--since', 'bogus']);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toMatch(/last/);
    expect(bogus.stderr).toMatch(/run number/);
    expect(bogus.stderr).toMatch(/7d/);
  });
});

describe('transcripts answering 404 during a sync', () => {
  it('are not counted as pending by the summary, as the progress does not count them as left', async () => {
    const m = await env({
      seed: 29,
      limits: '8/1s',
      sizes: { meetings: 40, actionItems: 10, people: 6, companies: 3 },
    });
    const run = spawnCli(['sync', '--json'], m.env);
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
    const { code } = await run.done;
    expect(code).toBe(0);
    const notFound = m.sandbox.requests.filter((r) => r.path.endsWith('/transcript') && r.status === 404);
    expect(notFound.length).toBeGreaterThanOrEqual(3);
    expect(JSON.parse(run.stdout()).transcripts.pending).toBe(0);
  });
});

describe('a sync killed with SIGKILL', () => {
  it('leaves its request count so far in the mirror (mirror status)', async () => {
    const m = await env({ seed: 30, limits: '10/1s' });
    const run = spawnCli(['sync', '--quiet'], m.env);
    await waitUntil(() => m.sandbox.requests.length >= 12, 30_000, 'twelve requests');
    run.child.kill('SIGKILL');
    await run.done;
    const sent = m.sandbox.requests.length;
    const r = await m.mtg(['mirror', 'status', '--json']);
    expect(r.code).toBe(0);
    const last = JSON.parse(r.stdout).lastSync;
    expect(last.finishedAt).toBeNull();
    // Counted with each committed page or transcript: at most the requests in flight differ (the
    // next page is asked for, and counted, while one is written).
    expect(last.requests).toBeGreaterThanOrEqual(10);
    expect(last.requests).toBeLessThanOrEqual(sent + 1);
  });
});

describe('times and items for people', () => {
  it('changes: the table shows `at` as a human time, csv/tsv leave item out (--fields item.… picks some); mirror status too', async () => {
    const m = await env({ seed: 31 });
    expect((await m.sync()).code).toBe(0);
    const table = await m.mtg(['changes', '--format', 'table', '--limit', '3'], { COLUMNS: '60' });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/just now|seconds? ago|minutes? ago/);
    expect(table.stdout).not.toMatch(/\d{4}-\d\d-\d\dT/);
    for (const format of ['csv', 'tsv']) {
      const flat = await m.mtg(['changes', '--format', format, '--limit', '2']);
      expect(flat.code).toBe(0);
      const [header, row] = flat.stdout.split('\n');
      expect(header!.split(format === 'csv' ? ',' : '\t')).toEqual([
        'seq',
        'run',
        'at',
        'resource',
        'id',
        'change',
        'fields',
      ]);
      expect(row).not.toContain('{');
    }
    const picked = await m.mtg(['changes', '--format', 'csv', '--fields', 'seq,item.name', '--limit', '1']);
    expect(picked.stdout.split('\n')[0]).toBe('seq,item.name');
    const status = await m.mtg(['mirror', 'status']);
    expect(status.stdout).toMatch(/last sync\s+(just now|\d+ seconds? ago)/);
  });
});

describe('mtg changes --after', () => {
  it('a seq past the last change of this mirror (saved from a mirror since reset) is exit 2, not silence', async () => {
    const m = await env({ seed: 29 });
    expect((await m.sync()).code).toBe(0);
    const last = Number(
      (await m.mtg(['sql', 'SELECT max(seq) AS n FROM changes', '--format', 'tsv', '--fields', 'n'])).stdout
        .trim()
        .split('\n')
        .at(-1),
    );
    expect(last).toBeGreaterThan(0);
    const atLast = await m.mtg(['changes', '--after', String(last), '--json']);
    expect(atLast.code, atLast.stderr).toBe(0);
    expect(JSON.parse(atLast.stdout)).toEqual([]);
    const past = await m.mtg(['changes', '--after', String(last + 1), '--json']);
    expect(past.code).toBe(2);
    expect(past.stdout).toBe('');
    expect(past.stderr).toContain(`--after ${last + 1} is past the last change of this mirror (seq ${last})`);
  });
});

describe('--offline reads of a list no sync has finished', () => {
  it('are exit 2 naming the list, not an empty or partial answer; a finished sync answers', async () => {
    const m = await env({ seed: 30, pageSize: 5 });
    // Meetings only: action items, people and companies were never walked.
    expect((await m.sync(['--only', 'meetings', '--no-transcripts'])).code).toBe(0);
    const items = await m.mtg(['action-items', 'list', '--offline', '--json']);
    expect(items.code).toBe(2);
    expect(items.stdout).toBe('');
    expect(items.stderr).toMatch(/no complete copy of action items yet.*mtg sync/);
    const people = await m.mtg(['people', 'list', '--offline', '--json']);
    expect(people.code).toBe(2);
    expect(people.stderr).toMatch(/no complete copy of people/);
    expect((await m.mtg(['meetings', 'list', '--offline', '--json'])).code).toBe(0);

    // A first meetings walk stopped by --budget: a partial list is refused, and so is "not found".
    const p = await env({ seed: 31, pageSize: 5 });
    const partial = await p.sync(['--only', 'meetings', '--no-transcripts', '--budget', '1']);
    expect(partial.code, partial.stderr).toBe(0);
    expect(JSON.parse(partial.stdout).complete).toBe(false);
    const list = await p.mtg(['meetings', 'list', '--offline', '--json']);
    expect(list.code).toBe(2);
    expect(list.stderr).toMatch(/no complete copy of meetings yet/);
    const view = await p.mtg(['meetings', 'view', 'mtg_nope', '--offline', '--json']);
    expect(view.code).toBe(2);
    expect((await p.sync(['--only', 'meetings', '--no-transcripts'])).code).toBe(0);
    expect((await p.mtg(['meetings', 'list', '--offline', '--json'])).code).toBe(0);
    expect((await p.mtg(['meetings', 'view', 'mtg_nope', '--offline', '--json'])).code).toBe(4);
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
