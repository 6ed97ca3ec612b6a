// The machine's file system says no: one line naming what mtg tried, the path and the cause in
// words, exit 1, instead of "unexpected error: ENOENT: …, mkdir". A real full disk behind a shell
// redirect: test/e2e/full-disk.test.ts.
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemErrorLine } from '../../src/cli/system-error.js';
import { runInProcess } from '../helpers/inprocess.js';
import { tempDir } from '../helpers/temp.js';

/** An error as node's fs raises it. */
function fsError(code: string, syscall: string, path?: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(
    `${code}: node's words, ${syscall}${path ? ` '${path}'` : ''}`,
  );
  Object.assign(err, { code, syscall, path });
  return err;
}

describe('a failed file-system call', () => {
  it('a config folder that cannot be created: one line naming it and why, exit 1', async () => {
    const dir = tempDir('mtg-system-errors-');
    // A config folder whose parent is a broken link (a dotfiles link to a folder not there).
    symlinkSync(join(dir, 'gone'), join(dir, 'config'));
    const folder = join(dir, 'config', 'mtg');
    const r = await runInProcess(['config', 'set', 'base-url', 'https://example.com'], {
      env: { MTG_CONFIG_DIR: folder },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `mtg: cannot create the folder ${folder}: a folder on the path does not exist (or is a broken link) (ENOENT)\n`,
    );
  });

  it.each([
    [
      fsError('EROFS', 'mkdir', '/ro/mtg'),
      'cannot create the folder /ro/mtg: the file system is read-only (EROFS)',
    ],
    [
      fsError('EACCES', 'open', '/etc/mtg/config.json'),
      'cannot open /etc/mtg/config.json: permission denied (EACCES)',
    ],
    [fsError('ENOSPC', 'write'), 'cannot write the output: no space left on the device (ENOSPC)'],
    [fsError('EXDEV', 'rename', '/a'), "cannot rename /a: node's words (EXDEV)"],
  ])('%s', (err, line) => {
    expect(systemErrorLine(err)).toBe(line);
  });

  it('is not taken for a network error or a bug', () => {
    expect(systemErrorLine(fsError('ECONNREFUSED', 'connect'))).toBeUndefined();
    expect(systemErrorLine(new TypeError('x is undefined'))).toBeUndefined();
  });
});
