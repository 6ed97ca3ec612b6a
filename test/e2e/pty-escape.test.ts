// csv/tsv written to a real pseudo-terminal (util-linux `script`) carry no control characters from
// the server's text; csv to a pipe keeps the bytes exact. A real process: the terminal is a pty.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { runInTerminal } from '../helpers/terminal.js';

const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ limits: 'none', pageSize: 100 });
});
afterAll(async () => {
  await sandbox.close();
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

    const piped = await runInProcess(args, { env });
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
