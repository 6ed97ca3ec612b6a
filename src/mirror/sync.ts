// The sync engine: walks every list of the API into the mirror and fetches the transcripts of new
// and changed meetings. Everything goes through the one ApiClient (its limiter paces every request,
// its retries handle faults) and paginatePages().
//
// Crash safety comes from committing as it goes: one transaction per page (the items, the walk's
// next_url, the changes) and one per transcript. Killed anywhere, the mirror holds whole pages and
// whole transcripts; the next sync resumes each interrupted walk from its committed next_url and
// skips transcripts already stored for their meeting's current updatedAt.
//
// Deletion is only ever concluded from a COMPLETED walk: every item a walk returns is marked with
// the walk's id, and when its last page commits, the items not marked are tombstoned (in that same
// transaction). A walk that did not complete deletes nothing.

import type { ApiClient } from '../api/client.js';
import * as E from '../api/endpoints.js';
import { ApiError, UsageError } from '../api/errors.js';
import { type PaginateOptions, paginatePages } from '../api/paginate.js';
import { type ChangeResource, changedFields, changeRecorder, type RecordChange } from './changes.js';
import type { Db, SqlValue, Statement } from './driver.js';
import { fromJsonText, toJsonText } from './json.js';
import { acquireSyncLock } from './lock.js';
import { type Mirror, normalizeBaseUrl } from './open.js';
import { passageWriter } from './passages.js';

export const SYNC_RESOURCES = ['meetings', 'action-items', 'people', 'companies'] as const;
export type SyncResource = (typeof SYNC_RESOURCES)[number];

export interface SyncOptions {
  /** The lists to walk (default: all four). Transcripts go with meetings. */
  only?: readonly SyncResource[];
  /** Fetch transcripts (default true). */
  transcripts?: boolean;
  /** Fetch every transcript again, and start every walk from its first page. */
  full?: boolean;
  /** At most this many HTTP requests (retries included) in this run, then stop cleanly. */
  budget?: number;
  /**
   * Transcript requests in flight at once. Default 1: the client's limiter paces by the one window
   * each response reports, and with several requests in flight a report of the longer window can
   * hide a per-second window that the requests in flight already used up (a 429 under tight
   * windows). One at a time, every request sees the latest report, which names the window closest
   * to exhaustion. Rate limits, not latency, bound a sync's speed.
   */
  concurrency?: number;
}

export interface ResourceCounts {
  created: number;
  updated: number;
  deleted: number;
  total: number;
}

/** The contract's `mtg sync --json` object. */
export interface SyncSummary {
  complete: boolean;
  requests: number;
  durationMs: number;
  meetings: ResourceCounts;
  actionItems: ResourceCounts;
  people: ResourceCounts;
  companies: ResourceCounts;
  transcripts: { fetched: number; pending: number };
}

export type SyncPhase = SyncResource | 'my-action-items' | 'transcripts';

export interface SyncProgressEvent {
  phase: SyncPhase;
  /** Requests sent so far in this run. */
  requests: number;
  /** Pages committed in this phase (list phases). */
  pages: number;
  /** Items committed in this phase (list phases) or transcripts fetched (transcripts). */
  items: number;
  /** Transcripts still to fetch (transcripts phase). */
  left?: number;
  /**
   * Requests still to make in this run: the pages left of this and the later list walks (each as
   * large as its last complete walk) and the transcripts left. Undefined while that cannot be known
   * (a walk never completed before, or the meetings walk has not told the transcripts yet).
   */
  requestsLeft?: number;
  /** Estimated time for requestsLeft, at the pace the rate limit allows; undefined: unknown. */
  etaMs?: number;
  /** The phase ended. */
  done?: boolean;
}

export type SyncProgress = (event: SyncProgressEvent) => void;

/** What a run that stopped on an error had done, by the error runSync() rethrew. */
export interface SyncStopped {
  /** The counts so far (complete: false). */
  summary: SyncSummary;
  /** Whether the run committed anything (a page or a transcript). */
  committed: boolean;
}

