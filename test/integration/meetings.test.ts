// `mtg meetings` end to end: the built CLI against the sandbox over real HTTP.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Meeting, TranscriptEntry } from '../../src/api/schemas.js';
import { HOSTILE, HOSTILE_MEETING_ID, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { runCli, sandboxEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

let sandbox: Sandbox;
let env: Record<string, string>;
/** Every meeting, as the API sends them (fetched once, straight from the sandbox). */
let meetings: Meeting[];
/** A meeting whose insights have both forms: plain strings and custom-field objects. */
let rich: Meeting;

// Anything a terminal would interpret: ESC, BEL, C1 controls, CR.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

async function api<T>(path: string): Promise<{ body: T; text: string; link: string | null }> {
  const res = await fetch(`${sandbox.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${sandbox.apiKey}` },
  });
  const text = await res.text();
  return { body: JSON.parse(text) as T, text, link: res.headers.get('link') };
}

async function allMeetings(): Promise<Meeting[]> {
  const out: Meeting[] = [];
  let path: string | undefined = '/meetings';
  while (path) {
    const page: { body: Meeting[]; link: string | null } = await api<Meeting[]>(path);
    out.push(...page.body);
    const next = page.link ? /<([^>]+)>;\s*rel="next"/.exec(page.link)?.[1] : undefined;
    const url = next ? new URL(next, sandbox.baseUrl) : undefined;
    path = url ? url.pathname + url.search : undefined;
  }
  return out;
}

// Each run gets its own API key (all of one account), so the requests it caused can be told apart
// while runs go on in parallel.
const KEYS = Array.from({ length: 200 }, (_, i) => `mtg_sk_meetings_test_${i}`);
let nextKey = 1;

/** Runs the CLI and returns what it did, with the requests that reached the sandbox because of it. */
async function mtg(args: string[], options: { input?: string; env?: Record<string, string> } = {}) {
  const key = KEYS[nextKey++]!;
  const result = await runCli(args, {
    env: { ...env, MTG_API_KEY: key, ...options.env },
    input: options.input,
  });
  const requests = sandbox.requests.filter((r) => r.headers.authorization === `Bearer ${key}`);
  return { ...result, requests };
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, limits: 'none', pageSize: 10, apiKeys: KEYS });
  env = sandboxEnv(sandbox);
  meetings = await allMeetings();
  const found = meetings.find((m) => {
    const results = Object.values(m.insights).flat();
    return (
      results.some((r) => typeof r.insight === 'string') &&
      results.some((r) => typeof r.insight === 'object') &&
      m.actionItems.length > 0 &&
      m.notes
    );
  });
  if (!found) throw new Error('the sandbox has no meeting with both insight forms');
  rich = found;
});

afterAll(async () => {
  await sandbox?.close();
});

