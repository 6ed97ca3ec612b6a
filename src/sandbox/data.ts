// Deterministic seed data: the same seed and sizes give byte-identical records. Varied on purpose
// (nulls, both action-item states, Markdown, custom-field insights, shares) so every table and
// format of the CLI has something interesting to show.
import type { InsightResult, TranscriptEntry } from '../api/schemas.js';
import {
  HOSTILE,
  HOSTILE_ACTION_ITEM_ID,
  HOSTILE_MEETING_ID,
  HOSTILE_PERSON_ID,
  HOSTILE_TAG_ID,
} from './hostile.js';
import type {
  ActionItemRec,
  AttendeeRec,
  CompanyRec,
  MeetingRec,
  ProfileRec,
  ShareRec,
  Store,
  TagRec,
  TeamRec,
} from './model.js';
import { mulberry32, type Rng, subSeed } from './prng.js';

export interface Sizes {
  actionItems: number;
  meetings: number;
  people: number;
  companies: number;
}

export const DEFAULT_SIZES: Sizes = { actionItems: 60, meetings: 30, people: 40, companies: 10 };
/** Floors that keep the hostile records (fixed ids) and the workspace in existence. */
const MIN_SIZES: Sizes = { actionItems: 5, meetings: 3, people: 6, companies: 2 };
const MAX_SIZE = 1_000_000;

/** Seed data is dated from a fixed instant, not from "now", so it is reproducible. */
const BASE_TIME = Date.UTC(2025, 5, 2, 17, 0, 0);
const ME_ID = 1;
/** Links between one meeting and action items are capped so meeting bodies stay small at any size. */
export const MAX_ITEMS_PER_MEETING = 8;

export const COMPANY_NAMES = [
  'Sandbox Labs',
  'Acme Corp',
  'Globex',
  'Initech',
  'Umbrella Health',
  'Hooli',
  'Stark Industries',
  'Wayne Enterprises',
  'Soylent Foods',
  'Tyrell Systems',
  'Cyberdyne',
  'Vandelay Imports',
];
export const FIRST_NAMES = [
  'Ada',
  'Bruno',
  'Chiara',
  'Dmitri',
  'Elena',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'José',
  'Kwame',
  'Lena',
  'Mateo',
  'Nadia',
  'Oskar',
  'Priya',
  'Quinn',
  'Rosa',
  'Søren',
  'Tomás',
  'Uma',
  'Viktor',
  'Wen',
  'Yara',
  'Zoë',
];
export const LAST_NAMES = [
  'Adeyemi',
  'Becker',
  'Costa',
  'Dubois',
  'Eriksen',
  'Fischer',
  'García',
  'Haddad',
  'Ivanova',
  'Jensen',
  'Kowalski',
  'Li',
  'Müller',
  "O'Brien",
  'Novak',
  'Patel',
  'Rossi',
  'Suzuki',
  'Tanaka',
  'Van der Berg',
  'Wójcik',
];
export const TITLES = [
  'CEO',
  'CTO',
  'VP Engineering',
  'Head of Sales',
  'Account Executive',
  'Product Manager',
  'Staff Engineer',
  'Designer',
  'Customer Success Manager',
  'Procurement Lead',
];
export const TOPICS = [
  'Weekly sync',
  'Quarterly business review',
  'Pricing discussion',
  'Onboarding kickoff',
  'Roadmap review',
  'Security questionnaire walkthrough',
  'Renewal negotiation',
  'Design critique',
  'Incident retro',
  'Hiring debrief',
];
export const VERBS = [
  'Send',
  'Review',
  'Draft',
  'Schedule',
  'Update',
  'Share',
  'Confirm',
  'Prepare',
  'Follow up on',
];
export const OBJECTS = [
  'the pricing proposal',
  'the security questionnaire',
  'Q3 roadmap slides',
  'the contract redlines',
  'onboarding checklist',
  'meeting notes',
  'the SSO configuration',
  'budget approval',
  'the renewal quote',
  'a demo environment',
];
export const SENTENCES = [
  'We agreed to move the launch by two weeks.',
  'Budget is approved for the pilot, pending legal review.',
  'The team wants SSO before the rollout.',
  'Can we get the numbers for last quarter?',
  'Let us circle back on the integration timeline.',
  'The renewal is at risk unless support response times improve.',
  'Great progress on the migration — only two services left.',
  'I will send the updated deck tonight.',
];

