// POST /tag, PUT /tag/{id} and PUT /tag (apply a tag to meetings).
import { CREATED_STATUS, TAG_APPLY_MEETINGS_FIELD } from '../../api/assumptions.js';
import { TagApplyBody, TagCreateBody, TagUpdateBody } from '../bodies.js';
import { ApiError, notFound } from '../errors.js';
import type { Store, TagRec } from '../model.js';
import { meeting } from '../serialize.js';
import { parseBody, parseQuery, positiveIntParam } from '../validate.js';
import { bumpUpdatedAt, type Ctx, ok, type Reply, touch } from './context.js';

const tagJson = (t: TagRec) => ({ id: t.id, name: t.name, description: t.description });

/** Names are unique (spec 2.2); compared exactly, as the spec says nothing about case. */
function assertNameFree(store: Store, name: string, exceptId?: number): void {
  for (const t of store.tags.values()) {
    if (t.name === name && t.id !== exceptId) {
      throw new ApiError(409, `A tag named "${name}" already exists (id ${t.id})`);
    }
  }
}

export function createTag(ctx: Ctx): Reply {
  parseQuery(ctx.query, {});
  const body = parseBody(TagCreateBody, ctx.body);
  const { store } = ctx;
  assertNameFree(store, body.name);
  const tag: TagRec = { id: store.nextIds.tag++, name: body.name, description: body.description ?? null };
  store.tags.set(tag.id, tag);
  touch(store);
  return ok(tagJson(tag), CREATED_STATUS);
}

export function updateTag(ctx: Ctx): Reply {
  parseQuery(ctx.query, {});
  const id = positiveIntParam(ctx.params.tagId!, 'tagId');
  const body = parseBody(TagUpdateBody, ctx.body);
  const { store } = ctx;
  const tag = store.tags.get(id);
  if (!tag) throw notFound(`Tag ${id} not found`);
  if (body.name !== undefined) {
    assertNameFree(store, body.name, id);
    tag.name = body.name;
  }
  if (body.description !== undefined) tag.description = body.description;
  touch(store);
  return ok(tagJson(tag));
}

export function applyTag(ctx: Ctx): Reply {
  parseQuery(ctx.query, {});
  const body = parseBody(TagApplyBody, ctx.body);
  const { store } = ctx;
  if (!store.tags.has(body.tagId)) throw notFound(`Tag ${body.tagId} not found`);
  const ids = [...new Set(body[TAG_APPLY_MEETINGS_FIELD])];
  const missing = ids.filter((id) => !store.meetingsById.has(id));
  // All or nothing: an unknown meeting fails the request before any meeting is changed.
  if (missing.length > 0) throw notFound(`Meeting(s) not found: ${missing.join(', ')}`);
  const meetings = ids.map((id) => store.meetingsById.get(id)!);
  for (const m of meetings) {
    if (!m.tagIds.includes(body.tagId)) {
      m.tagIds.push(body.tagId);
      bumpUpdatedAt(m, ctx.now);
    }
  }
  touch(store);
  return ok(meetings.map((m) => meeting(store, m, { sharedWith: false })));
}
