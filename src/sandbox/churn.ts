// Churn: the sandbox changes its own data, so that a client's local mirror can be shown to converge.
// Rounds are drawn from their own seeded stream (the initial data is unchanged) and dated by a virtual
// clock, so the same seed gives the same sequence of states. Every change keeps the spec's promises:
// ids unique and never reused, GET /meetings newest first, field sets unchanged, and a meeting whose
// name, notes, attendees or transcript change gets a later `updatedAt` (clients refetch a transcript
// only when `updatedAt` moved).
import type { ActionItem, CompanySummary, Meeting, Person, TranscriptEntry } from '../api/schemas.js';
import { Paginator } from './cursor.js';
import {
  COMPANY_NAMES,
  FIRST_NAMES,
  fullName,
  LAST_NAMES,
  MAX_ITEMS_PER_MEETING,
  makeInsights,
  makeNotes,
  makeTranscript,
  OBJECTS,
  SENTENCES,
  TITLES,
  TOPICS,
  VERBS,
} from './data.js';
import { listActionItems } from './handlers/actionItems.js';
import { bumpUpdatedAt, type Ctx, type Reply, touch } from './handlers/context.js';
import { listCompanies, listPeople } from './handlers/directory.js';
import { listMeetings, transcript } from './handlers/meetings.js';
import { HOSTILE_ACTION_ITEM_ID, HOSTILE_MEETING_ID, HOSTILE_PERSON_ID, HOSTILE_TAG_ID } from './hostile.js';
import type { ActionItemRec, AttendeeRec, CompanyRec, MeetingRec, ProfileRec, Store } from './model.js';
import { mulberry32, type Rng, subSeed } from './prng.js';
import { parseCountPerDuration } from './ratelimit.js';

/** What one or more rounds changed, by id. Derived changes (a name shown inside another object) are
 * not listed: diff two snapshots for the exact differences. */
export interface ChurnReport {
  rounds: number;
  meetings: {
    created: string[];
    /** Name, notes or attendees changed (updatedAt bumped). */
    edited: string[];
    /** Transcript grew or changed (updatedAt bumped). */
    transcriptChanged: string[];
    deleted: string[];
  };
  actionItems: {
    created: number[];
    /** Title, description, assignee or meeting links changed. */
    edited: number[];
    /** PENDING -> DONE. */
    completed: number[];
    /** DONE -> PENDING. */
    reopened: number[];
    deleted: number[];
  };
  people: { added: number[]; removed: number[]; edited: number[] };
  /** Companies by domain (the API's key for them). */
  companies: { added: string[]; removed: string[] };
}

/** The whole state in API shapes, exactly as complete walks of the endpoints return it. */
export interface SandboxSnapshot {
  /** GET /meetings, in order (newest first). */
  meetings: Meeting[];
  /** GET /action-items?assigneeType=Anyone&status=ALL. */
  actionItems: ActionItem[];
  /** GET /action-items?status=ALL (the default assignee, Me). */
  myActionItems: ActionItem[];
  /** GET /people. */
  people: Person[];
  /** GET /companies. */
  companies: CompanySummary[];
  /** GET /meeting/{id}/transcript for every meeting of `meetings`. */
  transcripts: Record<string, TranscriptEntry[]>;
}

export interface ChurnRate {
  rounds: number;
  windowMs: number;
}

/** Faster than this would starve the server of time to answer requests. */
const MIN_INTERVAL_MS = 10;

/** "2/1s" -> 2 rounds per second. Throws a one-line Error on bad input. */
export function parseChurn(spec: string): ChurnRate {
  const m = parseCountPerDuration(spec.trim());
  const rounds = m ? m.count : Number.NaN;
  const windowMs = m ? m.ms : Number.NaN;
  if (
    !m ||
    !Number.isSafeInteger(rounds) ||
    rounds < 1 ||
    !(windowMs >= 1) ||
    windowMs > 86_400_000 ||
    windowMs / rounds < MIN_INTERVAL_MS
  ) {
    throw new Error(
      `invalid churn "${spec.trim()}": expected ROUNDS/DURATION such as 2/1s (units ms, s, m, h; at most one round per ${MIN_INTERVAL_MS}ms, duration at most 24h)`,
    );
  }
  return { rounds, windowMs };
}

