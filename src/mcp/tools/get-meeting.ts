// `get_meeting`: one meeting exactly as the service last sent it, and the size of its transcript.

import { z } from 'zod';
import { getMeeting as readMeeting } from '../../ops/meetings.js';
import { ITEMS_BOUND, jsonCost, labelName, RESULT_BOUND, shortenStrings } from '../paging.js';
import { meetingInPieces } from '../resource.js';
import { DATA_NOT_INSTRUCTIONS, defineTool, linkCost, type Obj, ok, READ, text } from './define.js';

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
      const link = { id: a.id, name: String(meeting.name ?? a.id) };
      // The link comes beside the text block: it counts in the bound.
      const beside = linkCost(link);
      if (jsonCost(result) + beside > RESULT_BOUND) {
        // Its name first, to a label's length: a name is not notes (the longest texts were cut in
        // turn, and a name of 1,000,000 characters kept 31,000 of them).
        const labelled = { ...meeting, name: labelName(meeting.name) };
        result.meeting = shortenStrings(labelled, ITEMS_BOUND - beside);
        result.truncated = true;
        result.readWhole = `long texts were cut; read the meeting whole ${meetingInPieces(a.id)}`;
      }
      return ok(result, [link]);
    }),
});
