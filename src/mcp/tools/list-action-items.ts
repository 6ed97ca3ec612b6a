// `list_action_items`: the mirror's action items by ID (the order the service made them), each as
// the service sent it plus `mine`.

import { z } from 'zod';
import {
  decodeCursor,
  encodeCursor,
  fingerprint,
  type ItemKey,
  idSortKey,
  isItemKey,
  shortenStrings,
  takePage,
} from '../paging.js';
import { cursor, defineTool, type Obj, ok, oneOf, READ, text, unknownMeeting, wholeIn } from './define.js';

export const listActionItems = defineTool({
  name: 'list_action_items',
  title: 'List action items',
  description:
    'Action items stored in the mirror, by ID (the order they were made), each exactly as the service ' +
    "sent it plus mine (true when it is the user's own): {actionItems: [...]}. status pending (default), " +
    "done or all; mine true for only the user's own, false for everyone else's; meetingId for one " +
    "meeting's. More: pass nextCursor back.",
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
    limit: wholeIn('limit', 1, 200).optional().describe('items per page (default 50)'),
    cursor: cursor.optional(),
  }),
  annotations: READ,
  run: async (a, { access }) => {
    const status = (a.status ?? 'pending').toUpperCase() as 'PENDING' | 'DONE' | 'ALL';
    const f = fingerprint(['list_action_items', status, a.mine ?? null, a.meetingId ?? null]);
    const key = decodeCursor<ItemKey>(a.cursor, f, isItemKey);
    return access.read(async (r) => {
      if (a.meetingId !== undefined && !(await r.meeting(a.meetingId))) throw unknownMeeting(a.meetingId);
      const mine = r.mineIds();
      // Keyset: only the items after the last one of the previous page.
      const after = key && idSortKey(key.id);
      const chosen: { order: string; item: Obj; mine: boolean }[] = [];
      for (const item of (await r.actionItems(status, a.mine === true)) as Iterable<Obj>) {
        const id = String(item.id);
        const order = idSortKey(id);
        if (after !== undefined && order <= after) continue;
        const isMine = mine.has(id);
        if (a.mine === false && isMine) continue;
        if (a.meetingId !== undefined) {
          const ids = (Array.isArray(item.meetingIds) ? item.meetingIds : []).map(String);
          if (!ids.includes(a.meetingId)) continue;
        }
        chosen.push({ order, item, mine: isMine });
      }
      // By ID, the order the service made them in, which no sync or write reorders: the position
      // in the service's listing moves with every item created or deleted before it.
      chosen.sort((x, y) => (x.order < y.order ? -1 : x.order > y.order ? 1 : 0));
      const { page, more, last } = takePage(
        chosen,
        0,
        a.limit ?? 50,
        (c) => ({ ...c.item, mine: c.mine }) as Obj,
        shortenItem,
      );
      const result: Obj = { actionItems: page };
      if (more && last) result.nextCursor = encodeCursor(f, { id: String(last.item.id) });
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
