// `node bench/search-quality.mjs [--split train|val]` (after `npm run build`): how well `mtg find`
// answers questions, on QMSum (../shared/bench/qmsum, see its README): 232 real meetings and the
// questions of its train and validation splits, each labelled with its meeting and the transcript
// spans that answer it. Its test split is held out: tune on train, report val.
//
// What runs: `mtg sandbox --data ../shared/bench/qmsum/corpus.json.gz` (a process of its own, no
// rate limit), `mtg sync` into a fresh data dir, then every question as `mtg find QUESTION --json
// --limit 10`, in this process through the CLI's run(argv, io, env) (the code path of `mtg`,
// bundled from src/ by bench/bundle.mjs; a process per question would take minutes more).
//
// Prints, per split: meeting@1 and meeting@10 (the question's meeting is the first hit / among the
// 10), MRR (1 / position of the first hit of that meeting, 0 when none), span@10 (a hit of that
// meeting whose timestamp lies in an answering span: first x 15 <= t <= last x 15 + 14), the share
// of questions with no hit (and of those find refused), and the median time of a question. Then a
// few keyword queries and their precision: the share of their first 10 hits that show every word.
// It prints figures and never fails on them: the exit code is 0 unless the harness breaks.
// No --split: both splits; BENCH_QUICK=1: the validation split only (CI's smoke test).

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCli } from './bundle.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const QMSUM = join(ROOT, '..', 'shared', 'bench', 'qmsum');
const CORPUS = join(QMSUM, 'corpus.json.gz');
const QUICK = process.env.BENCH_QUICK === '1';
const LIMIT = 10;
/** QMSum gives no times: entry i of a transcript is at i x 15 s (corpus README). */
const SECONDS_PER_ENTRY = 15;
/** Keyword queries whose precision must hold: topics of the AMI and ICSI meetings, and a speaker. */
const KEYWORD_QUERIES = ['remote control', 'budget', 'scroll wheel', 'speech recognition', 'Project Manager'];

function splitsToRun() {
  const i = process.argv.indexOf('--split');
  if (i < 0) return QUICK ? ['val'] : ['train', 'val'];
  const split = process.argv[i + 1];
  if (split !== 'train' && split !== 'val') {
    process.stderr.write('search-quality: --split takes train or val (the test split is held out)\n');
    process.exit(2);
  }
  return [split];
}

// ---------------------------------------------------------------------------------------------
// The sandbox, as a process of its own (`mtg sandbox` as users run it).

/** Starts `mtg sandbox --data CORPUS --json`; resolves with its line and a stop(). Bounded wait. */
function startSandbox(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        join(ROOT, 'bin', 'mtg.js'),
        'sandbox',
        '--data',
        CORPUS,
        '--json',
        '--limits',
        'none',
        '--page-size',
        '100',
      ],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`mtg sandbox printed no line in 60 s: ${err}`));
    }, 60_000);
    child.stderr.setEncoding('utf8').on('data', (d) => {
      err += d;
    });
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      const info = JSON.parse(out.slice(0, nl));
      const stopped = new Promise((r) => child.once('close', r));
      const stop = () => {
        child.kill('SIGTERM');
        return stopped;
      };
      resolve({ ...info, stop });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`mtg sandbox exited ${code}: ${err.trim()}`));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Figures.

const pct = (n, d) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.floor((s.length - 1) / 2)];
};

/** `mtg find ARGS --json --limit 10`, in process: its hits, exit code and time. */
async function find(cli, env, query) {
  const io = cli.testIO({});
  const started = performance.now();
  const code = await cli.run(['find', query, '--json', '--limit', String(LIMIT)], io, env);
  const ms = performance.now() - started;
  let hits = [];
  if (code === 0) {
    const text = io.stdout().trim();
    hits = text === '' ? [] : JSON.parse(text);
  }
  return { code, hits, ms, stderr: io.stderr() };
}

const inSpan = (hit, spans) =>
  typeof hit.timestamp === 'number' &&
  spans.some(
    ([first, last]) =>
      first * SECONDS_PER_ENTRY <= hit.timestamp &&
      hit.timestamp <= last * SECONDS_PER_ENTRY + SECONDS_PER_ENTRY - 1,
  );

