// Help and usage errors as people read them (snapshots beside this file): `mtg --help` and a
// mistyped command with its suggestion. No sandbox: nothing is sent.
import { expect, it } from 'vitest';
import { runInProcess } from '../../helpers/inprocess.js';

it('mtg --help lists the groups and commands', async () => {
  const r = await runInProcess(['--help'], { tty: true, columns: 100 });
  expect(r.code).toBe(0);
  expect(r.stderr).toBe('');
  await expect(r.stdout).toMatchFileSnapshot('__snapshots__/mtg.help.txt');
});

it('a mistyped command is exit 2 with a suggestion, on stderr', async () => {
  const r = await runInProcess(['meetings', 'lst'], { tty: true, columns: 100 });
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  await expect(r.stderr).toMatchFileSnapshot('__snapshots__/mistyped-command.error.txt');
});
