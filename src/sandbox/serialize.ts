// Internal records -> the API's response shapes (spec section 2). Built per response, never cached,
// so a mutation is visible at once and nothing heavy is pre-serialized at start.
import type {
  ActionItem,
  Assignee,
  CompanyDetail,
  CompanySummary,
  CreatedActionItem,
  Meeting,
  Person,
  ShareError,
  UpdatedActionItem,
} from '../api/schemas.js';
import { fullName } from './data.js';
import type { ActionItemRec, CompanyRec, MeetingRec, ProfileRec, Store } from './model.js';

const iso = (ms: number): string => new Date(ms).toISOString();

function companyName(store: Store, p: ProfileRec): string | null {
  return p.companyId === null ? null : (store.companiesById.get(p.companyId)?.name ?? null);
}

export function assignee(store: Store, profileId: number | null): Assignee | null {
  if (profileId === null) return null;
  const p = store.profiles.get(profileId);
  if (!p) return null;
  return {
    profileId: p.id,
    name: fullName(p),
    title: p.title,
    companyName: companyName(store, p),
    email: p.email,
  };
}

export function person(store: Store, p: ProfileRec): Person {
  return {
    id: p.id,
    title: p.title,
    companyId: p.companyId,
    companyName: companyName(store, p),
    email: p.email,
    firstName: p.firstName,
    lastName: p.lastName,
  };
}

export function companySummary(c: CompanyRec): CompanySummary {
  return { name: c.name, avatarUrl: c.avatarUrl, domain: c.domain };
}

export function companyDetail(store: Store, c: CompanyRec): CompanyDetail {
  return {
    ...companySummary(c),
    externalLinks: c.externalLinks.map((l) => ({ ...l })),
    people: store.people.filter((p) => p.companyId === c.id).map((p) => person(store, p)),
  };
}

export function actionItem(store: Store, a: ActionItemRec): ActionItem {
  return {
    id: a.id,
    title: a.title,
    description: a.description,
    assignee: assignee(store, a.assigneeId),
    status: a.status,
    meetingIds: [...a.meetingIds],
  };
}

export function createdActionItem(store: Store, a: ActionItemRec): CreatedActionItem {
  return {
    id: a.id,
    title: a.title,
    description: a.description,
    assignee: assignee(store, a.assigneeId),
    canEditActionItem: true,
    completedAt: a.completedAt === null ? null : iso(a.completedAt),
    status: a.status,
    meetingIds: [...a.meetingIds],
    meetings: a.meetingIds.flatMap((id) => {
      const m = store.meetingsById.get(id);
      return m ? [{ id: m.id, name: m.name, createdAt: iso(m.createdAt) }] : [];
    }),
  };
}

/** The update response shape in the spec shows no assignee, so none is sent. */
export function updatedActionItem(a: ActionItemRec): UpdatedActionItem {
  return {
    id: a.id,
    title: a.title,
    description: a.description,
    status: a.status,
    meetingIds: [...a.meetingIds],
  };
}

export interface MeetingShape {
  /** sharedWith is present on calendar, share, search (and list) responses; absent from PUT /tag. */
  sharedWith: boolean;
  errors?: ShareError[];
}

export function meeting(store: Store, m: MeetingRec, shape: MeetingShape): Meeting {
  const out: Meeting = {
    id: m.id,
    name: m.name,
    createdAt: iso(m.createdAt),
    updatedAt: iso(m.updatedAt),
    duration: m.duration,
    url: m.url,
    // Absent, not null, when recordings are disabled ("present only when ... enabled").
    ...(m.recordingUrl !== undefined && { recordingUrl: m.recordingUrl }),
    tags: m.tagIds.flatMap((id) => {
      const t = store.tags.get(id);
      return t ? [{ id: t.id, name: t.name, description: t.description }] : [];
    }),
    icalUid: m.icalUid,
    // flatMap: a meeting deleted by churn may still be served from a page snapshot after one of its
    // attendees was removed.
    attendees: m.attendees.flatMap((a) => {
      const p = store.profiles.get(a.profileId);
      if (!p) return [];
      return {
        profileId: p.id,
        name: fullName(p),
        title: p.title,
        companyName: companyName(store, p),
        email: a.showEmail ? p.email : null,
        isCalendarEventOrganizer: a.isCalendarEventOrganizer,
        isCalendarInvitee: a.isCalendarInvitee,
      };
    }),
    notes: m.notes,
    privateNotes: m.privateNotes,
    actionItems: m.actionItemIds.flatMap((id) => {
      const a = store.actionItemsById.get(id);
      if (!a) return [];
      return [
        {
          id: a.id,
          title: a.title,
          description: a.description,
          assignee: assignee(store, a.assigneeId),
          status: a.status,
        },
      ];
    }),
    insights: m.insights,
    linkAccess: m.linkAccess,
    calendarEvent: m.calendarEvent ? { ...m.calendarEvent } : null,
  };
  if (shape.sharedWith) out.sharedWith = m.sharedWith.map((s) => ({ ...s }));
  if (shape.errors) out.errors = shape.errors;
  return out;
}
