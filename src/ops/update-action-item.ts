// Changing one action item: the update body built once from named fields (what `mtg action-items
// update` and `mtg mcp`'s update_action_item both send), and the one request. Each adapter parses
// its own spelling of the fields (flags, tool arguments) and words the typed errors.

import type { ActionItemStatus } from '../api/assumptions.js';
import type { ApiClient } from '../api/client.js';
import * as E from '../api/endpoints.js';
import type * as S from '../api/schemas.js';
import type { ExactId } from '../shared/exact.js';
import { EmptyArgumentError, NothingToUpdateError } from './errors.js';

export interface ActionItemPatch {
  title?: string;
  description?: string;
  status?: ActionItemStatus;
  /** A profile ID; null: nobody. */
  assignee?: ExactId | null;
}

/** The fields an update may change, in the order errors list them. */
export const PATCH_FIELDS = ['title', 'description', 'status', 'assignee'] as const;

/** The request body of `patch`; an empty title or nothing to change is a typed usage error. */
export function actionItemUpdateBody(patch: ActionItemPatch): E.ActionItemUpdateBody {
  const body: E.ActionItemUpdateBody = {};
  if (patch.title !== undefined) {
    if (patch.title.trim() === '') throw new EmptyArgumentError('title');
    body.title = patch.title;
  }
  if (patch.description !== undefined) body.description = patch.description;
  if (patch.status !== undefined) body.status = patch.status;
  if (patch.assignee !== undefined) body.assigneeProfileId = patch.assignee;
  if (Object.keys(body).length === 0) throw new NothingToUpdateError(PATCH_FIELDS);
  return body;
}

/**
 * One update, sent once (paced by the client's limiter); the item as the service returned it. The
 * client is asked for only once the patch is known to change something.
 */
export async function updateActionItem(
  client: () => Promise<ApiClient>,
  id: ExactId,
  patch: ActionItemPatch,
): Promise<{ item: S.UpdatedActionItem | undefined; body: E.ActionItemUpdateBody }> {
  const body = actionItemUpdateBody(patch);
  return { item: await E.updateActionItem(await client(), id, body), body };
}
