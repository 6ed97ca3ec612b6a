// "List action items with filters" is described once (src/api/action-item-filter.ts) and answered
// in two places: the sandbox, which plays the service (its own implementation of the spec's
// semantics), and the mirror, which compiles every filter to SQL. One table of cases runs against
// both: what the service's filters keep from the sandbox is what the mirror's SQL keeps after a
// sync. The filters only the mirror answers are judged by their meaning, written out below over the
// service's own listing (names, emails and words folded: case and accents do not matter).
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionItemFilter } from '../../src/api/action-item-filter.js';
import * as E from '../../src/api/endpoints.js';
import { paginate } from '../../src/api/paginate.js';
import type * as S from '../../src/api/schemas.js';
import { type Mirror, openMirror } from '../../src/mirror/open.js';
import { MirrorReads } from '../../src/mirror/reads.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { foldText } from '../../src/shared/fold.js';
import { clientFor, engineSync, SMALL } from '../mirror/helpers.js';

type Obj = Record<string, unknown>;

let sb: Sandbox;
let mirror: Mirror;
let everyItem: S.ActionItem[];
let meetings: Map<string, S.Meeting>;

async function fromSandbox(filter: ActionItemFilter): Promise<string[]> {
  const ids: string[] = [];
  for await (const item of paginate(clientFor(sb), E.listActionItems(filter))) ids.push(String(item.id));
  return ids;
}

async function fromMirror(filter: ActionItemFilter): Promise<string[]> {
  const listing = new MirrorReads(mirror).listActionItems(filter);
  await listing.ready();
  const ids: string[] = [];
  for await (const page of listing.pages({})) ids.push(...page.items.map((i) => String(i.id)));
  return ids;
}

beforeAll(async () => {
  sb = await startSandbox({ limits: 'none', pageSize: 7, sizes: { ...SMALL, actionItems: 60 }, seed: 31 });
  const sync = engineSync(sb, { transcripts: false });
  let dataDir = '';
  await sync({}, (m) => {
    dataDir = dirname(m.path);
  });
  mirror = openMirror({ profile: 'default', dataDir, baseUrl: sb.baseUrl, readonly: true });
  everyItem = [];
  for await (const item of paginate(
    clientFor(sb),
    E.listActionItems({ assigneeType: 'Anyone', status: 'ALL' }),
  ))
    everyItem.push(item);
  meetings = new Map();
  for await (const m of paginate(clientFor(sb), E.listMeetings({}))) meetings.set(String(m.id), m);
}, 60_000);

afterAll(async () => {
  mirror?.close();
  await sb?.close();
});

/** Values of the sandbox's data for the cases: a tag, an attendee, an assignee who is not the user, a word. */
function picks() {
  const all = [...meetings.values()];
  const tagged = all.find((m) => m.tags.length > 0)!;
  const assigned = everyItem.find((i) => i.assignee && !mineIds().has(String(i.id)))!;
  const meeting = all.find((m) =>
    everyItem.some((i) => (i.meetingIds ?? []).map(String).includes(String(m.id))),
  )!;
  // The attendee at the fewest meetings (the user is at every one), one with an accent if any.
  const at = (name: unknown) => all.filter((m) => m.attendees.some((a) => a.name === name)).length;
  const accented = (name: unknown) => Number(!/[\u00c0-\u024f]/.test(String(name)));
  const attendees = all
    .flatMap((m) => m.attendees)
    .sort((a, b) => accented(a.name) - accented(b.name) || at(a.name) - at(b.name));
  // A word of some titles, not of most.
  const titles = everyItem.map((i) => foldText(i.title));
  const words = [...new Set(titles.flatMap((t) => t.split(/\s+/)))].filter((w) => w.length > 3);
  const count = (w: string) => titles.filter((t) => t.includes(w)).length;
  const word = words.sort((a, b) => Math.abs(count(a) - 5) - Math.abs(count(b) - 5))[0]!;
  return {
    tagged,
    tag: String(tagged.tags[0]!.id),
    attendee: attendees[0]!,
    meeting,
    assignee: assigned.assignee as Obj,
    word,
  };
}

let mine: Set<string> | undefined;
function mineIds(): Set<string> {
  mine ??= new MirrorReads(mirror).myActionItemIds();
  return mine;
}

