// -o and --checkpoint destinations (issues 9.1, 16.1, 16.2, 16.8): a device, FIFO or link is never
// replaced by a regular file; an unusable destination is exit 2 before any request; a full disk
// keeps the old file and leaves no temp file behind. Runs as root (real /dev/full, mount tmpfs).
// -o /dev/stdout needs a process of its own: test/e2e/dev-stdout.test.ts.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  createReadStream,
  existsSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { runRecordedInProcess } from '../helpers/recorded.js';
import { tempDir } from '../helpers/temp.js';

let sandbox: Sandbox;
let dir: string;
const mounts: string[] = [];

/** A tiny tmpfs (we run as root); unmounted in afterAll. */
function mountTmpfs(options: string): string {
  const at = tempDir('mtg-fs-');
  execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', at]);
  mounts.push(at);
  return at;
}

/** Fills a file system until ENOSPC, so the next write to it fails. */
function fill(at: string): void {
  const chunk = Buffer.alloc(4096, 120);
  for (let i = 0; i < 1000; i++) {
    try {
      writeFileSync(join(at, `filler-${i}`), chunk);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOSPC') return;
      throw err;
    }
  }
  throw new Error('the file system did not fill up');
}

beforeAll(async () => {
  sandbox = await startSandbox({ limits: 'none', pageSize: 50, sizes: { actionItems: 120 } });
  dir = tempDir('mtg-out-');
});
afterAll(async () => {
  await sandbox.close();
  for (const at of mounts) {
    execFileSync('umount', [at]);
    rmSync(at, { recursive: true, force: true });
  }
  rmSync(dir, { recursive: true, force: true });
  // Never leave the machine without its devices, whatever a failing run did to them.
  for (const [device, minor] of [
    ['/dev/full', '7'],
    ['/dev/null', '3'],
  ] as const) {
    if (lstatSync(device).isCharacterDevice()) continue;
    rmSync(device, { force: true });
    execFileSync('mknod', ['-m', '666', device, 'c', '1', minor]);
  }
  if (!lstatSync('/dev/stdout').isSymbolicLink()) {
    rmSync('/dev/stdout', { force: true });
    symlinkSync('/proc/self/fd/1', '/dev/stdout');
  }
});

const LIST = ['action-items', 'list', '--assignee', 'anyone', '--status', 'all'];

async function meetingId(): Promise<string> {
  const r = await runRecordedInProcess(sandbox, ['meetings', 'list', '--limit', '1', '--format', 'ndjson']);
  expect(r.code).toBe(0);
  return String((JSON.parse(r.stdout) as { id: string | number }).id);
}

