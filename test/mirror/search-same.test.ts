// findPassages (`mtg find`, the MCP server's `search`) gives exactly what it gave before it was made
// faster: the same hits, order, ranks and snippets, for every kind of query, filter and limit. The
// reference is the earlier implementation, kept here verbatim; both run over the same seeded mirrors
// (English and Chinese text, as the bench builds them) with edge cases added: accents, a passage of
// one huge token, text holding the snippet's separator candidates, a tombstoned meeting.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture } from '../../bench/mirror-fixture.js';
import { segmentCjk } from '../../src/mirror/cjk.js';
import { type Db, openDb, type Statement } from '../../src/mirror/driver.js';
import { fromJsonText, toJsonText } from '../../src/mirror/json.js';
import { openMirror } from '../../src/mirror/open.js';
import { meetingPassages, PASSAGES_PER_MEETING, passageWriter } from '../../src/mirror/passages.js';
import {
  clampSnippet,
  type FindOptions,
  findPassages,
  freeSeparator,
  MATCH_END,
  MATCH_START,
  type PassageHit,
  type PassageKind,
  toMatchExpression,
} from '../../src/mirror/search.js';
import { tempDir } from '../helpers/temp.js';

const REFERENCE_WHOLE_TEXT_WINDOW = { max: 96, before: 16 };

/** Every private-use character a snippet table may take as its separator (search.ts). */
function everySeparatorCandidate(): string {
  let s = '';
  for (const [from, to] of [
    [0xe100, 0xf7ff],
    [0xf0000, 0xffffd],
    [0x100000, 0x10fffd],
  ] as const)
    for (let c = from; c <= to; c++) s += String.fromCodePoint(c);
  return s;
}

/** A meeting written as sync writes one (row, transcript, passages), in the fixture's shape. */
function addMeeting(dataDir: string, id: string, createdAt: string, name: string, lines: string[]): void {
  const mirror = openMirror({ profile: 'default', dataDir, baseUrl: 'http://127.0.0.1:1' });
  try {
    const { db } = mirror;
    db.transaction(() => {
      const meeting = {
        id,
        name,
        createdAt,
        updatedAt: createdAt,
        notes: lines[0],
        attendees: [],
        actionItems: [],
      };
      db.prepare(
        'INSERT INTO meetings(id, json, name, created_at, updated_at, position, seen_walk) VALUES (?, ?, ?, ?, ?, ?, 1)',
      ).run(id, toJsonText(meeting), name, createdAt, createdAt, 100_000);
      const transcript = lines
        .slice(1)
        .map((text, i) => ({ speaker: `Speaker ${i % 3}`, text, timestamp: i * 7.5 }));
      db.prepare(
        'INSERT INTO transcripts(meeting_id, json, for_updated_at, fetched_at) VALUES (?, ?, ?, ?)',
      ).run(id, toJsonText(transcript), createdAt, createdAt);
      passageWriter(db).rewrite(id);
    });
  } finally {
    mirror.close();
  }
}

const ENGLISH = [
  'roadmap',
  'Roadmap review',
  'budget approval',
  '"pricing proposal"',
  'zanzibarium',
  'security review',
  'road*',
  'pricing OR roadmap',
  'budget -approval',
  '-"pricing proposal" roadmap',
  '"follow up" account',
  'the',
  'First1*',
  'company3',
  'röadmap',
  'hostileword',
  'hostileword OR zanzibarium',
  'bigblob*',
  '季度',
  'separatorword',
  'notesword',
];
const CHINESE = ['季度', '路线图', '价格 方案', '的', '"预算 审批"', '客户 OR 合同', '路线*', 'zanzibarium'];
const LIMITS = [1, 20, 100, undefined];
const FILTERS: Omit<FindOptions, 'limit'>[] = [
  {},
  { kinds: ['transcript'] },
  { kinds: ['name', 'notes'] },
  { kinds: ['attendees', 'action-items'] },
  { since: '2026-10-20T00:00:00.000Z' },
  { until: '2026-10-25T12:00:00.000Z' },
  { since: '2026-10-15T00:00:00.000Z', until: '2026-10-28T00:00:00.000Z', kinds: ['transcript', 'name'] },
  { since: '2027-01-01T00:00:00.000Z' },
];

