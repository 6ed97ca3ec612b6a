import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { tempDir } from '../helpers/temp.js';

let sandbox: Sandbox;
const folder = tempDir('mtg-bad-');

beforeAll(async () => {
  sandbox = await startSandbox({ limits: 'none' });
});
afterAll(async () => {
  await sandbox.close();
});

const AI = ['action-items', 'list'];
const UPDATE = ['action-items', 'update'];
const SET_NOTES = ['calendar', 'set-notes', 'evt_1'];
const SHARE = ['meetings', 'share', 'mtg_1'];

/** [what is wrong, argv, stdin?] */
const BAD_INPUTS: [string, string[], string?][] = [
  // positive integer IDs (one beyond 2^53 is valid: stdin-formats.test.ts)
  ...['0', '-1', '1.5', 'abc', '00000000000000000', '1e3', ' ', '0x10'].map((id): [string, string[]] => [
    `action item ID ${JSON.stringify(id)}`,
    [...UPDATE, id, '--title', 'x'],
  ]),
  ...['0', '1.5', 'abc', '-90071992547409931'].map((id): [string, string[]] => [
    `tag ID ${id}`,
    ['tags', 'update', id, '--name', 'x'],
  ]),
  ['tags apply: tag ID 0', ['tags', 'apply', '0', 'mtg_1']],
  ['tags apply: tag ID -1', ['tags', 'apply', '-1', 'mtg_1']],
  ['--tag abc (action-items list)', [...AI, '--tag', 'abc']],
  ['--tag 3,0 (comma list)', [...AI, '--tag', '3,0']],
  ['--attendee 1.5', [...AI, '--attendee', '1.5']],
  ['--assignee-team 0', [...AI, '--assignee-team', '0']],
  ['--assignee 0 (a profile ID)', [...AI, '--assignee', '0']],
  ['--assignee 1.5', [...AI, '--assignee', '1.5']],
  ['meetings search --tag 1.5', ['meetings', 'search', '--tag', '1.5']],
  ['meetings search --attendee abc', ['meetings', 'search', '--attendee', 'abc']],
  ['meetings list --tag -2', ['meetings', 'list', '--tag', '-2']],
  ['people list --tag 0', ['people', 'list', '--tag', '0']],
  ['companies list --tag x', ['companies', 'list', '--tag', 'x']],
  ['calendar --tag 0', [...SET_NOTES, '--tag', '0']],
  ['create --assignee abc', ['action-items', 'create', 'Title', '--assignee', 'abc']],
  ['update --assignee 0', [...UPDATE, '1', '--assignee', '0']],
  ['share --team 0', [...SHARE, '--team', '0']],
  ['--stdin with a bad ID', [...UPDATE, '--stdin', '--title', 'x'], '5\nabc\n'],
  ['--stdin with bad JSON', [...UPDATE, '--stdin', '--title', 'x'], '{"id": \n'],
  // string IDs
  ['meeting ID with a space', ['meetings', 'view', 'a b']],
  ['meeting ID with a slash', ['meetings', 'transcript', '../etc']],
  ['empty meeting ID', ['meetings', 'view', '']],
  // enum values
  ['--status nope', [...AI, '--status', 'nope']],
  ['--status for update: ALL', [...UPDATE, '1', '--status', 'ALL']],
  ['--assignee someone', [...AI, '--assignee', 'someone']],
  ['--access Owner', [...SHARE, '--email', 'a@b.co', '--access', 'Owner']],
  ['--access empty', [...SHARE, '--email', 'a@b.co', '--access', '']],
  ['--format xml', [...AI, '--format', 'xml']],
  ['--format srt for a list', [...AI, '--format', 'srt']],
  ['--format table for a transcript', ['meetings', 'transcript', 'mtg_1', '--format', 'table']],
  ['--json with --format csv', [...AI, '--json', '--format', 'csv']],
  ['sandbox --plan Nope', ['sandbox', '--plan', 'Nope']],
  ['api --method BREW', ['api', '/people', '--method', 'BREW']],
  // share targets
  ['share with zero targets', SHARE],
  ['share: malformed email', [...SHARE, '--email', 'not-an-email']],
  ['share: email without a domain dot', [...SHARE, '--email', 'a@b']],
  ['share: email with a space', [...SHARE, '--email', 'a b@c.com']],
  ['share: one bad email among good ones', [...SHARE, '--email', 'a@b.co,@c.co']],
  ['share: --stdin with zero targets', [...SHARE, '--stdin'], '\n'],
  // nothing to change
  ['action-items update with nothing to change', [...UPDATE, '1']],
  ['tags update with nothing to change', ['tags', 'update', '1']],
  ['calendar set-notes with nothing to set', SET_NOTES],
  ['update --title ""', [...UPDATE, '1', '--title', '']],
  ['create with an empty title', ['action-items', 'create', '']],
  ['tags create with an empty name', ['tags', 'create', '']],
  ['update without IDs', [...UPDATE, '--title', 'x']],
  // --notes-file
  ['--notes-file that does not exist', [...SET_NOTES, '--notes-file', join(folder, 'missing.md')]],
  ['--notes-file that is a folder', [...SET_NOTES, '--notes-file', folder]],
  ['--notes and --notes-file', [...SET_NOTES, '--notes', 'x', '--notes-file', join(folder, 'missing.md')]],
  ['--tag and --clear-tags', [...SET_NOTES, '--tag', '1', '--clear-tags']],
  // global options
  ['--limit 0', [...AI, '--limit', '0']],
  ['--limit -1', [...AI, '--limit', '-1']],
  ['--limit 1.5', [...AI, '--limit', '1.5']],
  ['--limit abc', [...AI, '--limit', 'abc']],
  ['--timeout 0', [...AI, '--timeout', '0']],
  ['--timeout -1', [...AI, '--timeout', '-1']],
  ['--timeout abc', [...AI, '--timeout', 'abc']],
  ['--max-retries -1', [...AI, '--max-retries', '-1']],
  ['--max-retries 1.5', [...AI, '--max-retries', '1.5']],
  ['--max-wait -5', [...AI, '--max-wait', '-5']],
  ['--fields nosuch', [...AI, '--fields', 'nosuch']],
  ['--fields id,assignee.nosuch', [...AI, '--fields', 'id,assignee.nosuch']],
  [
    '--fields on a transcript as srt',
    ['meetings', 'transcript', 'mtg_1', '--format', 'srt', '--fields', 'text'],
  ],
  ['--checkpoint without -o', [...AI, '--checkpoint', join(folder, 'ck.json')]],
  ['--base-url that is not a URL', [...AI, '--base-url', 'not a url']],
  ['--base-url ftp://', [...AI, '--base-url', 'ftp://example.com']],
  ['--base-url with credentials', [...AI, '--base-url', 'http://u:p@127.0.0.1:1']],
  // the command line itself
  ['unknown command', ['action-items', 'frobnicate']],
  ['unknown option', [...AI, '--frobnicate']],
  ['missing argument', ['meetings', 'view']],
  ['too many arguments', ['meetings', 'view', 'a', 'b']],
  ['option without its value', [...AI, '--status']],
  ['api PATH without a leading /', ['api', 'people']],
  ['api --field without =', ['api', '/people', '-F', 'novalue']],
  ['api --input that does not exist', ['api', '/tag', '-X', 'POST', '--input', join(folder, 'missing.json')]],
];

it.each(BAD_INPUTS)('%s: exit 2, one line, nothing sent', async (_what, args, input) => {
  const before = sandbox.requests.length;
  const r = await runInProcess(args, { env: sandboxEnv(sandbox), stdin: input });
  expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: '' });
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  expect(lines.length, r.stderr).toBe(1);
  expect(lines[0]).toMatch(/^(mtg: |error: )/);
  expect(sandbox.requests.length - before).toBe(0);
});

it('counts the bad inputs tried', () => {
  expect(BAD_INPUTS.length).toBeGreaterThanOrEqual(80);
});
