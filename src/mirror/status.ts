// What a mirror holds and when it was last synced (`mtg mirror status`, and `mtg mcp`'s status).

import { existsSync, statSync } from 'node:fs';
import { lastSeq } from './changes.js';
import { lockHolder } from './lock.js';
import type { Mirror } from './open.js';
import { unindexedCount } from './passages.js';
import { schemaVersion } from './schema.js';
import { vocabularyPending } from './search-vocab.js';
import { pendingTranscriptCount } from './sync.js';

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
  /**
   * The search index: building (live meetings not indexed yet, or its typo vocabulary not listed
   * yet, after an upgrade) or ready.
   */
  searchIndex: { state: 'building' | 'ready'; pending: number; vocabulary: 'building' | 'ready' };
}

export function mirrorStatus(mirror: Mirror): MirrorStatus {
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
  return {
    profile: mirror.profile,
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
    searchIndex: (() => {
      const pending = unindexedCount(db);
      const vocabulary = vocabularyPending(db) ? 'building' : 'ready';
      return { state: pending > 0 || vocabulary === 'building' ? 'building' : 'ready', pending, vocabulary };
    })(),
  };
}
