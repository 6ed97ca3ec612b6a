// Hostile text at size, through the commands that print it (issue 29): a 1 MB transcript entry of
// lone U+009D (each an OSC that never ends: minutes of CPU when the sanitizer was quadratic) and a
// bidi override in a table cell ("Pay \u202eevil\u202c invoice" reads otherwise on screen).
import { afterEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/inprocess.js';
import { actionItem, type OddServer, oddEnv, startOddServer } from './odd-server.js';

let server: OddServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;

describe('hostile text through the commands', () => {
  it('meetings transcript: a 1 MB entry of lone U+009D and bidi overrides prints as its words', async () => {
    const entry = 'word \u009d\u202e'.repeat(150_000); // 1,050,000 characters
    server = await startOddServer(() => ({
      body: JSON.stringify([
        { speaker: 'Mallory', text: entry, timestamp: 0 },
        { speaker: 'Ann', text: 'after it', timestamp: 5 },
      ]),
    }));
    const r = await runInProcess(['meetings', 'transcript', 'mtg_long'], { env: oddEnv(server) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0] === `[00:00] Mallory: ${'word '.repeat(150_000).trimEnd()}`).toBe(true);
    expect(lines[1]).toBe('[00:05] Ann: after it');
    expect(UNSAFE.test(r.stdout)).toBe(false);
  });

  it('a table cell holding a bidi override and zero-width characters shows the text in order', async () => {
    server = await startOddServer(() => ({
      body: JSON.stringify([actionItem(1, { title: 'Pay \u202eevil\u202c in\u200bvoice \u2066now\u2069' })]),
    }));
    const r = await runInProcess(['action-items', 'list', '--assignee', 'anyone', '--format', 'table'], {
      env: { ...oddEnv(server), COLUMNS: '120' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Pay evil invoice now');
    expect(UNSAFE.test(r.stdout)).toBe(false);
  });
});
