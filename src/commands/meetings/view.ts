// mtg meetings view: one meeting as a readable page, as data, or as its web-app link.

import type { Meeting } from '../../api/schemas.js';
import type { Context } from '../../cli/context.js';
import { writeDocument } from '../../cli/output-document.js';
import { planOutput } from '../../cli/output-plan.js';
import { defineRun } from '../../cli/spec.js';
import { appUrlOf } from '../../config/settings.js';
import { renderMeetingPage } from '../../output/meeting-view.js';
import { ExitCode, MtgError, UsageError } from '../../shared/errors.js';
import { stringId } from '../../shared/ids.js';
import * as spec from './spec.js';

/** The app URL, checked (a bad MTG_APP_URL is exit 2 before the meeting is fetched). */
async function appUrl(ctx: Context): Promise<string | undefined> {
  return appUrlOf(await ctx.settings());
}

function webLink(base: string, meetingId: string): string {
  return `${base}/meetings/${encodeURIComponent(meetingId)}`;
}

/** One meeting from the API (a search restricted to its ID) or the mirror. */
async function fetchMeeting(ctx: Context, meetingId: string): Promise<Meeting> {
  const source = await ctx.source();
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

export const run = defineRun(spec.view, async (ctx, args, opts) => {
  const meetingId = stringId(args.MEETING_ID, 'Meeting ID');
  if (opts.web) {
    // The link is one line of text: a format or fields would be silently ignored.
    if (ctx.globals.format !== undefined || ctx.globals.fields !== undefined) {
      throw new UsageError('--web prints the link only: it takes no --json, --format, --fields or --jq');
    }
    const base = await appUrl(ctx);
    if (!base) {
      throw new UsageError(
        'No web app URL is set. Set MTG_APP_URL or run `mtg config set app-url https://app.example.com`.',
      );
    }
    await writeDocument(ctx, webLink(base, meetingId) + '\n');
    return ExitCode.ok;
  }
  // A view is read by people wherever it goes: into a pipe or a file it is the page too, as plain
  // text (a tsv row of the whole meeting, notes in one cell, helped nobody). Scripts ask for
  // --json (or --fields, which keeps the tsv row of the chosen fields).
  const page = ctx.globals.fields === undefined;
  const plan = await planOutput(
    ctx,
    'meeting',
    page ? { defaults: { terminal: 'table', pipe: 'table' } } : {},
  );
  // A readable page unless the user chose fields (then the key/value table shows just those).
  if (!plan.readable) {
    await plan.one(await fetchMeeting(ctx, meetingId));
    return ExitCode.ok;
  }
  const base = await appUrl(ctx);
  const meeting = await fetchMeeting(ctx, meetingId);
  const text = renderMeetingPage(meeting, {
    color: plan.color,
    width: plan.width,
    now: plan.now,
    webUrl: base ? webLink(base, meeting.id) : undefined,
  });
  await plan.document(text);
  return ExitCode.ok;
});
