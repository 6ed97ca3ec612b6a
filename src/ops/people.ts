// Who a name means: every person of the mirror that part of a name or email (accents and case
// folded) may mean, from the people list, the meetings' attendees and the action items' assignees
// (one person once, by profile ID, else by email), best first, each with the meetings you had
// together and the open items each way. For "what did I promise Dana" / "what does Dana owe me".

import { MirrorReads } from '../mirror/reads.js';
import { ExactInteger, parseJsonExact } from '../shared/exact.js';
import type { MirrorReader } from './action-items.js';
import { EmptyArgumentError } from './errors.js';
import { fold } from './fold.js';

type Obj = Record<string, unknown>;

export interface PersonFound {
  profileId: string | number | null;
  name: string | null;
  email: string | null;
  title: string | null;
  companyName: string | null;
  /** Live meetings they attended: how many, and when the last one was created. */
  meetings: { count: number; last: string | null };
  /** Pending items assigned to them; pending items of yours from meetings they attended. */
  openItems: { assignedToThem: number; assignedToMe: number };
}

export interface PeopleQuery {
  /** Part of a name or email, folded. */
  name: string;
  /** At most this many, best first (default 20). */
  limit?: number;
}

export interface PeopleFound {
  people: PersonFound[];
  /** More people matched than `limit`. */
  more: boolean;
}

interface Entry extends PersonFound {
  keys: Set<string>;
  meetingIds: Set<string>;
}

const idOf = (v: unknown): string | undefined =>
  v === null || v === undefined || v === '' ? undefined : v instanceof ExactInteger ? v.text : String(v);
const textOf = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const exact = (v: unknown): string | number | null =>
  v instanceof ExactInteger ? v.text : typeof v === 'number' || typeof v === 'string' ? v : null;

/** The people of the mirror, merged by profile ID and email. */
class Directory {
  readonly entries: Entry[] = [];
  private readonly byKey = new Map<string, Entry>();

  /** The entry of this person (made or completed from `p`: {profileId, name, email, title, companyName}). */
  add(p: Obj): Entry | undefined {
    const id = idOf(p.profileId);
    const email = textOf(p.email)?.toLowerCase();
    const keys = [id && `id:${id}`, email && `email:${email}`].filter((k): k is string => !!k);
    if (keys.length === 0) return undefined;
    let entry = keys.map((k) => this.byKey.get(k)).find((e) => e !== undefined);
    if (!entry) {
      entry = {
        profileId: null,
        name: null,
        email: null,
        title: null,
        companyName: null,
        meetings: { count: 0, last: null },
        openItems: { assignedToThem: 0, assignedToMe: 0 },
        keys: new Set(),
        meetingIds: new Set(),
      };
      this.entries.push(entry);
    }
    entry.profileId ??= exact(p.profileId);
    entry.name ??= textOf(p.name);
    entry.email ??= textOf(p.email);
    entry.title ??= textOf(p.title);
    entry.companyName ??= textOf(p.companyName);
    for (const k of keys) {
      entry.keys.add(k);
      this.byKey.set(k, entry);
    }
    return entry;
  }
}

/** How well `entry` matches the folded `needle`: lower is better, undefined is no match. */
function tier(entry: Entry, needle: string): number | undefined {
  const name = entry.name ? fold(entry.name) : '';
  const email = entry.email ? fold(entry.email) : '';
  if (name === needle || email === needle || email.split('@')[0] === needle) return 0;
  if (name.split(/[\s\-'.]+/).some((w) => w.startsWith(needle)) || name.startsWith(needle)) return 1;
  if (name.includes(needle)) return 2;
  if (email.includes(needle)) return 3;
  return undefined;
}

/** Every person `q.name` may mean, best first: the closest match, then the most meetings together. */
export async function findPeople(mirror: MirrorReader, q: PeopleQuery): Promise<PeopleFound> {
  const needle = fold(q.name.trim());
  if (needle === '') throw new EmptyArgumentError('name');
  // Counts of meetings and of your items mean something only over complete lists.
  const reads = new MirrorReads(mirror);
  await reads.listMeetings({}).ready();
  await reads.listActionItems({ status: 'ALL', assigneeType: 'Me' }).ready();
  const db = mirror.db;
  const dir = new Directory();

  const attendees = db.prepare<{ id: string; createdAt: string | null; attendee: string }>(
    `SELECT m.id AS id, m.created_at AS createdAt, a.value AS attendee
     FROM meetings m, json_each(m.json, '$.attendees') a
     WHERE m.deleted_at IS NULL AND json_type(m.json, '$.attendees') = 'array' AND a.type = 'object'`,
  );
  for (const row of attendees.iterate()) {
    const entry = dir.add(parseJsonExact(row.attendee) as Obj);
    if (!entry || entry.meetingIds.has(row.id)) continue;
    entry.meetingIds.add(row.id);
    entry.meetings.count++;
    if (
      row.createdAt &&
      (!entry.meetings.last || Date.parse(row.createdAt) > Date.parse(entry.meetings.last))
    )
      entry.meetings.last = row.createdAt;
  }
  for (const row of db
    .prepare<{ json: string }>('SELECT json FROM people WHERE deleted_at IS NULL ORDER BY position, id')
    .iterate()) {
    const p = parseJsonExact(row.json) as Obj;
    const name = [textOf(p.firstName), textOf(p.lastName)].filter(Boolean).join(' ');
    dir.add({ ...p, profileId: p.id, name: textOf(p.name) ?? (name || null) });
  }
  const items = db.prepare<{ assignee: string | null; meetingIds: string | null; mine: number }>(
    `SELECT json_extract(json, '$.assignee') AS assignee, json_extract(json, '$.meetingIds') AS meetingIds, mine
     FROM action_items WHERE deleted_at IS NULL AND json_extract(json, '$.status') = 'PENDING'`,
  );
  const mineFrom: string[][] = [];
  for (const row of items.iterate()) {
    const assignee = row.assignee ? (parseJsonExact(row.assignee) as Obj) : undefined;
    const entry = assignee && typeof assignee === 'object' ? dir.add(assignee) : undefined;
    if (entry) entry.openItems.assignedToThem++;
    if (row.mine === 1 && row.meetingIds) {
      const ids = JSON.parse(row.meetingIds) as unknown;
      if (Array.isArray(ids)) mineFrom.push(ids.map(String));
    }
  }

  const found = dir.entries
    .map((entry) => ({ entry, tier: tier(entry, needle) }))
    .filter((m): m is { entry: Entry; tier: number } => m.tier !== undefined);
  for (const { entry } of found) {
    entry.openItems.assignedToMe = mineFrom.filter((ids) =>
      ids.some((id) => entry.meetingIds.has(id)),
    ).length;
  }
  found.sort(
    (a, b) =>
      a.tier - b.tier ||
      b.entry.meetings.count - a.entry.meetings.count ||
      (Date.parse(b.entry.meetings.last ?? '') || 0) - (Date.parse(a.entry.meetings.last ?? '') || 0) ||
      (a.entry.name ?? '').localeCompare(b.entry.name ?? ''),
  );
  const limit = q.limit ?? 20;
  return {
    people: found.slice(0, limit).map(({ entry: { keys: _k, meetingIds: _m, ...person } }) => person),
    more: found.length > limit,
  };
}
