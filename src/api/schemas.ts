// zod schemas of every resource of the spec (section 2) and of the error envelope (section 7).
// TypeScript types are inferred from these, never written twice. Objects are parsed loosely: a
// response may carry fields the spec does not list; the fields we know are validated and the object
// passes through unchanged (json/ndjson print exactly what the server sent), so a server that adds
// a field does not break older clients.
import { z } from 'zod';
import { isExactInteger, isNonNegativeExactInteger } from './exact-checks.js';
import { UNLISTED_BY_SCHEMA, type UnlistedCheck, unlistedInEach } from './unlisted.js';

export type { UnlistedCheck } from './unlisted.js';

const dateTime = z.iso.datetime({ offset: true });

// Number fields also take an integer beyond 2^53 (an ExactInteger from parseJsonExact, exact.ts):
// a larger ID is not a breaking change. The union tries the plain number first (one typeof in the
// compiled validator). Typed as number: such a value prints and interpolates as its digits.
// (Named functions: the build's generated validators call these same ones, scripts/validators.ts.)
const anyInteger = z.custom<number>(isExactInteger);
const unsignedInteger = z.custom<number>(isNonNegativeExactInteger);
const num = () => z.union([z.number(), anyInteger]);
const int = () => z.union([z.number().int(), anyInteger]);
const positiveInt = z.union([z.number().int().positive(), unsignedInteger]);
const positiveNumber = z.union([z.number().positive(), unsignedInteger]);

export const Tag = z.looseObject({
  id: positiveInt,
  name: z.string(),
  description: z.string().nullable(),
});

export const Attendee = z.looseObject({
  profileId: positiveNumber,
  name: z.string().nullable(),
  title: z.string().nullable(),
  companyName: z.string().nullable(),
  email: z.string().nullable(),
  isCalendarEventOrganizer: z.boolean(),
  isCalendarInvitee: z.boolean(),
});

export const Assignee = z.looseObject({
  profileId: positiveNumber,
  name: z.string().nullable(),
  title: z.string().nullable(),
  companyName: z.string().nullable(),
  email: z.string().nullable(),
});

// Enum fields are open: a value the spec does not list passes validation (an additive change must
// not stop an export) and is reported once per run by the client (unlistedValue below).
export const ActionItemStatus = z.string();

/** The form nested in a meeting. */
export const NestedActionItem = z.looseObject({
  id: positiveNumber,
  title: z.string(),
  description: z.string(),
  assignee: Assignee.nullable(),
  status: ActionItemStatus,
});

/** GET /action-items entries. */
export const ActionItem = NestedActionItem.extend({
  meetingIds: z.array(z.string()),
});

/** POST /action-items response. */
export const CreatedActionItem = ActionItem.extend({
  canEditActionItem: z.boolean(),
  completedAt: dateTime.nullable().optional(),
  meetings: z.array(z.looseObject({ id: z.string(), name: z.string().nullable(), createdAt: dateTime })),
});

/** PUT /action-item/{id} response: the spec shows no assignee. */
export const UpdatedActionItem = z.looseObject({
  id: positiveNumber,
  title: z.string(),
  description: z.string(),
  status: ActionItemStatus,
  meetingIds: z.array(z.string()),
  assignee: Assignee.nullable().optional(),
});

export const InsightResult = z.looseObject({
  speaker: z.string().nullable(),
  timestamp: num().nullable(),
  insight: z.union([z.string(), z.record(z.string(), z.union([z.string(), num(), z.boolean(), z.null()]))]),
});

export const CalendarEvent = z.looseObject({
  id: int(),
  icalUid: z.string(),
  description: z.string(),
  platform: z.string(),
  platformId: z.string(),
});

export const SharedWith = z.looseObject({
  profileId: num().optional(),
  name: z.string(),
  access: z.string(),
  email: z.string().optional(),
  teamId: int().optional(),
});

export const ShareError = z.looseObject({
  error: z.string(),
  index: z.number().int().nonnegative(),
});

