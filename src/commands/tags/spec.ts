// mtg tags create|update|apply, as data: manage tags and put them on meetings.

import { DEFAULT_BULK_CONCURRENCY } from '../../cli/bulk.js';
import { DRY_RUN_OPTION } from '../../cli/dry-run.js';
import { NETWORK_OPTIONS, OUTPUT_OPTIONS, withFields } from '../../cli/globals.js';
import { defineCommand, type GroupDecl } from '../../cli/spec.js';

/**
 * Meetings per PUT /tag request when tagging many. The spec sets no maximum; 100 keeps each body
 * small, and the batches go out concurrently through the bulk runner.
 */
export const TAG_APPLY_BATCH_SIZE = 100;

export const group: GroupDecl = {
  name: 'tags',
  aliases: ['tag'],
  summary: 'Create and update tags, and tag meetings',
};

export const create = defineCommand({
  name: 'create',
  summary: 'Create a tag (an existing name is a conflict error)',
  args: [{ name: 'NAME', description: 'the tag name (unique)', required: true }],
  options: [
    { flags: '--description <text>', description: 'what the tag is for' },
    DRY_RUN_OPTION,
    ...withFields(OUTPUT_OPTIONS, 'id,name'),
    ...NETWORK_OPTIONS,
  ],
  examples: [
    'mtg tags create "Customer calls"',
    'mtg tags create Hiring --description "Interviews" --json',
    'mtg tags create Hiring --dry-run',
  ],
});

export const update = defineCommand({
  name: 'update',
  summary: 'Rename a tag or change its description',
  args: [{ name: 'TAG_ID', description: 'the tag to change', required: true }],
  options: [
    { flags: '--name <name>', description: 'new name' },
    { flags: '--description <text>', description: 'new description' },
    DRY_RUN_OPTION,
    ...withFields(OUTPUT_OPTIONS, 'id,name,description'),
    ...NETWORK_OPTIONS,
  ],
  examples: [
    'mtg tags update 7 --name "Customer calls"',
    'mtg tags update 7 --description "All external calls" --dry-run',
  ],
});

export const apply = defineCommand({
  name: 'apply',
  summary: 'Put a tag on one or many meetings',
  description:
    'Put an existing tag on meetings. IDs come from the arguments and/or --stdin. More than ' +
    `${TAG_APPLY_BATCH_SIZE} meetings are sent in batches of ${TAG_APPLY_BATCH_SIZE}, up to ` +
    `${DEFAULT_BULK_CONCURRENCY} batches at once within the rate limit; a failed batch is reported ` +
    'with the meetings it held, and the exit code is 6 when some batches failed and others applied. ' +
    'The tagged meetings go to stdout; with --json or --format ndjson each meeting not tagged too, ' +
    'with its "outcome" ("failed" with the error, or "not-sent"), to feed back to --stdin.',
  args: [
    { name: 'TAG_ID', description: 'the tag', required: true },
    { name: 'MEETING_ID', description: 'meetings to tag', variadic: true },
  ],
  options: [
    {
      flags: '--stdin',
      description: 'also read meeting IDs from stdin (one per line, or mtg json/ndjson/csv/tsv)',
    },
    DRY_RUN_OPTION,
    ...withFields(OUTPUT_OPTIONS, 'id,name,tags'),
    ...NETWORK_OPTIONS,
  ],
  examples: [
    'mtg tags apply 7 mtg_abc123 mtg_def456',
    'mtg meetings search "interview" --fields id | mtg tags apply 7 --stdin',
    'mtg tags apply 7 --stdin --format ndjson <ids >out\n' +
      '# cut short (exit 5, 130)? the entries with an "outcome" were not applied:\n' +
      "jq -c 'select(.outcome)' out | mtg tags apply 7 --stdin",
  ],
});