/** Stream number of the churn PRNG (data.ts uses 1-4, the API key 7, faults 99). */
const CHURN_STREAM = 11;
/** Floors below which nothing more is deleted, so a long churn never empties the sandbox. */
const MIN_MEETINGS = 5;
const MIN_PEOPLE = 6;
const MIN_COMPANIES = 2;
const MIN_ACTION_ITEMS = 5;

type Kind =
  | 'meetingCreate'
  | 'meetingEdit'
  | 'transcript'
  | 'meetingDelete'
  | 'itemCreate'
  | 'itemEdit'
  | 'itemComplete'
  | 'itemReopen'
  | 'itemDelete'
  | 'personAdd'
  | 'personRemove'
  | 'companyAdd'
  | 'companyRemove';

const WEIGHTS: [Kind, number][] = [
  ['meetingCreate', 3],
  ['meetingEdit', 3],
  ['transcript', 3],
  ['meetingDelete', 1],
  ['itemCreate', 2],
  ['itemEdit', 2],
  ['itemComplete', 2],
  ['itemReopen', 2],
  ['itemDelete', 1],
  ['personAdd', 1],
  ['personRemove', 1],
  ['companyAdd', 1],
  ['companyRemove', 1],
];
const TOTAL_WEIGHT = WEIGHTS.reduce((n, [, w]) => n + w, 0);

function emptyReport(): ChurnReport {
  return {
    rounds: 0,
    meetings: { created: [], edited: [], transcriptChanged: [], deleted: [] },
    actionItems: { created: [], edited: [], completed: [], reopened: [], deleted: [] },
    people: { added: [], removed: [], edited: [] },
    companies: { added: [], removed: [] },
  };
}

const pushOnce = <T>(list: T[], value: T): void => {
  if (!list.includes(value)) list.push(value);
};

export class Churner {
  private readonly rng: Rng;
  /** Virtual time: advances each round, so dates do not depend on when a round runs. */
  private clock: number;
  /** Every meeting id ever used, so a deleted id is never handed out again. */
  private readonly usedMeetingIds: Set<string>;
  private report = emptyReport();

  constructor(
    private readonly store: Store,
    seed: number,
  ) {
    this.rng = mulberry32(subSeed(seed, CHURN_STREAM));
    this.usedMeetingIds = new Set(store.meetings.map((m) => m.id));
    let clock = 0;
    for (const m of store.meetings) clock = Math.max(clock, m.createdAt, m.updatedAt);
    this.clock = clock;
  }

  /** Applies `rounds` rounds of changes; returns what changed. */
  run(rounds = 1): ChurnReport {
    if (!Number.isSafeInteger(rounds) || rounds < 0) {
      throw new Error(`rounds must be a whole number, got ${rounds}`);
    }
    this.report = emptyReport();
    for (let i = 0; i < rounds; i++) this.round();
    this.report.rounds = rounds;
    return this.report;
  }

  private round(): void {
    const { rng, store } = this;
    this.clock += rng.int(20, 180) * 60_000 + rng.int(0, 59) * 1000;
    const changes = rng.int(2, 5);
    for (let i = 0; i < changes; i++) this.apply(this.pickKind());
    // People are listed by their latest meeting, which creating and deleting meetings moves.
    const latest = new Map<number, number>();
    for (const m of store.meetings) {
      for (const a of m.attendees)
        latest.set(a.profileId, Math.max(latest.get(a.profileId) ?? 0, m.createdAt));
    }
    for (const p of store.profiles.values()) p.lastMeetingAt = latest.get(p.id) ?? 0;
    store.people.sort((a, b) => b.lastMeetingAt - a.lastMeetingAt || a.id - b.id);
    touch(store);
  }

  private pickKind(): Kind {
    let r = this.rng.next() * TOTAL_WEIGHT;
    for (const [kind, weight] of WEIGHTS) {
      r -= weight;
      if (r < 0) return kind;
    }
    return WEIGHTS[0]![0];
  }