export const Meeting = z.looseObject({
  id: z.string(),
  name: z.string().nullable(),
  createdAt: dateTime,
  updatedAt: dateTime,
  duration: num().nullable(),
  url: z.string().nullable(),
  // "Present only when saving recordings is enabled in settings."
  recordingUrl: z.string().nullable().optional(),
  tags: z.array(Tag),
  icalUid: z.string().nullable(),
  attendees: z.array(Attendee),
  notes: z.string().nullable(),
  privateNotes: z.string(),
  actionItems: z.array(NestedActionItem),
  insights: z.record(z.string(), z.array(InsightResult)),
  linkAccess: z.string().nullable(),
  calendarEvent: CalendarEvent.nullable().optional(),
  sharedWith: z.array(SharedWith).optional(),
  errors: z.array(ShareError).optional(),
});

export const Person = z.looseObject({
  id: int(),
  title: z.string().nullable(),
  companyId: int().nullable(),
  companyName: z.string().nullable(),
  email: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
});

export const CompanySummary = z.looseObject({
  name: z.string(),
  avatarUrl: z.string().nullable(),
  domain: z.string(),
});

export const ExternalLink = z.looseObject({ url: z.string(), objectType: z.string(), type: z.string() });

export const CompanyDetail = CompanySummary.extend({
  externalLinks: z.array(ExternalLink),
  people: z.array(Person),
});

export const TranscriptEntry = z.looseObject({
  speaker: z.string(),
  text: z.string(),
  timestamp: num(),
});

export const ErrorIssue = z.looseObject({ message: z.string(), path: z.string() });

export const ErrorEnvelope = z.looseObject({
  code: z.string(),
  error: z.string(),
  seatsToAdd: int().optional(),
  issues: z.array(ErrorIssue).optional(),
});

export type Tag = z.infer<typeof Tag>;
export type Attendee = z.infer<typeof Attendee>;
export type Assignee = z.infer<typeof Assignee>;
export type NestedActionItem = z.infer<typeof NestedActionItem>;
export type ActionItem = z.infer<typeof ActionItem>;
export type CreatedActionItem = z.infer<typeof CreatedActionItem>;
export type UpdatedActionItem = z.infer<typeof UpdatedActionItem>;
export type InsightResult = z.infer<typeof InsightResult>;
export type CalendarEvent = z.infer<typeof CalendarEvent>;
export type SharedWith = z.infer<typeof SharedWith>;
export type ShareError = z.infer<typeof ShareError>;
export type Meeting = z.infer<typeof Meeting>;
export type Person = z.infer<typeof Person>;
export type CompanySummary = z.infer<typeof CompanySummary>;
export type CompanyDetail = z.infer<typeof CompanyDetail>;
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
export type ExternalLink = z.infer<typeof ExternalLink>;
export type ErrorIssue = z.infer<typeof ErrorIssue>;

// ---- Arrays, and enum values the spec does not list ---------------------------------------------

/**
 * The schema of an array of `item`, compiled (about 2 ms): zod generates a validator for this exact
 * shape, about 3x faster than its interpreter on every page. In the built CLI, endpoints.ts and
 * paginate.ts get validators generated at build time instead (scripts/validators.ts).
 */
export function arrayOf<T extends z.ZodType>(item: T): z.ZodArray<T> {
  return z.compile(z.array(item));
}

const names = new Map<z.ZodType, string>(
  Object.entries({ NestedActionItem, ActionItem, CreatedActionItem, UpdatedActionItem, Meeting }).map(
    ([name, schema]) => [schema, name],
  ),
);

/** The check for one object of `schema`, or undefined when it has no enum fields. */
export function unlistedCheck(schema: z.ZodType): UnlistedCheck | undefined {
  const name = names.get(schema);
  return name === undefined ? undefined : UNLISTED_BY_SCHEMA[name];
}

/** The check for an array of `item`: the first unlisted value among its elements. */
export function unlistedInArray(item: z.ZodType): UnlistedCheck | undefined {
  const check = unlistedCheck(item);
  return check && unlistedInEach(check);
}
