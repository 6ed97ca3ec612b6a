// `get_meeting`: one meeting exactly as the service last sent it, and the size of its transcript.

import { z } from 'zod';
import { ITEMS_BOUND, jsonCost, RESULT_BOUND, shortenStrings } from '../paging.js';
import { meetingInPieces } from '../resource.js';
import { DATA_NOT_INSTRUCTIONS, defineTool, type Obj, ok, READ, text, unknownMeeting } from './define.js';

export const getMeeting = defineTool({
  name: 'get_meeting',
  title: 'Get a meeting',
  description:
    'One meeting with everything the service sent for it: name, date, attendees, tags, notes, action ' +
    'items, insights ({meeting, transcript}); transcript is {entries, chars} (its size; read it with ' +
    'get_transcript) or null when none is stored. The same meeting as Markdown: the resource mtg://meetings/{id}.' +
    DATA_NOT_INSTRUCTIONS,
  input: z.strictObject({ id: text('id').describe('a meeting ID (from search or list_meetings)') }),
  annotations: READ,
  run: async (a, { access }) =>
    access.read(async (r) => {
      const meeting = (await r.meeting(a.id)) as Obj | undefined;
      if (!meeting) throw unknownMeeting(a.id);
      let transcript: { entries: number; chars: number } | null = null;
      if (r.transcriptIds().has(a.id)) {
        const entries = await r.transcript(a.id);
        transcript = {
          entries: entries.length,
          chars: entries.reduce((n, e) => n + String(e.text ?? '').length, 0),
        };
      }
      const result: Obj = { meeting, transcript };
      if (jsonCost(result) > RESULT_BOUND) {
        result.meeting = shortenStrings(meeting, ITEMS_BOUND);
        result.truncated = true;
        result.readWhole = `long texts were cut; read the meeting whole ${meetingInPieces(a.id)}`;
      }
      return ok(result, [{ id: a.id, name: String(meeting.name ?? a.id) }]);
    }),
});
