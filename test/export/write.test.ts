import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { assignPaths } from '../../src/export/naming.js';
import { defaultTemplate, KEPT_MARKER, loadTemplateEngine } from '../../src/export/render.js';
import { type ExportOptions, exportMarkdown, MANIFEST, type SourceMeeting } from '../../src/export/write.js';
import { tempDir } from '../helpers/temp.js';

beforeAll(loadTemplateEngine);
const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

function meeting(id: string, name: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    name,
    createdAt: '2026-03-04T09:30:00.000Z',
    updatedAt: '2026-03-04T10:30:00.000Z',
    duration: 1830,
    url: 'https://meet.example/abc',
    tags: [{ id: 1, name: 'customer', description: null }],
    icalUid: null,
    attendees: [
      {
        profileId: 7,
        name: 'Ada: "the" Lovelace',
        title: null,
        companyName: 'Acme',
        email: 'ada@acme.test',
        isCalendarEventOrganizer: true,
        isCalendarInvitee: false,
      },
      {
        profileId: 8,
        name: null,
        title: null,
        companyName: null,
        email: 'bob@x.test',
        isCalendarEventOrganizer: false,
        isCalendarInvitee: true,
      },
    ],
    notes: `# Notes\n\nFirst point.\n${KEPT_MARKER}\nnot a real marker`,
    privateNotes: 'secret stuff',
    actionItems: [
      { id: 11, title: 'Send deck', description: '', assignee: null, status: 'DONE' },
      {
        id: 12,
        title: 'Call back',
        description: '',
        assignee: { profileId: 7, name: 'Ada', title: null, companyName: null, email: null },
        status: 'PENDING',
      },
    ],
    insights: {
      'Key points': [{ speaker: 'Ada', timestamp: 75, insight: 'Budget approved' }],
      'Deal fields': [{ speaker: null, timestamp: null, insight: { Stage: 'Negotiation', Amount: 12000 } }],
    },
    linkAccess: null,
    ...extra,
  };
}

function source(m: ReturnType<typeof meeting>, transcript?: unknown[]): SourceMeeting {
  const json = JSON.stringify(m);
  const tj = transcript ? JSON.stringify(transcript) : null;
  return {
    id: m.id,
    createdAt: m.createdAt,
    json,
    transcriptJson: tj,
    parse: () => ({ id: m.id, meeting: JSON.parse(json), ...(tj ? { transcript: JSON.parse(tj) } : {}) }),
  };
}

function run(
  dir: string,
  ms: ReturnType<typeof meeting>[],
  opts: Partial<ExportOptions> = {},
  deleted: string[] = [],
  listComplete = true,
) {
  const sources = ms.map((m) => source(m, [{ speaker: 'Ada', text: 'Hello', timestamp: 3 }]));
  return exportMarkdown(
    {
      paths: assignPaths(ms),
      meetings: sources,
      total: sources.length,
      deleted: { ids: new Set(deleted), listComplete },
    },
    { dir, prune: false, transcripts: false, privateNotes: false, onWarning: () => {}, ...opts },
    opts.template ?? defaultTemplate,
  );
}

const tmp = () => realpathSync(tempDir('mtg-export-'));
const fileOf = (dir: string) =>
  JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')).files as Record<string, { path: string }>;

