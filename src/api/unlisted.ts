// Enum values the spec does not list: found in a valid body and reported once per run by the
// client (an additive change must not stop an export). By schema name, so that both the zod
// schemas (schemas.ts) and the validators the build generates from them (scripts/validators.ts)
// use these same checks.
import { ACTION_ITEM_STATUSES, LINK_ACCESS_SEEN, SHARE_ACCESS_SEEN } from './assumptions.js';

/** Describes the first enum value in a response that the spec does not list (`status "X"`). */
export type UnlistedCheck = (data: unknown) => string | undefined;

const listed = (values: readonly string[]) => {
  const set = new Set<string>(values);
  return (field: string, value: unknown) =>
    typeof value === 'string' && !set.has(value) ? `${field} "${value}"` : undefined;
};
const statusListed = listed(ACTION_ITEM_STATUSES);
const accessListed = listed(SHARE_ACCESS_SEEN);
const linkAccessListed = listed(LINK_ACCESS_SEEN);

type Loose = Record<string, unknown>;
const asObject = (v: unknown): Loose | undefined => (v && typeof v === 'object' ? (v as Loose) : undefined);

const actionItemUnlisted: UnlistedCheck = (v) => statusListed('status', asObject(v)?.status);

const meetingUnlisted: UnlistedCheck = (v) => {
  const m = asObject(v);
  if (!m) return undefined;
  const found = linkAccessListed('linkAccess', m.linkAccess);
  if (found) return found;
  for (const a of Array.isArray(m.actionItems) ? m.actionItems : []) {
    const f = statusListed('actionItems[].status', asObject(a)?.status);
    if (f) return f;
  }
  for (const s of Array.isArray(m.sharedWith) ? m.sharedWith : []) {
    const f = accessListed('sharedWith[].access', asObject(s)?.access);
    if (f) return f;
  }
  return undefined;
};

/** The check for one object of the named schema; absent when it has no enum fields. */
export const UNLISTED_BY_SCHEMA: Readonly<Record<string, UnlistedCheck>> = {
  NestedActionItem: actionItemUnlisted,
  ActionItem: actionItemUnlisted,
  CreatedActionItem: actionItemUnlisted,
  UpdatedActionItem: actionItemUnlisted,
  Meeting: meetingUnlisted,
};

/** The check for an array of elements that `check` inspects: the first unlisted value among them. */
export function unlistedInEach(check: UnlistedCheck): UnlistedCheck {
  return (data) => {
    if (!Array.isArray(data)) return undefined;
    for (const element of data) {
      const found = check(element);
      if (found) return found;
    }
    return undefined;
  };
}
