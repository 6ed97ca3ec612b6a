// `node bench/mirror-sync.mjs` (after `npm run build`): the sync figures of the local mirror.
//   h) first sync of 400 meetings with transcripts under "20/1s,300/1m" with its windows halved
//      ("20/500ms,300/30s": the same shape; a tenfold shrink made request latency, not the limit, the
//      bound), vs
//      the theoretical minimum for the requests it made (bench/theory.mjs); 429s counted at the sandbox
//   i) a second sync with nothing changed: requests made, and how many were transcripts (target: 0)
//   j) sync of 100,000 action items (no limits, page size 100) vs `action-items list --format ndjson`
//      of the same: wall time and peak RSS, interleaved
// Whole processes, as users run them; the sandbox in its own process (bench/sandbox-server.mjs), so
// its work is not counted. Prints figures and never fails on a missed target.
// BENCH_QUICK=1: smaller data and one run each (a smoke test of the harness, not figures to quote).

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bundleSandbox } from './bundle.mjs';
import { minimumMs, parseWindows } from './theory.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin', 'mtg.js');
const QUICK = process.env.BENCH_QUICK === '1';
const GNU_TIME = ['/usr/bin/time', '/bin/time'].find((p) => existsSync(p));
const work = mkdtempSync(join(tmpdir(), 'mtg-bench-sync-'));
const SANDBOX_MODULE = join(work, 'sandbox.mjs');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const spread = (xs, f) => `${f(Math.min(...xs))} / ${f(median(xs))} / ${f(Math.max(...xs))}`;
const sec = (ms) => `${(ms / 1000).toFixed(2)} s`;
const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`;

/** One child process: wall ms, exit code, stdout (when asked), stderr, peak RSS (kB, GNU time). */
function run(args, env, { keepStdout = false } = {}) {
  return new Promise((resolve, reject) => {
    const rssFile = GNU_TIME ? join(work, `rss-${process.hrtime.bigint()}`) : undefined;
    const argv = rssFile
      ? [GNU_TIME, '-f', '%M', '-o', rssFile, process.execPath, BIN, ...args]
      : [process.execPath, BIN, ...args];
    const started = performance.now();
    const child = spawn(argv[0], argv.slice(1), {
      env,
      stdio: ['ignore', keepStdout ? 'pipe' : openSync('/dev/null', 'w'), 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (d) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      let maxRssKb = Number.NaN;
      if (rssFile) {
        const lines = readFileSync(rssFile, 'utf8').trim().split('\n');
        maxRssKb = Number(lines[lines.length - 1]);
        rmSync(rssFile, { force: true });
      }
      if (code !== 0) reject(new Error(`mtg ${args.join(' ')} exited ${code}:\n${stderr.slice(-1500)}`));
      else resolve({ ms, stdout, maxRssKb });
    });
  });
}

async function startSandbox(options) {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bench', 'sandbox-server.mjs'), SANDBOX_MODULE, JSON.stringify(options)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout });
  const waiting = [];
  lines.on('line', (line) => waiting.shift()?.(JSON.parse(line)));
  const nextLine = () => new Promise((resolve) => waiting.push(resolve));
  const hello = await nextLine();
  return {
    env: (dataDir) => ({
      PATH: process.env.PATH,
      HOME: work,
      MTG_CONFIG_DIR: join(work, 'config'),
      MTG_DATA_DIR: dataDir,
      MTG_BASE_URL: hello.baseUrl,
      MTG_API_KEY: hello.apiKey,
    }),
    stats() {
      const p = nextLine();
      child.stdin.write('stats\n');
      return p;
    },
    close: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.stdin.end();
      }),
  };
}

const rows = [];
function row(figure, value, baseline, ratio, target, met, n, extra = '') {
  rows.push({ figure, value, baseline, ratio, target, met: met ? 'yes' : 'NO', n, extra });
}

// h) and i): one sandbox, two syncs.
async function pacedSync() {
  const limits = '20/500ms,300/30s';
  const meetings = QUICK ? 60 : 400;
  const sandbox = await startSandbox({ limits, sizes: { meetings } });
  const dataDir = mkdtempSync(join(work, 'data-'));
  const first = await run(['sync', '--json'], sandbox.env(dataDir), { keepStdout: true });
  const summary = JSON.parse(first.stdout);
  const afterFirst = await sandbox.stats();
  const minimum = minimumMs(afterFirst.requests - afterFirst.count429, parseWindows(limits));
  row(
    `h) first sync, ${meetings} meetings + transcripts, "${limits}"`,
    sec(first.ms),
    `${sec(minimum)} (theoretical minimum for ${afterFirst.requests} requests)`,
    `${(first.ms / minimum).toFixed(2)}x`,
    '<= 1.10x, 0 x 429',
    first.ms / minimum <= 1.1 && afterFirst.count429 === 0,
    1,
    `429s: ${afterFirst.count429}; complete: ${summary.complete}; transcripts: ${summary.transcripts.fetched}`,
  );
  await run(['sync', '--json'], sandbox.env(dataDir), { keepStdout: true });
  const afterSecond = await sandbox.stats();
  const requests = afterSecond.requests - afterFirst.requests;
  const transcripts = afterSecond.transcripts - afterFirst.transcripts;
  row(
    'i) second sync, nothing changed',
    `${requests} requests`,
    `${afterFirst.requests - afterFirst.transcripts} list pages in the first`,
    '-',
    'list pages only, 0 transcripts',
    transcripts === 0 && requests === afterFirst.requests - afterFirst.transcripts,
    1,
    `transcript requests: ${transcripts}`,
  );
  await sandbox.close();
}

// j) 100,000 action items: sync vs an ndjson export, interleaved.
async function bigSync() {
  const items = QUICK ? 10_000 : 100_000;
  const n = QUICK ? 1 : 3;
  const sandbox = await startSandbox({ limits: 'none', pageSize: 100, sizes: { actionItems: items } });
  const sync = [];
  const list = [];
  for (let i = 0; i < n; i++) {
    const dataDir = mkdtempSync(join(work, 'data-'));
    list.push(
      await run(
        ['action-items', 'list', '--assignee', 'anyone', '--status', 'all', '--format', 'ndjson'],
        sandbox.env(dataDir),
      ),
    );
    sync.push(await run(['sync', '--only', 'action-items', '--json'], sandbox.env(dataDir)));
    rmSync(dataDir, { recursive: true, force: true });
  }
  await sandbox.close();
  const ratio = median(sync.map((r) => r.ms)) / median(list.map((r) => r.ms));
  const rss = median(sync.map((r) => r.maxRssKb)) / median(list.map((r) => r.maxRssKb));
  row(
    `j) sync of ${items.toLocaleString('en')} action items (wall)`,
    spread(
      sync.map((r) => r.ms),
      sec,
    ),
    `${spread(
      list.map((r) => r.ms),
      sec,
    )} (ndjson export)`,
    `${ratio.toFixed(2)}x`,
    '<= 1.5x',
    ratio <= 1.5,
    n,
  );
  row(
    `j) sync of ${items.toLocaleString('en')} action items (peak RSS)`,
    mb(median(sync.map((r) => r.maxRssKb))),
    `${mb(median(list.map((r) => r.maxRssKb)))} (ndjson export)`,
    `${rss.toFixed(2)}x`,
    '<= 1.5x',
    rss <= 1.5,
    n,
  );
}

try {
  await bundleSandbox(SANDBOX_MODULE);
  await pacedSync();
  await bigSync();
  console.log(
    'figure | value (min / median / max where several runs) | baseline | ratio | target | met | runs | notes',
  );
  console.log('--- | --- | --- | --- | --- | --- | --- | ---');
  for (const r of rows) {
    console.log([r.figure, r.value, r.baseline, r.ratio, r.target, r.met, r.n, r.extra].join(' | '));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
