// Issue 30: `mtg find` answers questions asked in plain words (a passage need not hold every word;
// those holding all of them come first), ranks windows of neighbouring transcript entries and
// reports the entry that matches best, finds speakers and attendees by name (accents, case,
// possessives), corrects a typo (said on stderr; --exact: not), stems word forms, groups by meeting,
// says which words matched, and keeps server text out of the terminal. A mirror made by an older
// mtg gets the index built from what it holds, and a build killed half-way resumes.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../../src/mirror/driver.js';
import { openMirror } from '../../../src/mirror/open.js';
import { buildIndex, passageWriter, unindexedCount } from '../../../src/mirror/passages.js';
import { ensureSearchIndex } from '../../../src/mirror/search-index.js';
import { tempConfigDir } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inprocess.js';
import { tempDir } from '../../helpers/temp.js';

const FILLER = ['Hmm hmm . Yeah .', 'OK .', 'Right , right .', 'Mm-hmm .', 'So .'];
const filler = (n: number, speaker: string) =>
  Array.from({ length: n }, (_, i) => ({ speaker, text: FILLER[i % FILLER.length]! }));
/** `n` lines, each followed by `gap` filler entries of `fillerBy`. */
const spread = (
  n: number,
  gap: number,
  line: (k: number) => { speaker: string; text: string },
  fillerBy: string,
) => Array.from({ length: n }, (_, k) => [line(k), ...filler(gap, fillerBy)]).flat();

const MEETINGS = [
  {
    id: 'm_remote',
    name: 'Design review',
    attendees: [{ name: 'Zoë Ångström', email: 'zoe@example.com' }],
    transcript: [
      ...filler(12, 'Project Manager'),
      { speaker: 'Industrial Designer', text: 'The remote should have bigger buttons .' },
      { speaker: 'Project Manager', text: 'Yeah .' },
      { speaker: 'Marketing', text: 'So we decided : rubber buttons on the remote , in yellow .' },
      ...filler(20, 'Marketing'),
      { speaker: 'Søren Kierkegaard', text: 'The budget is approved for the next quarter .' },
      ...filler(20, 'Marketing'),
      { speaker: 'Dana Whitfield', text: 'Our budget for the launch has to shrink by ten percent .' },
      ...filler(20, 'Marketing'),
    ],
  },
  {
    id: 'm_budget',
    name: 'Finance sync',
    attendees: [{ name: 'Alex Moreau', email: 'alex@example.com' }],
    transcript: [
      { speaker: 'Alex Moreau', text: 'The budget review moves to next week .' },
      ...filler(20, 'Alex Moreau'),
      { speaker: 'Alex Moreau', text: 'Our pricing page needs a new budget line .' },
      ...filler(20, 'Alex Moreau'),
      { speaker: 'Alex Moreau', text: 'The remote office costs more .' },
      ...filler(20, 'Alex Moreau'),
      { speaker: 'Alex Moreau', text: 'Quality control is fine .' },
      { speaker: 'Alex Moreau', text: 'Approving the travel budget today .' },
    ],
  },
  {
    // Thirty places about the zeppelin hangar, far apart (windows that do not overlap): more windows
    // than the rerank reads (TUNE.reranked), so the next meeting's best window is not among them.
    id: 'm_zeppelin',
    name: 'Hangar planning',
    attendees: [],
    transcript: spread(
      30,
      12,
      (k) => ({ speaker: 'Planner', text: `The zeppelin hangar needs zeppelin bay ${k} cleared .` }),
      'Planner',
    ),
  },
  {
    id: 'm_airship',
    name: 'Museum visit',
    attendees: [],
    transcript: [...filler(3, 'Guide'), { speaker: 'Guide', text: 'An old zeppelin hung here once .' }],
  },
  {
    id: 'm_hostile',
    name: 'Hostile \u001b[2J notes',
    attendees: [],
    transcript: [
      {
        speaker: 'Mallory\u001b[31m',
        text: 'zebrafish \u001b]8;;http://evil\u0007 link \u001b[31mRED\u0007',
      },
    ],
  },
  {
    // A question naming who: Bob asks Priya about the catering, Priya answers without the word.
    id: 'm_offsite',
    name: 'Offsite planning',
    attendees: [],
    transcript: [
      ...filler(12, 'Bob Carter'),
      { speaker: 'Bob Carter', text: 'Priya , what about the catering ?' },
      { speaker: 'Priya Natarajan', text: 'Book the same people as last year , they were cheap .' },
      ...filler(12, 'Bob Carter'),
    ],
  },
  {
    // The catering, talked about at six places far apart: a common word next to a rare name.
    id: 'm_party',
    name: 'Party logistics',
    attendees: [],
    transcript: spread(
      6,
      12,
      (k) => ({ speaker: 'Host', text: `The catering for table ${k} arrives at noon .` }),
      'Host',
    ),
  },
  {
    // A terminal title sequence (OSC 0) in the name: its parameters are no words of the meeting.
    id: 'm_title',
    name: 'Standup \u001b]0;pwned\u0007 roundup',
    attendees: [],
    transcript: [
      {
        speaker: 'Host\u001b]0;owned\u0007',
        text: 'The roundup of the week \u001b]2;hijacked\u001b\\ is short .',
      },
    ],
  },
  {
    // A word one letter from the stop word "and" (typo correction must not reach it from "and").
    id: 'm_picnic',
    name: 'Picnic',
    attendees: [],
    transcript: [{ speaker: 'Guide', text: 'One ant , then another ant on the blanket .' }],
  },
  {
    // The glacier: named twice in passing early on, then discussed over a stretch of turns.
    id: 'm_glacier',
    name: 'Field trip',
    attendees: [],
    transcript: [
      ...filler(3, 'Guide'),
      { speaker: 'Guide', text: 'Glacier melt , glacier melt , we will see .' },
      ...filler(40, 'Guide'),
      ...spread(
        8,
        2,
        (k) => ({
          speaker: 'Student',
          text:
            k % 2 === 0 ? 'The glacier has thinned since last year .' : 'The melt water runs faster now .',
        }),
        'Guide',
      ),
      ...filler(20, 'Guide'),
    ],
  },
];

