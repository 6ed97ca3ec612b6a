// mtg action-items list: action items across the user's meetings, every page.

import type { ActionItemFilter } from '../../api/action-item-filter.js';
import { ACTION_ITEM_STATUS_FILTERS, ASSIGNEE_WORDS, type AssigneeType } from '../../api/assumptions.js';
import { listValues, oneOf } from '../../cli/input.js';
import { runList } from '../../cli/list.js';
import { defineRun, type OptsFor } from '../../cli/spec.js';
import { UsageError } from '../../shared/errors.js';
import { positiveId, positiveIds } from '../../shared/ids.js';
import * as spec from './spec.js';

/** --assignee: a word (case-insensitive) or a profile ID. Omitted: nothing sent (the server's default is Me). */
export function assigneeFilter(value: string | undefined): {
  assigneeType?: AssigneeType;
  assigneeProfileId?: number;
} {
  if (value === undefined) return {};
  const word = ASSIGNEE_WORDS[value.trim().toLowerCase()];
  if (word) return { assigneeType: word };
  if (/^\s*-?\d+\s*$/.test(value)) {
    return { assigneeType: 'Profile', assigneeProfileId: positiveId(value, '--assignee') };
  }
  throw new UsageError(
    `Invalid --assignee "${value}". Valid values: ${Object.keys(ASSIGNEE_WORDS).join(', ')} or a profile ID`,
  );
}

/** The command's flags as the filters of "list action items" (src/api/action-item-filter.ts). */
function listQuery(opts: OptsFor<typeof spec.list>): ActionItemFilter {
  const assignee = assigneeFilter(opts.assignee);
  const team = opts.assigneeTeam;
  const status = opts.status;
  const attendees = positiveIds(listValues(opts.attendee, '--attendee'), '--attendee');
  const tags = positiveIds(listValues(opts.tag, '--tag'), '--tag');
  return {
    // A team filter alone means "items assigned to that team's members", not "my items in that team".
    ...(team !== undefined && opts.assignee === undefined ? { assigneeType: 'Anyone' as const } : {}),
    ...assignee,
    assigneeTeamId: team === undefined ? undefined : positiveId(team, '--assignee-team'),
    status: status === undefined ? undefined : oneOf(status, ACTION_ITEM_STATUS_FILTERS, '--status'),
    attendeeProfileIds: attendees.length ? attendees.map(String) : undefined,
    tagIds: tags.length ? tags.map(String) : undefined,
  };
}

export const run = defineRun(spec.list, async (ctx, _args, opts) => {
  const query = listQuery(opts);
  return runList(ctx, {
    listing: (source) => source.listActionItems(query),
    resource: 'actionItem',
    noun: ['action item', 'action items'],
    command: 'action-items list',
  });
});