describe('findPassages gives what it gave before it was made faster', () => {
  let english: Db;
  let chinese: Db;
  beforeAll(() => {
    const en = tempDir('mtg-search-same-');
    buildFixture({
      dataDir: en,
      meetings: 60,
      transcriptBytes: 2000,
      seed: 7,
      rareEvery: 6,
      rareWord: 'zanzibarium',
    });
    addMeeting(en, 'mtg_edge_accents', '2026-10-22T10:00:00.000Z', 'Röadmap Überblick', [
      'The RÖADMAP was approved; budget approval next.',
      'Roadmap roadmap roadmap: the roadmap again.',
      `bigblob${'x'.repeat(5000)} roadmap at the end`,
      '2025年第三季度回顾会议: roadmap 季度',
    ]);
    // Texts holding the first separator candidates (the snippet table takes the next one), and a
    // meeting holding every candidate (its snippets fall back to spaces: search.ts).
    addMeeting(en, 'mtg_edge_separators', '2026-10-21T10:00:00.000Z', 'separatorword meeting', [
      '\uE100\uE101 separatorword 季度 roadmap',
      'separatorword \uE102 预算 roadmap zanzibarium',
    ]);
    addMeeting(en, 'mtg_edge_hostile', '2026-10-23T10:00:00.000Z', 'hostileword sync', [
      `hostileword ${everySeparatorCandidate()} 季度`,
      'hostileword 季度回顾 zanzibarium',
    ]);
    // A word in 300 long transcript entries of one meeting and 300 short notes of a later one: the
    // entries come first by rowid (most of the passages that match are transcript), the notes first
    // by rank, so --in transcript reads past the notes to find the entries, or gives up and filters
    // while ranking (search.ts: mostlyOfKinds, firstOfKinds).
    addMeeting(en, 'mtg_edge_entries', '2026-10-25T10:00:00.000Z', 'Long entries', [
      'Agenda.',
      ...Array.from(
        { length: 300 },
        (_, i) => `Entry ${i} mentions notesword once, ${'and then goes on '.repeat(12)}to the end.`,
      ),
    ]);
    addMeeting(en, 'mtg_edge_notes', '2026-10-26T10:00:00.000Z', 'Notes heavy', [
      Array.from({ length: 300 }, (_, i) => `notesword item ${i}`).join('\n\n'),
    ]);
    // A tombstoned meeting whose passages are still indexed: never shown.
    addMeeting(en, 'mtg_edge_deleted', '2026-10-24T10:00:00.000Z', 'Roadmap deleted', [
      'roadmap zanzibarium hostileword',
    ]);
    const db = openDb(join(en, 'default.db'));
    db.prepare(
      "UPDATE meetings SET deleted_at = '2026-11-01T00:00:00.000Z' WHERE id = 'mtg_edge_deleted'",
    ).run();
    db.close();
    english = openDb(join(en, 'default.db'), { readonly: true });
    const zh = tempDir('mtg-search-same-zh-');
    buildFixture({
      dataDir: zh,
      meetings: 30,
      transcriptBytes: 2000,
      seed: 8,
      rareEvery: 10,
      rareWord: 'zanzibarium',
      language: 'zh',
    });
    chinese = openDb(join(zh, 'default.db'), { readonly: true });
  }, 120_000);
  afterAll(() => {
    english?.close();
    chinese?.close();
  });

  const compare = (db: Db, queries: string[]) => {
    let cases = 0;
    let hits = 0;
    for (const query of queries) {
      const match = toMatchExpression(query);
      for (const filter of FILTERS)
        for (const limit of LIMITS) {
          const options = { ...filter, limit };
          const expected = [...referenceFindPassages(db, match, options)];
          expect([...findPassages(db, match, options)], `${query} ${JSON.stringify(options)}`).toEqual(
            expected,
          );
          cases++;
          hits += expected.length;
        }
    }
    return { cases, hits };
  };

  it('English text: words, phrases, prefixes, OR, exclusions, accents, huge tokens, hostile text; every filter and limit', () => {
    const { cases, hits } = compare(english, ENGLISH);
    expect(cases).toBe(ENGLISH.length * FILTERS.length * LIMITS.length);
    expect(hits).toBeGreaterThan(5_000);
    // The edge cases were found (and so compared), the tombstoned meeting never.
    const ids = (q: string) => [...findPassages(english, toMatchExpression(q))].map((h) => h.meetingId);
    expect(ids('hostileword')).toEqual(['mtg_edge_hostile', 'mtg_edge_hostile', 'mtg_edge_hostile']);
    expect(ids('separatorword')).toContain('mtg_edge_separators');
    expect(ids('bigblob*')).toEqual(['mtg_edge_accents']);
    expect(ids('zanzibarium')).not.toContain('mtg_edge_deleted');
    const notes = (limit: number) =>
      [...findPassages(english, toMatchExpression('notesword'), { kinds: ['transcript'], limit })].map(
        (h) => h.in,
      );
    expect(notes(1)).toEqual(['transcript']);
    expect(notes(20)).toEqual(new Array(20).fill('transcript'));
  }, 60_000);

  it('Chinese text (each character a token): runs, phrases, prefixes; every filter and limit', () => {
    const { hits } = compare(chinese, CHINESE);
    expect(hits).toBeGreaterThan(1_000);
  }, 60_000);
});

