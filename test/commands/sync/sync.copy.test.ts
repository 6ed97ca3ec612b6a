// mtg sync against the sandbox over real HTTP: an exact copy, nothing fetched again when nothing
// changed, few 429s under tight windows (on a virtual clock), --budget, and the refusals that leave the file as it was.
// The lock between two sync processes: test/e2e/sync-lock.test.ts.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../../src/mirror/driver.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxEnv, tempConfigDir } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inprocess.js';
import { expectFew429 } from '../../helpers/pacing.js';
import { VirtualClock } from '../../helpers/virtual-clock.js';
import {
  integrityCheck,
  type MirrorEnv,
  mirrorEnv,
  parseChanges,
  readMirror,
  serverContent,
  sql,
  transcriptRequests,
  withoutTombstones,
} from '../../mirror/helpers.js';

const opened: MirrorEnv[] = [];
const extra: Sandbox[] = [];
afterAll(async () => {
  await Promise.all([...opened.map((m) => m.sandbox.close()), ...extra.map((s) => s.close())]);
});

async function env(options: Parameters<typeof mirrorEnv>[0] = {}): Promise<MirrorEnv> {
  const m = await mirrorEnv(options);
  opened.push(m);
  return m;
}

describe('mtg sync', () => {
  it('copies every object and transcript exactly; a second sync fetches no transcript and records nothing', async () => {
    const m = await env({ seed: 7 });
    const first = await m.sync();
    expect(first.code).toBe(0);
    const summary = JSON.parse(first.stdout);
    expect(Object.keys(summary)).toEqual([
      'complete',
      'requests',
      'durationMs',
      'meetings',
      'actionItems',
      'people',
      'companies',
      'transcripts',
    ]);
    expect(summary.complete).toBe(true);
    expect(summary.meetings).toEqual({ created: 12, updated: 0, deleted: 0, total: 12 });
    expect(summary.transcripts).toEqual({ fetched: 12, pending: 0 });
    expect(summary.requests).toBe(m.sandbox.requests.length);
    // One summary line on stderr.
    expect(first.stderr.trim().split('\n')).toHaveLength(1);
    expect(first.stderr).toMatch(/^Synced: 12 meetings \(\+12 ~0 -0\)/);

    const before = m.sandbox.requests.length;
    const server = await serverContent(m.sandbox);
    expect(withoutTombstones(readMirror(m.dbPath))).toEqual(server);
    expect(readMirror(m.dbPath).mine.length).toBeGreaterThan(0);

    const mark = m.sandbox.requests.length;
    const second = await m.sync();
    expect(second.code).toBe(0);
    const again = JSON.parse(second.stdout);
    expect(again.transcripts).toEqual({ fetched: 0, pending: 0 });
    expect(transcriptRequests(m.sandbox, mark).size).toBe(0);
    expect(again.meetings).toEqual({ created: 0, updated: 0, deleted: 0, total: 12 });
    expect(before).toBeLessThan(mark);
    const changes = await m.mtg(['changes', '--json']);
    expect(changes.code).toBe(0);
    expect(parseChanges(changes.stdout)).toEqual([]);
  });

  it('records each object as created once, oldest first, with the object; --after and --resource filter', async () => {
    const m = await env({ seed: 8 });
    expect((await m.sync()).code).toBe(0);
    const r = await m.mtg(['changes', '--json']);
    const events = parseChanges(r.stdout);
    const server = await serverContent(m.sandbox);
    const expected =
      Object.keys(server.meetings).length +
      Object.keys(server.actionItems).length +
      Object.keys(server.people).length +
      Object.keys(server.companies).length +
      Object.keys(server.transcripts).length;
    expect(events).toHaveLength(expected);
    expect(new Set(events.map((e) => `${e.resource}/${e.id}`)).size).toBe(expected);
    expect(events.every((e) => e.change === 'created' && e.run === 1)).toBe(true);
    expect(events.map((e) => e.seq)).toEqual([...events.map((e) => e.seq)].sort((a, b) => a - b));
    for (const e of events.filter((x) => x.resource === 'action-items')) {
      expect(JSON.stringify(e.item)).toBe(server.actionItems[e.id]);
    }
    for (const e of events.filter((x) => x.resource === 'transcripts')) {
      expect(JSON.stringify(e.item)).toBe(server.transcripts[e.id]);
    }

    const cut = events[9]!.seq;
    const after = parseChanges((await m.mtg(['changes', '--after', String(cut), '--json'])).stdout);
    expect(after.map((e) => e.seq)).toEqual(events.slice(10).map((e) => e.seq));
    const onlyPeople = parseChanges((await m.mtg(['changes', '--resource', 'people', '--json'])).stdout);
    expect(onlyPeople).toHaveLength(Object.keys(server.people).length);
    const csv = await m.mtg(['changes', '--resource', 'companies', '--format', 'csv']);
    expect(csv.stdout.split('\n')[0]).toBe('seq,run,at,resource,id,change,fields');
    const picked = await m.mtg([
      'changes',
      '--resource',
      'action-items',
      '--fields',
      'seq,change,item.title,item.status',
      '--format',
      'csv',
    ]);
    const [header, firstRow] = picked.stdout.split('\n');
    expect(header).toBe('seq,change,item.title,item.status');
    const firstItem = JSON.parse(server.actionItems[events.find((e) => e.resource === 'action-items')!.id]!);
    expect(firstRow).toContain(`,created,`);
    expect(firstRow).toContain(firstItem.status);
    const table = await m.mtg(['changes', '--resource', 'companies', '--format', 'table']);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('created');
    const bad = await m.mtg(['changes', '--resource', 'tags']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('--only walks only the named lists and rejects an unknown one before any request', async () => {
    const m = await env({ seed: 9 });
    const bad = await m.sync(['--only', 'meetings,tags']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--only value "tags"/);
    expect(m.sandbox.requests).toHaveLength(0);
    const r = await m.sync(['--only', 'people', '--no-transcripts']);
    expect(r.code).toBe(0);
    expect(m.sandbox.requests.every((q) => q.path === '/people')).toBe(true);
    const c = readMirror(m.dbPath);
    expect(Object.keys(c.people)).toHaveLength(14);
    expect(Object.keys(c.meetings)).toHaveLength(0);
  });

  it('--no-transcripts leaves them pending; --full fetches every one again and reports none unchanged', async () => {
    const m = await env({ seed: 23 });
    const first = JSON.parse((await m.sync(['--no-transcripts'])).stdout);
    expect(first.transcripts).toEqual({ fetched: 0, pending: 12 });
    expect(transcriptRequests(m.sandbox).size).toBe(0);
    expect(JSON.parse((await m.sync()).stdout).transcripts).toEqual({ fetched: 12, pending: 0 });
    const mark = m.sandbox.requests.length;
    const full = JSON.parse((await m.sync(['--full'])).stdout);
    expect(full.complete).toBe(true);
    expect(full.transcripts).toEqual({ fetched: 12, pending: 0 });
    expect([...transcriptRequests(m.sandbox, mark).values()]).toEqual(Array(12).fill(1));
    expect(parseChanges((await m.mtg(['changes', '--json'])).stdout)).toEqual([]);
    expect(withoutTombstones(readMirror(m.dbPath))).toEqual(await serverContent(m.sandbox));
  });

  it('under small rate-limit windows the first sync waits out its few 429s; the next fetches no transcript', async () => {
    // The windows and the waits on a virtual clock: the syncs' seconds of pacing take milliseconds.
    const clock = new VirtualClock(Date.now(), { realIo: true });
    const m = await env({ seed: 3, limits: '4/1s,12/3s', pageSize: 10, clock });
    const first = await m.sync();
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).complete).toBe(true);
    expectFew429(m.sandbox);
    const mark = m.sandbox.requests.length;
    const second = await m.sync();
    expect(second.code).toBe(0);
    expectFew429(m.sandbox);
    expect(transcriptRequests(m.sandbox, mark).size).toBe(0);
    // Only list pages: meetings 2, action items 3 + mine, people 2, companies 1.
    expect(m.sandbox.requests.slice(mark).every((q) => !q.path.includes('/transcript'))).toBe(true);
  });

  it('--budget stops cleanly with complete:false; the next sync completes without refetching', async () => {
    const m = await env({ seed: 11 });
    const first = await m.sync(['--budget', '6']);
    expect(first.code).toBe(0);
    const s1 = JSON.parse(first.stdout);
    expect(s1.complete).toBe(false);
    expect(s1.requests).toBe(6);
    expect(m.sandbox.requests).toHaveLength(6);
    expect(first.stderr).toMatch(/Stopped at --budget/);
    // Nothing was tombstoned by the walk that did not complete.
    expect(sql(m.dbPath, 'SELECT count(*) AS n FROM meetings WHERE deleted_at IS NOT NULL')).toEqual([
      { n: 0 },
    ]);

    // A budget that ends inside the transcripts.
    const second = await m.sync(['--budget', '20']);
    expect(JSON.parse(second.stdout).complete).toBe(false);
    const stored = new Set(
      sql<{ id: string }>(m.dbPath, 'SELECT meeting_id AS id FROM transcripts').map((r) => r.id),
    );
    expect(stored.size).toBeGreaterThan(0);
    expect(stored.size).toBeLessThan(12);
    const mark = m.sandbox.requests.length;
    const third = await m.sync();
    expect(third.code).toBe(0);
    expect(JSON.parse(third.stdout).complete).toBe(true);
    for (const id of transcriptRequests(m.sandbox, mark).keys()) expect(stored.has(id)).toBe(false);
    expect(withoutTombstones(readMirror(m.dbPath))).toEqual(await serverContent(m.sandbox));
    // Each object was reported created exactly once across the three runs.
    const events = parseChanges((await m.mtg(['changes', '--after', '0', '--json'])).stdout);
    const keys = events.map((e) => `${e.resource}/${e.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(events.every((e) => e.change === 'created')).toBe(true);
  });

  it('resumes an interrupted walk from its saved cursor, and from page 1 when the server rejects it', async () => {
    const m = await env({ seed: 22 });
    expect(JSON.parse((await m.sync(['--budget', '1'])).stdout).complete).toBe(false);
    const [walk] = sql<{ id: number; next_url: string }>(
      m.dbPath,
      "SELECT id, next_url FROM walks WHERE resource = 'meetings' AND completed_at IS NULL",
    );
    expect(walk!.next_url).toContain('cursor=');
    const mark = m.sandbox.requests.length;
    expect(JSON.parse((await m.sync(['--budget', '1'])).stdout).complete).toBe(false);
    // The resumed walk asked for its saved page, not for page 1.
    expect(m.sandbox.requests[mark]!.query.get('cursor')).not.toBeNull();

    // A cursor the server no longer accepts (tampered here): that walk starts over, same walk id.
    const db = openDb(m.dbPath);
    db.prepare("UPDATE walks SET next_url = replace(next_url, 'cursor=', 'cursor=x') WHERE id = ?").run(
      walk!.id,
    );
    db.close();
    const r = await m.sync();
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).complete).toBe(true);
    expect(
      sql(m.dbPath, "SELECT id FROM walks WHERE resource = 'meetings' AND completed_at IS NOT NULL"),
    ).toEqual([{ id: walk!.id }]);
    expect(withoutTombstones(readMirror(m.dbPath))).toEqual(await serverContent(m.sandbox));
    expect(readMirror(m.dbPath).tombstones.meetings).toEqual([]);
  });

  it('refuses another base URL (exit 2) until `mtg mirror reset`', async () => {
    const m = await env({ seed: 14 });
    expect((await m.sync(['--only', 'companies'])).code).toBe(0);
    const other = await mirrorEnv({ seed: 15 });
    extra.push(other.sandbox);
    const r = await m.sync([], sandboxEnv(other.sandbox));
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('mtg mirror reset');
    expect(other.sandbox.requests).toHaveLength(0);
    const reset = await m.mtg(['mirror', 'reset']);
    expect(reset.code).toBe(0);
    const again = await m.sync(['--only', 'companies'], sandboxEnv(other.sandbox));
    expect(again.code).toBe(0);
    expect(sql(m.dbPath, "SELECT value FROM meta WHERE key = 'base_url'")).toEqual([
      { value: other.sandbox.baseUrl },
    ]);
  });

  it('mirror status reports path, base URL, last sync and counts', async () => {
    const m = await env({ seed: 16 });
    const none = await m.mtg(['mirror', 'status']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('No mirror for profile default: run `mtg sync`');
    await m.sync();
    const r = await m.mtg(['mirror', 'status', '--json']);
    const s = JSON.parse(r.stdout);
    expect(s.path).toBe(m.dbPath);
    expect(s.baseUrl).toBe(m.sandbox.baseUrl);
    expect(s.lastSync.complete).toBe(true);
    expect(s.counts).toMatchObject({
      meetings: 12,
      actionItems: 30,
      people: 14,
      companies: 5,
      transcripts: 12,
    });
    expect(s.transcriptsPending).toBe(0);
    const text = await m.mtg(['mirror', 'status']);
    expect(text.stdout).toContain(m.dbPath);
  });
});

describe('the mirror file', () => {
  it('is created 0600 in a 0700 folder, in WAL mode', async () => {
    const m = await env({ seed: 17 });
    const dir = join(m.dataDir, 'nested', 'mtg');
    const r = await m.sync(['--only', 'companies'], { MTG_DATA_DIR: dir });
    expect(r.code).toBe(0);
    const { statSync } = await import('node:fs');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'default.db')).mode & 0o777).toBe(0o600);
    expect(sql(join(dir, 'default.db'), 'PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
  });

  const refusals: [string, (path: string) => void][] = [
    ['a file that is not SQLite', (p) => writeFileSync(p, 'this is not a database\n'.repeat(20))],
    [
      'a corrupt SQLite file',
      (p) => {
        const buf = Buffer.alloc(8192, 0xa5);
        buf.write('SQLite format 3\u0000', 0, 'latin1');
        writeFileSync(p, buf);
      },
    ],
    [
      "another program's database",
      (p) => {
        const db = openDb(p);
        db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes(body) VALUES (1)');
        db.close();
      },
    ],
  ];
  it.each(refusals)(
    '%s: exit 2 with a one-line reason, file untouched, nothing sent',
    async (_what, make) => {
      const m = await env({ seed: 18 });
      make(m.dbPath);
      const before = readFileSync(m.dbPath);
      const r = await m.sync();
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/not an mtg mirror|corrupt/);
      expect(readFileSync(m.dbPath).equals(before)).toBe(true);
      expect(m.sandbox.requests).toHaveLength(0);
    },
  );

  it('a data dir mtg cannot write is a clear error (exit 2), nothing sent', async () => {
    const m = await env({ seed: 19 });
    // root writes into a 0500 folder: a path under a regular file fails for every user.
    const blocker = join(m.dataDir, 'a-file');
    writeFileSync(blocker, '');
    const dir = process.getuid?.() === 0 ? join(blocker, 'mtg') : join(m.dataDir, 'ro');
    if (dir.endsWith('ro')) {
      mkdirSync(dir);
      chmodSync(dir, 0o500);
    }
    const r = await m.sync([], { MTG_DATA_DIR: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    // Under a file (as root) the data folder check names it first (QA #12).
    expect(r.stderr).toMatch(
      /^mtg: (Cannot create the mirror .*Set MTG_DATA_DIR to a folder mtg may write|MTG_DATA_DIR .* is inside a file, not a folder)/,
    );
    expect(m.sandbox.requests).toHaveLength(0);
  });

  it('no HOME and no MTG_DATA_DIR: exit 2 saying to set MTG_DATA_DIR', async () => {
    const m = await env({ seed: 20 });
    const r = await runInProcess(['sync'], {
      env: {
        ...sandboxEnv(m.sandbox),
        HOME: undefined,
        MTG_CONFIG_DIR: tempConfigDir(),
        XDG_DATA_HOME: undefined,
      },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Set MTG_DATA_DIR/);
    expect(m.sandbox.requests).toHaveLength(0);
  });

  it('integrity holds after a sync', async () => {
    const m = await env({ seed: 21 });
    await m.sync();
    expect(integrityCheck(m.dbPath)).toBe('ok');
  });
});
