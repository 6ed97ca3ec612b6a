// "List action items with filters", described once: the filters' names and meanings, for every
// place that lists action items. The CLI's `action-items list` builds one, the online path sends
// the service's part as query parameters (apiQuery below), the mirror compiles all of it to SQL
// (src/mirror/action-item-sql.ts) for `--offline` and for the operation `mtg mcp`'s
// list_action_items adapts (src/ops/action-items.ts). The sandbox plays the service and keeps its
// own implementation of the service's part (src/sandbox/handlers/actionItems.ts); one table of
// cases checks the sandbox and the mirror alike (test/api/action-item-filter.test.ts).
//
// Matching a name, email or word is folded: case and accents do not matter ("jose" finds "José"),
// as the mirror's full-text index folds (src/shared/fold.ts), and the typed text is a part of it.

import { UsageError } from '../shared/errors.js';
import type { ActionItemStatusFilter, AssigneeType } from './assumptions.js';

/** The filters the service answers (GET /action-items' query parameters, spec section 4). */
export interface ServiceActionItemFilter {
  /** Whose items; absent: Me (the service's default). MyWorkspace and OutsideMyWorkspace need the service. */
  assigneeType?: AssigneeType;
  /** The assignee's profile, with assigneeType Profile. */
  assigneeProfileId?: number;
  /** Items assigned to a member of this team (needs the service). */
  assigneeTeamId?: number;
  /** PENDING, DONE or ALL; absent: PENDING (the service's default). */
  status?: ActionItemStatusFilter;
  /** Items of a meeting attended by any of these profiles. */
  attendeeProfileIds?: readonly string[];
  /** Items of a meeting with any of these tags. */
  tagIds?: readonly string[];
}

/** The filters only the mirror answers (the service has no such parameter). */
export interface MirrorActionItemFilter {
  /** true: only the user's own items (as assigneeType Me); false: everyone else's, unassigned ones included. */
  mine?: boolean;
  /** Part of the assignee's name or email, folded; `me` (any case) is the user, as assigneeType Me. */
  assignee?: string;
  /** Items of this meeting. */
  meetingId?: string;
  /** Items of a meeting attended by someone whose name or email has this part, folded. */
  attendee?: string;
  /** Items of a meeting created at or after this instant (ISO 8601). */
  since?: string;
  /** Items of a meeting created before this instant (ISO 8601). */
  until?: string;
  /** Words that all appear, folded, in the item's title or description. */
  query?: string;
}

/**
 * Every filter of "list action items". Filters combine (all must hold); the meeting filters
 * (attendeeProfileIds, tagIds, meetingId, attendee, since, until) hold for one and the same of the
 * item's meetings.
 */
export type ActionItemFilter = ServiceActionItemFilter & MirrorActionItemFilter;

const MIRROR_ONLY: readonly (keyof MirrorActionItemFilter)[] = [
  'mine',
  'assignee',
  'meetingId',
  'attendee',
  'since',
  'until',
  'query',
];

/** The meeting filters: an item passes when one of its meetings passes them all. */
export const hasMeetingFilter = (f: ActionItemFilter): boolean =>
  !!(
    f.tagIds ||
    f.attendeeProfileIds ||
    f.meetingId !== undefined ||
    f.attendee !== undefined ||
    f.since ||
    f.until
  );

/** `assignee` names the user (`me`, any case). */
export const assigneeIsMe = (f: ActionItemFilter): boolean => f.assignee?.trim().toLowerCase() === 'me';

/** GET /action-items' query parameters for `f` (absent filters are not sent: the service's defaults hold). */
export function apiQuery(f: ActionItemFilter): ServiceActionItemFilter {
  const given = MIRROR_ONLY.filter((name) => f[name] !== undefined);
  if (given.length) throw new UsageError(`${given.join(', ')}: only the mirror filters action items so`);
  return {
    assigneeType: f.assigneeType,
    assigneeProfileId: f.assigneeProfileId,
    assigneeTeamId: f.assigneeTeamId,
    status: f.status,
    attendeeProfileIds: f.attendeeProfileIds,
    tagIds: f.tagIds,
  };
}