describe("the service's filters: the sandbox and the mirror keep the same items, in the same order", () => {
  it('status, every assignee type the mirror answers, tags and attendees, alone and combined', async () => {
    const p = picks();
    const profile = Number((p.assignee as { profileId: number }).profileId);
    const cases: ActionItemFilter[] = [
      {},
      { status: 'DONE' },
      { status: 'ALL' },
      { assigneeType: 'Me', status: 'ALL' },
      { assigneeType: 'NotMe' },
      { assigneeType: 'Anyone', status: 'ALL' },
      { assigneeType: 'Unassigned', status: 'ALL' },
      { assigneeType: 'Profile', assigneeProfileId: profile, status: 'ALL' },
      { assigneeType: 'Anyone', status: 'ALL', tagIds: [p.tag] },
      { assigneeType: 'Anyone', status: 'ALL', attendeeProfileIds: [String(p.attendee.profileId)] },
      {
        assigneeType: 'Anyone',
        status: 'ALL',
        tagIds: [p.tag, '999999'],
        attendeeProfileIds: [String(p.attendee.profileId)],
      },
      { status: 'PENDING', tagIds: [p.tag] },
    ];
    const kept = new Set<number>();
    for (const filter of cases) {
      const expected = await fromSandbox(filter);
      expect(await fromMirror(filter), JSON.stringify(filter)).toEqual(expected);
      kept.add(expected.length);
    }
    // The cases discriminate: they keep different numbers of items, none of them all or none.
    expect(kept.size).toBeGreaterThan(6);
  });
});

describe('the filters only the mirror answers, judged by their meaning', () => {
  const folded = (needle: string, ...texts: unknown[]) =>
    texts.some((t) => typeof t === 'string' && foldText(t).includes(foldText(needle.trim())));
  const meetingsOf = (i: S.ActionItem) =>
    (i.meetingIds ?? []).map(String).flatMap((id) => (meetings.has(id) ? [meetings.get(id)!] : []));

  it('mine, assignee (a part, folded; me), meetingId, attendee (folded), since/until and query words', async () => {
    const p = picks();
    const dates = [...meetings.values()].map((m) => m.createdAt).sort();
    const middle = dates[Math.floor(dates.length / 2)]!;
    const word = p.word;
    const counts = new Set<number>();
    const anyone = { assigneeType: 'Anyone', status: 'ALL' } as const;
    const cases: [ActionItemFilter, (i: S.ActionItem) => boolean][] = [
      [{ ...anyone, mine: true }, (i) => mineIds().has(String(i.id))],
      [{ ...anyone, mine: false }, (i) => !mineIds().has(String(i.id))],
      [{ ...anyone, assignee: ' ME ' }, (i) => mineIds().has(String(i.id))],
      [{ ...anyone, assignee: 'me', mine: false }, () => false],
      [
        { ...anyone, assignee: String(p.assignee.name).toUpperCase() },
        (i) => !!i.assignee && folded(String(p.assignee.name), i.assignee.name, i.assignee.email),
      ],
      [
        { ...anyone, assignee: foldText(String(p.assignee.email)).slice(0, 5) },
        (i) =>
          !!i.assignee && folded(String(p.assignee.email).slice(0, 5), i.assignee.name, i.assignee.email),
      ],
      [
        { ...anyone, meetingId: String(p.meeting.id) },
        (i) => meetingsOf(i).some((m) => m.id === p.meeting.id),
      ],
      [
        { ...anyone, attendee: foldText(String(p.attendee.name)).toUpperCase() },
        (i) =>
          meetingsOf(i).some((m) =>
            m.attendees.some((a) => folded(String(p.attendee.name), a.name, a.email)),
          ),
      ],
      [{ ...anyone, since: middle }, (i) => meetingsOf(i).some((m) => m.createdAt >= middle)],
      [{ ...anyone, until: middle }, (i) => meetingsOf(i).some((m) => m.createdAt < middle)],
      [
        { ...anyone, since: p.tagged.createdAt, until: dates.at(-1), tagIds: [p.tag] },
        (i) =>
          meetingsOf(i).some(
            (m) =>
              m.createdAt >= p.tagged.createdAt &&
              m.createdAt < dates.at(-1)! &&
              m.tags.some((t) => String(t.id) === p.tag),
          ),
      ],
      [
        { ...anyone, query: `  ${word.toUpperCase()} ` },
        (i) => foldText(`${i.title}\n${i.description ?? ''}`).includes(foldText(word)),
      ],
    ];
    for (const [filter, keeps] of cases) {
      const expected = everyItem.filter(keeps).map((i) => String(i.id));
      counts.add(expected.length);
      expect(await fromMirror(filter), JSON.stringify(filter)).toEqual(expected);
    }
    expect(counts.size).toBeGreaterThan(6);
  });
});
