// `mtg sandbox --data FILE`: a store built from a JSON file in the API's own shapes (gzip or not),
// instead of the generated data, so search and the benchmarks run on real meetings (e.g. the QMSum
// corpus in ../shared/bench/qmsum/corpus.json.gz). The file holds what GET endpoints return:
//   { meetings: Meeting[], transcripts?: { [meetingId]: TranscriptEntry[] },
//     people?: Person[], companies?: (CompanySummary | CompanyDetail)[], actionItems?: ActionItem[],
//     tags?: Tag[] }
// Anything absent is served empty. Every record is checked against the client's schemas, so what
// the sandbox serves from a file is something the client accepts.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import {
  ActionItem,
  CompanyDetail,
  CompanySummary,
  Meeting,
  type NestedActionItem,
  Person,
  Tag,
  TranscriptEntry,
} from '../api/schemas.js';
import type { ActionItemRec, CompanyRec, MeetingRec, ProfileRec, Store, TagRec } from './model.js';

/** A file the sandbox cannot serve: its message is one line naming the file and what is wrong. */
export class DataFileError extends Error {}

const DataFile = z.looseObject({
  meetings: z.array(Meeting),
  transcripts: z.record(z.string(), z.array(TranscriptEntry)).optional(),
  people: z.array(Person).optional(),
  companies: z.array(z.union([CompanyDetail, CompanySummary])).optional(),
  actionItems: z.array(ActionItem).optional(),
  tags: z.array(Tag).optional(),
});
type DataFile = z.infer<typeof DataFile>;

const GZIP_MAGIC = [0x1f, 0x8b];

/** Reads, decompresses (by the gzip magic bytes, whatever the name) and checks a data file. */
export function loadDataFile(path: string): Store {
  const fail = (why: string): never => {
    throw new DataFileError(`--data ${path}: ${why}`);
  };
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return fail(
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder' : `cannot read it (${code})`,
    );
  }
  if (bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1]) {
    try {
      bytes = gunzipSync(bytes);
    } catch {
      return fail('starts like gzip but does not decompress');
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    return fail(`not JSON (${(err as Error).message.split('\n')[0]})`);
  }
  const parsed = DataFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length === 0 ? 'the top level' : issue.path.join('.');
    return fail(`not the API's shapes at ${where}: ${issue.message.split('\n')[0]}`);
  }
  return storeFromData(parsed.data, fail);
}

