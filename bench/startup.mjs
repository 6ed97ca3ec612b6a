// `node bench/startup.mjs` (part of `npm run bench`): the start-up figures of mtg under one node
// binary, each as a ratio to `node -e ""` of that same binary, so that node lines can be compared:
//   - a) `mtg --version` and `mtg action-items list --help` (answered by dist/mtg.cjs alone)
//   - g) a one-page API command against a local sandbox of 100 action items
//   - `mtg find` and `mtg meetings list --offline` on a mirror of 5,000 meetings (~20 KB of
//     transcript each), written through src/mirror by bench/mirror-fixture.ts
//   - `mtg config list --json`: no network, no mirror: the CLI's own floor (no target)
// Whole processes in a minimal environment (PATH, HOME, an empty MTG_CONFIG_DIR; see
// bench/README.md), wall time from spawn to exit; every command of a figure and the baseline
// alternate, the order rotating each round, after one warm-up run of each (which also fills node's
// compile cache, as a user's first run does). Prints one table and never fails on a missed target.
//
//   MTG_BENCH_NODE=/path/to/node   the node that runs mtg and the baseline (default: this one)
//   BENCH_QUICK=1                  each figure once on a mirror of 500 meetings (a smoke test)
//
// The harness itself (the build, the sandbox, the mirror's writer) runs on the node that runs this
// script; a mirror command that cannot load a SQLite driver under MTG_BENCH_NODE is reported as
// skipped, with its error.

import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bundleSandbox, loadMirrorFixture } from './bundle.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const QUICK = process.env.BENCH_QUICK === '1';
const ROUNDS = QUICK ? 1 : 11;
const MEETINGS = QUICK ? 500 : 5000;
const NODE = process.env.MTG_BENCH_NODE || process.execPath;
// The standalone binary (`npm run build:binary`: dist-binary/mtg), measured beside the package when
// it exists, against `node -e ""` of NODE (the binary's node should be the same version).
const BINARY =
  process.env.MTG_BENCH_BINARY ||
  (existsSync(join(ROOT, 'dist-binary', 'mtg')) ? join(ROOT, 'dist-binary', 'mtg') : undefined);
const RARE = 'zanzibarium';

const work = mkdtempSync(join(tmpdir(), 'mtg-bench-startup-'));
const BIN = join(work, 'bin', 'mtg.js');
const DATA_DIR = join(work, 'data');
const env = {
  PATH: process.env.PATH,
  HOME: work,
  MTG_CONFIG_DIR: join(work, 'config'),
  MTG_DATA_DIR: DATA_DIR,
};

// CPU time (user + sys) of the child, the steadier figure on a shared machine: read from wait4's
// rusage by a small python3 reaper (microseconds; GNU time prints hundredths, too coarse for a
// 25 ms process). Its own start is not counted: it forks the child and reports only the child's
// usage and its wall time from fork to reaping, on fd 3. Without python3, CPU is NaN and the table
// falls back to wall time.
const PYTHON = ['/usr/bin/python3', '/bin/python3', '/usr/local/bin/python3'].find((p) => existsSync(p));
const REAPER = [
  'import os, sys, time',
  'os.set_inheritable(3, False)',
  't = time.monotonic()',
  'pid = os.fork()',
  'if pid == 0:',
  '    os.execv(sys.argv[1], sys.argv[1:])',
  '_, status, ru = os.wait4(pid, 0)',
  't = time.monotonic() - t',
  'os.write(3, ("%f %f" % ((ru.ru_utime + ru.ru_stime) * 1000, t * 1000)).encode())',
  'sys.exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)',
].join('\n');

/** Run a child to its end: wall ms (spawn to exit), CPU ms (NaN without python3), exit code, stderr. */
function runChild(cmd, args, options = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const reaped = PYTHON && options.cpu;
    const child = reaped
      ? spawn(PYTHON, ['-S', '-c', REAPER, cmd, ...args], {
          stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
          ...options,
        })
      : spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], ...options });
    let stderr = '';
    let cpu = '';
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.stdio[3]?.setEncoding('utf8').on('data', (d) => {
      cpu += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const [cpuMs, wallMs] = cpu.split(' ').map(Number);
      resolve({
        ms: reaped && wallMs >= 0 ? wallMs : performance.now() - started,
        cpu: reaped && cpuMs >= 0 ? cpuMs : Number.NaN,
        code,
        stderr,
      });
    });
  });
}