  private apply(kind: Kind): void {
    const { rng, store } = this;
    const actions: Record<Kind, () => unknown> = {
      meetingCreate: () => this.createMeeting([]),
      meetingEdit: () => this.editMeeting(),
      transcript: () => this.changeTranscript(),
      meetingDelete: () => this.deleteMeeting(),
      itemCreate: () => this.createItem(rng.chance(0.6) ? this.pickMeeting(false) : undefined),
      itemEdit: () => this.editItem(),
      itemComplete: () => this.setStatus('PENDING', 'DONE'),
      itemReopen: () => this.setStatus('DONE', 'PENDING'),
      itemDelete: () => this.deleteItem(),
      personAdd: () => {
        const companies = store.companies.filter((c) => c.id !== store.workspaceCompanyId);
        this.addPerson(companies.length > 0 ? rng.pick(companies) : null);
      },
      personRemove: () => this.removePerson(),
      companyAdd: () => this.addCompany(),
      companyRemove: () => this.removeCompany(),
    };
    actions[kind]();
  }

  // ---- meetings ----

  private bump(m: MeetingRec): void {
    bumpUpdatedAt(m, this.clock);
  }

  private newMeetingId(): string {
    for (;;) {
      const id = `mtg_${this.rng.hex(12)}`;
      if (!this.usedMeetingIds.has(id)) {
        this.usedMeetingIds.add(id);
        return id;
      }
    }
  }

  /** A meeting that churn may change: any but the hostile one; `old` prefers the older half. */
  private pickMeeting(old: boolean): MeetingRec | undefined {
    const all = this.store.meetings;
    const from = old && this.rng.chance(0.7) ? Math.floor(all.length / 2) : 0;
    const candidates = all.slice(from).filter((m) => m.id !== HOSTILE_MEETING_ID);
    return candidates.length === 0 ? undefined : this.rng.pick(candidates);
  }

  private speakers(m: MeetingRec): string[] {
    const names = m.attendees.flatMap((a) => {
      const p = this.store.profiles.get(a.profileId);
      return p ? [fullName(p) ?? 'Unknown speaker'] : [];
    });
    return names.length > 0 ? names : ['Unknown speaker'];
  }

  /** A new meeting, newest of all, with `extra` people among its guests. */
  private createMeeting(extra: ProfileRec[]): MeetingRec {
    const { rng, store } = this;
    const me = store.profiles.get(store.meId)!;
    const pool = store.people.filter((p) => p.id !== HOSTILE_PERSON_ID && !extra.includes(p));
    const guests = [...extra, ...rng.sample(pool, rng.int(1, 4))];
    const company =
      store.companiesById.get(
        guests.find((g) => g.companyId !== store.workspaceCompanyId)?.companyId ?? -1,
      ) ?? store.companiesById.get(store.workspaceCompanyId)!;
    const topic = rng.pick(TOPICS);
    // Newest first stays true even when the API created a meeting dated later than the virtual clock.
    const createdAt = Math.max(this.clock, (store.meetings[0]?.createdAt ?? 0) + 1000);
    const id = this.newMeetingId();
    const icalUid = rng.chance(0.75) ? `${rng.hex(16)}@calendar.sandbox.example` : null;
    const attendees: AttendeeRec[] = [me, ...guests].map((p, k) => ({
      profileId: p.id,
      isCalendarEventOrganizer: icalUid !== null && k === 0,
      isCalendarInvitee: icalUid !== null,
      showEmail: icalUid !== null || rng.chance(0.5),
    }));
    const m: MeetingRec = {
      id,
      name: `${topic} with ${company.name}`,
      createdAt,
      updatedAt: createdAt + rng.int(1, 120) * 60_000,
      duration: rng.int(5, 90) * 60 + rng.int(0, 59),
      url: `https://meet.sandbox.example/${rng.hex(3)}-${rng.hex(4)}-${rng.hex(3)}`,
      tagIds: rng.sample(
        [...store.tags.keys()].filter((t) => t !== HOSTILE_TAG_ID),
        rng.int(0, 2),
      ),
      icalUid,
      attendees,
      notes: makeNotes(rng, topic, company.name),
      privateNotes: rng.chance(0.3) ? `**Private:** ${rng.pick(SENTENCES)}` : '',
      actionItemIds: [],
      insights: {},
      linkAccess: rng.chance(0.7) ? 'Viewer' : 'Editor',
      calendarEvent: icalUid
        ? {
            id: store.nextIds.calendarEvent++,
            icalUid,
            description: `${topic}. Agenda: ${rng.pick(SENTENCES)}`,
            platform: rng.pick(['google_meet', 'zoom', 'microsoft_teams']),
            platformId: rng.hex(10),
          }
        : null,
      sharedWith: [{ profileId: me.id, name: fullName(me)!, email: me.email!, access: 'Owner' }],
      transcript: [],
    };
    const speakers = this.speakers(m);
    m.insights = makeInsights(rng, speakers);
    m.transcript = makeTranscript(rng, speakers);
    if (rng.chance(0.6)) m.recordingUrl = `https://recordings.sandbox.example/${id}.mp4?expires=86400`;
    store.meetings.unshift(m);
    store.meetingsById.set(m.id, m);
    this.report.meetings.created.push(m.id);
    for (let k = rng.int(1, 3); k > 0; k--) this.createItem(m);
    return m;
  }

