// mtg mirror status|reset: what the profile's local mirror holds, and starting it over.

import { existsSync, statSync, unlinkSync } from 'node:fs';
import { ExitCode, MtgError, UsageError } from '../api/errors.js';
import type { Context } from '../cli/context.js';
import type { GroupSpec } from '../cli/spec.js';
import { dataDir } from '../config/data-dir.js';
import { profileName } from '../config/settings.js';

function profileOf(ctx: Context): string {
  return profileName({ flags: { profile: ctx.globals.profile }, env: ctx.env });
}

export interface MirrorStatus {
  profile: string;
  path: string;
  /** Bytes of the database and its write-ahead log. */
  size: number;
  baseUrl: string | null;
  schemaVersion: number;
  lastSync: {
    run: number;
    startedAt: string;
    finishedAt: string | null;
    complete: boolean;
    requests: number;
    /** Why it stopped early (an error), when it did. */
    error: string | null;
  } | null;
  syncRunningPid: number | null;
  counts: { meetings: number; actionItems: number; people: number; companies: number; transcripts: number };
  deleted: { meetings: number; actionItems: number; people: number; companies: number };
  transcriptsPending: number;
  lastSeq: number;
}

export const mirrorGroup: GroupSpec = {
  name: 'mirror',
  summary: 'Show or reset the local mirror that `mtg sync` writes',
  commands: [
    {
      name: 'status',
      summary: 'Where the mirror is, what it holds, when it was last synced',
      examples: ['mtg mirror status', 'mtg mirror status --json', 'mtg mirror status --profile work'],
      async run(ctx) {
        const format = ctx.globals.format;
        for (const [given, flag] of [
          [ctx.globals.fields, '--fields'],
          [ctx.globals.limit, '--limit'],
        ] as const) {
          if (given !== undefined) throw new UsageError(`mtg mirror status does not take ${flag}`);
        }
        if (format !== undefined && !['json', 'ndjson', 'table'].includes(format)) {
          throw new UsageError(
            `mtg mirror status prints text, --json or --format ndjson, not --format ${format}`,
          );
        }
        const profile = profileOf(ctx);
        const dir = dataDir(ctx.env);
        const [{ openMirror }, { schemaVersion }, { lockHolder }, { lastSeq }, { pendingTranscriptCount }] =
          await Promise.all([
            import('../mirror/open.js'),
            import('../mirror/schema.js'),
            import('../mirror/lock.js'),
            import('../mirror/changes.js'),
            import('../mirror/sync.js'),
          ]);
        const mirror = openMirror({ profile, dataDir: dir, readonly: true });
        let status: MirrorStatus;
        try {
          const db = mirror.db;
          const count = (table: string, deleted: boolean) =>
            db
              .prepare<{ n: number }>(
                `SELECT count(*) AS n FROM ${table} WHERE deleted_at IS ${deleted ? 'NOT NULL' : 'NULL'}`,
              )
              .get()!.n;
          const run = db
            .prepare<{
              id: number;
              started_at: string;
              finished_at: string | null;
              complete: number;
              requests: number;
              error: string | null;
            }>(
              'SELECT id, started_at, finished_at, complete, requests, error FROM runs ORDER BY id DESC LIMIT 1',
            )
            .get();
          const size = [mirror.path, `${mirror.path}-wal`].reduce(
            (n, p) => n + (existsSync(p) ? statSync(p).size : 0),
            0,
          );
          status = {
            profile,
            path: mirror.path,
            size,
            baseUrl: mirror.baseUrl ?? null,
            schemaVersion: schemaVersion(db),
            lastSync: run
              ? {
                  run: run.id,
                  startedAt: run.started_at,
                  finishedAt: run.finished_at,
                  complete: run.complete === 1,
                  requests: run.requests,
                  error: run.error,
                }
              : null,
            syncRunningPid: lockHolder(db)?.pid ?? null,
            counts: {
              meetings: count('meetings', false),
              actionItems: count('action_items', false),
              people: count('people', false),
              companies: count('companies', false),
              transcripts: db.prepare<{ n: number }>('SELECT count(*) AS n FROM transcripts').get()!.n,
            },
            deleted: {
              meetings: count('meetings', true),
              actionItems: count('action_items', true),
              people: count('people', true),
              companies: count('companies', true),
            },
            transcriptsPending: pendingTranscriptCount(db),
            lastSeq: lastSeq(db),
          };
        } finally {
          mirror.close();
        }
        const { writeDocument } = await import('../output/document.js');
        if (format === 'json' || format === 'ndjson') {
          await writeDocument(
            ctx.io.out,
            ctx.globals.output,
            `${format === 'json' ? JSON.stringify(status, null, 2) : JSON.stringify(status)}\n`,
          );
          return 0;
        }
        const [{ humanCount, humanDate }, { sanitizeOneLine }] = await Promise.all([
          import('../output/text.js'),
          import('../output/sanitize.js'),
        ]);
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
        const counted = (n: number, d: number) =>
          `${humanCount(n)}${d ? ` (+${humanCount(d)} deleted)` : ''}`;
        await writeDocument(
          ctx.io.out,
          ctx.globals.output,
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
            row('changes', `last seq ${s.lastSeq}`),
        );
        return 0;
      },
    },
    {
      name: 'reset',
      summary: "Delete this profile's mirror (the next `mtg sync` starts over)",
      description:
        "Delete this profile's mirror files (the database and its -wal/-shm files). Refused while a sync " +
        'of the profile runs. Needed to mirror another base URL, or to replace a corrupt file. A file ' +
        "that is not an mtg mirror (another program's database, an unreadable file) is refused unless --force.",
      options: [{ flags: '--force', description: 'delete the file even when it is not an mtg mirror' }],
      examples: ['mtg mirror reset', 'mtg mirror reset --profile work && mtg sync --profile work'],
      async run(ctx, _args, opts) {
        const profile = profileOf(ctx);
        const dir = dataDir(ctx.env);
        const [{ mirrorPathIn, mirrorFiles, notAMirror, checkDataDir }, { openDb }, { lockHolder }] =
          await Promise.all([
            import('../mirror/open.js'),
            import('../mirror/driver.js'),
            import('../mirror/lock.js'),
          ]);
        checkDataDir(dir);
        const path = mirrorPathIn(dir, profile);
        if (!existsSync(path)) {
          ctx.progress.note(`No mirror for profile ${profile} (${path}): nothing to delete.`);
          return 0;
        }
        if (!statSync(path).isFile()) {
          throw new UsageError(`${path} is not a file, so not an mtg mirror: left as it is`);
        }
        // Only what mtg recognises as its mirror is deleted: MTG_DATA_DIR may point at another
        // program's files.
        const why = notAMirror(path);
        if (why !== undefined && opts.force !== true) {
          throw new UsageError(
            `${path} is not an mtg mirror (${why}): left as it is; move it away, or delete it with --force`,
          );
        }
        let holder: number | undefined;
        try {
          const db = openDb(path, { readonly: true });
          try {
            holder = lockHolder(db)?.pid;
          } finally {
            db.close();
          }
        } catch {
          // Not readable as a mirror (corrupt, foreign, an older schema): no sync can be using it.
        }
        if (holder !== undefined) {
          throw new MtgError(
            `A sync of profile ${profile} is running (PID ${holder}); stop it before resetting the mirror`,
            ExitCode.api,
          );
        }
        for (const file of mirrorFiles(path)) {
          try {
            unlinkSync(file);
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
              throw new MtgError(`Cannot delete ${file}: ${(err as Error).message}`, ExitCode.api);
            }
          }
        }
        ctx.progress.note(`Deleted the mirror of profile ${profile} (${path}).`);
        return 0;
      },
    },
  ],
};
