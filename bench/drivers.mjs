// `node bench/drivers.mjs` (after `npm run build`): the mirror's two SQLite drivers side by side on
// one Node.js, picked with MTG_SQLITE_DRIVER:
//   - sync of 100,000 action items (no limits, page size 100): wall and CPU time, peak RSS
//   - `mtg find` and `mtg meetings list --offline` on the synced mirror: wall and CPU time
// Whole processes, the drivers interleaved run by run (noise hits both alike), medians.
//   BENCH_NODE=/path/to/node         the Node.js that runs mtg (default: this one)
//   BENCH_BETTER_SQLITE3=/path/to/better-sqlite3   a better-sqlite3 built for BENCH_NODE, when the
//                                    project's own is built for another Node (its NODE_MODULE_VERSION)
//   BENCH_QUICK=1                    10,000 items, 2 runs (a smoke test of the harness)
// A driver that cannot load on BENCH_NODE is reported and left out. Prints figures, never fails.

import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bundleSandbox } from './bundle.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const QUICK = process.env.BENCH_QUICK === '1';
const NODE = process.env.BENCH_NODE || process.execPath;
const ITEMS = QUICK ? 10_000 : 100_000;
const SYNC_RUNS = QUICK ? 1 : 5;
const READ_RUNS = QUICK ? 2 : 11;
const GNU_TIME = ['/usr/bin/time', '/bin/time'].find((p) => existsSync(p));
const DRIVERS = ['better-sqlite3', 'node:sqlite'];

const work = mkdtempSync(join(tmpdir(), 'mtg-bench-drivers-'));
const SANDBOX_MODULE = join(work, 'sandbox.mjs');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// mtg as installed: this checkout's bin/ and dist/, with the externals the bundle loads; the
// better-sqlite3 given for BENCH_NODE when there is one.
function installFolder() {
  const install = join(work, 'install');
  mkdirSync(join(install, 'node_modules'), { recursive: true });
  cpSync(join(ROOT, 'bin'), join(install, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'dist'), join(install, 'dist'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(install, 'package.json'));
  const betterSqlite3 = process.env.BENCH_BETTER_SQLITE3 || join(ROOT, 'node_modules', 'better-sqlite3');
  for (const [name, path] of [
    ['jq-web', join(ROOT, 'node_modules', 'jq-web')],
    ['better-sqlite3', betterSqlite3],
    ['bindings', join(ROOT, 'node_modules', 'bindings')],
    ['file-uri-to-path', join(ROOT, 'node_modules', 'file-uri-to-path')],
  ]) {
    // Copies, not links: better-sqlite3 requires bindings from where it really is.
    if (existsSync(path))
      cpSync(path, join(install, 'node_modules', name), { recursive: true, dereference: true });
  }
  return join(install, 'bin', 'mtg.js');
}

/** One child process: wall ms, CPU ms (user + sys), peak RSS kB (NaN without GNU time), stderr. */
function run(bin, args, env) {
  return new Promise((resolve) => {
    const timeFile = GNU_TIME ? join(work, `time-${process.hrtime.bigint()}`) : undefined;
    const argv = timeFile
      ? [GNU_TIME, '-f', '%U %S %M', '-o', timeFile, NODE, bin, ...args]
      : [NODE, bin, ...args];
    const started = performance.now();
    const child = spawn(argv[0], argv.slice(1), {
      env,
      stdio: ['ignore', openSync('/dev/null', 'w'), 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => {
      const ms = performance.now() - started;
      let cpuMs = Number.NaN;
      let rssKb = Number.NaN;
      if (timeFile) {
        const last = readFileSync(timeFile, 'utf8').trim().split('\n').pop().split(' ').map(Number);
        cpuMs = (last[0] + last[1]) * 1000;
        rssKb = last[2];
        rmSync(timeFile, { force: true });
      }
      resolve({ code, ms, cpuMs, rssKb, stderr });
    });
  });
}

async function startSandbox(options) {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bench', 'sandbox-server.mjs'), SANDBOX_MODULE, JSON.stringify(options)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const hello = await new Promise((resolve) =>
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line))),
  );
  return {
    ...hello,
    close: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.stdin.end();
      }),
  };
}