/** A private build, as bench/run.mjs makes it: a concurrent `npm run build` cannot swap dist/. */
async function build() {
  mkdirSync(join(work, 'bin'), { recursive: true });
  mkdirSync(env.MTG_CONFIG_DIR, { recursive: true });
  mkdirSync(DATA_DIR, { recursive: true, mode: 0o700 });
  copyFileSync(join(ROOT, 'bin', 'mtg.js'), BIN);
  copyFileSync(join(ROOT, 'bin', 'package.json'), join(work, 'bin', 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'), 'dir');
  const built = await runChild(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], {
    cwd: ROOT,
    env: { ...process.env, MTG_BUILD_OUTDIR: join(work, 'dist') },
  });
  if (built.code !== 0) throw new Error(`build failed:\n${built.stderr}`);
}

/** The sandbox of figure g in its own process (bench/sandbox-server.mjs). */
async function startSandbox() {
  const module = join(work, 'sandbox.mjs');
  await bundleSandbox(module);
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'bench', 'sandbox-server.mjs'),
      module,
      JSON.stringify({ limits: 'none', sizes: { actionItems: 100 } }),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const [line] = await Promise.race([
    createInterface({ input: child.stdout })
      [Symbol.asyncIterator]()
      .next()
      .then((r) => [r.value]),
    new Promise((_, reject) => child.once('exit', () => reject(new Error('the sandbox exited')))),
  ]);
  const { baseUrl, apiKey } = JSON.parse(line);
  return { env: { MTG_BASE_URL: baseUrl, MTG_API_KEY: apiKey }, close: () => child.stdin.end() };
}

