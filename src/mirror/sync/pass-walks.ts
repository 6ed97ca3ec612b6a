// The list walks of one run in its pass (pass.ts): which lists it walks, each from where the pass
// left it, what each walk did recorded in the pass and in the run's progress.

import type { Db } from '../driver.js';
import { completeList, fullSince, type PassList, passLists, setListWalk } from './pass.js';
import type { RunState } from './state.js';
import { type ListDef, listDefs, walkQuery } from './tables.js';
import { pendingTranscripts } from './transcripts.js';
import type { Pass, SyncPhase } from './types.js';
import { newWalk, storedWalk, type WalkStart, walkList } from './walk.js';

/**
 * The lists this run walks, in order. A run with --budget walks only those the pass has not
 * completed, so that runs stopped at their budgets one after another reach every list, each page
 * fetched once per pass; when nothing of its own is left in the pass (the pass waits for lists
 * it does not ask for), it walks its lists again. A run without --budget walks every list it asks
 * for (an unfinished walk from its cursor): what it reports complete is the server as of this run.
 */
export function listsToWalk(state: RunState, lists: Map<SyncPhase, PassList>): ListDef[] {
  const asked = listDefs(state.only);
  if (state.options.budget === undefined) return asked;
  const left = asked.filter((def) => !lists.get(def.phase)?.completed);
  const queues: SyncPhase[] = [
    ...(state.only.has('companies') ? (['company-details'] as const) : []),
    ...(state.transcriptsWanted ? (['transcripts'] as const) : []),
  ];
  const queuesLeft = queues.some((q) => !lists.get(q)?.completed);
  return left.length === 0 && !queuesLeft ? asked : left;
}

/** Every list this run walks in its pass, one after another; the meetings walk tells how many transcripts follow. */
export async function walkPass(state: RunState, pass: Pass): Promise<void> {
  const { db, progress } = state;
  const lists = passLists(db, pass);
  const defs = listsToWalk(state, lists);
  const walked = new Set(defs.map((def) => def.phase));
  const skipped = listDefs(state.only)
    .map((def) => def.phase)
    .filter((phase) => !walked.has(phase));
  if (skipped.length > 0) progress.walkedInPass(skipped);
  const last = db.prepare<{ pages: number }>(
    'SELECT pages FROM walks WHERE resource = ? AND query = ? AND completed_at IS NOT NULL ORDER BY id DESC LIMIT 1',
  );
  progress.walksLeft = defs.map((def) => ({
    def,
    expected: last.get(def.table.resource, walkQuery(def))?.pages,
  }));
  // Until the meetings walk tells, the transcripts already pending are the estimate (a later
  // sync; on a first one the walks' sizes are unknown anyway).
  if (state.transcriptsWanted)
    progress.transcriptsPending = pendingTranscripts(db, fullSince(pass, 'transcripts')).length;
  for (const def of defs) {
    const walk = startOf(db, state, pass, def, lists.get(def.phase));
    progress.walkPages = walk.pages;
    const done = await walkList(state, def, walk, {
      completed: () => completeList(db, pass, def.phase),
      page: (pages, items, walkPages) => {
        state.commits++;
        progress.walkPages = walkPages;
        progress.list(def.phase, pages, items);
      },
    });
    progress.walksLeft.shift();
    progress.walkPages = 0;
    progress.list(def.phase, done.pages, done.items, true);
    if (def.phase === 'meetings' && state.transcriptsWanted) {
      progress.transcriptsLeft = pendingTranscripts(db, fullSince(pass, 'transcripts')).length;
    }
  }
}

/** Where the list's walk starts: its unfinished walk in the pass, or a new one from page 1. */
function startOf(db: Db, state: RunState, pass: Pass, def: ListDef, list: PassList | undefined): WalkStart {
  const unfinished = list?.walk !== undefined && !list.completed ? storedWalk(db, list.walk) : undefined;
  if (unfinished) return unfinished;
  return db.transaction(() => {
    const walk = newWalk(db, def, state.run);
    setListWalk(db, pass, def.phase, walk.id);
    return walk;
  });
}
