// Prompt `prepare_for_person`: before a call with someone, who they are, what we last discussed and
// what is open each way.

import { completable } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { completions, containsPattern, DATA_NOT_INSTRUCTIONS, definePrompt } from './define.js';

/**
 * The attendees whose name or email contains :p, each once, most met first: a name, or where
 * several people (emails) share it, each one's email instead, which the argument takes as well and
 * which get_person then finds alone. (Grouping by `name` here once grouped by the meetings' own
 * column, one value per meeting name.)
 */
const PERSON_COMPLETIONS = `
  WITH att AS (
    SELECT coalesce(json_extract(a.value, '$.name'), json_extract(a.value, '$.email')) AS who,
           lower(json_extract(a.value, '$.email')) AS mail
    FROM meetings m, json_each(m.json, '$.attendees') a
    WHERE m.deleted_at IS NULL AND json_type(m.json, '$.attendees') = 'array'
  ),
  per AS (
    SELECT who, mail, count(*) AS n FROM att
    WHERE who IS NOT NULL AND (who LIKE :p ESCAPE '\\' OR mail LIKE :p ESCAPE '\\')
    GROUP BY who, mail
  ),
  shared AS (SELECT who, count(DISTINCT mail) AS mails FROM per GROUP BY who)
  SELECT CASE WHEN s.mails > 1 THEN p.mail ELSE p.who END AS completion, sum(p.n) AS n
  FROM per p JOIN shared s ON s.who = p.who
  WHERE NOT (s.mails > 1 AND p.mail IS NULL)
  GROUP BY completion ORDER BY n DESC, completion LIMIT 20`;

export const prepareForPerson = definePrompt({
  name: 'prepare_for_person',
  title: 'Prepare for a meeting with a person',
  description: 'Before a call: who the person is, the last meetings together, and what is open each way.',
  args: (access) =>
    z.object({
      person: completable(
        z
          .string()
          .describe(
            'part of their name or email (completed from the people you met: a name, or the email of each one where several share it)',
          ),
        (value) =>
          completions(access, (db) =>
            db
              .prepare<{ completion: string }>(PERSON_COMPLETIONS)
              .all({ p: containsPattern(value ?? '') })
              .map((r) => r.completion),
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
