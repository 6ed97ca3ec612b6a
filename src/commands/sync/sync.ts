// mtg sync: copy what the key can see into the profile's local mirror (src/mirror/sync.ts).

import { listValues, oneOf } from '../../cli/input.js';
import { writeDocument } from '../../cli/output-document.js';
import { defineRun } from '../../cli/spec.js';
import { mirrorWriteError } from '../../mirror/errors.js';
import { runSync, syncStopped } from '../../mirror/sync.js';
import { formatDuration } from '../../output/meeting-view.js';
import { counted, humanCount } from '../../output/text.js';
import { ExitCode, UsageError } from '../../shared/errors.js';
import { stringifyExact } from '../../shared/exact.js';
import * as spec from './spec.js';

const PHASE_NOUN: Record<string, string> = {
  meetings: 'meetings',
  'action-items': 'action items',
  'my-action-items': 'action items assigned to me',
  people: 'people',
  companies: 'companies',
  'company-details': 'company details',
};

export const run = defineRun(spec.sync, async (ctx, _args, opts) => {
  const only = listValues(opts.only, '--only', spec.SYNC_LISTS).map((v) =>
    oneOf(v, spec.SYNC_LISTS, '--only value'),
  );
  const budget = opts.budget;
  const format = ctx.globals.format;
  if (format !== undefined && format !== 'json') {
    throw new UsageError(`mtg sync prints its summary as json only (--json), not --format ${format}`);
  }
  if (ctx.globals.output !== undefined && format !== 'json') {
    throw new UsageError('mtg sync writes a file with -o only with --json (its summary object)');
  }
  // The key is checked before the mirror is opened (ctx.mirror): without one, no file is created.
  const mirror = await ctx.mirror({ readonly: false });
  const client = await ctx.client();
  let summary: Awaited<ReturnType<typeof runSync>>;
  try {
    summary = await runSync(
      client,
      mirror,
      { only, budget, full: opts.full, transcripts: opts.transcripts },
      (e) => {
        if (e.walkedInPass) {
          const lists = e.walkedInPass.map((p) => PHASE_NOUN[p] ?? p).join(', ');
          ctx.progress.note(
            `Going on with the pass the syncs before this one began: they walked ${lists} to the end, so this one does not again (a sync without --budget walks every list).`,
          );
          return;
        }
        const noun = PHASE_NOUN[e.phase] ?? e.phase;
        // A refreshed event is the time left counted down during a wait: the wait stays shown.
        const show = (text: string) => {
          if (e.done) ctx.progress.debug(text);
          else if (e.refreshed) ctx.progress.refresh(text);
          else ctx.progress.update(text);
        };
        if (e.phase === 'transcripts' || e.phase === 'company-details') {
          const eta =
            e.etaMs === undefined || e.requestsLeft === 0
              ? ''
              : `, about ${formatDuration(e.etaMs / 1000)} to go`;
          const what = e.phase === 'transcripts' ? 'Transcripts' : 'Company details';
          const text = `${what}: ${humanCount(e.items)} fetched, ${humanCount(e.left ?? 0)} left${eta}`;
          show(text);
          return;
        }
        // Once the meetings walk has told, the transcripts still to come show too; the time counts
        // the pages left as well, and says so when it cannot know them (a first sync).
        const left = e.left === undefined ? '' : `; ${counted(e.left, 'transcript')} left`;
        const eta =
          e.etaMs === undefined ? '; ETA unknown' : `; about ${formatDuration(e.etaMs / 1000)} to go`;
        const text = `Syncing ${noun}: ${humanCount(e.items)} (${counted(e.pages, 'page')}, ${counted(e.requests, 'request')} so far)${left}${eta}`;
        show(text);
      },
    );
  } catch (err) {
    const error = mirrorWriteError(mirror.path, err);
    const partial = syncStopped(err);
    if (partial !== undefined) {
      ctx.progress.stop();
      if (partial.committed) {
        ctx.progress.note('The mirror keeps what this sync committed; `mtg sync` goes on from there.');
      }
      // --json: one object on stdout whatever the ending; the exit code still says why it stopped.
      if (format === 'json') {
        await writeDocument(ctx, `${stringifyExact(partial.summary, 2)}\n`).catch(() => undefined);
      }
    }
    throw error;
  }
  ctx.progress.stop();
  const c = (r: { created: number; updated: number; deleted: number; total: number }, noun: string) =>
    `${humanCount(r.total)} ${noun} (+${r.created} ~${r.updated} -${r.deleted})`;
  const line =
    `${summary.complete ? 'Synced' : 'Stopped at --budget'}: ${c(summary.meetings, 'meetings')}, ` +
    `${c(summary.actionItems, 'action items')}, ${c(summary.people, 'people')}, ${c(summary.companies, 'companies')}; ` +
    `transcripts ${humanCount(summary.transcripts.fetched)} fetched, ${humanCount(summary.transcripts.pending)} pending; ` +
    `${humanCount(summary.requests)} requests in ${formatDuration(summary.durationMs / 1000)}` +
    (summary.complete ? '' : ' (run `mtg sync` again to go on)');
  ctx.progress.note(line);
  if (format === 'json') {
    await writeDocument(ctx, `${stringifyExact(summary, 2)}\n`);
  }
  return ExitCode.ok;
});
