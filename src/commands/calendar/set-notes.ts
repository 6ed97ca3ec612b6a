// mtg calendar set-notes: replace the private notes and/or tags of a calendar event's meeting.

import { readFile } from 'node:fs/promises';
import {
  type CalendarMeetingBody,
  setCalendarMeeting,
  setCalendarMeetingRequest,
} from '../../api/endpoints.js';
import { NO_BODY } from '../../cli/bulk.js';
import type { Context } from '../../cli/context.js';
import { isDryRun, printDryRun } from '../../cli/dry-run.js';
import { listValues } from '../../cli/input.js';
import { planOutput } from '../../cli/output-plan.js';
import { defineRun, type OptsFor } from '../../cli/spec.js';
import { ExitCode, UsageError } from '../../shared/errors.js';
import { exactId, stringId } from '../../shared/ids.js';
import * as spec from './spec.js';

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += chunk;
  return text;
}

const CLEAR_HINT = 'to clear the private notes on purpose, use --clear-notes';

/**
 * Notes that are empty or only blanks render as nothing: sending them would erase the notes, so
 * they are refused like an empty pipe (`echo "$UNSET" | … --notes-file -` sends one newline).
 */
function checkNotes(notes: string, source: string): string {
  if (notes.trim() === '') throw new UsageError(`${source} is empty: nothing was sent (${CLEAR_HINT})`);
  return notes;
}

/** --notes-file PATH or - (stdin); an unreadable file is a usage error with the OS's reason. */
async function readNotesFile(ctx: Context, path: string): Promise<string> {
  if (path === '-') return checkNotes(await readAll(ctx.io.in), '--notes-file - (stdin)');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).message ?? String(err);
    throw new UsageError(`cannot read --notes-file "${path}": ${reason}`);
  }
  return checkNotes(text, `--notes-file "${path}"`);
}

/** The body from the flags: conflicts and "nothing to set" are usage errors, found before reading. */
async function calendarBody(ctx: Context, opts: OptsFor<typeof spec.setNotes>): Promise<CalendarMeetingBody> {
  const notes = opts.notes;
  const notesFile = opts.notesFile;
  const tags = listValues(opts.tag, '--tag').map((v) => exactId(v, '--tag'));
  const clearTags = opts.clearTags;
  const clearNotes = opts.clearNotes;
  if (notes !== undefined && notesFile !== undefined) {
    throw new UsageError('--notes and --notes-file cannot be used together: give one of them');
  }
  if (clearNotes && (notes !== undefined || notesFile !== undefined)) {
    const other = notes !== undefined ? '--notes' : '--notes-file';
    throw new UsageError(
      `--clear-notes and ${other} cannot be used together: --clear-notes empties the notes`,
    );
  }
  if (clearTags && tags.length > 0) {
    throw new UsageError('--clear-tags and --tag cannot be used together: --clear-tags removes every tag');
  }
  if (notes === undefined && notesFile === undefined && !clearNotes && tags.length === 0 && !clearTags) {
    throw new UsageError('nothing to set: give --notes, --notes-file, --clear-notes, --tag or --clear-tags');
  }
  const body: CalendarMeetingBody = {};
  if (notes !== undefined) body.privateNotes = checkNotes(notes, '--notes');
  if (clearNotes) body.privateNotes = '';
  if (notesFile !== undefined) body.privateNotes = await readNotesFile(ctx, notesFile);
  if (clearTags) body.tagIds = [];
  else if (tags.length > 0) body.tagIds = tags;
  return body;
}

export const run = defineRun(spec.setNotes, async (ctx, args, opts) => {
  const id = stringId(args.CALENDAR_MEETING_ID, 'CALENDAR_MEETING_ID');
  const body = await calendarBody(ctx, opts);
  if (isDryRun(opts)) return printDryRun(ctx, [setCalendarMeetingRequest(id, body)]);
  const plan = await planOutput(ctx, 'meeting');
  const meeting = await setCalendarMeeting(await ctx.client(), id, body);
  if (meeting === undefined) ctx.progress.note(`Saved the notes of calendar meeting ${id}; ${NO_BODY}`);
  else await plan.one(meeting);
  return ExitCode.ok;
});
