// GET/POST /action-items and PUT /action-item/{id}.
import {
  ACTION_ITEM_DEFAULT_STATUS_FILTER,
  ACTION_ITEM_STATUS_FILTERS,
  ASSIGNEE_TYPES,
  CREATED_STATUS,
} from '../../api/assumptions.js';
import { ActionItemCreateBody, ActionItemUpdateBody } from '../bodies.js';
import { notFound, validationError } from '../errors.js';
import type { ActionItemRec, Store } from '../model.js';
import { actionItem, createdActionItem, updatedActionItem } from '../serialize.js';
import { parseBody, parseQuery, positiveIntParam } from '../validate.js';
import { type Ctx, list, meetingFilter, ok, type Reply, touch } from './context.js';

const LIST_QUERY = {
  cursor: { kind: 'string' },
  assigneeType: { kind: 'enum', values: ASSIGNEE_TYPES },
  assigneeProfileId: { kind: 'posInt' },
  assigneeTeamId: { kind: 'posInt' },
  status: { kind: 'enum', values: ACTION_ITEM_STATUS_FILTERS },
  attendeeProfileIds: { kind: 'posIntArray' },
  tagIds: { kind: 'posIntArray' },
} as const;

function assigneePredicate(store: Store, type: string, profileId?: number): (a: ActionItemRec) => boolean {
  const inWorkspace = (id: number) => store.profiles.get(id)?.companyId === store.workspaceCompanyId;
  switch (type) {
    case 'Me':
      return (a) => a.assigneeId === store.meId;
    case 'NotMe':
      return (a) => a.assigneeId !== null && a.assigneeId !== store.meId;
    case 'Profile':
      return (a) => a.assigneeId === profileId;
    case 'MyWorkspace':
      return (a) => a.assigneeId !== null && inWorkspace(a.assigneeId);
    case 'OutsideMyWorkspace':
      return (a) => a.assigneeId !== null && !inWorkspace(a.assigneeId);
    case 'Unassigned':
      return (a) => a.assigneeId === null;
    default:
      return () => true;
  }
}

/**
 * GET /action-items as the service answers it. The filters are described once for mtg
 * (src/api/action-item-filter.ts: the service's part is ServiceActionItemFilter), but this is the
 * server's side of them: it judges the query string (validation errors as the spec words them)
 * and filters its own records (profile IDs, teams, the workspace's members: what the mirror never
 * holds), so it keeps its own implementation of the spec's semantics rather than mtg's SQL. The
 * same table of cases checks it and the mirror (test/api/action-item-filter.test.ts).
 */
export function listActionItems(ctx: Ctx): Reply {
  const q = parseQuery(ctx.query, LIST_QUERY);
  const type = q.assigneeType ?? 'Me';
  if (type === 'Profile' && q.assigneeProfileId === undefined) {
    throw validationError([
      { path: 'assigneeProfileId', message: 'is required when assigneeType is Profile' },
    ]);
  }
  if (type !== 'Profile' && q.assigneeProfileId !== undefined) {
    throw validationError([
      { path: 'assigneeProfileId', message: 'is only allowed with assigneeType=Profile' },
    ]);
  }
  const { store } = ctx;
  const page = ctx.pages.page({
    route: 'GET /action-items',
    pathname: ctx.pathname,
    query: ctx.query,
    version: store.version,
    compute: () => {
      const byAssignee = assigneePredicate(store, type, q.assigneeProfileId);
      const status = q.status ?? ACTION_ITEM_DEFAULT_STATUS_FILTER;
      const team =
        q.assigneeTeamId === undefined ? undefined : new Set(store.teams.get(q.assigneeTeamId)?.memberIds);
      const meetings = meetingFilter(store, q);
      return store.actionItems.filter(
        (a) =>
          (status === 'ALL' || a.status === status) &&
          byAssignee(a) &&
          (!team || (a.assigneeId !== null && team.has(a.assigneeId))) &&
          (!meetings || a.meetingIds.some((id) => meetings.has(id))),
      );
    },
  });
  return list(page, (a) => actionItem(store, a));
}

function checkAssignee(store: Store, id: number | null | undefined): void {
  if (id !== undefined && id !== null && !store.profiles.has(id)) {
    throw validationError([{ path: 'assigneeProfileId', message: `no profile with id ${id}` }]);
  }
}

export function createActionItem(ctx: Ctx): Reply {
  parseQuery(ctx.query, {});
  const body = parseBody(ActionItemCreateBody, ctx.body);
  const { store } = ctx;
  checkAssignee(store, body.assigneeProfileId);
  const item: ActionItemRec = {
    id: store.nextIds.actionItem++,
    title: body.title,
    description: body.description ?? '',
    // Owned by the authenticated user: assigned to them unless the body says otherwise (null = nobody).
    assigneeId: body.assigneeProfileId === undefined ? store.meId : body.assigneeProfileId,
    status: 'PENDING',
    completedAt: null,
    meetingIds: [],
  };
  store.actionItems.push(item);
  store.actionItemsById.set(item.id, item);
  touch(store);
  return ok(createdActionItem(store, item), CREATED_STATUS);
}

export function updateActionItem(ctx: Ctx): Reply {
  parseQuery(ctx.query, {});
  const id = positiveIntParam(ctx.params.actionItemId!, 'actionItemId');
  const body = parseBody(ActionItemUpdateBody, ctx.body);
  const { store } = ctx;
  const item = store.actionItemsById.get(id);
  if (!item) throw notFound(`Action item ${id} not found`);
  checkAssignee(store, body.assigneeProfileId);
  if (body.title !== undefined) item.title = body.title;
  if (body.description !== undefined) item.description = body.description;
  if (body.assigneeProfileId !== undefined) item.assigneeId = body.assigneeProfileId;
  if (body.status !== undefined && body.status !== item.status) {
    item.status = body.status;
    item.completedAt = body.status === 'DONE' ? ctx.now : null;
  }
  touch(store);
  return ok(updatedActionItem(item));
}