const stopped = new WeakMap<object, SyncStopped>();

/** The partial summary of a run that ended with `err` (undefined for other errors). */
export function syncStopped(err: unknown): SyncStopped | undefined {
  return typeof err === 'object' && err !== null ? stopped.get(err) : undefined;
}

/** The run stopped at --budget (not an error: the summary says complete: false). */
class BudgetReached extends Error {}

interface ListDef {
  phase: SyncPhase;
  resource: ChangeResource & SyncResource;
  table: 'meetings' | 'action_items' | 'people' | 'companies';
  key: 'id' | 'domain';
  endpoint: PaginateOptions<unknown>;
  /** The default-assignee walk of action items: marks `mine`, leaves order and tombstones alone. */
  mine?: boolean;
}

function listDefs(only: ReadonlySet<SyncResource>): ListDef[] {
  const defs: ListDef[] = [];
  const ep = (p: PaginateOptions<unknown>) => p;
  if (only.has('meetings'))
    defs.push({
      phase: 'meetings',
      resource: 'meetings',
      table: 'meetings',
      key: 'id',
      endpoint: ep(E.listMeetings({})),
    });
  if (only.has('action-items')) {
    defs.push({
      phase: 'action-items',
      resource: 'action-items',
      table: 'action_items',
      key: 'id',
      endpoint: ep(E.listActionItems({ assigneeType: 'Anyone', status: 'ALL' })),
    });
    // No assigneeType: the server's default assignee (the key's owner) decides what is "mine".
    defs.push({
      phase: 'my-action-items',
      resource: 'action-items',
      table: 'action_items',
      key: 'id',
      endpoint: ep(E.listActionItems({ status: 'ALL' })),
      mine: true,
    });
  }
  if (only.has('people'))
    defs.push({
      phase: 'people',
      resource: 'people',
      table: 'people',
      key: 'id',
      endpoint: ep(E.listPeople({})),
    });
  if (only.has('companies'))
    defs.push({
      phase: 'companies',
      resource: 'companies',
      table: 'companies',
      key: 'domain',
      endpoint: ep(E.listCompanies({})),
    });
  return defs;
}

/** The walk's identity: its path and query (undefined values left out), stable across runs. */
function walkQuery(def: ListDef): string {
  const q = Object.entries(def.endpoint.query ?? {})
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  return toJsonText([def.endpoint.path, q, def.mine ? 'mine' : 'all']);
}

/**
 * One sync run. Takes the profile's sync lock (SyncLockedError, exit 1, when another holds it),
 * records the run, and returns the summary. Errors other than --budget propagate (the mirror is
 * consistent and the next run resumes); the lock is released either way.
 */
export async function runSync(
  client: ApiClient,
  mirror: Mirror,
  options: SyncOptions = {},
  progress: SyncProgress = () => {},
): Promise<SyncSummary> {
  const db = mirror.db;
  if (mirror.baseUrl !== undefined && normalizeBaseUrl(client.baseUrl.href) !== mirror.baseUrl) {
    throw new UsageError(
      `The mirror of profile ${mirror.profile} holds ${mirror.baseUrl}, not ${normalizeBaseUrl(client.baseUrl.href)}: run \`mtg mirror reset\` to start it over`,
    );
  }
  const release = acquireSyncLock(db, mirror.profile);
  const checkpoints = walCheckpointsForSync(db);
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const meter = meterRequests(client, options.budget);
  const run = Number(db.prepare('INSERT INTO runs(started_at) VALUES (?)').run(startedAt).lastInsertRowid);
  db.prepare(
    "INSERT INTO meta(key, value) VALUES ('last_sync_run', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
  ).run(String(run));
  const engine = new SyncEngine(db, client, run, options, progress, meter, windowPace(client));
  let complete = false;
  let summary: SyncSummary | undefined;
  let error: string | null = null;
  try {
    try {
      await engine.walkAll(startedAt);
      if (engine.transcriptsWanted) await engine.fetchTranscripts(startedAt);
      complete = true;
    } catch (err) {
      if (!(err instanceof BudgetReached)) {
        error = err instanceof Error ? err.message : String(err);
        try {
          summary = engine.summary(false, meter.count(), Date.now() - started);
          stopped.set(err as object, { summary, committed: engine.commits > 0 });
        } catch {
          // The mirror itself failed (disk full, corrupt): no counts to report.
        }
        throw err;
      }
    }
    summary = engine.summary(complete, meter.count(), Date.now() - started);
    return summary;
  } finally {
    meter.restore();
    try {
      db.prepare(
        'UPDATE runs SET finished_at = ?, complete = ?, requests = ?, summary = ?, error = ? WHERE id = ?',
      ).run(
        new Date().toISOString(),
        complete ? 1 : 0,
        meter.count(),
        summary ? toJsonText(summary) : null,
        error,
        run,
      );
    } finally {
      checkpoints.restore();
      release();
    }
  }
}

