// The mirror's action items for the questions people ask ("what did I promise Dana", "what is open
// from my meetings with Y since Monday"): one query with every filter, each item with the meetings
// it came from. Named parameters (the filters of src/api/action-item-filter.ts, described once for
// the CLI, the API path, the mirror and the sandbox), typed errors, nothing about the command line
// or MCP; `mtg mcp`'s list_action_items adapts it. Every filter runs in SQL
// (src/mirror/action-item-sql.ts), folded as the search index folds.

import type { ActionItemFilter } from '../api/action-item-filter.js';
import { actionItemRows } from '../mirror/action-item-sql.js';
import type { Mirror } from '../mirror/open.js';
import { MirrorReads } from '../mirror/reads.js';
import { parseJsonExact } from '../shared/exact.js';
import { EmptyArgumentError, UnknownMeetingError } from './errors.js';

type Obj = Record<string, unknown>;

/** What the operations read: an open mirror (read-only is enough). */
export type MirrorReader = Mirror;

/** The operation's query: every filter of "list action items"; assigneeType absent is Me, as the service's. */
export type ActionItemsQuery = ActionItemFilter;

export interface MeetingRef {
  id: string;
  name: string | null;
  createdAt: string | null;
}

export interface ListedActionItem {
  /** The item exactly as the service last sent it. */
  item: Obj;
  /** The key's own default listing returns it. */
  mine: boolean;
  /** The live meetings it came from, as the mirror holds them. */
  meetings: MeetingRef[];
}

/**
 * The action items that pass every filter of `q`, in the order of the service's listing, each with
 * its meetings. A list the mirror has not walked to its end yet is refused (as `--offline` does).
 */
export async function listActionItems(
  mirror: MirrorReader,
  q: ActionItemsQuery,
): Promise<Iterable<ListedActionItem>> {
  for (const [name, value] of Object.entries({
    meetingId: q.meetingId,
    attendee: q.attendee,
    assignee: q.assignee,
    query: q.query,
  }))
    if (value !== undefined && value.trim() === '') throw new EmptyArgumentError(name);
  await new MirrorReads(mirror).listActionItems(q).ready();
  const db = mirror.db;
  if (
    q.meetingId !== undefined &&
    !db.prepare('SELECT 1 FROM meetings WHERE id = ? AND deleted_at IS NULL').get(q.meetingId)
  )
    throw new UnknownMeetingError(q.meetingId);
  const rows = actionItemRows(db, q, { withMeetings: true });
  return (function* () {
    for (const row of rows) {
      const meetings = (JSON.parse(row.meetings ?? '[]') as [string, string | null, string | null][]).map(
        ([id, name, createdAt]) => ({ id, name, createdAt }),
      );
      yield { item: parseJsonExact(row.json) as Obj, mine: row.mine === 1, meetings };
    }
  })();
}
