// `list_meetings`: the mirror's meetings, newest first, with a keyset cursor that survives syncs.

import { z } from 'zod';
import * as ops from '../../ops/meetings.js';
import {
  decodeCursor,
  encodeCursor,
  fingerprint,
  isMeetingKey,
  labelName,
  type MeetingKey,
  meetingKeyOf,
  shortenStrings,
  takePage,
} from '../paging.js';
import {
  cursor,
  DATA_NOT_INSTRUCTIONS,
  defineTool,
  linkedOnce,
  meetingLinks,
  type Obj,
  ok,
  READ,
  since,
  text,
  timeWindow,
  until,
  wholeIn,
} from './define.js';

export const listMeetings = defineTool({
  name: 'list_meetings',
  title: 'List meetings',
  description:
    'Meetings stored in the mirror, newest first, with who attended, tags, the number of action items ' +
    'and whether a transcript is stored: {meetings: [{id, name, createdAt, duration (seconds), tags, ' +
    'attendees: [{name, email}], actionItems, hasTranscript}]}. Filter by date, attendee (part of a name ' +
    'or email) or tag name. To find meetings by what was said, use search instead. More: pass nextCursor back.' +
    DATA_NOT_INSTRUCTIONS,
  input: z.strictObject({
    since: since.optional(),
    until: until.optional(),
    attendee: text('attendee')
      .optional()
      .describe('part of an attendee name or email (case and accents do not matter: muller finds Müller)'),
    tag: text('tag').optional().describe('a tag name'),
    limit: wholeIn('limit', 1, 100).optional().describe('meetings per page (default 20)'),
    cursor: cursor.optional(),
  }),
  annotations: READ,
  run: async (a, { access }) => {
    const window = timeWindow(a.since, a.until);
    const f = fingerprint([
      'list_meetings',
      a.since ?? null,
      a.until ?? null,
      a.attendee ?? null,
      a.tag ?? null,
    ]);
    const key = decodeCursor<MeetingKey>(a.cursor, f, isMeetingKey);
    return access.read(async (r) => {
      const meetings = await ops.listMeetings(r.mirror, {
        ...window,
        attendee: a.attendee,
        tag: a.tag,
        after: key,
      });
      // Keyset: the next page starts after the last meeting of this one, wherever the sync moved it.
      // A name labels its meeting here: cut past NAME_CHARS (get_meeting has it whole).
      const { page, more } = takePage(meetings, {
        limit: a.limit ?? 20,
        map: (m) => ({ ...m, name: labelName(m.name) }),
        shorten: shortenStrings,
        beside: linkedOnce((m) => m),
      });
      const result: Obj = { meetings: page };
      if (more) result.nextCursor = encodeCursor(f, meetingKeyOf(key, page));
      return ok(result, meetingLinks(page));
    });
  },
});
