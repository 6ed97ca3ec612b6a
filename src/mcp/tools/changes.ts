// `changes`: the mirror's change log after a seq, oldest first, as `mtg changes --after SEQ --json`.

import { z } from 'zod';
import { CHANGE_RESOURCES } from '../../mirror/changes.js';
import type { ChangeEvent, ChangeResource } from '../mirror-access.js';
import { jsonCost, shortenStrings, takePage } from '../paging.js';
import { DATA_NOT_INSTRUCTIONS, defineTool, type Obj, ok, READ, wholeIn } from './define.js';

const AFTER = 'after must be a whole number (a seq), 0 or more';

export const changes = defineTool({
  name: 'changes',
  title: 'What changed',
  description:
    'The change log of the mirror, oldest first: each event {seq, run, at, resource, id, change (created, ' +
    'updated, deleted, completed, reopened), fields, item}. Pass after (a seq; 0 for everything) and keep ' +
    'lastSeq to ask again later: no event is ever missed or seen twice. more is true when events are left.' +
    DATA_NOT_INSTRUCTIONS,
  input: z.strictObject({
    after: z
      .number({ error: AFTER })
      .int({ error: AFTER })
      .min(0, { error: AFTER })
      .optional()
      .describe('the lastSeq of your previous call (0, the default: from the first event)'),
    resource: z
      .array(z.enum(CHANGE_RESOURCES, { error: `resource must list only ${CHANGE_RESOURCES.join(', ')}` }), {
        error: `resource must be an array of ${CHANGE_RESOURCES.join(', ')}`,
      })
      .optional()
      .describe('only events of these kinds (default: all)'),
    limit: wholeIn('limit', 1, 1_000).optional().describe('events per call (default 100)'),
  }),
  annotations: READ,
  run: async (a, { access }) => {
    const after = a.after ?? 0;
    const limit = a.limit ?? 100;
    return access.read((r) => {
      // The library's refusals name this tool's argument (`after`), not the CLI's flag.
      const events = r.changes(after, (a.resource ?? []) as ChangeResource[], limit + 1);
      const { page, more } = takePage<ChangeEvent, Obj>(events, {
        limit,
        map: (e) => e as unknown as Obj,
        shorten: shortenEvent,
      });
      const last = page.length ? (page[page.length - 1]!.seq as number) : after;
      return ok({ changes: page, lastSeq: last, more });
    });
  },
});

/** A change event too large to send: its item shortened, or left out, and marked with where to read it. */
function shortenEvent(event: Obj, room: number): Obj {
  const id = String(event.id);
  const readWhole =
    event.resource === 'transcripts'
      ? `get_transcript with id "${id}"`
      : event.resource === 'meetings'
        ? `get_meeting with id "${id}"`
        : `sql: SELECT json FROM ${event.resource === 'action-items' ? 'action_items' : event.resource} WHERE ${event.resource === 'companies' ? 'domain' : 'id'} = '${id.replaceAll("'", "''")}'`;
  const marked = { ...event, truncated: true, readWhole };
  const cut = shortenStrings(marked, room);
  return jsonCost(cut) <= room ? cut : { ...marked, item: null };
}
