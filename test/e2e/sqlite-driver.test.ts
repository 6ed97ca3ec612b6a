// The SQLite driver as a real process meets it: an install whose better-sqlite3 cannot load is
// exit 1 and one line for a mirror command, other commands unaffected; and mirror commands print
// no warning on stderr (node's own warnings, such as node:sqlite's, go to the process's stderr).
// Real processes: another install's bin/mtg.js, and the process's own stderr.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { type MirrorEnv, mirrorEnv } from '../mirror/helpers.js';

const opened: MirrorEnv[] = [];
afterAll(async () => {
  await Promise.all(opened.map((e) => e.sandbox.close()));
});

/** The built mtg as a child process against the mirror environment `m`. */
const spawned = (m: MirrorEnv, args: string[]) => runCli(args, { env: m.env, timeoutMs: 60_000 });

describe('a driver that cannot load is one line: the driver, the cause, the fix', () => {
  it('end to end: exit 1 and one line on stderr for a mirror command; other commands unaffected', async () => {
    // An install whose better-sqlite3 fails as one built for another Node.js does, picked with
    // MTG_SQLITE_DRIVER on lines that would use node:sqlite.
    const install = tempDir('mtg-broken-driver-');
    cpSync(join(BIN, '..', '..', 'dist'), join(install, 'dist'), { recursive: true });
    cpSync(join(BIN, '..'), join(install, 'bin'), { recursive: true });
    writeFileSync(
      join(install, 'package.json'),
      JSON.stringify({ name: 'meeting-notes-cli', type: 'module' }),
    );
    const fake = join(install, 'node_modules', 'better-sqlite3');
    mkdirSync(fake, { recursive: true });
    writeFileSync(join(fake, 'package.json'), JSON.stringify({ name: 'better-sqlite3', main: 'index.js' }));
    writeFileSync(
      join(fake, 'index.js'),
      [
        "const so = __dirname + '/build/Release/better_sqlite3.node';",
        "const message = 'The module ' + so + '\\nwas compiled against a different Node.js version using' +",
        "  '\\nNODE_MODULE_VERSION 999. This version of Node.js requires\\nNODE_MODULE_VERSION ' + process.versions.modules;",
        "throw Object.assign(new Error(message), { code: 'ERR_DLOPEN_FAILED' });",
      ].join('\n'),
    );
    const m = await mirrorEnv();
    opened.push(m);
    const runHere = (args: string[]) =>
      runCli(args, {
        bin: join(install, 'bin', 'mtg.js'),
        env: { ...m.env, MTG_SQLITE_DRIVER: 'better-sqlite3' },
      });
    expect((await m.sync()).code).toBe(0);
    for (const args of [['meetings', 'list', '--offline'], ['find', 'budget'], ['sync']]) {
      const r = await runHere(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        "mtg: The local mirror's SQLite driver (better-sqlite3) cannot load: it was built for another Node.js " +
          `version (NODE_MODULE_VERSION 999; Node.js ${process.version} needs ${process.versions.modules}). ` +
          `Fix: run \`npm rebuild better-sqlite3\` in ${install}, or upgrade Node.js to 22.16 or newer (it has SQLite built in)\n`,
      );
    }
    const api = await runHere([
      'action-items',
      'list',
      '--assignee',
      'anyone',
      '--json',
      '--limit',
      '1',
      '-q',
    ]);
    expect(api.stderr).toBe('');
    expect(api.code).toBe(0);
    expect(JSON.parse(api.stdout)).toHaveLength(1);
  });
});

describe('mirror commands say nothing on stderr (no driver warning on any line)', () => {
  it('sync -q, offline list, find, sql, changes', async () => {
    const m = await mirrorEnv();
    opened.push(m);
    const sync = await spawned(m, ['sync', '-q']);
    expect(sync.code).toBe(0);
    expect(sync.stderr).toBe('');
    for (const args of [
      ['meetings', 'list', '--offline'],
      ['action-items', 'list', '--offline'],
      ['find', 'budget'],
      ['sql', 'SELECT count(*) AS n FROM meetings'],
      ['changes'],
    ]) {
      const r = await spawned(m, args);
      expect(r.stderr, args.join(' ')).toBe('');
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout, args.join(' ')).not.toBe('');
    }
  });
});
