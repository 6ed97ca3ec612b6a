// Everything `mtg mcp` reads from or does to the mirror and the API, in one place: the tools
// (tools/) are declarations over the operations (src/ops/) and the mirror library's own reads (the
// code of changes, sql, mirror status), given the mirror this opens, and the sync engine of `mtg
// sync`. The reads
// share one read-only Mirror, opened at the first call and kept for the server's life; no read
// transaction outlives a call (every iteration is closed by then), so each call sees the last
// committed state (WAL: a sync in another process never blocks it, and nothing is cached). A mirror
// deleted, reset or made after the server started is a new file: the next call opens that one.
// (Measured against one open per call: the same peak RSS, and each call 0.5 ms faster.)

import { statSync } from 'node:fs';
import type { ApiClient } from '../api/client.js';
import * as E from '../api/endpoints.js';
import type * as S from '../api/schemas.js';
import type { Context } from '../cli/context.js';
import type { ChangeEvent, ChangeResource } from '../mirror/changes.js';
import { EmptyMirrorError, NoMirrorFileError } from '../mirror/errors.js';
import { type Mirror, mirrorPathIn, openMirror } from '../mirror/open.js';
import { MirrorReads } from '../mirror/reads.js';
import * as search from '../mirror/search.js';
import type { BoundedSqlOptions, BoundedSqlRows } from '../mirror/sql.js';
import { type MirrorStatus, mirrorStatus } from '../mirror/status.js';
import {
  runSync,
  type StoredSyncProgress,
  type SyncSummary,
  storedSyncProgress,
  storeWrittenActionItem,
  type WrittenActionItem,
} from '../mirror/sync.js';
import { type ActionItemPatch, updateActionItem } from '../ops/update-action-item.js';
import { UsageError } from '../shared/errors.js';
import type { ExactId } from '../shared/exact.js';

export type { ChangeEvent, ChangeResource, MirrorStatus, StoredSyncProgress, SyncSummary };
export const PASSAGE_KINDS = search.PASSAGE_KINDS;
export type PassageKind = search.PassageKind;

/** What `mtg find --json` prints for one hit. */
export type Hit = Omit<search.PassageHit, 'snippet'> & { snippet: string; passages?: unknown[] };

/** No mirror for the profile yet: every tool but mirror_status says so. */
export class NoMirrorError extends UsageError {
  constructor(profile: string) {
    super(`no mirror for profile ${profile}: run \`mtg sync\``);
  }
}

/** The reads of one tool call, over one read-only open of the mirror. */
export interface Reader {
  /** The open mirror, for the operations (src/ops/) that take one. */
  readonly mirror: Mirror;
  /** `mtg changes --after SEQ --json`'s events, oldest first. */
  changes(after: number, resources: readonly ChangeResource[], limit: number): Iterable<ChangeEvent>;
  /** mtg's own statement's rows, in this process (checked read-only first). */
  sql(query: string): { columns: string[]; rows: Iterable<Record<string, unknown>> };
  /**
   * The sql tool's statement, as `mtg sql` runs it: checked now (UsageError), run in a child process
   * as its rows are read, ended by the bound, the signal, or when the reading stops.
   */
  boundedSql(query: string, options: BoundedSqlOptions): BoundedSqlRows;
}

export interface MirrorAccess {
  readonly profile: string;
  readonly path: string;
  /** Runs `fn` over the mirror's last committed state (NoMirrorError when there is none). */
  read<T>(fn: (reader: Reader) => Promise<T> | T): Promise<T>;
  /** Closes the reads' connection. */
  close(): void;
  /** `mtg mirror status`'s figures, or undefined when there is no mirror yet. */
  status(): MirrorStatus | undefined;
  /** A running sync's progress as committed so far (any process's), or undefined when none runs. */
  syncProgress(): StoredSyncProgress | undefined;
  /** One run of `mtg sync`'s engine (its lock: another sync running is SyncLockedError). */
  sync(options: { budget?: number; onProgress?: (requests: number) => void }): Promise<SyncSummary>;
  createActionItem(body: E.ActionItemCreateBody): Promise<Written<S.CreatedActionItem>>;
  updateActionItem(id: ExactId, patch: ActionItemPatch): Promise<Written<S.UpdatedActionItem>>;
}

/** A write the service applied: its item, and why the mirror could not store it at once, if it could not. */
export interface Written<T> {
  item: T | undefined;
  notStored?: string;
}

function readerOver(mirror: Mirror): Reader {
  const source = new MirrorReads(mirror);
  return {
    mirror,
    changes: (after, resources, limit) => source.changes({ after, resources, limit }, 'after'),
    sql(query) {
      const { columns, rows } = source.sql(query, 'the sql tool');
      return { columns, rows: rows() };
    },
    boundedSql: (query, options) => source.boundedSql(query, 'the sql tool', options),
  };
}

