// mtg meetings list: meetings, newest first, optionally within --since/--until.

import { MEETINGS_NEWEST_FIRST } from '../../api/assumptions.js';
import type { Meeting } from '../../api/schemas.js';
import { timeWindowOption } from '../../cli/dates.js';
import { runList } from '../../cli/list.js';
import { defineRun } from '../../cli/spec.js';
import * as spec from './spec.js';
import { tagIds } from './tags.js';

export const run = defineRun(spec.list, async (ctx, _args, opts) => {
  const query = { tagIds: tagIds(opts) };
  const window = timeWindowOption(opts, ctx.io.now());
  return runList(ctx, {
    listing: (source) => source.listMeetings(query),
    resource: 'meeting',
    noun: ['meeting', 'meetings'],
    command: 'meetings list',
    window: window && {
      bounds: window,
      time: (m: Meeting) => m.createdAt,
      newestFirst: MEETINGS_NEWEST_FIRST,
    },
  });
});
