// A write the API has just applied (an action item created or updated), stored in the mirror as the
// next sync would store it, so that reads show it at once: the row in the list's shape, the
// meetings that embed the item (and their search passages), and the change events, in one
// transaction. The next sync then finds the same JSON and records nothing again. What the
// response cannot tell (an assignee the mirror has never seen) stays as it was, for that sync to
// correct, and to report as its own change.

import { changedFields, changeRecorder, latestRun } from '../changes.js';
import type { Db, SqlValue } from '../driver.js';
import { fromJsonText, toJsonText } from '../json.js';
import type { Mirror } from '../open.js';
import { passageWriter } from '../passages.js';
import { walkUnderWay } from './pass.js';
import { now } from './state.js';
import { keyOf, TABLES, type TableDescriptor } from './tables.js';
import { statusChange } from './walk.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `shape`'s keys, in its order, with the values `sent` has for them (the rest as they were). */
function project(shape: Obj, sent: Obj): Obj {
  const out: Obj = {};
  for (const k of Object.keys(shape)) out[k] = k in sent ? sent[k] : shape[k];
  return out;
}

/**
 * Writes a row's JSON and the descriptor's columns (insert or update), as the walk's upsert does,
 * with `marks` (walk marks, `mine`) in the same statement.
 */
function upsertRow(
  db: Db,
  t: TableDescriptor,
  id: string,
  item: Obj,
  exists: boolean,
  marks: Record<string, SqlValue> = {},
) {
  const cols = ['json', ...t.columns.map((c) => c.name), ...Object.keys(marks)];
  const values = [toJsonText(item), ...t.columns.map((c) => c.value(item)), ...Object.values(marks)];
  if (exists) {
    db.prepare(
      `UPDATE ${t.table} SET ${cols.map((c) => `${c} = ?`).join(', ')}, deleted_at = NULL WHERE ${t.key} = ?`,
    ).run(...values, id);
  } else {
    // No position: first in the list until the next walk places it.
    db.prepare(
      `INSERT INTO ${t.table}(${t.key}, ${cols.join(', ')}) VALUES (?${', ?'.repeat(cols.length)})`,
    ).run(id, ...values);
  }
}

/**
 * A new item's marks: seen by the walks of action items under way (a sync running now), so that
 * one finishing without it (its pages fetched before the write) does not take it for deleted.
 */
function createdMarks(db: Db, mine: boolean): Record<string, SqlValue> {
  return {
    seen_walk: walkUnderWay(db, 'action-items') ?? null,
    mine: mine ? 1 : 0,
    mine_walk: mine ? (walkUnderWay(db, 'my-action-items') ?? null) : null,
  };
}

export interface WrittenActionItem {
  /** The item as the create or update response carried it. */
  item: unknown;
  /** The assignee the request set (a profile ID, or null for nobody), when it set one. */
  assignee?: string | null;
}

/**
 * Stores an action item the API has just created or updated (see the top of this file), in one
 * transaction; the change events go to the latest run. A response without an id is left to the
 * next sync.
 */
export function storeWrittenActionItem(mirror: Mirror, written: WrittenActionItem): void {
  const sent = written.item;
  if (!isObj(sent) || sent.id === undefined || sent.id === null) return;
  const db = mirror.db;
  const t = TABLES['action-items'];
  const id = keyOf(sent.id);
  db.transaction(() => {
    const record = changeRecorder(db, latestRun(db) ?? 0, now);
    const stored = db
      .prepare<{ json: string; deleted_at: string | null }>(
        'SELECT json, deleted_at FROM action_items WHERE id = ?',
      )
      .get(id);
    const before = stored && stored.deleted_at === null ? (fromJsonText(stored.json) as Obj) : undefined;
    // The list's shape (create and update responses carry other fields than a listing does): the
    // stored item's, or for a new one any listed item's.
    const sample = before
      ? undefined
      : db.prepare<{ json: string }>('SELECT json FROM action_items WHERE deleted_at IS NULL LIMIT 1').get();
    const shape = before ?? (sample ? (fromJsonText(sample.json) as Obj) : undefined);
    const item = shape ? project(shape, sent) : { ...sent };
    if (shape && !before) for (const k of Object.keys(item)) if (!(k in sent)) delete item[k];
    if (written.assignee !== undefined && 'assignee' in item) {
      item.assignee =
        written.assignee === null ? null : (knownAssignee(db, written.assignee) ?? item.assignee);
    }

    if (!before) {
      upsertRow(db, t, id, item, stored !== undefined, createdMarks(db, isMine(db, item)));
      record(t.resource, id, 'created', []);
    } else {
      const fields = changedFields(before, item);
      if (fields.length === 0) return;
      upsertRow(db, t, id, item, true);
      record(t.resource, id, statusChange(before.status, item.status) ?? 'updated', fields);
    }
    updateEmbedding(db, id, item, record);
  });
}

/** An assignee object as the API sends it for this profile, from any item that has one. */
function knownAssignee(db: Db, profileId: string): unknown {
  const row = db
    .prepare<{ a: string }>(
      "SELECT json -> '$.assignee' AS a FROM action_items WHERE CAST(json ->> '$.assignee.profileId' AS TEXT) = ? LIMIT 1",
    )
    .get(profileId);
  return row ? fromJsonText(row.a) : undefined;
}

/** The key's own default listing holds the items of its owner: one of its items has this assignee. */
function isMine(db: Db, item: Obj): boolean {
  const profileId = isObj(item.assignee) ? item.assignee.profileId : undefined;
  if (profileId === undefined || profileId === null) return false;
  return (
    db
      .prepare(
        "SELECT 1 FROM action_items WHERE mine = 1 AND deleted_at IS NULL AND CAST(json ->> '$.assignee.profileId' AS TEXT) = ? LIMIT 1",
      )
      .get(keyOf(profileId)) !== undefined
  );
}

/** The meetings that list the item: their copy of it, their search passages, an event each. */
function updateEmbedding(db: Db, id: string, item: Obj, record: ReturnType<typeof changeRecorder>): void {
  const t = TABLES.meetings;
  const ids = Array.isArray(item.meetingIds) ? item.meetingIds.map(keyOf) : [];
  if (ids.length === 0) return;
  const passages = passageWriter(db);
  const get = db.prepare<{ json: string }>('SELECT json FROM meetings WHERE id = ? AND deleted_at IS NULL');
  for (const meetingId of ids) {
    const row = get.get(meetingId);
    if (!row) continue;
    const meeting = fromJsonText(row.json) as Obj;
    if (!Array.isArray(meeting.actionItems)) continue;
    const next = {
      ...meeting,
      actionItems: meeting.actionItems.map((a: unknown) =>
        isObj(a) && a.id !== undefined && a.id !== null && keyOf(a.id) === id ? project(a, item) : a,
      ),
    };
    const fields = changedFields(meeting, next);
    if (fields.length === 0) continue;
    upsertRow(db, t, meetingId, next, true);
    passages.rewrite(meetingId);
    record(t.resource, meetingId, 'updated', fields);
  }
}
