// mtg calendar set-notes: private notes and tags on the meeting of a calendar event.

import { readFile } from 'node:fs/promises';
import type { CalendarMeetingBody } from '../api/endpoints.js';
import { UsageError } from '../api/errors.js';
import { checkOutputOptions, NO_BODY } from '../cli/bulk.js';
import type { Context } from '../cli/context.js';
import { DRY_RUN_OPTION, isDryRun, printDryRun } from '../cli/dry-run.js';
import { listValues, positiveIds, stringId } from '../cli/input.js';
import type { GroupSpec, Opts } from '../cli/spec.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += chunk;
  return text;
}

/** --notes-file PATH or - (stdin); an unreadable file is a usage error with the OS's reason. */
async function readNotesFile(ctx: Context, path: string): Promise<string> {
  if (path === '-') return readAll(ctx.io.in);
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).message ?? String(err);
    throw new UsageError(`cannot read --notes-file "${path}": ${reason}`);
  }
}

/** The body from the flags: conflicts and "nothing to set" are usage errors, found before reading. */
async function calendarBody(ctx: Context, opts: Opts): Promise<CalendarMeetingBody> {
  const notes = str(opts.notes);
  const notesFile = str(opts.notesFile);
  const tags = positiveIds(listValues(opts.tag), '--tag');
  const clearTags = !!opts.clearTags;
  if (notes !== undefined && notesFile !== undefined) {
    throw new UsageError('--notes and --notes-file cannot be used together: give one of them');
  }
  if (clearTags && tags.length > 0) {
    throw new UsageError('--clear-tags and --tag cannot be used together: --clear-tags removes every tag');
  }
  if (notes === undefined && notesFile === undefined && tags.length === 0 && !clearTags) {
    throw new UsageError('nothing to set: give --notes, --notes-file, --tag or --clear-tags');
  }
  const body: CalendarMeetingBody = {};
  if (notes !== undefined) body.privateNotes = notes;
  if (notesFile !== undefined) body.privateNotes = await readNotesFile(ctx, notesFile);
  if (clearTags) body.tagIds = [];
  else if (tags.length > 0) body.tagIds = tags;
  return body;
}

export const calendarGroup: GroupSpec = {
  name: 'calendar',
  summary: 'Set private notes and tags on the meeting of a calendar event',
  commands: [
    {
      name: 'set-notes',
      summary: 'Replace the private notes and/or tags of a calendar event’s meeting',
      description:
        'Set your private notes (Markdown) and/or the tags of the meeting that belongs to a calendar ' +
        'event; the meeting is created when it does not exist yet. The notes replace the current ones ' +
        'entirely; --tag replaces the tag list; --clear-tags removes every tag. Prints the meeting.',
      args: [{ name: 'CALENDAR_MEETING_ID', description: 'the calendar meeting ID', required: true }],
      options: [
        { flags: '--notes <text>', description: 'the private notes (Markdown)' },
        { flags: '--notes-file <path>', description: 'read the notes from a file, or - for stdin' },
        { flags: '--tag <id>', description: 'set these tags (repeatable, comma lists)', repeatable: true },
        { flags: '--clear-tags', description: 'remove every tag (conflicts with --tag)' },
        DRY_RUN_OPTION,
      ],
      examples: [
        'mtg calendar set-notes 8812 --notes "Ask about the Q3 budget"',
        'mtg calendar set-notes 8812 --notes-file agenda.md --tag 3,7',
        'cat notes.md | mtg calendar set-notes 8812 --notes-file - --clear-tags --dry-run',
      ],
      async run(ctx, args, opts) {
        const id = stringId(str(args.CALENDAR_MEETING_ID), 'CALENDAR_MEETING_ID');
        const body = await calendarBody(ctx, opts);
        const { setCalendarMeeting, setCalendarMeetingRequest } = await import('../api/endpoints.js');
        if (isDryRun(opts)) return printDryRun(ctx, [setCalendarMeetingRequest(id, body)]);
        await checkOutputOptions(ctx, 'meeting');
        const meeting = await setCalendarMeeting(await ctx.client(), id, body);
        const { writeResult } = await import('../cli/list.js');
        if (meeting === undefined) ctx.progress.note(`Saved the notes of calendar meeting ${id}; ${NO_BODY}`);
        else await writeResult(ctx, 'meeting', meeting);
        return 0;
      },
    },
  ],
};
