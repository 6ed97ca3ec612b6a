// `action-items list` piped, in-process: no spinner or escape codes without a terminal, colors only
// when FORCE_COLOR asks (NO_COLOR and --no-color win), never in a file, csv or json. On a real
// terminal: test/e2e/terminal.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { sandboxEnv } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inprocess.js';
import { tempDir } from '../../helpers/temp.js';

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
  it('without a terminal: no spinner frames or escape codes on stderr, and short waits are not logged', async () => {
    const { code, stdout, stderr } = await runInProcess([...LIST, '--limit', '40', '--json'], {
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

describe.concurrent('table colors', () => {
  // Items 1-6 of the seeded data hold both statuses.
  const TABLE = [...LIST, '--limit', '6', '--format', 'table'];

  it('piped: no colors, unless FORCE_COLOR asks; NO_COLOR and --no-color still win', async () => {
    const [plain, forced, noColor, flag] = await Promise.all([
      runInProcess(TABLE, { env: sandboxEnv(unlimited) }),
      runInProcess(TABLE, { env: sandboxEnv(unlimited, { FORCE_COLOR: '1' }) }),
      runInProcess(TABLE, { env: sandboxEnv(unlimited, { FORCE_COLOR: '1', NO_COLOR: '1' }) }),
      runInProcess([...TABLE, '--no-color'], { env: sandboxEnv(unlimited, { FORCE_COLOR: '1' }) }),
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
    const { code } = await runInProcess([...TABLE, '-o', file], {
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
        runInProcess(args, { env: sandboxEnv(unlimited) }),
        runInProcess(args, { env: sandboxEnv(unlimited, { FORCE_COLOR: '1' }) }),
      ]);
      expect(forced.code).toBe(0);
      expect(forced.stdout).toContain('DONE');
      expect(forced.stdout).toBe(plain.stdout);
    }
  });
});