async function questionFigures(cli, env, split) {
  const questions = JSON.parse(readFileSync(join(QMSUM, `queries-${split}.json`), 'utf8'));
  const f = {
    n: questions.length,
    at1: 0,
    at10: 0,
    rr: 0,
    span: 0,
    noHit: 0,
    refused: 0,
    ms: [],
    firstRefusal: '',
  };
  for (const q of questions) {
    const r = await find(cli, env, q.query);
    f.ms.push(r.ms);
    if (r.code !== 0) {
      f.refused++;
      f.firstRefusal ||= `${q.query} -> exit ${r.code}: ${r.stderr.trim().split('\n')[0]}`;
    }
    if (r.hits.length === 0) f.noHit++;
    const first = r.hits.findIndex((h) => h.meetingId === q.meetingId);
    if (first === 0) f.at1++;
    if (first >= 0) {
      f.at10++;
      f.rr += 1 / (first + 1);
    }
    if (r.hits.some((h) => h.meetingId === q.meetingId && inSpan(h, q.spans))) f.span++;
  }
  return f;
}

/** A hit shows a word when its speaker, meeting name or snippet has a word starting with it. */
function showsEveryWord(hit, words) {
  const text =
    `${hit.speaker ?? ''} ${hit.meetingName ?? ''} ${String(hit.snippet ?? '').replaceAll('**', '')}`.toLowerCase();
  return words.every((w) =>
    new RegExp(`(^|[^\\p{L}\\p{N}])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'u').test(text),
  );
}

// ---------------------------------------------------------------------------------------------

async function main() {
  if (!existsSync(CORPUS)) throw new Error(`${CORPUS} is missing (the QMSum corpus beside the repository)`);
  if (!existsSync(join(ROOT, 'dist', 'mtg.cjs')))
    throw new Error('dist/ is missing: run `npm run build` first');
  const splits = splitsToRun();
  const work = mkdtempSync(join(tmpdir(), 'mtg-bench-search-'));
  const baseEnv = {
    PATH: process.env.PATH,
    HOME: work,
    MTG_DATA_DIR: join(work, 'data'),
    MTG_CONFIG_DIR: join(work, 'config'),
  };
  mkdirSync(baseEnv.MTG_DATA_DIR, { recursive: true, mode: 0o700 });
  let sandbox;
  try {
    const [cli, sb] = await Promise.all([loadCli(), startSandbox(baseEnv)]);
    sandbox = sb;
    const env = { ...baseEnv, MTG_BASE_URL: sandbox.baseUrl, MTG_API_KEY: sandbox.apiKey };
    const syncIo = cli.testIO({});
    const syncStarted = performance.now();
    const synced = await cli.run(['sync', '--json'], syncIo, env);
    if (synced !== 0) throw new Error(`mtg sync exited ${synced}: ${syncIo.stderr()}`);
    const syncSeconds = (performance.now() - syncStarted) / 1000;
    await sandbox.stop();
    sandbox = undefined;

    const out = [];
    out.push(
      `QMSum: 232 meetings synced from \`mtg sandbox --data\` in ${syncSeconds.toFixed(1)} s; each question as \`mtg find QUESTION --json --limit ${LIMIT}\``,
    );
    out.push('');
    out.push(
      '| split | questions | meeting@1 | meeting@10 | MRR | span@10 | no hit | refused | median ms/question |',
    );
    out.push('|---|---|---|---|---|---|---|---|---|');
    const refusals = [];
    for (const split of splits) {
      const f = await questionFigures(cli, env, split);
      out.push(
        `| ${split} | ${f.n} | ${pct(f.at1, f.n)} | ${pct(f.at10, f.n)} | ${(f.rr / f.n).toFixed(3)} | ${pct(f.span, f.n)} | ${pct(f.noHit, f.n)} | ${pct(f.refused, f.n)} | ${median(f.ms).toFixed(1)} |`,
      );
      if (f.firstRefusal) refusals.push(`${split}, e.g.: ${f.firstRefusal}`);
    }
    out.push('');
    out.push('| keyword query | hits | of the first 10, showing every word | median ms |');
    out.push('|---|---|---|---|');
    for (const query of KEYWORD_QUERIES) {
      const words = query.toLowerCase().split(/\s+/);
      const runs = [];
      let r;
      for (let i = 0; i < (QUICK ? 1 : 5); i++) {
        r = await find(cli, env, query);
        runs.push(r.ms);
      }
      const shown = r.hits.filter((h) => showsEveryWord(h, words)).length;
      out.push(
        `| \`${query}\` | ${r.hits.length} | ${pct(shown, r.hits.length)} | ${median(runs).toFixed(1)} |`,
      );
    }
    if (refusals.length > 0) out.push('', ...refusals.map((r) => `refused (${r})`));
    if (QUICK) out.push('', '(BENCH_QUICK: the validation split only)');
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await sandbox?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`search-quality: ${err.stack ?? err}\n`);
  process.exit(1);
});
