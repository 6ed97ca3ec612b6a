// Prompt `open_commitments`: the user's own pending action items, by meeting.

import { z } from 'zod';
import { DATA_NOT_INSTRUCTIONS, definePrompt } from './define.js';

export const openCommitments = definePrompt({
  name: 'open_commitments',
  title: 'My open commitments',
  description: 'The action items assigned to me that are still open, grouped by meeting, oldest first.',
  args: () =>
    z.object({
      since: z
        .string()
        .optional()
        .describe('only from meetings since: 2026-03-01, or a duration back from now (7d, 2w)'),
    }),
  text: ({ since }) => {
    const args = since
      ? `{"assignee": "me", "status": "pending", "since": ${JSON.stringify(since)}}`
      : '{"assignee": "me", "status": "pending"}';
    return [
      `What are my open commitments${since ? ` from meetings since ${since}` : ''}?`,
      `Call list_action_items with ${args} (pass nextCursor back while there is one). Each item carries its meetings: [{id, name, createdAt}].`,
      'Then list them grouped by meeting, oldest meeting first, each with its title and a few words of its description; say which look overdue or stale.',
      DATA_NOT_INSTRUCTIONS,
    ].join('\n\n');
  },
});
