// mtg watch: sync every interval and hand each new change event over exactly once (src/mirror/watch.ts).

import type { Context } from '../../cli/context.js';
import { parseInterval } from '../../cli/dates.js';
import { listValues, oneOf } from '../../cli/input.js';
import { outputWidth } from '../../cli/io.js';
import { defineRun, type OptsFor } from '../../cli/spec.js';
import type { ChangeEvent } from '../../mirror/changes.js';
import type { Db } from '../../mirror/db.js';
import { mirrorWriteError } from '../../mirror/errors.js';
import { runSync } from '../../mirror/sync.js';
import * as watchMod from '../../mirror/watch.js';
import { eventEnv, runHook } from '../../mirror/watch-hook.js';
import { textWidth, truncate } from '../../output/text.js';
import { ExitCode, InterruptedError, UsageError } from '../../shared/errors.js';
import { stringifyExact } from '../../shared/exact.js';
import { sanitizeOneLine } from '../../shared/sanitize.js';
import * as spec from './spec.js';

const FORMATS = spec.WATCH_FORMATS;

type WatchOpts = OptsFor<typeof spec.watch>;

/** The command's options checked and turned into what the watch loop and the sync take. */
function watchSettings(ctx: Context, opts: WatchOpts) {
  const intervalMs = parseInterval(opts.interval ?? spec.DEFAULT_INTERVAL);
  const execTimeoutMs = parseInterval(opts.execTimeout ?? spec.DEFAULT_EXEC_TIMEOUT, '--exec-timeout');
  const resources = listValues(opts.resource, '--resource', spec.RESOURCES).map((v) =>
    oneOf(v, spec.RESOURCES, '--resource value'),
  );
  const consumer = watchMod.checkConsumer(opts.consumer ?? 'default');
  const exec = opts.exec;
  if (exec !== undefined && exec.trim() === '') throw new UsageError('--exec needs a command');
  const given = ctx.globals.format;
  if (given !== undefined && !(FORMATS as readonly string[]).includes(given)) {
    throw new UsageError(`mtg watch prints ndjson or table, not --format ${given}`);
  }
  const table = (given ?? (ctx.io.out.isTTY ? 'table' : 'ndjson')) === 'table';
  // Table lines fit the terminal as the output plan's do (COLUMNS, the terminal, else 80).
  const width = outputWidth(ctx.io, ctx.env);
  // Only the lists of the watched resources are walked: a watch of action items spends no request on meetings.
  const only = resources.length
    ? [...new Set(resources.map((r) => (r === 'transcripts' ? 'meetings' : r)))]
    : undefined;
  const transcripts = opts.transcripts && (resources.length === 0 || resources.includes('transcripts'));
  return { intervalMs, execTimeoutMs, resources, consumer, exec, table, width, only, transcripts };
}

/**
 * The status line on stderr is ours (a spinner would fight with event lines on the same
 * terminal): `status` replaces it, `line` prints a line of its own above it.
 */
function statusLine(ctx: Context) {
  ctx.progress.stop();
  const stderr = ctx.io.err;
  const statusOn = !!stderr.isTTY && !ctx.globals.quiet;
  let statusShown = false;
  const status = (text: string) => {
    if (!statusOn) return;
    stderr.write(`\r\x1b[2K${text}`);
    statusShown = true;
  };
  const clearStatus = () => {
    if (statusShown) stderr.write('\r\x1b[2K');
    statusShown = false;
  };
  const line = (text: string) => {
    clearStatus();
    stderr.write(`${text}\n`);
  };
  return { status, clearStatus, line };
}

/**
 * Runs --exec CMD for one event, its JSON on stdin; a failure (not started, a non-zero exit, a
 * signal, the timeout) is reported with the end of its stderr and the event counts as handled.
 */
async function runExec(
  ctx: Context,
  hook: { exec: string; execTimeoutMs: number; db: Db; line: (text: string) => void },
  event: ChangeEvent,
  json: string,
): Promise<void> {
  const { exec, execTimeoutMs, line } = hook;
  const extra: Record<string, string> =
    event.resource === 'action-items'
      ? { MTG_EVENT_MINE: watchMod.isMine(hook.db, String(event.id)) ? '1' : '0' }
      : {};
  const about = `--exec for event ${event.seq} (${sanitizeOneLine(`${event.resource} ${event.id} ${event.change}`)})`;
  let result: Awaited<ReturnType<typeof runHook>>;
  try {
    result = await runHook(exec, `${json}\n`, {
      env: { ...ctx.env, ...eventEnv(event, extra) },
      timeoutMs: execTimeoutMs,
      signal: ctx.signal,
    });
  } catch (err) {
    if (ctx.signal.aborted) throw new InterruptedError();
    // A command that cannot be started (no sh on PATH, an environment spawn refuses) is a failed
    // hook like any other: reported, and the event counts as handled, so later events still run.
    line(
      `mtg: ${about} could not be started: ${sanitizeOneLine(err instanceof Error ? err.message : String(err))}`,
    );
    return;
  }
  // Interrupted while CMD ran: the event is not recorded as handled (a restart hands it over again).
  if (ctx.signal.aborted) throw new InterruptedError();
  if (result.code === 0) return;
  const how = result.timedOut
    ? `was stopped after ${watchMod.shortDuration(execTimeoutMs)} (--exec-timeout)`
    : result.code === null
      ? `was killed by ${result.signal}`
      : `exited with ${result.code}`;
  line(`mtg: ${about} ${how}`);
  const tail = result.stderrTail.trimEnd().split('\n').slice(-5);
  for (const t of tail) if (t.trim()) line(`  ${sanitizeOneLine(t)}`);
}

