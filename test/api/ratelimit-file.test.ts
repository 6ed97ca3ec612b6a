// The file store mtg processes share their rate-limit reports through (src/api/ratelimit-file.ts):
// two limiters on it pace as one, and a reader trusts only a private, small, valid file of its user's.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/api/ratelimit.js';
import {
  fileReports,
  readLogs,
  SHARED_FILE_MAX_BYTES,
  SHARED_FILES_MAX,
  sharedFolder,
  unchangedSince,
} from '../../src/api/ratelimit-file.js';
import { tempDir } from '../helpers/temp.js';
import { VirtualClock } from '../helpers/virtual-clock.js';

const ORIGIN = 'http://127.0.0.1:4010';
const KEY = 'mtg_test_key_do_not_write_me';

function machine() {
  const dataDir = tempDir('mtg-share-');
  const clock = new VirtualClock(Date.now());
  const troubles: string[] = [];
  const stores: NonNullable<ReturnType<typeof fileReports>>[] = [];
  const store = () => {
    const made = fileReports({
      dataDir,
      origin: ORIGIN,
      apiKey: KEY,
      clock,
      onTrouble: (m) => troubles.push(m),
    });
    stores.push(made!);
    return made;
  };
  const limiter = () => new RateLimiter({ maxWaitMs: 600_000, clock, shared: store() });
  return { dataDir, clock, store, limiter, troubles, folder: sharedFolder(dataDir, ORIGIN, KEY) };
}

/** A first process whose only request emptied the window for `reset` s (a 429's: `retryAfter` s): its log is on disk. */
async function emptiedWindow(m: ReturnType<typeof machine>, reset = 30, retryAfter?: number) {
  const first = m.limiter();
  const t = await first.acquire();
  await m.clock.advance(20);
  first.observe(t, { limit: 20, remaining: 0, reset }, retryAfter);
  return first;
}

/** A promise and whether it has settled yet. */
function tracked<T>(promise: Promise<T>): { promise: Promise<T>; settled: boolean } {
  const t = { promise, settled: false };
  void promise.finally(() => {
    t.settled = true;
  });
  return t;
}

/** The ID of a process that has ended (a node run to its end): its logs are an ended command's. */
function endedPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout);
}

/** How long a new process's first request waits (ms). */
async function firstWait(m: ReturnType<typeof machine>): Promise<number> {
  const asked = m.clock.now();
  await m.clock.settle(m.limiter().acquire());
  return m.clock.now() - asked;
}

