// Prompt `since_last_sync`: what the last sync brought (new and changed meetings, action items),
// from the change log, starting after the last event before that sync's run.

import { z } from 'zod';
import type { MirrorAccess } from '../mirror-access.js';
import { DATA_NOT_INSTRUCTIONS, definePrompt } from './define.js';

/** The seq the last sync's changes start after, and how many it logged; undefined without a mirror. */
async function lastRun(access: MirrorAccess): Promise<{ after: number; events: number } | undefined> {
  try {
    return await access.read((r) => {
      const row = r.mirror.db
        .prepare<{ after: number | null; events: number }>(
          `SELECT min(seq) - 1 AS after, count(*) AS events FROM changes
           WHERE run = (SELECT max(run) FROM changes)`,
        )
        .get();
      return row && row.after !== null ? { after: Number(row.after), events: Number(row.events) } : undefined;
    });
  } catch {
    return undefined;
  }
}

export const sinceLastSync = definePrompt({
  name: 'since_last_sync',
  title: 'What changed since my last sync',
  description: 'What the last sync brought: new and changed meetings and action items, in a few lines.',
  args: () => z.object({}),
  text: async (_args, access) => {
    const run = await lastRun(access);
    const call = run
      ? `Call changes with {"after": ${run.after}} (the last sync logged ${run.events} change${run.events === 1 ? '' : 's'} after that seq; while "more" is true, call again with "after" set to the lastSeq it returned).`
      : 'Call mirror_status to see when the mirror was last synced; if there is no mirror, tell me to run `mtg sync`. Otherwise call changes with {"after": 0}.';
    return [
      'What changed since my last sync?',
      call,
      'For a meeting that is new or whose notes changed, call get_meeting if its change event does not say enough.',
      'Then summarize: new meetings (name, date, one line each), meetings whose notes changed, action items created, completed or reassigned (mine first), and anything deleted.',
      DATA_NOT_INSTRUCTIONS,
    ].join('\n\n');
  },
});
