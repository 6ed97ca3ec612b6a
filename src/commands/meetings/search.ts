// mtg meetings search: meetings by name, notes and transcript, narrowed by every filter given.

import type { Meeting } from '../../api/schemas.js';
import { timeWindowOption } from '../../cli/dates.js';
import { listValues } from '../../cli/input.js';
import { runList } from '../../cli/list.js';
import { defineRun } from '../../cli/spec.js';
import { positiveIds, stringId } from '../../shared/ids.js';
import * as spec from './spec.js';
import { tagIds } from './tags.js';

export const run = defineRun(spec.search, async (ctx, args, opts) => {
  const window = timeWindowOption(opts, ctx.io.now());
  const term = args.TERM?.trim() ? args.TERM : undefined;
  const attendees = positiveIds(listValues(opts.attendee, '--attendee'), 'Attendee profile ID').map(String);
  const meetings = listValues(opts.meeting, '--meeting').map((id) => stringId(id, 'Meeting ID'));
  const query = {
    searchTerm: term,
    tagIds: tagIds(opts),
    attendeeProfileIds: attendees.length ? attendees : undefined,
    meetingIds: meetings.length ? meetings : undefined,
  };
  return runList(ctx, {
    listing: (source) => source.searchMeetings(query),
    resource: 'meeting',
    noun: ['meeting', 'meetings'],
    command: 'meetings search',
    // Search results come in no stated order: filtered as they arrive, every page fetched.
    window: window && { bounds: window, time: (m: Meeting) => m.createdAt },
  });
});