function storeFromData(data: DataFile, fail: (why: string) => never): Store {
  const ms = (iso: string) => Date.parse(iso);
  const companies: CompanyRec[] = [];
  const profiles = new Map<number, ProfileRec>();
  const tags = new Map<number, TagRec>();

  // A Person names its company by id and by name; a company in the file has no id. The company
  // takes the id its people give it (by name), so GET /people and GET /company agree.
  const idOfCompanyName = new Map<string, number>();
  for (const p of data.people ?? []) {
    if (p.companyId !== null && p.companyName !== null && !idOfCompanyName.has(p.companyName)) {
      idOfCompanyName.set(p.companyName, Number(p.companyId));
    }
  }
  let nextCompanyId = maxOf(idOfCompanyName.values()) + 1;
  for (const c of data.companies ?? []) {
    const id = idOfCompanyName.get(c.name) ?? nextCompanyId++;
    idOfCompanyName.set(c.name, id);
    const links = 'externalLinks' in c && Array.isArray(c.externalLinks) ? c.externalLinks : [];
    companies.push({ id, name: c.name, domain: c.domain, avatarUrl: c.avatarUrl, externalLinks: links });
  }
  const companyIdOf = (name: string | null) => (name === null ? null : (idOfCompanyName.get(name) ?? null));

  const addProfile = (p: ProfileRec) => {
    if (!profiles.has(p.id)) profiles.set(p.id, p);
    return profiles.get(p.id)!;
  };
  for (const p of data.people ?? []) {
    if (profiles.has(Number(p.id))) fail(`person ${p.id} is listed twice`);
    addProfile({
      id: Number(p.id),
      firstName: p.firstName,
      lastName: p.lastName,
      title: p.title,
      companyId: p.companyId === null ? null : Number(p.companyId),
      email: p.email,
      lastMeetingAt: 0,
    });
  }
  // Attendees and assignees not listed as people are profiles all the same (they appear nested).
  const profileOf = (a: {
    profileId: number;
    name: string | null;
    title: string | null;
    companyName: string | null;
    email: string | null;
  }) => {
    const space = a.name?.indexOf(' ') ?? -1;
    return addProfile({
      id: Number(a.profileId),
      firstName: a.name === null ? null : space < 0 ? a.name : a.name.slice(0, space),
      lastName: a.name === null || space < 0 ? null : a.name.slice(space + 1),
      title: a.title,
      companyId: companyIdOf(a.companyName),
      email: a.email,
      lastMeetingAt: 0,
    });
  };

  for (const t of data.tags ?? [])
    tags.set(Number(t.id), { id: Number(t.id), name: t.name, description: t.description });

  const actionItems = new Map<number, ActionItemRec>();
  const itemOf = (a: NestedActionItem, meetingIds: string[]): ActionItemRec => {
    const id = Number(a.id);
    const known = actionItems.get(id);
    if (known) {
      for (const m of meetingIds) if (!known.meetingIds.includes(m)) known.meetingIds.push(m);
      return known;
    }
    const rec: ActionItemRec = {
      id,
      title: a.title,
      description: a.description,
      assigneeId: a.assignee ? profileOf(a.assignee).id : null,
      status: a.status as ActionItemRec['status'],
      completedAt: null,
      meetingIds: [...meetingIds],
    };
    actionItems.set(id, rec);
    return rec;
  };
  for (const a of data.actionItems ?? []) itemOf(a, a.meetingIds);

  const transcripts = data.transcripts ?? {};
  const meetings: MeetingRec[] = [];
  const meetingsById = new Map<string, MeetingRec>();
  for (const m of data.meetings) {
    if (meetingsById.has(m.id)) fail(`meeting ${m.id} is listed twice`);
    for (const t of m.tags) {
      if (!tags.has(Number(t.id)))
        tags.set(Number(t.id), { id: Number(t.id), name: t.name, description: t.description });
    }
    const createdAt = ms(m.createdAt);
    const rec: MeetingRec = {
      id: m.id,
      name: m.name,
      createdAt,
      updatedAt: ms(m.updatedAt),
      duration: m.duration === null ? null : Number(m.duration),
      url: m.url,
      ...(m.recordingUrl !== undefined && { recordingUrl: m.recordingUrl }),
      tagIds: m.tags.map((t) => Number(t.id)),
      icalUid: m.icalUid,
      attendees: m.attendees.map((a) => {
        const p = profileOf(a);
        p.lastMeetingAt = Math.max(p.lastMeetingAt, createdAt);
        return {
          profileId: p.id,
          isCalendarEventOrganizer: a.isCalendarEventOrganizer,
          isCalendarInvitee: a.isCalendarInvitee,
          showEmail: a.email !== null,
        };
      }),
      notes: m.notes,
      privateNotes: m.privateNotes,
      actionItemIds: m.actionItems.map((a) => itemOf(a, [m.id]).id),
      insights: m.insights,
      linkAccess: m.linkAccess ?? 'Viewer',
      calendarEvent: m.calendarEvent ? { ...m.calendarEvent, id: Number(m.calendarEvent.id) } : null,
      sharedWith: (m.sharedWith ?? []).map((s) => ({
        name: s.name,
        access: s.access,
        ...(s.profileId !== undefined && { profileId: Number(s.profileId) }),
        ...(s.teamId !== undefined && { teamId: Number(s.teamId) }),
        ...(s.email !== undefined && { email: s.email }),
      })),
      transcript: (transcripts[m.id] ?? []).map((e) => ({ ...e })),
    };
    meetings.push(rec);
    meetingsById.set(m.id, rec);
  }
  for (const id of Object.keys(transcripts)) {
    if (!meetingsById.has(id)) fail(`transcripts.${id}: no meeting has this id`);
  }
  for (const a of actionItems.values()) {
    const missing = a.meetingIds.find((id) => !meetingsById.has(id));
    if (missing !== undefined)
      fail(`action item ${a.id} names meeting ${missing}, which the file does not hold`);
  }
  // Newest first, as GET /meetings returns them (stable: the file's order breaks ties).
  meetings.sort((a, b) => b.createdAt - a.createdAt);

  // The sandbox user: needed by the handlers (assignee "me", calendar meetings), never in GET /people.
  const meId = maxOf(profiles.keys()) + 1;
  profiles.set(meId, {
    id: meId,
    firstName: 'Sandbox',
    lastName: 'User',
    title: null,
    companyId: null,
    email: 'me@sandbox.example',
    lastMeetingAt: 0,
  });
  const people = (data.people ?? []).map((p) => profiles.get(Number(p.id))!);
  const items = [...actionItems.values()];
  return {
    meId,
    // No company of the file is the user's workspace: "my-workspace" assignees are the user alone.
    workspaceCompanyId: -1,
    companies,
    companiesById: new Map(companies.map((c) => [c.id, c])),
    profiles,
    people,
    teams: new Map(),
    tags,
    meetings,
    meetingsById,
    actionItems: items,
    actionItemsById: actionItems,
    nextIds: {
      tag: maxOf(tags.keys()) + 1,
      actionItem: maxOf(actionItems.keys()) + 1,
      profile: meId + 1,
      calendarEvent: maxOf(meetings.flatMap((m) => (m.calendarEvent ? [m.calendarEvent.id] : []))) + 1,
      meeting: 1,
      company: nextCompanyId,
    },
    version: 0,
  };
}

/** The largest of `ids`, 0 when none (no spread: a file may hold more ids than a call has arguments). */
function maxOf(ids: Iterable<number>): number {
  let max = 0;
  for (const id of ids) if (id > max) max = id;
  return max;
}
