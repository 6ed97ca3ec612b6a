// mtg meetings list|search|view|transcript|share: read meetings, their transcripts, and share them.

import {
  MEETINGS_NEWEST_FIRST,
  SHARE_ACCESS_VALUES,
  SHARE_MAX_TARGETS,
  type ShareAccess,
} from '../api/assumptions.js';
import type { ShareTarget } from '../api/endpoints.js';
import { ExitCode, InterruptedError, MtgError, UsageError } from '../api/errors.js';
import type { Meeting } from '../api/schemas.js';
import type { Context } from '../cli/context.js';
import { TIME_WINDOW_OPTIONS, timeWindowOption } from '../cli/dates.js';
import { DRY_RUN_OPTION, isDryRun, printDryRun } from '../cli/dry-run.js';
import type { ListFormat } from '../cli/globals.js';
import { email, listValues, oneOf, positiveId, positiveIds, stringId } from '../cli/input.js';
import { chooseFormat, runList, screenOptions, writeResult, writerSetup } from '../cli/list.js';
import { readSource } from '../cli/source.js';
import type { CommandSpec, GroupSpec } from '../cli/spec.js';
import type { ResourceName } from '../output/views.js';

const TRANSCRIPT_FORMATS = ['text', 'json', 'ndjson', 'srt', 'vtt', 'md'] as const;
type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

const tagOption = {
  flags: '--tag <id>',
  description: 'only meetings with this tag (repeatable, or a comma list)',
  repeatable: true,
};

/** Validated tag IDs, as the strings the query carries. */
function tagIds(opts: Record<string, unknown>): string[] | undefined {
  const ids = positiveIds(listValues(opts.tag), 'Tag ID').map(String);
  return ids.length ? ids : undefined;
}

// ---- list, search -----------------------------------------------------------------------------

const list: CommandSpec = {
  name: 'list',
  list: true,
  aliases: ['ls'],
  summary: 'List meetings, newest first',
  description:
    'List meetings, newest first. --since/--until keep the meetings created in that window; the ' +
    'fetching stops at the first page whose meetings are all older than --since.',
  options: [tagOption, ...TIME_WINDOW_OPTIONS],
  examples: [
    'mtg meetings list --limit 10',
    'mtg meetings list --since 7d --json',
    "mtg meetings list --since 2026-01-05 --until 2026-01-09 --jq '.[] | select(.attendees | length > 5) | .id'",
  ],
  async run(ctx, _args, opts) {
    const query = { tagIds: tagIds(opts) };
    const window = timeWindowOption(opts);
    return runList(ctx, {
      listing: (source) => source.listMeetings(query),
      resource: 'meeting',
      noun: ['meeting', 'meetings'],
      command: 'meetings list',
      window: window && {
        bounds: window,
        time: (m: Meeting) => m.createdAt,
        newestFirst: MEETINGS_NEWEST_FIRST,
      },
    });
  },
};

const search: CommandSpec = {
  name: 'search',
  list: true,
  summary: 'Search meetings by name and content',
  description:
    'Search meetings by name, notes and transcript. Filters combine: every --tag, --attendee and --meeting ' +
    'narrows the result further; each is repeatable and takes comma lists.',
  args: [{ name: 'TERM', description: 'text to search for (omit to list every meeting the filters allow)' }],
  options: [
    tagOption,
    {
      flags: '--attendee <profileId>',
      description: 'only meetings this person attended (repeatable)',
      repeatable: true,
    },
    { flags: '--meeting <id>', description: 'only these meetings (repeatable)', repeatable: true },
    ...TIME_WINDOW_OPTIONS,
  ],
  examples: [
    'mtg meetings search roadmap --limit 5',
    'mtg meetings search --tag 3 --attendee 12,14 --json',
    'mtg meetings search budget --since 2w --until 2026-03-01',
  ],
  async run(ctx, args, opts) {
    const window = timeWindowOption(opts);
    const term = typeof args.TERM === 'string' && args.TERM.trim() !== '' ? args.TERM : undefined;
    const attendees = positiveIds(listValues(opts.attendee), 'Attendee profile ID').map(String);
    const meetings = listValues(opts.meeting).map((id) => stringId(id, 'Meeting ID'));
    const query = {
      searchTerm: term,
      tagIds: tagIds(opts),
      attendeeProfileIds: attendees.length ? attendees : undefined,
      meetingIds: meetings.length ? meetings : undefined,
    };
    return runList(ctx, {
      listing: (source) => source.searchMeetings(query),
      resource: 'meeting',
      noun: ['meeting', 'meetings'],
      command: 'meetings search',
      // Search results come in no stated order: filtered as they arrive, every page fetched.
      window: window && { bounds: window, time: (m: Meeting) => m.createdAt },
    });
  },
};

