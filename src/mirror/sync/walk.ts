// The list walks: every page of a list into its table, one transaction per page (the items, the
// walk's next_url, the change events), resumed from the committed next_url of an interrupted walk.
// Which walk a run makes, and what it did, is the pass's (pass.ts, pass-walks.ts): a walk reports its
// pages to the caller and changes nothing of the run's progress.
//
// Deletion is only ever concluded from a COMPLETED walk: every item a walk returns is marked with
// the walk's id, and when its last page commits, the items not marked are tombstoned (in that same
// transaction). A walk that did not complete deletes nothing.

import { ApiError } from '../../api/errors.js';
import { paginatePages } from '../../api/paginate.js';
import { changedFields } from '../changes.js';
import type { Db, SqlValue, Statement } from '../driver.js';
import { fromJsonText, toJsonText } from '../json.js';
import { now, type RunState } from './state.js';
import { keyOf, type ListDef, walkQuery } from './tables.js';

/** A walk as stored (walks): where it stands. */
export interface WalkStart {
  id: number;
  /** The committed cursor: the next page's link, null before the first page. */
  nextUrl: string | null;
  /** Items committed so far (the next item's position). */
  items: number;
  /** Pages committed so far. */
  pages: number;
}

export interface WalkHooks {
  /** Called in the transaction of the last page (the walk's completion commits with it). */
  completed(): void;
  /** After each committed page: this run's pages and items of the walk, and the walk's pages in all. */
  page(pages: number, items: number, walkPages: number): void;
}

interface StoredRow {
  json: string;
  deleted_at: string | null;
  status?: string | null;
}

/** A new walk of the list, from page 1 (call in the transaction that records it in its pass). */
export function newWalk(db: Db, def: ListDef, run: number): WalkStart {
  const id = Number(
    db
      .prepare('INSERT INTO walks(resource, query, started_at, run) VALUES (?, ?, ?, ?)')
      .run(def.table.resource, walkQuery(def), now(), run).lastInsertRowid,
  );
  return { id, nextUrl: null, items: 0, pages: 0 };
}

/** The walk `id` where it stands. */
export function storedWalk(db: Db, id: number): WalkStart | undefined {
  const row = db
    .prepare<{ next_url: string | null; items: number; pages: number }>(
      'SELECT next_url, items, pages FROM walks WHERE id = ?',
    )
    .get(id);
  return row && { id, nextUrl: row.next_url, items: row.items, pages: row.pages };
}

/**
 * The walk's pages from its committed cursor to the end; returns this run's pages and items of it.
 * A walk whose saved cursor the server no longer accepts starts again from page 1.
 */
export async function walkList(
  state: RunState,
  def: ListDef,
  walk: WalkStart,
  hooks: WalkHooks,
): Promise<{ pages: number; items: number }> {
  const { db } = state;
  const upsert = upserter(state, def, walk.id);
  const advance = db.prepare(
    'UPDATE walks SET next_url = ?, pages = pages + 1, items = ?, run = ? WHERE id = ?',
  );
  const finish = db.prepare('UPDATE walks SET next_url = NULL, completed_at = ? WHERE id = ?');
  let position = walk.items;
  let walkPages = walk.pages;
  let pages = 0;
  let items = 0;
  let startUrl = walk.nextUrl === null ? undefined : new URL(walk.nextUrl);

  // Bounded: at most one restart from page 1, when the server rejects the committed cursor.
  for (let attempt = 0; attempt < 2; attempt++) {
    let fetched = 0;
    try {
      for await (const page of prefetching(paginatePages(state.client, { ...def.endpoint, startUrl }))) {
        fetched++;
        db.transaction(() => {
          upsert(page.items, position);
          position += page.items.length;
          advance.run(page.next?.href ?? null, position, state.run, walk.id);
          // With each commit: a killed run still shows the requests it made (`mirror status`).
          state.saveRequests.run(state.meter.count(), state.run);
          if (!page.next) {
            tombstoneUnseen(state, def, walk.id);
            finish.run(now(), walk.id);
            hooks.completed();
          }
        });
        pages++;
        walkPages++;
        items += page.items.length;
        hooks.page(pages, items, walkPages);
      }
      return { pages, items };
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
      walkPages = 0;
      startUrl = undefined;
    }
  }
  // Not reached: the second attempt has no cursor to reject.
  return { pages, items };
}

/** Insert or update the items of one page as the API sent them, recording what changed. */
function upserter(
  state: RunState,
  def: ListDef,
  walkId: number,
): (items: readonly unknown[], firstPosition: number) => void {
  const { db } = state;
  const { table: t, key: k, columns, status, passages } = def.table;
  const statusCol = status ? ', status' : '';
  const get: Statement<StoredRow> = db.prepare(
    `SELECT json, deleted_at${statusCol} FROM ${t} WHERE ${k} = ?`,
  );
  // The walk's marks go into the same statement as the item: `seen_walk` and `position` for the
  // walk of every item, `mine` and `mine_walk` for the default-assignee walk.
  const markCols = def.mine ? ['mine', 'mine_walk'] : ['seen_walk', 'position'];
  const marks = (position: number): SqlValue[] => (def.mine ? [1, walkId] : [walkId, position]);
  const extra = (item: Record<string, unknown>): SqlValue[] => columns.map((c) => c.value(item));
  const cols = ['json', ...columns.map((c) => c.name), ...markCols];
  const ins = db.prepare(`INSERT INTO ${t}(${k}, ${cols.join(', ')}) VALUES (?${', ?'.repeat(cols.length)})`);
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
    if (passages) state.passages.rewrite(id);
  };

  // One statement per page, not per item, finds the stored rows and marks the unchanged ones
  // (most of them on a re-sync): per-item statements cost as much as the requests did.
  const getMany = db.prepare<StoredRow & { k: string }>(
    `SELECT ${k} AS k, json, deleted_at${statusCol} FROM ${t} WHERE ${k} IN (SELECT value FROM json_each(?))`,
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

  const counts = state.counts[def.table.resource];
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
    if (events.length > 0) recordMany.run(state.run, now(), def.table.resource, JSON.stringify(events));
    if (unchanged.length > 0) {
      if (def.mine) markMany.run(walkId, toJsonText(unchanged.map(([id]) => id)));
      else markMany.run(walkId, toJsonText(unchanged));
    }
  };
}

/** The walk's last page committed: tombstone what it did not return (in the same transaction). */
function tombstoneUnseen(state: RunState, def: ListDef, walkId: number): void {
  const { db } = state;
  const { table: t, key: k, resource } = def.table;
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
    if (def.table.passages) state.passages.remove(row.id);
    state.record(resource, row.id, 'deleted', [], row.json);
  }
  state.counts[resource].deleted += gone.length;
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

export function statusChange(before: unknown, after: unknown): 'completed' | 'reopened' | undefined {
  if (before === 'PENDING' && after === 'DONE') return 'completed';
  if (before === 'DONE' && after === 'PENDING') return 'reopened';
  return undefined;
}
