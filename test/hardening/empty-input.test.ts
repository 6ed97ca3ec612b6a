// "Empty input is not a value": an option that reads text from a file or stdin and gets nothing
// (or only blanks) is exit 2 with nothing sent, so an empty pipe never erases data. Clearing the
// private notes is done on purpose with --clear-notes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { runRecordedInProcess } from '../helpers/recorded.js';
import { tempDir } from '../helpers/temp.js';

let sandbox: Sandbox;
const dir = tempDir('mtg-empty-input-');
const emptyFile = join(dir, 'empty.md');
const blankFile = join(dir, 'blank.md');
writeFileSync(emptyFile, '');
writeFileSync(blankFile, ' \n\t\r\n\n');

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, limits: 'none' });
});
afterAll(async () => {
  await sandbox?.close();
});

/** mtg in this process against the sandbox, and the requests that reached it meanwhile. */
const mtg = (argv: string[], stdin?: string) => runRecordedInProcess(sandbox, argv, { input: stdin });

const SET_NOTES = ['calendar', 'set-notes', 'ev1'];

describe('an empty file or pipe is exit 2 with nothing sent', () => {
  it.each([
    ['--notes-file - with an empty pipe', [...SET_NOTES, '--notes-file', '-'], '', /--notes-file - .*empty/],
    ['--notes-file - with blanks only', [...SET_NOTES, '--notes-file', '-'], ' \n\t\n', /empty/],
    [
      '--notes-file of an empty file',
      [...SET_NOTES, '--notes-file', emptyFile],
      undefined,
      /empty\.md.*empty/,
    ],
    [
      '--notes-file of a blank file',
      [...SET_NOTES, '--notes-file', blankFile],
      undefined,
      /blank\.md.*empty/,
    ],
    ['--notes ""', [...SET_NOTES, '--notes', ''], undefined, /--clear-notes/],
    ['--notes of blanks', [...SET_NOTES, '--notes', '  \n'], undefined, /--clear-notes/],
    [
      'api --input - with an empty pipe',
      ['api', '/action-items', '--method', 'POST', '--input', '-'],
      '',
      /--input - .*empty/,
    ],
    [
      'api --input of an empty file',
      ['api', '/action-items', '--method', 'POST', '--input', emptyFile],
      undefined,
      /empty\.md.*empty/,
    ],
    [
      'api --input of a blank file',
      ['api', '/action-items', '--method', 'POST', '--input', blankFile],
      undefined,
      /empty/,
    ],
    [
      'update --stdin with an empty pipe',
      ['action-items', 'update', '--stdin', '--status', 'done'],
      '',
      /^mtg: stdin held no action item IDs: nothing was sent$/m,
    ],
    [
      'update --stdin with blank lines',
      ['action-items', 'update', '--stdin', '--status', 'done'],
      ' \n\t\n\n',
      /stdin held no action item IDs/,
    ],
    [
      'tags apply --stdin with an empty pipe',
      ['tags', 'apply', '1', '--stdin'],
      '',
      /stdin held no meeting IDs/,
    ],
    [
      'meetings share --stdin with blank lines',
      ['meetings', 'share', 'mtg_1', '--stdin'],
      ' \n\n',
      /stdin held no emails or team IDs/,
    ],
    // Positional IDs beside an empty --stdin: the piped list is lost, the arguments alone were not meant.
    [
      'update 9 --stdin with an empty pipe',
      ['action-items', 'update', '9', '--stdin', '--status', 'DONE'],
      '',
      /^mtg: stdin held no action item IDs: nothing was sent$/m,
    ],
    [
      'tags apply 1 mtg_1 --stdin with blank lines',
      ['tags', 'apply', '1', 'mtg_1', '--stdin'],
      '\n \n',
      /stdin held no meeting IDs/,
    ],
    [
      'meetings share --email --stdin with an empty pipe',
      ['meetings', 'share', 'mtg_1', '--email', 'a@example.com', '--stdin'],
      '',
      /stdin held no emails or team IDs/,
    ],
    ['auth login with an empty pipe', ['auth', 'login'], '', /No API key given/],
    ['auth login with blanks only', ['auth', 'login'], ' \n', /No API key given/],
  ])('%s', async (_name, argv, stdin, message) => {
    const r = await mtg(argv as string[], stdin as string | undefined);
    expect(r.requests).toEqual([]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message as RegExp);
    expect(r.stdout).toBe('');
  });
});

describe('clearing the private notes on purpose', () => {
  it('--clear-notes sends empty notes and keeps the tags unless told', async () => {
    const set = await mtg([...SET_NOTES, '--notes', 'keep me', '--tag', '3', '--json']);
    expect(set.code, set.stderr).toBe(0);
    const r = await mtg([...SET_NOTES, '--clear-notes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.requests.map((q) => [q.method, q.path, q.body])).toEqual([
      ['PUT', '/calendar/events/ev1/meeting', { privateNotes: '' }],
    ]);
    expect(JSON.parse(r.stdout).privateNotes).toBe('');
  });

  it.each([
    [['--clear-notes', '--notes', 'x'], /--clear-notes and --notes cannot be used together/],
    [['--clear-notes', '--notes-file', emptyFile], /--clear-notes and --notes-file cannot be used together/],
  ])('%j is a usage error', async (extra, message) => {
    const r = await mtg([...SET_NOTES, ...extra]);
    expect(r.requests).toEqual([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('notes with text around blank lines are sent exactly as read', async () => {
    const notes = '\n# Agenda\n\n- budget\n';
    const r = await mtg([...SET_NOTES, '--notes-file', '-', '--json'], notes);
    expect(r.code, r.stderr).toBe(0);
    expect(r.requests.map((q) => q.body)).toEqual([{ privateNotes: notes }]);
  });
});
