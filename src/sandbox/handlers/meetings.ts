// GET /meetings, GET /search, GET /meeting/{id}/transcript, PUT /meeting/{id}/share and
// PUT /calendar/events/{id}/meeting.
import type { z } from 'zod';
import type { ShareError } from '../../api/schemas.js';
import { CalendarMeetingBody, ShareBody } from '../bodies.js';
import { fullName } from '../data.js';
import { notFound, validationError } from '../errors.js';
import type { MeetingRec, ProfileRec, Store } from '../model.js';
import { meeting } from '../serialize.js';
import { parseBody, parseQuery } from '../validate.js';
import { bumpUpdatedAt, type Ctx, list, meetingFilter, ok, type Reply, touch } from './context.js';

const MAX_ID_LENGTH = 200;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Addresses at these domains fail per target ("unknown email domain"), to exercise partial failure. */
const UNKNOWN_DOMAIN_RE = /(^|\.)invalid(\.example)?$/i;

function findMeeting(store: Store, id: string): MeetingRec {
  const m = store.meetingsById.get(id);
  if (!m) throw notFound(`Meeting ${id} not found`);
  return m;
}

export function listMeetings(ctx: Ctx): Reply {
  const q = parseQuery(ctx.query, { cursor: { kind: 'string' }, tagIds: { kind: 'posIntArray' } });
  const { store } = ctx;
  const page = ctx.pages.page({
    route: 'GET /meetings',
    pathname: ctx.pathname,
    query: ctx.query,
    version: store.version,
    compute: () => {
      const ids = meetingFilter(store, q);
      return ids ? store.meetings.filter((m) => ids.has(m.id)) : store.meetings.slice();
    },
  });
  return list(page, (m) => meeting(store, m, { sharedWith: true }));
}

const SEARCH_QUERY = {
  cursor: { kind: 'string' },
  searchTerm: { kind: 'string' },
  meetingIds: { kind: 'stringArray' },
  tagIds: { kind: 'posIntArray' },
  attendeeProfileIds: { kind: 'posIntArray' },
} as const;

export function search(ctx: Ctx): Reply {
  const q = parseQuery(ctx.query, SEARCH_QUERY);
  const { store } = ctx;
  const page = ctx.pages.page({
    route: 'GET /search',
    pathname: ctx.pathname,
    query: ctx.query,
    version: store.version,
    compute: () => {
      const ids = meetingFilter(store, q);
      const term = q.searchTerm?.toLowerCase();
      const wanted = q.meetingIds ? new Set(q.meetingIds) : undefined;
      const has = (s: string | null) => s?.toLowerCase().includes(term!) === true;
      return store.meetings.filter(
        (m) =>
          (!ids || ids.has(m.id)) &&
          (!wanted || wanted.has(m.id)) &&
          (term === undefined || has(m.name) || has(m.notes) || m.transcript.some((t) => has(t.text))),
      );
    },
  });
  return list(page, (m) => meeting(store, m, { sharedWith: true }));
}

export function transcript(ctx: Ctx): Reply {
  parseQuery(ctx.query, {});
  const m = findMeeting(ctx.store, ctx.params.meetingId!);
  return ok(m.transcript.map((t) => ({ ...t })));
}

const emailIndexes = new WeakMap<Store, { version: number; index: Map<string, ProfileRec> }>();

function profileByEmail(store: Store, email: string): ProfileRec | undefined {
  let cached = emailIndexes.get(store);
  // Rebuilt after any change, since churn adds and removes profiles between requests.
  if (!cached || cached.version !== store.version) {
    const index = new Map<string, ProfileRec>();
    for (const p of store.profiles.values()) if (p.email) index.set(p.email.toLowerCase(), p);
    cached = { version: store.version, index };
    emailIndexes.set(store, cached);
  }
  return cached.index.get(email.toLowerCase());
}

/** Someone not yet known gets a profile, as inviting a new address does in the web app. */
function newProfile(store: Store, email: string): ProfileRec {
  const p: ProfileRec = {
    id: store.nextIds.profile++,
    firstName: null,
    lastName: null,
    title: null,
    companyId: null,
    email,
    lastMeetingAt: 0,
  };
  store.profiles.set(p.id, p);
  emailIndexes.get(store)?.index.set(email.toLowerCase(), p);
  return p;
}

type ShareTarget = z.infer<typeof ShareBody>[number];

