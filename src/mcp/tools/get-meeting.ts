// `get_meeting`: one meeting exactly as the service last sent it, and the size of its transcript.

import { z } from 'zod';
import { getMeeting as readMeeting } from '../../ops/meetings.js';
import { ITEMS_BOUND, jsonCost, RESULT_BOUND, shortenStrings } from '../paging.js';
import { meetingInPieces } from '../resource.js';
import { DATA_NOT_INSTRUCTIONS, defineTool, type Obj, ok, READ, text } from './define.js';

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
      const { meeting: found, transcript } = await readMeeting(r.mirror, a.id);
      const meeting = found as Obj;
      const result: Obj = { meeting, transcript };
      if (jsonCost(result) > RESULT_BOUND) {
        result.meeting = shortenStrings(meeting, ITEMS_BOUND);
        result.truncated = true;
        result.readWhole = `long texts were cut; read the meeting whole ${meetingInPieces(a.id)}`;
      }
      return ok(result, [{ id: a.id, name: String(meeting.name ?? a.id) }]);
    }),
});
