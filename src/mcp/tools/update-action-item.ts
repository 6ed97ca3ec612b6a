// `update_action_item` (only with --allow-writes): one request; reads that follow show the change.

import { z } from 'zod';
import { exactId } from '../../shared/ids.js';
import {
  defineTool,
  numericId,
  type Obj,
  ok,
  oneOf,
  optionalText,
  profileId,
  storedOrNoted,
  text,
} from './define.js';

export const updateActionItem = defineTool({
  name: 'update_action_item',
  title: 'Update an action item',
  description:
    'Change one action item in the service (one request): status PENDING or DONE, title, description, ' +
    'assignee (a profile ID, or null to unassign). Returns the item as the service returned it; reads ' +
    'that follow show the change at once.',
  input: z.strictObject({
    id: numericId('id', 'an action item ID').describe('the action item ID'),
    status: oneOf(['PENDING', 'DONE'], 'status must be PENDING or DONE')
      .optional()
      .describe('PENDING (to do) or DONE (completed)'),
    title: text('title').optional().describe('the new title'),
    description: optionalText('description').optional().describe('the new description'),
    assignee: profileId('assignee')
      .nullable()
      .optional()
      .describe("a profile ID (from an action item's assignee), or null for nobody"),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  offered: (options) => options.allowWrites,
  run: async (a, { access, options }) => {
    const id = exactId(String(a.id), 'id');
    const updated = await access.updateActionItem(id, {
      title: a.title,
      description: a.description,
      status: a.status?.toUpperCase() as 'PENDING' | 'DONE' | undefined,
      assignee: a.assignee == null ? a.assignee : exactId(String(a.assignee), 'assignee'),
    });
    return storedOrNoted(
      ok((updated.item as Obj | undefined) ?? { updated: true, note: 'the service returned no body' }),
      updated.notStored,
      options.log,
    );
  },
});
