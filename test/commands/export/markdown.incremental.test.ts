// mtg export markdown (in this process) against a sandbox: sync, export, churn, sync, export again.
// An export killed midway then rerun: test/e2e/export-killed.test.ts.
import {
  appendFileSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SandboxSnapshot } from '../../../src/sandbox/index.js';
import { runInProcess } from '../../helpers/inprocess.js';
import { tempDir } from '../../helpers/temp.js';
import { type MirrorEnv, mirrorEnv } from '../../mirror/helpers.js';

interface FileState {
  content: string;
  mtimeMs: number;
}

/** Every file under DIR (relative path -> content and mtime), the manifest included. */
function tree(dir: string): Map<string, FileState> {
  const out = new Map<string, FileState>();
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(dir, r));
      if (st.isDirectory()) walk(r);
      else out.set(r, { content: readFileSync(join(dir, r), 'utf8'), mtimeMs: st.mtimeMs });
    }
  };
  walk('');
  return out;
}

const manifest = (dir: string) =>
  JSON.parse(readFileSync(join(dir, '.mtg-export.json'), 'utf8')).files as Record<string, { path: string }>;

/** Meeting IDs whose object or transcript differ between two snapshots (created ones included). */
function changedMeetings(
  a: SandboxSnapshot,
  b: SandboxSnapshot,
): { changed: Set<string>; deleted: Set<string> } {
  const before = new Map(
    a.meetings.map((m) => [m.id, JSON.stringify(m) + JSON.stringify(a.transcripts[m.id])]),
  );
  const changed = new Set<string>();
  for (const m of b.meetings) {
    if (before.get(m.id) !== JSON.stringify(m) + JSON.stringify(b.transcripts[m.id])) changed.add(m.id);
  }
  const live = new Set(b.meetings.map((m) => m.id));
  return { changed, deleted: new Set(a.meetings.map((m) => m.id).filter((id) => !live.has(id))) };
}

const envs: MirrorEnv[] = [];
afterAll(async () => {
  for (const e of envs) await e.sandbox.close();
});