export const run = defineRun(spec.watch, async (ctx, _args, opts) => {
  const { intervalMs, execTimeoutMs, resources, consumer, exec, table, width, only, transcripts } =
    watchSettings(ctx, opts);

  // A missing base URL is said before a missing key (ctx.client()), as by sync.
  ctx.baseUrl(await ctx.settings(false));
  const client = await ctx.client();
  const mirror = await ctx.mirror({ readonly: false });

  const { status, clearStatus, line } = statusLine(ctx);
  // Resolves when the line has left the process: node writes to pipes asynchronously, and an
  // event whose seq were recorded while its line still sat in node's buffer would be lost to a
  // SIGKILL. Waiting for each write also keeps a slow reader's pipe from filling memory.
  const write = (text: string) =>
    new Promise<void>((resolve, reject) =>
      ctx.io.out.write(text, (err?: Error | null) => (err ? reject(err) : resolve())),
    );
  const hook = exec === undefined ? undefined : { exec, execTimeoutMs, db: mirror.db, line };

  try {
    await watchMod.watch(
      mirror,
      { intervalMs, consumer, resources, fromStart: opts.fromStart },
      {
        signal: ctx.signal,
        clock: ctx.clock,
        maxSyncs: opts.once ? 1 : undefined,
        rateLimit: () => client.limiter.sustainableRate(),
        sync: async (committed) => {
          client.limiter.resetWaited();
          status('Syncing…');
          try {
            return await runSync(client, mirror, { only, transcripts }, (e) => {
              if (e.refreshed) return; // the same counts, its time left counted down
              status(`Syncing ${e.phase}: ${e.requests} requests so far`);
              // An action item's MTG_EVENT_MINE is known only when the default-assignee walk has
              // ended: the action items' events are handed over after it, not page by page.
              if (e.phase === 'action-items' || (e.phase === 'my-action-items' && !e.done)) return;
              committed();
            });
          } catch (err) {
            throw mirrorWriteError(mirror.path, err);
          } finally {
            clearStatus();
          }
        },
        print: (event) => {
          clearStatus();
          return write(
            table ? `${eventLine(event, sanitizeOneLine, width)}\n` : `${stringifyExact(event)}\n`,
          );
        },
        exec: hook === undefined ? undefined : (event) => runExec(ctx, hook, event, stringifyExact(event)!),
        report: (text) => line(`mtg: ${sanitizeOneLine(text)}`),
        warn: (text) => line(`mtg: warning: ${text}`),
        waiting: (msLeft) => {
          const used = watchMod.requestsInLastHour(mirror.db, ctx.clock.now());
          status(`Next sync in ${watchMod.shortDuration(msLeft)} · ${used} requests in the last hour`);
        },
      },
    );
  } finally {
    clearStatus();
  }
  return ExitCode.ok;
});

/** A readable line per event: time, change, resource, id and the item's name or title (cut to fit `width`, the ID never). */
function eventLine(
  event: { seq: number; at: string; resource: string; id: unknown; change: string; item: unknown },
  clean: (s: string) => string,
  width: number,
): string {
  const item = (event.item ?? {}) as Record<string, unknown>;
  const label = Array.isArray(event.item)
    ? `${event.item.length} transcript entries`
    : (event.resource === 'action-items' ? [item.title] : [item.name, item.email, item.domain]).find(
        (v) => typeof v === 'string' && v !== '',
      );
  const time = event.at.slice(11, 19);
  const words = [time, `#${event.seq}`, event.change, event.resource, clean(String(event.id))] as const;
  // Aligned columns where they fit; on a narrow terminal one space apart, the ID still whole.
  let head = [words[0], words[1], words[2].padEnd(9), words[3].padEnd(12), words[4]].join('  ');
  if (textWidth(head) > width) head = words.join(' ');
  const text = clean(String(label ?? ''));
  const room = width - textWidth(head) - 2;
  return text && room > 1 ? `${head}  ${truncate(text, room)}` : head.trimEnd();
}
