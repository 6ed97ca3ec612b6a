// Replacing a file atomically (src/shared/atomic-file.ts), the one way -o, export, --checkpoint and
// the config file are written: a reader sees the old file or the whole new one, never a part, and
// no temp file is left behind whatever happens.
import { chmodSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeCheckpoint } from '../../src/cli/checkpoint.js';
import {
  openAtomicFile,
  removeUnfinishedTemps,
  writeFileAtomic,
  writeFileAtomicSync,
} from '../../src/shared/atomic-file.js';
import { tempDir } from '../helpers/temp.js';

const umasked = (mode: number) => mode & ~process.umask();

describe('openAtomicFile (written in steps)', () => {
  it('the target keeps its old content until commit, then has all of the new', async () => {
    const dir = tempDir('mtg-atomic-');
    const target = join(dir, 'out.json');
    writeFileSync(target, 'old');
    const file = await openAtomicFile(target, { mode: 0o644 });
    await file.handle.write('new ');
    expect(readFileSync(target, 'utf8')).toBe('old');
    expect(readdirSync(dir).sort()).toEqual([file.tempPath.slice(dir.length + 1), 'out.json'].sort());
    await file.handle.write('content');
    await file.commit();
    expect(readFileSync(target, 'utf8')).toBe('new content');
    expect(readdirSync(dir)).toEqual(['out.json']);
  });

  it('abort removes the temp file and leaves the target as it was (twice is harmless)', async () => {
    const dir = tempDir('mtg-atomic-');
    const target = join(dir, 'out.csv');
    writeFileSync(target, 'precious');
    const file = await openAtomicFile(target, { mode: 0o644 });
    await file.handle.write('half a row,');
    await file.abort();
    await file.abort();
    expect(readFileSync(target, 'utf8')).toBe('precious');
    expect(readdirSync(dir)).toEqual(['out.csv']);
  });

  it('a rename that fails leaves the old target and no temp file', async () => {
    const dir = tempDir('mtg-atomic-');
    // A folder where the file should go: the rename fails (EISDIR), after everything was written.
    const target = join(dir, 'taken');
    const file = await openAtomicFile(target, { mode: 0o644 });
    (await import('node:fs')).mkdirSync(target);
    writeFileSync(join(target, 'inside'), 'kept');
    await file.handle.write('data');
    await expect(file.commit()).rejects.toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(readdirSync(dir)).toEqual(['taken']);
    expect(readFileSync(join(target, 'inside'), 'utf8')).toBe('kept');
  });

  it('the exit hook removes a temp file neither committed nor aborted', async () => {
    const dir = tempDir('mtg-atomic-');
    const file = await openAtomicFile(join(dir, 'config.json'), { mode: 0o600 });
    await file.handle.write('{"profiles":');
    removeUnfinishedTemps();
    expect(readdirSync(dir)).toEqual([]);
    // The hook closed the descriptor behind the FileHandle, as only an exiting process may: a
    // process that goes on must close the handle too, or its garbage collection closes that number
    // again ("EBADF: Closing file descriptor … on garbage collection failed", an uncaught error
    // that failed a whole CI run with every test passing).
    await file.abort();
  });

  it('never writes through a link planted under the temp file name', async () => {
    const dir = tempDir('mtg-atomic-');
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'mine');
    // Every name it could choose is a link: a clash is an error, never a write through the link.
    const real = Math.random;
    Math.random = () => 0.5;
    try {
      const target = join(dir, 'out');
      symlinkSync(victim, join(dir, `.out.${process.pid}.${(2 ** 47).toString(16)}.tmp`));
      await expect(writeFileAtomic(target, 'data', { mode: 0o644 })).rejects.toThrow(/EEXIST/);
    } finally {
      Math.random = real;
    }
    expect(readFileSync(victim, 'utf8')).toBe('mine');
  });
});

describe('writeFileAtomic / writeFileAtomicSync (whole content)', () => {
  for (const [name, write] of [
    ['async', writeFileAtomic],
    ['sync', async (...a: Parameters<typeof writeFileAtomicSync>) => writeFileAtomicSync(...a)],
  ] as const) {
    it(`${name}: a new file gets the mode asked for (0600 for keys), whatever mode the old one had`, async () => {
      const dir = tempDir('mtg-atomic-');
      const target = join(dir, 'config.json');
      await write(target, '{}', { mode: 0o600 });
      expect(statSync(target).mode & 0o777).toBe(umasked(0o600));
      chmodSync(target, 0o644);
      await write(target, '{"profiles":{}}', { mode: 0o600 });
      expect(statSync(target).mode & 0o777).toBe(umasked(0o600));
      expect(readFileSync(target, 'utf8')).toBe('{"profiles":{}}');
    });

    it(`${name}: keepMode gives the new file the mode of the one it replaces`, async () => {
      const dir = tempDir('mtg-atomic-');
      const target = join(dir, 'out.csv');
      await write(target, 'a', { mode: 0o644, keepMode: true });
      expect(statSync(target).mode & 0o777).toBe(umasked(0o644));
      chmodSync(target, 0o640);
      await write(target, 'b', { mode: 0o644, keepMode: true, syncFolder: true });
      expect(statSync(target).mode & 0o777).toBe(0o640);
      expect(readFileSync(target, 'utf8')).toBe('b');
    });

    it(`${name}: a failed write (no such folder) throws and leaves nothing`, async () => {
      const dir = tempDir('mtg-atomic-');
      await expect(write(join(dir, 'missing', 'f'), 'x', { mode: 0o644 })).rejects.toThrow(/ENOENT/);
      expect(readdirSync(dir)).toEqual([]);
    });

    it(`${name}: a failure after the temp file was written leaves the old target and no temp`, async () => {
      const dir = tempDir('mtg-atomic-');
      const target = join(dir, 'year');
      (await import('node:fs')).mkdirSync(target);
      writeFileSync(join(target, 'note.md'), 'kept');
      await expect(write(target, 'x', { mode: 0o644, tempPrefix: '.mtg-tmp-' })).rejects.toThrow();
      expect(readdirSync(dir)).toEqual(['year']);
      expect(readFileSync(join(target, 'note.md'), 'utf8')).toBe('kept');
    });
  }
});

describe('--checkpoint record', () => {
  it('is never written through a link planted under its temp file name', async () => {
    const dir = tempDir('mtg-atomic-');
    const ck = join(dir, 'ck.json');
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'not yours');
    // The name the checkpoint writer used to give its temp file (predictable: the pid).
    symlinkSync(victim, `${ck}.${process.pid}.tmp`);
    await writeCheckpoint(ck, { version: 1, signature: 's', next: null, items: 3, bytes: 42 });
    expect(readFileSync(victim, 'utf8')).toBe('not yours');
    expect(JSON.parse(readFileSync(ck, 'utf8'))).toMatchObject({ items: 3, bytes: 42 });
    expect(statSync(ck).mode & 0o777).toBe(umasked(0o600));
  });
});