function companyDomain(name: string, index: number): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '');
  return index < COMPANY_NAMES.length ? `${slug}.example` : `${slug}${index}.example`;
}

function clampSizes(sizes: Partial<Sizes> | undefined): Sizes {
  const out = { ...DEFAULT_SIZES };
  for (const key of Object.keys(DEFAULT_SIZES) as (keyof Sizes)[]) {
    const value = sizes?.[key];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < 0 || value > MAX_SIZE) {
      throw new Error(`sizes.${key} must be an integer from 0 to ${MAX_SIZE}, got ${value}`);
    }
    out[key] = Math.max(value, MIN_SIZES[key]);
  }
  return out;
}

export function fullName(p: ProfileRec): string | null {
  const name = [p.firstName, p.lastName].filter((s) => s !== null && s !== '').join(' ');
  return name === '' ? null : name;
}

function makeCompanies(rng: Rng, count: number): CompanyRec[] {
  const companies: CompanyRec[] = [];
  for (let i = 0; i < count; i++) {
    const name = COMPANY_NAMES[i] ?? `${rng.pick(COMPANY_NAMES.slice(1))} ${i}`;
    const domain = companyDomain(name, i);
    const externalLinks = [];
    if (i > 0 && rng.chance(0.7)) {
      externalLinks.push({
        url: `https://crm.sandbox.example/accounts/${1000 + i}`,
        objectType: 'Account',
        type: 'Salesforce',
      });
    }
    if (i > 0 && rng.chance(0.4)) {
      externalLinks.push({
        url: `https://app.hubspot.example/contacts/${rng.int(10000, 99999)}/company/${2000 + i}`,
        objectType: 'Company',
        type: 'HubSpot',
      });
    }
    companies.push({
      id: i + 1,
      name,
      domain,
      avatarUrl: rng.chance(0.8) ? `https://avatars.sandbox.example/${domain}.png` : null,
      externalLinks,
    });
  }
  return companies;
}

function makeProfiles(rng: Rng, count: number, companies: CompanyRec[]): ProfileRec[] {
  const workspace = companies[0]!;
  const me: ProfileRec = {
    id: ME_ID,
    firstName: 'Sam',
    lastName: 'Sandbox',
    title: 'Product Manager',
    companyId: workspace.id,
    email: `sam@${workspace.domain}`,
    lastMeetingAt: 0,
  };
  const out = [me];
  for (let i = 0; i < count; i++) {
    const id = i + 2;
    // About a fifth of the people are colleagues (the workspace), the rest customers and partners.
    const company = i % 5 === 0 ? workspace : companies[1 + (i % (companies.length - 1))]!;
    const firstName = rng.pick(FIRST_NAMES);
    const lastName = rng.chance(0.05) ? null : rng.pick(LAST_NAMES);
    const local = `${firstName}.${lastName ?? id}`
      .normalize('NFD')
      .replace(/[^A-Za-z.]/g, '')
      .toLowerCase();
    const person: ProfileRec = {
      id,
      firstName,
      lastName,
      title: rng.chance(0.85) ? rng.pick(TITLES) : null,
      companyId: company.id,
      email: rng.chance(0.95) ? `${local}${id}@${company.domain}` : null,
      lastMeetingAt: 0,
    };
    if (id === HOSTILE_PERSON_ID) {
      person.firstName = HOSTILE.formulaAt;
      person.lastName = `Mallory${HOSTILE.clearScreen}`;
      person.title = HOSTILE.formulaEq;
    }
    out.push(person);
  }
  return out;
}

function makeTags(): TagRec[] {
  return [
    { id: 1, name: 'customer', description: 'Calls with customers' },
    { id: 2, name: 'internal', description: null },
    { id: 3, name: 'sales', description: 'Pipeline and deals' },
    { id: 4, name: 'hiring', description: 'Interviews and debriefs' },
    { id: 5, name: 'roadmap', description: null },
    { id: HOSTILE_TAG_ID, name: `${HOSTILE.formulaPlus} hostile`, description: HOSTILE.ansiRed },
  ];
}

