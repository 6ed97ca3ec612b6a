// `node bench/assistant-replay.mjs`: twelve questions people ask a meeting-notes assistant, replayed
// against `mtg mcp` over a mirror synced from the sandbox (the SDK's Client over its in-memory
// transport, mtg's server in this process). For each: the fewest tool calls that answer it with the
// tools as they stand, the tokens those results carry (js-tiktoken, o200k_base: every text block of
// every result), and the answer checked against the sandbox's own data (snapshot()).
// Targets: every question in <= 2 calls and <= 6,000 tokens, and every answer right.
// Prints a table and never fails on a missed target. BENCH_QUICK=1: the tests' small sandbox.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getEncoding } from 'js-tiktoken';
import { loadSourceText } from './bundle.mjs';

const QUICK = process.env.BENCH_QUICK === '1';
const SIZES = QUICK
  ? { meetings: 12, actionItems: 30, people: 14, companies: 5 }
  : { meetings: 30, actionItems: 60, people: 40, companies: 10 };
const MAX_CALLS = 2;
const MAX_TOKENS = 6000;

/** The sandbox, a mirror synced from it, and mtg's server with a client: bundled from the sources. */
async function loadHarness() {
  return (
    await loadSourceText(`
        import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
        import { ApiClient } from './src/api/client.js';
        import { Context } from './src/cli/context.js';
        import { parseGlobals } from './src/cli/globals.js';
        import { testIO } from './src/cli/io.js';
        import { mirrorAccess } from './src/mcp/mirror-access.js';
        import { createMcpServer } from './src/mcp/server.js';
        import { openMirror } from './src/mirror/open.js';
        import { runSync } from './src/mirror/sync.js';
        import { startSandbox } from './src/sandbox/index.js';
        export async function start(work, sizes) {
          const sandbox = await startSandbox({ limits: 'none', pageSize: 50, sizes });
          const dataDir = work + '/data';
          const mirror = openMirror({ profile: 'default', dataDir, baseUrl: sandbox.baseUrl });
          const api = new ApiClient({ baseUrl: new URL(sandbox.baseUrl), apiKey: sandbox.apiKey, userAgent: 'bench', timeoutMs: 10000, maxRetries: 2, maxWaitMs: 60000 });
          try { await runSync(api, mirror); } finally { mirror.close(); }
          const env = { HOME: work, MTG_DATA_DIR: dataDir, MTG_CONFIG_DIR: work + '/config', MTG_BASE_URL: sandbox.baseUrl };
          const io = testIO();
          io.decideColors(env, true);
          const ctx = new Context(parseGlobals({ offline: true }), io, env, new AbortController().signal);
          const access = await mirrorAccess(ctx);
          const server = createMcpServer(access, { version: 'bench', offline: true, allowWrites: false, log: () => {} });
          const [a, b] = InMemoryTransport.createLinkedPair();
          await server.connect(a);
          const client = new Client({ name: 'bench', version: '1' });
          await client.connect(b);
          return {
            client,
            snapshot: () => sandbox.snapshot(),
            close: async () => { await client.close(); await server.close(); access.close(); await ctx.dispose(); await sandbox.close(); },
          };
        }`)
  ).start;
}

const enc = getEncoding('o200k_base');
const plain = (s) =>
  String(s ?? '')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
const sameIds = (a, b) =>
  JSON.stringify(a.map((x) => String(x.id)).sort()) === JSON.stringify(b.map((x) => String(x.id)).sort());

/** One question's replay: its calls in order (each may use the results before it). */
async function replay(client, calls) {
  const results = [];
  let tokens = 0;
  for (const make of calls) {
    const [name, args] = make(results);
    const r = await client.callTool({ name, arguments: args });
    for (const c of r.content) if (c.type === 'text') tokens += enc.encode(c.text).length;
    if (r.isError) throw new Error(`${name} ${JSON.stringify(args)}: ${r.content[0]?.text}`);
    results.push(r.structuredContent);
  }
  return { results, tokens, calls: calls.length };
}

