// The questions people ask an assistant, answered in one call: list_action_items by attendee,
// assignee (or me), the meeting's date and words, each item with its meetings; get_person for who
// a name means. Checked against the sandbox's own data (snapshot()), with accents and case.
import { describe, expect } from 'vitest';
import { type Connected, mcpTest as it, type McpEnv, type Obj } from './helpers.js';

/** Accents and case away, as a person typing would expect. */
const plain = (s: unknown) =>
  String(s ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

async function items(c: Connected, args: Obj): Promise<Obj[]> {
  const out: Obj[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const r = await c.call('list_action_items', { ...args, limit: 7, ...(cursor ? { cursor } : {}) });
    expect(r.isError, r.text).toBe(false);
    out.push(...r.data.actionItems);
    cursor = r.data.nextCursor;
    if (!cursor) return out;
  }
  throw new Error('more than 100 pages');
}

const ids = (list: Obj[]) => list.map((i) => String(i.id)).sort();

/** The sandbox's pending items whose meetings pass `meeting`. */
function pendingOfMeetings(m: McpEnv, meeting: (m: Obj) => boolean): Obj[] {
  const snap = m.sandbox.snapshot();
  const chosen = new Set(snap.meetings.filter((x: Obj) => meeting(x)).map((x: Obj) => x.id));
  return snap.actionItems.filter(
    (i: Obj) => i.status === 'PENDING' && (i.meetingIds ?? []).some((id: string) => chosen.has(id)),
  );
}

const attends = (who: string) => (x: Obj) =>
  (x.attendees ?? []).some((p: Obj) => plain(`${p.name}\n${p.email}`).includes(plain(who)));

describe('list_action_items: the filters people ask with', () => {
  it("attendee: someone at the item's meeting, accents and case folded, as the sandbox has them", async ({
    m,
    c,
  }) => {
    const snap = m.sandbox.snapshot();
    // A name the sandbox writes with an accent: typed without it, and in capitals with it.
    const accented = snap.meetings
      .flatMap((x: Obj) => x.attendees ?? [])
      .find((p: Obj) => p.name && plain(p.name) !== p.name.toLowerCase()) as Obj;
    expect(accented, 'the sandbox has an accented attendee').toBeDefined();
    const last = String(accented.name).split(' ').at(-1)!;
    const expected = ids(pendingOfMeetings(m, attends(last)));
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(await items(c, { attendee: plain(last) }))).toEqual(expected);
    expect(ids(await items(c, { attendee: last.toUpperCase() }))).toEqual(expected);
    // Part of an email.
    const domain = String(accented.email).split('@')[1]!;
    expect(ids(await items(c, { attendee: domain }))).toEqual(ids(pendingOfMeetings(m, attends(domain))));
  });

  it("assignee: me is the user's own items; a name is whoever it is assigned to, folded", async ({
    m,
    c,
  }) => {
    const snap = m.sandbox.snapshot();
    expect(ids(await items(c, { assignee: 'me' }))).toEqual(
      ids(snap.myActionItems.filter((i: Obj) => i.status === 'PENDING')),
    );
    const someone = snap.actionItems.find(
      (i: Obj) =>
        i.status === 'PENDING' && i.assignee?.name && !snap.myActionItems.some((o: Obj) => o.id === i.id),
    ) as Obj;
    const first = String(someone.assignee.name).split(' ')[0]!;
    const expected = snap.actionItems.filter(
      (i: Obj) =>
        i.status === 'PENDING' && plain(`${i.assignee?.name}\n${i.assignee?.email}`).includes(plain(first)),
    );
    expect(ids(await items(c, { assignee: first.toUpperCase() }))).toEqual(ids(expected));
    // "what did I promise X": mine, from meetings X attended.
    const promised = await items(c, { assignee: 'me', attendee: first });
    const mine = new Set(snap.myActionItems.map((i: Obj) => String(i.id)));
    expect(ids(promised)).toEqual(
      ids(pendingOfMeetings(m, attends(first)).filter((i) => mine.has(String(i.id)))),
    );
    expect(await items(c, { assignee: 'me', mine: false })).toEqual([]);
  });

  it("since and until bound the meeting's date; query finds words in the title or description", async ({
    m,
    c,
  }) => {
    const snap = m.sandbox.snapshot();
    const dates = snap.meetings.map((x: Obj) => x.createdAt as string).sort();
    const since = dates[Math.floor(dates.length / 3)]!;
    const until = dates[Math.floor((2 * dates.length) / 3)]!;
    const inWindow = (x: Obj) => x.createdAt >= since && x.createdAt < until;
    const expected = ids(pendingOfMeetings(m, inWindow));
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(await items(c, { since, until }))).toEqual(expected);

    const word = String(snap.actionItems.find((i: Obj) => i.status === 'PENDING')!.title).split(' ')[0]!;
    const byWord = snap.actionItems.filter(
      (i: Obj) => i.status === 'PENDING' && plain(`${i.title}\n${i.description}`).includes(plain(word)),
    );
    expect(ids(await items(c, { query: word.toUpperCase() }))).toEqual(ids(byWord));
    // Combined: every filter holds.
    const both = await items(c, { query: word, since, status: 'all' });
    for (const i of both) {
      expect(plain(`${i.title}\n${i.description}`)).toContain(plain(word));
      expect(i.meetings.some((x: Obj) => x.createdAt >= since)).toBe(true);
    }
  });

  it('each item carries its meetings: {id, name, createdAt} as the sandbox has them', async ({ m, c }) => {
    const snap = m.sandbox.snapshot();
    const meetings = new Map(snap.meetings.map((x: Obj) => [x.id, x]));
    const all = await items(c, { status: 'all' });
    expect(all.length).toBe(snap.actionItems.length);
    expect(all.some((i) => i.meetings.length > 0)).toBe(true);
    for (const i of all) {
      expect(i.meetings).toEqual(
        (i.meetingIds ?? [])
          .filter((id: string) => meetings.has(id))
          .map((id: string) => {
            const x = meetings.get(id) as Obj;
            return { id, name: x.name ?? null, createdAt: x.createdAt };
          }),
      );
    }
  });

  it('bad filters are one sentence each', async ({ c }) => {
    expect((await c.call('list_action_items', { attendee: '  ' })).text).toBe('attendee must not be empty');
    expect((await c.call('list_action_items', { since: 'last tuesday' })).isError).toBe(true);
    expect((await c.call('list_action_items', { meetingId: 'mtg_nope', attendee: 'a' })).text).toMatch(
      /^no meeting mtg_nope in the mirror/,
    );
  });
});