function makeTeams(profiles: ProfileRec[], workspaceCompanyId: number): TeamRec[] {
  const colleagues = profiles.filter((p) => p.companyId === workspaceCompanyId).map((p) => p.id);
  const half = Math.ceil(colleagues.length / 2);
  return [
    { id: 1, name: 'Engineering', memberIds: colleagues.slice(0, half) },
    { id: 2, name: 'Sales', memberIds: [ME_ID, ...colleagues.slice(half)] },
    { id: 3, name: 'Leadership', memberIds: colleagues.filter((_, i) => i % 3 === 0) },
  ];
}

export function makeNotes(rng: Rng, topic: string, company: string): string | null {
  if (rng.chance(0.1)) return null;
  const bullets = rng.sample(SENTENCES, rng.int(2, 4)).map((s) => `- ${s}`);
  const decisions = rng.sample(OBJECTS, 2).map((o, i) => `${i + 1}. **Owner:** finalize ${o}`);
  return [
    `# ${topic} — ${company}`,
    '',
    '## Summary',
    '',
    ...bullets,
    '',
    '## Decisions',
    '',
    ...decisions,
    '',
    `> *Next check-in* in ${rng.int(1, 4)} weeks. See \`notes.md\` for details.`,
  ].join('\n');
}

export function makeInsights(rng: Rng, speakers: string[]): Record<string, InsightResult[]> {
  const insights: Record<string, InsightResult[]> = {};
  if (rng.chance(0.2)) return insights;
  insights['Key decisions'] = rng.sample(SENTENCES, rng.int(1, 3)).map((s) => ({
    speaker: rng.chance(0.8) ? rng.pick(speakers) : null,
    timestamp: rng.chance(0.8) ? rng.int(30, 3000) : null,
    insight: s,
  }));
  if (rng.chance(0.5)) {
    insights['Deal qualification'] = [
      {
        speaker: null,
        timestamp: null,
        insight: {
          budget: rng.int(5, 200) * 1000,
          authority: rng.pick(TITLES),
          needConfirmed: rng.chance(0.5),
          timeline: rng.chance(0.5) ? `Q${rng.int(1, 4)}` : null,
        },
      },
    ];
  }
  return insights;
}

export function makeTranscript(rng: Rng, speakers: string[]): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  let t = rng.int(0, 20);
  const count = rng.int(4, 12);
  for (let i = 0; i < count; i++) {
    entries.push({ speaker: rng.pick(speakers), text: rng.pick(SENTENCES), timestamp: t });
    t += rng.int(3, 90) + Math.round(rng.next() * 100) / 100;
  }
  return entries;
}