/** Applies one share target; returns the per-target error message, if it failed. */
function applyTarget(store: Store, m: MeetingRec, t: ShareTarget): string | undefined {
  if (t.teamId !== undefined) {
    const team = store.teams.get(t.teamId);
    if (!team) return `Team ${t.teamId} not found`;
    const existing = m.sharedWith.find((s) => s.teamId === team.id);
    if (existing) existing.access = t.access;
    else m.sharedWith.push({ teamId: team.id, name: team.name, access: t.access });
    return undefined;
  }
  const email = (t.email ?? '').trim();
  if (!EMAIL_RE.test(email)) return `Invalid email address: "${email}"`;
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (UNKNOWN_DOMAIN_RE.test(domain)) return `Unknown email domain: ${domain}`;
  const p = profileByEmail(store, email) ?? newProfile(store, email);
  const existing = m.sharedWith.find((s) => s.profileId === p.id);
  if (existing?.access === 'Owner') return "The owner's access cannot be changed";
  if (existing) existing.access = t.access;
  else m.sharedWith.push({ profileId: p.id, name: fullName(p) ?? email, email: p.email!, access: t.access });
  return undefined;
}

export function share(ctx: Ctx): Reply {
  parseQuery(ctx.query, {});
  const targets = parseBody(ShareBody, ctx.body);
  const { store } = ctx;
  const m = findMeeting(store, ctx.params.meetingId!);
  const errors: ShareError[] = [];
  let applied = 0;
  for (const [index, t] of targets.entries()) {
    const error = applyTarget(store, m, t);
    if (error === undefined) applied++;
    else errors.push({ error, index });
  }
  if (applied > 0) {
    bumpUpdatedAt(m, ctx.now);
    touch(store);
  }
  return ok(meeting(store, m, { sharedWith: true, errors }));
}

function createCalendarMeeting(store: Store, calendarId: string, now: number): MeetingRec {
  const numeric = /^[1-9][0-9]{0,14}$/.test(calendarId);
  const eventId = numeric ? Number(calendarId) : store.nextIds.calendarEvent++;
  const icalUid = numeric ? `${calendarId}@calendar.sandbox.example` : calendarId;
  const me = store.profiles.get(store.meId)!;
  // Newest first must hold even when churn has dated meetings past the real clock.
  const createdAt = Math.max(now, (store.meetings[0]?.createdAt ?? 0) + 1);
  const m: MeetingRec = {
    id: `mtg_cal_${String(store.nextIds.meeting++).padStart(6, '0')}`,
    name: null,
    createdAt,
    updatedAt: createdAt,
    duration: null,
    url: null,
    tagIds: [],
    icalUid,
    attendees: [
      { profileId: me.id, isCalendarEventOrganizer: true, isCalendarInvitee: true, showEmail: true },
    ],
    notes: null,
    privateNotes: '',
    actionItemIds: [],
    insights: {},
    linkAccess: 'Viewer',
    calendarEvent: { id: eventId, icalUid, description: '', platform: 'google_meet', platformId: '' },
    sharedWith: [{ profileId: me.id, name: fullName(me)!, email: me.email!, access: 'Owner' }],
    transcript: [],
  };
  store.meetings.unshift(m);
  store.meetingsById.set(m.id, m);
  return m;
}

export function calendarMeeting(ctx: Ctx): Reply {
  parseQuery(ctx.query, {});
  const calendarId = ctx.params.calendarMeetingId!;
  if (calendarId.length > MAX_ID_LENGTH) {
    throw validationError([
      { path: 'calendarMeetingId', message: `must be at most ${MAX_ID_LENGTH} characters` },
    ]);
  }
  const body = parseBody(CalendarMeetingBody, ctx.body);
  const { store } = ctx;
  const unknown = (body.tagIds ?? []).flatMap((id, i) =>
    store.tags.has(id) ? [] : [{ path: `tagIds.${i}`, message: `no tag with id ${id}` }],
  );
  if (unknown.length > 0) throw validationError(unknown);
  const existing = store.meetings.find(
    (x) => x.calendarEvent && (String(x.calendarEvent.id) === calendarId || x.icalUid === calendarId),
  );
  const m = existing ?? createCalendarMeeting(store, calendarId, ctx.now);
  if (body.privateNotes !== undefined) m.privateNotes = body.privateNotes;
  if (body.tagIds !== undefined) m.tagIds = [...new Set(body.tagIds)];
  if (existing) bumpUpdatedAt(m, ctx.now);
  touch(store);
  return ok(meeting(store, m, { sharedWith: true }));
}
