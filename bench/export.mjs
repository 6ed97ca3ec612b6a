// Benchmark of `mtg export markdown` (issue 12): 5,000 meetings with transcripts, exported by the
// built CLI (a fresh folder: the first run; the same folder again: a no-change run), against a
// plain loop of fs.writeFileSync writing the very same bytes to the same paths (in-process, so the
// CLI's start-up, SQLite reads and rendering all count against it).
// Targets: first run <= 1.5x the plain loop; no-change run <= 0.2x the first run.
//
//   npm run build && node bench/export.mjs [meetings=5000] [repeats=5]
// BENCH_QUICK=1: 200 meetings, one run (a smoke test of the harness, not figures to quote).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const QUICK = process.env.BENCH_QUICK === '1';
const MEETINGS = Number(process.argv[2] ?? (QUICK ? 200 : 5000));
const REPEATS = Number(process.argv[3] ?? (QUICK ? 1 : 5));
const BIN = join(import.meta.dirname, '..', 'bin', 'mtg.js');
const work = mkdtempSync(join(tmpdir(), 'mtg-bench-export-'));

const sandbox = spawn(
  process.execPath,
  [BIN, 'sandbox', '--json', '--limits', 'none', '--page-size', '500', '--meetings', String(MEETINGS)],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const { baseUrl, apiKey } = JSON.parse(
  await new Promise((resolve) => createInterface({ input: sandbox.stdout }).once('line', resolve)),
);
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  MTG_BASE_URL: baseUrl,
  MTG_API_KEY: apiKey,
  MTG_DATA_DIR: join(work, 'data'),
  MTG_CONFIG_DIR: join(work, 'config'),
};
const mtg = (args) => {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`mtg ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return { ms, stderr: r.stderr };
};

try {
  process.stderr.write(`syncing ${MEETINGS} meetings and their transcripts...\n`);
  mtg(['sync', '-q']);

  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const first = [];
  const noChange = [];
  const plain = [];
  let files = [];
  for (let i = 0; i < REPEATS; i++) {
    const dir = join(work, `out-${i}`);
    first.push(mtg(['export', 'markdown', dir, '--transcripts', '-q']).ms);
    const again = mtg(['export', 'markdown', dir, '--transcripts']);
    if (!/ 0 written, \d+ unchanged/.test(again.stderr))
      throw new Error(`not a no-change run: ${again.stderr}`);
    noChange.push(again.ms);
    if (i === 0) {
      // The same bytes and paths, read once, then written by the plain loop.
      for (const year of readdirSync(dir).filter((n) => /^\d{4}$/.test(n))) {
        for (const name of readdirSync(join(dir, year))) {
          files.push({ rel: join(year, name), year, bytes: readFileSync(join(dir, year, name)) });
        }
      }
    }
    const plainDir = join(work, `plain-${i}`);
    const t0 = process.hrtime.bigint();
    for (const f of files) {
      mkdirSync(join(plainDir, f.year), { recursive: true });
      writeFileSync(join(plainDir, f.rel), f.bytes);
    }
    plain.push(Number(process.hrtime.bigint() - t0) / 1e6);
    rmSync(plainDir, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
  const bytes = files.reduce((n, f) => n + f.bytes.length, 0);
  const [f, n, p] = [median(first), median(noChange), median(plain)];
  console.log(`export markdown: ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB, median of ${REPEATS}`);
  console.log(`  plain writeFileSync loop: ${p.toFixed(0)} ms`);
  console.log(
    `  first run (CLI, start-up included): ${f.toFixed(0)} ms  -> ${(f / p).toFixed(2)}x the plain loop (target <= 1.5x)`,
  );
  console.log(
    `  no-change run: ${n.toFixed(0)} ms  -> ${(n / f).toFixed(2)}x the first run (target <= 0.2x)`,
  );
  files = [];
} finally {
  sandbox.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
