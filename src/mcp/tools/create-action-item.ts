// `create_action_item` (only with --allow-writes): one request, never repeated after an ambiguous failure.

import { z } from 'zod';
import { exactId } from '../../shared/ids.js';
import { defineTool, type Obj, ok, optionalText, profileId, storedOrNoted, text } from './define.js';

export const createActionItem = defineTool({
  name: 'create_action_item',
  title: 'Create an action item',
  description:
    'Create one action item in the service (one request). Returns the item as the service returned it; ' +
    'list_action_items shows it at once. Not repeated when the outcome is unknown: check before retrying.',
  input: z.strictObject({
    title: text('title').describe('what is to be done, one line'),
    description: optionalText('description').optional().describe('more detail (optional)'),
    assignee: profileId('assignee')
      .optional()
      .describe("a profile ID (from an action item's assignee); absent: the service's default"),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  offered: (options) => options.allowWrites,
  run: async (a, { access, options }) => {
    const body = {
      title: a.title,
      ...(a.description !== undefined ? { description: a.description } : {}),
      ...(a.assignee !== undefined ? { assigneeProfileId: exactId(String(a.assignee), 'assignee') } : {}),
    };
    const created = await access.createActionItem(body);
    return storedOrNoted(
      ok((created.item as Obj | undefined) ?? { created: true, note: 'the service returned no body' }),
      created.notStored,
      options.log,
    );
  },
});
