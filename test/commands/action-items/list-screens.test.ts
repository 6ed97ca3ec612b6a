// `action-items list` as people read it (snapshots in __snapshots__/ beside this file): the table on
// a terminal, its --help, the tsv of a pipe; a usage error; colors; dates relative to the run's clock.
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../../helpers/inprocess.js';
import { NOW, useScreens } from '../../helpers/screens.js';

const screens = useScreens();

describe('on a terminal (100 columns, colors off)', () => {
  it('action-items list is a table that fits, dates relative to now', async () => {
    const r = await screens.onTerminal(['action-items', 'list', '--limit', '12']);
    expect(r.code).toBe(0);
    for (const line of r.stdout.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    await expect(r.stdout).toMatchFileSnapshot('__snapshots__/action-items-list.tty.txt');
  });

  it('--help of one command', async () => {
    const r = await screens.onTerminal(['action-items', 'list', '--help']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    await expect(r.stdout).toMatchFileSnapshot('__snapshots__/action-items-list.help.txt');
  });
});

describe('errors and pipes', () => {
  it('a usage error is one line on stderr and exit 2, before any request', async () => {
    const before = screens.sandbox.requests.length;
    const r = await runInProcess(['action-items', 'list', '--status', 'SOMETIMES'], { env: screens.env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^mtg: .*SOMETIMES/);
    expect(screens.sandbox.requests.length).toBe(before);
  });

  it('piped (no terminal), a list is tsv with a header, server text escaped, none lost', async () => {
    const r = await runInProcess(['action-items', 'list', '--limit', '3'], {
      env: { ...screens.env, NO_COLOR: undefined },
    });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line.split('\t').length).toBe(lines[0]!.split('\t').length);
    expect(lines[0]).toMatch(/^id\t/);
    // The sandbox's hostile item: a pipe is data, but often a terminal (`| head`), so its escape
    // codes come as tsv escapes (\x1b), which --stdin reads back: nothing a terminal acts on.
    expect(r.stdout).toContain('\\x1b[31mRED ALERT\\x1b[0m');
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    await expect(r.stdout).toMatchFileSnapshot('__snapshots__/action-items-list.pipe.tsv');
  });

  it('FORCE_COLOR colors the table; --no-color wins over it', async () => {
    const colored = await runInProcess(['action-items', 'list', '--limit', '2'], {
      env: { ...screens.env, NO_COLOR: undefined, FORCE_COLOR: '1' },
      tty: true,
      now: NOW,
    });
    expect(colored.stdout).toContain('\u001b[');
    const plain = await runInProcess(['action-items', 'list', '--limit', '2', '--no-color'], {
      env: { ...screens.env, NO_COLOR: undefined, FORCE_COLOR: '1' },
      tty: true,
      now: NOW,
    });
    expect(plain.stdout).not.toContain('\u001b');
  });
});
