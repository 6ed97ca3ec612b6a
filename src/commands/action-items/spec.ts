// mtg action-items list|create|update, as data: the action items across the user's meetings.

import { ACTION_ITEM_STATUS_FILTERS, ACTION_ITEM_STATUSES, ASSIGNEE_WORDS } from '../../api/assumptions.js';
import { DEFAULT_BULK_CONCURRENCY } from '../../cli/bulk.js';
import { DRY_RUN_OPTION } from '../../cli/dry-run.js';
import { LIST_OPTIONS, NETWORK_OPTIONS, OUTPUT_OPTIONS, withFields } from '../../cli/globals.js';
import { defineCommand, type GroupDecl } from '../../cli/spec.js';

const ASSIGNEE_CHOICES = [...Object.keys(ASSIGNEE_WORDS), 'PROFILE_ID'];

export const group: GroupDecl = {
  name: 'action-items',
  aliases: ['action-item'],
  summary: 'List, create and update action items',
};

export const list = defineCommand({
  name: 'list',
  summary: 'List action items across your meetings (every page)',
  description:
    'List action items across your meetings, following every page. Without --assignee the server ' +
    'shows your own items; without --status only PENDING ones. --assignee-team alone looks at ' +
    'everyone (assigneeType Anyone) in that team.',
  options: [
    {
      flags: '--assignee <who>',
      description: `whose items: ${Object.keys(ASSIGNEE_WORDS).join(' | ')} | PROFILE_ID (default: me, the server's default)`,
      choices: ASSIGNEE_CHOICES,
    },
    { flags: '--assignee-team <id>', description: 'only items assigned to members of this team' },
    {
      flags: '--status <status>',
      description: `${ACTION_ITEM_STATUS_FILTERS.join('|')} (default: PENDING, the server's default)`,
      choices: ACTION_ITEM_STATUS_FILTERS,
    },
    {
      flags: '--attendee <profile-id>',
      description: 'only items of meetings this person attended (repeatable, comma lists)',
      repeatable: true,
    },
    {
      flags: '--tag <id>',
      description: 'only items of meetings with this tag (repeatable, comma lists)',
      repeatable: true,
    },
    ...withFields(OUTPUT_OPTIONS, 'id,title,assignee.name'),
    ...LIST_OPTIONS,
    ...NETWORK_OPTIONS,
  ],
  examples: [
    'mtg action-items list',
    'mtg action-items list --assignee anyone --status all --json',
    'mtg action-items list --assignee 12 --tag 3,7 --format csv -o items.csv',
  ],
});

export const create = defineCommand({
  name: 'create',
  summary: 'Create an action item (not linked to a meeting)',
  args: [{ name: 'TITLE', description: 'the title', required: true }],
  options: [
    { flags: '--description <text>', description: 'a longer description' },
    {
      flags: '--assignee <profile-id>',
      description: 'assign it to this profile (default: you, the server decides)',
    },
    DRY_RUN_OPTION,
    ...withFields(OUTPUT_OPTIONS, 'id,title,assignee.name'),
    ...NETWORK_OPTIONS,
  ],
  examples: [
    'mtg action-items create "Send the roadmap"',
    'mtg action-items create "Review the contract" --assignee 12 \\\n  --description "Before Friday" --json',
    'mtg action-items create "Send the roadmap" --dry-run',
  ],
});

export const update = defineCommand({
  name: 'update',
  summary: 'Update one or many action items (concurrently, within the rate limit)',
  description:
    'Update the title, description, status or assignee of one or many action items. IDs come from ' +
    'the arguments and/or --stdin (one per line, or the output of `action-items list` in any format ' +
    'but table: json, ndjson, csv or tsv, the "id" column anywhere). ' +
    `Up to ${DEFAULT_BULK_CONCURRENCY} requests are in flight at once, paced by the rate limit. ` +
    'The updated items go to stdout in input order, each failure to stderr; exit 6 when some failed. ' +
    'With --json or --format ndjson the items not applied are there too, in their place, each with its ' +
    '"outcome" ("failed" with the error, or "not-sent" when --max-wait or Ctrl-C cut the batch short), ' +
    'so that they can be fed back to --stdin (docs/scripting.md).',
  args: [{ name: 'ID', description: 'action item IDs', variadic: true }],
  options: [
    { flags: '--stdin', description: 'also read IDs from stdin (one per line, or mtg json/ndjson/csv/tsv)' },
    { flags: '--title <title>', description: 'new title' },
    { flags: '--description <text>', description: 'new description ("" clears it)' },
    { flags: '--status <status>', description: 'PENDING|DONE', choices: ACTION_ITEM_STATUSES },
    { flags: '--assignee <profile-id>', description: 'assign to this profile, or "none" to unassign' },
    DRY_RUN_OPTION,
    ...withFields(OUTPUT_OPTIONS, 'id,status,title'),
    ...NETWORK_OPTIONS,
  ],
  examples: [
    'mtg action-items update 42 --status done',
    'mtg action-items list --assignee me \\\n  | mtg action-items update --stdin --status DONE',
    'mtg action-items update --stdin --status DONE --format ndjson <ids >out\n' +
      '# cut short (exit 5, 130)? the entries with an "outcome" were not applied:\n' +
      "jq -c 'select(.outcome)' out | mtg action-items update --stdin --status DONE",
  ],
});