function makeMeetings(
  rng: Rng,
  count: number,
  profiles: ProfileRec[],
  companies: CompanyRec[],
  tags: TagRec[],
  teams: TeamRec[],
): MeetingRec[] {
  const me = profiles[0]!;
  // The hostile person attends only the hostile meeting, so its strings stay in the named records.
  const others = profiles.slice(1).filter((p) => p.id !== HOSTILE_PERSON_ID);
  const plainTagIds = tags.filter((t) => t.id !== HOSTILE_TAG_ID).map((t) => t.id);
  const meetings: MeetingRec[] = [];
  let createdAt = BASE_TIME;
  let calendarEventId = 5000;
  // Round-robin first attendee, so that every person attends some meeting when there are enough slots.
  let nextAttendee = 0;
  for (let i = 0; i < count; i++) {
    createdAt -= rng.int(2, 40) * 3_600_000 + rng.int(0, 59) * 60_000;
    const hostile = i === 1;
    const id = hostile ? HOSTILE_MEETING_ID : `mtg_${rng.hex(12)}`;
    const guests: ProfileRec[] = [];
    for (let k = rng.int(2, 5); k > 0; k--) {
      const p = others[nextAttendee++ % others.length]!;
      if (!guests.includes(p)) guests.push(p);
    }
    if (hostile) {
      const h = profiles.find((p) => p.id === HOSTILE_PERSON_ID);
      if (h && !guests.includes(h)) guests.push(h);
    }
    const company =
      companies.find((c) => c.id === guests.find((g) => g.companyId !== 1)?.companyId) ?? companies[0]!;
    const topic = rng.pick(TOPICS);
    const onCalendar = rng.chance(0.75);
    const icalUid = onCalendar ? `${rng.hex(16)}@calendar.sandbox.example` : null;
    const attendees: AttendeeRec[] = [me, ...guests].map((p, k) => ({
      profileId: p.id,
      isCalendarEventOrganizer: onCalendar && k === 0,
      isCalendarInvitee: onCalendar && (k === 0 || rng.chance(0.85)),
      showEmail: onCalendar || rng.chance(0.5),
    }));
    const speakers = [me, ...guests].map((p) => fullName(p) ?? 'Unknown speaker');
    const sharedWith: ShareRec[] = [
      { profileId: me.id, name: fullName(me)!, email: me.email!, access: 'Owner' },
    ];
    for (const g of rng.sample(guests, rng.int(0, 2))) {
      if (g.email === null) continue;
      const access = rng.chance(0.5) ? 'Viewer' : 'Editor';
      sharedWith.push({ profileId: g.id, name: fullName(g) ?? g.email, email: g.email, access });
    }
    if (rng.chance(0.3)) {
      const team = rng.pick(teams);
      sharedWith.push({ teamId: team.id, name: team.name, access: 'Viewer' });
    }
    const platform = rng.pick(['google_meet', 'zoom', 'microsoft_teams']);
    const meeting: MeetingRec = {
      id,
      name: rng.chance(0.05) ? null : `${topic} with ${company.name}`,
      createdAt,
      updatedAt: createdAt + rng.int(1, 48) * 3_600_000,
      duration: rng.chance(0.1) ? null : rng.int(5, 90) * 60 + rng.int(0, 59),
      url: rng.chance(0.15) ? null : `https://meet.sandbox.example/${rng.hex(3)}-${rng.hex(4)}-${rng.hex(3)}`,
      tagIds: rng.sample(plainTagIds, rng.int(0, 3)),
      icalUid,
      attendees,
      notes: makeNotes(rng, topic, company.name),
      privateNotes: rng.chance(0.3) ? `**Private:** ${rng.pick(SENTENCES)}` : '',
      actionItemIds: [],
      insights: makeInsights(rng, speakers),
      linkAccess: rng.chance(0.7) ? 'Viewer' : 'Editor',
      calendarEvent: icalUid
        ? {
            id: calendarEventId++,
            icalUid,
            description: `${topic}. Agenda: ${rng.pick(SENTENCES)}`,
            platform,
            platformId: rng.hex(10),
          }
        : null,
      sharedWith,
      transcript: makeTranscript(rng, speakers),
    };
    // Recordings are "present only when enabled": absent on some, a URL on others.
    if (rng.chance(0.6)) meeting.recordingUrl = `https://recordings.sandbox.example/${id}.mp4?expires=86400`;
    if (hostile) {
      meeting.name = `${HOSTILE.ansiRed} ${HOSTILE.oscTitle}Board prep ${HOSTILE.bell}`;
      meeting.notes = `# Hostile notes ${HOSTILE.clearScreen}\n\n- ${HOSTILE.oscLink}\n- ${HOSTILE.c1Csi}\n- ${HOSTILE.carriageReturn}\n- ${HOSTILE.bidi}\n`;
      meeting.privateNotes = HOSTILE.formulaMinus;
      meeting.tagIds = [HOSTILE_TAG_ID];
      meeting.insights = {
        [`${HOSTILE.formulaEq}`]: [{ speaker: HOSTILE.ansiRed, timestamp: 1, insight: HOSTILE.oscLink }],
      };
      meeting.transcript = [
        { speaker: 'Mallory', text: `${HOSTILE.ansiRed} is red`, timestamp: 0 },
        { speaker: 'Mallory', text: HOSTILE.oscLink, timestamp: 4.5 },
        { speaker: HOSTILE.formulaEq, text: HOSTILE.bell, timestamp: 9 },
        { speaker: 'Mallory', text: HOSTILE.carriageReturn, timestamp: 12.25 },
        { speaker: 'Mallory', text: `${HOSTILE.leadingTab} ${HOSTILE.c1Csi}`, timestamp: 20 },
      ];
    }
    meetings.push(meeting);
    for (const a of attendees) {
      const p = profiles[a.profileId - 1]!;
      if (p.lastMeetingAt < createdAt) p.lastMeetingAt = createdAt;
    }
  }
  return meetings;
}

