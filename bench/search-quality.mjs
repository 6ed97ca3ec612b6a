// `node bench/search-quality.mjs [--split train|val|both]` (after `npm run build`): how well `mtg find`
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

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCli } from './bundle.mjs';
import { benchArgs, CORPUS, keywordRows, LIMIT, QUICK, questionTable, ROOT, syncCorpus } from './qmsum.mjs';

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

async function main() {
  if (!existsSync(CORPUS)) throw new Error(`${CORPUS} is missing (the QMSum corpus beside the repository)`);
  if (!existsSync(join(ROOT, 'dist', 'mtg.cjs')))
    throw new Error('dist/ is missing: run `npm run build` first');
  const { splits } = benchArgs('search-quality');
  const work = mkdtempSync(join(tmpdir(), 'mtg-bench-search-'));
  const env = {
    PATH: process.env.PATH,
    HOME: work,
    MTG_DATA_DIR: join(work, 'data'),
    MTG_CONFIG_DIR: join(work, 'config'),
  };
  mkdirSync(env.MTG_DATA_DIR, { recursive: true, mode: 0o700 });
  try {
    const cli = await loadCli();
    const syncSeconds = await syncCorpus(cli, env);
    const ask = (query) => find(cli, env, query);
    const out = [];
    out.push(
      `QMSum: 232 meetings synced from \`mtg sandbox --data\` in ${syncSeconds.toFixed(1)} s; each question as \`mtg find QUESTION --json --limit ${LIMIT}\``,
    );
    const { lines, refusals } = await questionTable(ask, splits);
    out.push('', ...lines);
    out.push('', ...(await keywordRows(ask, QUICK ? 1 : 5)));
    if (refusals.length > 0) out.push('', ...refusals);
    if (QUICK) out.push('', '(BENCH_QUICK: the validation split only)');
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`search-quality: ${err.stack ?? err}\n`);
  process.exit(1);
});
