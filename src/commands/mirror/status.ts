// mtg mirror status: where the mirror is, what it holds, when it was last synced.

import { existsSync, statSync } from 'node:fs';
import { ExitCode, UsageError } from '../../api/errors.js';
import { defineRun } from '../../cli/spec.js';
import { dataDir } from '../../config/data-dir.js';
import { lastSeq } from '../../mirror/changes.js';
import { lockHolder } from '../../mirror/lock.js';
import { openMirror } from '../../mirror/open.js';
import { schemaVersion } from '../../mirror/schema.js';
import { pendingTranscriptCount } from '../../mirror/sync.js';
import { writeDocument } from '../../output/document.js';
import { sanitizeOneLine } from '../../output/sanitize.js';
import { humanCount, humanDate } from '../../output/text.js';
import { profileOf } from './profile.js';
import * as spec from './spec.js';

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

export const run = defineRun(spec.status, async (ctx) => {
  const format = ctx.globals.format;
  if (format !== undefined && !['json', 'ndjson', 'table'].includes(format)) {
    throw new UsageError(`mtg mirror status prints text, --json or --format ndjson, not --format ${format}`);
  }
  const profile = profileOf(ctx);
  const dir = dataDir(ctx.env);
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
      }>('SELECT id, started_at, finished_at, complete, requests, error FROM runs ORDER BY id DESC LIMIT 1')
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
  if (format === 'json' || format === 'ndjson') {
    await writeDocument(
      ctx,
      `${format === 'json' ? JSON.stringify(status, null, 2) : JSON.stringify(status)}\n`,
    );
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
      row('changes', `last seq ${s.lastSeq}`),
  );
  return ExitCode.ok;
});