describe.concurrent('meetings list', () => {
  it('pages through every meeting in each format', async () => {
    const [json, ndjson, csv, tsv, table] = await Promise.all([
      mtg(['meetings', 'list', '--json']),
      mtg(['meeting', 'list', '--format', 'ndjson']),
      mtg(['meetings', 'list', '--format', 'csv']),
      mtg(['meetings', 'list', '--limit', '3']),
      mtg(['meetings', 'list', '--format', 'table', '--limit', '2']),
    ]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(meetings);
    expect(json.requests.length).toBe(Math.ceil(meetings.length / 10));

    const lines = ndjson.stdout.trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as Meeting).id)).toEqual(meetings.map((m) => m.id));

    const rows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.id)).toEqual(meetings.map((m) => m.id));
    expect(rows[0]!.tags).toBe(meetings[0]!.tags.map((t) => t.name).join(';'));

    const tsvLines = tsv.stdout.trimEnd().split('\n');
    expect(tsvLines[0]!.split('\t')[0]).toBe('id');
    expect(tsvLines.slice(1).map((l) => l.split('\t')[0])).toEqual(meetings.slice(0, 3).map((m) => m.id));
    expect(tsv.requests).toHaveLength(1);

    expect(table.stdout.split('\n')[0]).toMatch(/^id\s+name\s+createdAt\s+duration\s+tags$/);
    expect(table.stdout).toContain(meetings[0]!.id);
    expect(table.stdout).not.toMatch(CONTROL);
  });

  it('sends --tag values as repeated tagIds', async () => {
    const res = await mtg(['meetings', 'list', '--tag', '1', '--tag', '2,3', '--json']);
    expect(res.code).toBe(0);
    expect(res.requests[0]!.path).toBe('/meetings');
    expect(res.requests[0]!.query.getAll('tagIds')).toEqual(['1', '2', '3']);
    for (const m of JSON.parse(res.stdout) as Meeting[]) {
      expect(m.tags.some((t) => [1, 2, 3].includes(t.id))).toBe(true);
    }
  });

  it('rejects a bad tag ID before sending anything', async () => {
    const res = await mtg(['meetings', 'list', '--tag', 'x']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/Tag ID must be a positive whole number/);
    expect(res.requests).toHaveLength(0);
  });
});

describe.concurrent('meetings search', () => {
  it('sends the term and every filter to GET /search', async () => {
    const attendee = rich.attendees[0]!.profileId;
    const res = await mtg([
      'meetings',
      'search',
      'the',
      '--tag',
      '1,2',
      '--attendee',
      String(attendee),
      '--meeting',
      rich.id,
      '--meeting',
      HOSTILE_MEETING_ID,
      '--json',
    ]);
    expect(res.code).toBe(0);
    const q = res.requests[0]!.query;
    expect(res.requests[0]!.path).toBe('/search');
    expect(q.get('searchTerm')).toBe('the');
    expect(q.getAll('tagIds')).toEqual(['1', '2']);
    expect(q.getAll('attendeeProfileIds')).toEqual([String(attendee)]);
    expect(q.getAll('meetingIds')).toEqual([rich.id, HOSTILE_MEETING_ID]);
    expect(Array.isArray(JSON.parse(res.stdout))).toBe(true);
  });

  it('finds meetings by term in every format', async () => {
    const term = 'SSO';
    const { body: expected } = await api<Meeting[]>(`/search?searchTerm=${term}`);
    const json = await mtg(['meetings', 'search', term, '--json', '--limit', '10']);
    expect((JSON.parse(json.stdout) as Meeting[]).map((m) => m.id)).toEqual(expected.map((m) => m.id));

    const csv = await mtg([
      'meetings',
      'search',
      term,
      '--format',
      'csv',
      '--fields',
      'id,name',
      '--limit',
      '10',
    ]);
    expect(parse(csv.stdout, { columns: true })).toEqual(
      expected.map((m) => ({ id: m.id, name: m.name ?? '' })),
    );
    const table = await mtg(['meetings', 'search', term, '--format', 'table', '--limit', '10']);
    expect(table.stdout).toContain(expected[0]!.id);
  });

  it('rejects a bad attendee ID before sending anything', async () => {
    const res = await mtg(['meetings', 'search', '--attendee', '0']);
    expect(res.code).toBe(2);
    expect(res.requests).toHaveLength(0);
  });
});