function questions(snap) {
  const me = snap.myActionItems[0]?.assignee ?? { profileId: 1 };
  const pending = (i) => i.status === 'PENDING';
  const mine = new Set(snap.myActionItems.map((i) => String(i.id)));
  const meetingsOf = (pred) => new Set(snap.meetings.filter(pred).map((m) => m.id));
  const fromMeetings = (ids) => (i) => (i.meetingIds ?? []).some((id) => ids.has(id));
  const attends = (who) => (m) =>
    (m.attendees ?? []).some((p) => plain(`${p.name}\n${p.email}`).includes(plain(who)));

  // The people asked about: the attendees (not the user) met most often; Dana's first name alone.
  const counts = new Map();
  for (const m of snap.meetings)
    for (const p of m.attendees ?? [])
      if (p.profileId !== me.profileId && p.name) counts.set(p.name, (counts.get(p.name) ?? 0) + 1);
  const byCount = [...counts].sort((a, b) => b[1] - a[1]).map(([n]) => n);
  const dana =
    byCount.find((n) => snap.actionItems.some((i) => pending(i) && i.assignee?.name === n)) ?? byCount[0];
  const [y, z] = byCount.filter((n) => n !== dana);
  const accented = byCount.find((n) => plain(n) !== n.toLowerCase()) ?? byCount[2];
  const danaFirst = dana.split(' ')[0];

  const newest = snap.meetings
    .map((m) => m.createdAt)
    .sort()
    .at(-1);
  const monday = new Date(newest);
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7) - 7);
  const sinceMonday = monday.toISOString().slice(0, 10);
  const month = new Date(newest);
  const lastMonthStart = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() - 1, 1))
    .toISOString()
    .slice(0, 10);
  const thisMonthStart = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), 1))
    .toISOString()
    .slice(0, 10);
  // A bare date as until takes its whole day: last month ends with its last day.
  const lastMonthEnd = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), 0))
    .toISOString()
    .slice(0, 10);
  const company = 'Acme';
  const inText = (m, word) => plain(`${m.name}\n${m.notes}`).includes(word);

  return [
    {
      q: `What did I promise ${danaFirst}?`,
      calls: [() => ['list_action_items', { assignee: 'me', attendee: danaFirst, limit: 200 }]],
      check: ([r]) =>
        sameIds(
          r.actionItems,
          snap.actionItems.filter(
            (i) => pending(i) && mine.has(String(i.id)) && fromMeetings(meetingsOf(attends(danaFirst)))(i),
          ),
        ),
    },
    {
      q: `What does ${danaFirst} owe me?`,
      calls: [() => ['list_action_items', { assignee: danaFirst, limit: 200 }]],
      check: ([r]) =>
        sameIds(
          r.actionItems,
          snap.actionItems.filter(
            (i) =>
              pending(i) && plain(`${i.assignee?.name}\n${i.assignee?.email}`).includes(plain(danaFirst)),
          ),
        ),
    },
    {
      q: `What is open from my meetings with ${y} since Monday (${sinceMonday})?`,
      calls: [() => ['list_action_items', { attendee: y, since: sinceMonday, limit: 200 }]],
      check: ([r]) =>
        sameIds(
          r.actionItems,
          snap.actionItems.filter(
            (i) =>
              pending(i) &&
              fromMeetings(meetingsOf((m) => attends(y)(m) && m.createdAt >= `${sinceMonday}`))(i),
          ),
        ),
      // A day in local time: the bench runs in UTC (TZ unset) for the check to hold exactly.
    },
    {
      q: `Prep me for my call with ${z}.`,
      calls: [() => ['get_person', { name: z }], () => ['list_action_items', { attendee: z, limit: 200 }]],
      // Every person of that name (two people may share it: the assistant then asks which), each
      // with the meetings that profile attended.
      check: ([p, r]) =>
        [
          ...new Set(
            snap.meetings.flatMap((m) =>
              (m.attendees ?? []).filter((a) => a.name === z).map((a) => a.profileId),
            ),
          ),
        ].every(
          (id) =>
            p.people.find((x) => x.profileId === id)?.meetings.count ===
            snap.meetings.filter((m) => (m.attendees ?? []).some((a) => a.profileId === id)).length,
        ) &&
        sameIds(
          r.actionItems,
          snap.actionItems.filter((i) => pending(i) && fromMeetings(meetingsOf(attends(z)))(i)),
        ),
    },
    {
      q: `Meetings with ${company} last month (${lastMonthStart.slice(0, 7)})?`,
      calls: [
        () => [
          'list_meetings',
          { attendee: company, since: lastMonthStart, until: lastMonthEnd, limit: 100 },
        ],
      ],
      check: ([r]) =>
        sameIds(
          r.meetings,
          snap.meetings.filter(
            (m) => attends(company)(m) && m.createdAt >= lastMonthStart && m.createdAt < thisMonthStart,
          ),
        ),
    },
    {
      // Asked as the user phrased it: search takes questions (#30).
      q: 'What was decided about the budget?',
      calls: [() => ['search', { query: 'What was decided about the budget?', limit: 5 }]],
      check: ([r]) =>
        r.results.length > 0 &&
        r.results.every(
          (h) =>
            inText(snap.meetings.find((m) => m.id === h.meetingId) ?? {}, 'budget') ||
            plain(h.snippet).includes('budget'),
        ),
    },
    {
      q: 'Find where we discussed pricing.',
      calls: [() => ['search', { query: 'Find where we discussed pricing.', limit: 10 }]],
      // Answered: every hit is a passage or meeting about pricing, and the first is a meeting
      // named for it (the sandbox's "Pricing discussion with …").
      check: ([r]) => {
        const meeting = (h) => snap.meetings.find((m) => m.id === h.meetingId) ?? {};
        return (
          r.results.length > 0 &&
          /pricing/i.test(meeting(r.results[0]).name ?? '') &&
          r.results.every((h) => inText(meeting(h), 'pricing') || plain(h.snippet).includes('pricing'))
        );
      },
    },
    {
      q: 'What is on my plate? (my open action items)',
      calls: [() => ['list_action_items', { assignee: 'me', limit: 200 }]],
      check: ([r]) => sameIds(r.actionItems, snap.myActionItems.filter(pending)),
    },
    {
      q: `Who is ${plain(accented).split(' ')[0]} (typed without accents)?`,
      calls: [() => ['get_person', { name: plain(accented).split(' ')[0] }]],
      check: ([r]) => r.people.some((p) => p.name === accented),
    },
    {
      q: `When did I last meet ${danaFirst}, and about what?`,
      calls: [() => ['list_meetings', { attendee: danaFirst, limit: 1 }]],
      check: ([r]) =>
        r.meetings[0]?.id ===
        snap.meetings.filter(attends(danaFirst)).sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))[0]?.id,
    },
    {
      q: 'Summarize my last meeting with Globex.',
      calls: [
        () => ['list_meetings', { attendee: 'globex', limit: 1 }],
        ([list]) => ['get_meeting', { id: list.meetings[0].id }],
      ],
      check: ([list, g]) => {
        const last = snap.meetings
          .filter(attends('globex'))
          .sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))[0];
        return list.meetings[0]?.id === last?.id && g.meeting.notes === last.notes;
      },
    },
    {
      q: `Which of my items did I finish since ${sinceMonday}?`,
      calls: [
        () => ['list_action_items', { assignee: 'me', status: 'done', since: sinceMonday, limit: 200 }],
      ],
      check: ([r]) =>
        sameIds(
          r.actionItems,
          snap.myActionItems.filter(
            (i) => i.status === 'DONE' && fromMeetings(meetingsOf((m) => m.createdAt >= sinceMonday))(i),
          ),
        ),
    },
  ];
}

