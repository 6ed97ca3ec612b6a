// Strict zod schemas of request bodies: the spec's fields plus the choices in assumptions.ts.
// Unknown fields are errors (strictObject).
import { z } from 'zod';
import {
  type ACTION_ITEM_CREATE_FIELDS,
  ACTION_ITEM_STATUSES,
  type ACTION_ITEM_UPDATE_FIELDS,
  SHARE_ACCESS_VALUES,
  SHARE_MAX_TARGETS,
  TAG_APPLY_MEETINGS_FIELD,
} from '../api/assumptions.js';

const positiveInt = z.number().int().positive();
const nonBlank = z.string().refine((s) => s.trim() !== '', 'must not be blank');

export const CalendarMeetingBody = z.strictObject({
  privateNotes: z.string().optional(),
  tagIds: z.array(positiveInt).optional(),
});

const actionItemCreateShape = {
  title: nonBlank,
  description: z.string().optional(),
  assigneeProfileId: positiveInt.nullable().optional(),
} satisfies Record<(typeof ACTION_ITEM_CREATE_FIELDS)[number], z.ZodType>;
export const ActionItemCreateBody = z.strictObject(actionItemCreateShape);

const actionItemUpdateShape = {
  title: nonBlank.optional(),
  description: z.string().optional(),
  status: z.enum(ACTION_ITEM_STATUSES).optional(),
  assigneeProfileId: positiveInt.nullable().optional(),
} satisfies Record<(typeof ACTION_ITEM_UPDATE_FIELDS)[number], z.ZodType>;
export const ActionItemUpdateBody = z.strictObject(actionItemUpdateShape);

export const TagCreateBody = z.strictObject({
  name: nonBlank,
  description: z.string().optional(),
});

export const TagUpdateBody = z.strictObject({
  name: nonBlank.optional(),
  description: z.string().nullable().optional(),
});

export const TagApplyBody = z.strictObject({
  tagId: positiveInt,
  [TAG_APPLY_MEETINGS_FIELD]: z.array(nonBlank).min(1),
});

/** `{email, access}` for a person or `{teamId, access}` for a team — exactly one of the two. */
const ShareTarget = z
  .strictObject({
    email: z.string().optional(),
    teamId: positiveInt.optional(),
    access: z.enum(SHARE_ACCESS_VALUES),
  })
  .superRefine((t, ctx) => {
    if ((t.email === undefined) === (t.teamId === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'give exactly one of email or teamId', path: [] });
    }
  });

export const ShareBody = z
  .array(ShareTarget)
  .min(1, 'must list at least 1 share target')
  .max(SHARE_MAX_TARGETS, `must list at most ${SHARE_MAX_TARGETS} share targets`);