/** findPassages as it was before the speed-ups (commit e19f96e), verbatim but for names. */
function* referenceFindPassages(db: Db, match: string, options: FindOptions = {}): Generator<PassageHit> {
  // Two steps: rank first (rowids only, so the sort carries no text), then a snippet for each hit
  // kept. In one query SQLite computes every matching passage's snippet before sorting: a common
  // word in 5,000 transcripts took seconds for 20 hits.
  const where = ['passages MATCH ?'];
  const params: (string | number)[] = [match];
  if (options.kinds?.length) {
    where.push(`p.kind IN (${options.kinds.map(() => '?').join(', ')})`);
    params.push(...options.kinds);
  }
  const dated = options.since !== undefined || options.until !== undefined;
  if (options.since) {
    where.push('julianday(m.created_at) >= julianday(?)');
    params.push(options.since);
  }
  if (options.until) {
    where.push('julianday(m.created_at) < julianday(?)');
    params.push(options.until);
  }
  if (options.limit !== undefined) params.push(options.limit);
  const ranked = db
    .prepare<{ rowid: number }>(
      'SELECT p.rowid AS rowid FROM passages AS p' +
        (dated ? ' JOIN meetings AS m ON m.id = p.meeting_id' : '') +
        ` WHERE ${where.join(' AND ')}` +
        ' ORDER BY bm25(passages), p.rowid' +
        (options.limit !== undefined ? ' LIMIT ?' : ''),
    )
    .all(...params);
  const one = db.prepare<{
    meetingId: string;
    meetingName: string | null;
    createdAt: string | null;
    kind: string;
    speaker: string | null;
    timestamp: number | null;
    base: number;
  }>(
    'SELECT p.meeting_id AS meetingId, m.name AS meetingName, m.created_at AS createdAt, p.kind AS kind,' +
      ' p.speaker AS speaker, p.timestamp AS timestamp, m.passage_base AS base' +
      ' FROM passages AS p JOIN meetings AS m ON m.id = p.meeting_id' +
      // CAST: FTS5 ignores `rowid = ?` when the value is bound as a REAL (a JS number).
      ' WHERE p.rowid = CAST(? AS INTEGER) AND m.deleted_at IS NULL',
  );
  // Hits in rank order, then their texts meeting by meeting: each meeting's JSON is read and
  // parsed once however many of its passages match (in rank order, a common word's hits jump
  // between meetings, and parsing a transcript for each hit made `find budget` 3.5x slower).
  const hits: ({ rowid: number; index: number } & NonNullable<ReturnType<typeof one.get>>)[] = [];
  const byMeeting = new Map<string, number[]>();
  for (const { rowid } of ranked) {
    const row = one.get(rowid);
    if (!row) continue; // a tombstoned meeting's passage (sync removes them; never shown)
    const meetingId = String(row.meetingId);
    const at = hits.push({ ...row, meetingId, rowid, index: rowid - row.base * PASSAGES_PER_MEETING }) - 1;
    const list = byMeeting.get(meetingId);
    if (list) list.push(at);
    else byMeeting.set(meetingId, [at]);
  }
  const snippets: string[] = new Array(hits.length).fill('');
  const source = db.prepare<{ json: string; transcript: string | null }>(
    'SELECT m.json, t.json AS transcript FROM meetings m LEFT JOIN transcripts t ON t.meeting_id = m.id WHERE m.id = ?',
  );
  const snippetsOf = snippetMaker(match);
  try {
    for (const [meetingId, ats] of byMeeting) {
      const r = source.get(meetingId);
      if (!r) continue;
      const passages = meetingPassages(
        fromJsonText(r.json) as Record<string, unknown>,
        r.transcript === null ? undefined : fromJsonText(r.transcript),
      );
      const made = snippetsOf(ats.map((at) => passages[hits[at]!.index]?.text ?? ''));
      ats.forEach((at, k) => {
        snippets[at] = made[k]!;
      });
    }
  } finally {
    snippetsOf.close();
  }
  let rank = 0;
  for (const [i, hit] of hits.entries()) {
    rank++;
    yield {
      meetingId: hit.meetingId,
      meetingName: hit.meetingName ?? null,
      createdAt: hit.createdAt ?? null,
      in: hit.kind as PassageKind,
      speaker: hit.speaker ?? null,
      timestamp: typeof hit.timestamp === 'number' ? hit.timestamp : null,
      snippet: snippets[i]!,
      rank,
    };
  }
}

