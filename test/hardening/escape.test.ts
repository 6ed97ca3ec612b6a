// Server text never reaches a terminal raw: error envelopes (message and issues), batch failure
// lines, and csv/tsv written to a terminal are sanitized; csv to a pipe keeps the bytes exact.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { runCli, sandboxEnv } from '../helpers/cli.js';
import { runInTerminal } from '../helpers/terminal.js';

const ESC = '\u001b';
const OSC8 = `${ESC}]8;;https://evil.example/\u0007click here${ESC}]8;;\u0007`;
const CLEAR = `${ESC}[2J${ESC}[H`;
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

let server: Server;
let baseUrl: string;
let sandbox: Sandbox;

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
  sandbox = await startSandbox({ limits: 'none', pageSize: 100 });
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await sandbox.close();
});

const envFor = () => ({ MTG_API_KEY: 'k', MTG_BASE_URL: baseUrl, NO_COLOR: '1' });

describe('error envelopes are sanitized on stderr', () => {
  it('a single request: message and issues keep their words, lose ESC and the OSC 8 link', async () => {
    const r = await runCli(['tags', 'create', 'x', '--max-retries', '0'], { env: envFor() });
    expect(r.code).toBe(1); // 400: the API refused the request
    expect(r.stderr).toContain('Bad request');
    expect(r.stderr).toContain('too long');
    expect(r.stderr).toContain('click here');
    expect(r.stderr).not.toMatch(TERMINAL_CONTROL);
    expect(r.stderr).not.toContain('evil.example');
  });

  it('batch failure lines are sanitized too', async () => {
    const r = await runCli(['action-items', 'update', '1', '2', '--status', 'DONE', '--max-retries', '0'], {
      env: envFor(),
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Bad request');
    expect(r.stderr).not.toMatch(TERMINAL_CONTROL);
    expect(r.stderr).not.toContain('evil.example');
  });
});

describe('csv/tsv: sanitized on a terminal, exact in a pipe', () => {
  it('csv to a terminal carries no control characters; to a pipe the bytes are exact', async () => {
    // --quiet: the spinner (mtg's own control sequences on stderr, the same terminal) stays off.
    const args = ['meetings', 'list', '--format', 'csv', '--fields', 'id,name', '--quiet'];
    const env = sandboxEnv(sandbox, { NO_COLOR: '1' });
    const tty = await runInTerminal(args, { env });
    expect(tty.code).toBe(0);
    expect(tty.screen).toContain('RED ALERT');
    // script(1) turns LF into CRLF on the way out; everything else must be printable.
    expect(tty.screen.replace(/\r\n/g, '\n')).not.toMatch(TERMINAL_CONTROL);

    const piped = await runCli(args, { env });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain(HOSTILE.ansiRed);
  });

  it('tsv to a terminal is sanitized as well', async () => {
    const tty = await runInTerminal(['meetings', 'list', '--format', 'tsv', '--fields', 'id,name', '-q'], {
      env: sandboxEnv(sandbox, { NO_COLOR: '1' }),
    });
    expect(tty.code).toBe(0);
    expect(tty.screen.replace(/\r\n/g, '\n')).not.toMatch(TERMINAL_CONTROL);
  });
});
