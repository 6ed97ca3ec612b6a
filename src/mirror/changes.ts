// The change log: recorded by the sync engine inside the same transaction as the write it
// describes, read by `mtg changes` and `mtg watch`. `seq` only grows (AUTOINCREMENT: never reused),
// so a consumer that keeps the last seq it handled and asks for `after` it sees each event once.
//
// `item` is stored only for `deleted` (the last object known). For the other changes the column is
// NULL and readChanges() fills in the object as the mirror holds it now: storing a second copy of
// every object (and of every transcript) would double the mirror for no new information.

import { UsageError } from '../shared/errors.js';
import type { ExactInteger } from '../shared/exact.js';
import type { Db } from './driver.js';
import { fromJsonText, toJsonText } from './json.js';

export const CHANGE_RESOURCES = ['meetings', 'action-items', 'people', 'companies', 'transcripts'] as const;
export type ChangeResource = (typeof CHANGE_RESOURCES)[number];
export type ChangeKind = 'created' | 'updated' | 'deleted' | 'completed' | 'reopened';

export interface ChangeEvent {
  seq: number;
  run: number;
  at: string;
  resource: ChangeResource;
  /** The API's type: a number (ExactInteger beyond 2^53) for action items and people, else a string. */
  id: EventId;
  change: ChangeKind;
  fields: string[];
  item: unknown;
}

export type EventId = string | number | ExactInteger;

export type RecordChange = (
  resource: ChangeResource,
  id: string,
  change: ChangeKind,
  fields: readonly string[],
  /** JSON text of the object, stored only for `deleted`. */
  deletedItem?: string,
) => void;

/** A recorder bound to one run and one clock (call it inside the transaction of the write). */
export function changeRecorder(db: Db, run: number, now: () => string): RecordChange {
  const insert = db.prepare(
    'INSERT INTO changes(run, at, resource, id, change, fields, item) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  return (resource, id, change, fields, deletedItem) => {
    insert.run(run, now(), resource, id, change, toJsonText(fields), deletedItem ?? null);
  };
}

/** The top-level keys whose JSON differs between two objects (keys of either), in the new order. */
export function changedFields(before: unknown, after: unknown): string[] {
  const a = isObject(before) ? before : {};
  const b = isObject(after) ? after : {};
  const keys = [...Object.keys(b), ...Object.keys(a).filter((k) => !(k in b))];
  return keys.filter((k) => toJsonText(a[k]) !== toJsonText(b[k]));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export type ChangesSince = { kind: 'last' } | { kind: 'run'; run: number } | { kind: 'time'; at: string };

export interface ChangesQuery {
  /** Default: the latest sync's changes, unless `after` is given. */
  since?: ChangesSince;
  /** Only events with a greater seq. */
  after?: number;
  /** Only events with a seq at most this. */
  upTo?: number;
  resources?: readonly ChangeResource[];
  limit?: number;
}

/** The id of the latest sync run (running or finished), if any. */
export function latestRun(db: Db): number | undefined {
  const row = db.prepare<{ id: number | null }>('SELECT max(id) AS id FROM runs').get();
  return row?.id ?? undefined;
}

/** `--since RUN` names a run the mirror has recorded (exit 2 otherwise, rather than "No changes."). */
export function checkRunExists(db: Db, run: number): void {
  if (db.prepare<{ id: number }>('SELECT id FROM runs WHERE id = ?').get(run)) return;
  const latest = latestRun(db);
  throw new UsageError(
    `no sync run ${run} (${latest === undefined ? 'the mirror has no sync run yet' : `the latest is ${latest}`})`,
  );
}

/**
 * `--after SEQ` beyond the greatest seq this mirror has recorded: the consumer's seq came from
 * another mirror (reset, another data folder), whose numbering this one does not continue. Going on
 * would silently skip this mirror's events up to SEQ: exit 2 instead. `name`: the argument as the
 * caller calls it (`after` in the MCP tool).
 */
export function checkAfter(db: Db, after: number, name = '--after'): void {
  const last = lastSeq(db);
  if (after <= last) return;
  throw new UsageError(
    `${name} ${after} is past the last change of this mirror (seq ${last}): the seq was saved from another mirror (was it reset?); start again with ${name} 0`,
  );
}

/** The greatest seq recorded so far (0 when none). */
export function lastSeq(db: Db): number {
  return db.prepare<{ seq: number | null }>('SELECT max(seq) AS seq FROM changes').get()?.seq ?? 0;
}

const ITEM_NOW = `COALESCE(c.item, CASE c.resource
  WHEN 'meetings' THEN (SELECT json FROM meetings WHERE id = c.id)
  WHEN 'action-items' THEN (SELECT json FROM action_items WHERE id = c.id)
  WHEN 'people' THEN (SELECT json FROM people WHERE id = c.id)
  WHEN 'companies' THEN (SELECT json FROM companies WHERE domain = c.id)
  WHEN 'transcripts' THEN (SELECT json FROM transcripts WHERE meeting_id = c.id)
END)`;

interface ChangeRow {
  seq: number;
  run: number;
  at: string;
  resource: ChangeResource;
  id: string;
  change: ChangeKind;
  fields: string;
  item: string | null;
}

/** Change events, oldest first. `--after` alone reads everything after it; else `since` (default last). */
export function* readChanges(db: Db, query: ChangesQuery = {}): Generator<ChangeEvent> {
  const where: string[] = [];
  const params: (string | number)[] = [];
  const since = query.since ?? (query.after === undefined ? { kind: 'last' as const } : undefined);
  if (since?.kind === 'last') {
    const run = latestRun(db);
    if (run === undefined) return;
    where.push('c.run = ?');
    params.push(run);
  } else if (since?.kind === 'run') {
    where.push('c.run >= ?');
    params.push(since.run);
  } else if (since?.kind === 'time') {
    where.push('c.at >= ?');
    params.push(since.at);
  }
  if (query.after !== undefined) {
    where.push('c.seq > ?');
    params.push(query.after);
  }
  if (query.upTo !== undefined) {
    where.push('c.seq <= ?');
    params.push(query.upTo);
  }
  if (query.resources?.length) {
    where.push(`c.resource IN (${query.resources.map(() => '?').join(', ')})`);
    params.push(...query.resources);
  }
  const sql =
    `SELECT c.seq, c.run, c.at, c.resource, c.id, c.change, c.fields, ${ITEM_NOW} AS item FROM changes c` +
    (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
    ' ORDER BY c.seq' +
    (query.limit !== undefined ? ` LIMIT ${Math.max(0, Math.floor(query.limit))}` : '');
  for (const row of db.prepare<ChangeRow>(sql).iterate(...params)) {
    const item = row.item === null ? null : fromJsonText(row.item);
    yield {
      seq: row.seq,
      run: row.run,
      at: row.at,
      resource: row.resource,
      id: eventId(row.resource, row.id, item),
      change: row.change,
      fields: fromJsonText(row.fields) as string[],
      item,
    };
  }
}

/**
 * The id as the API types it. The table keeps ids as TEXT (exact digits); the item's own id is the
 * API's value (parsed exactly), and without an item an action item's or person's digits are its
 * number. Meeting ids, domains and transcripts (keyed by meeting) are strings.
 */
function eventId(resource: ChangeResource, id: string, item: unknown): EventId {
  if (resource !== 'action-items' && resource !== 'people') return id;
  const own = isObject(item) ? item.id : undefined;
  if (own !== undefined && own !== null && String(own) === id) return own as EventId;
  return /^(0|-?[1-9]\d*)$/.test(id) ? (fromJsonText(id) as EventId) : id;
}