describe('the shared rate-limit store on disk', () => {
  it("a new process's first request waits for the window another emptied", async () => {
    const m = machine();
    await emptiedWindow(m);
    expect(await firstWait(m)).toBeGreaterThanOrEqual(30_000 - 20);
    expect(m.troubles).toEqual([]);
  });

  it('keeps the key out of names and contents, in a private folder and file', async () => {
    const m = machine();
    await emptiedWindow(m);
    const [file] = readdirSync(m.folder);
    expect(readdirSync(m.folder)).toHaveLength(1);
    expect(m.folder).not.toContain(KEY);
    expect(readFileSync(join(m.folder, file!), 'utf8')).not.toContain(KEY);
    expect(statSync(m.folder).mode & 0o777).toBe(0o700);
    expect(statSync(join(m.dataDir, 'ratelimit')).mode & 0o777).toBe(0o700);
    expect(statSync(join(m.folder, file!)).mode & 0o777).toBe(0o600);
  });

  /** The first process's log, replaced by `change`: a reader then trusts nothing of it. */
  async function untrusted(change: (path: string, text: string) => void): Promise<number> {
    const m = machine();
    await emptiedWindow(m);
    const [file] = readdirSync(m.folder);
    const path = join(m.folder, file!);
    change(path, readFileSync(path, 'utf8'));
    return firstWait(m);
  }

  it('does not trust a corrupt log', async () => {
    expect(await untrusted((path, text) => writeFileSync(path, text.slice(0, -5)))).toBe(0);
    expect(
      await untrusted((path, text) => writeFileSync(path, text.replace('"remaining":0', '"remaining":"0"'))),
    ).toBe(0);
  });

  it('does not trust a log others may read or write', async () => {
    expect(await untrusted((path) => chmodSync(path, 0o644))).toBe(0);
  });

  it('does not follow a link planted under a log name', async () => {
    expect(
      await untrusted((path, text) => {
        const elsewhere = join(tempDir('mtg-share-elsewhere-'), 'log.json');
        writeFileSync(elsewhere, text, { mode: 0o600 });
        writeFileSync(path, '');
        spawnSync('rm', ['-f', path]);
        symlinkSync(elsewhere, path);
      }),
    ).toBe(0);
  });

  it('does not read an oversized log', async () => {
    expect(
      await untrusted((path, text) =>
        writeFileSync(
          path,
          text.replace('"requests"', `"pad":"${'x'.repeat(SHARED_FILE_MAX_BYTES)}","requests"`),
        ),
      ),
    ).toBe(0);
  });

  it('does not trust a log from the future', async () => {
    expect(
      await untrusted((path, text) => {
        const log = JSON.parse(text);
        log.writtenAt += 3_600_000;
        for (const r of log.requests) r.sentAt += 3_600_000;
        writeFileSync(path, JSON.stringify(log));
      }),
    ).toBe(0);
  });

  /** The first process's log, as if written by a process that has ended since (a shell loop's last command). */
  function endedWriter(m: ReturnType<typeof machine>, change = (log: { requests: object[] }) => log) {
    const [file] = readdirSync(m.folder);
    const path = join(m.folder, file!);
    const ended = String(endedPid());
    const log = JSON.parse(readFileSync(path, 'utf8'));
    // Its name and its content both name the ended process, as that process wrote it.
    const renamed = join(m.folder, file!.replace(/^\d+/, ended));
    writeFileSync(renamed, JSON.stringify(change({ ...log, pid: Number(ended) })), { mode: 0o600 });
    rmSync(path);
    return renamed;
  }

  it("holds the next command with an ended one's answers until their window refills, then removes its log", async () => {
    const m = machine();
    await emptiedWindow(m);
    const path = endedWriter(m);
    // The next command of a shell loop waits for the refill the ended one heard of, not a 429.
    const asked = m.clock.now();
    const next = tracked(m.limiter().acquire());
    await m.clock.advance(10_000);
    expect(next.settled).toBe(false);
    expect(existsSync(path)).toBe(true);
    await m.clock.settle(next.promise);
    expect(m.clock.now() - asked).toBeGreaterThanOrEqual(30_000 - 20 - 20);
    expect(existsSync(path)).toBe(false);
  });

  it("an ended command's requests left unanswered hold nobody, and its log is no other to decide beside", async () => {
    const m = machine();
    await emptiedWindow(m);
    const path = endedWriter(m, (log) => ({
      ...log,
      requests: log.requests.map((r) => ({
        ...r,
        doneAt: undefined,
        limit: undefined,
        remaining: undefined,
        reset: undefined,
      })),
    }));
    expect(await firstWait(m)).toBe(0);
    expect(existsSync(path)).toBe(false);
    // With an answer that leaves room, the next command goes at once: no lock, no newcomer's look.
    const m2 = machine();
    const first = m2.limiter();
    const t = await first.acquire();
    await m2.clock.advance(20);
    first.observe(t, { limit: 20, remaining: 12, reset: 30 });
    endedWriter(m2);
    expect(await firstWait(m2)).toBe(0);
    expect(existsSync(join(m2.folder, '.lock'))).toBe(false);
  });

  it('a folder it cannot use loses the sharing, never a request', async () => {
    const m = machine();
    writeFileSync(join(m.dataDir, 'ratelimit'), 'a file where the folder goes');
    await emptiedWindow(m);
    expect(await firstWait(m)).toBe(0);
    // One line per process (its --verbose log), the first time.
    expect(m.troubles).toHaveLength(2);
    for (const line of m.troubles) expect(line).toMatch(/^rate-limit sharing off for this command: /);
  });

  it("tidies up once per process: the logs of ended processes in every key's folder, and folders left empty", async () => {
    const m = machine();
    const ended = endedPid();
    const old = sharedFolder(m.dataDir, 'http://127.0.0.1:1', 'an old key');
    mkdirSync(old, { recursive: true, mode: 0o700 });
    writeFileSync(join(old, `${ended}-0123456789ab.json`), '{}', { mode: 0o600 });
    const hoursAgo = (Date.now() - 2 * 3_600_000) / 1000;
    utimesSync(join(old, `${ended}-0123456789ab.json`), hoursAgo, hoursAgo);
    // An ended command's log of a minute ago may still hold the next one on that key: it stays.
    const recent = sharedFolder(m.dataDir, 'http://127.0.0.1:2', 'a key in use');
    mkdirSync(recent, { recursive: true, mode: 0o700 });
    writeFileSync(join(recent, `${ended}-0123456789ab.json`), '{}', { mode: 0o600 });
    await emptiedWindow(m);
    expect(existsSync(old)).toBe(false);
    expect(readdirSync(recent)).toHaveLength(1);
    expect(readdirSync(m.folder)).toHaveLength(1);
  });

  it('waits while another process decides (it holds the lock), and breaks a lock left by one that ended deciding', async () => {
    const m = machine();
    await emptiedWindow(m);
    const lock = join(m.folder, '.lock');
    writeFileSync(lock, '', { mode: 0o600 });
    const asked = m.clock.now();
    const next = tracked(m.limiter().acquire());
    await m.clock.advance(3_000); // a turn of another's: it holds
    expect(next.settled).toBe(false);
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(lock, old, old); // its holder ended a minute ago
    await m.clock.settle(next.promise);
    // The lock broken, the other's log read: the window it emptied still holds the request.
    expect(m.clock.now() - asked).toBeGreaterThanOrEqual(30_000 - 20);
    expect(existsSync(lock)).toBe(false);
  });

  it('breaks a lock dated in the future (a clock stepped back), as one left long ago', async () => {
    const m = machine();
    await emptiedWindow(m);
    const lock = join(m.folder, '.lock');
    writeFileSync(lock, 'someone', { mode: 0o600 });
    const ahead = (Date.now() + 3_600_000) / 1000;
    utimesSync(lock, ahead, ahead);
    const asked = m.clock.now();
    await m.clock.settle(m.limiter().acquire());
    const waited = m.clock.now() - asked;
    expect(waited).toBeGreaterThanOrEqual(30_000 - 20); // the other's log read: no blind request
    expect(waited).toBeLessThan(40_000); // the lock held nothing past the window
  });

  it('a lock that stays taken at every look is not waited on past a few seconds, and the others are still heard', async () => {
    const m = machine();
    await emptiedWindow(m);
    const lock = join(m.folder, '.lock');
    writeFileSync(lock, 'someone', { mode: 0o600 }); // fresh at every look: the clock and the file disagree
    const asked = m.clock.now();
    const next = tracked(m.limiter().acquire());
    await m.clock.advance(20_000);
    expect(next.settled).toBe(false); // not blind: the window is empty for 30 s
    await m.clock.settle(next.promise);
    expect(m.clock.now() - asked).toBeGreaterThanOrEqual(30_000 - 20);
    expect(m.clock.now() - asked).toBeLessThan(40_000);
    expect(readFileSync(lock, 'utf8')).toBe('someone'); // not ours to remove
  });

  it('counts how long the lock was taken from the look it was taken at, not from a turn before a time alone', async () => {
    const m = machine();
    await emptiedWindow(m);
    const store = m.store()!;
    expect(store.claim?.()).toBe(false); // a newcomer shows itself first
    store.read();
    writeFileSync(join(m.folder, '.lock'), 'someone', { mode: 0o600 });
    expect(store.claim?.()).toBe(false); // another's turn
    await m.clock.advance(4_000);
    for (const f of readdirSync(m.folder)) if (f.endsWith('.json')) rmSync(join(m.folder, f)); // the other ended
    store.read(); // alone now
    expect(store.claim?.()).toBe(true);
    await emptiedWindow(m); // another again
    store.read();
    await m.clock.advance(2_000);
    expect(store.claim?.()).toBe(false); // a lock taken 2 s, not 6: still another's turn
  });

  it('breaks a stale lock that is a folder, and leaves nothing of it aside', async () => {
    const m = machine();
    await emptiedWindow(m);
    const lock = join(m.folder, '.lock');
    mkdirSync(join(lock, 'inside'), { recursive: true });
    writeFileSync(join(lock, 'inside', 'f'), 'x');
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(lock, old, old);
    const asked = m.clock.now();
    await m.clock.settle(m.limiter().acquire());
    expect(m.clock.now() - asked).toBeGreaterThanOrEqual(30_000 - 20); // the lock broken, the log read
    expect(readdirSync(m.folder).filter((f) => f.startsWith('.lock'))).toEqual([]);
  });

  it('gives back only its own lock: one broken as stale and taken by another stays theirs', async () => {
    const m = machine();
    await emptiedWindow(m);
    const store = m.store()!;
    store.claim?.(); // shows itself
    store.read();
    expect(store.claim?.()).toBe(true);
    const lock = join(m.folder, '.lock');
    writeFileSync(lock, 'another process', { mode: 0o600 }); // ours broken meanwhile, theirs now
    store.release?.();
    expect(readFileSync(lock, 'utf8')).toBe('another process');
  });

  it('writes its log again after another process swept its folder away', async () => {
    const m = machine();
    const first = await emptiedWindow(m);
    rmSync(m.folder, { recursive: true });
    const t = await m.clock.settle(first.acquire()); // the window it emptied refills first
    rmSync(m.folder, { recursive: true, force: true });
    first.observe(t, { limit: 20, remaining: 19, reset: 60 });
    expect(readdirSync(m.folder).filter((f) => f.endsWith('.json'))).toHaveLength(1);
    expect(m.troubles).toEqual([]);
  });

  it("sweeps the temp file of a writer killed mid-write with that writer's logs", async () => {
    const m = machine();
    const ended = endedPid();
    mkdirSync(m.folder, { recursive: true, mode: 0o700 });
    const temp = join(m.folder, `.${ended}-0123456789ab.json.${ended}.00112233aabb.tmp`);
    writeFileSync(temp, '{', { mode: 0o600 });
    const hoursAgo = (Date.now() - 2 * 3_600_000) / 1000;
    utimesSync(temp, hoursAgo, hoursAgo);
    await emptiedWindow(m);
    expect(existsSync(temp)).toBe(false);
  });
  it('reads a log rewritten with the same inode, size and times (a file system of whole-second times), not the older one it read before', async () => {
    const m = machine();
    mkdirSync(m.folder, { recursive: true, mode: 0o700 });
    const path = join(m.folder, `${process.pid}-0123456789ab.json`);
    const at = m.clock.now() - 1_000;
    const log = (remaining: number) =>
      JSON.stringify({
        version: 1,
        pid: process.pid,
        writtenAt: at,
        requests: [{ seq: 1, sentAt: at - 20, doneAt: at, limit: 20, remaining, reset: 30 }],
      });
    // Times of whole seconds, as ext3, HFS+ or FAT keep them: the rewrite keeps them all.
    const second = Math.floor(Date.now() / 1000);
    writeFileSync(path, log(9), { mode: 0o600 });
    utimesSync(path, second, second);
    const reader = m.store()!;
    const remaining = () => reader.read().flatMap((l) => l.requests.map((r) => r.remaining));
    expect(remaining()).toEqual([9]);
    const before = statSync(path);
    writeFileSync(path, log(0));
    utimesSync(path, second, second);
    const after = statSync(path);
    expect([after.ino, after.mtimeMs, after.size]).toEqual([before.ino, before.mtimeMs, before.size]);
    // The other process's newest answer: its window is empty.
    expect(remaining()).toEqual([0]);
  });

  it(`sweeps every key's folder over a few runs, past the ${SHARED_FILES_MAX} one run looks at`, async () => {
    const m = machine();
    const ended = endedPid();
    const dead: string[] = [];
    for (let i = 0; i < 100; i++) {
      const folder = sharedFolder(m.dataDir, ORIGIN, `key number ${i}`);
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      // A live process's log keeps the folder (a long-running `mtg mcp` on that key).
      writeFileSync(join(folder, `${process.pid}-0123456789ab.json`), '{}', { mode: 0o600 });
      dead.push(join(folder, `${ended}-0123456789ab.json`));
      writeFileSync(dead.at(-1)!, '{}', { mode: 0o600 });
      // Written over an hour ago: no answer of it can still hold the next command.
      const hoursAgo = (Date.now() - 2 * 3_600_000) / 1000;
      utimesSync(dead.at(-1)!, hoursAgo, hoursAgo);
    }
    const left = () => dead.filter((path) => existsSync(path)).length;
    const sweptByRun: number[] = [];
    for (let run = 0; run < 10 && left() > 0; run++) {
      const before = left();
      m.store()!.write([]); // a new process's first write sweeps, once
      sweptByRun.push(before - left());
    }
    expect(left()).toBe(0);
    for (const swept of sweptByRun) expect(swept).toBeLessThanOrEqual(SHARED_FILES_MAX);
    expect(m.troubles).toEqual([]);
  });

  it("reads every running command's log however many ended ones there are, and keeps only the newest ended ones", async () => {
    const m = machine();
    const ended = endedPid();
    mkdirSync(m.folder, { recursive: true, mode: 0o700 });
    // A parallel loop on the Pro plan: 150 ended commands whose answers left room, Reset 50 s.
    const at = m.clock.now() - 1_000;
    for (let i = 0; i < 150; i++) {
      const requests = [{ seq: 1, sentAt: at - 20, doneAt: at, limit: 300, remaining: 200, reset: 50 }];
      const log = { version: 1, pid: ended, writtenAt: at, requests };
      writeFileSync(join(m.folder, `${ended}-${String(i).padStart(12, '0')}.json`), JSON.stringify(log), {
        mode: 0o600,
      });
    }
    // A running command with a request out, its log listed last (whatever order the folder lists).
    const running = m.limiter();
    await running.acquire();
    const names = readdirSync(m.folder).sort(
      (a, b) => Number(a.startsWith(`${process.pid}-`)) - Number(b.startsWith(`${process.pid}-`)),
    );
    expect(names.at(-1)!.startsWith(`${process.pid}-`)).toBe(true);
    const logs = readLogs(
      m.folder,
      names,
      'a reader of its own.json',
      process.getuid!(),
      m.clock.now(),
      new Map(),
    );
    expect(logs.filter((log) => log.requests.some((r) => r.doneAt === undefined))).toHaveLength(1);
    expect(logs.length).toBeLessThanOrEqual(1 + 8);
    expect(readdirSync(m.folder).filter((f) => f.startsWith(`${ended}-`))).toHaveLength(8);
  });

  it("keeps an ended command's 429 among the ended logs that say something, however many killed ones came after it", async () => {
    const m = machine();
    await emptiedWindow(m, 40, 40);
    endedWriter(m);
    // Eight commands of an `xargs -P` batch killed mid-request after it: their logs hold only requests out.
    const killed = endedPid();
    for (let i = 0; i < 8; i++) {
      const path = join(m.folder, `${killed}-${String(i).padStart(12, 'f')}.json`);
      const log = {
        version: 1,
        pid: killed,
        writtenAt: m.clock.now() - 10,
        requests: [{ seq: 1, sentAt: m.clock.now() - 15 }],
      };
      writeFileSync(path, JSON.stringify(log), { mode: 0o600 });
      const later = (Date.now() + 10) / 1000; // written after the 429's log
      utimesSync(path, later, later);
    }
    expect(await firstWait(m)).toBeGreaterThanOrEqual(39_000);
  });

  it("trusts no log whose content names another process than its file's name", async () => {
    const m = machine();
    await emptiedWindow(m);
    const [file] = readdirSync(m.folder);
    const path = join(m.folder, file!);
    const other = endedPid();
    writeFileSync(path, readFileSync(path, 'utf8').replace(`"pid":${process.pid}`, `"pid":${other}`));
    expect(await firstWait(m)).toBe(0);
  });

  it("holds the next commands for an ended one's 429 a minute or so at most, not the hour a proxy asked", async () => {
    const m = machine();
    await emptiedWindow(m, 3_600, 3_600);
    endedWriter(m);
    const waited = await firstWait(m);
    expect(waited).toBeGreaterThan(30_000);
    expect(waited).toBeLessThanOrEqual(70_000);
  });

  it("takes a log under this process's ID that this process did not make for an earlier process's (a reused PID)", async () => {
    const m = machine();
    mkdirSync(m.folder, { recursive: true, mode: 0o700 });
    const path = join(m.folder, `${process.pid}-0123456789ab.json`);
    const requests = [{ seq: 1, sentAt: m.clock.now() - 5_000 }]; // out when its process ended
    writeFileSync(
      path,
      JSON.stringify({ version: 1, pid: process.pid, writtenAt: m.clock.now() - 5_000, requests }),
      {
        mode: 0o600,
      },
    );
    expect(await firstWait(m)).toBe(0);
    expect(existsSync(path)).toBe(false);
  });

  it('trusts a log read before only when it had been still for a while when read', () => {
    const seen = { ino: 7, mtimeMs: 1_000_000, ctimeMs: 1_000_000, size: 120 };
    // A rewrite within a whole second keeps ino, size and both times: only the settled rule tells.
    expect(unchangedSince({ ...seen, settled: false }, seen)).toBe(false);
    expect(unchangedSince({ ...seen, settled: true }, seen)).toBe(true);
    expect(unchangedSince({ ...seen, settled: true }, { ...seen, ctimeMs: seen.ctimeMs + 1 })).toBe(false);
    expect(unchangedSince({ ...seen, settled: true }, { ...seen, size: 121 })).toBe(false);
  });

  /** A dead process's ID, and a log-shaped file of its under `dir` (as a planted or stale file would be). */
  function deadLog(dir: string, name = 'notes.json') {
    const ended = endedPid();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, name.replace('PID', String(ended)));
    writeFileSync(
      path,
      JSON.stringify({ version: 1, pid: ended, writtenAt: Date.now() - 1_000, requests: [] }),
      {
        mode: 0o600,
      },
    );
    return path;
  }

  it('reads, tidies and makes nothing through a link planted in place of the key folder or of ratelimit/', async () => {
    const m = machine();
    const outside = tempDir('mtg-share-outside-');
    const victims = [deadLog(outside), deadLog(outside, 'PID-0123456789ab.json')];
    mkdirSync(join(m.dataDir, 'ratelimit'), { recursive: true, mode: 0o700 });
    symlinkSync(outside, m.folder);
    await emptiedWindow(m);
    for (const path of victims) expect(existsSync(path)).toBe(true);
    expect(m.troubles).toEqual([
      `rate-limit sharing off for this command: ${m.folder} is not a private folder of this user's`,
    ]);

    const m2 = machine();
    const elsewhere = tempDir('mtg-share-outside-');
    symlinkSync(elsewhere, join(m2.dataDir, 'ratelimit'));
    await emptiedWindow(m2);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(m2.troubles).toHaveLength(1);
  });

  it("holds a command for another running command's report a minute or so at most, whatever Reset it carries", async () => {
    const m = machine();
    const other = m.limiter();
    const t = await other.acquire();
    await m.clock.advance(20);
    other.observe(t, { limit: 20, remaining: 0, reset: 3_600 });
    const waited = await firstWait(m);
    expect(waited).toBeGreaterThan(30_000);
    expect(waited).toBeLessThanOrEqual(70_000);
  });

  it("goes on sweeping past a folder planted under a log's name", async () => {
    const m = machine();
    const old = sharedFolder(m.dataDir, 'http://127.0.0.1:3', 'another key');
    const planted = deadLog(old, 'PID-aaaaaaaaaaaa.json');
    rmSync(planted);
    mkdirSync(planted);
    const hoursAgo = (Date.now() - 2 * 3_600_000) / 1000;
    const stale = Array.from({ length: 12 }, (_, i) =>
      deadLog(old, `PID-bbbbbbbbbb${String(i).padStart(2, '0')}.json`),
    );
    for (const path of [planted, ...stale]) utimesSync(path, hoursAgo, hoursAgo);
    await emptiedWindow(m);
    expect(stale.filter((path) => existsSync(path))).toEqual([]);
    expect(existsSync(planted)).toBe(true);
  });
});