const work = mkdtempSync(join(tmpdir(), 'mtg-bench-replay-'));
process.env.TZ = 'UTC';
let harness;
try {
  const start = await loadHarness();
  harness = await start(work, SIZES);
  const snap = harness.snapshot();
  console.log(
    `assistant replay: ${snap.meetings.length} meetings, ${snap.actionItems.length} action items, ${snap.people.length} people${QUICK ? ' (BENCH_QUICK: not figures to quote)' : ''}; tokens: o200k_base over every text block of every result`,
  );
  console.log('');
  console.log('| # | question | calls | tokens | answer right | within targets |');
  console.log('|---|---|---|---|---|---|');
  let worstCalls = 0;
  let worstTokens = 0;
  let right = 0;
  const qs = questions(snap);
  for (const [n, q] of qs.entries()) {
    let line;
    try {
      const r = await replay(harness.client, q.calls);
      const ok = !!q.check(r.results);
      if (ok) right++;
      worstCalls = Math.max(worstCalls, r.calls);
      worstTokens = Math.max(worstTokens, r.tokens);
      const within = r.calls <= MAX_CALLS && r.tokens <= MAX_TOKENS;
      const tools = q.calls.map((make, i) => make(r.results.slice(0, i))[0]).join(' + ');
      line = `| ${n + 1} | ${q.q} (${tools}) | ${r.calls} | ${r.tokens.toLocaleString('en')} | ${ok ? 'yes' : 'NO'} | ${within ? 'yes' : 'NO'} |`;
    } catch (err) {
      line = `| ${n + 1} | ${q.q} | - | - | NO (${err instanceof Error ? err.message : String(err)}) | NO |`;
    }
    console.log(line);
  }
  console.log('');
  console.log(
    `worst: ${worstCalls} calls (target <= ${MAX_CALLS}), ${worstTokens.toLocaleString('en')} tokens (target <= ${MAX_TOKENS.toLocaleString('en')}); answers right: ${right} of ${qs.length}`,
  );
} finally {
  await harness?.close();
  rmSync(work, { recursive: true, force: true });
}
