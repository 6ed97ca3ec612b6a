// Prompt `brief_meeting`: what a meeting was about, decided and left open, from get_meeting (and the
// transcript when the notes do not say).

import { completable } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { completions, containsPattern, DATA_NOT_INSTRUCTIONS, definePrompt } from './define.js';

export const briefMeeting = definePrompt({
  name: 'brief_meeting',
  title: 'Brief me on a meeting',
  description: 'A short brief of one meeting: who, what was decided, what is open and for whom.',
  args: (access) =>
    z.object({
      id: completable(z.string().describe('the meeting ID (completed from IDs and names)'), (value) =>
        completions(access, (db) =>
          db
            .prepare<{ id: string }>(
              `SELECT id FROM meetings WHERE deleted_at IS NULL AND (id LIKE :p ESCAPE '\\' OR name LIKE :p ESCAPE '\\')
               ORDER BY created_at DESC LIMIT 20`,
            )
            .all({ p: containsPattern(value ?? '') })
            .map((r) => r.id),
        ),
      ),
    }),
  text: ({ id }) =>
    [
      `Brief me on the meeting ${JSON.stringify(id)}.`,
      `Call get_meeting with {"id": ${JSON.stringify(id)}}: its notes, attendees and action items. Only if the notes do not say what was decided, read the transcript with get_transcript (page by page, passing nextCursor back).`,
      'Then answer in a few lines: when and with whom; what it was about; what was decided; the open action items, each with its owner; what I should do next.',
      DATA_NOT_INSTRUCTIONS,
    ].join('\n\n'),
});