/**
 * A sync commits once per page: with SQLite's default (a checkpoint whenever the WAL passes 1,000
 * pages, each with an fsync) a first sync of 100,000 action items spent about as long
 * checkpointing as writing. During a sync the WAL may grow to 16,384 pages (64 MB with 4 KB pages)
 * before a checkpoint, and one passive checkpoint follows the run. Durability is unchanged: a WAL
 * commit survives the process being killed whether or not it has been checkpointed.
 */
function walCheckpointsForSync(db: Db): { restore(): void } {
  const before = Number(db.pragma('wal_autocheckpoint'));
  db.pragma('wal_autocheckpoint = 16384');
  return {
    restore() {
      try {
        db.pragma(`wal_autocheckpoint = ${before}`);
        // PASSIVE: never waits for readers; what it cannot copy now, a later checkpoint does.
        db.pragma('wal_checkpoint(PASSIVE)');
      } catch {
        // The mirror failed (disk full, say): the run's own error is what to report.
      }
    },
  };
}

/**
 * The slowest pace the rate-limit windows reported so far allow (ms per request): the ETA uses it
 * when it is slower than the recent pace, which a short window's burst makes look fast.
 */
function windowPace(client: ApiClient): () => number | undefined {
  return () => {
    const rate = client.limiter.sustainableRate();
    return rate === undefined || rate <= 0 ? undefined : 1000 / rate;
  };
}

interface Meter {
  count(): number;
  /** Recent pace: ms per request over the last requests (undefined before there is one). */
  msPerRequest(): number | undefined;
  restore(): void;
}

/**
 * Counts every HTTP attempt (retries included) at the client's limiter, through which each one
 * passes, and refuses the one past the budget before it is sent.
 */
function meterRequests(client: ApiClient, budget: number | undefined): Meter {
  const limiter = client.limiter;
  const own = limiter as { acquire: typeof limiter.acquire };
  const original = limiter.acquire;
  let reserved = 0;
  const times: number[] = [];
  own.acquire = (order?: number) => {
    if (budget !== undefined && reserved >= budget) return Promise.reject(new BudgetReached());
    reserved++;
    return original.call(limiter, order).then(
      (ticket) => {
        times.push(Date.now());
        if (times.length > 30) times.shift();
        return ticket;
      },
      (err: unknown) => {
        reserved--;
        throw err;
      },
    );
  };
  return {
    count: () => reserved,
    msPerRequest: () => {
      if (times.length < 2) return undefined;
      return (times[times.length - 1]! - times[0]!) / (times.length - 1);
    },
    restore: () => {
      delete (own as Partial<typeof own>).acquire;
    },
  };
}

interface WalkRow {
  id: number;
  next_url: string | null;
  items: number;
  pages: number;
}

interface StoredRow {
  json: string;
  deleted_at: string | null;
}

