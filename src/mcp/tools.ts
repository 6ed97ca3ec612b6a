// The tools and the resource template of `mtg mcp`, as the contract names them: declarations over
// the mirror (mirror-access.ts), plus what only MCP needs (arguments checked into one sentence,
// pages within the size bound, cursors). Each call reads the mirror afresh.

import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import { ResourceTemplate } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { MtgError, UsageError } from '../api/errors.js';
import { ExactInteger } from '../api/exact.js';
import { exactId } from '../cli/input.js';
import {
  type ChangeEvent,
  type ChangeResource,
  type Hit,
  type MirrorAccess,
  PASSAGE_KINDS,
  type Reader,
  timeWindow,
} from './mirror-access.js';
import {
  afterMeetingKey,
  decodeCursor,
  type EntryPosition,
  encodeCursor,
  fingerprint,
  type HitsPosition,
  ITEMS_BOUND,
  type ItemKey,
  idSortKey,
  isEntryPosition,
  isHitsPosition,
  isItemKey,
  isMeetingKey,
  jsonLength,
  type MeetingKey,
  meetingKeyOf,
  RESULT_BOUND,
  safePrefix,
  shortenStrings,
  takePage,
} from './paging.js';
import { boundedMarkdown, meetingInPieces } from './resource.js';
import { BUDGET_DESCRIPTION, SYNC_DESCRIPTION, type SyncProgressReport } from './sync-tool.js';

type Obj = Record<string, unknown>;

export interface ToolsOptions {
  offline: boolean;
  allowWrites: boolean;
  /** Runs one sync in this process (bounded in time, sync-tool.ts); undefined with --offline. */
  sync?: (budget: number | undefined, report?: (p: SyncProgressReport) => void) => Promise<unknown>;
  /** Markdown of one meeting in the export's layout (without transcript). */
  renderMeeting: (id: string, meeting: Obj) => Promise<string>;
  /** Logs a failure that is not the caller's (stderr). */
  log: (line: string) => void;
}

export const CHANGE_RESOURCES = ['meetings', 'action-items', 'people', 'companies', 'transcripts'] as const;

const DATES =
  'an ISO date (2026-03-01, a local-time day) or date-time (2026-03-01T14:00:00Z), or a duration back from now (30m, 24h, 7d, 2w)';

export const meetingUri = (id: string) => `mtg://meetings/${encodeURIComponent(id)}`;

// ---- arguments: zod schemas whose first problem becomes one plain sentence ----------------------

const wholeIn = (name: string, min: number, max: number) => {
  const error = `${name} must be a whole number from ${min.toLocaleString('en')} to ${max.toLocaleString('en')}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};
const text = (name: string, what = 'a non-empty string') =>
  z
    .string({ error: `${name} must be ${what}` })
    .refine((s) => s.trim() !== '', { error: `${name} must not be empty` });
const optionalText = (name: string) => z.string({ error: `${name} must be a string` });
const cursor = optionalText('cursor').describe('nextCursor of the previous page, passed back exactly');
const since = optionalText('since').describe(`meetings created at or after: ${DATES}`);
const until = optionalText('until').describe(`meetings created before: ${DATES}`);
const numericId = (name: string, what: string) =>
  z.union([z.number(), z.string()], { error: `${name} must be ${what} (a number)` });
/**
 * One of `values`, in either case (a model writes DONE as often as done); tools/list advertises
 * `values` as given. The tool normalizes the case.
 */
const oneOf = <V extends string>(values: readonly V[], error: string) =>
  z
    .string({ error })
    .refine((s) => (values as readonly string[]).some((v) => v.toLowerCase() === s.toLowerCase()), { error })
    .meta({ enum: [...values] });
/** A meeting ID the mirror does not hold: the same sentence from every tool. */
const unknownMeeting = (id: string) =>
  new UsageError(`no meeting ${id} in the mirror (search and list_meetings give IDs)`);
const profileId = (name: string) => numericId(name, 'a profile ID');

function sentence(error: z.ZodError, raw: unknown): string {
  const issue = error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    return `unknown argument${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  }
  const key = String(issue.path[0] ?? '');
  const given = raw !== null && typeof raw === 'object' ? (raw as Obj)[key] : undefined;
  // Only a required argument gives an issue when absent.
  if (key !== '' && given === undefined) return `${key} is required`;
  if (key === '' || issue.message.startsWith(`${key} `)) return issue.message;
  return `${issue.path.join('.')}: ${issue.message}`;
}

