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

/** A nested person (an attendee, an assignee): enough to make a profile of. */
interface NestedPerson {
  profileId: number;
  name: string | null;
  title: string | null;
  companyName: string | null;
  email: string | null;
}

/**
 * The sandbox's store, built up from a file's records in an order where each one finds what it
 * names: companies (with the ids their people give them), people, tags, action items, meetings
 * (whose attendees and items may add profiles, tags and items), then the references checked.
 */
class StoreFromFile {
  readonly companies: CompanyRec[] = [];
  readonly profiles = new Map<number, ProfileRec>();
  readonly tags = new Map<number, TagRec>();
  readonly actionItems = new Map<number, ActionItemRec>();
  readonly meetings: MeetingRec[] = [];
  readonly meetingsById = new Map<string, MeetingRec>();
  readonly idOfCompanyName = new Map<string, number>();
  nextCompanyId = 1;

  constructor(
    private readonly data: DataFile,
    private readonly fail: (why: string) => never,
  ) {}

  /**
   * A Person names its company by id and by name; a company in the file has no id. The company
   * takes the id its people give it (by name), so GET /people and GET /company agree.
   */
  addCompanies(): void {
    for (const p of this.data.people ?? []) {
      if (p.companyId !== null && p.companyName !== null && !this.idOfCompanyName.has(p.companyName)) {
        this.idOfCompanyName.set(p.companyName, Number(p.companyId));
      }
    }
    this.nextCompanyId = maxOf(this.idOfCompanyName.values()) + 1;
    for (const c of this.data.companies ?? []) {
      const id = this.idOfCompanyName.get(c.name) ?? this.nextCompanyId++;
      this.idOfCompanyName.set(c.name, id);
      const links = 'externalLinks' in c && Array.isArray(c.externalLinks) ? c.externalLinks : [];
      this.companies.push({
        id,
        name: c.name,
        domain: c.domain,
        avatarUrl: c.avatarUrl,
        externalLinks: links,
      });
    }
  }

  addPeople(): void {
    for (const p of this.data.people ?? []) {
      if (this.profiles.has(Number(p.id))) this.fail(`person ${p.id} is listed twice`);
      this.addProfile({
        id: Number(p.id),
        firstName: p.firstName,
        lastName: p.lastName,
        title: p.title,
        companyId: p.companyId === null ? null : Number(p.companyId),
        email: p.email,
        lastMeetingAt: 0,
      });
    }
  }

  /** The profile of that id: the one known already, else `p`. */
  private addProfile(p: ProfileRec): ProfileRec {
    if (!this.profiles.has(p.id)) this.profiles.set(p.id, p);
    return this.profiles.get(p.id)!;
  }

  /** Attendees and assignees not listed as people are profiles all the same (they appear nested). */
  profileOf(a: NestedPerson): ProfileRec {
    const space = a.name?.indexOf(' ') ?? -1;
    const companyName = a.companyName;
    return this.addProfile({
      id: Number(a.profileId),
      firstName: a.name === null ? null : space < 0 ? a.name : a.name.slice(0, space),
      lastName: a.name === null || space < 0 ? null : a.name.slice(space + 1),
      title: a.title,
      companyId: companyName === null ? null : (this.idOfCompanyName.get(companyName) ?? null),
      email: a.email,
      lastMeetingAt: 0,
    });
  }

  addTag(t: { id: number | string; name: string; description: string | null }): void {
    this.tags.set(Number(t.id), { id: Number(t.id), name: t.name, description: t.description });
  }

  /** The item of that id, with `meetingIds` added to the ones it has when it is known already. */
  itemOf(a: NestedActionItem, meetingIds: string[]): ActionItemRec {
    const id = Number(a.id);
    const known = this.actionItems.get(id);
    if (known) {
      for (const m of meetingIds) if (!known.meetingIds.includes(m)) known.meetingIds.push(m);
      return known;
    }
    const rec: ActionItemRec = {
      id,
      title: a.title,
      description: a.description,
      assigneeId: a.assignee ? this.profileOf(a.assignee).id : null,
      status: a.status as ActionItemRec['status'],
      completedAt: null,
      meetingIds: [...meetingIds],
    };
    this.actionItems.set(id, rec);
    return rec;
  }