class SyncEngine {
  readonly transcriptsWanted: boolean;
  private readonly only: ReadonlySet<SyncResource>;
  private readonly record: RecordChange;
  private readonly passages: ReturnType<typeof passageWriter>;
  private readonly counts = {
    meetings: { created: 0, updated: 0, deleted: 0 },
    'action-items': { created: 0, updated: 0, deleted: 0 },
    people: { created: 0, updated: 0, deleted: 0 },
    companies: { created: 0, updated: 0, deleted: 0 },
  };
  private transcriptsFetched = 0;
  /** Meetings whose transcript answered 404 in this run: not pending until a walk decides. */
  private readonly transcriptsGone = new Set<string>();
  /** Transactions committed (pages and transcripts) in this run. */
  commits = 0;
  private readonly saveRequests: Statement;

  constructor(
    private readonly db: Db,
    private readonly client: ApiClient,
    private readonly run: number,
    private readonly options: SyncOptions,
    private readonly progress: SyncProgress,
    private readonly meter: Meter,
    private readonly windowPace: () => number | undefined = () => undefined,
  ) {
    this.only = new Set(options.only?.length ? options.only : SYNC_RESOURCES);
    this.transcriptsWanted = this.only.has('meetings') && options.transcripts !== false;
    this.record = changeRecorder(db, run, now);
    this.passages = passageWriter(db);
    this.saveRequests = db.prepare('UPDATE runs SET requests = ? WHERE id = ?');
  }

  /** Transcripts to fetch after the walks, once the meetings walk has told (shown in every phase). */
  private transcriptsLeft: number | undefined;

  /** The walks still to run (the current one first), each with the pages its last complete walk had. */
  private walksLeft: { def: ListDef; expected: number | undefined }[] = [];
  /** Transcripts pending when the run began: the estimate until the meetings walk has told. */
  private transcriptsPending: number | undefined;
  /** Pages of the current walk committed so far (a resumed walk's earlier pages included). */
  private walkPages = 0;

  async walkAll(runStartedAt: string): Promise<void> {
    const last = this.db.prepare<{ pages: number }>(
      'SELECT pages FROM walks WHERE resource = ? AND query = ? AND completed_at IS NOT NULL ORDER BY id DESC LIMIT 1',
    );
    this.walksLeft = listDefs(this.only).map((def) => ({
      def,
      expected: last.get(def.resource, walkQuery(def))?.pages,
    }));
    // Until the meetings walk tells, the transcripts already pending are the estimate (a later
    // sync; on a first one the walks' sizes are unknown anyway).
    if (this.transcriptsWanted) {
      this.transcriptsPending = this.pendingTranscripts(this.options.full ? runStartedAt : undefined).length;
    }
    while (this.walksLeft.length > 0) {
      const def = this.walksLeft[0]!.def;
      await this.walk(def);
      if (def.phase === 'meetings' && this.transcriptsWanted) {
        this.transcriptsLeft = this.pendingTranscripts(this.options.full ? runStartedAt : undefined).length;
      }
    }
  }

  /** Requests still to make (see SyncProgressEvent.requestsLeft), or undefined when not known. */
  private requestsLeft(): number | undefined {
    let n = 0;
    for (const [i, walk] of this.walksLeft.entries()) {
      if (walk.expected === undefined) return undefined;
      n += i === 0 ? Math.max(0, walk.expected - this.walkPages) : walk.expected;
    }
    if (this.transcriptsWanted) {
      const transcripts = this.transcriptsLeft ?? this.transcriptsPending;
      if (transcripts === undefined) return undefined;
      n += transcripts;
    }
    return n;
  }

  /**
   * Time for `left` requests: the slowest of the recent pace, the tightest window's sustainable
   * pace, and the limiter's least time under the windows as they stand now.
   */
  private eta(left: number): number | undefined {
    const recent = this.meter.msPerRequest();
    const window = this.windowPace();
    const floor = this.client.limiter.minimumMs(left);
    if (recent === undefined && window === undefined && floor === undefined) return undefined;
    return Math.round(Math.max(left * Math.max(recent ?? 0, window ?? 0), floor ?? 0));
  }

