// What people see in a terminal: the progress spinner (only on a TTY, never with --quiet) and
// table colors (DONE green, PENDING yellow, secondary columns dim), with NO_COLOR, --no-color and
// FORCE_COLOR honored. The CLI runs on a real pseudo-terminal (util-linux `script`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { runCli, sandboxEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { runInTerminal } from '../helpers/terminal.js';

let sandbox: Sandbox;
let unlimited: Sandbox;
const dir = tempDir('mtg-terminal-');

beforeAll(async () => {
  // Five items a page and five requests a second: eight pages mean one wait for the window.
  sandbox = await startSandbox({ port: 0, pageSize: 5, limits: '5/1s' });
  unlimited = await startSandbox({ port: 0, pageSize: 5, limits: 'none' });
});

afterAll(async () => {
  await Promise.all([sandbox.close(), unlimited.close()]);
});

const LIST = ['action-items', 'list', '--assignee', 'anyone', '--status', 'all'];
const SPINNER_FRAME = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
const ESC = '\u001b[';
const GREEN = `${ESC}32m`;
const YELLOW = `${ESC}33m`;
const DIM = `${ESC}2m`;

describe('progress', () => {
  it('a multi-page list on a terminal shows "Fetched N action items, page P" and the rate-limit wait', async () => {
    const data = join(dir, 'spinner.json');
    const { code, screen } = await runInTerminal([...LIST, '--limit', '40', '--json'], {
      env: sandboxEnv(sandbox),
      stdoutFile: data,
    });
    expect(code).toBe(0);
    expect(screen).toMatch(SPINNER_FRAME);
    expect(screen).toMatch(/Fetched \d+ action items, page \d+/);
    expect(screen).toContain('Rate limited: waiting 1 s (per-second window)');
    expect(JSON.parse(readFileSync(data, 'utf8'))).toHaveLength(40);
  });

  it('--quiet on a terminal: no spinner, no progress text', async () => {
    const { code, screen } = await runInTerminal([...LIST, '--limit', '15', '--json', '--quiet'], {
      env: sandboxEnv(sandbox),
      stdoutFile: join(dir, 'quiet.json'),
    });
    expect(code).toBe(0);
    expect(screen).not.toMatch(SPINNER_FRAME);
    expect(screen).not.toContain('Fetched');
    expect(screen).not.toContain(ESC);
  });

  it('without a terminal: no spinner frames or escape codes on stderr, and short waits are not logged', async () => {
    const { code, stdout, stderr } = await runCli([...LIST, '--limit', '40', '--json'], {
      env: sandboxEnv(sandbox),
    });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toHaveLength(40);
    expect(stderr).not.toMatch(SPINNER_FRAME);
    expect(stderr).not.toContain(ESC);
    expect(stderr).not.toContain('Fetched');
    expect(stderr).not.toContain('Rate limited');
    expect(stderr).toContain('Showing the first 40 action items; more exist');
  });
});

// Independent runs against an unlimited sandbox: concurrent, to keep the file fast.
describe.concurrent('table colors', () => {
  // Items 1-6 of the seeded data hold both statuses.
  const TABLE = [...LIST, '--limit', '6', '--format', 'table'];

  it('on a terminal: DONE green, PENDING yellow, secondary columns dim, the header bold', async () => {
    const { code, screen } = await runInTerminal(TABLE, { env: sandboxEnv(unlimited) });
    expect(code).toBe(0);
    expect(screen).toContain(`${GREEN}DONE`);
    expect(screen).toContain(`${YELLOW}PEN`); // the column may be cut to the terminal width
    expect(screen).toContain(`${DIM}1`); // the id column
    expect(screen).toContain(`${ESC}1mid`);
  });

  it('on a terminal: NO_COLOR and --no-color turn every color off, the spinner too', async () => {
    const runs = await Promise.all([
      runInTerminal(TABLE, { env: sandboxEnv(unlimited, { NO_COLOR: '1' }) }),
      runInTerminal([...TABLE, '--no-color'], { env: sandboxEnv(unlimited) }),
    ]);
    for (const { code, screen } of runs) {
      expect(code).toBe(0);
      expect(screen).toMatch(/DONE/);
      expect(screen).not.toMatch(/\u001b\[(3\d|2|1)m/); // no color, dim or bold (cursor codes remain)
    }
  });

  it('piped: no colors, unless FORCE_COLOR asks; NO_COLOR and --no-color still win', async () => {
    const [plain, forced, noColor, flag] = await Promise.all([
      runCli(TABLE, { env: sandboxEnv(unlimited) }),
      runCli(TABLE, { env: sandboxEnv(unlimited, { FORCE_COLOR: '1' }) }),
      runCli(TABLE, { env: sandboxEnv(unlimited, { FORCE_COLOR: '1', NO_COLOR: '1' }) }),
      runCli([...TABLE, '--no-color'], { env: sandboxEnv(unlimited, { FORCE_COLOR: '1' }) }),
    ]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('DONE');
    expect(plain.stdout).not.toContain(ESC);

    expect(forced.stdout).toContain(`${GREEN}DONE`);
    expect(forced.stdout).toContain(`${YELLOW}PENDING`);
    expect(forced.stdout).toContain(`${DIM}1`);

    expect(noColor.stdout).toContain('DONE');
    expect(noColor.stdout).not.toContain(ESC);

    expect(flag.stdout).toContain('DONE');
    expect(flag.stdout).not.toContain(ESC);
  });

  it('-o FILE: no escape codes in the file, even with FORCE_COLOR', async () => {
    const file = join(dir, 'table.txt');
    const { code } = await runCli([...TABLE, '-o', file], {
      env: sandboxEnv(unlimited, { FORCE_COLOR: '1' }),
    });
    expect(code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('DONE');
    expect(text).not.toContain(ESC);
  });

  it('csv and json never carry colors, even with FORCE_COLOR (the data stays exact)', async () => {
    for (const format of ['csv', 'json']) {
      const args = [...LIST, '--limit', '6', '--format', format];
      const [plain, forced] = await Promise.all([
        runCli(args, { env: sandboxEnv(unlimited) }),
        runCli(args, { env: sandboxEnv(unlimited, { FORCE_COLOR: '1' }) }),
      ]);
      expect(forced.code).toBe(0);
      expect(forced.stdout).toContain('DONE');
      expect(forced.stdout).toBe(plain.stdout);
    }
  });
});