// ---- view -------------------------------------------------------------------------------------

async function appUrl(ctx: Context): Promise<string | undefined> {
  const url = (await ctx.settings()).appUrl;
  return url ? url.replace(/\/+$/, '') : undefined;
}

function webLink(base: string, meetingId: string): string {
  return `${base}/meetings/${encodeURIComponent(meetingId)}`;
}

/** One meeting from the API (a search restricted to its ID) or the mirror. */
async function fetchMeeting(ctx: Context, meetingId: string): Promise<Meeting> {
  const source = await readSource(ctx);
  if (!source.offline) ctx.progress.update(`Fetching meeting ${meetingId}`);
  const meeting = await source.viewMeeting(meetingId);
  ctx.progress.stop();
  if (!meeting) {
    throw new MtgError(
      `Meeting ${meetingId} not found${source.offline ? ' in the mirror' : ''}`,
      ExitCode.notFound,
    );
  }
  return meeting;
}

const view: CommandSpec = {
  name: 'view',
  aliases: ['show'],
  summary: 'Show one meeting: notes, attendees, action items, insights',
  description:
    'Show one meeting. In a terminal (or with --format table) a readable page: details, attendees, notes, ' +
    'private notes, action items, insights and sharing. With --json or --format ndjson the meeting exactly ' +
    'as the API sent it; csv/tsv give one row. --web prints the link to the meeting in the web app ' +
    '(from MTG_APP_URL or `mtg config set app-url URL`) without sending a request.',
  args: [{ name: 'MEETING_ID', description: 'the meeting ID', required: true }],
  options: [
    { flags: '--web', description: 'print the web-app link instead (no request)', defaultValue: false },
  ],
  examples: [
    'mtg meetings view mtg_3f2a9c',
    'mtg meetings view mtg_3f2a9c --json',
    'mtg meetings view mtg_3f2a9c --web',
  ],
  async run(ctx, args, opts) {
    const meetingId = stringId(args.MEETING_ID as string, 'Meeting ID');
    const { writeDocument } = await import('../output/document.js');
    if (opts.web) {
      const base = await appUrl(ctx);
      if (!base) {
        throw new UsageError(
          'No web app URL is set. Set MTG_APP_URL or run `mtg config set app-url https://app.example.com`.',
        );
      }
      await writeDocument(ctx.io.out, ctx.globals.output, webLink(base, meetingId) + '\n');
      return 0;
    }
    const format = chooseFormat(ctx) as ListFormat;
    // A readable page unless the user chose fields (then the key/value table shows just those).
    if (format !== 'table' || ctx.globals.fields !== undefined) {
      await writerSetup(ctx, 'meeting', format); // --fields checked before anything is sent
      await writeResult(ctx, 'meeting', await fetchMeeting(ctx, meetingId));
      return 0;
    }
    const meeting = await fetchMeeting(ctx, meetingId);
    const base = await appUrl(ctx);
    const { renderMeetingPage } = await import('../output/meeting-view.js');
    const page = renderMeetingPage(meeting, {
      ...screenOptions(ctx),
      webUrl: base ? webLink(base, meeting.id) : undefined,
    });
    await writeDocument(ctx.io.out, ctx.globals.output, page);
    return 0;
  },
};

// ---- transcript -------------------------------------------------------------------------------

/** The transcript's own formats; text (not table/tsv) when none is given. */
function transcriptFormat(ctx: Context): TranscriptFormat {
  if (ctx.globals.format === undefined) return 'text';
  const format = chooseFormat(ctx, TRANSCRIPT_FORMATS) as TranscriptFormat;
  if (ctx.globals.fields !== undefined && format !== 'json' && format !== 'ndjson') {
    throw new UsageError('--fields applies to --format json and ndjson only');
  }
  return format;
}

