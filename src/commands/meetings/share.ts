// mtg meetings share: share a meeting with people and teams, in batches; each failed target
// reported by its index.

import { SHARE_MAX_TARGETS, type ShareAccess } from '../../api/assumptions.js';
import { type ShareTarget, shareMeeting, shareMeetingRequest } from '../../api/endpoints.js';
import { RateLimitExhaustedError } from '../../api/errors.js';
import type { Meeting } from '../../api/schemas.js';
import type { Context } from '../../cli/context.js';
import { isDryRun, printDryRun } from '../../cli/dry-run.js';
import { listValues, readStdinText, stdinValues } from '../../cli/input.js';
import { planOutput } from '../../cli/output-plan.js';
import { defineRun, type OptsFor } from '../../cli/spec.js';
import { counted, project, sanitizeOneLine, toJson } from '../../output/index.js';
import { appendAll } from '../../shared/append.js';
import { ExitCode, InterruptedError, MtgError, UsageError } from '../../shared/errors.js';
import { stringId } from '../../shared/ids.js';
import { emailTarget, parseShareTargets, type Target, teamTarget } from './share-targets.js';
import * as spec from './spec.js';

async function shareTargets(ctx: Context, opts: OptsFor<typeof spec.share>): Promise<Target[]> {
  const targets = [
    ...listValues(opts.email, '--email').map(emailTarget),
    ...listValues(opts.team, '--team').map(teamTarget),
  ];
  const what = 'emails or team IDs';
  if (opts.stdin)
    appendAll(targets, stdinValues(parseShareTargets(await readStdinText(ctx.io.in, what)), what));
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
): Promise<{ meeting: Meeting | undefined; failures: Failure[]; rateLimited: boolean }> {
  const client = await ctx.client();
  const failures: Failure[] = [];
  let meeting: Meeting | undefined;
  let applied = false; // a batch was applied (a 2xx, with or without a body)
  // A batch held back past --max-wait: the limit, not the server, stopped it (exit 5, not 6).
  let rateLimited = false;
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
      rateLimited = err instanceof RateLimitExhaustedError;
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
  return { meeting, failures, rateLimited };
}

export const run = defineRun(spec.share, async (ctx, args, opts) => {
  const meetingId = stringId(args.MEETING_ID, 'Meeting ID');
  const access = opts.access;
  const targets = await shareTargets(ctx, opts);
  if (isDryRun(opts)) {
    return printDryRun(
      ctx,
      shareBatches(targets).map((batch) => shareMeetingRequest(meetingId, shareBody(batch, access))),
    );
  }
  const plan = await planOutput(ctx, 'sharedWith'); // --format and --fields checked before anything is sent

  const { meeting, failures, rateLimited } = await shareInBatches(ctx, meetingId, targets, access);
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

  if (plan.format === 'json' || plan.format === 'ndjson') {
    // Scripts see the failures too: each by its zero-based index in the whole list, as sent.
    const errors = failures.map((f) => ({ index: f.index, target: targets[f.index]?.who, error: f.error }));
    await plan.document(shareDocument(plan.format, plan.fields, meeting?.sharedWith ?? [], errors));
  } else if (meeting) await plan.list(meeting.sharedWith ?? []);
  if (failed === 0) return ExitCode.ok;
  if (rateLimited) return ExitCode.rateLimited;
  return applied > 0 ? ExitCode.partial : ExitCode.api;
});

/**
 * json: one object {"sharedWith": [...], "errors": [...]} (one valid document); ndjson: one line
 * per entry, each with a "type" ("sharedWith" with the entry as "value", or "error").
 */
function shareDocument(
  format: 'json' | 'ndjson',
  fields: string[] | undefined,
  sharedWith: readonly unknown[],
  errors: readonly { index: number; target: unknown; error: string }[],
): string {
  const entries = fields && fields.length > 0 ? sharedWith.map((e) => project(e, fields)) : sharedWith;
  return format === 'json'
    ? toJson({ sharedWith: entries, errors }, undefined, 2) + '\n'
    : [
        ...entries.map((value) => ({ type: 'sharedWith', value })),
        ...errors.map((e) => ({ type: 'error', ...e })),
      ]
        .map((line) => toJson(line, undefined) + '\n')
        .join('');
}
