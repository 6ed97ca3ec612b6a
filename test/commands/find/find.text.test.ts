// Issue 20, item 7: `mtg find` on text written without spaces between words (Chinese, Japanese,
// Korean), found by any run of two or more of its characters with snippets of the original text;
// and snippets of a passage that is one long token (a log line, a hex blob), which were the whole
// passage, now a short window around the match. Also: a mirror indexed before (schema 2) is
// re-indexed on open, a read-only open included.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../../src/mirror/driver.js';
import { openMirror } from '../../../src/mirror/open.js';
import { passageWriter, ROWID_MEETING_SHIFT } from '../../../src/mirror/passages.js';
import { SCHEMA_VERSION, schemaVersion } from '../../../src/mirror/schema.js';
import { freeSeparator } from '../../../src/mirror/search.js';
import { tempConfigDir } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inprocess.js';
import { tempDir } from '../../helpers/temp.js';

const HEX = Array.from({ length: 85_000 / 8 }, (_, i) =>
  (i * 2654435761).toString(16).padStart(8, '0').slice(-8),
).join('');
const LOG = `${'x'.repeat(60_000)} connection timeout after 30s ${'y'.repeat(25_000)}`;

const MEETINGS = [
  { id: 'm_zh', name: '2025年第三季度回顾会议', notes: '我们讨论了预算和招聘计划。下周再确认。' },
  { id: 'm_ja', name: '週次ミーティング', notes: '来週の会議で予算を確認します。' },
  { id: 'm_ko', name: '분기별 회의는 내일입니다', notes: 'Quarterly review in Korean' },
  { id: 'm_blob', name: 'Log dump', notes: `paste:\n\n${HEX}\n\n${LOG}` },
  { id: 'm_en', name: 'Budget review', notes: 'The budget approval is pending.' },
  // 20 characters, a match ending at the 18th: more tokens than snippet()'s window of 16.
  { id: 'm_zh_plan', name: 'Planning', notes: '上月我们讨论了明年全体员工的培训安排事项' },
  { id: 'm_zh_long', name: 'Long', notes: `${'文'.repeat(400)}签约仪式${'书'.repeat(400)}` },
];

/** A mirror holding `meetings`, indexed as a sync indexes it (passageWriter). */
function buildMirror(dir: string, meetings = MEETINGS): string {
  const mirror = openMirror({ profile: 'default', dataDir: dir, baseUrl: 'https://api.example.com' });
  const db = mirror.db;
  const writer = passageWriter(db);
  db.transaction(() => {
    meetings.forEach((m, i) => {
      const createdAt = `2026-01-0${i + 1}T10:00:00Z`;
      db.prepare(
        'INSERT INTO meetings(id, json, name, created_at, updated_at, position, seen_walk) VALUES (?, ?, ?, ?, ?, ?, 1)',
      ).run(m.id, JSON.stringify({ ...m, createdAt }), m.name, createdAt, createdAt, i);
      writer.rewrite(m.id);
    });
  });
  mirror.close();
  return join(dir, 'default.db');
}

let env: Record<string, string>;
beforeAll(() => {
  const dir = tempDir('mtg-find-text-');
  env = { MTG_DATA_DIR: dir, MTG_CONFIG_DIR: tempConfigDir() };
  buildMirror(dir);
});

