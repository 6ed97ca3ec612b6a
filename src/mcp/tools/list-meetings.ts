// `list_meetings`: the mirror's meetings, newest first, with a keyset cursor that survives syncs.

import { z } from 'zod';
import { foldText } from '../../shared/fold.js';
import { timeWindow } from '../mirror-access.js';
import {
  afterMeetingKey,
  decodeCursor,
  encodeCursor,
  fingerprint,
  isMeetingKey,
  type MeetingKey,
  meetingKeyOf,
  shortenStrings,
  takePage,
} from '../paging.js';
import {
  cursor,
  DATA_NOT_INSTRUCTIONS,
  defineTool,
  meetingLinks,
  type Obj,
  ok,
  READ,
  since,
  text,
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
    const after = afterMeetingKey(key);
    const who = a.attendee === undefined ? undefined : foldText(a.attendee.trim());
    const tag = a.tag?.trim().toLowerCase();
    return access.read(async (r) => {
      const withTranscript = r.transcriptIds();
      const meetings = (function* (all: Iterable<Obj>) {
        for (const m of all) {
          const at = typeof m.createdAt === 'string' ? m.createdAt : undefined;
          if (window.since && (!at || Date.parse(at) < Date.parse(window.since))) continue;
          if (window.until && (!at || Date.parse(at) >= Date.parse(window.until))) continue;
          const attendees = (Array.isArray(m.attendees) ? m.attendees : []) as Obj[];
          if (who && !attendees.some((p) => foldText(`${p.name ?? ''}\n${p.email ?? ''}`).includes(who)))
            continue;
          const tags = ((Array.isArray(m.tags) ? m.tags : []) as Obj[]).map((t) => String(t.name ?? ''));
          if (tag && !tags.some((t) => t.toLowerCase() === tag)) continue;
          if (!after({ id: String(m.id), createdAt: at ?? null })) continue;
          yield {
            id: String(m.id),
            name: (m.name as string | undefined) ?? null,
            createdAt: at ?? null,
            duration: m.duration ?? null,
            tags,
            attendees: attendees.map((p) => ({ name: p.name ?? null, email: p.email ?? null })),
            actionItems: Array.isArray(m.actionItems) ? m.actionItems.length : 0,
            hasTranscript: withTranscript.has(String(m.id)),
          };
        }
      })((await r.meetings()) as Iterable<Obj>);
      // Keyset: the next page starts after the last meeting of this one, wherever the sync moved it.
      const { page, more } = takePage(meetings, 0, a.limit ?? 20, (m) => m, shortenStrings);
      const result: Obj = { meetings: page };
      if (more) result.nextCursor = encodeCursor(f, meetingKeyOf(key, page));
      return ok(result, meetingLinks(page));
    });
  },
});