/** The JSON Schema of `schema` for tools/list; arguments are checked by the tool (one sentence). */
function advertised(schema: z.ZodType): never {
  const std = schema['~standard'] as unknown as { jsonSchema: unknown };
  return {
    '~standard': {
      version: 1,
      vendor: 'mtg',
      validate: (value: unknown) => ({ value }),
      jsonSchema: std.jsonSchema,
    },
  } as never;
}

// ---- results ----------------------------------------------------------------------------------

interface ToolResult {
  [key: string]: unknown;
  content: (
    | { type: 'text'; text: string }
    | { type: 'resource_link'; uri: string; name: string; mimeType: string }
  )[];
  structuredContent?: Obj;
  isError?: boolean;
}

function ok(value: Obj, links: { id: string; name: string }[] = []): ToolResult {
  const json = JSON.stringify(value);
  return {
    content: [
      { type: 'text', text: json },
      ...links.map((l) => ({
        type: 'resource_link' as const,
        uri: meetingUri(l.id),
        name: l.name,
        mimeType: 'text/markdown',
      })),
    ],
    // The same JSON: ExactIntegers and other classes become what the text block says.
    structuredContent: JSON.parse(json) as Obj,
  };
}

function failure(message: string): ToolResult {
  return { content: [{ type: 'text', text: message.replace(/\s*\n\s*/g, ' ') }], isError: true };
}

/** Distinct meetings of a page, for resource links. */
function meetingLinks(
  items: { id: string; name: string | null | undefined }[],
): { id: string; name: string }[] {
  const seen = new Map<string, string>();
  for (const i of items) if (!seen.has(i.id)) seen.set(i.id, i.name || i.id);
  return [...seen].map(([id, name]) => ({ id, name }));
}

