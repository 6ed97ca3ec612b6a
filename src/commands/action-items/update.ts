// mtg action-items update: one or many action items, concurrently within the rate limit.

import { ACTION_ITEM_STATUSES, type ActionItemStatus } from '../../api/assumptions.js';
import { updateActionItemRequest } from '../../api/endpoints.js';
import { NO_BODY, runBulkCommand } from '../../cli/bulk.js';
import type { Context } from '../../cli/context.js';
import { isDryRun, printDryRun } from '../../cli/dry-run.js';
import { type ExactId, oneOf, readStdinIds } from '../../cli/input.js';
import { defineRun, type OptsFor } from '../../cli/spec.js';
import {
  type ActionItemPatch,
  actionItemUpdateBody,
  updateActionItem,
} from '../../ops/update-action-item.js';
import { UsageError } from '../../shared/errors.js';
import { exactId, uniqueExactIds } from '../../shared/ids.js';
import * as spec from './spec.js';

/** The fields the flags change (each parsed as the flags spell it); the body is the operation's. */
function patchOf(opts: OptsFor<typeof spec.update>): ActionItemPatch {
  const { title, description, status, assignee } = opts;
  return {
    title,
    description,
    status:
      status === undefined ? undefined : oneOf<ActionItemStatus>(status, ACTION_ITEM_STATUSES, '--status'),
    assignee:
      assignee === undefined
        ? undefined
        : assignee.trim().toLowerCase() === 'none'
          ? null
          : exactId(assignee, '--assignee'),
  };
}

/** IDs from the arguments and --stdin, validated, duplicates dropped (first occurrence kept). */
async function actionItemIds(ctx: Context, args: string[], fromStdin: boolean): Promise<ExactId[]> {
  const raw = [...args, ...(fromStdin ? await readStdinIds(ctx.io.in, 'action item IDs') : [])];
  const ids = uniqueExactIds(raw, 'action item ID');
  if (ids.length === 0) {
    throw new UsageError('no action item IDs given: pass them as arguments or pipe them in with --stdin');
  }
  return ids;
}

const noun = (n: number) => (n === 1 ? 'action item' : 'action items');

export const run = defineRun(spec.update, async (ctx, args, opts) => {
  const patch = patchOf(opts);
  const body = actionItemUpdateBody(patch); // exit 2 before the IDs are read
  const ids = await actionItemIds(ctx, args.ID, opts.stdin);
  if (isDryRun(opts))
    return printDryRun(
      ctx,
      ids.map((id) => updateActionItemRequest(id, body)),
    );
  const client = await ctx.client();
  return runBulkCommand(ctx, {
    items: ids,
    resource: 'updatedActionItem',
    worker: async (id) => ({ id, item: (await updateActionItem(async () => client, id, patch)).item }),
    // A 2xx with no body was applied: what is known is the ID.
    printed: (r) => [r.item ?? { id: r.id }],
    keys: (id) => [{ id }],
    failureLine: (id, _index, message) => `action item ${id}: ${message}`,
    progressText: (settled) => `Updated ${settled} of ${ids.length} ${noun(ids.length)}`,
    summaryLine: (s, applied) => {
      const bodiless = applied.filter((r) => r.item === undefined).length;
      const line =
        `Updated ${s.ok} of ${s.total} ${noun(s.total)}${s.failed ? `; ${s.failed} failed` : ''}` +
        (s.notSent ? `; ${s.notSent} not sent` : '') +
        (bodiless ? ` (${NO_BODY} for ${bodiless})` : '');
      return s.skipped
        ? `Interrupted: ${line[0]!.toLowerCase()}${line.slice(1)}; ${s.skipped} not done`
        : line;
    },
  });
});
