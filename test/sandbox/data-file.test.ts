// `mtg sandbox --data FILE`: the sandbox serves a JSON file's meetings, transcripts, people,
// companies, action items and tags (gzip or not, told by its first bytes) instead of generated data,
// with auth, limits and pagination as usual; a file it cannot serve is one line, exit 2.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { loadDataFile, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/inprocess.js';
import { runRecordedInProcess } from '../helpers/recorded.js';
import { tempDir } from '../helpers/temp.js';

const meeting = (id: string, name: string, day: number, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  createdAt: `2024-01-0${day}T09:00:00.000Z`,
  updatedAt: `2024-01-0${day}T09:00:00.000Z`,
  duration: 600,
  url: null,
  icalUid: null,
  attendees: [],
  notes: null,
  privateNotes: '',
  insights: {},
  linkAccess: 'Viewer',
  calendarEvent: null,
  actionItems: [],
  tags: [],
  ...extra,
});

const dana = {
  profileId: 7,
  name: 'Dana Whitfield',
  title: 'Designer',
  companyName: 'Remote Co',
  email: 'dana@remote.example',
  isCalendarEventOrganizer: true,
  isCalendarInvitee: true,
};

const FIXTURE = {
  source: 'a test fixture',
  meetings: [
    meeting('m1', 'Kick-off', 1),
    meeting('m2', 'Remote design', 2, {
      attendees: [dana],
      tags: [{ id: 3, name: 'design', description: null }],
      actionItems: [
        {
          id: 11,
          title: 'Cost the buttons',
          description: '',
          assignee: {
            profileId: 7,
            name: 'Dana Whitfield',
            title: 'Designer',
            companyName: 'Remote Co',
            email: 'dana@remote.example',
          },
          status: 'PENDING',
        },
      ],
    }),
    meeting('m3', 'Budget review', 3),
  ],
  transcripts: {
    m2: [
      { speaker: 'Project Manager', text: 'The remote control needs fewer buttons .', timestamp: 0 },
      { speaker: 'Marketing', text: 'Budget is twelve euros fifty .', timestamp: 15 },
    ],
  },
  people: [
    {
      id: 7,
      title: 'Designer',
      companyId: 40,
      companyName: 'Remote Co',
      email: 'dana@remote.example',
      firstName: 'Dana',
      lastName: 'Whitfield',
    },
  ],
  companies: [{ name: 'Remote Co', avatarUrl: null, domain: 'remote.example' }],
};

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

function write(name: string, content: string | Buffer): string {
  const path = join(tempDir(), name);
  writeFileSync(path, content);
  return path;
}

const json = (r: { code: number; stdout: string; stderr: string }) => {
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>[];
};

describe('mtg sandbox --data', () => {
  // The gzipped copy has a name that says nothing: the first bytes decide.
  for (const [label, file] of [
    ['plain JSON', () => write('corpus.json', JSON.stringify(FIXTURE))],
    ['gzipped JSON', () => write('corpus.data', gzipSync(JSON.stringify(FIXTURE)))],
  ] as const) {
    it(`serves the meetings, transcripts, people, companies and action items of ${label}, paged`, async () => {
      sandbox = await startSandbox({ port: 0, pageSize: 2, limits: 'none', store: loadDataFile(file()) });
      const list = await runRecordedInProcess(sandbox, ['meetings', 'list', '--json']);
      const meetings = json(list);
      // Newest first, two pages of two: pagination works over the file's records.
      expect(meetings.map((m) => m.id)).toEqual(['m3', 'm2', 'm1']);
      expect(list.requests.filter((r) => r.path === '/meetings')).toHaveLength(2);
      const m2 = meetings[1]!;
      expect(m2.name).toBe('Remote design');
      expect(m2.attendees).toEqual([dana]);
      expect(m2.tags).toEqual([{ id: 3, name: 'design', description: null }]);

      const transcript = json(
        await runRecordedInProcess(sandbox, ['meetings', 'transcript', 'm2', '--json']),
      );
      expect(transcript).toEqual(FIXTURE.transcripts.m2);
      // A meeting the file gives no transcript has an empty one.
      const none = await runRecordedInProcess(sandbox, ['meetings', 'transcript', 'm1', '--json']);
      expect([none.code, JSON.parse(none.stdout)]).toEqual([0, []]);

      expect(json(await runRecordedInProcess(sandbox, ['people', 'list', '--json']))).toEqual(FIXTURE.people);
      const companies = json(
        await runRecordedInProcess(sandbox, ['companies', 'view', 'remote.example', '--json']),
      );
      expect(companies).toMatchObject({ name: 'Remote Co', people: FIXTURE.people });
      const items = json(
        await runRecordedInProcess(sandbox, ['action-items', 'list', '--assignee', 'anyone', '--json']),
      );
      expect(items).toMatchObject([{ id: 11, title: 'Cost the buttons', meetingIds: ['m2'] }]);
      // Generated data is not mixed in.
      expect(sandbox.snapshot().meetings).toHaveLength(3);
    });
  }

  it('keeps auth and the rate limits over the file', async () => {
    const file = write('corpus.json', JSON.stringify(FIXTURE));
    sandbox = await startSandbox({ port: 0, limits: '1/10s', store: loadDataFile(file) });
    const bad = await fetch(`${sandbox.baseUrl}/meetings`);
    expect(bad.status).toBe(401);
    const get = () =>
      fetch(`${sandbox!.baseUrl}/meetings`, { headers: { authorization: `Bearer ${sandbox!.apiKey}` } });
    expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(429);
  });

  const badFiles: [string, string | Buffer, RegExp][] = [
    ['not JSON', '{"meetings": [', /not JSON/],
    ['a gzip stream cut short', gzipSync(JSON.stringify(FIXTURE)).subarray(0, 40), /does not decompress/],
    ['no meetings', '{"transcripts": {}}', /meetings/],
    ['a meeting without its dates', JSON.stringify({ meetings: [{ id: 'x', name: null }] }), /meetings\.0\./],
    [
      'a transcript of no meeting',
      JSON.stringify({ meetings: [meeting('a', 'A', 1)], transcripts: { zz: [] } }),
      /transcripts\.zz/,
    ],
    [
      'the same meeting twice',
      JSON.stringify({ meetings: [meeting('a', 'A', 1), meeting('a', 'B', 2)] }),
      /twice/,
    ],
  ];
  for (const [label, content, why] of badFiles) {
    it(`refuses ${label}: one line, exit 2, nothing served`, async () => {
      const file = write('bad.json', content);
      const r = await runInProcess(['sandbox', '--data', file, '--json']);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(file);
      expect(r.stderr).toMatch(why);
    });
  }

  it("refuses a missing file, and the generated data's options beside --data", async () => {
    const missing = await runInProcess(['sandbox', '--data', join(tempDir(), 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.json: no such file/);
    const file = write('corpus.json', JSON.stringify(FIXTURE));
    const both = await runInProcess(['sandbox', '--data', file, '--meetings', '5']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--meetings works on generated data/);
  });
});