/** Integers past 2^53 as their digits (JSON numbers would round them), as strings. */
function exactValues(row: Obj): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(row)) {
    Object.defineProperty(out, k, {
      value: v instanceof ExactInteger ? v.text : v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

// ---- the tools --------------------------------------------------------------------------------

interface ToolSpec<S extends z.ZodType> {
  title: string;
  description: string;
  input: S;
  annotations: {
    readOnlyHint: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint: boolean;
  };
  /** Needs the mirror (every tool but mirror_status and sync). */
  run: (args: z.infer<S>, request: ServerContext) => Promise<ToolResult>;
}

const READ = { readOnlyHint: true, openWorldHint: false } as const;

function register<S extends z.ZodType>(
  server: McpServer,
  name: string,
  spec: ToolSpec<S>,
  log: (l: string) => void,
) {
  server.registerTool(
    name,
    {
      title: spec.title,
      description: spec.description,
      inputSchema: advertised(spec.input),
      annotations: { title: spec.title, ...spec.annotations },
    },
    (async (raw: unknown, request: ServerContext) => {
      const parsed = spec.input.safeParse(raw ?? {});
      if (!parsed.success) return failure(sentence(parsed.error, raw));
      try {
        return await spec.run(parsed.data, request);
      } catch (err) {
        if (err instanceof MtgError) return failure(err.message);
        log(`mtg mcp: ${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        return failure(`${name} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }) as never,
  );
}

export function registerTools(server: McpServer, access: MirrorAccess, options: ToolsOptions): void {
  const reg = <S extends z.ZodType>(name: string, spec: ToolSpec<S>) =>
    register(server, name, spec, options.log);

  reg('search', {
    title: 'Search meetings',
    description:
      'Full-text search of every stored meeting: names, notes, transcripts, action items and attendees. ' +
      'Start here to find which meetings talk about something. Returns one result per matching passage, ' +
      'best first: {meetingId, meetingName, createdAt, in, speaker, timestamp (seconds into the meeting), ' +
      'snippet (matches between **), rank}. Every word must match; "quoted phrases", prefix*, a OR b and ' +
      '-word work. Then call get_meeting with a meetingId for the meeting, and get_transcript to read what ' +
      'was said around a hit. More results: pass nextCursor back as cursor (good until the mirror next ' +
      'changes; after a sync, search again without it).',
    input: z.strictObject({
      query: text('query').describe('words, "phrases", prefix*, a OR b, -excluded'),
      in: z
        .array(z.enum(PASSAGE_KINDS, { error: `in must list only ${PASSAGE_KINDS.join(', ')}` }), {
          error: `in must be an array of ${PASSAGE_KINDS.join(', ')}`,
        })
        .optional()
        .describe('only these kinds of passage'),
      since: since.optional(),
      until: until.optional(),
      limit: wholeIn('limit', 1, 100).optional().describe('results per page (default 20)'),
      cursor: cursor.optional(),
    }),
    annotations: READ,
    run: async (a) => {
      const window = timeWindow(a.since, a.until);
      const f = fingerprint(['search', a.query, a.in ?? [], a.since ?? null, a.until ?? null]);
      const position = decodeCursor<HitsPosition>(a.cursor, f, isHitsPosition);
      const offset = position?.o ?? 0;
      return access.read((r) => {
        const limit = a.limit ?? 20;
        // The ranking holds while the mirror does: read its state before and after ranking.
        const state = mirrorState(r);
        if (position && position.v !== state) throw new StaleSearchCursor();
        // Ranked up to one past the page (whether a next one exists), as `mtg find --limit` ranks.
        const hits = r.hits(a.query, { in: a.in, ...window, limit: offset + limit + 1 });
        const { page, more, next } = takePage<Hit, Hit>(hits, offset, limit, (h) => h, shortenStrings);
        if (position && mirrorState(r) !== state) throw new StaleSearchCursor();
        const result: Obj = { results: page };
        if (more) result.nextCursor = encodeCursor(f, { o: next, v: state });
        return ok(result, meetingLinks(page.map((h) => ({ id: h.meetingId, name: h.meetingName }))));
      });
    },
  });

  reg('list_meetings', {
    title: 'List meetings',
    description:
      'Meetings stored in the mirror, newest first, with who attended, tags, the number of action items ' +
      'and whether a transcript is stored: {meetings: [{id, name, createdAt, duration (seconds), tags, ' +
      'attendees: [{name, email}], actionItems, hasTranscript}]}. Filter by date, attendee (part of a name ' +
      'or email) or tag name. To find meetings by what was said, use search instead. More: pass nextCursor back.',
    input: z.strictObject({
      since: since.optional(),
      until: until.optional(),
      attendee: text('attendee').optional().describe('part of an attendee name or email'),
      tag: text('tag').optional().describe('a tag name'),
      limit: wholeIn('limit', 1, 100).optional().describe('meetings per page (default 20)'),
      cursor: cursor.optional(),
    }),
    annotations: READ,
    run: async (a) => {
      const window = timeWindow(a.since, a.until);
      const f = fingerprint([
        'list_meetings',
        a.since ?? null,
        a.until ?? null,
        a.attendee ?? null,
        a.tag ?? null,
      ]);
      const key = decodeCursor<MeetingKey>(a.cursor, f, isMeetingKey);
      const after = afterMeetingKey(key);
      const who = a.attendee?.trim().toLowerCase();
      const tag = a.tag?.trim().toLowerCase();
      return access.read(async (r) => {
        const withTranscript = r.transcriptIds();
        const meetings = (function* (all: Iterable<Obj>) {
          for (const m of all) {
            const at = typeof m.createdAt === 'string' ? m.createdAt : undefined;
            if (window.since && (!at || Date.parse(at) < Date.parse(window.since))) continue;
            if (window.until && (!at || Date.parse(at) >= Date.parse(window.until))) continue;
            const attendees = (Array.isArray(m.attendees) ? m.attendees : []) as Obj[];
            if (
              who &&
              !attendees.some((p) => `${p.name ?? ''}\n${p.email ?? ''}`.toLowerCase().includes(who))
            )
              continue;
            const tags = ((Array.isArray(m.tags) ? m.tags : []) as Obj[]).map((t) => String(t.name ?? ''));
            if (tag && !tags.some((t) => t.toLowerCase() === tag)) continue;
            if (!after({ id: String(m.id), createdAt: at ?? null })) continue;
            yield {
              id: String(m.id),
              name: (m.name as string | undefined) ?? null,
              createdAt: at ?? null,
              duration: m.duration ?? null,
              tags,
              attendees: attendees.map((p) => ({ name: p.name ?? null, email: p.email ?? null })),
              actionItems: Array.isArray(m.actionItems) ? m.actionItems.length : 0,
              hasTranscript: withTranscript.has(String(m.id)),
            };
          }
        })((await r.meetings()) as Iterable<Obj>);
        // Keyset: the next page starts after the last meeting of this one, wherever the sync moved it.
        const { page, more } = takePage(meetings, 0, a.limit ?? 20, (m) => m, shortenStrings);
        const result: Obj = { meetings: page };
        if (more) result.nextCursor = encodeCursor(f, meetingKeyOf(key, page));
        return ok(result, meetingLinks(page));
      });
    },
  });

  reg('get_meeting', {
    title: 'Get a meeting',
    description:
      'One meeting with everything the service sent for it: name, date, attendees, tags, notes, action ' +
      'items, insights ({meeting, transcript}); transcript is {entries, chars} (its size; read it with ' +
      'get_transcript) or null when none is stored. The same meeting as Markdown: the resource mtg://meetings/{id}.',
    input: z.strictObject({ id: text('id').describe('a meeting ID (from search or list_meetings)') }),
    annotations: READ,
    run: async (a) =>
      access.read(async (r) => {
        const meeting = (await r.meeting(a.id)) as Obj | undefined;
        if (!meeting) throw unknownMeeting(a.id);
        let transcript: { entries: number; chars: number } | null = null;
        if (r.transcriptIds().has(a.id)) {
          const entries = await r.transcript(a.id);
          transcript = {
            entries: entries.length,
            chars: entries.reduce((n, e) => n + String(e.text ?? '').length, 0),
          };
        }
        const result: Obj = { meeting, transcript };
        if (jsonLength(result) > RESULT_BOUND) {
          result.meeting = shortenStrings(meeting, ITEMS_BOUND);
          result.truncated = true;
          result.readWhole = `long texts were cut; read the meeting whole ${meetingInPieces(a.id)}`;
        }
        return ok(result, [{ id: a.id, name: String(meeting.name ?? a.id) }]);
      }),
  });

  reg('get_transcript', {
    title: 'Read a transcript',
    description:
      'What was said in a meeting, in order: {meetingId, total (entries in all), entries: [{speaker, text, ' +
      'timestamp (seconds into the meeting)}], nextCursor}. A page holds consecutive entries of at most ' +
      'maxChars characters of text (an entry longer than that comes alone); call again with nextCursor ' +
      'until there is none to read the rest. Use search to find the moment, get_meeting for the summary.',
    input: z.strictObject({
      id: text('id').describe('a meeting ID'),
      cursor: cursor.optional(),
      maxChars: wholeIn('maxChars', 1_000, 80_000)
        .optional()
        .describe('characters of text per page (default 40,000)'),
    }),
    annotations: READ,
    run: async (a) => {
      const f = fingerprint(['get_transcript', a.id]);
      const state = decodeCursor<EntryPosition>(a.cursor, f, isEntryPosition);
      const maxChars = a.maxChars ?? 40_000;
      return access.read(async (r) => {
        if (!(await r.meeting(a.id))) throw unknownMeeting(a.id);
        const entries = await r.transcript(a.id);
        const h = fingerprint(entries);
        if (state && state.h !== h)
          throw new UsageError(
            `the transcript of meeting ${a.id} changed since this cursor was given (a sync fetched it again): read it again without a cursor`,
          );
        let i = state?.o ?? 0;
        let c = state?.c ?? 0;
        const entryText = (e: unknown) => String((e as Obj).text ?? '');
        if (
          i > entries.length ||
          (i < entries.length && c > 0 && c >= entryText(entries[i]).length) ||
          (i === entries.length && c > 0)
        )
          throw new UsageError(
            'malformed cursor: it is not one this server gave for this transcript; start again without a cursor',
          );
        const page: Obj[] = [];
        let chars = 0;
        let used = 0;
        while (i < entries.length) {
          const e = entries[i] as Obj;
          const whole = entryText(e);
          const rest = c > 0 ? whole.slice(c) : whole;
          const out: Obj = { speaker: e.speaker ?? null, text: rest, timestamp: e.timestamp ?? null };
          if (c > 0) out.continued = true;
          const size = jsonLength(out) + 1;
          if (page.length > 0 && (chars + rest.length > maxChars || used + size > ITEMS_BOUND)) break;
          if (size > ITEMS_BOUND) {
            // One entry beyond the size bound: sent in pieces, each marked, that join to its text.
            let lo = 1;
            let hi = rest.length;
            while (lo < hi) {
              const mid = Math.ceil((lo + hi) / 2);
              if (jsonLength({ ...out, text: rest.slice(0, mid), continues: true }) + 1 <= ITEMS_BOUND)
                lo = mid;
              else hi = mid - 1;
            }
            const piece = safePrefix(rest, lo);
            page.push({ ...out, text: piece, continues: true });
            c += piece.length;
            break;
          }
          page.push(out);
          chars += rest.length;
          used += size;
          i++;
          c = 0;
        }
        const result: Obj = { meetingId: a.id, total: entries.length, entries: page };
        if (i < entries.length) result.nextCursor = encodeCursor(f, c > 0 ? { o: i, c, h } : { o: i, h });
        return ok(result);
      });
    },
  });

  reg('list_action_items', {
    title: 'List action items',
    description:
      'Action items stored in the mirror, by ID (the order they were made), each exactly as the service ' +
      "sent it plus mine (true when it is the user's own): {actionItems: [...]}. status pending (default), " +
      "done or all; mine true for only the user's own, false for everyone else's; meetingId for one " +
      "meeting's. More: pass nextCursor back.",
    input: z.strictObject({
      status: oneOf(['pending', 'done', 'all'], 'status must be one of pending, done, all')
        .optional()
        .describe('pending (not done yet; the default), done, or all'),
      mine: z
        .boolean({ error: 'mine must be true or false' })
        .optional()
        .describe(
          "true: only the user's own items (assigned to the user); false: only everyone else's; absent: both",
        ),
      meetingId: text('meetingId').optional().describe("only this meeting's items (a meeting ID)"),
      limit: wholeIn('limit', 1, 200).optional().describe('items per page (default 50)'),
      cursor: cursor.optional(),
    }),
    annotations: READ,
    run: async (a) => {
      const status = (a.status ?? 'pending').toUpperCase() as 'PENDING' | 'DONE' | 'ALL';
      const f = fingerprint(['list_action_items', status, a.mine ?? null, a.meetingId ?? null]);
      const key = decodeCursor<ItemKey>(a.cursor, f, isItemKey);
      return access.read(async (r) => {
        if (a.meetingId !== undefined && !(await r.meeting(a.meetingId))) throw unknownMeeting(a.meetingId);
        const mine = r.mineIds();
        // Keyset: only the items after the last one of the previous page.
        const after = key && idSortKey(key.id);
        const chosen: { order: string; item: Obj; mine: boolean }[] = [];
        for (const item of (await r.actionItems(status, a.mine === true)) as Iterable<Obj>) {
          const id = String(item.id);
          const order = idSortKey(id);
          if (after !== undefined && order <= after) continue;
          const isMine = mine.has(id);
          if (a.mine === false && isMine) continue;
          if (a.meetingId !== undefined) {
            const ids = (Array.isArray(item.meetingIds) ? item.meetingIds : []).map(String);
            if (!ids.includes(a.meetingId)) continue;
          }
          chosen.push({ order, item, mine: isMine });
        }
        // By ID, the order the service made them in, which no sync or write reorders: the position
        // in the service's listing moves with every item created or deleted before it.
        chosen.sort((x, y) => (x.order < y.order ? -1 : x.order > y.order ? 1 : 0));
        const { page, more, last } = takePage(
          chosen,
          0,
          a.limit ?? 50,
          (c) => ({ ...c.item, mine: c.mine }) as Obj,
          shortenItem,
        );
        const result: Obj = { actionItems: page };
        if (more && last) result.nextCursor = encodeCursor(f, { id: String(last.item.id) });
        return ok(result);
      });
    },
  });

  reg('changes', {
    title: 'What changed',
    description:
      'The change log of the mirror, oldest first: each event {seq, run, at, resource, id, change (created, ' +
      'updated, deleted, completed, reopened), fields, item}. Pass after (a seq; 0 for everything) and keep ' +
      'lastSeq to ask again later: no event is ever missed or seen twice. more is true when events are left.',
    input: z.strictObject({
      after: z
        .number({ error: 'after must be a whole number (a seq), 0 or more' })
        .int({ error: 'after must be a whole number (a seq), 0 or more' })
        .min(0, { error: 'after must be a whole number (a seq), 0 or more' })
        .optional()
        .describe('the lastSeq of your previous call (0, the default: from the first event)'),
      resource: z
        .array(
          z.enum(CHANGE_RESOURCES, { error: `resource must list only ${CHANGE_RESOURCES.join(', ')}` }),
          {
            error: `resource must be an array of ${CHANGE_RESOURCES.join(', ')}`,
          },
        )
        .optional()
        .describe('only events of these kinds (default: all)'),
      limit: wholeIn('limit', 1, 1_000).optional().describe('events per call (default 100)'),
    }),
    annotations: READ,
    run: async (a) => {
      const after = a.after ?? 0;
      const limit = a.limit ?? 100;
      return access.read((r) => {
        // The library's refusals name this tool's argument (`after`), not the CLI's flag.
        const events = r.changes(after, (a.resource ?? []) as ChangeResource[], limit + 1);
        const { page, more } = takePage<ChangeEvent, Obj>(
          events,
          0,
          limit,
          (e) => e as unknown as Obj,
          shortenEvent,
        );
        const last = page.length ? (page[page.length - 1]!.seq as number) : after;
        return ok({ changes: page, lastSeq: last, more });
      });
    },
  });

  reg('sql', {
    title: 'SQL on the mirror',
    description:
      'One read-only SQL statement (SQLite) on the mirror, for questions the other tools cannot answer ' +
      '(counts, joins, grouping). Tables: meetings, action_items, people, companies (json column: the object ' +
      "as the service sent it; query it with json ->> '$.field'), transcripts (meeting_id, json), changes. " +
      'Returns {columns, rows, truncated}; truncated when rows were left out (limit, default 200, or the size bound).',
    input: z.strictObject({
      query: text('query').describe('one SELECT (or other read-only) statement'),
      limit: wholeIn('limit', 1, 1_000).optional().describe('rows at most (default 200)'),
    }),
    annotations: READ,
    run: async (a) =>
      access.read((r) => {
        const { columns, rows } = sqlOf(() => r.sql(a.query));
        let cut = false;
        const { page, more } = takePage(rows, 0, a.limit ?? 200, exactValues, (row, room) => {
          cut = true;
          return shortenStrings(row, room);
        });
        const result: Obj = { columns, rows: page, truncated: more || cut };
        if (cut)
          result.note = 'a value too long to send whole was cut (…[cut]): select it in pieces with substr()';
        return ok(result);
      }),
  });

  reg('mirror_status', {
    title: 'Mirror status',
    description:
      'Which mirror this server reads and how fresh it is: {profile, path, baseUrl, lastSync: {at, complete} ' +
      'or null, counts: {meetings, actionItems, people, companies, transcripts}, transcriptsPending, lastSeq}.',
    input: z.strictObject({}),
    annotations: READ,
    run: async () => {
      const s = access.status();
      if (!s) {
        return ok({
          profile: access.profile,
          path: access.path,
          baseUrl: null,
          lastSync: null,
          counts: { meetings: 0, actionItems: 0, people: 0, companies: 0, transcripts: 0 },
          transcriptsPending: 0,
          lastSeq: 0,
          note: `no mirror for profile ${access.profile} yet: run \`mtg sync\``,
        });
      }
      return ok({
        profile: s.profile,
        path: s.path,
        baseUrl: s.baseUrl,
        lastSync: s.lastSync
          ? { at: s.lastSync.finishedAt ?? s.lastSync.startedAt, complete: s.lastSync.complete }
          : null,
        counts: s.counts,
        transcriptsPending: s.transcriptsPending,
        lastSeq: s.lastSeq,
        ...(s.syncRunningPid !== null ? { syncRunningPid: s.syncRunningPid } : {}),
      });
    },
  });

  const sync = options.sync;
  if (sync) {
    reg('sync', {
      title: 'Sync the mirror',
      description: SYNC_DESCRIPTION,
      input: z.strictObject({
        budget: wholeIn('budget', 1, 1_000_000).optional().describe(BUDGET_DESCRIPTION),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      run: async (a, request) => ok((await sync(a.budget, progressReporter(request))) as Obj),
    });
  }

  if (options.allowWrites) {
    reg('create_action_item', {
      title: 'Create an action item',
      description:
        'Create one action item in the service (one request). Returns the item as the service returned it; ' +
        'list_action_items shows it at once. Not repeated when the outcome is unknown: check before retrying.',
      input: z.strictObject({
        title: text('title').describe('what is to be done, one line'),
        description: optionalText('description').optional().describe('more detail (optional)'),
        assignee: profileId('assignee')
          .optional()
          .describe("a profile ID (from an action item's assignee); absent: the service's default"),
      }),
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
      run: async (a) => {
        const body = {
          title: a.title,
          ...(a.description !== undefined ? { description: a.description } : {}),
          ...(a.assignee !== undefined ? { assigneeProfileId: exactId(String(a.assignee), 'assignee') } : {}),
        };
        const created = await access.createActionItem(body);
        return storedOrNoted(
          ok((created.item as Obj | undefined) ?? { created: true, note: 'the service returned no body' }),
          created.notStored,
          options.log,
        );
      },
    });
    reg('update_action_item', {
      title: 'Update an action item',
      description:
        'Change one action item in the service (one request): status PENDING or DONE, title, description, ' +
        'assignee (a profile ID, or null to unassign). Returns the item as the service returned it; reads ' +
        'that follow show the change at once.',
      input: z.strictObject({
        id: numericId('id', 'an action item ID').describe('the action item ID'),
        status: oneOf(['PENDING', 'DONE'], 'status must be PENDING or DONE')
          .optional()
          .describe('PENDING (to do) or DONE (completed)'),
        title: text('title').optional().describe('the new title'),
        description: optionalText('description').optional().describe('the new description'),
        assignee: profileId('assignee')
          .nullable()
          .optional()
          .describe("a profile ID (from an action item's assignee), or null for nobody"),
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
      run: async (a) => {
        const body = {
          ...(a.status !== undefined ? { status: a.status.toUpperCase() as 'PENDING' | 'DONE' } : {}),
          ...(a.title !== undefined ? { title: a.title } : {}),
          ...(a.description !== undefined ? { description: a.description } : {}),
          ...(a.assignee !== undefined
            ? { assigneeProfileId: a.assignee === null ? null : exactId(String(a.assignee), 'assignee') }
            : {}),
        };
        if (Object.keys(body).length === 0)
          throw new UsageError('nothing to change: give status, title, description or assignee');
        const id = exactId(String(a.id), 'id');
        const updated = await access.updateActionItem(id, body);
        return storedOrNoted(
          ok((updated.item as Obj | undefined) ?? { updated: true, note: 'the service returned no body' }),
          updated.notStored,
          options.log,
        );
      },
    });
  }

  server.registerResource(
    'meeting',
    new ResourceTemplate('mtg://meetings/{id}', { list: undefined }),
    {
      title: 'A meeting as Markdown',
      description:
        'A meeting of the mirror as Markdown (the layout of `mtg export markdown`, without transcript)',
      mimeType: 'text/markdown',
    },
    async (uri, variables) => {
      const raw = variables.id;
      const id = decodeURIComponent(String(Array.isArray(raw) ? raw[0] : raw));
      const meeting = await access.read((r) => r.meeting(id));
      if (!meeting) throw new UsageError(`no meeting ${id} in the mirror`);
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: 'text/markdown',
            text: boundedMarkdown(await options.renderMeeting(id, meeting as Obj), id),
          },
        ],
      };
    },
  );
}

/**
 * A write's result; when the mirror could not store the item at once, a second text block says so
 * (and the server's log): the write was applied, reads show it after the next complete sync.
 */
function storedOrNoted(
  result: ToolResult,
  notStored: string | undefined,
  log: (line: string) => void,
): ToolResult {
  if (notStored === undefined) return result;
  const note = `Written to the service, but the mirror could not store it yet (${notStored}): reads show it after the next complete sync. Do not write it again.`;
  log(`mtg mcp: ${note}`);
  return { ...result, content: [...result.content, { type: 'text', text: note }] };
}

/** A search cursor from before the mirror changed: its ranking is gone. */
class StaleSearchCursor extends UsageError {
  constructor() {
    super(
      'the mirror changed since this cursor was given (a sync), so its ranking no longer holds: repeat the search without a cursor',
    );
  }
}

/** What identifies the mirror's content a search ranks: its last change seq (every sync write logs one). */
function mirrorState(r: Reader): number {
  const { rows } = r.sql('SELECT coalesce(max(seq), 0) AS v FROM changes');
  for (const row of rows) return Number(String(row.v));
  return 0;
}

/** An action item too large to send whole: its longest texts cut, marked with where to read it. */
function shortenItem(item: Obj, room: number): Obj {
  const id = String(item.id);
  return {
    ...shortenStrings(item, room - 300),
    truncated: true,
    readWhole: `long texts were cut; read the item whole with sql: SELECT json FROM action_items WHERE id = '${id.replaceAll("'", "''")}' (in pieces with substr())`,
  };
}

/** A change event too large to send: its item shortened, or left out, and marked with where to read it. */
function shortenEvent(event: Obj, room: number): Obj {
  const id = String(event.id);
  const readWhole =
    event.resource === 'transcripts'
      ? `get_transcript with id "${id}"`
      : event.resource === 'meetings'
        ? `get_meeting with id "${id}"`
        : `sql: SELECT json FROM ${event.resource === 'action-items' ? 'action_items' : event.resource} WHERE ${event.resource === 'companies' ? 'domain' : 'id'} = '${id.replaceAll("'", "''")}'`;
  const marked = { ...event, truncated: true, readWhole };
  const cut = shortenStrings(marked, room);
  return jsonLength(cut) <= room ? cut : { ...marked, item: null };
}

/** Progress notifications for a call that asked for them (a progressToken), else none. */
function progressReporter(request: ServerContext): ((p: SyncProgressReport) => void) | undefined {
  const token = request.mcpReq._meta?.progressToken;
  if (token === undefined) return undefined;
  return (p) => {
    request.mcpReq
      .notify({ method: 'notifications/progress', params: { progressToken: token, ...p } })
      // A client gone away: the sync goes on, and its result will say the rest.
      .catch(() => undefined);
  };
}

/** The sql tool's statement run; SQLite's refusal says that the query could not run, then why. */
function sqlOf<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof UsageError && err.message.startsWith('SQL error: '))
      throw new UsageError(
        `the query could not run: SQLite says: ${err.message.slice('SQL error: '.length)}`,
      );
    throw err;
  }
}