  private editMeeting(): void {
    const { rng } = this;
    const m = this.pickMeeting(true);
    if (!m) return;
    const what = rng.int(0, 2); // 0 name, 1 notes, 2 both
    if (what !== 1) {
      const topic = rng.pick(TOPICS);
      m.name = rng.chance(0.05)
        ? null
        : `${topic} (${rng.pick(['rescheduled', 'follow-up', 'v2', 'notes'])})`;
    }
    if (what !== 0) {
      m.notes = rng.chance(0.5)
        ? `${m.notes ?? ''}\n\n**Update:** ${rng.pick(SENTENCES)}`.trimStart()
        : makeNotes(rng, rng.pick(TOPICS), rng.pick(COMPANY_NAMES));
    }
    this.bump(m);
    pushOnce(this.report.meetings.edited, m.id);
  }

  private changeTranscript(): void {
    const { rng } = this;
    const m = this.pickMeeting(true);
    if (!m) return;
    const speakers = this.speakers(m);
    const last = m.transcript[m.transcript.length - 1];
    if (last === undefined || rng.chance(0.6)) {
      // Grows: a recording still being transcribed, or one transcribed late.
      let t = last ? last.timestamp : 0;
      for (let k = rng.int(1, 3); k > 0; k--) {
        t += rng.int(3, 90) + Math.round(rng.next() * 100) / 100;
        m.transcript.push({ speaker: rng.pick(speakers), text: rng.pick(SENTENCES), timestamp: t });
      }
    } else {
      // Corrected: one entry's text or speaker changes.
      const k = rng.int(0, m.transcript.length - 1);
      const entry = m.transcript[k]!;
      m.transcript[k] = { ...entry, text: `${entry.text} [corrected: ${rng.pick(OBJECTS)}]` };
    }
    this.bump(m);
    pushOnce(this.report.meetings.transcriptChanged, m.id);
  }

  private deleteMeeting(): void {
    const { store } = this;
    if (store.meetings.length <= MIN_MEETINGS) return;
    const m = this.pickMeeting(false);
    if (!m) return;
    store.meetings.splice(store.meetings.indexOf(m), 1);
    store.meetingsById.delete(m.id);
    // Its action items stay, no longer linked to it.
    for (const id of m.actionItemIds) {
      const a = store.actionItemsById.get(id);
      if (!a) continue;
      a.meetingIds = a.meetingIds.filter((x) => x !== m.id);
      pushOnce(this.report.actionItems.edited, a.id);
    }
    this.report.meetings.deleted.push(m.id);
  }

  // ---- action items ----

