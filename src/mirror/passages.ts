// The full-text index: one `passages` row per searchable piece of a meeting (its name, each
// paragraph of its notes, each nested action item, each attendee, each transcript entry; a text
// longer than PASSAGE_MAX in pieces). Rewritten for a meeting whenever its row or its transcript is
// written, in the same transaction, so search never sees half of a change; a tombstoned meeting
// has none. The index stores no text (schema v2): search.ts reads a hit's text back as
// meetingPassages(...)[rowid - base * 2^20] of the stored JSON, so a change to what
// meetingPassages() returns needs a migration that rebuilds `passages`. The indexed text is
// segmentCjk(text) (cjk.ts): each CJK character a token of its own (schema 3).

import { segmentCjk } from '../shared/cjk.js';
import { sanitizeForTerminal } from '../shared/sanitize.js';
import type { Db, Statement } from './driver.js';
import { fromJsonText } from './json.js';
import { vocabularyWriter } from './search-vocab.js';

export type PassageKind = 'name' | 'notes' | 'transcript' | 'action-items' | 'attendees';

export interface Passage {
  text: string;
  kind: PassageKind;
  speaker?: string | null;
  timestamp?: number | null;
}

type Obj = Record<string, unknown>;
/**
 * A text as the terminal shows it (schema 8): sanitized as every output of server text is, so an
 * escape sequence goes whole, its parameters ("0;pwned") neither indexed nor in a snippet; blank
 * (or only a sequence): none.
 */
const str = (v: unknown): string | undefined => {
  if (typeof v !== 'string') return undefined;
  const text = sanitizeForTerminal(v);
  return text.trim() !== '' ? text : undefined;
};

/**
 * Notes split into paragraphs (blank-line separated), trimmed, empty ones dropped; a paragraph of
 * headings only goes with the paragraph it introduces (schema 9): "## Decisions" alone was a passage
 * of its own, the top hit of "what did we decide", with nothing to quote, and its words did not help
 * the decisions below it rank. A heading that introduces nothing (the notes' last) stays alone.
 */
export function paragraphs(text: string): string[] {
  const out: string[] = [];
  let headings: string[] = [];
  for (const raw of text.split(/\r?\n\s*\r?\n/)) {
    const p = raw.trim();
    if (p === '') continue;
    if (p.split(/\r?\n/).every(isHeading)) headings.push(p);
    else {
      out.push([...headings, p].join('\n'));
      headings = [];
    }
  }
  if (headings.length > 0) out.push(headings.join('\n'));
  return out;
}

/**
 * A line that names what follows: a Markdown heading ("## Decisions"), a line in bold alone
 * ("**Decisions**"), or a short label ending in a colon ("Next steps:").
 */
function isHeading(line: string): boolean {
  const l = line.trim();
  return (
    /^#{1,6}(\s|$)/.test(l) ||
    /^(\*\*|__)[^*_].*(\*\*|__):?$/.test(l) ||
    (l.length <= 60 && /^[^.!?]*\p{L}[^.!?]*:$/u.test(l))
  );
}

/** Characters a passage holds at most: a longer text is several passages (see pieces()). */
export const PASSAGE_MAX = 2000;

/**
 * A text cut into pieces of at most PASSAGE_MAX characters, each ending at the last whitespace
 * before its limit when there is one (a surrogate pair is never split). Search reads, reranks and
 * highlights a hit's passages whole: a 1 MB paragraph of notes as one passage made `find` take
 * seconds (issue 30); in pieces, a hit is the piece that holds the match.
 */
export function pieces(text: string): string[] {
  if (text.length <= PASSAGE_MAX) return [text];
  const out: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + PASSAGE_MAX);
    if (end < text.length) {
      // The last whitespace in the piece's second half (read backwards: a slice and a regular
      // expression per piece cost most of a 1 MB paragraph's reading).
      let space = end - 1;
      while (space >= at + PASSAGE_MAX / 2 && !WHITESPACE.test(text[space]!)) space--;
      if (space >= at + PASSAGE_MAX / 2) end = space + 1;
      else if (isLowSurrogate(text.charCodeAt(end))) end--;
    }
    const piece = text.slice(at, end).trim();
    if (piece !== '') out.push(piece);
    at = end;
  }
  return out;
}

/** One character of JavaScript's `\s` (what the pieces were cut at when the index was written). */
const WHITESPACE = /^\s$/;

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The passages of a meeting (as the API sent it) and of its transcript (entries), if any. */
export function meetingPassages(meeting: Obj, transcript: unknown): Passage[] {
  const out: Passage[] = [];
  for (const p of wholePassages(meeting, transcript))
    for (const text of pieces(p.text)) out.push(text === p.text ? p : { ...p, text });
  return out;
}

/** The passages before long texts are cut into pieces. */
function wholePassages(meeting: Obj, transcript: unknown): Passage[] {
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
        speaker: typeof e.speaker === 'string' ? sanitizeForTerminal(e.speaker) : null,
        timestamp: typeof e.timestamp === 'number' ? e.timestamp : null,
      });
    }
  }
  return out;
}

/** Transcript entries in one indexed window, and how far each window starts after the previous. */
export const WINDOW_ENTRIES = 10;
export const WINDOW_STRIDE = 5;

/**
 * One row of the index: passages [first, first + count) of meetingPassages(), their texts joined.
 * A transcript entry is often a few words ("Hmm hmm . Yeah ."), too little to rank: the index holds
 * windows of WINDOW_ENTRIES neighbouring entries, overlapping by half, so a question whose words are
 * spread over a few turns of a conversation is found in one row. Every other passage is a row alone.
 */
