// mtg meetings list: meetings, newest first, optionally within --since/--until.

import { MEETINGS_NEWEST_FIRST } from '../../api/assumptions.js';
import type { Meeting } from '../../api/schemas.js';
import type { Context } from '../../cli/context.js';
import { timeWindowOption } from '../../cli/dates.js';
import { runList } from '../../cli/list.js';
import type { Args, Opts } from '../../cli/spec.js';
import { tagIds } from './tags.js';

export async function run(ctx: Context, _args: Args, opts: Opts): Promise<number> {
  const query = { tagIds: tagIds(opts) };
  const window = timeWindowOption(opts);
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
}