/** The mirror of the read figures, with its meetings list marked as walked to its end (a sync's). */
async function buildMirror() {
  const buildFixture = await loadMirrorFixture();
  const { path } = buildFixture({
    dataDir: DATA_DIR,
    meetings: MEETINGS,
    transcriptBytes: 20_000,
    seed: 1,
    rareEvery: 250,
    rareWord: RARE,
  });
  let sqlite;
  try {
    sqlite = process.getBuiltinModule('node:sqlite'); // node >= 22.13; undefined before
  } catch {}
  const db = sqlite
    ? new sqlite.DatabaseSync(path)
    : new (createRequire(join(ROOT, 'package.json'))('better-sqlite3'))(path);
  const at = new Date().toISOString();
  db.prepare('INSERT INTO walks(resource, query, started_at, completed_at) VALUES (?, ?, ?, ?)').run(
    'meetings',
    '[]',
    at,
    at,
  );
  db.close();
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const rows = [];
const notes = [];

/**
 * One figure: its commands and `node -e ""`, alternating with the order rotating each round. A
 * command with `binary` runs the standalone binary (MTG_BENCH_BINARY) instead of node + bin/mtg.js;
 * each command's ratio is to `node -e ""` of NODE, measured in the same rounds.
 * @param {{ label: string, args: string[], target?: number, binary?: boolean }[]} figures
 */
async function measure(figures, extraEnv = {}) {
  const childEnv = { ...env, ...extraEnv };
  const commands = [
    { label: 'node -e ""', cmd: NODE, args: ['-e', ''] },
    ...figures.map((f) => (f.binary ? { ...f, cmd: BINARY } : { ...f, cmd: NODE, args: [BIN, ...f.args] })),
  ];
  const live = [];
  for (const c of commands) {
    const first = await runChild(c.cmd, c.args, { env: childEnv });
    if (first.code === 0) live.push({ ...c, cpu: [], wall: [] });
    else notes.push(`${c.label}: skipped, exit ${first.code}: ${first.stderr.trim().split('\n')[0]}`);
  }
  for (let i = 0; i < ROUNDS; i++) {
    for (let k = 0; k < live.length; k++) {
      const c = live[(i + k) % live.length];
      const r = await runChild(c.cmd, c.args, { env: childEnv, cpu: true });
      if (r.code !== 0) throw new Error(`${c.label} exited ${r.code}: ${r.stderr.slice(-2000)}`);
      c.cpu.push(r.cpu);
      c.wall.push(r.ms);
    }
  }
  const [base, ...rest] = live;
  if (base?.label !== 'node -e ""') throw new Error('node -e "" failed');
  const ms = (x) => (Number.isNaN(x) ? '-' : x.toFixed(0));
  const byCpu = !base.cpu.some(Number.isNaN);
  for (const c of rest) {
    const times = byCpu ? c.cpu : c.wall;
    const baseTimes = byCpu ? base.cpu : base.wall;
    const ratio = median(times) / median(baseTimes);
    rows.push([
      c.label,
      `${ms(median(times))} ms`,
      `${ms(median(baseTimes))} ms`,
      `${ratio.toFixed(2)}x`,
      c.target ? `<= ${c.target.toFixed(2)}x` : '-',
      c.target ? (ratio <= c.target ? 'yes' : 'NO') : '-',
      `${(median(c.wall) / median(base.wall)).toFixed(2)}x (${ms(median(c.wall))} vs ${ms(median(base.wall))} ms)`,
      `${ms(Math.min(...times))}-${ms(Math.max(...times))} vs ${ms(Math.min(...baseTimes))}-${ms(Math.max(...baseTimes))} ms`,
    ]);
  }
  if (!byCpu) notes.push('no python3: the ratios are of wall time');
}

function printTable(version) {
  const header = [
    'figure',
    'mtg, CPU (median)',
    'node -e "", CPU',
    'ratio',
    'target',
    'met',
    'wall ratio',
    'CPU spread (min-max)',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  process.stdout.write(
    `\nmtg start-up — ${new Date().toISOString()}\nmachine: ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores), load average ${loadavg()[0].toFixed(1)}; measured node ${version} (${NODE})${BINARY ? `, binary ${BINARY}` : ''}; ${ROUNDS} rounds\n\n`,
  );
  process.stdout.write(
    `${[line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n')}\n\n`,
  );
  for (const note of notes) process.stdout.write(`${note}\n`);
  if (QUICK) process.stdout.write('(BENCH_QUICK: one run each, not figures to quote)\n');
}

async function main() {
  const version = await new Promise((resolve, reject) => {
    const child = spawn(NODE, ['--version'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('close', () => resolve(out.trim()));
  });
  process.stderr.write(`mtg start-up bench: node ${version}; building into ${work} ...\n`);
  await build();
  process.stderr.write('a) --version and help ...\n');
  // The binary's rows (issue 33's targets for it) beside the package's, in the same rounds.
  // Only against node 26, the node inside the binary (scripts/build-binary.mjs).
  const binary = (figures) =>
    BINARY && version.startsWith('v26.')
      ? figures.map((f) => ({ ...f, label: `binary: ${f.label}`, binary: true, target: f.binaryTarget }))
      : [];
  await measure([
    { label: 'a) mtg --version', args: ['--version'], target: 1.25 },
    { label: 'a) mtg action-items list --help', args: ['action-items', 'list', '--help'], target: 1.25 },
    ...binary([{ label: 'a) mtg --version', args: ['--version'], binaryTarget: 1.2 }]),
  ]);
  process.stderr.write('g) one-page API command ...\n');
  const sandbox = await startSandbox();
  try {
    const onePage = {
      label: 'g) mtg action-items list --limit 1 --json',
      args: ['action-items', 'list', '--assignee', 'anyone', '--limit', '1', '--json'],
    };
    await measure(
      [
        { ...onePage, target: 3 },
        { label: 'mtg config list --json (reference)', args: ['config', 'list', '--json'] },
        ...binary([{ ...onePage, binaryTarget: 2 }]),
      ],
      sandbox.env,
    );
  } finally {
    sandbox.close();
  }
  process.stderr.write(`find, offline list: writing a mirror of ${MEETINGS} meetings ...\n`);
  await buildMirror();
  const find = { label: `mtg find ${RARE} --format json`, args: ['find', RARE, '--format', 'json'] };
  await measure([
    { ...find, target: 2.5 },
    {
      label: 'mtg meetings list --offline --limit 20',
      args: ['meetings', 'list', '--offline', '--limit', '20', '--format', 'json'],
      target: 2.5,
    },
    ...binary([{ ...find, binaryTarget: 1.8 }]),
  ]);
  printTable(version);
}

try {
  if (!existsSync(NODE)) throw new Error(`MTG_BENCH_NODE: no such file: ${NODE}`);
  await main();
} catch (err) {
  process.stderr.write(`start-up bench failed: ${err.stack ?? err}\n`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
