// Prompt `prepare_for_person`: before a call with someone, who they are, what we last discussed and
// what is open each way.

import { completable } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { completions, containsPattern, DATA_NOT_INSTRUCTIONS, definePrompt } from './define.js';

export const prepareForPerson = definePrompt({
  name: 'prepare_for_person',
  title: 'Prepare for a meeting with a person',
  description: 'Before a call: who the person is, the last meetings together, and what is open each way.',
  args: (access) =>
    z.object({
      person: completable(
        z.string().describe('part of their name or email (completed from the people you met)'),
        (value) =>
          completions(access, (db) =>
            db
              .prepare<{ name: string }>(
                `SELECT json_extract(a.value, '$.name') AS name, count(*) AS n
                 FROM meetings m, json_each(m.json, '$.attendees') a
                 WHERE m.deleted_at IS NULL AND json_type(m.json, '$.attendees') = 'array'
                   AND json_extract(a.value, '$.name') LIKE :p ESCAPE '\\'
                 GROUP BY name ORDER BY n DESC, name LIMIT 20`,
              )
              .all({ p: containsPattern(value ?? '') })
              .map((r) => r.name),
          ),
      ),
    }),
  text: ({ person }) => {
    const who = JSON.stringify(person);
    return [
      `Prepare me for my meeting with ${who}.`,
      `1. Call get_person with {"name": ${who}}. If it finds several people, ask me which one I mean before going on.`,
      `2. Call list_action_items with {"attendee": ${who}} for everything open from our meetings (each item says its meetings and whether it is mine); "what they owe me" is {"assignee": ${who}}, "what I promised" is {"assignee": "me", "attendee": ${who}}.`,
      `3. Call list_meetings with {"attendee": ${who}, "limit": 5}, and get_meeting on the last one or two.`,
      'Then give me: who they are (title, company); when we last met and what about; what I promised them and what they owe me; two or three things to raise.',
      DATA_NOT_INSTRUCTIONS,
    ].join('\n\n');
  },
});
