import { link, lstat, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createItemWriter, openAppendOutput, openOutput, viewFor } from '../../src/output/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mtg-sink-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const write = (s: NodeJS.WritableStream, text: string) =>
  new Promise<void>((res, rej) => s.write(text, (err) => (err ? rej(err) : res())));

describe('openOutput (atomic)', () => {
  it('writes to a hidden temp file and renames it over the target on commit', async () => {
    const target = join(dir, 'out.json');
    await writeFile(target, 'old');
    const sink = await openOutput(process.stdout, target);
    await write(sink.stream, 'new ');
    const during = await readdir(dir);
    expect(during).toHaveLength(2);
    expect(during.find((f) => f !== 'out.json')).toMatch(/^\.out\.json\.\d+\.[0-9a-f]+\.tmp$/);
    expect(await readFile(target, 'utf8')).toBe('old');
    await write(sink.stream, 'content');
    await sink.commit();
    expect(await readFile(target, 'utf8')).toBe('new content');
    expect(await readdir(dir)).toEqual(['out.json']);
  });

  it('creates the file with mode 0644 (subject to umask) and keeps the mode of a replaced file', async () => {
    const fresh = join(dir, 'fresh.csv');
    const s1 = await openOutput(process.stdout, fresh);
    await s1.commit();
    expect((await stat(fresh)).mode & 0o777).toBe(0o644 & ~process.umask());
    const locked = join(dir, 'locked.csv');
    await writeFile(locked, 'x', { mode: 0o600 });
    const s2 = await openOutput(process.stdout, locked);
    await write(s2.stream, 'y');
    await s2.commit();
    expect((await stat(locked)).mode & 0o777).toBe(0o600);
  });

  it('abort leaves an existing target untouched and no temp file', async () => {
    const target = join(dir, 'out.csv');
    await writeFile(target, 'precious');
    const sink = await openOutput(process.stdout, target);
    const w = createItemWriter(sink.stream, viewFor('tag'), { format: 'csv', color: false });
    await w.write({ id: 1, name: 'a', description: null });
    await w.abort();
    await sink.abort();
    await sink.abort(); // idempotent
    expect(await readFile(target, 'utf8')).toBe('precious');
    expect(await readdir(dir)).toEqual(['out.csv']);
  });

  it('abort without a previous target leaves nothing', async () => {
    const sink = await openOutput(process.stdout, join(dir, 'new.json'));
    await write(sink.stream, '[');
    await sink.abort();
    expect(await readdir(dir)).toEqual([]);
  });

  it('a whole json export through the atomic sink', async () => {
    const target = join(dir, 'items.json');
    const sink = await openOutput(process.stdout, target);
    const w = createItemWriter(sink.stream, viewFor('tag'), { format: 'json', color: false });
    const items = Array.from({ length: 500 }, (_, i) => ({ id: i + 1, name: `t${i}`, description: null }));
    for (let i = 0; i < items.length; i += 25) await w.writeMany(items.slice(i, i + 25));
    await w.end();
    await sink.commit();
    expect(JSON.parse(await readFile(target, 'utf8'))).toEqual(items);
    expect(sink.bytesWritten).toBe((await stat(target)).size);
  });

  it('fails to open in a missing directory', async () => {
    await expect(openOutput(process.stdout, join(dir, 'nope', 'x.json'))).rejects.toThrow(
      /the folder .*nope does not exist/,
    );
  });

  it('no path or "-" means stdout, never closed', async () => {
    for (const p of [undefined, '-']) {
      const sink = await openOutput(process.stdout, p);
      expect(sink.stream).toBe(process.stdout);
      await sink.commit();
      await sink.abort();
      expect(process.stdout.writable).toBe(true);
    }
  });
});