  private listProgress(phase: SyncPhase, pages: number, items: number, done?: boolean): void {
    const left = this.transcriptsLeft;
    const requestsLeft = this.requestsLeft();
    this.progress({
      phase,
      requests: this.meter.count(),
      pages,
      items,
      ...(left !== undefined && { left }),
      ...(requestsLeft !== undefined && { requestsLeft, etaMs: this.eta(requestsLeft) }),
      ...(done && { done }),
    });
  }

  /** One list, every page, resumed from the committed cursor of an interrupted walk. */
  private async walk(def: ListDef): Promise<void> {
    const db = this.db;
    const query = walkQuery(def);
    const open = db.prepare<WalkRow>(
      'SELECT id, next_url, items, pages FROM walks WHERE resource = ? AND query = ? AND completed_at IS NULL AND abandoned_at IS NULL ORDER BY id DESC LIMIT 1',
    );
    let walk = open.get(def.resource, query);
    if (walk && this.options.full) {
      db.prepare('UPDATE walks SET abandoned_at = ? WHERE id = ?').run(now(), walk.id);
      walk = undefined;
    }
    if (!walk) {
      const id = Number(
        db
          .prepare('INSERT INTO walks(resource, query, started_at, run) VALUES (?, ?, ?, ?)')
          .run(def.resource, query, now(), this.run).lastInsertRowid,
      );
      walk = { id, next_url: null, items: 0, pages: 0 };
    }
    const upsert = this.upserter(def, walk.id);
    const advance = db.prepare(
      'UPDATE walks SET next_url = ?, pages = pages + 1, items = ?, run = ? WHERE id = ?',
    );
    const finish = db.prepare('UPDATE walks SET next_url = NULL, completed_at = ? WHERE id = ?');
    let position = walk.items;
    this.walkPages = walk.pages;
    let pages = 0;
    let items = 0;
    let startUrl = walk.next_url === null ? undefined : new URL(walk.next_url);

    // Bounded: at most one restart from page 1, when the server rejects the committed cursor.
    for (let attempt = 0; attempt < 2; attempt++) {
      let fetched = 0;
      try {
        for await (const page of prefetching(paginatePages(this.client, { ...def.endpoint, startUrl }))) {
          fetched++;
          const walkId = walk.id;
          db.transaction(() => {
            upsert(page.items, position);
            position += page.items.length;
            advance.run(page.next?.href ?? null, position, this.run, walkId);
            // With each commit: a killed run still shows the requests it made (`mirror status`).
            this.saveRequests.run(this.meter.count(), this.run);
            if (!page.next) {
              this.complete(def, walkId);
              finish.run(now(), walkId);
            }
          });
          this.commits++;
          pages++;
          this.walkPages++;
          items += page.items.length;
          this.listProgress(def.phase, pages, items);
        }
        this.walksLeft.shift();
        this.walkPages = 0;
        this.listProgress(def.phase, pages, items, true);
        return;
      } catch (err) {
        const rejected =
          startUrl !== undefined &&
          fetched === 0 &&
          err instanceof ApiError &&
          (err.status === 400 || err.status === 404 || err.status === 410);
        if (!rejected) throw err;
        // The server no longer accepts the saved cursor: walk again from page 1, same walk id, so
        // the items already marked stay marked (nothing is tombstoned for the restart). Its pages
        // count from 0 again: the next sync's estimate of the pages left comes from them.
        db.prepare('UPDATE walks SET next_url = NULL, items = 0, pages = 0 WHERE id = ?').run(walk.id);
        position = 0;
        this.walkPages = 0;
        startUrl = undefined;
      }
    }
  }