async function main() {
  await bundleSandbox(SANDBOX_MODULE);
  const bin = installFolder();
  const nodeVersion = await new Promise((resolve) => {
    const c = spawn(NODE, ['-p', 'process.version']);
    let out = '';
    c.stdout.on('data', (d) => {
      out += d;
    });
    c.on('close', () => resolve(out.trim()));
  });
  const sandbox = await startSandbox({ limits: 'none', pageSize: 100, sizes: { actionItems: ITEMS } });
  const env = (driver, dataDir) => ({
    PATH: process.env.PATH,
    HOME: work,
    MTG_CONFIG_DIR: join(work, 'config'),
    MTG_DATA_DIR: dataDir,
    MTG_BASE_URL: sandbox.baseUrl,
    MTG_API_KEY: sandbox.apiKey,
    MTG_SQLITE_DRIVER: driver,
  });
  let drivers = [...DRIVERS];
  const results = Object.fromEntries(DRIVERS.map((d) => [d, { sync: [], find: [], list: [], failures: [] }]));
  const mirrors = {};
  try {
    for (let i = 0; i < SYNC_RUNS; i++) {
      for (const driver of drivers) {
        const dataDir = mkdtempSync(join(work, 'data-'));
        const r = await run(bin, ['sync', '-q'], env(driver, dataDir));
        if (i === 0 && /cannot load/.test(r.stderr)) {
          console.log(`${driver}: left out (${r.stderr.trim()})`);
          drivers = drivers.filter((d) => d !== driver);
          continue;
        }
        if (r.code !== 0) {
          // Counted, not fatal: a driver that crashes is a finding (stderr's first line kept).
          results[driver].failures.push(`sync exited ${r.code}: ${r.stderr.trim().split('\n')[0]}`);
          rmSync(dataDir, { recursive: true, force: true });
          continue;
        }
        results[driver].sync.push(r);
        if (mirrors[driver]) rmSync(dataDir, { recursive: true, force: true });
        else mirrors[driver] = dataDir;
      }
    }
    // Reads: every driver on the same mirror file (the first driver's).
    const mirror = mirrors[drivers[0]];
    for (let i = 0; i < READ_RUNS; i++) {
      for (const driver of drivers) {
        const find = await run(bin, ['find', 'budget', '--limit', '20'], env(driver, mirror));
        const list = await run(bin, ['meetings', 'list', '--offline', '--limit', '20'], env(driver, mirror));
        for (const [key, r] of [
          ['find', find],
          ['list', list],
        ]) {
          if (r.code === 0) results[driver][key].push(r);
          else results[driver].failures.push(`${key} exited ${r.code}: ${r.stderr.trim().split('\n')[0]}`);
        }
      }
    }
  } finally {
    await sandbox.close();
  }
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  const ms = (x) => `${x.toFixed(0)} ms`;
  console.log(
    `\nNode.js ${nodeVersion}; medians (sync: ${SYNC_RUNS} runs, reads: ${READ_RUNS} runs), interleaved`,
  );
  console.log(
    `driver | sync ${ITEMS.toLocaleString('en')} action items: wall / CPU / peak RSS | find: wall / CPU | meetings list --offline: wall / CPU`,
  );
  console.log('---|---|---|---');
  for (const driver of drivers) {
    const r = results[driver];
    const m = (runs, key) => median(runs.map((x) => x[key]));
    console.log(
      `${driver} | ${s(m(r.sync, 'ms'))} / ${s(m(r.sync, 'cpuMs'))} / ${(m(r.sync, 'rssKb') / 1024).toFixed(0)} MB | ` +
        `${ms(m(r.find, 'ms'))} / ${ms(m(r.find, 'cpuMs'))} | ${ms(m(r.list, 'ms'))} / ${ms(m(r.list, 'cpuMs'))}`,
    );
  }
  for (const driver of drivers) {
    for (const failure of results[driver].failures) console.log(`${driver}: a run failed: ${failure}`);
  }
}

try {
  await main();
} finally {
  rmSync(work, { recursive: true, force: true });
}