  addMeeting(m: Meeting, transcript: TranscriptEntry[]): void {
    if (this.meetingsById.has(m.id)) this.fail(`meeting ${m.id} is listed twice`);
    for (const t of m.tags) if (!this.tags.has(Number(t.id))) this.addTag(t);
    const createdAt = Date.parse(m.createdAt);
    const rec: MeetingRec = {
      id: m.id,
      name: m.name,
      createdAt,
      updatedAt: Date.parse(m.updatedAt),
      duration: m.duration === null ? null : Number(m.duration),
      url: m.url,
      ...(m.recordingUrl !== undefined && { recordingUrl: m.recordingUrl }),
      tagIds: m.tags.map((t) => Number(t.id)),
      icalUid: m.icalUid,
      attendees: m.attendees.map((a) => {
        const p = this.profileOf(a);
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
      actionItemIds: m.actionItems.map((a) => this.itemOf(a, [m.id]).id),
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
      transcript: transcript.map((e) => ({ ...e })),
    };
    this.meetings.push(rec);
    this.meetingsById.set(m.id, rec);
  }

  /** Every transcript and action item names a meeting of the file. */
  checkMeetingReferences(transcripts: Record<string, unknown>): void {
    for (const id of Object.keys(transcripts)) {
      if (!this.meetingsById.has(id)) this.fail(`transcripts.${id}: no meeting has this id`);
    }
    for (const a of this.actionItems.values()) {
      const missing = a.meetingIds.find((id) => !this.meetingsById.has(id));
      if (missing !== undefined)
        this.fail(`action item ${a.id} names meeting ${missing}, which the file does not hold`);
    }
  }

  /** The sandbox user: needed by the handlers (assignee "me", calendar meetings), never in GET /people. */
  addSandboxUser(): number {
    const meId = maxOf(this.profiles.keys()) + 1;
    this.profiles.set(meId, {
      id: meId,
      firstName: 'Sandbox',
      lastName: 'User',
      title: null,
      companyId: null,
      email: 'me@sandbox.example',
      lastMeetingAt: 0,
    });
    return meId;
  }

  store(meId: number): Store {
    const { companies, profiles, tags, meetings, meetingsById, actionItems } = this;
    return {
      meId,
      // No company of the file is the user's workspace: "my-workspace" assignees are the user alone.
      workspaceCompanyId: -1,
      companies,
      companiesById: new Map(companies.map((c) => [c.id, c])),
      profiles,
      people: (this.data.people ?? []).map((p) => profiles.get(Number(p.id))!),
      teams: new Map(),
      tags,
      meetings,
      meetingsById,
      actionItems: [...actionItems.values()],
      actionItemsById: actionItems,
      nextIds: {
        tag: maxOf(tags.keys()) + 1,
        actionItem: maxOf(actionItems.keys()) + 1,
        profile: meId + 1,
        calendarEvent: maxOf(meetings.flatMap((m) => (m.calendarEvent ? [m.calendarEvent.id] : []))) + 1,
        meeting: 1,
        company: this.nextCompanyId,
      },
      version: 0,
    };
  }
}

function storeFromData(data: DataFile, fail: (why: string) => never): Store {
  const build = new StoreFromFile(data, fail);
  build.addCompanies();
  build.addPeople();
  for (const t of data.tags ?? []) build.addTag(t);
  for (const a of data.actionItems ?? []) build.itemOf(a, a.meetingIds);
  const transcripts = data.transcripts ?? {};
  for (const m of data.meetings) build.addMeeting(m, transcripts[m.id] ?? []);
  build.checkMeetingReferences(transcripts);
  // Newest first, as GET /meetings returns them (stable: the file's order breaks ties).
  build.meetings.sort((a, b) => b.createdAt - a.createdAt);
  return build.store(build.addSandboxUser());
}

/** The largest of `ids`, 0 when none (no spread: a file may hold more ids than a call has arguments). */
function maxOf(ids: Iterable<number>): number {
  let max = 0;
  for (const id of ids) if (id > max) max = id;
  return max;
}