  /** Insert or update the items of one page as the API sent them, recording what changed. */
  private upserter(def: ListDef, walkId: number): (items: readonly unknown[], firstPosition: number) => void {
    const db = this.db;
    const t = def.table;
    const k = def.key;
    const get: Statement<StoredRow & { status?: string | null }> = db.prepare(
      `SELECT json, deleted_at${t === 'action_items' ? ', status' : ''} FROM ${t} WHERE ${k} = ?`,
    );
    // The walk's marks go into the same statement as the item: `seen_walk` and `position` for the
    // walk of every item, `mine` and `mine_walk` for the default-assignee walk.
    const markCols = def.mine ? ['mine', 'mine_walk'] : ['seen_walk', 'position'];
    const marks = (position: number): SqlValue[] => (def.mine ? [1, walkId] : [walkId, position]);
    const extraCols =
      t === 'meetings' ? ['name', 'created_at', 'updated_at'] : t === 'action_items' ? ['status'] : [];
    const extra = (item: Record<string, unknown>): SqlValue[] =>
      t === 'meetings'
        ? [textOrNull(item.name), textOrNull(item.createdAt), textOrNull(item.updatedAt)]
        : t === 'action_items'
          ? [textOrNull(item.status)]
          : [];
    const cols = ['json', ...extraCols, ...markCols];
    const ins = db.prepare(
      `INSERT INTO ${t}(${k}, ${cols.join(', ')}) VALUES (?${', ?'.repeat(cols.length)})`,
    );
    const upd = db.prepare(
      `UPDATE ${t} SET ${cols.map((c) => `${c} = ?`).join(', ')}, deleted_at = NULL WHERE ${k} = ?`,
    );
    const write = (
      id: string,
      item: Record<string, unknown>,
      json: string,
      exists: boolean,
      position: number,
    ) => {
      if (exists) upd.run(json, ...extra(item), ...marks(position), id);
      else ins.run(id, json, ...extra(item), ...marks(position));
      if (t === 'meetings') this.passages.rewrite(id);
    };

    // One statement per page, not per item, finds the stored rows and marks the unchanged ones
    // (most of them on a re-sync): per-item statements cost as much as the requests did.
    const getMany = db.prepare<StoredRow & { k: string; status?: string | null }>(
      `SELECT ${k} AS k, json, deleted_at${t === 'action_items' ? ', status' : ''} FROM ${t} WHERE ${k} IN (SELECT value FROM json_each(?))`,
    );
    const markMany = def.mine
      ? db.prepare(`UPDATE ${t} SET mine = 1, mine_walk = ? WHERE ${k} IN (SELECT value FROM json_each(?))`)
      : db.prepare(
          `UPDATE ${t} SET seen_walk = ?, position = j.value ->> 1 FROM json_each(?) AS j WHERE ${t}.${k} = j.value ->> 0`,
        );

    // A page's change events go in one statement, through json_each (the 100,000 events of a
    // first sync of 100,000 action items: 25 ms in all). The items themselves do not: their JSON
    // would be escaped into the batch and unescaped by `->>`, which measured slower (520-560 ms
    // for 100,000) than one bound INSERT per item (360-390 ms).
    const recordMany = db.prepare(
      `INSERT INTO changes(run, at, resource, id, change, fields, item)
       SELECT ?, ?, ?, j.value ->> 0, j.value ->> 1, j.value ->> 2, NULL FROM json_each(?) AS j ORDER BY j.key`,
    );

    const counts = this.counts[def.resource];
    return (items, first) => {
      const ids = items.map((raw) => keyOf((raw as Record<string, unknown>)[k]));
      const stored = new Map(getMany.all(toJsonText(ids)).map((r) => [r.k, r]));
      const unchanged: [string, number][] = [];
      const done = new Set<string>();
      // [id, change, fields as JSON text], in the order of the page.
      const events: [string, string, string][] = [];
      items.forEach((raw, i) => {
        const item = raw as Record<string, unknown>;
        const id = ids[i]!;
        const position = first + i;
        const json = toJsonText(item);
        // An id repeated within the page: the first occurrence may have just written it.
        const old = done.has(id) ? get.get(id) : stored.get(id);
        done.add(id);
        if (!old) {
          write(id, item, json, false, position);
          events.push([id, 'created', '[]']);
          counts.created++;
        } else if (old.deleted_at !== null) {
          // Back after a tombstone: the item exists again.
          write(id, item, json, true, position);
          events.push([id, 'created', '[]']);
          counts.created++;
        } else if (old.json !== json) {
          write(id, item, json, true, position);
          const fields = changedFields(fromJsonText(old.json), item);
          // Same content in another key order: stored as sent, but nothing to report.
          if (fields.length > 0) {
            events.push([id, statusChange(old.status, item.status) ?? 'updated', toJsonText(fields)]);
            counts.updated++;
          }
        } else {
          unchanged.push([id, position]);
        }
      });
      if (events.length > 0) recordMany.run(this.run, now(), def.resource, JSON.stringify(events));
      if (unchanged.length > 0) {
        if (def.mine) markMany.run(walkId, toJsonText(unchanged.map(([id]) => id)));
        else markMany.run(walkId, toJsonText(unchanged));
      }
    };
  }

