// zod schemas of every resource of the spec (section 2) and of the error envelope (section 7).
// TypeScript types are inferred from these, never written twice. Objects are parsed loosely
// (unknown fields pass) — see TOLERATE_UNKNOWN_RESPONSE_FIELDS in assumptions.ts.
import { z } from 'zod';
import { ACTION_ITEM_STATUSES } from './assumptions.js';

const dateTime = z.iso.datetime({ offset: true });
const positiveInt = z.number().int().positive();
const positiveNumber = z.number().positive();

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

export const ActionItemStatus = z.enum(ACTION_ITEM_STATUSES);

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
  timestamp: z.number().nullable(),
  insight: z.union([
    z.string(),
    z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  ]),
});

export const CalendarEvent = z.looseObject({
  id: z.number().int(),
  icalUid: z.string(),
  description: z.string(),
  platform: z.string(),
  platformId: z.string(),
});

export const SharedWith = z.looseObject({
  profileId: z.number().optional(),
  name: z.string(),
  access: z.string(),
  email: z.string().optional(),
  teamId: z.number().int().optional(),
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
  duration: z.number().nullable(),
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
  id: z.number().int(),
  title: z.string().nullable(),
  companyId: z.number().int().nullable(),
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
  timestamp: z.number(),
});

export const ErrorIssue = z.looseObject({ message: z.string(), path: z.string() });

export const ErrorEnvelope = z.looseObject({
  code: z.string(),
  error: z.string(),
  seatsToAdd: z.number().int().optional(),
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