const transcript: CommandSpec = {
  name: 'transcript',
  summary: 'Print a meeting transcript as text, subtitles (srt, vtt), Markdown or JSON',
  description:
    'Print the transcript of a meeting. Formats (global --format): text (default: "[mm:ss] Speaker: text"), ' +
    'srt and vtt (subtitles; each cue lasts until the next entry), md (a Markdown document), json and ndjson ' +
    '(entries exactly as the API sent them). -o FILE writes any of them atomically.',
  args: [{ name: 'MEETING_ID', description: 'the meeting ID', required: true }],
  examples: [
    'mtg meetings transcript mtg_3f2a9c',
    'mtg meetings transcript mtg_3f2a9c --format srt -o meeting.srt',
    'mtg meetings transcript mtg_3f2a9c --format md > notes.md',
  ],
  async run(ctx, args) {
    const meetingId = stringId(args.MEETING_ID as string, 'Meeting ID');
    const format = transcriptFormat(ctx);
    // --fields checked before anything is sent
    if (format === 'json' || format === 'ndjson') await writerSetup(ctx, 'transcript', format);
    const source = await readSource(ctx);
    if (!source.offline) ctx.progress.update(`Fetching the transcript of ${meetingId}`);
    let entries = await source.transcript(meetingId);
    ctx.progress.stop();
    const limit = ctx.globals.limit;
    if (limit !== undefined && entries.length > limit) {
      entries = entries.slice(0, limit);
      ctx.progress.note(`Showing the first ${limit} entries of the transcript; raise --limit to see more.`);
    }
    if (entries.length === 0) ctx.progress.note(`Meeting ${meetingId} has no transcript.`);

    if (format === 'json' || format === 'ndjson') {
      await writeItems(ctx, 'transcript', format, entries);
      return 0;
    }
    const render = await import('../output/transcript.js');
    const { writeDocument } = await import('../output/document.js');
    let text: string;
    if (format === 'srt') text = render.renderSrt(entries);
    else if (format === 'vtt') text = render.renderVtt(entries);
    else if (format === 'md')
      text = render.renderTranscriptMarkdown(entries, `Transcript of meeting ${meetingId}`);
    else text = render.renderTranscriptText(entries, { color: screenOptions(ctx).color });
    await writeDocument(ctx.io.out, ctx.globals.output, text);
    return 0;
  },
};

// ---- share ------------------------------------------------------------------------------------

/** A share target and how to name it in messages ("bob@example.com", "team 7"). */
interface Target {
  label: string;
  who: { email: string } | { teamId: number };
}

const emailTarget = (value: string): Target => {
  const address = email(value);
  return { label: address, who: { email: address } };
};
const teamTarget = (value: string | number): Target => {
  const teamId = positiveId(String(value), 'Team ID');
  return { label: `team ${teamId}`, who: { teamId } };
};

/** One target per line: an email, a team ID (a bare number), or an NDJSON object with "email" or "teamId". */
export function parseShareTargetLines(text: string): Target[] {
  const targets: Target[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    // The header row of `... --fields email` (or teamId) tsv output.
    if (targets.length === 0 && /^(email|teamid)$/i.test(line)) return;
    const where = `stdin line ${i + 1}`;
    try {
      targets.push(line.startsWith('{') ? objectTarget(line, where) : wordTarget(line, where));
    } catch (err) {
      if (err instanceof UsageError && !err.message.startsWith(where))
        throw new UsageError(`${where}: ${err.message}`);
      throw err;
    }
  });
  return targets;
}

function objectTarget(line: string, where: string): Target {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw new UsageError(`${where}: not valid JSON`);
  }
  const o = (parsed ?? {}) as { email?: unknown; teamId?: unknown };
  const hasEmail = typeof o.email === 'string' && o.email.trim() !== '';
  const hasTeam = typeof o.teamId === 'number' || (typeof o.teamId === 'string' && o.teamId.trim() !== '');
  if (hasEmail === hasTeam)
    throw new UsageError(`${where}: the object needs exactly one of "email" or "teamId"`);
  return hasEmail ? emailTarget(o.email as string) : teamTarget(o.teamId as string | number);
}

function wordTarget(line: string, where: string): Target {
  if (/^\d+$/.test(line)) return teamTarget(line);
  if (line.includes('@')) return emailTarget(line);
  throw new UsageError(`${where}: expected an email address or a team ID, got "${line}"`);
}

async function readStdinText(stdin: Context['io']['in']): Promise<string> {
  if (stdin.isTTY) {
    throw new UsageError('--stdin expects targets piped in, one email or team ID per line');
  }
  let text = '';
  stdin.setEncoding('utf8');
  for await (const chunk of stdin) text += chunk;
  return text;
}

