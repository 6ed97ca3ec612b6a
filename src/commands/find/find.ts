// mtg find: full-text search of the local mirror, one result per matching passage, best first.

import { ExitCode } from '../../api/errors.js';
import { parseTimeWindow } from '../../cli/dates.js';
import type { ListFormat } from '../../cli/globals.js';
import { listValues, oneOf } from '../../cli/input.js';
import { chooseFormat, writerSetup } from '../../cli/list.js';
import { defineRun } from '../../cli/spec.js';
import { openMirrorForReading } from '../../mirror/queries.js';
import type { PassageHit } from '../../mirror/search.js';
import * as search from '../../mirror/search.js';
import { createChalk, sanitizeOneLine } from '../../output/index.js';
import { formatClock } from '../../output/transcript.js';
import * as spec from './spec.js';

export const run = defineRun(spec.find, async (ctx, args, opts) => {
  const kinds = listValues(opts.in).map((v) => oneOf(v, spec.KINDS, '--in value'));
  const window = parseTimeWindow(opts.since, opts.until);
  const match = search.toMatchExpression(args.QUERY.join(' '));
  const format = chooseFormat(ctx) as ListFormat;
  const { out, view, options } = await writerSetup(ctx, 'hit', format);
  const mirror = openMirrorForReading(ctx);
  try {
    const hits = search.findPassages(mirror.db, match, {
      kinds: kinds.length ? [...new Set(kinds)] : undefined,
      since: window.since?.toISOString(),
      until: window.until?.toISOString(),
      limit: ctx.globals.limit,
    });
    const readable = format === 'table' && ctx.globals.fields === undefined;
    let count = 0;
    if (readable) {
      const lines: string[] = [];
      for (const hit of hits) {
        lines.push(...renderHit(hit, options.color));
        count++;
      }
      await out.writeDocument(ctx.globals.output, lines.length ? `${lines.join('\n')}\n` : '');
    } else {
      const sink = await out.openOutput(ctx.globals.output);
      const writer = out.createItemWriter(sink.stream, view, options);
      try {
        const batch: unknown[] = [];
        for (const hit of hits) {
          batch.push({ ...hit, snippet: plainSnippet(hit.snippet, search.MATCH_START, search.MATCH_END) });
          if (batch.length === 500) await writer.writeMany(batch.splice(0));
        }
        await writer.writeMany(batch);
        await writer.end();
        await sink.commit();
        count = writer.count;
      } catch (err) {
        await writer.abort().catch(() => undefined);
        await sink.abort().catch(() => undefined);
        throw err;
      }
    }
    if (count === 0) ctx.progress.note('No matches.');
  } finally {
    mirror.close();
  }
  return ExitCode.ok;
});

/** Matches between ** in data formats (the private-use marks of the snippet never leave mtg). */
function plainSnippet(snippet: string, start: string, end: string): string {
  return snippet.split(start).join('**').split(end).join('**');
}

/** Two lines per hit: where (meeting, date, kind, speaker and mm:ss) and the snippet, matches highlighted. */
function renderHit(hit: PassageHit, color: boolean): string[] {
  const { MATCH_START, MATCH_END } = search;
  const chalk = createChalk(color);
  const where = [
    hit.createdAt ? hit.createdAt.slice(0, 10) : undefined,
    hit.in,
    hit.speaker ?? undefined,
    hit.timestamp !== null ? formatClock(hit.timestamp) : undefined,
  ]
    .filter((x): x is string => x !== undefined && x !== '')
    .map(sanitizeOneLine)
    .join(' · ');
  const name = sanitizeOneLine(hit.meetingName ?? hit.meetingId);
  // Split on the marks first, then sanitize each piece: server text can never fake a highlight.
  const snippet = hit.snippet
    .split(MATCH_START)
    .map((part, i) => {
      if (i === 0) return sanitizeOneLine(part);
      const [matched = '', rest = ''] = part.split(MATCH_END);
      const shown = sanitizeOneLine(matched);
      return (color ? chalk.bold.yellow(shown) : `**${shown}**`) + sanitizeOneLine(rest);
    })
    .join('');
  return [
    `${chalk.bold(name)}  ${chalk.dim(where)}  ${chalk.dim(sanitizeOneLine(hit.meetingId))}`,
    `  ${snippet}`,
  ];
}
