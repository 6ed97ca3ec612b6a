// mtg find: full-text search of the local mirror, one result per matching passage, best first.

import { parseTimeWindow } from '../../cli/dates.js';
import { listValues, oneOf } from '../../cli/input.js';
import { planOutput } from '../../cli/output-plan.js';
import { defineRun } from '../../cli/spec.js';
import type { PassageHit } from '../../mirror/search.js';
import * as engine from '../../mirror/search.js';
import { search } from '../../ops/search.js';
import { createChalk, sanitizeOneLine } from '../../output/index.js';
import { fitPieces, textWidth, truncate } from '../../output/text.js';
import { formatClock } from '../../output/transcript.js';
import { ExitCode } from '../../shared/errors.js';
import * as spec from './spec.js';

export const run = defineRun(spec.find, async (ctx, args, opts) => {
  const kinds = listValues(opts.in, '--in', spec.KINDS).map((v) => oneOf(v, spec.KINDS, '--in value'));
  const window = parseTimeWindow(opts.since, opts.until, ctx.io.now());
  const byMeeting = oneOf(opts.by ?? 'passage', spec.UNITS, '--by value') === 'meeting';
  const query = args.QUERY.join(' ');
  engine.parseQuery(query); // a bad query is exit 2 before the output or the mirror is opened
  const plan = await planOutput(ctx, 'hit');
  const mirror = await ctx.searchableMirror();
  const { corrections, hits } = search(mirror, {
    query,
    in: kinds,
    since: window.since?.toISOString(),
    until: window.until?.toISOString(),
    groupBy: byMeeting ? 'meeting' : 'passage',
    limit: plan.limit,
    exact: opts.exact === true,
  });
  for (const { from, to } of corrections)
    ctx.progress.note(`"${sanitizeOneLine(from)}" matches nothing; searched for: ${sanitizeOneLine(to)}`);
  let count = 0;
  if (plan.readable) {
    const lines: string[] = [];
    for (const hit of hits) {
      lines.push(...renderHit(hit, plan.color, plan.width));
      if ('passages' in hit)
        for (const more of hit.passages.slice(1))
          lines.push(renderHit({ ...hit, ...more }, plan.color, plan.width)[1]!);
      count++;
    }
    await plan.document(lines.length ? `${lines.join('\n')}\n` : '');
  } else {
    const rows = function* () {
      for (const hit of hits) {
        yield engine.plainHit(hit);
      }
    };
    ({ count } = await plan.list(rows()));
  }
  if (count === 0) ctx.progress.note('No matches.');
  return ExitCode.ok;
});

/**
 * Two lines per hit, each fitting `width` columns: where (meeting, date, kind, speaker and mm:ss,
 * then the meeting ID, which is never cut) and the snippet, matches highlighted.
 */
function renderHit(hit: PassageHit, color: boolean, width: number): string[] {
  const { MATCH_START, MATCH_END } = engine;
  const chalk = createChalk(color);
  let where = [
    hit.createdAt ? hit.createdAt.slice(0, 10) : undefined,
    hit.in,
    hit.speaker ?? undefined,
    hit.timestamp !== null ? formatClock(hit.timestamp) : undefined,
  ]
    .filter((x): x is string => x !== undefined && x !== '')
    .map(sanitizeOneLine)
    .join(' · ');
  let name = sanitizeOneLine(hit.meetingName ?? hit.meetingId);
  const id = sanitizeOneLine(hit.meetingId);
  // The text before the ID gets what the ID leaves; the name keeps at least half of it.
  const room = width - textWidth(id) - 2;
  if (textWidth(name) + 2 + textWidth(where) > room) {
    name = truncate(
      name,
      Math.min(textWidth(name), Math.max(Math.ceil(room / 2), room - 2 - textWidth(where))),
    );
    const whereRoom = room - textWidth(name) - 2;
    // Too little room for a readable "where": the name takes it all.
    if (whereRoom < 8) {
      where = '';
      name = truncate(sanitizeOneLine(hit.meetingName ?? hit.meetingId), Math.max(1, room));
    } else where = truncate(where, whereRoom);
  }
  // Split on the marks first, then sanitize each piece: server text can never fake a highlight.
  const pieces: { text: string; match: boolean }[] = [];
  hit.snippet.split(MATCH_START).forEach((part, i) => {
    if (i === 0) {
      pieces.push({ text: sanitizeOneLine(part), match: false });
      return;
    }
    const [matched = '', rest = ''] = part.split(MATCH_END);
    pieces.push(
      { text: sanitizeOneLine(matched), match: true },
      { text: sanitizeOneLine(rest), match: false },
    );
  });
  const snippet = fitPieces(
    pieces,
    width - 2,
    (p, text) => (!p.match ? text : color ? chalk.bold.yellow(text) : `**${text}**`),
    (p) => (p.match && !color ? 4 : 0),
  );
  const head = where ? `${chalk.bold(name)}  ${chalk.dim(where)}` : chalk.bold(name);
  return [`${head}  ${chalk.dim(id)}`, `  ${snippet}`];
}