describe('mtg export markdown', () => {
  it('--print-template prints the built-in template, the file users start from', async () => {
    const r = await runInProcess(['export', 'markdown', '--print-template']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      readFileSync(join(import.meta.dirname, '../../../src/export/default-template.mustache'), 'utf8'),
    );
  });

  it('exits 2 with the way out when the profile has no mirror', async () => {
    const e = await mirrorEnv();
    envs.push(e);
    const dir = join(tempDir('mtg-export-e2e-'), 'out');
    const r = await e.mtg(['export', 'markdown', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no mirror for profile default: run `mtg sync`');
    expect(existsSync(dir)).toBe(false);
  });

  it('--sync refused (--offline, no key) creates no mirror file; nor do sync and watch refused the same way', async () => {
    const e = await mirrorEnv();
    envs.push(e);
    const dir = join(tempDir('mtg-export-e2e-'), 'out');
    const noKey = { MTG_API_KEY: '' };
    // --offline is a usage error (2), a missing key an auth error (3).
    for (const [args, extraEnv, code] of [
      [['export', 'markdown', dir, '--sync', '--offline'], {}, 2],
      [['export', 'markdown', dir, '--sync'], noKey, 3],
      [['sync', '--offline'], {}, 2],
      [['sync'], noKey, 3],
      [['watch', '--once', '--offline'], {}, 2],
      [['watch', '--once'], noKey, 3],
    ] as const) {
      const r = await e.mtg([...args], extraEnv);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(code);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(readdirSync(e.dataDir), args.join(' ')).toEqual([]);
    }
    expect(existsSync(dir)).toBe(false);
    expect(e.sandbox.requests).toHaveLength(0);
  });

  it('--since/--until export a window of createdAt; a bad bound is exit 2 before anything is written', async () => {
    const e = await mirrorEnv();
    envs.push(e);
    expect((await e.sync(['--no-transcripts'])).code).toBe(0);
    const created = e.sandbox
      .snapshot()
      .meetings.map((m) => m.createdAt)
      .sort();
    const since = created[4]!;
    const until = created[9]!;
    const dir = tempDir('mtg-export-window-');
    const r = await e.mtg(['export', 'markdown', dir, '--since', since, '--until', until, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    const inside = created.filter((c) => c >= since && c < until);
    expect(s.written).toBe(inside.length);
    const dates = Object.values(manifest(dir)).map((f) => f.path.slice(5, 15));
    expect(dates.sort()).toEqual(inside.map((c) => c.slice(0, 10)));

    const bad = join(dir, 'never');
    const b = await e.mtg(['export', 'markdown', bad, '--since', 'yesterday']);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('--since "yesterday"');
    expect(existsSync(bad)).toBe(false);
  });

  // Issue 29 §3: `ln -s ~/.bashrc DIR/.mtg-export.journal` had JSON lines with server-chosen IDs
  // appended to the target.
  it('a journal planted as a link is refused: exit 2, one line, its target untouched, no file written', async () => {
    const e = await mirrorEnv({ sizes: { meetings: 5, actionItems: 2, people: 2, companies: 1 } });
    envs.push(e);
    expect((await e.sync(['--no-transcripts'])).code).toBe(0);
    const dir = tempDir('mtg-export-planted-');
    const victim = join(tempDir('mtg-export-victim-'), '.bashrc');
    writeFileSync(victim, 'alias ll="ls -l"\n');
    symlinkSync(victim, join(dir, '.mtg-export.journal'));
    const r = await e.mtg(['export', 'markdown', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/\.mtg-export\.journal is a symbolic link: mtg does not write through it/);
    expect(readFileSync(victim, 'utf8')).toBe('alias ll="ls -l"\n');
    expect(readdirSync(dir)).toEqual(['.mtg-export.journal']);
  });

  it('after churn and a sync rewrites or moves exactly the changed meetings, touching nothing else', async () => {
    const e = await mirrorEnv({
      sizes: { meetings: 40, actionItems: 60, people: 20, companies: 6 },
      pageSize: 25,
    });
    envs.push(e);
    const dir = tempDir('mtg-export-e2e-');
    expect((await e.sync()).code).toBe(0);
    const first = await e.mtg(['export', 'markdown', dir, '--transcripts', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).written).toBe(40);
    const again = await e.mtg(['export', 'markdown', dir, '--transcripts']);
    expect(again.stderr).toContain('0 written, 40 unchanged');

    const filesBefore = tree(dir);
    const pathsBefore = manifest(dir);
    const snapA = e.sandbox.snapshot();
    e.sandbox.churn(4);
    const snapB = e.sandbox.snapshot();
    const { changed, deleted } = changedMeetings(snapA, snapB);
    expect(changed.size).toBeGreaterThan(0);
    // The churn deletes some meetings on the server: the sync tombstones them.
    expect(deleted.size).toBeGreaterThan(0);
    expect((await e.sync()).code).toBe(0);

    const r = await e.mtg(['export', 'markdown', dir, '--transcripts', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    const pathsAfter = manifest(dir);
    expect(new Set(s.paths.written)).toEqual(new Set([...changed].map((id) => pathsAfter[id]!.path)));
    expect(s.written).toBe(changed.size);
    expect(s.unchanged).toBe(snapB.meetings.length - changed.size);
    expect(s.deleted).toBe(deleted.size);
    expect(s.pruned).toBe(0);
    expect(s.notInMirror).toBe(0);
    expect(r.stderr).toContain(`${deleted.size} deleted on the server (kept; --prune removes them)`);
    expect(r.stderr).not.toContain('warning');
    const moved = [...changed].filter(
      (id) => pathsBefore[id] && pathsBefore[id]!.path !== pathsAfter[id]!.path,
    );
    expect(s.moved).toBe(moved.length);

    const filesAfter = tree(dir);
    for (const [id, { path }] of Object.entries(pathsBefore)) {
      if (changed.has(id)) {
        const now = filesAfter.get(pathsAfter[id]!.path)!;
        expect(now.content).not.toBe(filesBefore.get(path)!.content);
        if (pathsAfter[id]!.path !== path) expect(filesAfter.has(path)).toBe(false);
      } else {
        // Unchanged and deleted meetings: the very same file, not even rewritten.
        expect(filesAfter.get(path)).toEqual(filesBefore.get(path));
      }
    }
    // The mirror's new meetings are there too, and nothing else appeared.
    const expected = new Set([...Object.values(pathsAfter).map((p) => p.path), '.mtg-export.json']);
    expect(new Set(filesAfter.keys())).toEqual(expected);

    // --prune removes the deleted meetings' files, and only those; one where the user wrote notes
    // below the kept line stays, reported on stderr and in the summary's list (issue 20).
    const [noted, ...others] = [...deleted];
    const notedPath = pathsBefore[noted!]!.path;
    appendFileSync(join(dir, notedPath), 'My own notes: keep these.\n');
    const pruning = await e.mtg(['export', 'markdown', dir, '--transcripts', '--prune', '--json']);
    expect(pruning.code, pruning.stderr).toBe(0);
    const p = JSON.parse(pruning.stdout);
    expect(p.pruned).toBe(deleted.size - 1);
    expect(p.keptWithNotes).toBe(1);
    expect(p.paths.keptWithNotes).toEqual([notedPath]);
    expect(pruning.stderr).toContain(
      `${notedPath}: its meeting was deleted on the server, but the file holds your notes`,
    );
    expect(p.notInMirror).toBe(0);
    for (const id of others) expect(existsSync(join(dir, pathsBefore[id]!.path))).toBe(false);
    expect(readFileSync(join(dir, notedPath), 'utf8')).toContain('My own notes: keep these.');
    expect(p.written).toBe(0);
  });

  // QA: after `mirror reset` the mirror knew no meeting, and --prune took the whole folder (and
  // the user's notes in it) for meetings deleted on the server.
  it('after `mirror reset` and a failed sync, --prune keeps every file and says the mirror lacks them', async () => {
    const e = await mirrorEnv();
    envs.push(e);
    const dir = tempDir('mtg-export-reset-');
    expect((await e.sync(['--no-transcripts'])).code).toBe(0);
    expect((await e.mtg(['export', 'markdown', dir])).code).toBe(0);
    const files = Object.values(manifest(dir)).map((f) => f.path);
    expect(files.length).toBe(12);
    const noted = join(dir, files[0]!);
    appendFileSync(noted, 'note\n');
    const before = tree(dir);

    expect((await e.mtg(['mirror', 'reset'])).code).toBe(0);
    expect((await e.sync(['--api-key', 'bad'])).code).toBe(3);

    for (const args of [[], ['--prune']]) {
      const r = await e.mtg(['export', 'markdown', dir, ...args, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const s = JSON.parse(r.stdout);
      expect([s.written, s.deleted, s.pruned, s.notInMirror]).toEqual([0, 0, 0, 12]);
      expect(new Set(s.paths.notInMirror)).toEqual(new Set(files));
      expect(s.mirrorComplete).toBe(false);
      expect(r.stderr).toContain('12 files of meetings this mirror does not have: kept');
      expect(r.stderr).toContain('the mirror is incomplete');
      expect(r.stderr).not.toContain('deleted on the server');
    }
    // Every file as it was, the user's note included.
    expect(tree(dir)).toEqual(before);
    expect(readFileSync(noted, 'utf8').endsWith('note\n')).toBe(true);
  });

  it('after a first sync stopped by --budget, --prune removes nothing', async () => {
    const e = await mirrorEnv({
      sizes: { meetings: 30, actionItems: 10, people: 5, companies: 2 },
      pageSize: 25,
    });
    envs.push(e);
    const dir = tempDir('mtg-export-budget-');
    expect((await e.sync(['--no-transcripts'])).code).toBe(0);
    expect((await e.mtg(['export', 'markdown', dir])).code).toBe(0);
    const before = tree(dir);

    expect((await e.mtg(['mirror', 'reset'])).code).toBe(0);
    const partial = await e.sync(['--no-transcripts', '--budget', '1']);
    expect(partial.code, partial.stderr).toBe(0);
    expect(JSON.parse(partial.stdout).complete).toBe(false);

    const r = await e.mtg(['export', 'markdown', dir, '--prune', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect([s.written, s.unchanged, s.deleted, s.pruned, s.notInMirror]).toEqual([0, 25, 0, 0, 5]);
    expect(r.stderr).toContain('5 files of meetings this mirror does not have: kept');
    expect(r.stderr).toContain('the mirror is incomplete');
    expect(tree(dir)).toEqual(before);

    // The walk completed: every meeting is back, nothing was deleted, nothing is reported.
    expect((await e.sync(['--no-transcripts'])).code).toBe(0);
    const done = await e.mtg(['export', 'markdown', dir, '--prune', '--json']);
    const d = JSON.parse(done.stdout);
    expect([d.written, d.unchanged, d.deleted, d.pruned, d.notInMirror]).toEqual([0, 30, 0, 0, 0]);
    expect(d.mirrorComplete).toBe(true);
    expect(done.stderr).not.toContain('warning');
    expect(tree(dir)).toEqual(before);
  });
});
