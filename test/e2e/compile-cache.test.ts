// node's compile cache (module.enableCompileCache, node >= 22.1), as src/cli/entry.ts turns it on:
// in a folder of the user's own (~/.cache/mtg/node-compile-cache, made 0700), never in node's
// default, node-compile-cache in the temp dir that every user of the machine shares; a folder at
// that place that is a link, or that others may write, is not used, and nothing is written through
// it. A real process: the cache is the start-up file's, before the CLI is loaded. Node 20 has no
// compile cache and the standalone binary (MTG_TEST_BIN) carries its own: there, no folder at all.
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

/** mtg turns node's cache on: a node that has one, running the package (not the binary). */
const CACHES =
  typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function' &&
  !process.env.MTG_TEST_BIN;

// A private copy of the built CLI, to see that nothing is ever written beside it.
const root = tempDir('mtg-compile-cache-');
const install = join(root, 'install');
cpSync(join(BIN, '..'), join(install, 'bin'), { recursive: true });
cpSync(join(BIN, '..', '..', 'dist'), join(install, 'dist'), { recursive: true });

const filesUnder = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort() : [];

/** A fresh HOME and TMPDIR, and where the cache goes under that HOME (mtg's folder in the user's cache). */
function user() {
  const dir = tempDir('mtg-compile-cache-user-');
  const home = join(dir, 'home');
  const tmp = join(dir, 'tmp');
  mkdirSync(home);
  mkdirSync(tmp);
  const app =
    process.platform === 'darwin' ? join(home, 'Library', 'Caches', 'mtg') : join(home, '.cache', 'mtg');
  return { home, tmp, app, folder: join(app, 'node-compile-cache') };
}

const run = (u: { home: string; tmp: string }, env: Record<string, string | undefined> = {}) =>
  runCli(['config', 'list', '--json'], {
    // The binary when the run tests it (MTG_TEST_BIN): its start-up file is the same entry.ts.
    bin: process.env.MTG_TEST_BIN ? undefined : join(install, 'bin', 'mtg.js'),
    env: {
      HOME: u.home,
      TMPDIR: u.tmp,
      XDG_CACHE_HOME: undefined,
      NODE_COMPILE_CACHE: undefined,
      MTG_CONFIG_DIR: join(root, 'config'),
      ...env,
    },
  });

/** What the same command prints with no cache at all. */
const reference = () => run(user(), { NODE_DISABLE_COMPILE_CACHE: '1' });

describe("node's compile cache", () => {
  it('is kept in ~/.cache/mtg/node-compile-cache, made 0700, never in the temp dir nor the install folder', async () => {
    const installed = filesUnder(install);
    const expected = await reference();
    const u = user();
    expect(await run(u)).toEqual(expected); // writes the cache
    expect(await run(u)).toEqual(expected); // reads it
    expect(filesUnder(install)).toEqual(installed);
    expect(filesUnder(u.tmp)).toEqual([]);
    if (CACHES) {
      expect(lstatSync(u.folder).mode & 0o777).toBe(0o700);
      // One subfolder per node version, with entries in it.
      expect(filesUnder(u.folder).length).toBeGreaterThan(1);
    } else {
      expect(existsSync(join(u.home, '.cache'))).toBe(false);
    }
  });

  it('XDG_CACHE_HOME (Linux) or NODE_COMPILE_CACHE (anywhere: the user chose it) says where', async () => {
    const expected = await reference();
    if (process.platform === 'linux') {
      const u = user();
      const xdg = join(u.home, 'xdg-cache');
      expect(await run(u, { XDG_CACHE_HOME: xdg })).toEqual(expected);
      expect(filesUnder(join(xdg, 'mtg', 'node-compile-cache')).length > 1).toBe(CACHES);
      expect(existsSync(u.app)).toBe(false);
    }
    const u = user();
    const chosen = join(u.home, 'chosen');
    expect(await run(u, { NODE_COMPILE_CACHE: chosen })).toEqual(expected);
    expect(filesUnder(chosen).length > 1).toBe(CACHES);
    expect(existsSync(u.app)).toBe(false);
    expect(filesUnder(u.tmp)).toEqual([]);
  });

  it('NODE_DISABLE_COMPILE_CACHE=1: no folder is made', async () => {
    const u = user();
    await run(u, { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(existsSync(u.app)).toBe(false);
    expect(filesUnder(u.tmp)).toEqual([]);
  });

  it('a link planted at its place is not followed: nothing is written through it, nor in the temp dir', async () => {
    const expected = await reference();
    const u = user();
    const elsewhere = join(u.tmp, 'planted');
    mkdirSync(elsewhere, { mode: 0o700 });
    mkdirSync(u.app, { recursive: true, mode: 0o700 });
    symlinkSync(elsewhere, u.folder);
    expect(await run(u)).toEqual(expected);
    expect(lstatSync(u.folder).isSymbolicLink()).toBe(true);
    expect(filesUnder(elsewhere)).toEqual([]);
    expect(filesUnder(u.tmp)).toEqual(['planted']);
  });

  it('a folder that others may write (0777), or inside one, is not used', async () => {
    const expected = await reference();
    const open = user();
    mkdirSync(open.folder, { recursive: true, mode: 0o700 });
    chmodSync(open.folder, 0o777);
    expect(await run(open)).toEqual(expected);
    expect(filesUnder(open.folder)).toEqual([]);
    expect(lstatSync(open.folder).mode & 0o777).toBe(0o777); // left as it was
    expect(filesUnder(open.tmp)).toEqual([]);

    const openParent = user();
    mkdirSync(openParent.app, { recursive: true, mode: 0o700 });
    chmodSync(openParent.app, 0o777);
    expect(await run(openParent)).toEqual(expected);
    expect(filesUnder(openParent.folder)).toEqual([]);
    expect(filesUnder(openParent.tmp)).toEqual([]);
  });

  it('a cache folder that cannot be made, or no HOME, is skipped silently', async () => {
    const expected = await reference();
    const u = user();
    const notAFolder = join(u.home, 'a-file');
    writeFileSync(notAFolder, '');
    expect(await run(u, { XDG_CACHE_HOME: notAFolder, HOME: notAFolder })).toEqual(expected);
    expect(await run(u, { NODE_COMPILE_CACHE: join(notAFolder, 'cache') })).toEqual(expected);
    expect(await run(u, { HOME: undefined })).toEqual(expected);
    expect(await run(u, { HOME: 'relative/home' })).toEqual(expected);
    expect(filesUnder(u.tmp)).toEqual([]);
  });
});