type Hit = { meetingId: string; in: string; snippet: string };
async function find(...args: string[]): Promise<Hit[]> {
  const r = await runInProcess(['find', ...args, '--json'], { env });
  expect(r.code, `find ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout) as Hit[];
}
const where = (hits: Hit[]) => hits.map((h) => `${h.meetingId}/${h.in}`).sort();

describe('find: text without spaces between words', () => {
  it('finds a Chinese name by any run of two or more of its characters, the snippet the original text', async () => {
    expect(await find('季度')).toEqual([
      expect.objectContaining({ meetingId: 'm_zh', in: 'name', snippet: '2025年第三**季度**回顾会议' }),
    ]);
    for (const q of ['第三季度回顾', '会议', '2025年', '回顾会'])
      expect(where(await find(q)), q).toEqual(['m_zh/name']);
    expect(await find('季第')).toEqual([]);
    // Runs of the notes, in either of two meetings.
    expect(where(await find('预算'))).toEqual(['m_zh/notes']);
    expect((await find('招聘计划'))[0]!.snippet).toContain('**招聘计划**');
  });

  it('keeps the query syntax: "phrases", prefix*, OR, -exclusions; malformed is exit 2', async () => {
    expect(where(await find('"第三季度"'))).toEqual(['m_zh/name']);
    expect(where(await find('季度 -会议'))).toEqual([]);
    expect(where(await find('季度 -预算'))).toEqual(['m_zh/name']);
    expect(where(await find('季度 OR 予算'))).toEqual(['m_ja/notes', 'm_zh/name']);
    expect(where(await find('第三季*'))).toEqual(['m_zh/name']);
    expect(where(await find('budget'))).toEqual(['m_en/name', 'm_en/notes']);
    for (const bad of ['"季度', '季度 OR', '-季度']) {
      const r = await runInProcess(['find', bad, '--json'], { env });
      expect(r.code, bad).toBe(2);
      expect(r.stderr.trim().split('\n'), bad).toHaveLength(1);
    }
  });

  it('a short CJK passage is shown whole, every character of the match marked', async () => {
    expect((await find('培训安排'))[0]!.snippet).toBe('上月我们讨论了明年全体员工的**培训安排**事项');
    expect((await find('安排'))[0]!.snippet).toBe('上月我们讨论了明年全体员工的培训**安排**事项');
    expect((await find('事项'))[0]!.snippet).toBe('上月我们讨论了明年全体员工的培训安排**事项**');
    // A long one: a window of characters around the match, the match near its start (as snippet()
    // shows spaced text), cut where text was left out; a table at 80 columns still shows the match.
    expect((await find('签约仪式'))[0]!.snippet).toMatch(/^…文{16}\*\*签约仪式\*\*书{76}…$/);
    const table = await runInProcess(['find', '签约仪式', '--format', 'table'], {
      env: { ...env, COLUMNS: '80' },
    });
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('签约仪式');
  });

  it('finds Japanese (kanji and katakana) and Korean inside their words', async () => {
    expect(where(await find('予算'))).toEqual(['m_ja/notes']);
    expect(where(await find('ティング'))).toEqual(['m_ja/name']);
    expect((await find('ティング'))[0]!.snippet).toBe('週次ミー**ティング**');
    expect(where(await find('회의'))).toEqual(['m_ko/name']);
    expect((await find('회의'))[0]!.snippet).toBe('분기별 **회의**는 내일입니다');
  });
});

describe('find: a passage that is one long token', () => {
  it('gives a short window around the match, not the whole passage', async () => {
    const prefix = HEX.slice(0, 12);
    for (const [q, mark] of [
      [`${prefix}*`, `**${prefix}`],
      ['timeout', '**timeout**'],
    ] as const) {
      const hits = await find(q);
      expect(
        hits.map((h) => h.meetingId),
        q,
      ).toEqual(['m_blob']);
      const snippet = hits[0]!.snippet;
      expect(snippet.length, q).toBeLessThanOrEqual(400);
      expect(snippet, q).toContain(mark);
      // Matches are closed within the window.
      expect(snippet.split('**').length % 2, q).toBe(1);
    }
    const table = await runInProcess(['find', 'timeout', '--format', 'table'], {
      env: { ...env, COLUMNS: '100' },
    });
    expect(table.code).toBe(0);
    expect(table.stdout.length).toBeLessThan(1000);
  });
});

describe('a mirror indexed by an older mtg (schema 3: its index is rebuilt)', () => {
  it('is re-indexed on open, by a read-only find too, and then finds the runs', async () => {
    const dir = tempDir('mtg-find-v2-');
    const path = buildMirror(dir);
    // An index that misses the meeting (what an older index could not find), schema 3.
    const db = openDb(path);
    db.transaction(() => {
      const base = db
        .prepare<{ b: number }>("SELECT passage_base AS b FROM meetings WHERE id = 'm_zh'")
        .get()!.b;
      const first = base * 2 ** ROWID_MEETING_SHIFT;
      db.prepare('DELETE FROM passages WHERE rowid BETWEEN ? AND ?').run(
        first,
        first + 2 ** ROWID_MEETING_SHIFT - 1,
      );
      // Schema 3 had no sync passes (schema 6 creates them).
      db.exec('DROP TABLE pass_lists; DROP TABLE passes');
      db.pragma('user_version = 3');
    });
    db.close();
    const before = openDb(path, { readonly: true });
    expect(
      before.prepare<{ n: number }>("SELECT count(*) AS n FROM passages WHERE passages MATCH '季度'").get()!
        .n,
    ).toBe(0);
    before.close();
    const r = await runInProcess(['find', '季度', '--json'], {
      env: { MTG_DATA_DIR: dir, MTG_CONFIG_DIR: env.MTG_CONFIG_DIR! },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(where(JSON.parse(r.stdout))).toEqual(['m_zh/name']);
    const after = openDb(path);
    expect(schemaVersion(after)).toBe(SCHEMA_VERSION);
    after.exec("INSERT INTO passages(passages) VALUES ('integrity-check')");
    after.close();
  });
});

/** Every code point from `from` to `to`. */
const run = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)).join('');

describe('find: a meeting that holds every private-use character of the BMP (hostile text)', () => {
  it('still answers, with the snippets of the text as written', async () => {
    const dir = tempDir('mtg-find-pua-');
    buildMirror(dir, [
      {
        id: 'm_pua',
        name: '議事録 quorum',
        notes: `${run(0xe000, 0xf8ff)} quorum 議事録 ${run(0xe000, 0xf8ff)}`,
      },
    ]);
    const r = await runInProcess(['find', '議事録', '--json'], {
      env: { MTG_DATA_DIR: dir, MTG_CONFIG_DIR: env.MTG_CONFIG_DIR! },
    });
    expect(r.code, r.stderr).toBe(0);
    const hits = JSON.parse(r.stdout) as Hit[];
    expect(where(hits)).toEqual(['m_pua/name', 'm_pua/notes']);
    expect(hits.find((h) => h.in === 'name')!.snippet).toBe('**議事録** quorum');
    expect(hits.find((h) => h.in === 'notes')!.snippet).toContain('quorum **議事録**');
  });

  it('a separator is chosen while one is free, and none once the texts hold them all', () => {
    expect(freeSeparator(['plain'])).toBe('\ue100');
    expect(freeSeparator([run(0xe100, 0xf7ff)])).toBe('\u{f0000}');
    expect(freeSeparator([run(0xe100, 0xf7ff), run(0xf0000, 0xffffd), run(0x100000, 0x10fffc)])).toBe(
      '\u{10fffd}',
    );
    expect(
      freeSeparator([run(0xe100, 0xf7ff), run(0xf0000, 0xffffd), run(0x100000, 0x10fffd)]),
    ).toBeUndefined();
  });
});

describe('find: a notes field of 1 MB in one paragraph (issue 30)', () => {
  // Sentences without the words searched for, about `chars` characters of them.
  const filler = (chars: number, seed: number) =>
    Array.from(
      { length: Math.ceil(chars / 48) },
      (_, i) => `Item ${seed}-${i} was discussed and left for later review. `,
    ).join('');
  const notes = `${filler(100_000, 1)}The zanzibarium shipment is late. ${filler(800_000, 2)}The zanzibarium contract is signed by Ana. ${filler(100_000, 3)}`;

  it('finds each match deep inside it, a snippet of a few hundred characters around each', async () => {
    expect(notes.length).toBeGreaterThan(1_000_000);
    const dir = tempDir('mtg-find-huge-');
    buildMirror(dir, [
      { id: 'm_huge', name: 'Supply review', notes },
      { id: 'm_small', name: 'Weekly', notes: 'Nothing about it.' },
    ]);
    const huge = { env: { MTG_DATA_DIR: dir, MTG_CONFIG_DIR: env.MTG_CONFIG_DIR! } };
    const r = await runInProcess(['find', 'zanzibarium', '--json'], huge);
    expect(r.code, r.stderr).toBe(0);
    const hits = JSON.parse(r.stdout) as Hit[];
    expect(where(hits)).toEqual(['m_huge/notes', 'm_huge/notes']);
    const snippets = hits.map((h) => h.snippet).sort();
    expect(snippets[0]).toContain('The **zanzibarium** contract is signed');
    expect(snippets[1]).toContain('The **zanzibarium** shipment is late');
    for (const s of snippets) expect(s.length).toBeLessThanOrEqual(400);
    // A question finds the deep one first.
    const q = await runInProcess(
      ['find', 'who', 'signed', 'the', 'zanzibarium', 'contract?', '--json'],
      huge,
    );
    expect(q.code, q.stderr).toBe(0);
    const first = (JSON.parse(q.stdout) as Hit[])[0]!;
    expect(first).toEqual(expect.objectContaining({ meetingId: 'm_huge', in: 'notes' }));
    expect(first.snippet).toContain('**zanzibarium** **contract** is **signed**');
  });
});

describe('find: --fields', () => {
  it('chooses the words that matched too, as --json hits carry them (QA: "unknown field for hit: matched")', async () => {
    const r = await runInProcess(['find', 'budget', '--json', '--fields', 'meetingId,matched'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toContainEqual({ meetingId: 'm_en', matched: ['budget'] });
    const csv = await runInProcess(['find', 'budget', '--format', 'csv', '--fields', 'meetingId,matched'], {
      env,
    });
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.split(/\r?\n/)).toContain('m_en,budget');
  });
});
