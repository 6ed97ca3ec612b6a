// `node bench/search-tune.mjs [--split train|val|both] [--every N] [--set knob=value ...] [--by-corpus]`:
// the figures of bench/search-quality.mjs in a minute, for tuning the ranking (src/mirror/search*.ts).
// The QMSum corpus is synced once (sandbox + `mtg sync`, as search-quality does) into a mirror kept in
// the temporary folder, keyed by the index's code (src/mirror/passages.ts, schema.ts); then every
// question goes through the engine's functions in this process (planSearch + findPassages with
// limit 10, the hits as `find --json` prints them), bundled from src/ at each run. `--set` changes
// a knob of TUNE (src/mirror/search-rank.ts) for this run; `--every N` asks every Nth question;
// `--by-corpus` splits the figures by AMI / ICSI / committee meetings. Tune on train, report val
// (the test split is held out). BENCH_QUICK=1: the validation split, in a mirror built for the run
// and removed after (CI's smoke test). Prints figures and never fails on them.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCli, loadSourceText } from './bundle.mjs';
import { benchArgs, CORPUS, keywordRows, LIMIT, QUICK, questionTable, ROOT, syncCorpus } from './qmsum.mjs';

const args = benchArgs('search-tune');

/** The mirror of the corpus: built once per version of the index's code (unless BENCH_QUICK). */
async function mirrorFolder() {
  const hash = createHash('sha256');
  for (const f of ['passages.ts', 'schema.ts']) hash.update(readFileSync(join(ROOT, 'src', 'mirror', f)));
  const dir = join(
    tmpdir(),
    QUICK ? `mtg-search-tune-quick-${process.pid}` : `mtg-search-tune-${hash.digest('hex').slice(0, 12)}`,
  );
  if (existsSync(join(dir, 'data'))) return dir;
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(join(building, 'data'), { recursive: true, mode: 0o700 });
  const env = {
    PATH: process.env.PATH,
    HOME: building,
    MTG_DATA_DIR: join(building, 'data'),
    MTG_CONFIG_DIR: join(building, 'config'),
  };
  try {
    const seconds = await syncCorpus(await loadCli(), env);
    process.stderr.write(`search-tune: corpus synced into ${dir} in ${seconds.toFixed(1)} s\n`);
    renameSync(building, dir);
  } catch (err) {
    rmSync(building, { recursive: true, force: true });
    throw err;
  }
  return dir;
}

async function main() {
  if (!existsSync(CORPUS)) throw new Error(`${CORPUS} is missing (the QMSum corpus beside the repository)`);
  const dir = await mirrorFolder();
  try {
    const engine = await loadSourceText(
      "export { planSearch, findPassages, plainHit, TUNE } from './src/mirror/search.ts';\nexport { openDb } from './src/mirror/driver.ts';\n",
    );
    const settings = [];
    args.argv.forEach((a, i) => {
      if (a !== '--set') return;
      const [knob, value] = String(args.argv[i + 1]).split('=');
      if (!(knob in engine.TUNE))
        throw new Error(`--set ${knob}: not a knob of TUNE (${Object.keys(engine.TUNE).join(', ')})`);
      engine.TUNE[knob] = Number(value);
      settings.push(`${knob}=${value}`);
    });
    const file = readdirSync(join(dir, 'data')).find((f) => f.endsWith('.db'));
    const db = engine.openDb(join(dir, 'data', file), { readonly: true });
    const asked = new Map();
    // Each question once per run (--by-corpus counts the same answers again by corpus).
    const ask = async (query) => {
      if (!asked.has(query)) asked.set(query, await askEngine(query));
      return asked.get(query);
    };
    const askEngine = async (query) => {
      const started = performance.now();
      try {
        const plan = engine.planSearch(db, query);
        const hits = [...engine.findPassages(db, plan, { limit: LIMIT })].map((h) => engine.plainHit(h));
        return { code: 0, hits, ms: performance.now() - started, stderr: '' };
      } catch (err) {
        return { code: 2, hits: [], ms: performance.now() - started, stderr: String(err?.message ?? err) };
      }
    };
    const every = Number(args.option('--every') ?? 1);
    const { lines } = await questionTable(ask, args.splits, { every, byCorpus: args.flag('--by-corpus') });
    const out = [settings.length ? `knobs: ${settings.join(' ')}` : 'knobs: as shipped', '', ...lines];
    out.push('', ...(await keywordRows(askEngine, 1)));
    db.close();
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    if (QUICK) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`search-tune: ${err.stack ?? err}\n`);
  process.exit(1);
});
