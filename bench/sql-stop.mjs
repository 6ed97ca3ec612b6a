// `node bench/sql-stop.mjs` (after `npm run build`): how fast a runaway `mtg sql` stops (issue 29).
//   - SIGINT (Ctrl-C) and SIGTERM sent to `mtg sql` stuck in one SQLite step (a recursive CTE
//     without end): time from the signal to mtg's exit, its exit code, and whether the process that
//     ran the statement is gone; target <= 2 s, exit 130
//   - `--timeout 1` on the same statement: time from start to exit (exit 1)
//   - what running the statement apart costs: `mtg sql "SELECT count(*) FROM meetings"` vs `node -e ""`
// Whole processes, medians (and the slowest). Prints figures and never fails on a missed target.
// BENCH_QUICK=1: one run each (a smoke test). MTG_BENCH_BIN=…/bin/mtg.js measures another build
// (an mtg from before the fix: a signal it ignores is reported as such after 10 s, then SIGKILLed).

import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchFolders, loadMirrorFixture, loadSourceModule, median } from './bundle.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = process.env.MTG_BENCH_BIN || join(ROOT, 'bin', 'mtg.js');
const QUICK = process.env.BENCH_QUICK === '1';
const RUNS = QUICK ? 1 : 7;
const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c';
/** How long a signalled mtg may take before the bench gives up on it (and SIGKILLs it). */
const GIVE_UP_MS = 10_000;

const { work, dataDir, env } = benchFolders('mtg-bench-sql-');

function start(args) {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => {
    stderr += d;
  });
  const closed = new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, at: performance.now() }));
  });
  return { child, closed, stderr: () => stderr };
}

/** Linux: a process's children and its CPU seconds (/proc); elsewhere the bench waits 1.5 s instead. */
const PROC = (() => {
  try {
    readFileSync(`/proc/${process.pid}/stat`);
    return true;
  } catch {
    return false;
  }
})();
// The tests' own /proc readers (test/helpers/processes.ts), not a copy of them.
const { childrenOf, cpuSeconds, running } = await loadSourceModule('test/helpers/processes.ts');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** One `mtg sql RUNAWAY`, signalled once its statement has stepped 0.5 s of CPU. */
async function signalled(signal) {
  const run = start([BIN, 'sql', RUNAWAY]);
  let statement = run.child.pid;
  if (PROC) {
    for (const end = Date.now() + 20_000; Date.now() < end; await sleep(20)) {
      statement = childrenOf(run.child.pid)[0] ?? run.child.pid;
      if (cpuSeconds(statement) >= 0.5) break;
    }
  } else await sleep(1_500);
  const sent = performance.now();
  run.child.kill(signal);
  const outcome = await Promise.race([run.closed, sleep(GIVE_UP_MS).then(() => undefined)]);
  if (!outcome) {
    run.child.kill('SIGKILL');
    await run.closed;
    return { ms: Number.POSITIVE_INFINITY, code: 'none (SIGKILLed)', gone: true };
  }
  return { ms: outcome.at - sent, code: outcome.code, gone: PROC ? !running(statement) : undefined };
}

async function timedOut() {
  const t0 = performance.now();
  const run = start([BIN, 'sql', RUNAWAY, '--timeout', '1']);
  const outcome = await Promise.race([run.closed, sleep(GIVE_UP_MS).then(() => undefined)]);
  if (!outcome) {
    run.child.kill('SIGKILL');
    await run.closed;
    return { ms: Number.POSITIVE_INFINITY, code: 'none (SIGKILLed)' };
  }
  return { ms: outcome.at - t0, code: outcome.code, line: run.stderr().trim() };
}

async function wall(args) {
  const t0 = performance.now();
  const run = start(args);
  const { code } = await run.closed;
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}: ${run.stderr()}`);
  return performance.now() - t0;
}

const ms = (x) => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : `> ${GIVE_UP_MS / 1000} s`);

async function main() {
  const buildFixture = await loadMirrorFixture();
  buildFixture({
    dataDir,
    meetings: 50,
    transcriptBytes: 2_000,
    seed: 1,
    rareEvery: 25,
    rareWord: 'zanzibar',
  });
  console.log(
    `mtg sql stopping (${BIN}), ${RUNS} run(s) each${QUICK ? ' (BENCH_QUICK: not figures to quote)' : ''}\n`,
  );
  console.log('| figure | median | slowest | exit | statement process gone | target | met |');
  console.log('|---|---|---|---|---|---|---|');
  for (const signal of ['SIGINT', 'SIGTERM']) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await signalled(signal));
    const times = runs.map((r) => r.ms);
    const codes = [...new Set(runs.map((r) => r.code))].join(', ');
    const gone = runs.every((r) => r.gone === undefined) ? 'n/a' : runs.every((r) => r.gone) ? 'yes' : 'NO';
    const met = Math.max(...times) <= 2_000 && codes === '130' && gone !== 'NO';
    console.log(
      `| ${signal} mid-step -> exit | ${ms(median(times))} | ${ms(Math.max(...times))} | ${codes} | ${gone} | <= 2 s, exit 130 | ${met ? 'yes' : 'NO'} |`,
    );
  }
  const limited = [];
  for (let i = 0; i < RUNS; i++) limited.push(await timedOut());
  const times = limited.map((r) => r.ms);
  const codes = [...new Set(limited.map((r) => r.code))].join(', ');
  console.log(
    `| --timeout 1: start -> exit | ${ms(median(times))} | ${ms(Math.max(...times))} | ${codes} | | exit 1 | ${codes === '1' ? 'yes' : 'NO'} |`,
  );
  if (limited[0]?.line) console.log(`\n--timeout 1 says: ${limited[0].line}`);
  // The price of running apart: a child process (node, the driver) per statement.
  const base = [];
  const cmd = [];
  await wall([BIN, 'sql', 'SELECT count(*) FROM meetings']); // warm the page cache
  for (let i = 0; i < (QUICK ? 1 : 15); i++) {
    base.push(await wall(['-e', '']));
    cmd.push(await wall([BIN, 'sql', 'SELECT count(*) FROM meetings']));
  }
  console.log(
    `\nmtg sql "SELECT count(*) FROM meetings": ${median(cmd).toFixed(0)} ms; node -e "": ${median(base).toFixed(0)} ms (${(median(cmd) / median(base)).toFixed(2)}x), medians of ${cmd.length} interleaved runs`,
  );
}

try {
  await main();
} finally {
  rmSync(work, { recursive: true, force: true });
}
