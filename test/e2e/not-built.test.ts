// A clone used before `npm run build`: bin/mtg.js says in one line to build, instead of node's
// MODULE_NOT_FOUND stack. The launcher is copied without dist/ beside it.
import { spawnSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';

describe('bin/mtg.js before the first build', () => {
  it('prints one line naming the folder and `npm run build`, exit 1', () => {
    const clone = tempDir('mtg-not-built-');
    cpSync(join(import.meta.dirname, '../../bin'), join(clone, 'bin'), { recursive: true });
    const r = spawnSync(process.execPath, [join(clone, 'bin/mtg.js'), 'meetings', 'list'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`mtg: ${clone} is not built: run \`npm run build\` there first\n`);
  });
});