/**
 * Snippets made by FTS5 itself from the passages' texts (the mirror's index stores none; a hit's
 * text is passage i of meetingPassages() of the stored JSON, rowid = passage_base * 2^20 + i): the
 * texts go into an FTS5 table of a private in-memory database with the mirror's tokenizer, and
 * snippet() there marks the same query. snippet() reads only the row at hand (its tokens, the
 * query's matches in it, its length), so the result is what snippet() on the mirror's index gave
 * when the index stored the text: same words marked (case-, accent-insensitive, prefixes), same
 * window, same ellipses.
 */
function snippetMaker(match: string): ((texts: readonly string[]) => string[]) & { close(): void } {
  let scratch: Db | undefined;
  // CJK characters are tokens of their own in the index (cjk.ts): here the same split is made with
  // a private-use character declared a separator, which is then taken out of the snippet, so the
  // snippet shows the text as written. One that none of the texts holds (chosen again if one does);
  // when the texts hold every candidate (hostile text), plain spaces: the snippet of a CJK run then
  // shows a space around each character, and find still answers.
  let separator: string | undefined;
  let put: Statement | undefined;
  let clear: Statement | undefined;
  let get: Statement<{ rowid: number; snippet: string | null }> | undefined;
  const make = (texts: readonly string[]): string[] => {
    if (!scratch || (separator !== undefined && texts.some((t) => t.includes(separator!)))) {
      scratch?.close();
      separator = freeSeparator(texts);
      scratch = openDb(':memory:');
      const separators = separator === undefined ? '' : ` separators '${separator}'`;
      scratch.exec(
        `CREATE VIRTUAL TABLE hit USING fts5(text, tokenize = "unicode61 remove_diacritics 2${separators}")`,
      );
      put = scratch.prepare('INSERT INTO hit(rowid, text) SELECT key, value FROM json_each(?)');
      clear = scratch.prepare('DELETE FROM hit');
      // snippet()'s window is 16 tokens from a sentence start that holds the match's first token:
      // 16 characters of CJK text, a phrase (every CJK query) cut after its first characters. A
      // text holding the separator (CJK) is highlighted whole instead; clampSnippet windows it.
      get = scratch.prepare(
        `SELECT rowid, CASE WHEN instr(text, ?) > 0 THEN highlight(hit, 0, ?, ?)
           ELSE snippet(hit, 0, ?, ?, '…', 16) END AS snippet FROM hit WHERE hit MATCH ?`,
      );
    }
    const db = scratch;
    const out: string[] = new Array(texts.length).fill('');
    db.transaction(() => {
      clear!.run();
      put!.run(JSON.stringify(texts.map((t) => segmentCjk(t, separator ?? ' '))));
      // With no free separator (hostile text) the space stands in: nearly every text holds one, so
      // texts are then highlighted whole and windowed by clampSnippet, as CJK texts are.
      const marker = separator ?? ' ';
      for (const row of get!.iterate(marker, MATCH_START, MATCH_END, MATCH_START, MATCH_END, match)) {
        const snippet = String(row.snippet ?? '');
        // Highlighted whole (it holds the marker): a short window; snippet()'s own: only bounded.
        const whole = snippet.includes(marker);
        const text = separator === undefined ? snippet : snippet.split(separator).join('');
        out[row.rowid] = whole ? clampSnippet(text, REFERENCE_WHOLE_TEXT_WINDOW) : clampSnippet(text);
      }
    });
    return out;
  };
  return Object.assign(make, { close: () => scratch?.close() });
}
