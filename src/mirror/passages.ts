// The full-text index: one `passages` row per searchable piece of a meeting (its name, each
// paragraph of its notes, each nested action item, each attendee, each transcript entry). Rewritten
// for a meeting whenever its row or its transcript is written, in the same transaction, so search
// never sees half of a change; a tombstoned meeting has none. The index stores no text (schema v2):
// search.ts reads a hit's text back as meetingPassages(...)[rowid - base * 2^20] of the stored JSON,
// so a change to what meetingPassages() returns needs a migration that rebuilds `passages`. The
// indexed text is segmentCjk(text) (cjk.ts): each CJK character a token of its own (schema 3).

import { segmentCjk } from './cjk.js';
import type { Db, Statement } from './driver.js';
import { fromJsonText } from './json.js';

export type PassageKind = 'name' | 'notes' | 'transcript' | 'action-items' | 'attendees';

export interface Passage {
  text: string;
  kind: PassageKind;
  speaker?: string | null;
  timestamp?: number | null;
}

type Obj = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** Notes split into paragraphs (blank-line separated), trimmed, empty ones dropped. */
export function paragraphs(text: string): string[] {
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** The passages of a meeting (as the API sent it) and of its transcript (entries), if any. */
export function meetingPassages(meeting: Obj, transcript: unknown): Passage[] {
  const out: Passage[] = [];
  const name = str(meeting.name);
  if (name) out.push({ text: name, kind: 'name' });
  for (const notes of [meeting.notes, meeting.privateNotes]) {
    const text = str(notes);
    if (text) for (const p of paragraphs(text)) out.push({ text: p, kind: 'notes' });
  }
  if (Array.isArray(meeting.actionItems)) {
    for (const a of meeting.actionItems as Obj[]) {
      const text = [str(a?.title), str(a?.description)].filter(Boolean).join('\n');
      if (text) out.push({ text, kind: 'action-items' });
    }
  }
  if (Array.isArray(meeting.attendees)) {
    for (const a of meeting.attendees as Obj[]) {
      const text = [str(a?.name), str(a?.email), str(a?.title), str(a?.companyName)]
        .filter(Boolean)
        .join(' · ');
      if (text) out.push({ text, kind: 'attendees' });
    }
  }
  if (Array.isArray(transcript)) {
    for (const e of transcript as Obj[]) {
      const text = str(e?.text);
      if (!text) continue;
      out.push({
        text,
        kind: 'transcript',
        speaker: typeof e.speaker === 'string' ? e.speaker : null,
        timestamp: typeof e.timestamp === 'number' ? e.timestamp : null,
      });
    }
  }
  return out;
}

export interface PassageWriter {
  /** Replace a meeting's passages from its stored row and transcript (none when it is tombstoned). */
  rewrite(meetingId: string): void;
  remove(meetingId: string): void;
}

/**
 * Each meeting owns the passage rowids [base * 2^20, (base + 1) * 2^20): deleting them is a rowid
 * range, where `WHERE meeting_id = ?` would scan the whole index (meeting_id is UNINDEXED).
 */
export const PASSAGES_PER_MEETING = 2 ** 20;

export function passageWriter(db: Db): PassageWriter {
  const del: Statement = db.prepare('DELETE FROM passages WHERE rowid BETWEEN ? AND ?');
  const ins: Statement = db.prepare(
    'INSERT INTO passages(rowid, text, meeting_id, kind, speaker, timestamp) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const row = db.prepare<{
    json: string;
    deleted_at: string | null;
    base: number | null;
    transcript: string | null;
  }>(
    'SELECT m.json, m.deleted_at, m.passage_base AS base, t.json AS transcript FROM meetings m LEFT JOIN transcripts t ON t.meeting_id = m.id WHERE m.id = ?',
  );
  const nextBase = db.prepare<{ base: number }>(
    'SELECT coalesce(max(passage_base), 0) + 1 AS base FROM meetings',
  );
  const setBase = db.prepare('UPDATE meetings SET passage_base = ? WHERE id = ?');
  const clear = (base: number) => del.run(base * PASSAGES_PER_MEETING, (base + 1) * PASSAGES_PER_MEETING - 1);
  return {
    rewrite(meetingId) {
      const r = row.get(meetingId);
      if (!r) return;
      let base = r.base;
      if (base === null) {
        base = nextBase.get()!.base;
        setBase.run(base, meetingId);
      } else clear(base);
      if (r.deleted_at !== null) return;
      const passages = meetingPassages(
        fromJsonText(r.json) as Obj,
        r.transcript === null ? undefined : fromJsonText(r.transcript),
      );
      const first = base * PASSAGES_PER_MEETING;
      passages.slice(0, PASSAGES_PER_MEETING).forEach((p, i) => {
        ins.run(first + i, segmentCjk(p.text), meetingId, p.kind, p.speaker ?? null, p.timestamp ?? null);
      });
    },
    remove(meetingId) {
      const base = row.get(meetingId)?.base;
      if (base !== null && base !== undefined) clear(base);
    },
  };
}