export interface IndexRow {
  first: number;
  count: number;
  kind: PassageKind;
  text: string;
  /** The speakers of the row's entries, each once (an indexed column: `find "Dana budget"`). */
  speakers: string;
}

export function indexRows(passages: readonly Passage[]): IndexRow[] {
  const rows: IndexRow[] = [];
  let i = 0;
  while (i < passages.length && passages[i]!.kind !== 'transcript') {
    const p = passages[i]!;
    rows.push({ first: i, count: 1, kind: p.kind, text: p.text, speakers: '' });
    i++;
  }
  const start = i;
  const end = passages.length;
  for (let first = start; first < end; first += WINDOW_STRIDE) {
    const last = Math.min(end, first + WINDOW_ENTRIES);
    const window = passages.slice(first, last);
    const speakers = [...new Set(window.map((p) => p.speaker).filter((s): s is string => !!s))];
    rows.push({
      first,
      count: last - first,
      kind: 'transcript',
      text: window.map((p) => p.text).join('\n'),
      speakers: speakers.join(' · '),
    });
    if (last === end) break;
  }
  return rows;
}

export interface PassageWriter {
  /** Replace a meeting's passages from its stored row and transcript (none when it is tombstoned). */
  rewrite(meetingId: string): void;
  remove(meetingId: string): void;
}

/** A meeting indexes at most this many passages (the first ones). */
export const PASSAGES_PER_MEETING = 2 ** 20;

/** The kinds, as the rowid holds them. */
export const KIND_CODES: readonly PassageKind[] = [
  'name',
  'notes',
  'transcript',
  'action-items',
  'attendees',
];

/** Bits of a rowid below the meeting's passage_base: 3 for the kind, 20 for the first passage. */
export const ROWID_MEETING_SHIFT = 23;

/**
 * A row's rowid: base * 2^23 + kind * 2^20 + first passage. Each meeting owns the rowids
 * [base * 2^23, (base + 1) * 2^23): deleting them is a rowid range, and a hit's meeting, kind and
 * place are read from its rowid (the index stores no other column).
 */
export function rowIdOf(base: number, kind: PassageKind, first: number): number {
  return base * 2 ** ROWID_MEETING_SHIFT + KIND_CODES.indexOf(kind) * PASSAGES_PER_MEETING + first;
}

export function fromRowId(rowid: number): { base: number; kind: PassageKind; first: number } {
  const base = Math.floor(rowid / 2 ** ROWID_MEETING_SHIFT);
  const rest = rowid - base * 2 ** ROWID_MEETING_SHIFT;
  const code = Math.floor(rest / PASSAGES_PER_MEETING);
  return { base, kind: KIND_CODES[code] ?? 'transcript', first: rest - code * PASSAGES_PER_MEETING };
}

export function passageWriter(db: Db): PassageWriter {
  const del: Statement = db.prepare('DELETE FROM passages WHERE rowid BETWEEN ? AND ?');
  const ins: Statement = db.prepare('INSERT INTO passages(rowid, text, speakers) VALUES (?, ?, ?)');
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
  const vocabulary = vocabularyWriter(db);
  const block = 2 ** ROWID_MEETING_SHIFT;
  const clear = (base: number) => del.run(base * block, (base + 1) * block - 1);
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
      ).slice(0, PASSAGES_PER_MEETING);
      const texts: string[] = [];
      // The typo lookup's vocabulary lists the index's terms (search-vocab.ts), in the same
      // transaction, from rows that hold every passage once: windows overlap by half, so every
      // other one (each starting where the one before ends) and the last hold every entry and speaker.
      let listedTo = 0;
      const rows = indexRows(passages);
      for (const [k, w] of rows.entries()) {
        const text = segmentCjk(w.text);
        const speakers = segmentCjk(w.speakers);
        ins.run(rowIdOf(base, w.kind, w.first), text, speakers);
        if (w.first >= listedTo || (k === rows.length - 1 && w.first + w.count > listedTo)) {
          texts.push(text, speakers);
          listedTo = w.first + w.count;
        }
      }
      vocabulary.add(texts);
    },
    remove(meetingId) {
      const base = row.get(meetingId)?.base;
      if (base !== null && base !== undefined) clear(base);
    },
  };
}

/** Live meetings whose passages are not indexed yet (after the upgrade that rebuilds the index). */
export function unindexedCount(db: Db): number {
  return db
    .prepare<{ n: number }>(
      'SELECT count(*) AS n FROM meetings WHERE passage_base IS NULL AND deleted_at IS NULL',
    )
    .get()!.n;
}

/** Meetings indexed per transaction while the index is built: a kill loses at most one batch. */
const BUILD_BATCH = 25;

/**
 * Index the live meetings that have no passages yet (a mirror made before the current index: its
 * migration emptied it), from what the mirror holds, in small transactions: killed, it resumes where
 * it stopped, and the database is consistent after every batch (a meeting is indexed whole, or not).
 * `progress(done, total)` after each batch. Returns the number of meetings indexed.
 */
export function buildIndex(db: Db, progress?: (done: number, total: number) => void): number {
  const total = unindexedCount(db);
  if (total === 0) return 0;
  const writer = passageWriter(db);
  const next = db.prepare<{ id: string }>(
    'SELECT id FROM meetings WHERE passage_base IS NULL AND deleted_at IS NULL ORDER BY rowid LIMIT ?',
  );
  let done = 0;
  // Bounded: each batch indexes at least one meeting, or there is none left.
  for (let round = 0; round <= total; round++) {
    const ids = next.all(BUILD_BATCH).map((r) => String(r.id));
    if (ids.length === 0) break;
    db.transaction(() => {
      for (const id of ids) writer.rewrite(id);
    });
    done += ids.length;
    progress?.(Math.min(done, total), total);
  }
  return done;
}
