// The mirror's meetings for the questions people ask ("my meetings with Müller last week", "the
// ones tagged Board"): one query with every filter in SQL, newest first, and one meeting or its
// transcript by ID. Named parameters, typed errors (errors.ts); `mtg mcp`'s list_meetings,
// get_meeting, get_transcript and the resource mtg://meetings/{id} adapt them.

import type * as S from '../api/schemas.js';
import { MirrorReads } from '../mirror/reads.js';
import { textFunctions } from '../mirror/text-functions.js';
import { parseJsonExact } from '../shared/exact.js';
import { foldText } from '../shared/fold.js';
import type { MirrorReader } from './action-items.js';
import { EmptyArgumentError, UnknownMeetingError } from './errors.js';

type Obj = Record<string, unknown>;

export interface MeetingsQuery {
  /** Created at or after this instant (ISO 8601). */
  since?: string;
  /** Created before this instant (ISO 8601). */
  until?: string;
  /** Part of an attendee's name or email, folded as the search index folds (accents and case). */
  attendee?: string;
  /** A tag's name, in any case. */
  tag?: string;
  /**
   * Only the meetings after a page that ended at this instant (null: a meeting without a date),
   * less `ids`, those of that instant already given: a keyset that survives syncs.
   */
  after?: { at: string | null; ids: readonly string[] };
}

export interface ListedMeeting {
  id: string;
  name: string | null;
  createdAt: string | null;
  duration: unknown;
  /** The tags' names. */
  tags: string[];
  attendees: { name: unknown; email: unknown }[];
  /** How many action items the meeting has. */
  actionItems: number;
  hasTranscript: boolean;
}

// A meeting without a date (or with one SQLite cannot read) sorts older than any, as in paging.ts.
const AT = 'julianday(m.created_at)';
const MEETINGS = `
SELECT m.id AS id, m.json AS json, m.created_at AS createdAt,
  EXISTS (SELECT 1 FROM transcripts t WHERE t.meeting_id = m.id) AS hasTranscript
FROM meetings m
WHERE m.deleted_at IS NULL
  AND (:since IS NULL OR ${AT} >= julianday(:since))
  AND (:until IS NULL OR ${AT} < julianday(:until))
  AND (:who IS NULL OR (json_type(m.json, '$.attendees') = 'array' AND EXISTS (
    SELECT 1 FROM json_each(m.json, '$.attendees') a
    WHERE instr(mtg_fold(coalesce(json_extract(a.value, '$.name'), '') || char(10)
      || coalesce(json_extract(a.value, '$.email'), '')), :who) > 0)))
  AND (:tag IS NULL OR (json_type(m.json, '$.tags') = 'array' AND EXISTS (
    SELECT 1 FROM json_each(m.json, '$.tags') t
    WHERE mtg_lower(coalesce(json_extract(t.value, '$.name'), '')) = :tag)))
  AND (:keyed = 0 OR CASE
    WHEN julianday(:at) IS NULL THEN ${AT} IS NULL AND m.id NOT IN (SELECT value FROM json_each(:ids))
    ELSE ${AT} IS NULL OR ${AT} < julianday(:at)
      OR (${AT} = julianday(:at) AND m.id NOT IN (SELECT value FROM json_each(:ids)))
  END)
ORDER BY m.position, m.id`;

/**
 * The live meetings that pass every filter of `q`, newest first (the service's order), as
 * list_meetings shows them. A meetings list the mirror has not walked to its end is refused.
 */
export async function listMeetings(mirror: MirrorReader, q: MeetingsQuery): Promise<Iterable<ListedMeeting>> {
  for (const [name, value] of Object.entries({ attendee: q.attendee, tag: q.tag }))
    if (value !== undefined && value.trim() === '') throw new EmptyArgumentError(name);
  await new MirrorReads(mirror).listMeetings({}).ready();
  const rows = textFunctions(mirror.db)
    .prepare<{ id: string; json: string; createdAt: string | null; hasTranscript: number }>(MEETINGS)
    .iterate({
      since: q.since ?? null,
      until: q.until ?? null,
      who: q.attendee === undefined ? null : foldText(q.attendee.trim()),
      tag: q.tag === undefined ? null : q.tag.trim().toLowerCase(),
      keyed: q.after ? 1 : 0,
      at: q.after?.at ?? null,
      ids: JSON.stringify(q.after?.ids ?? []),
    });
  return (function* () {
    for (const row of rows) {
      const m = parseJsonExact(row.json) as Obj;
      const attendees = (Array.isArray(m.attendees) ? m.attendees : []) as Obj[];
      yield {
        id: row.id,
        name: (m.name as string | undefined) ?? null,
        createdAt: row.createdAt,
        duration: m.duration ?? null,
        tags: ((Array.isArray(m.tags) ? m.tags : []) as Obj[]).map((t) => String(t.name ?? '')),
        attendees: attendees.map((p) => ({ name: p.name ?? null, email: p.email ?? null })),
        actionItems: Array.isArray(m.actionItems) ? m.actionItems.length : 0,
        hasTranscript: row.hasTranscript === 1,
      };
    }
  })();
}

/** The size of a stored transcript: its entries and the characters of their text. */
export interface TranscriptSize {
  entries: number;
  chars: number;
}

/**
 * One meeting exactly as the service last sent it, and the size of its transcript (null when none
 * is stored). An ID the mirror does not hold is UnknownMeetingError.
 */
export async function getMeeting(
  mirror: MirrorReader,
  id: string,
): Promise<{ meeting: S.Meeting; transcript: TranscriptSize | null }> {
  const reads = new MirrorReads(mirror);
  const meeting = await reads.viewMeeting(id);
  if (!meeting) throw new UnknownMeetingError(id);
  const stored = mirror.db.prepare('SELECT 1 FROM transcripts WHERE meeting_id = ?').get(id);
  if (!stored) return { meeting, transcript: null };
  const entries = await reads.transcript(id);
  const chars = entries.reduce((n, e) => n + String(e.text ?? '').length, 0);
  return { meeting, transcript: { entries: entries.length, chars } };
}

/** A meeting's stored transcript (an unknown meeting: UnknownMeetingError; none stored: an error saying so). */
export async function getTranscript(mirror: MirrorReader, id: string): Promise<S.TranscriptEntry[]> {
  const reads = new MirrorReads(mirror);
  if (!(await reads.viewMeeting(id))) throw new UnknownMeetingError(id);
  return reads.transcript(id);
}
