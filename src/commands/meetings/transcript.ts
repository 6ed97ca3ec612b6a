// mtg meetings transcript: a meeting's transcript as text, subtitles, Markdown or JSON.

import { ExitCode, UsageError } from '../../api/errors.js';
import type { Context } from '../../cli/context.js';
import { stringId } from '../../cli/input.js';
import { chooseFormat, screenOptions, writeItems, writerSetup } from '../../cli/list.js';
import { readSource } from '../../cli/source.js';
import { defineRun } from '../../cli/spec.js';
import { writeDocument } from '../../output/document.js';
import { colorEnabled } from '../../output/index.js';
import {
  renderSrt,
  renderTranscriptMarkdown,
  renderTranscriptText,
  renderVtt,
} from '../../output/transcript.js';
import * as spec from './spec.js';

const TRANSCRIPT_FORMATS = ['text', 'json', 'ndjson', 'srt', 'vtt', 'md'] as const;
type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

/** The transcript's own formats; text (not table/tsv) when none is given. */
function transcriptFormat(ctx: Context): TranscriptFormat {
  if (ctx.globals.format === undefined) return 'text';
  const format = chooseFormat(ctx, TRANSCRIPT_FORMATS) as TranscriptFormat;
  if (ctx.globals.fields !== undefined && format !== 'json' && format !== 'ndjson') {
    throw new UsageError('--fields applies to --format json and ndjson only');
  }
  return format;
}

export const run = defineRun(spec.transcript, async (ctx, args) => {
  const meetingId = stringId(args.MEETING_ID, 'Meeting ID');
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
    return ExitCode.ok;
  }
  let text: string;
  if (format === 'srt') text = renderSrt(entries);
  else if (format === 'vtt') text = renderVtt(entries);
  else if (format === 'md') text = renderTranscriptMarkdown(entries, `Transcript of meeting ${meetingId}`);
  else text = renderTranscriptText(entries, { color: screenOptions(ctx, colorEnabled).color });
  await writeDocument(ctx.globals.output, text);
  return ExitCode.ok;
});