async function shareTargets(ctx: Context, opts: Record<string, unknown>): Promise<Target[]> {
  const targets = [...listValues(opts.email).map(emailTarget), ...listValues(opts.team).map(teamTarget)];
  if (opts.stdin) targets.push(...parseShareTargetLines(await readStdinText(ctx.io.in)));
  if (targets.length === 0) throw new UsageError('Nothing to share with: give --email, --team or --stdin');
  return targets;
}

/** The body of one PUT /meeting/{id}/share: the real run and --dry-run both build it here. */
function shareBody(batch: readonly Target[], access: ShareAccess): ShareTarget[] {
  return batch.map((t) => ({ ...t.who, access }) as ShareTarget);
}

/** The targets in the batches they are sent in (SHARE_MAX_TARGETS each). */
function shareBatches(targets: readonly Target[]): Target[][] {
  const out: Target[][] = [];
  for (let start = 0; start < targets.length; start += SHARE_MAX_TARGETS)
    out.push(targets.slice(start, start + SHARE_MAX_TARGETS));
  return out;
}

interface Failure {
  /** Zero-based position in the caller's full list of targets. */
  index: number;
  error: string;
}

/** Sends the targets in batches of SHARE_MAX_TARGETS; errors come back re-indexed to the full list. */
async function shareInBatches(
  ctx: Context,
  meetingId: string,
  targets: Target[],
  access: ShareAccess,
): Promise<{ meeting: Meeting | undefined; failures: Failure[] }> {
  const client = await ctx.client();
  const { shareMeeting } = await import('../api/endpoints.js');
  const failures: Failure[] = [];
  let meeting: Meeting | undefined;
  let applied = false; // a batch was applied (a 2xx, with or without a body)
  for (let start = 0; start < targets.length; start += SHARE_MAX_TARGETS) {
    const batch = targets.slice(start, start + SHARE_MAX_TARGETS);
    const body = shareBody(batch, access);
    ctx.progress.update(
      `Sharing ${meetingId}: targets ${start + 1}–${start + batch.length} of ${targets.length}`,
    );
    let answer: Meeting | undefined;
    try {
      // undefined: a 2xx with no body, applied (the sharing list is then not known).
      answer = await shareMeeting(client, meetingId, body);
      applied = true;
      meeting = answer ?? meeting;
    } catch (err) {
      // Nothing applied yet, or a stop the user asked for: fail as a whole.
      if (!applied || !(err instanceof MtgError) || err instanceof InterruptedError || ctx.signal.aborted)
        throw err;
      // Earlier batches applied: this one failed, later ones are not sent; each is reported.
      for (let i = start; i < targets.length; i++) {
        failures.push({
          index: i,
          error: i < start + batch.length ? err.message : 'not sent after an earlier batch failed',
        });
      }
      break;
    }
    for (const e of answer?.errors ?? []) failures.push({ index: start + e.index, error: e.error });
  }
  ctx.progress.stop();
  return { meeting, failures };
}

