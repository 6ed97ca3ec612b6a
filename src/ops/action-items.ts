// The mirror's action items for the questions people ask ("what did I promise Dana", "what is open
// from my meetings with Y since Monday"): one query with every filter, each item with the meetings
// it came from. The start of the operations layer (issue #31): named parameters, typed errors,
// nothing about the command line or MCP; `mtg mcp`'s list_action_items adapts it.
//
// Status, mine, the meeting and the meeting's date are filtered in SQL; the parts of names, emails
// and texts are matched folded (accents and case, fold.ts), which SQLite cannot do, over the
// meetings' attendees and the items the SQL kept.

import type { Db } from '../mirror/driver.js';
import type { Mirror } from '../mirror/open.js';
import { MirrorReads } from '../mirror/reads.js';
import { parseJsonExact } from '../shared/exact.js';
import { EmptyArgumentError, UnknownMeetingError } from './errors.js';
import { fold, foldedIncludes } from './fold.js';

type Obj = Record<string, unknown>;

/** What the operations read: an open mirror (read-only is enough). */
export type MirrorReader = Mirror;

export interface ActionItemsQuery {
  /** PENDING (the default), DONE or ALL. */
  status?: 'PENDING' | 'DONE' | 'ALL';
  /** true: only the user's own items; false: only everyone else's. */
  mine?: boolean;
  /** Only the items of this meeting. */
  meetingId?: string;
  /** Someone at the item's meeting: part of a name or email, folded. */
  attendee?: string;
  /** Part of the assignee's name or email, folded; `me` for the user's own. */
  assignee?: string;
  /** The item's meeting was created at or after this instant (ISO 8601). */
  since?: string;
  /** The item's meeting was created before this instant (ISO 8601). */
  until?: string;
  /** Words that all appear (folded) in the title or the description. */
  query?: string;
}

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

const ITEMS = `
SELECT a.json AS json, a.mine AS mine FROM action_items a
WHERE a.deleted_at IS NULL
  AND (:status = 'ALL' OR json_extract(a.json, '$.status') = :status)
  AND (:mine IS NULL OR a.mine = :mine)
  AND (:meetings IS NULL OR EXISTS (
    SELECT 1 FROM json_each(a.json, '$.meetingIds') j
    WHERE CAST(j.value AS TEXT) IN (SELECT value FROM json_each(:meetings))))
ORDER BY a.position, a.id`;

const MEETINGS = `
SELECT id, name, created_at AS createdAt,
  (:since IS NULL OR julianday(created_at) >= julianday(:since))
    AND (:until IS NULL OR julianday(created_at) < julianday(:until)) AS inWindow,
  CASE WHEN :attendees THEN json_extract(json, '$.attendees') END AS attendees
FROM meetings WHERE deleted_at IS NULL`;

/** The live meetings by ID, and those that pass the meeting filters (undefined: no such filter). */
const byMeeting = (q: ActionItemsQuery) =>
  q.meetingId !== undefined || q.attendee !== undefined || !!q.since || !!q.until;

function meetingsOf(
  db: Db,
  q: ActionItemsQuery,
): { refs: Map<string, MeetingRef>; chosen: Set<string> | undefined } {
  const refs = new Map<string, MeetingRef>();
  const chosen = new Set<string>();
  const rows = db
    .prepare<{
      id: string;
      name: string | null;
      createdAt: string | null;
      inWindow: number;
      attendees: string | null;
    }>(MEETINGS)
    .iterate({ since: q.since ?? null, until: q.until ?? null, attendees: q.attendee === undefined ? 0 : 1 });
  for (const row of rows) {
    refs.set(row.id, { id: row.id, name: row.name, createdAt: row.createdAt });
    if (!byMeeting(q) || !row.inWindow) continue;
    if (q.meetingId !== undefined && row.id !== q.meetingId) continue;
    if (q.attendee !== undefined) {
      const attendees = (row.attendees ? JSON.parse(row.attendees) : []) as Obj[];
      if (!Array.isArray(attendees)) continue;
      const at = attendees.some((p) =>
        foldedIncludes(q.attendee!, p.name as string | undefined, p.email as string | undefined),
      );
      if (!at) continue;
    }
    chosen.add(row.id);
  }
  if (q.meetingId !== undefined && !refs.has(q.meetingId)) throw new UnknownMeetingError(q.meetingId);
  return { refs, chosen: byMeeting(q) ? chosen : undefined };
}

function checkText(name: string, value: string | undefined): void {
  if (value !== undefined && value.trim() === '') throw new EmptyArgumentError(name);
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
    checkText(name, value);
  const me = q.assignee !== undefined && q.assignee.trim().toLowerCase() === 'me';
  if (me && q.mine === false) return [];
  const mine = me ? true : q.mine;
  // The lists the answer needs walked to their end: the user's own for mine, the meetings for
  // their filters (without those, an item's meetings are those the mirror holds).
  const reads = new MirrorReads(mirror);
  await reads
    .listActionItems({ status: 'ALL', assigneeType: mine === undefined ? 'Anyone' : mine ? 'Me' : 'NotMe' })
    .ready();
  if (byMeeting(q)) await reads.listMeetings({}).ready();

  const db = mirror.db;
  const { refs, chosen } = meetingsOf(db, q);
  const rows = db.prepare<{ json: string; mine: number }>(ITEMS).iterate({
    status: q.status ?? 'PENDING',
    mine: mine === undefined ? null : mine ? 1 : 0,
    meetings: chosen ? JSON.stringify([...chosen]) : null,
  });
  const assignee = me ? undefined : q.assignee;
  const words = q.query === undefined ? [] : fold(q.query).split(/\s+/).filter(Boolean);
  return (function* () {
    for (const row of rows) {
      const item = parseJsonExact(row.json) as Obj;
      if (assignee !== undefined) {
        const a = (item.assignee ?? undefined) as Obj | undefined;
        if (!a || !foldedIncludes(assignee, a.name as string | undefined, a.email as string | undefined))
          continue;
      }
      if (words.length) {
        const text = fold(`${item.title ?? ''}\n${item.description ?? ''}`);
        if (!words.every((w) => text.includes(w))) continue;
      }
      const ids = (Array.isArray(item.meetingIds) ? item.meetingIds : []).map(String);
      const meetings = ids.flatMap((id) => (refs.has(id) ? [refs.get(id)!] : []));
      yield { item, mine: row.mine === 1, meetings };
    }
  })();
}
