// mtg meetings transcript: a meeting's transcript as text, subtitles, Markdown or JSON.

import { planOutput } from '../../cli/output-plan.js';
import { defineRun } from '../../cli/spec.js';
import {
  renderSrt,
  renderTranscriptMarkdown,
  renderTranscriptText,
  renderVtt,
} from '../../output/transcript.js';
import { ExitCode, UsageError } from '../../shared/errors.js';
import { stringId } from '../../shared/ids.js';
import * as spec from './spec.js';

export const run = defineRun(spec.transcript, async (ctx, args) => {
  const meetingId = stringId(args.MEETING_ID, 'Meeting ID');
  // The transcript's own formats; text (not table/tsv) when none is given.
  const plan = await planOutput(ctx, 'transcript', {
    formats: spec.TRANSCRIPT_FORMATS,
    defaults: { terminal: 'text', pipe: 'text' },
    fieldsIn: ['json', 'ndjson'],
  });
  const format = plan.format;
  // Refused in every other format, the default text too: fields would be silently ignored there.
  if (ctx.globals.fields !== undefined && plan.fields === undefined) {
    throw new UsageError(`--fields applies to --format json and ndjson only, not ${format}`);
  }
  const source = await ctx.source();
  if (!source.offline) ctx.progress.update(`Fetching the transcript of ${meetingId}`);
  let entries = await source.transcript(meetingId);
  ctx.progress.stop();
  const limit = plan.limit;
  if (limit !== undefined && entries.length > limit) {
    entries = entries.slice(0, limit);
    ctx.progress.note(`Showing the first ${limit} entries of the transcript; raise --limit to see more.`);
  }
  if (entries.length === 0) ctx.progress.note(`Meeting ${meetingId} has no transcript.`);

  if (format === 'json' || format === 'ndjson') {
    await plan.list(entries);
    return ExitCode.ok;
  }
  let text: string;
  if (format === 'srt') text = renderSrt(entries);
  else if (format === 'vtt') text = renderVtt(entries);
  else if (format === 'md') text = renderTranscriptMarkdown(entries, `Transcript of meeting ${meetingId}`);
  else text = renderTranscriptText(entries, { color: plan.color });
  await plan.document(text);
  return ExitCode.ok;
});
