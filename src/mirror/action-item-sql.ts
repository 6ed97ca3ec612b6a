// "List action items with filters" (src/api/action-item-filter.ts) compiled to SQL: one statement
// answers every filter, for `action-items list --offline` (reads.ts) and the operation behind
// `mtg mcp`'s list_action_items (src/ops/action-items.ts). Names, emails and words are folded by
// mtg_fold (text-functions.ts), as foldText folds; nothing is filtered in JavaScript.

import { type ActionItemFilter, assigneeIsMe, hasMeetingFilter } from '../api/action-item-filter.js';
import { ACTION_ITEM_DEFAULT_STATUS_FILTER } from '../api/assumptions.js';
import { UsageError } from '../shared/errors.js';
import { foldText } from '../shared/fold.js';
import type { Db } from './driver.js';
import { textFunctions } from './text-functions.js';

/** Does folded text at `path` of the JSON `doc` hold :`param`? (Only text counts: a number or null does not.) */
const foldedHas = (doc: string, path: string, param: string) =>
  `(json_type(${doc}, '${path}') = 'text' AND instr(mtg_fold(json_extract(${doc}, '${path}')), :${param}) > 0)`;

/** Does the JSON array at `path` of `doc` hold an element whose `key` (as text) is one of :`param` (a JSON array)? */
const anyIdIn = (doc: string, path: string, key: string, param: string) =>
  `(json_type(${doc}, '${path}') = 'array' AND EXISTS (SELECT 1 FROM json_each(${doc}, '${path}') e
      WHERE CAST(json_extract(e.value, '$.${key}') AS TEXT) IN (SELECT value FROM json_each(:${param}))))`;

const PROFILE = "json_extract(a.json, '$.assignee.profileId')";

/** A live meeting `m` that passes every meeting filter. */
const MEETING = `m.deleted_at IS NULL
    AND (:meetingId IS NULL OR m.id = :meetingId)
    AND (:since IS NULL OR julianday(m.created_at) >= julianday(:since))
    AND (:until IS NULL OR julianday(m.created_at) < julianday(:until))
    AND (:tagIds IS NULL OR ${anyIdIn('m.json', '$.tags', 'id', 'tagIds')})
    AND (:attendeeProfileIds IS NULL OR ${anyIdIn('m.json', '$.attendees', 'profileId', 'attendeeProfileIds')})
    AND (:attendee IS NULL OR (json_type(m.json, '$.attendees') = 'array' AND EXISTS (
      SELECT 1 FROM json_each(m.json, '$.attendees') p
      WHERE ${foldedHas('p.value', '$.name', 'attendee')} OR ${foldedHas('p.value', '$.email', 'attendee')})))`;

const WHERE = `a.deleted_at IS NULL
  AND (:status = 'ALL' OR json_extract(a.json, '$.status') = :status)
  AND CASE :assigneeType
    WHEN 'Me' THEN a.mine = 1
    WHEN 'NotMe' THEN ${PROFILE} IS NOT NULL AND a.mine = 0
    WHEN 'Unassigned' THEN ${PROFILE} IS NULL
    WHEN 'Profile' THEN CAST(${PROFILE} AS TEXT) = :assigneeProfileId
    ELSE 1 END
  AND (:mine IS NULL OR a.mine = :mine)
  AND (:assignee IS NULL OR (json_type(a.json, '$.assignee') = 'object'
    AND (${foldedHas('a.json', '$.assignee.name', 'assignee')} OR ${foldedHas('a.json', '$.assignee.email', 'assignee')})))
  AND (:words IS NULL OR NOT EXISTS (SELECT 1 FROM json_each(:words) w WHERE instr(
    mtg_fold(coalesce(json_extract(a.json, '$.title'), '') || char(10) || coalesce(json_extract(a.json, '$.description'), '')),
    w.value) = 0))
  AND (:byMeeting = 0 OR EXISTS (SELECT 1 FROM json_each(a.json, '$.meetingIds') j
    WHERE CAST(j.value AS TEXT) IN (SELECT id FROM chosen)))`;