describe('openAppendOutput (resume)', () => {
  it('truncates to the recorded offset and appends, tracking bytesWritten', async () => {
    const target = join(dir, 'export.ndjson');
    const first = await openAppendOutput(target, 0);
    await write(first.stream, '{"id":1}\n');
    await first.flush();
    const offset = first.bytesWritten;
    expect(offset).toBe(9);
    await write(first.stream, '{"id":2,"half'); // interrupted mid-page
    await first.abort();
    expect(await readFile(target, 'utf8')).toBe('{"id":1}\n{"id":2,"half');

    const second = await openAppendOutput(target, offset);
    expect(second.bytesWritten).toBe(9);
    await write(second.stream, '{"id":2}\n');
    await second.commit();
    expect(await readFile(target, 'utf8')).toBe('{"id":1}\n{"id":2}\n');
    expect(second.bytesWritten).toBe(18);
  });

  it('refuses an offset beyond the end of the file', async () => {
    const target = join(dir, 'short.csv');
    await writeFile(target, 'abc');
    await expect(openAppendOutput(target, 10)).rejects.toThrow(/fewer than/);
    expect(await readFile(target, 'utf8')).toBe('abc');
  });

  it('a missing file is an error unless starting from 0', async () => {
    await expect(openAppendOutput(join(dir, 'missing.csv'), 5)).rejects.toThrow(
      /is missing \(ENOENT\).*remove the checkpoint/,
    );
  });
});

describe('process exit', () => {
  it('removes a temp file that was neither committed nor aborted', async () => {
    const { buildSync } = await import('esbuild');
    const { execFileSync } = await import('node:child_process');
    const script = join(dir, 'child.mjs');
    buildSync({
      stdin: {
        // With the hooks the entry (src/cli/bin.ts) runs on 'exit'.
        contents: `import { openOutput } from ${JSON.stringify(join(process.cwd(), 'src/output/sink.ts'))};
          import { runExitHooks } from ${JSON.stringify(join(process.cwd(), 'src/cli/exit-hooks.ts'))};
          process.once('exit', runExitHooks);
          const sink = await openOutput(process.stdout, process.argv[2]);
          sink.stream.write('partial', () => process.exit(130));`,
        resolveDir: process.cwd(),
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: script,
      logLevel: 'silent',
    });
    const out = join(dir, 'data');
    await import('node:fs/promises').then((fs) => fs.mkdir(out));
    let code = 0;
    try {
      execFileSync(process.execPath, [script, join(out, 'export.csv')]);
    } catch (e) {
      code = (e as { status: number }).status;
    }
    expect(code).toBe(130);
    expect(await readdir(out)).toEqual([]);
  });
});

describe('openAppendOutput: the partial file of -o FILE --checkpoint (FILE.mtg-partial)', () => {
  it('a new export never writes through a link planted under the partial name, and FILE ends a file of its own', async () => {
    const victim = join(dir, 'victim.txt');
    await writeFile(victim, 'keep me');
    const target = join(dir, 'out.csv');
    const partial = `${target}.mtg-partial`;
    await symlink(victim, partial);
    const sink = await openAppendOutput(partial, 0, { finalTarget: target });
    await write(sink.stream, 'id\n1\n');
    await sink.commit();
    expect(await readFile(victim, 'utf8')).toBe('keep me');
    expect((await lstat(target)).isSymbolicLink()).toBe(false);
    expect(await readFile(target, 'utf8')).toBe('id\n1\n');
  });

  it('a resumed export refuses a partial file that is a link or has another name (exit 2), and writes nothing', async () => {
    const victim = join(dir, 'victim.txt');
    await writeFile(victim, 'keep me, twelve bytes');
    const target = join(dir, 'out.csv');
    const partial = `${target}.mtg-partial`;
    await symlink(victim, partial);
    await expect(openAppendOutput(partial, 5, { finalTarget: target })).rejects.toMatchObject({
      exitCode: 2,
    });
    await rm(partial);
    await link(victim, partial); // a hard link: the same file under two names
    await expect(openAppendOutput(partial, 5, { finalTarget: target })).rejects.toThrow(
      /not the partial file mtg wrote/,
    );
    expect(await readFile(victim, 'utf8')).toBe('keep me, twelve bytes');
  });
});
