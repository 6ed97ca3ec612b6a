// The build validates API responses with code generated from the zod schemas at build time
// (scripts/validators.ts), loading zod only for a body that code rejects: the built CLI must accept
// and refuse the same bodies as the source (which validates with zod itself), with the same words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionItem, type OddServer, oddEnv, startOddServer } from '../hardening/odd-server.js';
import { runCli } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';

const meeting = (extra: Record<string, unknown> = {}) => ({
  id: 'm1',
  name: 'Weekly',
  createdAt: '2025-06-01T11:11:00.000Z',
  updatedAt: '2025-06-01T11:11:00+02:00',
  duration: 60,
  url: null,
  tags: [{ id: 3, name: 'sales', description: null }],
  icalUid: null,
  attendees: [],
  notes: null,
  privateNotes: '',
  actionItems: [actionItem(3)],
  insights: { summary: [{ speaker: null, timestamp: 1.5, insight: { score: 3, ok: true, note: null } }] },
  linkAccess: 'Commenter',
  ...extra,
});
const { title: _untitled, ...untitled } = actionItem(1);

// [label, command, body text]: valid bodies, additive ones, and each kind of breaking difference.
const cases: [string, string[], string][] = [
  ['items: valid', ['action-items', 'list', '--assignee', 'anyone'], JSON.stringify([actionItem(1)])],
  [
    'items: an ID beyond 2^53',
    ['action-items', 'list', '--assignee', 'anyone'],
    '[{"id":90071992547409931,"title":"t","description":"","assignee":null,"status":"DONE","meetingIds":[]}]',
  ],
  [
    'items: a negative ID beyond 2^53',
    ['action-items', 'list', '--assignee', 'anyone'],
    '[{"id":-90071992547409931,"title":"t","description":"","assignee":null,"status":"DONE","meetingIds":[]}]',
  ],
  [
    'items: an ID of 0',
    ['action-items', 'list', '--assignee', 'anyone'],
    JSON.stringify([actionItem(1, { id: 0 })]),
  ],
  ['items: a title missing', ['action-items', 'list', '--assignee', 'anyone'], JSON.stringify([untitled])],
  [
    'items: meetingIds not a list',
    ['action-items', 'list', '--assignee', 'anyone'],
    JSON.stringify([actionItem(1, { meetingIds: 'm1' })]),
  ],
  [
    'items: an unlisted status',
    ['action-items', 'list', '--assignee', 'anyone'],
    JSON.stringify([actionItem(1, { status: 'IN_PROGRESS' })]),
  ],
  ['items: not a list', ['action-items', 'list', '--assignee', 'anyone'], JSON.stringify(actionItem(1))],
  ['meetings: valid', ['meetings', 'list'], JSON.stringify([meeting()])],
  [
    'meetings: a date without an offset',
    ['meetings', 'list'],
    JSON.stringify([meeting({ createdAt: '2025-06-01 11:11' })]),
  ],
  [
    'meetings: an insight of the wrong type',
    ['meetings', 'list'],
    JSON.stringify([meeting({ insights: { s: [{ speaker: null, timestamp: 1, insight: [1] }] } })]),
  ],
  [
    'meetings: a tag ID not an integer',
    ['meetings', 'list'],
    JSON.stringify([meeting({ tags: [{ id: 1.5, name: 'x', description: null }] })]),
  ],
  ['meetings: recordingUrl null', ['meetings', 'list'], JSON.stringify([meeting({ recordingUrl: null })])],
  ['meetings: recordingUrl a number', ['meetings', 'list'], JSON.stringify([meeting({ recordingUrl: 5 })])],
  [
    'transcript: valid',
    ['meetings', 'transcript', 'm1', '--format', 'json'],
    JSON.stringify([{ speaker: 'A', text: 'hi', timestamp: 0 }]),
  ],
  [
    'transcript: a timestamp as text',
    ['meetings', 'transcript', 'm1', '--format', 'json'],
    JSON.stringify([{ speaker: 'A', text: 'hi', timestamp: '0' }]),
  ],
  ['tag: valid', ['tags', 'create', 'x'], JSON.stringify({ id: 7, name: 'x', description: null })],
  ['tag: a description missing', ['tags', 'create', 'x'], JSON.stringify({ id: 7, name: 'x' })],
  // `mtg api --paginate` pages any path: its items have no schema of their own (z.unknown()).
  ['api --paginate: any items', ['api', '/anything', '--paginate'], JSON.stringify([1, { a: [] }, 'x'])],
  ['api --paginate: a page not a list', ['api', '/anything', '--paginate'], JSON.stringify({ a: 1 })],
];

let server: OddServer;
let body = '';
beforeAll(async () => {
  server = await startOddServer(() => ({ body }));
});
afterAll(() => server.close());

describe('the response validators of the build', () => {
  it.each(cases)('%s: the built CLI answers as the source does', async (_label, argv, text) => {
    body = text;
    const args = [...argv, '--json'];
    const built = await runCli(args, { env: oddEnv(server) });
    const source = await runInProcess(args, { env: oddEnv(server) });
    expect({ code: built.code, stdout: built.stdout, stderr: built.stderr }).toEqual({
      code: source.code,
      stdout: source.stdout,
      stderr: source.stderr,
    });
  });

  it('the cases hold both answers: accepted and refused bodies', async () => {
    const codes = new Set<number | null>();
    for (const [, argv, text] of cases) {
      body = text;
      codes.add((await runInProcess([...argv, '--json'], { env: oddEnv(server) })).code);
    }
    expect([...codes].sort()).toEqual([0, 1]);
  });
});