describe('get_person', () => {
  it('finds a person by part of the name, accents and case folded, with meetings and open items each way', async ({
    m,
    c,
  }) => {
    const snap = m.sandbox.snapshot();
    const person = snap.meetings
      .flatMap((x: Obj) => x.attendees ?? [])
      .find((p: Obj) => p.name && plain(p.name) !== p.name.toLowerCase()) as Obj;
    const theirMeetings = snap.meetings.filter((x: Obj) =>
      (x.attendees ?? []).some((p: Obj) => p.profileId === person.profileId),
    );
    const meetingIds = new Set(theirMeetings.map((x: Obj) => x.id));
    const pending = (i: Obj) => i.status === 'PENDING';
    const expected = {
      profileId: person.profileId,
      name: person.name,
      email: person.email,
      title: person.title,
      companyName: person.companyName,
      meetings: {
        count: theirMeetings.length,
        last: theirMeetings
          .map((x: Obj) => x.createdAt)
          .sort()
          .at(-1),
      },
      openItems: {
        assignedToThem: snap.actionItems.filter(
          (i: Obj) => pending(i) && i.assignee?.profileId === person.profileId,
        ).length,
        assignedToMe: snap.myActionItems.filter(
          (i: Obj) => pending(i) && (i.meetingIds ?? []).some((id: string) => meetingIds.has(id)),
        ).length,
      },
    };
    for (const typed of [plain(person.name), String(person.name).toUpperCase(), person.email.split('@')[0]]) {
      const r = await c.call('get_person', { name: typed });
      expect(r.isError, r.text).toBe(false);
      expect(r.data.people[0], typed).toEqual(expected);
    }
  });

  it('a first name shared by several: every one of them, the closest first; none is an empty list', async ({
    m,
    c,
  }) => {
    const snap = m.sandbox.snapshot();
    const firsts = new Map<string, Set<string>>();
    for (const p of snap.people as Obj[]) {
      const set = firsts.get(plain(p.firstName)) ?? new Set();
      set.add(String(p.id));
      firsts.set(plain(p.firstName), set);
    }
    const [first, who] = [...firsts].sort((a, b) => b[1].size - a[1].size)[0]!;
    const r = await c.call('get_person', { name: first });
    const found = new Set(r.data.people.map((p: Obj) => String(p.profileId)));
    for (const id of who) expect(found.has(id), `${first}: ${id}`).toBe(true);
    expect(plain(r.data.people[0].name).split(' ')[0]).toBe(first);
    expect((await c.call('get_person', { name: 'Nobody Atall' })).data).toEqual({ people: [] });
    expect((await c.call('get_person', { name: ' ' })).text).toBe('name must not be empty');
  });
});
