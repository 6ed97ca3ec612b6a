// Schema 6: sync passes stored, not inferred (sync/pass.ts). Until schema 5 a sync rebuilt "where
// the syncs before it got to" from the `runs` rows, the walks' start times and runs, their
// `abandoned_at`, and the meta keys `budget_chain_start` and `transcript_gone_run`; from schema 6 a
// pass is a row of `passes` and its lists are rows of `pass_lists`, which every run reads and writes.

import type { Db } from './driver.js';

export const PASSES_DDL = `
CREATE TABLE passes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  opened_at TEXT NOT NULL,
  closed_at TEXT,
  full INTEGER NOT NULL DEFAULT 0,
  scope TEXT NOT NULL
);
CREATE UNIQUE INDEX passes_one_open ON passes((closed_at IS NULL)) WHERE closed_at IS NULL;
CREATE TABLE pass_lists (
  pass INTEGER NOT NULL,
  list TEXT NOT NULL,
  walk INTEGER,
  completed_at TEXT,
  PRIMARY KEY (pass, list)
);
`;

interface OldWalk {
  id: number;
  resource: string;
  query: string;
  started_at: string;
  completed_at: string | null;
  run: number | null;
}

interface OldFull {
  run: number;
  since: string;
  lists: string[];
  transcripts: boolean;
}

/**
 * V6: the tables, and a mirror's progress carried into its open pass, so that an upgrade in the
 * middle of a sync's work (a run stopped at its --budget, killed, failed) repeats no request: the
 * walks the runs since the last complete one finished (the meetings not after a transcript answered
 * 404: their walk must be made again), each walk still open with its saved cursor, and a --full
 * run's scope and cut-off when one began them. Frozen: it reads the tables as schema 5 left them.
 */
export function V6(db: Db): void {
  db.exec(PASSES_DDL);
  const meta = (key: string) =>
    db.prepare<{ value: string }>('SELECT value FROM meta WHERE key = ?').get(key)?.value;
  const lastComplete =
    db.prepare<{ id: number | null }>('SELECT max(id) AS id FROM runs WHERE complete = 1').get()?.id ?? 0;
  const chain = meta('budget_chain_start');
  const full = chain === undefined ? undefined : (JSON.parse(chain) as OldFull);
  const inPass = full !== undefined && full.run > lastComplete ? full : undefined;
  const after = Math.max(lastComplete, (inPass?.run ?? 0) - 1);
  const goneAt = Number(meta('transcript_gone_run') ?? 0);
  const phase = (w: OldWalk) =>
    w.resource === 'action-items' && w.query.endsWith('"mine"]') ? 'my-action-items' : w.resource;
  const lists = new Map<string, OldWalk>();
  const walks = db
    .prepare<OldWalk>(
      'SELECT id, resource, query, started_at, completed_at, run FROM walks WHERE abandoned_at IS NULL ORDER BY id',
    )
    .all();
  for (const w of walks) {
    const open = w.completed_at === null;
    // What the next run of schema 5 would have walked from page 1: a walk begun before the --full
    // run it goes on with, a walk completed before the pass.
    if (open && inPass?.lists.includes(w.resource) && w.started_at < inPass.since) continue;
    if (!open && (w.run ?? 0) <= (w.resource === 'meetings' ? Math.max(after, goneAt) : after)) continue;
    lists.set(phase(w), w);
  }
  db.exec("DELETE FROM meta WHERE key IN ('budget_chain_start', 'transcript_gone_run')");
  if (lists.size === 0 && inPass === undefined) return;
  const openedAt =
    inPass?.since ?? [...lists.values()].map((w) => w.started_at).sort()[0] ?? new Date().toISOString();
  const scope = inPass
    ? { lists: inPass.lists, transcripts: inPass.transcripts }
    : { lists: [...new Set([...lists.values()].map((w) => w.resource))], transcripts: false };
  const pass = Number(
    db
      .prepare('INSERT INTO passes(opened_at, full, scope) VALUES (?, ?, ?)')
      .run(openedAt, inPass ? 1 : 0, JSON.stringify(scope)).lastInsertRowid,
  );
  const row = db.prepare('INSERT INTO pass_lists(pass, list, walk, completed_at) VALUES (?, ?, ?, ?)');
  for (const [list, w] of lists) row.run(pass, list, w.id, w.completed_at);
}
