// What people see in a real terminal: the progress spinner (only on a TTY, never with --quiet) and
// table colors (DONE green, PENDING yellow, secondary columns dim), NO_COLOR and --no-color
// honoured. The CLI runs on a pseudo-terminal (util-linux `script`); piped runs are in-process in
// test/commands/action-items/list-colors.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv } from '../helpers/cli.js';
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
    expect(screen).toMatch(/Rate limited: waiting 1 s \(the window of \d+ requests\)/);
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
});

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
});