function buildMirror(dir: string): string {
  const mirror = openMirror({ profile: 'default', dataDir: dir, baseUrl: 'https://api.example.com' });
  const db = mirror.db;
  const writer = passageWriter(db);
  db.transaction(() => {
    MEETINGS.forEach((m, i) => {
      const createdAt = `2026-01-${String(i + 1).padStart(2, '0')}T10:00:00Z`;
      const meeting = { id: m.id, name: m.name, createdAt, attendees: m.attendees };
      db.prepare(
        'INSERT INTO meetings(id, json, name, created_at, updated_at, position, seen_walk) VALUES (?, ?, ?, ?, ?, ?, 1)',
      ).run(m.id, JSON.stringify(meeting), m.name, createdAt, createdAt, i);
      const transcript = m.transcript.map((e, k) => ({ ...e, timestamp: k * 15 }));
      db.prepare(
        'INSERT INTO transcripts(meeting_id, json, for_updated_at, fetched_at) VALUES (?, ?, ?, ?)',
      ).run(m.id, JSON.stringify(transcript), createdAt, createdAt);
      writer.rewrite(m.id);
    });
  });
  mirror.close();
  return join(dir, 'default.db');
}

let env: Record<string, string>;
beforeAll(() => {
  const dir = tempDir('mtg-find-questions-');
  env = { MTG_DATA_DIR: dir, MTG_CONFIG_DIR: tempConfigDir() };
  buildMirror(dir);
});

