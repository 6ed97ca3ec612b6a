// `list_action_items`: the mirror's action items by ID (the order the service made them), each as
// the service sent it plus `mine` and its meetings; the filters are the operation's
// (src/ops/action-items.ts), which this adapts to MCP (arguments, cursor, size bound).

import { z } from 'zod';
import * as ops from '../../ops/action-items.js';
import {
  decodeCursor,
  encodeCursor,
  fingerprint,
  firstByKey,
  type ItemKey,
  idSortKey,
  isItemKey,
  shortenStrings,
  takePage,
} from '../paging.js';
import {
  cursor,
  DATA_NOT_INSTRUCTIONS,
  defineTool,
  type Obj,
  ok,
  oneOf,
  READ,
  since,
  text,
  timeWindow,
  until,
  wholeIn,
} from './define.js';

export const listActionItems = defineTool({
  name: 'list_action_items',
  title: 'List action items',
  description:
    'Action items stored in the mirror, by ID (the order they were made), each exactly as the service ' +
    "sent it plus mine (true when it is the user's own) and meetings: [{id, name, createdAt}] (where it " +
    'came from): {actionItems: [...]}. status pending (default), done or all; mine true for only the ' +
    "user's own, false for everyone else's; meetingId for one meeting's; attendee: someone at the item's " +
    'meeting; assignee: who it is assigned to, or me ("what did I promise Dana": assignee me, attendee ' +
    'Dana; "what does Dana owe me": assignee Dana); since/until: the meeting\'s date; query: words in ' +
    'the title or description. Filters combine. More: pass nextCursor back.' +
    DATA_NOT_INSTRUCTIONS,
  input: z.strictObject({
    status: oneOf(['pending', 'done', 'all'], 'status must be one of pending, done, all')
      .optional()
      .describe('pending (not done yet; the default), done, or all'),
    mine: z
      .boolean({ error: 'mine must be true or false' })
      .optional()
      .describe(
        "true: only the user's own items (assigned to the user); false: only everyone else's; absent: both",
      ),
    meetingId: text('meetingId').optional().describe("only this meeting's items (a meeting ID)"),
    attendee: text('attendee')
      .optional()
      .describe("someone at the item's meeting: part of a name or email (accents and case do not matter)"),
    assignee: text('assignee')
      .optional()
      .describe('who the item is assigned to: part of a name or email, or me for the user'),
    since: since.optional(),
    until: until.optional(),
    query: text('query').optional().describe('words that all appear in the title or description'),
    limit: wholeIn('limit', 1, 200).optional().describe('items per page (default 50)'),
    cursor: cursor.optional(),
  }),
  annotations: READ,
  run: async (a, { access }) => {
    const status = (a.status ?? 'pending').toUpperCase() as 'PENDING' | 'DONE' | 'ALL';
    const window = timeWindow(a.since, a.until);
    const f = fingerprint([
      'list_action_items',
      status,
      a.mine ?? null,
      a.meetingId ?? null,
      a.attendee ?? null,
      a.assignee ?? null,
      window.since ?? null,
      window.until ?? null,
      a.query ?? null,
    ]);
    const key = decodeCursor<ItemKey>(a.cursor, f, isItemKey);
    return access.read(async (r) => {
      const listed = await ops.listActionItems(r.mirror, {
        // Everyone's items unless mine or assignee says otherwise (the service's default is Me).
        assigneeType: 'Anyone',
        status,
        mine: a.mine,
        meetingId: a.meetingId,
        attendee: a.attendee,
        assignee: a.assignee,
        since: window.since,
        until: window.until,
        query: a.query,
      });
      // Keyset: only the items after the last one of the previous page.
      const after = key && idSortKey(key.id);
      const limit = a.limit ?? 50;
      // By ID, the order the service made them in, which no sync or write reorders: the position
      // in the service's listing moves with every item created or deleted before it. One more
      // than the page, to know whether more follow.
      const chosen = firstByKey(
        (function* () {
          for (const l of listed) {
            const order = idSortKey(String(l.item.id));
            if (after === undefined || order > after) yield { order, listed: l };
          }
        })(),
        limit + 1,
        (c) => c.order,
      );
      const { page, more, last } = takePage(chosen, {
        limit,
        map: (c) => ({ ...c.listed.item, mine: c.listed.mine, meetings: c.listed.meetings }) as Obj,
        shorten: shortenItem,
      });
      const result: Obj = { actionItems: page };
      if (more && last) result.nextCursor = encodeCursor(f, { id: String(last.listed.item.id) });
      return ok(result);
    });
  },
});

/** An action item too large to send whole: its longest texts cut, marked with where to read it. */
function shortenItem(item: Obj, room: number): Obj {
  const id = String(item.id);
  return {
    ...shortenStrings(item, room - 300),
    truncated: true,
    readWhole: `long texts were cut; read the item whole with sql: SELECT json FROM action_items WHERE id = '${id.replaceAll("'", "''")}' (in pieces with substr())`,
  };
}