describe('export files', () => {
  it('writes front matter that parses back to the mirror values, tasks with IDs, both insight forms', () => {
    const dir = tmp();
    const m = meeting('mtg_000000000001', 'Renewal: Acme --- "Q3"\n---\nhack: true');
    run(dir, [m], { appUrl: 'https://app.example' });
    const path = join(dir, fileOf(dir)[m.id]!.path);
    const text = readFileSync(path, 'utf8');
    const fm = parse(/^---\n([\s\S]*?)\n---\n/.exec(text)![1]!);
    expect(fm).toEqual({
      id: m.id,
      name: m.name,
      date: m.createdAt,
      updated: m.updatedAt,
      duration: 1830,
      url: m.url,
      tags: ['customer'],
      attendees: ['Ada: "the" Lovelace', 'bob@x.test'],
      companies: ['Acme'],
      link: 'https://app.example/meetings/mtg_000000000001',
    });
    expect(text).toContain('- [x] Send deck <!-- action-item:11 -->');
    expect(text).toContain('- [ ] Call back (@Ada) <!-- action-item:12 -->');
    expect(text).toContain('- Budget approved (Ada, 01:15)');
    expect(text).toContain('- **Stage**: Negotiation; **Amount**: 12000');
    expect(text).not.toContain('secret stuff');
    expect(text).not.toContain('## Transcript');
    // The marker appears exactly once (the one in the notes is defused), at the end.
    expect(text.split(KEPT_MARKER).length).toBe(2);
    expect(text.endsWith(`${KEPT_MARKER}\n`)).toBe(true);
  });

  it('adds private notes and the transcript only when asked', () => {
    const dir = tmp();
    const m = meeting('mtg_000000000002', 'x');
    run(dir, [m], { privateNotes: true, transcripts: true });
    const text = readFileSync(join(dir, fileOf(dir)[m.id]!.path), 'utf8');
    expect(text).toContain('## Private notes\n\nsecret stuff');
    expect(text).toContain('**Ada** [00:03]: Hello');
  });

  it('keeps the text below the marker across three rewrites and a rename', () => {
    const dir = tmp();
    let m = meeting('mtg_000000000003', 'Planning');
    run(dir, [m]);
    const first = join(dir, fileOf(dir)[m.id]!.path);
    writeFileSync(first, `${readFileSync(first, 'utf8')}My own notes\n- [ ] my task\n`);
    for (let i = 1; i <= 3; i++) {
      m = { ...m, notes: `version ${i}`, ...(i === 3 ? { name: 'Planning (renamed)' } : {}) };
      const s = run(dir, [m]);
      expect(s.written).toBe(1);
      const text = readFileSync(join(dir, fileOf(dir)[m.id]!.path), 'utf8');
      expect(text).toContain(`version ${i}`);
      expect(text.endsWith(`${KEPT_MARKER}\nMy own notes\n- [ ] my task\n`)).toBe(true);
    }
    expect(existsSync(first)).toBe(false);
    expect(fileOf(dir)[m.id]!.path).toBe('2026/2026-03-04 Planning (renamed) (00000003).md');
  });

  it('writes nothing on a second run with nothing changed', () => {
    const dir = tmp();
    const ms = [meeting('mtg_000000000004', 'a'), meeting('mtg_000000000005', 'b')];
    expect(run(dir, ms).written).toBe(2);
    const before = readdirSync(join(dir, '2026')).map((f) => statSync(join(dir, '2026', f)).mtimeMs);
    const manifestBefore = statSync(join(dir, MANIFEST)).mtimeMs;
    const s = run(dir, ms);
    expect([s.written, s.unchanged]).toEqual([0, 2]);
    expect(readdirSync(join(dir, '2026')).map((f) => statSync(join(dir, '2026', f)).mtimeMs)).toEqual(before);
    expect(statSync(join(dir, MANIFEST)).mtimeMs).toBe(manifestBefore);
  });

  it('reports deleted meetings and removes their files only with --prune', () => {
    const dir = tmp();
    const ms = [meeting('mtg_000000000006', 'a'), meeting('mtg_000000000007', 'b')];
    run(dir, ms);
    const gone = join(dir, fileOf(dir)[ms[1]!.id]!.path);
    const s = run(dir, [ms[0]!], {}, [ms[1]!.id]);
    expect([s.deleted, s.pruned]).toEqual([1, 0]);
    expect(existsSync(gone)).toBe(true);
    const p = run(dir, [ms[0]!], { prune: true }, [ms[1]!.id]);
    expect([p.deleted, p.pruned]).toEqual([1, 1]);
    expect(existsSync(gone)).toBe(false);
    expect(Object.keys(fileOf(dir))).toEqual([ms[0]!.id]);
  });

  // Issue 20: --prune deleted a deleted meeting's file even when the user had written below the kept line.
  it('keeps and reports, even with --prune, a deleted meeting’s file that holds the user’s notes', () => {
    const dir = tmp();
    cleanup.push(dir);
    const ms = [
      meeting('mtg_000000000030', 'a'),
      meeting('mtg_000000000031', 'b'),
      meeting('mtg_000000000032', 'c'),
    ];
    run(dir, ms);
    const files = fileOf(dir);
    const withNotes = join(dir, files[ms[1]!.id]!.path);
    const untouched = join(dir, files[ms[2]!.id]!.path);
    writeFileSync(withNotes, `${readFileSync(withNotes, 'utf8')}\nMy follow-up: call Ada on Monday.\n`);
    const warnings: string[] = [];
    const p = run(dir, [ms[0]!], { prune: true, onWarning: (t) => warnings.push(t) }, [ms[1]!.id, ms[2]!.id]);
    expect(existsSync(withNotes)).toBe(true);
    expect(readFileSync(withNotes, 'utf8')).toContain('My follow-up: call Ada on Monday.');
    expect(existsSync(untouched)).toBe(false);
    expect([p.deleted, p.pruned]).toEqual([2, 1]);
    expect(p.paths.pruned).toEqual([files[ms[2]!.id]!.path]);
    expect(p.paths.keptWithNotes).toEqual([files[ms[1]!.id]!.path]);
    expect(warnings).toEqual([
      `${files[ms[1]!.id]!.path}: its meeting was deleted on the server, but the file holds your notes below the kept line: kept, not pruned`,
    ]);
    // Still known (and reported again) by the next run, until the user removes it.
    expect(Object.keys(fileOf(dir)).sort()).toEqual([ms[0]!.id, ms[1]!.id]);
    const again = run(dir, [ms[0]!], { prune: true }, [ms[1]!.id, ms[2]!.id]);
    expect(again.paths.keptWithNotes).toEqual([files[ms[1]!.id]!.path]);
    expect(existsSync(withNotes)).toBe(true);
  });

  it('keeps, even with --prune, the file of a meeting the mirror does not have (not a tombstone)', () => {
    const dir = tmp();
    const ms = [meeting('mtg_000000000012', 'a'), meeting('mtg_000000000013', 'b')];
    run(dir, ms);
    const kept = join(dir, fileOf(dir)[ms[1]!.id]!.path);
    const warnings: string[] = [];
    for (const prune of [false, true]) {
      const s = run(dir, [ms[0]!], { prune, onWarning: (t) => warnings.push(t) });
      expect([s.deleted, s.pruned, s.notInMirror]).toEqual([0, 0, 1]);
      expect(s.paths.notInMirror).toEqual([fileOf(dir)[ms[1]!.id]!.path]);
    }
    expect(existsSync(kept)).toBe(true);
    expect(Object.keys(fileOf(dir)).sort()).toEqual([ms[0]!.id, ms[1]!.id]);
    expect(warnings).toEqual(
      Array(2).fill(
        '1 file of meetings this mirror does not have: kept (run `mtg sync` to complete the mirror)',
      ),
    );
  });

  it('prunes nothing, tombstones included, while the meetings list was never walked to its end', () => {
    const dir = tmp();
    const ms = [meeting('mtg_000000000014', 'a'), meeting('mtg_000000000015', 'b')];
    run(dir, ms);
    const gone = join(dir, fileOf(dir)[ms[1]!.id]!.path);
    const warnings: string[] = [];
    const s = run(dir, [ms[0]!], { prune: true, onWarning: (t) => warnings.push(t) }, [ms[1]!.id], false);
    expect([s.deleted, s.pruned, s.mirrorComplete]).toEqual([1, 0, false]);
    expect(existsSync(gone)).toBe(true);
    expect(warnings).toEqual([
      'the mirror is incomplete (no sync has fetched the whole meetings list yet): --prune removes nothing; run `mtg sync`',
    ]);
  });

  it('does not follow a symlink inside DIR that points outside', () => {
    const dir = tmp();
    const outside = tmp();
    symlinkSync(outside, join(dir, '2026'));
    const s = run(dir, [meeting('mtg_000000000008', 'a')]);
    expect(s.written).toBe(0);
    expect(s.failed).toBe(1);
    expect(s.problems[0]!.reason).toMatch(/symbolic link.*not followed/);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('does not write through a file that is a symlink, nor over a file mtg did not write', () => {
    const dir = tmp();
    const outside = join(tmp(), 'victim.txt');
    writeFileSync(outside, 'precious');
    const ms = [meeting('mtg_000000000009', 'a'), meeting('mtg_000000000010', 'b')];
    const paths = assignPaths(ms);
    mkdirSync(join(dir, '2026'));
    symlinkSync(outside, join(dir, paths.get(ms[0]!.id)!));
    writeFileSync(join(dir, paths.get(ms[1]!.id)!), 'a file of the user');
    const s = run(dir, ms);
    expect(s.failed).toBe(2);
    expect(readFileSync(outside, 'utf8')).toBe('precious');
    expect(readFileSync(join(dir, paths.get(ms[1]!.id)!), 'utf8')).toBe('a file of the user');
  });

  it('renders a user template (Mustache) with the same front matter', () => {
    const dir = tmp();
    const m = meeting('mtg_000000000011', 'T');
    run(dir, [m], { template: '---\n{{frontMatter}}---\n{{title}} has {{actionItems.length}} items\n' });
    const text = readFileSync(join(dir, fileOf(dir)[m.id]!.path), 'utf8');
    expect(text).toContain('T has 2 items\n');
    expect(parse(/^---\n([\s\S]*?)\n---\n/.exec(text)![1]!).id).toBe(m.id);
  });
});