type Hit = {
  meetingId: string;
  in: string;
  speaker: string | null;
  timestamp: number | null;
  snippet: string;
  rank: number;
  matched: string[];
  passages?: Hit[];
};
async function findRun(...args: string[]) {
  const r = await runInProcess(['find', ...args, '--json'], { env });
  expect(r.code, `find ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return { hits: JSON.parse(r.stdout) as Hit[], stderr: r.stderr };
}
const find = async (...args: string[]) => (await findRun(...args)).hits;

describe('find: questions in plain words', () => {
  it('a question finds the passage that answers it, though no passage holds every word', async () => {
    const hits = await find('what did the group decide about the remote buttons?');
    expect(hits[0]).toMatchObject({ meetingId: 'm_remote', in: 'transcript' });
    // The entry that matches best: its speaker and timestamp.
    expect(hits[0]!.speaker).toBe('Marketing');
    expect(hits[0]!.timestamp).toBe(14 * 15);
    expect(hits[0]!.matched).toEqual(expect.arrayContaining(['remote', 'buttons', 'decided']));
    expect(hits[0]!.snippet).toContain('**decided**');
  });

  it('keywords keep their precision: the passages holding all the words come first', async () => {
    const hits = await find('remote', 'buttons');
    expect(hits.length).toBeGreaterThan(1);
    expect(hits[0]!.snippet).toMatch(/\*\*remote\*\*/);
    expect(hits[0]!.snippet).toMatch(/\*\*buttons\*\*/);
    // A passage with one of the words is still found, after.
    expect(hits.some((h) => h.meetingId === 'm_budget')).toBe(true);
    expect(hits.findIndex((h) => h.meetingId === 'm_budget')).toBeGreaterThan(0);
  });

  it("after the five best passages, each next meeting's best: a meeting with one match is not pushed out by another's many", async () => {
    const hits = await find('zeppelin', '--limit', '6');
    expect(hits.slice(0, 5).map((h) => h.meetingId)).toEqual(Array(5).fill('m_zeppelin'));
    expect(hits[5]).toMatchObject({ meetingId: 'm_airship', speaker: 'Guide', timestamp: 3 * 15 });
  });

  it('word forms match (porter stemmer): approving finds approved', async () => {
    const hits = await find('approving');
    expect(hits.map((h) => h.meetingId).sort()).toEqual(['m_budget', 'm_remote']);
    expect(hits.some((h) => h.snippet.includes('**approved**'))).toBe(true);
  });

  it('speakers are found by name, accents, case and possessives folded: what Dana said about the budget first', async () => {
    for (const q of ['Dana budget', "Dana's budget", 'dana BUDGET']) {
      const hits = await find(q);
      expect(hits[0], q).toMatchObject({ meetingId: 'm_remote', speaker: 'Dana Whitfield' });
      expect(hits[0]!.snippet, q).toContain('**budget**');
    }
    for (const q of ['Søren budget', 'soren budget', 'SOREN budget']) {
      const hits = await find(q);
      expect(hits[0], q).toMatchObject({ speaker: 'Søren Kierkegaard' });
    }
    expect((await find('Whitfield'))[0]).toMatchObject({ speaker: 'Dana Whitfield' });
  });

  it('a question that names who (what did Priya think…) reports what that person said, not another speaker naming them', async () => {
    const hits = await find('What did Priya think about the catering?');
    expect(hits[0]).toMatchObject({ meetingId: 'm_offsite', speaker: 'Priya Natarajan', timestamp: 13 * 15 });
  });

  it("a meeting's first hit is amid its longer discussion of the words, not a passing mention", async () => {
    const hits = await find('glacier melt');
    const first = hits.find((h) => h.meetingId === 'm_glacier')!;
    // The discussion: entries 44-67 (the passing mention: entry 3).
    expect(first.timestamp! / 15).toBeGreaterThanOrEqual(44);
  });

  it('attendees are found by name, accents folded', async () => {
    for (const q of ['zoe', 'ANGSTROM', 'Ångström']) {
      const hits = await find(q, '--in', 'attendees');
      expect(
        hits.map((h) => h.meetingId),
        q,
      ).toEqual(['m_remote']);
    }
  });

  it('a word that matches nothing is replaced by the nearest indexed word, said on stderr; --exact: not', async () => {
    const { hits, stderr } = await findRun('prcing');
    expect(stderr).toContain('searched for: pricing');
    expect(hits[0]).toMatchObject({ meetingId: 'm_budget' });
    expect(hits[0]!.matched).toEqual(['pricing']);
    const exact = await runInProcess(['find', 'prcing', '--exact', '--json'], { env });
    expect(exact.code, exact.stderr).toBe(0);
    expect(JSON.parse(exact.stdout)).toEqual([]);
    expect(exact.stderr).not.toContain('searched for');
    expect(exact.stderr).toContain('No matches.');
  });

  it('a request\'s own verbs ("find where…", "show me…") frame it: never typo-corrected into a rare word that outranks the answer', async () => {
    // "find" is in no passage here; corrected, it became "fine" ("Quality control is fine").
    for (const q of ['Find where we discussed pricing.', 'show me what we know about pricing']) {
      const { hits, stderr } = await findRun(q);
      expect(stderr, q).not.toContain('searched for');
      expect(hits[0], q).toMatchObject({ meetingId: 'm_budget' });
      expect(hits[0]!.matched, q).toEqual(['pricing']);
    }
  });

  it('a stop word is never typo-corrected: "AND OR NOT" is searched as typed, not as the nearest indexed word', async () => {
    // No passage here holds "and" or "not"; "ant" (m_picnic) is one letter from "and".
    for (const q of ['AND OR NOT', 'and', 'not OR and']) {
      const { hits, stderr } = await findRun(q);
      expect(stderr, q).not.toContain('searched for');
      expect(hits, q).toEqual([]);
    }
    // A word that is not a stop word still is: "antz" -> "ant".
    expect((await findRun('antz')).stderr).toContain('searched for: ant');
  });

  it('--by meeting: one row per meeting, best first, with its best passages', async () => {
    const rows = await find('budget', '--by', 'meeting');
    expect(rows.map((r) => r.meetingId).sort()).toEqual(['m_budget', 'm_remote']);
    expect(rows.map((r) => r.rank)).toEqual([1, 2]);
    for (const r of rows) {
      expect(r.passages!.length).toBeGreaterThan(0);
      expect(r.passages!.length).toBeLessThanOrEqual(3);
      for (const p of r.passages!) expect(p.snippet).toContain('**budget**');
    }
    const bad = await runInProcess(['find', 'budget', '--by', 'speaker'], { env });
    expect(bad.code).toBe(2);
  });

  it('hostile text in snippets and speakers never reaches the terminal', async () => {
    const r = await runInProcess(['find', 'zebrafish', '--format', 'table'], {
      env,
      tty: true,
      columns: 120,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('zebrafish');
    expect(r.stdout).not.toMatch(/\u001b\[2J|\u001b\]8|\u0007|\u001b\[31m(?!.*zebrafish)/);
    expect(r.stdout).not.toContain('http://evil\u0007');
  });

  it('an escape sequence in a name or transcript goes whole: its parameters are neither found nor shown', async () => {
    // "ESC ] 0;pwned BEL" (a terminal title): `meetings list` drops it whole; find showed "0;pwned".
    for (const q of ['pwned', 'owned', 'hijacked']) expect(await find(q, '--exact'), q).toEqual([]);
    const hits = await find('roundup');
    expect(hits.map((h) => h.meetingId)).toEqual(['m_title', 'm_title']);
    const name = hits.find((h) => h.in === 'name')!;
    expect(name.snippet).toBe('Standup  **roundup**');
    const entry = hits.find((h) => h.in === 'transcript')!;
    expect(entry.snippet).toBe('The **roundup** of the week  is short .');
    expect(entry.speaker).toBe('Host');
  });

  it('a malformed query is exit 2 with one line, never an SQL error', async () => {
    for (const q of ['"unbalanced', 'OR', '-only', 'a OR']) {
      const r = await runInProcess(['find', q], { env });
      expect(r.code, q).toBe(2);
      expect(r.stderr, q).not.toMatch(/sql|fts5|syntax error/i);
    }
  });
});

describe('the index of a mirror made by an older mtg', () => {
  it('is built from what the mirror holds on first use, and a build killed half-way resumes', async () => {
    const dir = tempDir('mtg-find-upgrade-');
    const path = buildMirror(dir);
    // 60 more meetings, then the index emptied as the upgrade leaves it (passage_base NULL).
    const db = openDb(path);
    db.transaction(() => {
      for (let i = 0; i < 60; i++) {
        const id = `m_more_${i}`;
        db.prepare(
          "INSERT INTO meetings(id, json, name, created_at, updated_at, position, seen_walk) VALUES (?, ?, ?, '2026-02-01T00:00:00Z', '2026-02-01T00:00:00Z', ?, 1)",
        ).run(
          id,
          JSON.stringify({ id, name: `Weekly ${i}`, notes: `kiwifruit ${i}` }),
          `Weekly ${i}`,
          10 + i,
        );
      }
      db.exec("INSERT INTO passages(passages) VALUES ('delete-all')");
      db.exec('UPDATE meetings SET passage_base = NULL');
    });
    expect(unindexedCount(db)).toBe(60 + MEETINGS.length);
    // Killed after the first batch: what it indexed stays, consistent.
    expect(() =>
      buildIndex(db, () => {
        throw new Error('killed');
      }),
    ).toThrow('killed');
    const left = unindexedCount(db);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(60 + MEETINGS.length);
    db.exec("INSERT INTO passages(passages) VALUES ('integrity-check')");
    db.close();
    const localEnv = { MTG_DATA_DIR: dir, MTG_CONFIG_DIR: env.MTG_CONFIG_DIR!, MTG_OFFLINE: '1' };
    const status = await runInProcess(['mirror', 'status', '--json'], { env: localEnv });
    expect(JSON.parse(status.stdout).searchIndex).toEqual({
      state: 'building',
      pending: left,
      vocabulary: 'ready',
    });
    const r = await runInProcess(['find', 'kiwifruit', '--json'], { env: localEnv });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Building the search index from the mirror (${left} meetings`);
    expect(JSON.parse(r.stdout)).toHaveLength(60);
    const again = await runInProcess(['find', 'kiwifruit', '--json'], { env: localEnv });
    expect(again.stderr).not.toContain('Building');
    const done = await runInProcess(['mirror', 'status', '--json'], { env: localEnv });
    expect(JSON.parse(done.stdout).searchIndex).toEqual({ state: 'ready', pending: 0, vocabulary: 'ready' });
    // Nothing left to build: ensureSearchIndex says nothing.
    const mirror = openMirror({ profile: 'default', dataDir: dir, readonly: true });
    const lines: string[] = [];
    ensureSearchIndex(mirror, (l) => lines.push(l));
    mirror.close();
    expect(lines).toEqual([]);
  });
});
