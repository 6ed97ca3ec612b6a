import type { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { testIO } from '../../src/cli/io.js';
import { readSecret } from '../../src/cli/prompt.js';

/** A terminal on stdin: records raw mode, and gets keystrokes from `type`. */
function terminal() {
  const io = testIO({ tty: true });
  const input = io.in as PassThrough & { isTTY: boolean; setRawMode(on: boolean): void; raw: boolean[] };
  input.raw = [];
  input.setRawMode = (on) => input.raw.push(on);
  return { io, input, type: (keys: string) => input.write(keys) };
}

describe('readSecret', () => {
  it('piped: everything on stdin, trimmed, no prompt', async () => {
    const io = testIO({ stdin: '  sk_live_123\n' });
    expect(await readSecret(io, 'Key: ')).toBe('sk_live_123');
    expect(io.stderr()).toBe('');
  });

  it('on a terminal: prompts on stderr, echoes nothing, honours backspace, ends raw mode', async () => {
    const { io, input, type } = terminal();
    const secret = readSecret(io, 'Key: ');
    type('sk_x\u007fy');
    type('z\r');
    expect(await secret).toBe('sk_yz');
    expect(io.stderr()).toBe('Key: \n');
    expect(io.stdout()).toBe('');
    expect(input.raw).toEqual([true, false]);
  });

  it('Ctrl-C at the prompt is an interruption (exit 130) and leaves raw mode', async () => {
    const { io, input, type } = terminal();
    const secret = readSecret(io, 'Key: ');
    type('sk\u0003');
    await expect(secret).rejects.toMatchObject({ exitCode: 130 });
    expect(input.raw).toEqual([true, false]);
  });

  it('SIGINT (the run aborted) at the prompt is an interruption too, and leaves raw mode', async () => {
    const { io, input, type } = terminal();
    const interrupt = new AbortController();
    const secret = readSecret(io, 'Key: ', interrupt.signal);
    type('sk');
    interrupt.abort('SIGINT');
    await expect(secret).rejects.toMatchObject({ exitCode: 130 });
    expect(input.raw).toEqual([true, false]);
  });
});