const share: CommandSpec = {
  name: 'share',
  summary: 'Share a meeting with people (email) or teams',
  description:
    `Share a meeting with people by email and with teams by ID. Targets come from --email, --team and --stdin ` +
    `(one email or team ID per line, or NDJSON objects with "email" or "teamId"), indexed from 0 in that order: ` +
    `every --email target first, then every --team, then the --stdin lines, whatever order the options were typed in. ` +
    `Every target is checked before anything is sent. More than ${SHARE_MAX_TARGETS} go out in batches of ` +
    `${SHARE_MAX_TARGETS}. Each failed target is reported on stderr by its index; the meeting's sharing list is ` +
    'printed (--json: {"sharedWith": [...], "errors": [{"index", "target", "error"}]}; --format ndjson: one ' +
    '{"type": "sharedWith", "value": ...} or {"type": "error", "index", "target", "error"} per line). ' +
    'Exit 6 when some targets failed and the rest applied, 1 when all failed.',
  args: [{ name: 'MEETING_ID', description: 'the meeting ID', required: true }],
  options: [
    {
      flags: '--email <addr>',
      description: 'share with this person (repeatable, or a comma list)',
      repeatable: true,
    },
    {
      flags: '--team <id>',
      description: 'share with this team (repeatable, or a comma list)',
      repeatable: true,
    },
    {
      flags: '--access <level>',
      description: 'access to grant: Viewer or Editor (case-insensitive)',
      choices: SHARE_ACCESS_VALUES,
      defaultValue: 'Viewer',
    },
    { flags: '--stdin', description: 'also read targets from stdin, one per line', defaultValue: false },
    DRY_RUN_OPTION,
  ],
  examples: [
    'mtg meetings share mtg_3f2a9c --email ann@example.com --access Editor',
    'mtg meetings share mtg_3f2a9c --team 4,7 --dry-run',
    'mtg people list --domain acme.example --fields email | mtg meetings share mtg_3f2a9c --stdin',
  ],
  async run(ctx, args, opts) {
    const meetingId = stringId(args.MEETING_ID as string, 'Meeting ID');
    const access = oneOf(String(opts.access ?? 'Viewer'), SHARE_ACCESS_VALUES, 'access');
    const targets = await shareTargets(ctx, opts);
    if (isDryRun(opts)) {
      const { shareMeetingRequest } = await import('../api/endpoints.js');
      return printDryRun(
        ctx,
        shareBatches(targets).map((batch) => shareMeetingRequest(meetingId, shareBody(batch, access))),
      );
    }
    const format = chooseFormat(ctx) as ListFormat;
    await writerSetup(ctx, 'sharedWith', format); // --fields checked before anything is sent

    const { meeting, failures } = await shareInBatches(ctx, meetingId, targets, access);
    const { counted, sanitizeOneLine } = await import('../output/index.js');
    for (const f of failures) {
      const label = targets[f.index]?.label ?? '?';
      // Zero-based, like ShareError.index and the json "errors" entries.
      ctx.progress.line(`target index ${f.index} (${sanitizeOneLine(label)}): ${sanitizeOneLine(f.error)}`);
    }
    const failed = new Set(failures.map((f) => f.index)).size;
    const applied = targets.length - failed;
    const summary = `Shared meeting ${meetingId} as ${access} with ${applied} of ${counted(targets.length, 'target')}`;
    if (failed > 0) ctx.progress.line(`${summary}; ${failed} failed.`);
    else ctx.progress.note(`${summary}.`);

    if (format === 'json' || format === 'ndjson') {
      // Scripts see the failures too: each by its zero-based index in the whole list, as sent.
      const errors = failures.map((f) => ({ index: f.index, target: targets[f.index]?.who, error: f.error }));
      await writeShareDocument(ctx, format, meeting?.sharedWith ?? [], errors);
    } else if (meeting) await writeItems(ctx, 'sharedWith', format, meeting.sharedWith ?? []);
    if (failed === 0) return 0;
    return applied > 0 ? ExitCode.partial : ExitCode.api;
  },
};

/**
 * json: one object {"sharedWith": [...], "errors": [...]} (one valid document); ndjson: one line
 * per entry, each with a "type" ("sharedWith" with the entry as "value", or "error").
 */
async function writeShareDocument(
  ctx: Context,
  format: 'json' | 'ndjson',
  sharedWith: readonly unknown[],
  errors: readonly { index: number; target: unknown; error: string }[],
): Promise<void> {
  const { out, options } = await writerSetup(ctx, 'sharedWith', format);
  const fields = options.fields;
  const entries = fields && fields.length > 0 ? sharedWith.map((e) => out.project(e, fields)) : sharedWith;
  const text =
    format === 'json'
      ? out.toJson({ sharedWith: entries, errors }, undefined, 2) + '\n'
      : [
          ...entries.map((value) => ({ type: 'sharedWith', value })),
          ...errors.map((e) => ({ type: 'error', ...e })),
        ]
          .map((line) => out.toJson(line, undefined) + '\n')
          .join('');
  await out.writeDocument(ctx.io.out, ctx.globals.output, text);
}

/** A list of items in the chosen format (json array, ndjson lines, csv/tsv rows, table), to stdout or -o. */
async function writeItems(
  ctx: Context,
  resource: ResourceName,
  format: ListFormat,
  items: readonly unknown[],
): Promise<void> {
  const { out, view, options } = await writerSetup(ctx, resource, format);
  const sink = await out.openOutput(ctx.io.out, ctx.globals.output);
  const writer = out.createItemWriter(sink.stream, view, options);
  try {
    await writer.writeMany(items);
    await writer.end();
    await sink.commit();
  } catch (err) {
    await writer.abort().catch(() => undefined);
    await sink.abort().catch(() => undefined);
    throw err;
  }
}

export const meetingsGroup: GroupSpec = {
  name: 'meetings',
  aliases: ['meeting'],
  summary: 'List, search, view, transcribe and share meetings',
  commands: [list, search, view, transcript, share],
};