function makeActionItems(
  rng: Rng,
  count: number,
  profiles: ProfileRec[],
  meetings: MeetingRec[],
): ActionItemRec[] {
  const items: ActionItemRec[] = new Array(count);
  const capacity = meetings.length * MAX_ITEMS_PER_MEETING;
  for (let i = 0; i < count; i++) {
    const id = i + 1;
    const r = rng.next();
    // ~35% mine, ~15% unassigned, the rest colleagues and customers.
    let assigneeId = r < 0.35 ? ME_ID : r < 0.5 ? null : profiles[rng.int(1, profiles.length - 1)]!.id;
    if (assigneeId === HOSTILE_PERSON_ID) assigneeId = ME_ID + 1;
    const done = rng.chance(0.3);
    const meetingIds: string[] = [];
    if (i < capacity && rng.chance(0.85)) {
      const meeting = meetings[rng.int(0, meetings.length - 1)]!;
      if (meeting.actionItemIds.length < MAX_ITEMS_PER_MEETING) {
        meetingIds.push(meeting.id);
        meeting.actionItemIds.push(id);
      }
    }
    const createdRef = meetingIds.length > 0 ? meetings[0]!.createdAt : BASE_TIME;
    items[i] = {
      id,
      title: `${rng.pick(VERBS)} ${rng.pick(OBJECTS)}`,
      description: rng.chance(0.3) ? '' : rng.pick(SENTENCES),
      assigneeId,
      status: done ? 'DONE' : 'PENDING',
      completedAt: done ? createdRef - rng.int(1, 500) * 60_000 : null,
      meetingIds,
    };
  }
  const hostile = items[HOSTILE_ACTION_ITEM_ID - 1]!;
  hostile.title = HOSTILE.formulaEq;
  hostile.description = `${HOSTILE.formulaPlus} ${HOSTILE.ansiRed} ${HOSTILE.oscLink}`;
  hostile.assigneeId = ME_ID;
  hostile.status = 'PENDING';
  hostile.completedAt = null;
  const hostileMeeting = meetings.find((m) => m.id === HOSTILE_MEETING_ID)!;
  for (const m of meetings) m.actionItemIds = m.actionItemIds.filter((x) => x !== HOSTILE_ACTION_ITEM_ID);
  hostile.meetingIds = [HOSTILE_MEETING_ID];
  hostileMeeting.actionItemIds.push(HOSTILE_ACTION_ITEM_ID);
  return items;
}

export function generateStore(seed: number, sizeOptions?: Partial<Sizes>): Store {
  if (!Number.isInteger(seed)) throw new Error(`seed must be an integer, got ${seed}`);
  const sizes = clampSizes(sizeOptions);
  // One stream per collection: changing one size does not reshuffle the others.
  const companies = makeCompanies(mulberry32(subSeed(seed, 1)), sizes.companies);
  const profiles = makeProfiles(mulberry32(subSeed(seed, 2)), sizes.people, companies);
  const workspaceCompanyId = companies[0]!.id;
  const tags = makeTags();
  const teams = makeTeams(profiles, workspaceCompanyId);
  const meetings = makeMeetings(
    mulberry32(subSeed(seed, 3)),
    sizes.meetings,
    profiles,
    companies,
    tags,
    teams,
  );
  const actionItems = makeActionItems(mulberry32(subSeed(seed, 4)), sizes.actionItems, profiles, meetings);
  const people = profiles.slice(1).sort((a, b) => b.lastMeetingAt - a.lastMeetingAt || a.id - b.id);
  return {
    meId: ME_ID,
    workspaceCompanyId,
    companies,
    companiesById: new Map(companies.map((c) => [c.id, c])),
    profiles: new Map(profiles.map((p) => [p.id, p])),
    people,
    teams: new Map(teams.map((t) => [t.id, t])),
    tags: new Map(tags.map((t) => [t.id, t])),
    meetings,
    meetingsById: new Map(meetings.map((m) => [m.id, m])),
    actionItems,
    actionItemsById: new Map(actionItems.map((a) => [a.id, a])),
    nextIds: {
      tag: tags.length + 1,
      actionItem: actionItems.length + 1,
      profile: profiles.length + 1,
      calendarEvent: 5000 + meetings.length + 1,
      meeting: 1,
      company: companies.length + 1,
    },
    version: 0,
  };
}
