// Tables on a real pseudo-terminal (util-linux `script`): an unsized one takes COLUMNS, else 80;
// a sized one fits every line from 60 to 200 columns with IDs whole and durations human, while
// --json stays raw. A real process: the terminal is a pty.
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { runInTerminal } from '../helpers/terminal.js';

describe('the built CLI on a terminal', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ limits: 'none', pageSize: 100 });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('an unsized pseudo-terminal (as under `script` in CI) takes COLUMNS, else 80', async () => {
    const env = sandboxEnv(sandbox, { NO_COLOR: '1' });
    for (const [columns, fit] of [
      ['60', 60],
      [undefined, 80],
    ] as const) {
      const tty = await runInTerminal(['meetings', 'list', '--limit', '5'], {
        env: { ...env, COLUMNS: columns },
      });
      expect(tty.code).toBe(0);
      const lines = tty.screen.split(/\r?\n/).filter((l) => /^(id\s+name|mtg_)/.test(l));
      expect(lines.length).toBeGreaterThan(1);
      for (const line of lines) expect(stringWidth(line), `COLUMNS=${columns}`).toBeLessThanOrEqual(fit);
    }
  });

  it('meetings list at 60 and 200 columns: lines fit, IDs whole, durations human; json stays raw', async () => {
    const env = sandboxEnv(sandbox, { NO_COLOR: '1' });
    const json = await runInProcess(['meetings', 'list', '--json', '--limit', '5'], { env });
    const raw = JSON.parse(json.stdout) as { id: string; duration: number | null; createdAt: string }[];
    expect(typeof raw[0]!.createdAt).toBe('string');
    for (const cols of [60, 200]) {
      const tty = await runInTerminal(['meetings', 'list', '--limit', '5', '--format', 'table'], {
        env,
        columns: cols,
      });
      expect(tty.code).toBe(0);
      const lines = tty.screen.split(/\r?\n/);
      // The table's lines (stderr notes may share the screen): the header and one row per meeting.
      const rows = lines.filter((l) => raw.some((m) => l.includes(m.id)));
      expect(rows).toHaveLength(raw.length);
      const header = lines.find((l) => /^id\s+name/.test(l));
      for (const line of [header ?? '', ...rows]) expect(stringWidth(line)).toBeLessThanOrEqual(cols);
      expect(tty.screen).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:/);
      const withDuration = raw.find((m) => typeof m.duration === 'number' && m.duration >= 60);
      if (withDuration) expect(tty.screen).toMatch(/\d+m \d\ds|\d+h \d\dm/);
    }
  });
});
