// A server error's words are bounded where the envelope is read (QA F11): a 400 whose message was
// 2,000,000 characters and whose `issues` were 10,000 was printed whole, 2.1 MB over 10,001 lines
// of stderr, and a batch's --json outcomes carried it for every item. An error is one line and a
// few issues: the message is cut (on a character boundary) and the issues past the tenth counted,
// each saying how much was left out.
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_ERROR_MESSAGE, MAX_ISSUES } from '../../src/api/errors.js';
import { runInProcess } from '../helpers/inprocess.js';
import { actionItem, type OddServer, oddEnv, startOddServer } from './odd-server.js';

let server: OddServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const MESSAGE_LENGTH = 2_000_000;
const ISSUES = 10_000;
// A message of line breaks and an astral character across the cut; a first issue of 100,000 characters.
const message = `${'E'.repeat(MAX_ERROR_MESSAGE - 1)}😀\nsecond line${'E'.repeat(MESSAGE_LENGTH)}`;
const issues = Array.from({ length: ISSUES }, (_, i) => ({
  path: `x${i}`,
  message: i === 0 ? `bad\n${'B'.repeat(100_000)}` : `bad${i}`,
}));
const envelope = JSON.stringify({ code: 'VALIDATION_ERROR', error: message, issues });

async function serveError(): Promise<OddServer> {
  return startOddServer((req) =>
    req.method === 'GET' && new URL(req.url ?? '/', 'http://x').pathname === '/action-items/1'
      ? { body: JSON.stringify(actionItem(1)) }
      : { status: 400, body: envelope },
  );
}

/** Bounded: a few lines, none longer than `maxLine`, the whole a few KB. */
function expectBounded(text: string, maxLines: number, maxLine = MAX_ERROR_MESSAGE + 100): string[] {
  const lines = text.trimEnd().split('\n');
  expect(lines.length).toBeLessThanOrEqual(maxLines);
  expect(text.length).toBeLessThan(4_000);
  for (const line of lines) expect(line.length).toBeLessThan(maxLine);
  return lines;
}

describe('a 400 with a 2,000,000-character message and 10,000 issues', () => {
  it('meetings list --json: one line of message and the first issues, saying how much was left out, exit 1', async () => {
    server = await serveError();
    const r = await runInProcess(['meetings', 'list', '--json'], { env: oddEnv(server) });
    expect(r.code).toBe(1);
    const lines = expectBounded(r.stderr, 1 + MAX_ISSUES + 1);
    // The cut does not split the emoji's surrogate pair: the first character of the pair would be lone;
    // the characters left out are counted as characters (the emoji is one), not UTF-16 units.
    const cutAt = MAX_ERROR_MESSAGE - 1;
    expect(lines[0]).toBe(
      `mtg: ${'E'.repeat(cutAt)}… (${[...message.slice(cutAt)].length.toLocaleString('en-US')} more characters)`,
    );
    expect(lines[1]).toBe(
      `  x0: bad ${'B'.repeat(200 - 4)}… (${(100_000 + 4 - 200).toLocaleString('en-US')} more characters)`,
    );
    expect(lines[2]).toBe('  x1: bad1');
    expect(lines.at(-1)).toBe(`  …and ${(ISSUES - MAX_ISSUES).toLocaleString('en-US')} more issues`);
  });

  it('a batch with --json: each failed item says the error bounded the same way', async () => {
    server = await serveError();
    const r = await runInProcess(['action-items', 'update', '--stdin', '--status', 'done', '--json'], {
      env: oddEnv(server),
      stdin: '1\n2\n',
    });
    expect(r.code).toBe(1);
    expect(r.stdout.length).toBeLessThan(2 * 4_000);
    const outcomes = JSON.parse(r.stdout) as { id: unknown; outcome: string; error: { message: string } }[];
    expect(outcomes).toHaveLength(2);
    for (const o of outcomes) {
      expect(o.outcome).toBe('failed');
      expect(o.error.message).toContain('more characters)');
      expect(o.error.message).toContain(`…and ${(ISSUES - MAX_ISSUES).toLocaleString('en-US')} more issues`);
    }
    // A line per failed item: its message and issues joined.
    expectBounded(r.stderr, 3, 1_500);
  });
});

describe('an error code that is not a code', () => {
  it('a 2,000,000-character code is left out of a batch’s --json outcomes, a real one kept', async () => {
    const long = JSON.stringify({ code: 'C'.repeat(MESSAGE_LENGTH), error: 'refused' });
    server = await startOddServer((req) =>
      new URL(req.url ?? '/', 'http://x').pathname === '/action-item/1'
        ? { status: 400, body: long }
        : { status: 400, body: JSON.stringify({ code: 'VALIDATION_ERROR', error: 'refused' }) },
    );
    const r = await runInProcess(['action-items', 'update', '--stdin', '--status', 'done', '--json'], {
      env: oddEnv(server),
      stdin: '1\n2\n',
    });
    expect(r.code).toBe(1);
    expect(r.stdout.length).toBeLessThan(4_000);
    const outcomes = JSON.parse(r.stdout) as { id: unknown; error: { code?: string } }[];
    const byId = new Map(outcomes.map((o) => [String(o.id), o.error.code]));
    expect(byId.get('1')).toBeUndefined();
    expect(byId.get('2')).toBe('VALIDATION_ERROR');
  });
});