/** The meetings that pass the meeting filters, judged once per statement (not again for each item of theirs). */
const CHOSEN = `WITH chosen(id) AS MATERIALIZED (SELECT m.id FROM meetings m WHERE :byMeeting = 1 AND ${MEETING})`;

/** The items in the service's order: each as it sent it (`json`) and whether the key's own listing returns it. */
const ITEMS = `${CHOSEN} SELECT a.json AS json, a.mine AS mine FROM action_items a WHERE ${WHERE} ORDER BY a.position, a.id`;

/** The same, each with its live meetings: [[id, name, createdAt], …] in the order of its meetingIds. */
const ITEMS_WITH_MEETINGS = `${CHOSEN} SELECT a.json AS json, a.mine AS mine,
  (SELECT json_group_array(json_array(m.id, m.name, m.created_at)) FROM json_each(a.json, '$.meetingIds') j
    JOIN meetings m ON m.id = CAST(j.value AS TEXT) AND m.deleted_at IS NULL) AS meetings
FROM action_items a WHERE ${WHERE} ORDER BY a.position, a.id`;

export interface ActionItemRow {
  json: string;
  mine: number;
  /** With `withMeetings`: the JSON of [[id, name, createdAt], …]. */
  meetings?: string;
}

/** Refuses, before anything is read, the filters the mirror cannot answer (exit 2: they need the service). */
export function checkMirrorCanFilter(f: ActionItemFilter): void {
  const type = f.assigneeType;
  if (type === 'MyWorkspace' || type === 'OutsideMyWorkspace') {
    throw new UsageError(
      `--assignee ${type === 'MyWorkspace' ? 'my-workspace' : 'outside-my-workspace'} needs the API: the mirror does not know who is in your workspace`,
    );
  }
  if (f.assigneeTeamId !== undefined) {
    throw new UsageError('--assignee-team needs the API: the mirror does not know the members of teams');
  }
}

/** The statement's parameters for `f`. */
function parameters(f: ActionItemFilter): Record<string, string | number | null> {
  const folded = (v: string | undefined) => (v === undefined ? null : foldText(v.trim()));
  const ids = (v: readonly string[] | undefined) => (v ? JSON.stringify(v.map(String)) : null);
  const me = assigneeIsMe(f);
  const words = f.query === undefined ? [] : foldText(f.query).split(/\s+/).filter(Boolean);
  return {
    status: f.status ?? ACTION_ITEM_DEFAULT_STATUS_FILTER,
    assigneeType: me ? 'Me' : (f.assigneeType ?? 'Me'),
    assigneeProfileId: f.assigneeProfileId === undefined ? null : String(f.assigneeProfileId),
    mine: f.mine === undefined ? null : f.mine ? 1 : 0,
    assignee: me ? null : folded(f.assignee),
    words: words.length ? JSON.stringify(words) : null,
    byMeeting: hasMeetingFilter(f) ? 1 : 0,
    meetingId: f.meetingId ?? null,
    since: f.since || null,
    until: f.until || null,
    tagIds: ids(f.tagIds),
    attendeeProfileIds: ids(f.attendeeProfileIds),
    attendee: folded(f.attendee),
  };
}

/**
 * The live action items that pass every filter of `f`, in the service's order (the last walk's
 * positions), read as they are iterated. `withMeetings`: each with its live meetings too.
 */
export function actionItemRows(
  db: Db,
  f: ActionItemFilter,
  options: { withMeetings?: boolean } = {},
): IterableIterator<ActionItemRow> {
  checkMirrorCanFilter(f);
  return textFunctions(db)
    .prepare<ActionItemRow>(options.withMeetings ? ITEMS_WITH_MEETINGS : ITEMS)
    .iterate(parameters(f));
}