  /** The walk's last page committed: tombstone what it did not return (in the same transaction). */
  private complete(def: ListDef, walkId: number): void {
    const db = this.db;
    const t = def.table;
    const k = def.key;
    if (def.mine) {
      db.prepare(`UPDATE ${t} SET mine = 0 WHERE mine = 1 AND (mine_walk IS NULL OR mine_walk != ?)`).run(
        walkId,
      );
      return;
    }
    const gone = db
      .prepare<{ id: string; json: string }>(
        `SELECT ${k} AS id, json FROM ${t} WHERE deleted_at IS NULL AND (seen_walk IS NULL OR seen_walk != ?)`,
      )
      .all(walkId);
    if (gone.length === 0) return;
    const at = now();
    const tomb = db.prepare(`UPDATE ${t} SET deleted_at = ?, position = NULL WHERE ${k} = ?`);
    for (const row of gone) {
      tomb.run(at, row.id);
      if (t === 'meetings') this.passages.remove(row.id);
      this.record(def.resource, row.id, 'deleted', [], row.json);
    }
    this.counts[def.resource].deleted += gone.length;
  }

  /** Meetings whose transcript is missing or older than their updatedAt (--full: all not yet fetched in this run). */
  private pendingTranscripts(runStartedAt?: string): { id: string; updatedAt: string | null }[] {
    const full = runStartedAt !== undefined;
    return this.db
      .prepare<{ id: string; updatedAt: string | null }>(
        `SELECT m.id, m.updated_at AS updatedAt FROM meetings m LEFT JOIN transcripts t ON t.meeting_id = m.id
         WHERE m.deleted_at IS NULL AND (t.meeting_id IS NULL OR t.for_updated_at IS NOT m.updated_at${full ? ' OR t.fetched_at < ?' : ''})
         ORDER BY m.position IS NULL, m.position, m.id`,
      )
      .all(...(full ? [runStartedAt] : []));
  }