  private pickItem(filter: (a: ActionItemRec) => boolean): ActionItemRec | undefined {
    // Sampling a bounded number of tries keeps a round cheap with 100,000 items.
    const items = this.store.actionItems;
    for (let tries = 0; tries < 50 && items.length > 0; tries++) {
      const a = this.rng.pick(items);
      if (a.id !== HOSTILE_ACTION_ITEM_ID && filter(a)) return a;
    }
    return undefined;
  }

  private createItem(m: MeetingRec | undefined): void {
    const { rng, store } = this;
    const r = rng.next();
    const others = store.people.filter((p) => p.id !== HOSTILE_PERSON_ID);
    const assigneeId = r < 0.4 || others.length === 0 ? store.meId : r < 0.55 ? null : rng.pick(others).id;
    const link = m !== undefined && m.actionItemIds.length < MAX_ITEMS_PER_MEETING;
    const item: ActionItemRec = {
      id: store.nextIds.actionItem++,
      title: `${rng.pick(VERBS)} ${rng.pick(OBJECTS)}`,
      description: rng.chance(0.3) ? '' : rng.pick(SENTENCES),
      assigneeId,
      status: 'PENDING',
      completedAt: null,
      meetingIds: link ? [m.id] : [],
    };
    if (link) m.actionItemIds.push(item.id);
    store.actionItems.push(item);
    store.actionItemsById.set(item.id, item);
    this.report.actionItems.created.push(item.id);
  }

  private editItem(): void {
    const { rng } = this;
    const a = this.pickItem(() => true);
    if (!a) return;
    const what = rng.int(0, 2); // 0 title, 1 description, 2 both
    if (what !== 1)
      a.title = `${rng.pick(VERBS)} ${rng.pick(OBJECTS)} (${rng.pick(['urgent', 'by Friday', 'revised'])})`;
    if (what !== 0) a.description = rng.pick(SENTENCES);
    pushOnce(this.report.actionItems.edited, a.id);
  }

  private setStatus(from: 'PENDING' | 'DONE', to: 'PENDING' | 'DONE'): void {
    const a = this.pickItem((x) => x.status === from);
    if (!a) return;
    a.status = to;
    a.completedAt = to === 'DONE' ? this.clock : null;
    pushOnce(to === 'DONE' ? this.report.actionItems.completed : this.report.actionItems.reopened, a.id);
  }

  private deleteItem(): void {
    const { store } = this;
    if (store.actionItems.length <= MIN_ACTION_ITEMS) return;
    const a = this.pickItem(() => true);
    if (!a) return;
    store.actionItems.splice(store.actionItems.indexOf(a), 1);
    store.actionItemsById.delete(a.id);
    for (const id of a.meetingIds) {
      const m = store.meetingsById.get(id);
      if (m) m.actionItemIds = m.actionItemIds.filter((x) => x !== a.id);
    }
    this.report.actionItems.deleted.push(a.id);
  }

  // ---- people and companies ----

  private addPerson(company: CompanyRec | null): ProfileRec {
    const { rng, store } = this;
    const id = store.nextIds.profile++;
    const firstName = rng.pick(FIRST_NAMES);
    const lastName = rng.pick(LAST_NAMES);
    const local = `${firstName}.${lastName}`
      .normalize('NFD')
      .replace(/[^A-Za-z.]/g, '')
      .toLowerCase();
    const p: ProfileRec = {
      id,
      firstName,
      lastName,
      title: rng.chance(0.85) ? rng.pick(TITLES) : null,
      companyId: company?.id ?? null,
      email: `${local}${id}@${company?.domain ?? 'mail.sandbox.example'}`,
      lastMeetingAt: 0,
    };
    store.profiles.set(p.id, p);
    store.people.push(p);
    this.report.people.added.push(p.id);
    return p;
  }