describe('-o onto what is not a regular file (9.1)', () => {
  it('/dev/full stays a device and the write error is exit 1 in plain words', async () => {
    const r = await runRecordedInProcess(sandbox, [...LIST, '--format', 'csv', '-o', '/dev/full']);
    expect(lstatSync('/dev/full').isCharacterDevice()).toBe(true);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Could not write \/dev\/full: no space left on the device/);
    expect(r.stderr).not.toMatch(/unexpected error|\.tmp/);
  });

  it('/dev/null stays a device, exit 0', async () => {
    const r = await runRecordedInProcess(sandbox, [...LIST, '--format', 'csv', '-o', '/dev/null']);
    expect(r.code).toBe(0);
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it('a FIFO stays a FIFO and its reader gets every item', async () => {
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const received = new Promise<string>((resolve, reject) => {
      let text = '';
      createReadStream(fifo, 'utf8')
        .on('data', (d) => {
          text += d;
        })
        .on('end', () => resolve(text))
        .on('error', reject);
    });
    const r = await runRecordedInProcess(sandbox, [...LIST, '--format', 'ndjson', '-o', fifo]);
    expect(r.code).toBe(0);
    expect((await received).trim().split('\n')).toHaveLength(120);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('a symlink stays a link; the file it points to gets the data', async () => {
    const real = join(dir, 'real.csv');
    const link = join(dir, 'link.csv');
    writeFileSync(real, 'old\n');
    symlinkSync(real, link);
    const r = await runRecordedInProcess(sandbox, [...LIST, '--format', 'csv', '-o', link]);
    expect(r.code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(real);
    expect(readFileSync(real, 'utf8').split('\n')[0]).toMatch(/^id,/);
  });
});

// Issue 29 §3: the kernel's protected_symlinks rule, which mtg must apply itself as it resolves
// links on its own: a link planted in /tmp by another user (`/tmp/out.csv -> ~/.bashrc`) replaced
// the victim's file.
describe('-o and --checkpoint through a link in a sticky world-writable folder', () => {
  const OTHER_UID = 12345;
  let shared: string;
  let victim: string;
  beforeAll(() => {
    shared = join(dir, 'shared-tmp');
    mkdirSync(shared);
    chmodSync(shared, 0o1777); // as /tmp: sticky, world-writable, owned by us (root)
    victim = join(dir, 'victim-bashrc');
    writeFileSync(victim, 'alias ll="ls -l"\n');
  });
  const planted = (name: string, uid: number) => {
    const link = join(shared, name);
    symlinkSync(victim, link);
    lchownSync(link, uid, uid);
    return link;
  };

  it("-o: a link owned by neither us nor the folder's owner is refused: exit 2, one line, nothing sent", async () => {
    const link = planted('out.csv', OTHER_UID);
    const r = await runRecordedInProcess(sandbox, [...LIST, '--format', 'csv', '-o', link]);
    expect(r.code).toBe(2);
    expect(r.requests).toHaveLength(0);
    expect(r.stderr).toBe(
      `mtg: -o ${link}: ${link} is a symbolic link in a shared folder (sticky, world-writable) owned by someone else (uid ${OTHER_UID}): not followed\n`,
    );
    expect(readFileSync(victim, 'utf8')).toBe('alias ll="ls -l"\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it('--checkpoint: the same', async () => {
    const link = planted('export.ckpt', OTHER_UID);
    const out = join(dir, 'sticky-ok.csv');
    const r = await runRecordedInProcess(sandbox, [
      ...LIST,
      '--format',
      'csv',
      '-o',
      out,
      '--checkpoint',
      link,
    ]);
    expect(r.code).toBe(2);
    expect(r.requests).toHaveLength(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^mtg: --checkpoint .* is a symbolic link in a shared folder .*: not followed$/m,
    );
    expect(readFileSync(victim, 'utf8')).toBe('alias ll="ls -l"\n');
    expect(existsSync(out)).toBe(false);
  });

  it('our own link there is followed as the contract says: the file it points to gets the data', async () => {
    const mine = join(dir, 'mine.csv');
    writeFileSync(mine, 'old\n');
    const link = join(shared, 'mine-link.csv');
    symlinkSync(mine, link);
    const r = await runRecordedInProcess(sandbox, [...LIST, '--format', 'csv', '-o', link]);
    expect(r.code).toBe(0);
    expect(readFileSync(mine, 'utf8').split('\n')[0]).toMatch(/^id,/);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });
});

describe('every destination is checked before the first request (16.1, 16.2)', () => {
  let readOnly: string;
  let folder: string;
  beforeAll(() => {
    readOnly = mountTmpfs('size=64k,ro');
    folder = join(dir, 'a-folder');
    mkdirSync(folder);
  });

  const cases: [string, () => string][] = [
    ['a folder that does not exist', () => join(dir, 'missing', 'dir', 'x.json')],
    ['a read-only folder', () => join(readOnly, 'x.json')],
    ['a folder', () => folder],
    ['an empty name', () => ''],
  ];
  describe.each(cases)('-o naming %s', (_what, target) => {
    it.each([
      ['action-items create', ['action-items', 'create', 'should not exist', '--json']],
      ['action-items list', [...LIST, '--format', 'csv']],
      ['tags create', ['tags', 'create', 'never-made', '--json']],
    ])('%s: exit 2, one plain line, nothing sent', async (_cmd, args) => {
      const r = await runRecordedInProcess(sandbox, [...args, '-o', target()]);
      expect(r.code).toBe(2);
      expect(r.requests).toHaveLength(0);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\.tmp|unexpected error|ENOENT|EISDIR/);
    });
  });

  it('--checkpoint naming the -o file (also through a link) is a usage error; the file is kept', async () => {
    const out = join(dir, 'done.csv');
    writeFileSync(out, 'finished export\n');
    const link = join(dir, 'done-link.csv');
    symlinkSync(out, link);
    for (const ck of [out, link]) {
      const r = await runRecordedInProcess(sandbox, [
        ...LIST,
        '--format',
        'csv',
        '-o',
        out,
        '--checkpoint',
        ck,
      ]);
      expect(r.code).toBe(2);
      expect(r.requests).toHaveLength(0);
      expect(r.stderr).toMatch(/same file/);
      expect(readFileSync(out, 'utf8')).toBe('finished export\n');
    }
  });

  it('--checkpoint naming the partial file the export keeps its rows in is a usage error', async () => {
    const out = join(dir, 'rows.csv');
    const r = await runRecordedInProcess(sandbox, [
      ...LIST,
      '--format',
      'csv',
      '-o',
      out,
      '--checkpoint',
      `${out}.mtg-partial`,
    ]);
    expect(r.code).toBe(2);
    expect(r.requests).toHaveLength(0);
    expect(r.stderr).toMatch(/keeps its rows until it completes/);
  });

  it('a checkpoint in a folder that does not exist: exit 2 before any request', async () => {
    const r = await runRecordedInProcess(sandbox, [
      ...LIST,
      '--format',
      'csv',
      '-o',
      join(dir, 'ck-out.csv'),
      '--checkpoint',
      join(dir, 'nowhere', 'ck.json'),
    ]);
    expect(r.code).toBe(2);
    expect(r.requests).toHaveLength(0);
    expect(r.stderr).toMatch(/--checkpoint .*does not exist/);
    expect(r.stderr).not.toMatch(/resume/);
  });

  it('--checkpoint on a command that is not a list export is a usage error', async () => {
    const ck = join(dir, 'ck-create.json');
    const r = await runRecordedInProcess(sandbox, [
      'action-items',
      'create',
      'with a checkpoint',
      '-o',
      join(dir, 'created.json'),
      '--checkpoint',
      ck,
    ]);
    expect(r.code).toBe(2);
    expect(r.requests).toHaveLength(0);
    expect(r.stderr).toMatch(/--checkpoint applies to list commands only/);
  });
});

describe('a full disk keeps the old -o file and leaves no temp file (16.8)', () => {
  let full: string;
  let id: string;
  beforeAll(async () => {
    id = await meetingId();
    full = mountTmpfs('size=64k');
    for (const name of ['p.json', 'item.json', 'transcript.txt']) writeFileSync(join(full, name), 'OLD\n');
    fill(full);
  });

  it.each([
    ['meetings view --json', () => ['meetings', 'view', id, '--json', '-o', join(full, 'p.json')], 'p.json'],
    [
      'action-items create',
      () => ['action-items', 'create', 'x', '-o', join(full, 'item.json')],
      'item.json',
    ],
    [
      'meetings transcript',
      () => ['meetings', 'transcript', id, '-o', join(full, 'transcript.txt')],
      'transcript.txt',
    ],
  ])('%s: exit 1 in plain words, the old file untouched', async (_cmd, args, name) => {
    const before = readdirSync(full).sort();
    const r = await runRecordedInProcess(sandbox, args());
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no space left on the device/);
    expect(r.stderr).not.toMatch(/unexpected error|\.tmp/);
    expect(readFileSync(join(full, name), 'utf8')).toBe('OLD\n');
    expect(readdirSync(full).sort()).toEqual(before);
  });

  it('a list export whose checkpoint cannot be written leaves no checkpoint temp file', async () => {
    const before = readdirSync(full).sort();
    const out = join(dir, 'export.ndjson');
    const r = await runRecordedInProcess(sandbox, [
      ...LIST,
      '--format',
      'ndjson',
      '-o',
      out,
      '--checkpoint',
      join(full, 'ck.json'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Could not write .*ck\.json: no space left on the device/);
    expect(readdirSync(full).sort()).toEqual(before);
    expect(existsSync(join(full, 'ck.json'))).toBe(false);
  });
});