  async fetchTranscripts(runStartedAt: string): Promise<void> {
    const db = this.db;
    const queue = this.pendingTranscripts(this.options.full ? runStartedAt : undefined);
    const total = queue.length;
    const get = db.prepare<{ json: string }>('SELECT json FROM transcripts WHERE meeting_id = ?');
    const ins = db.prepare(
      'INSERT INTO transcripts(meeting_id, json, for_updated_at, fetched_at) VALUES (?, ?, ?, ?)',
    );
    const upd = db.prepare(
      'UPDATE transcripts SET json = ?, for_updated_at = ?, fetched_at = ? WHERE meeting_id = ?',
    );
    const store = (id: string, updatedAt: string | null, entries: unknown) => {
      const json = toJsonText(entries);
      db.transaction(() => {
        const old = get.get(id);
        if (!old) ins.run(id, json, updatedAt, now());
        else upd.run(json, updatedAt, now(), id);
        this.saveRequests.run(this.meter.count(), this.run);
        if (!old || old.json !== json) {
          this.passages.rewrite(id);
          this.record('transcripts', id, old ? 'updated' : 'created', []);
        }
      });
      this.commits++;
    };

    let next = 0;
    let done = 0;
    let failure: unknown;
    const report = (finished = false) => {
      const left = total - done;
      this.progress({
        phase: 'transcripts',
        requests: this.meter.count(),
        pages: 0,
        items: this.transcriptsFetched,
        left,
        requestsLeft: left,
        etaMs: this.eta(left),
        done: finished,
      });
    };
    const worker = async () => {
      // Bounded by the queue: each pass takes the next meeting or ends.
      while (failure === undefined && next < queue.length) {
        const { id, updatedAt } = queue[next++]!;
        try {
          const entries = await E.getTranscript(this.client, id);
          store(id, updatedAt, entries);
          this.transcriptsFetched++;
        } catch (err) {
          // Deleted on the server since the walk: its tombstone comes with the next completed walk.
          if (!(err instanceof ApiError && err.status === 404)) {
            failure ??= err;
            return;
          }
          this.transcriptsGone.add(id);
        }
        done++;
        report();
      }
    };
    report();
    const n = Math.max(1, Math.min(this.options.concurrency ?? 1, queue.length));
    await Promise.all(Array.from({ length: n }, worker));
    if (failure !== undefined) throw failure;
    report(true);
  }

  summary(complete: boolean, requests: number, durationMs: number): SyncSummary {
    const total = (table: string) =>
      this.db.prepare<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE deleted_at IS NULL`).get()!.n;
    const counts = (r: SyncResource, table: string): ResourceCounts => ({
      ...this.counts[r],
      total: total(table),
    });
    const out: SyncSummary = {
      complete,
      requests,
      durationMs,
      meetings: counts('meetings', 'meetings'),
      actionItems: counts('action-items', 'action_items'),
      people: counts('people', 'people'),
      companies: counts('companies', 'companies'),
      // As the progress counts them: a meeting whose transcript answered 404 is not left to fetch.
      transcripts: {
        fetched: this.transcriptsFetched,
        pending: pendingTranscriptCount(this.db, this.transcriptsGone),
      },
    };
    return out;
  }
}

/**
 * Asks for the next page as soon as one arrives, so that the request is under way while the page
 * is written (the limiter still paces it; a page is still committed only after the one before).
 */
async function* prefetching<T>(pages: AsyncGenerator<T>): AsyncGenerator<T> {
  let pending = pages.next();
  try {
    for (;;) {
      const result = await pending;
      if (result.done) return;
      pending = pages.next();
      // Its failure surfaces at the next await, or nowhere when the consumer stopped first.
      pending.catch(() => undefined);
      yield result.value;
    }
  } finally {
    pages.return(undefined).catch(() => undefined);
  }
}

function now(): string {
  return new Date().toISOString();
}

function textOrNull(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** An item's key as TEXT, keeping an integer's exact digits. */
function keyOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  // A lossless integer wrapper (src/output/json.ts) prints its digits through toString/toJSON.
  if (v !== null && typeof v === 'object') return String((v as { toString(): string }).toString());
  throw new Error(`An item without an id: ${toJsonText(v)}`);
}

function statusChange(before: unknown, after: unknown): 'completed' | 'reopened' | undefined {
  if (before === 'PENDING' && after === 'DONE') return 'completed';
  if (before === 'DONE' && after === 'PENDING') return 'reopened';
  return undefined;
}

/** Transcripts still to fetch in a mirror (for `mtg mirror status`), less the meetings `gone`. */
export function pendingTranscriptCount(db: Db, gone: ReadonlySet<string> = new Set()): number {
  return db
    .prepare<{ n: number }>(
      `SELECT count(*) AS n FROM meetings m LEFT JOIN transcripts t ON t.meeting_id = m.id
       WHERE m.deleted_at IS NULL AND (t.meeting_id IS NULL OR t.for_updated_at IS NOT m.updated_at)
       AND m.id NOT IN (SELECT value FROM json_each(?))`,
    )
    .get(toJsonText([...gone]))!.n;
}
