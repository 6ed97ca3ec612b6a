// `node bench/ratelimit-share.mjs`: what one look at the shared rate-limit folder costs
// (src/api/ratelimit-file.ts): the limiter claims the lock, reads the other commands' logs, writes its
// own and gives the lock back once per request it decides. Measured in this process against a real
// folder: alone; beside 3 running commands (live child processes, so each look asks whether their
// writers run); and beside those and 40 ended commands' logs (8 of them read: the newest that say
// something), for µs per look beside a request's round trip (milliseconds at best). BENCH_QUICK=1:
// fewer looks.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSourceModule } from './bundle.mjs';

const LOOKS = process.env.BENCH_QUICK ? 200 : 5_000;
const { fileReports, sharedFolder } = await loadSourceModule('src/api/ratelimit-file.ts');
const { realClock } = await loadSourceModule('src/shared/clock.ts');

const dataDir = mkdtempSync(join(tmpdir(), 'mtg-share-bench-'));
const children = [];
try {
  const origin = 'http://127.0.0.1:4010';
  const key = 'bench-key';
  const folder = sharedFolder(dataDir, origin, key);
  const store = fileReports({ dataDir, origin, apiKey: key, clock: realClock });
  if (!store) throw new Error('no shared store on this system');
  const now = Date.now();
  const requests = (n) =>
    Array.from({ length: n }, (_, i) => ({
      seq: i + 1,
      sentAt: now - 900 + i,
      doneAt: now - 880 + i,
      limit: 20,
      remaining: 19 - (i % 20),
      reset: 55,
    }));
  const plant = (pid, name, n) =>
    writeFileSync(
      join(folder, `${pid}-${name}.json`),
      JSON.stringify({ version: 1, pid, writtenAt: Date.now(), requests: requests(n) }),
      { mode: 0o600 },
    );
  const look = () => {
    store.claim?.();
    store.read();
    store.write(requests(8));
    store.release?.();
  };
  const measure = (label) => {
    for (let i = 0; i < 50; i++) look(); // the read cache settles
    const began = process.hrtime.bigint();
    for (let i = 0; i < LOOKS; i++) look();
    const us = Number(process.hrtime.bigint() - began) / 1000 / LOOKS;
    process.stdout.write(`${label.padEnd(58)} ${us.toFixed(1).padStart(8)} µs a look\n`);
  };

  store.write([]);
  measure('alone (its own log only)');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  for (let i = 0; i < 3; i++) {
    const child = spawn('sleep', ['600'], { stdio: 'ignore' });
    children.push(child);
    plant(child.pid, `00000000000${i}`, 16);
  }
  measure('beside 3 running commands');
  const ended = Number(
    spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout,
  );
  for (let i = 0; i < 40; i++) plant(ended, String(i).padStart(12, '0'), 8);
  measure('beside 3 running and 40 ended commands (8 read)');
} finally {
  for (const child of children) child.kill();
  rmSync(dataDir, { recursive: true, force: true });
}