  private removePerson(): void {
    const { rng, store } = this;
    if (store.people.length <= MIN_PEOPLE) return;
    const candidates = store.people.filter((p) => p.id !== HOSTILE_PERSON_ID);
    if (candidates.length === 0) return;
    const p = rng.pick(candidates);
    store.people.splice(store.people.indexOf(p), 1);
    store.profiles.delete(p.id);
    for (const team of store.teams.values()) team.memberIds = team.memberIds.filter((x) => x !== p.id);
    for (const m of store.meetings) {
      const attendees = m.attendees.filter((a) => a.profileId !== p.id);
      const sharedWith = m.sharedWith.filter((s) => s.profileId !== p.id);
      if (attendees.length === m.attendees.length && sharedWith.length === m.sharedWith.length) continue;
      m.attendees = attendees;
      m.sharedWith = sharedWith;
      this.bump(m);
      pushOnce(this.report.meetings.edited, m.id);
    }
    for (const a of store.actionItems) {
      if (a.assigneeId !== p.id) continue;
      a.assigneeId = null;
      pushOnce(this.report.actionItems.edited, a.id);
    }
    this.report.people.removed.push(p.id);
  }

  /** A new company becomes visible in GET /companies through a new meeting with its people. */
  private addCompany(): void {
    const { rng, store } = this;
    const id = store.nextIds.company++;
    const base = rng.pick(COMPANY_NAMES.slice(1));
    const name = `${base} ${rng.pick(['Group', 'Labs', 'Partners', 'Holdings', 'Digital'])} ${id}`;
    const domain = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example`;
    const company: CompanyRec = {
      id,
      name,
      domain,
      avatarUrl: rng.chance(0.8) ? `https://avatars.sandbox.example/${domain}.png` : null,
      externalLinks: rng.chance(0.5)
        ? [
            {
              url: `https://crm.sandbox.example/accounts/${1000 + id}`,
              objectType: 'Account',
              type: 'Salesforce',
            },
          ]
        : [],
    };
    store.companies.push(company);
    store.companiesById.set(id, company);
    this.report.companies.added.push(domain);
    const people = [this.addPerson(company)];
    if (rng.chance(0.5)) people.push(this.addPerson(company));
    this.createMeeting(people);
  }

  /** The company record goes; its people stay, without a company. */
  private removeCompany(): void {
    const { rng, store } = this;
    if (store.companies.length <= MIN_COMPANIES) return;
    const candidates = store.companies.filter((c) => c.id !== store.workspaceCompanyId);
    if (candidates.length === 0) return;
    const c = rng.pick(candidates);
    store.companies.splice(store.companies.indexOf(c), 1);
    store.companiesById.delete(c.id);
    for (const p of store.profiles.values()) {
      if (p.companyId !== c.id) continue;
      p.companyId = null;
      if (store.people.includes(p)) pushOnce(this.report.people.edited, p.id);
    }
    this.report.companies.removed.push(c.domain);
  }
}

const SNAPSHOT_PAGE = Number.MAX_SAFE_INTEGER;

/** Every list in one page, through the handlers themselves, so shapes and order cannot drift. */
export function snapshotOf(store: Store): SandboxSnapshot {
  const pages = new Paginator('snapshot', SNAPSHOT_PAGE);
  const call = (handler: (ctx: Ctx) => Reply, pathname: string, query = '', params = {}): unknown => {
    const reply = handler({
      store,
      pages,
      pathname,
      query: new URLSearchParams(query),
      params,
      body: undefined,
      now: Date.now(),
    });
    if (reply.status !== 200) throw new Error(`snapshot: ${pathname} answered ${reply.status}`);
    // As a client receives it: through JSON, so absent and undefined fields agree.
    return JSON.parse(JSON.stringify(reply.body));
  };
  const meetings = call(listMeetings, '/meetings') as Meeting[];
  const transcripts: Record<string, TranscriptEntry[]> = {};
  for (const m of meetings) {
    transcripts[m.id] = call(transcript, `/meeting/${m.id}/transcript`, '', {
      meetingId: m.id,
    }) as TranscriptEntry[];
  }
  return {
    meetings,
    actionItems: call(listActionItems, '/action-items', 'assigneeType=Anyone&status=ALL') as ActionItem[],
    myActionItems: call(listActionItems, '/action-items', 'status=ALL') as ActionItem[],
    people: call(listPeople, '/people') as Person[],
    companies: call(listCompanies, '/companies') as CompanySummary[],
    transcripts,
  };
}
