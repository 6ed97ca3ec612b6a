// mtg mirror status: where the mirror is, what it holds, when it was last synced.

import { writeDocument } from '../../cli/output-document.js';
import { defineRun } from '../../cli/spec.js';
import { MirrorReads } from '../../mirror/reads.js';
import type { MirrorStatus } from '../../mirror/status.js';
import { humanCount, humanDate } from '../../output/text.js';
import { ExitCode, UsageError } from '../../shared/errors.js';
import { stringifyExact } from '../../shared/exact.js';
import { sanitizeOneLine } from '../../shared/sanitize.js';
import * as spec from './spec.js';

export const run = defineRun(spec.status, async (ctx) => {
  const format = ctx.globals.format;
  if (format !== undefined && !['json', 'ndjson', 'table'].includes(format)) {
    throw new UsageError(`mtg mirror status prints text, --json or --format ndjson, not --format ${format}`);
  }
  const mirror = await ctx.mirror({ readonly: true, anyBaseUrl: true });
  const status = await new MirrorReads(mirror).status();
  if (format === 'json' || format === 'ndjson') {
    await writeDocument(ctx, `${stringifyExact(status, format === 'json' ? 2 : undefined)}\n`);
    return ExitCode.ok;
  }
  const s = status;
  const how = (l: NonNullable<MirrorStatus['lastSync']>) =>
    l.finishedAt === null
      ? s.syncRunningPid !== null
        ? 'running'
        : 'did not finish'
      : l.complete
        ? 'complete'
        : l.error !== null
          ? `stopped: ${sanitizeOneLine(l.error)}`
          : 'stopped at --budget';
  const last = s.lastSync
    ? `${humanDate(s.lastSync.finishedAt ?? s.lastSync.startedAt)} (run ${s.lastSync.run}, ${how(s.lastSync)}, ${humanCount(s.lastSync.requests)} requests)`
    : 'never';
  const row = (label: string, value: string) => `  ${label.padEnd(13)}${value}\n`;
  const counted = (n: number, d: number) => `${humanCount(n)}${d ? ` (+${humanCount(d)} deleted)` : ''}`;
  await writeDocument(
    ctx,
    `Mirror of profile ${s.profile}\n` +
      row('path', s.path) +
      row('size', `${humanCount(Math.ceil(s.size / 1024))} KB`) +
      row('base URL', s.baseUrl ?? '(none yet)') +
      row('last sync', last) +
      (s.syncRunningPid !== null ? row('running', `a sync is running (PID ${s.syncRunningPid})`) : '') +
      row('meetings', counted(s.counts.meetings, s.deleted.meetings)) +
      row('action items', counted(s.counts.actionItems, s.deleted.actionItems)) +
      row('people', counted(s.counts.people, s.deleted.people)) +
      row('companies', counted(s.counts.companies, s.deleted.companies)) +
      row(
        'transcripts',
        `${humanCount(s.counts.transcripts)} stored, ${humanCount(s.transcriptsPending)} pending`,
      ) +
      row('changes', `last seq ${s.lastSeq}`) +
      row(
        'search index',
        s.searchIndex.state === 'ready'
          ? 'ready'
          : s.searchIndex.pending > 0
            ? `building: ${humanCount(s.searchIndex.pending)} meetings to index (the next find or search does it)`
            : 'building: its typo vocabulary (the next find or search does it)',
      ),
  );
  return ExitCode.ok;
});