/** A mirror file that is none yet (missing, or made by a first sync that has not committed its schema). */
const noMirrorYet = (err: unknown) => err instanceof NoMirrorFileError || err instanceof EmptyMirrorError;

/**
 * One Mirror kept for the reads, opened by `open`, and the file it has open (device and inode):
 * `held` gives it unless the file at `path` is gone or another one (reset, deleted, made anew).
 */
function heldMirror(path: string, open: () => Mirror): { held(): Mirror; close(): void } {
  let kept: { mirror: Mirror; file: string } | undefined;
  const close = () => {
    kept?.mirror.close();
    kept = undefined;
  };
  return {
    held() {
      let file: string | undefined;
      try {
        const st = statSync(path);
        file = `${st.dev}:${st.ino}`;
      } catch {
        // No file: open() says there is no mirror.
      }
      if (kept && kept.file !== file) close();
      kept ??= { mirror: open(), file: file ?? '' };
      return kept.mirror;
    },
    close,
  };
}

/** The profile's mirror as `mtg mcp` uses it; `ctx` gives the profile, base URL, key and client. */
export async function mirrorAccess(ctx: Context): Promise<MirrorAccess> {
  const target = await ctx.mirrorTarget({ readonly: true });
  const path = mirrorPathIn(target.dataDir, target.profile);
  const exists = () => {
    try {
      return statSync(path).size > 0;
    } catch {
      return false;
    }
  };
  const open = (): Mirror => {
    if (!exists()) throw new NoMirrorError(target.profile);
    try {
      return openMirror(target);
    } catch (err) {
      throw noMirrorYet(err) ? new NoMirrorError(target.profile) : err;
    }
  };
  const reads = heldMirror(path, open);
  // Any base URL: the status is where a mismatch shows (reads say it as an error).
  const readAnyBaseUrl = <T>(fn: (mirror: Mirror) => T): T | undefined => {
    if (!exists()) return undefined;
    try {
      const mirror = openMirror({ profile: target.profile, dataDir: target.dataDir, readonly: true });
      try {
        return fn(mirror);
      } finally {
        mirror.close();
      }
    } catch (err) {
      if (noMirrorYet(err)) return undefined;
      throw err;
    }
  };
  // Two clients on one limiter: the writes are paced with the sync's requests, as one account's,
  // but the sync's meter (its --budget) counts only its own requests.
  let writeClient: Promise<ApiClient> | undefined;
  let syncClient: Promise<ApiClient> | undefined;
  const forWrites = () => {
    writeClient ??= ctx.client();
    return writeClient;
  };
  const forSync = () => {
    syncClient ??= forWrites().then((shared) => ctx.client({ limiterOf: shared }));
    return syncClient;
  };
  /**
   * The written item into the mirror at once, as the next sync will store it (it then finds no
   * change). The write was applied either way: a failure here is reported, never an error (that
   * would invite a second write); the next sync stores the item.
   */
  const store = async (written: WrittenActionItem): Promise<string | undefined> => {
    if (!exists()) return undefined;
    const c = await forWrites();
    try {
      const mirror = openMirror({ ...target, readonly: false, create: false, baseUrl: c.baseUrl.href });
      try {
        storeWrittenActionItem(mirror, written);
      } finally {
        mirror.close();
      }
      return undefined;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  };
  return {
    profile: target.profile,
    path,
    async read(fn) {
      return fn(readerOver(reads.held()));
    },
    close: reads.close,
    status: () => readAnyBaseUrl(mirrorStatus),
    syncProgress: () => readAnyBaseUrl((mirror) => storedSyncProgress(mirror.db)),
    async sync({ budget, onProgress }) {
      const c = await forSync();
      const mirror = openMirror({
        profile: target.profile,
        dataDir: target.dataDir,
        baseUrl: c.baseUrl.href,
      });
      try {
        return await runSync(c, mirror, { budget }, (e) => onProgress?.(e.requests));
      } finally {
        mirror.close();
      }
    },
    async createActionItem(body) {
      const created = await E.createActionItem(await forWrites(), body);
      const notStored = await store({ item: created });
      return { item: created, ...(notStored !== undefined && { notStored }) };
    },
    async updateActionItem(id, patch) {
      const { item: updated, body } = await updateActionItem(forWrites, id, patch);
      const assignee = body.assigneeProfileId;
      const notStored = await store({
        item: updated,
        ...(assignee !== undefined && { assignee: assignee === null ? null : String(assignee) }),
      });
      return { item: updated, ...(notStored !== undefined && { notStored }) };
    },
  };
}