describe.concurrent('meetings view', () => {
  it('shows the date in the local zone: plain "UTC" for UTC, the offset otherwise', async () => {
    const utc = await mtg(['meetings', 'view', rich.id, '--format', 'table'], { env: { TZ: 'UTC' } });
    expect(utc.stdout).toMatch(/^ {2}Date\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC( \(|$)/m);
    const kolkata = await mtg(['meetings', 'view', rich.id, '--format', 'table'], {
      env: { TZ: 'Asia/Kolkata' },
    });
    expect(kolkata.stdout).toMatch(/^ {2}Date\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC\+05:30( \(|$)/m);
  });

  it('shows a readable page with notes, action items and both insight forms', async () => {
    const res = await mtg(['meetings', 'view', rich.id, '--format', 'table']);
    expect(res.code).toBe(0);
    expect(res.requests).toHaveLength(1);
    expect(res.requests[0]!.path).toBe('/search');
    expect(res.requests[0]!.query.getAll('meetingIds')).toEqual([rich.id]);

    const page = res.stdout;
    expect(page).not.toMatch(CONTROL);
    expect(page.split('\n')[0]).toBe(rich.name ?? 'Untitled meeting');
    expect(page).toMatch(new RegExp(`^  ID\\s+${rich.id}$`, 'm'));
    expect(page).toMatch(/^ {2}Date\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC/m);
    for (const a of rich.attendees) if (a.name) expect(page).toContain(a.name);
    // Notes as clean text: no Markdown markers left over.
    expect(page).toMatch(/^Notes$/m);
    expect(page).toMatch(/^ {2}• /m);
    expect(page).not.toContain('**');
    expect(page).not.toMatch(/^ {2}## /m);
    // Action items with their status.
    for (const item of rich.actionItems) {
      expect(page).toMatch(new RegExp(`^ {2}${item.status}\\s+${escapeRegExp(item.title)}`, 'm'));
    }
    // Insights: strings as bullets, custom fields as key: value lines.
    expect(page).toMatch(/^Insights$/m);
    for (const [name, results] of Object.entries(rich.insights)) {
      expect(page).toContain(`  ${name}`);
      for (const r of results) {
        if (typeof r.insight === 'string') expect(page).toContain(`• ${r.insight}`);
        else {
          for (const [k, v] of Object.entries(r.insight)) {
            expect(page).toMatch(new RegExp(`${k}: ${v === null ? '—' : escapeRegExp(String(v))}$`, 'm'));
          }
        }
      }
    }
    expect(page).toMatch(/^Shared with$/m);
    for (const s of rich.sharedWith ?? []) expect(page).toContain(s.name);
  });

  it('colors statuses only when color is on, and then only with SGR codes', async () => {
    const res = await mtg(['meetings', 'view', HOSTILE_MEETING_ID, '--format', 'table'], {
      env: { FORCE_COLOR: '1' },
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('\u001b[33mPENDING');
    expect(res.stdout).toContain('\u001b[32mDONE');
    const withoutSgr = res.stdout.replace(/\u001b\[[0-9;]*m/g, '');
    expect(withoutSgr).not.toMatch(CONTROL);

    const plain = await mtg(['meetings', 'view', HOSTILE_MEETING_ID, '--format', 'table', '--no-color'], {
      env: { FORCE_COLOR: '1' },
    });
    expect(plain.stdout).not.toContain('\u001b');
  });

  it('sanitizes the hostile meeting in the page but keeps it byte-exact in --json', async () => {
    const table = await mtg(['meetings', 'view', HOSTILE_MEETING_ID, '--format', 'table']);
    expect(table.code).toBe(0);
    expect(table.stdout).not.toMatch(CONTROL);
    expect(table.stdout).not.toContain('evil.example/'); // the OSC 8 link target is gone
    expect(table.stdout.split('\n')[0]).toBe('RED ALERT Board prep ding');
    expect(table.stdout).toContain('click me');

    const { body } = await api<Meeting[]>(`/search?meetingIds=${HOSTILE_MEETING_ID}`);
    const json = await mtg(['meetings', 'view', HOSTILE_MEETING_ID, '--json']);
    const parsed = JSON.parse(json.stdout) as Meeting;
    expect(parsed).toEqual(body[0]);
    expect(JSON.stringify(parsed)).toBe(JSON.stringify(body[0])); // same keys in the same order
    expect(parsed.name).toBe(`${HOSTILE.ansiRed} ${HOSTILE.oscTitle}Board prep ${HOSTILE.bell}`);
    expect(parsed.notes).toContain(HOSTILE.oscLink);

    const ndjson = await mtg(['meetings', 'view', HOSTILE_MEETING_ID, '--format', 'ndjson']);
    expect(ndjson.stdout.endsWith('\n')).toBe(true);
    expect(ndjson.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(ndjson.stdout)).toEqual(body[0]);
  });

  it('gives one row in csv and tsv', async () => {
    const csv = await mtg(['meetings', 'view', rich.id, '--format', 'csv']);
    const rows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(rich.id);
    const tsv = await mtg(['meetings', 'view', rich.id, '--fields', 'id,duration']);
    expect(tsv.stdout).toBe(`id\tduration\n${rich.id}\t${rich.duration ?? ''}\n`);
  });

  it('exits 4 for a meeting that does not exist', async () => {
    const res = await mtg(['meetings', 'view', 'mtg_nope']);
    expect(res.code).toBe(4);
    expect(res.stderr).toBe('mtg: Meeting mtg_nope not found\n');
    expect(res.stdout).toBe('');
  });

  it('--web prints the web-app link and sends nothing', async () => {
    const res = await mtg(['meetings', 'view', rich.id, '--web'], {
      env: { MTG_APP_URL: 'https://app.example.com/' },
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`https://app.example.com/meetings/${rich.id}\n`);
    expect(res.requests).toHaveLength(0);
  });

  it('--web refuses --json, --format and --fields (one line, nothing sent)', async () => {
    const env = { MTG_APP_URL: 'https://app.example.com' };
    for (const extra of [['--json'], ['--format', 'csv'], ['--fields', 'id'], ['--jq', '.id']]) {
      const res = await mtg(['meetings', 'view', rich.id, '--web', ...extra], { env });
      expect(res.code, extra.join(' ')).toBe(2);
      expect(res.stderr).toBe(
        'mtg: --web prints the link only: it takes no --json, --format, --fields or --jq\n',
      );
      expect(res.stdout).toBe('');
      expect(res.requests).toHaveLength(0);
    }
  });

  it('--web without an app URL says how to set one', async () => {
    const res = await mtg(['meetings', 'view', rich.id, '--web']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/MTG_APP_URL/);
    expect(res.stderr).toMatch(/mtg config set app-url/);
    expect(res.requests).toHaveLength(0);
  });
});

describe.concurrent('meetings transcript', () => {
  let hostile: { body: TranscriptEntry[]; text: string };
  let normal: TranscriptEntry[];

  beforeAll(async () => {
    hostile = await api<TranscriptEntry[]>(`/meeting/${HOSTILE_MEETING_ID}/transcript`);
    normal = (await api<TranscriptEntry[]>(`/meeting/${rich.id}/transcript`)).body;
  });

  it('defaults to text: [mm:ss] Speaker: text, sanitized', async () => {
    const res = await mtg(['meetings', 'transcript', rich.id]);
    expect(res.code).toBe(0);
    expect(res.requests.map((r) => r.path)).toEqual([`/meeting/${rich.id}/transcript`]);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(normal.length);
    lines.forEach((line, i) => {
      const e = normal[i]!;
      expect(line).toMatch(/^\[(\d+:)?\d\d:\d\d\] /);
      expect(line.endsWith(`${e.speaker}: ${e.text}`)).toBe(true);
    });
    const h = await mtg(['meetings', 'transcript', HOSTILE_MEETING_ID]);
    expect(h.stdout).not.toMatch(/[\u001b\u0007\u009b\r]/);
    expect(h.stdout.split('\n')[0]).toBe('[00:00] Mallory: RED ALERT is red');
  });

  it('writes srt with numbered cues ending at the next entry', async () => {
    const res = await mtg(['meetings', 'transcript', rich.id, '--format', 'srt']);
    expect(res.code).toBe(0);
    const cues = parseCues(res.stdout, ',');
    expect(cues.map((c) => c.index)).toEqual(normal.map((_, i) => i + 1));
    cues.forEach((cue, i) => {
      expect(cue.start).toBeCloseTo(normal[i]!.timestamp, 3);
      const next = normal[i + 1];
      if (next) expect(cue.end).toBeCloseTo(next.timestamp, 3);
      else expect(cue.end).toBeGreaterThan(cue.start);
      expect(cue.text).toBe(`${normal[i]!.speaker}: ${normal[i]!.text}`);
    });
    const h = await mtg(['meetings', 'transcript', HOSTILE_MEETING_ID, '--format', 'srt']);
    expect(h.stdout).not.toMatch(CONTROL);
    expect(parseCues(h.stdout, ',')).toHaveLength(hostile.body.length);
  });

  it('writes vtt with a header, voice spans and dot timestamps', async () => {
    const res = await mtg(['meetings', 'transcript', rich.id, '--format', 'vtt']);
    expect(res.code).toBe(0);
    expect(res.stdout.startsWith('WEBVTT\n\n')).toBe(true);
    const cues = parseCues(res.stdout.slice('WEBVTT\n\n'.length), '.');
    expect(cues).toHaveLength(normal.length);
    cues.forEach((cue, i) => {
      expect(cue.start).toBeCloseTo(normal[i]!.timestamp, 3);
      expect(cue.text).toBe(`<v ${vttEscape(normal[i]!.speaker)}>${vttEscape(normal[i]!.text)}`);
    });
    const h = await mtg(['meetings', 'transcript', HOSTILE_MEETING_ID, '--format', 'vtt']);
    expect(h.stdout).not.toMatch(CONTROL);
  });

  it('writes Markdown with the speakers in bold', async () => {
    const res = await mtg(['meetings', 'transcript', rich.id, '--format', 'md']);
    const paragraphs = res.stdout.trimEnd().split('\n\n');
    expect(paragraphs[0]).toBe(`# Transcript of meeting ${rich.id}`);
    expect(paragraphs).toHaveLength(normal.length + 1);
    paragraphs.slice(1).forEach((p, i) => {
      expect(p).toMatch(
        new RegExp(`^(\\d+:)?\\d\\d:\\d\\d \\*\\*${escapeRegExp(normal[i]!.speaker)}:\\*\\* `),
      );
    });
    const h = await mtg(['meetings', 'transcript', HOSTILE_MEETING_ID, '--format', 'md']);
    expect(h.stdout).not.toMatch(CONTROL);
  });

  it('keeps json and ndjson exactly as sent, control characters included', async () => {
    const json = await mtg(['meetings', 'transcript', HOSTILE_MEETING_ID, '--json']);
    expect(JSON.parse(json.stdout)).toEqual(hostile.body);
    expect(JSON.stringify(JSON.parse(json.stdout))).toBe(JSON.stringify(JSON.parse(hostile.text)));
    expect((JSON.parse(json.stdout) as TranscriptEntry[])[0]!.text).toBe(`${HOSTILE.ansiRed} is red`);

    const ndjson = await mtg(['meetings', 'transcript', HOSTILE_MEETING_ID, '--format', 'ndjson']);
    const lines = ndjson.stdout.trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual(hostile.body);
  });

  it('writes any format to -o FILE atomically', async () => {
    const dir = tempDir('mtg-transcript-');
    const formats = ['text', 'srt', 'vtt', 'md', 'json', 'ndjson'];
    const results = await Promise.all(
      formats.map((f) => mtg(['meetings', 'transcript', rich.id, '--format', f, '-o', join(dir, `t.${f}`)])),
    );
    results.forEach((res, i) => {
      expect(res.code).toBe(0);
      expect(res.stdout).toBe('');
      expect(readFileSync(join(dir, `t.${formats[i]}`), 'utf8').length).toBeGreaterThan(0);
    });
    expect(readFileSync(join(dir, 't.srt'), 'utf8').startsWith('1\n')).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('rejects a list-only format before sending anything, and exits 4 for an unknown meeting', async () => {
    const bad = await mtg(['meetings', 'transcript', rich.id, '--format', 'csv']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/text, json, ndjson, srt, vtt, md/);
    expect(bad.requests).toHaveLength(0);
    const missing = await mtg(['meetings', 'transcript', 'mtg_nope']);
    expect(missing.code).toBe(4);
  });

  it('refuses --fields in every format but json and ndjson, the default text too', async () => {
    for (const format of [
      [],
      ['--format', 'text'],
      ['--format', 'md'],
      ['--format', 'vtt'],
      ['--format', 'srt'],
    ]) {
      const res = await mtg(['meetings', 'transcript', rich.id, ...format, '--fields', 'speaker']);
      expect(res.code, format.join(' ')).toBe(2);
      expect(res.stderr).toMatch(/^mtg: --fields applies to --format json and ndjson only, not \w+\n$/);
      expect(res.stdout).toBe('');
      expect(res.requests).toHaveLength(0);
    }
  });
});

describe.concurrent('meetings share', () => {
  /** A different plain meeting per test, so tests running in parallel do not share one. */
  const target = (n: number) =>
    meetings.filter((m) => m.id !== rich.id && m.id !== HOSTILE_MEETING_ID)[n]!.id;

  it('sends 51 targets in two batches and reports a failure by its place in the whole list', async () => {
    const emails = Array.from({ length: 50 }, (_, i) => `person${i + 1}@batch.example`);
    const input = `${emails.join('\n')}\n{"email":"bob@x.invalid"}\n`;
    const res = await mtg(['meetings', 'share', target(0), '--stdin', '--json'], { input });
    expect(res.code).toBe(6);
    const puts = res.requests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(2);
    expect((puts[0]!.body as unknown[]).length).toBe(50);
    expect(puts[1]!.body).toEqual([{ email: 'bob@x.invalid', access: 'Viewer' }]);
    expect(res.stderr).toContain('target index 50 (bob@x.invalid): Unknown email domain: x.invalid');
    expect(res.stderr).toMatch(/with 50 of 51 targets; 1 failed/);
    const shared = (JSON.parse(res.stdout) as { sharedWith: { email?: string }[] }).sharedWith;
    expect(shared.map((s) => s.email)).toEqual(expect.arrayContaining(emails));
  });

  it('keeps indexes of the first batch, takes teams and NDJSON, and matches access case-insensitively', async () => {
    const res = await mtg(
      [
        'meetings',
        'share',
        target(1),
        '--email',
        'ann@ok.example,zed@nowhere.invalid',
        '--team',
        '2',
        '--stdin',
        '--access',
        'editor',
        '--format',
        'tsv',
      ],
      { input: '{"teamId": 3}\n# a comment\n\n1\n' },
    );
    expect(res.code).toBe(6);
    expect(res.requests).toHaveLength(1);
    expect(res.requests[0]!.body).toEqual([
      { email: 'ann@ok.example', access: 'Editor' },
      { email: 'zed@nowhere.invalid', access: 'Editor' },
      { teamId: 2, access: 'Editor' },
      { teamId: 3, access: 'Editor' },
      { teamId: 1, access: 'Editor' },
    ]);
    expect(res.stderr).toContain('target index 1 (zed@nowhere.invalid): Unknown email domain');
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('profileId\tname\taccess\temail\tteamId');
    expect(lines.some((l) => l.includes('ann@ok.example\t') && l.includes('\tEditor\t'))).toBe(true);
  });

  it('prints the sharing list as a table and exits 0 when everything applied', async () => {
    const res = await mtg(['meetings', 'share', target(2), '--team', '1', '--format', 'table']);
    expect(res.code).toBe(0);
    expect(res.stdout.split('\n')[0]).toMatch(/^name\s+email\s+teamId\s+access$/);
    expect(res.stdout).toMatch(/Engineering\s+1\s+Viewer/);
    expect(res.stderr).toMatch(/with 1 of 1 target\./);
  });

  it('exits 1 when every target failed', async () => {
    const res = await mtg(['meetings', 'share', target(3), '--email', 'a@b.invalid']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('target index 0 (a@b.invalid)');
  });

  it.each([
    ['--json', ['--json']],
    ['ndjson', ['--format', 'ndjson']],
    ['csv with an email column, not first', ['--format', 'csv', '--fields', 'firstName,email']],
    ['tsv', ['--format', 'tsv']],
  ])('shares with the people `people list %s` prints, piped into --stdin', async (_name, format) => {
    const ref = await mtg(['people', 'list', '--limit', '3', '--format', 'ndjson']);
    expect(ref.code, ref.stderr).toBe(0);
    const emails = ref.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { email: string }).email);
    expect(emails).toHaveLength(3);
    const list = await mtg(['people', 'list', '--limit', '3', ...format]);
    expect(list.code, list.stderr).toBe(0);
    const res = await mtg(['meetings', 'share', target(5), '--stdin', '--json'], { input: list.stdout });
    expect(res.stderr).not.toMatch(/^mtg: /m);
    const puts = res.requests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0]!.body).toEqual(emails.map((email) => ({ email, access: 'Viewer' })));
  });

  it('rejects a malformed email, no targets, and bad stdin before sending anything', async () => {
    const cases: [string[], string | undefined, RegExp][] = [
      [['--email', 'ok@fine.example,not-an-email'], undefined, /Invalid email address "not-an-email"/],
      [[], undefined, /Nothing to share with/],
      [['--stdin'], 'ok@fine.example\nnonsense\n', /stdin line 2: expected an email address or a team ID/],
      [['--stdin'], '{"name":"x"}\n', /stdin line 1: .*"email" or "teamId"/],
      [
        ['--stdin'],
        'name,createdAt\nAnn,2025-01-01\n',
        /the csv header row has no "email" or "teamId" column/,
      ],
      [['--stdin'], 'name,email\nAnn,ann@nodot\n', /stdin line 2: Invalid email address "ann@nodot"/],
      [['--team', '0'], undefined, /Team ID must be a positive whole number/],
      [['--email', 'a@b.example', '--access', 'Owner'], undefined, /Invalid access "Owner"/],
    ];
    const results = await Promise.all(
      cases.map(([flags, input]) => mtg(['meetings', 'share', target(4), ...flags], { input })),
    );
    results.forEach((res, i) => {
      const [flags, , message] = cases[i]!;
      expect(res.code, flags.join(' ')).toBe(2);
      expect(res.stderr).toMatch(message);
      expect(res.requests).toHaveLength(0);
    });
  });
});

function vttEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface ParsedCue {
  index: number;
  start: number;
  end: number;
  text: string;
}

/** Parses srt (or the cues of vtt): index line, "start --> end" line, text lines, blank line. */
function parseCues(text: string, separator: ',' | '.'): ParsedCue[] {
  const time = (s: string): number => {
    const m = new RegExp(`^(\\d\\d):(\\d\\d):(\\d\\d)\\${separator}(\\d{3})$`).exec(s);
    if (!m) throw new Error(`bad timestamp "${s}"`);
    return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000;
  };
  expect(text.endsWith('\n')).toBe(true);
  return text
    .trimEnd()
    .split('\n\n')
    .map((block) => {
      const [index, timing, ...lines] = block.split('\n');
      expect(index).toMatch(/^\d+$/);
      const [start, end] = timing!.split(' --> ');
      expect(lines.length).toBeGreaterThan(0);
      return { index: Number(index), start: time(start!), end: time(end!), text: lines.join('\n') };
    });
}
