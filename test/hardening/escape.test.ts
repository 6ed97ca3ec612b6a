// Server text never reaches a terminal raw: error envelopes (message and issues) and batch failure
// lines are sanitized. csv/tsv on a real terminal: test/e2e/pty-escape.test.ts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/inprocess.js';

const ESC = '\u001b';
const OSC8 = `${ESC}]8;;https://evil.example/\u0007click here${ESC}]8;;\u0007`;
const CLEAR = `${ESC}[2J${ESC}[H`;
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  // Answers every request with a 400 envelope whose texts carry escape sequences.
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: `Bad request ${CLEAR}see ${OSC8}`,
          code: 'VALIDATION_ERROR',
          issues: [{ path: 'title', message: `too long ${OSC8}${CLEAR}` }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const envFor = () => ({ MTG_API_KEY: 'k', MTG_BASE_URL: baseUrl, NO_COLOR: '1' });

describe('error envelopes are sanitized on stderr', () => {
  it('a single request: message and issues keep their words, lose ESC and the OSC 8 link', async () => {
    const r = await runInProcess(['tags', 'create', 'x', '--max-retries', '0'], { env: envFor() });
    expect(r.code).toBe(1); // 400: the API refused the request
    expect(r.stderr).toContain('Bad request');
    expect(r.stderr).toContain('too long');
    expect(r.stderr).toContain('click here');
    expect(r.stderr).not.toMatch(TERMINAL_CONTROL);
    expect(r.stderr).not.toContain('evil.example');
  });

  it('batch failure lines are sanitized too', async () => {
    const r = await runInProcess(
      ['action-items', 'update', '1', '2', '--status', 'DONE', '--max-retries', '0'],
      {
        env: envFor(),
      },
    );
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Bad request');
    expect(r.stderr).not.toMatch(TERMINAL_CONTROL);
    expect(r.stderr).not.toContain('evil.example');
  });
});
