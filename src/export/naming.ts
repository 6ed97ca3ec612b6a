// File names of the Markdown export: `YYYY/YYYY-MM-DD <name> (<short id>).md`, stable (the same
// meeting always gets the same name while its name and date do not change), unique even where
// the file system folds case, and safe whatever the server sends as a meeting name.

import { appendAll } from '../shared/append.js';
import { INVISIBLE_FORMAT_CHARS, sanitizeForTerminal } from '../shared/sanitize.js';

/** The longest file name (one path component) most file systems accept, in UTF-8 bytes. */
export const MAX_NAME_BYTES = 255;
const SHORT_ID_LENGTH = 8;

// Windows device names are reserved with any extension ("CON.md" too); checked on the stem.
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
// C0/C1 controls (tab and newline too), DEL, and the invisible format characters that can reorder
// or hide text (the terminal's set): a name is shown in file managers.
const CONTROL = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${INVISIBLE_FORMAT_CHARS}]`, 'g');
// Separators and the characters Windows, macOS (:) or Obsidian links (#^[]|) cannot hold.
const UNSAFE = /[/\\:*?"<>|#^[\]]/g;

export interface NameInput {
  id: string;
  name: string | null | undefined;
  createdAt: string | null | undefined;
}

/** The calendar date written in the timestamp (as the server sent it: the same on every machine). */
export function meetingDate(createdAt: string | null | undefined): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(createdAt ?? '');
  return m ? `${m[1]}-${m[2]}-${m[3]}` : '0000-00-00';
}

/** A meeting name as a piece of a file name: one line, no separator, no control, no dots at ends. */
export function safeTitle(name: string | null | undefined): string {
  // Whole escape sequences first, so their parameters ("[31m") do not stay behind.
  let s = sanitizeForTerminal((name ?? '').normalize('NFC'))
    .replace(CONTROL, ' ')
    .replace(UNSAFE, '-');
  // No ".." anywhere (a reader that splits on separators must never see a parent reference).
  s = s
    .replace(/\s+/g, ' ')
    .replace(/\.{2,}/g, '.')
    .trim();
  // No leading dot (hidden files, "..") and no trailing dot or space (Windows drops them).
  s = s.replace(/^[.\s]+/, '').replace(/[.\s]+$/, '');
  if (RESERVED.test(s)) s = `_${s}`;
  return s || 'Untitled';
}

/** The identifying tail of an ID (the end of an ID is its most distinctive part), file-name-safe. */
export function shortId(id: string, length = SHORT_ID_LENGTH): string {
  const safe = id.replace(/[^A-Za-z0-9_-]/g, '_');
  return safe.length <= length ? safe : safe.slice(safe.length - length);
}

const utf8 = new TextEncoder();
const byteLength = (s: string) => utf8.encode(s).length;

/** Cuts `s` to at most `max` UTF-8 bytes without splitting a character (a grapheme cluster). */
export function truncateUtf8(s: string, max: number): string {
  if (byteLength(s) <= max) return s;
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let out = '';
  let bytes = 0;
  for (const { segment } of segmenter.segment(s)) {
    const n = byteLength(segment);
    if (bytes + n > max) break;
    out += segment;
    bytes += n;
  }
  return out;
}

/** One file name from its parts, cut to MAX_NAME_BYTES by shortening the title only. */
export function fileName(date: string, title: string, idPart: string): string {
  const head = `${date} `;
  const tail = ` (${idPart}).md`;
  const room = MAX_NAME_BYTES - byteLength(head) - byteLength(tail);
  let t = truncateUtf8(title, Math.max(room, 0));
  t = t.replace(/[.\s]+$/, '') || 'Untitled';
  return `${head}${t}${tail}`;
}

/** How two names are compared: case-folded and normalized, as macOS and Windows compare them. */
export function foldName(path: string): string {
  return path.normalize('NFC').toLowerCase().normalize('NFKC');
}

/**
 * The relative path (with `/`) of every meeting's file. Computed over ALL the mirror's meetings
 * (not only an exported window) so a name never depends on which window was exported. When two
 * names collide case-folded, each of them gets a longer short ID until they differ; IDs equal
 * even case-folded get `-2`, `-3`… in ID order.
 */
export function assignPaths(meetings: readonly NameInput[]): Map<string, string> {
  const parts = meetings.map((m) => {
    const date = meetingDate(m.createdAt);
    return { id: m.id, date, year: date.slice(0, 4), title: safeTitle(m.name) };
  });
  const paths = new Map<string, string>();
  const pathOf = (p: (typeof parts)[number], idPart: string) =>
    `${p.year}/${fileName(p.date, p.title, idPart)}`;

  let pending = parts;
  let length = SHORT_ID_LENGTH;
  const taken = new Set<string>();
  while (pending.length > 0) {
    const groups = new Map<string, typeof parts>();
    for (const p of pending) {
      const key = foldName(pathOf(p, shortId(p.id, length)));
      const g = groups.get(key);
      if (g) g.push(p);
      else groups.set(key, [p]);
    }
    const next: typeof parts = [];
    for (const [key, group] of groups) {
      if (group.length === 1 && !taken.has(key)) {
        paths.set(group[0]!.id, pathOf(group[0]!, shortId(group[0]!.id, length)));
        taken.add(key);
      } else if (group.every((p) => p.id.length <= length)) {
        // Whole IDs that still collide (they differ only in case, or were made equal by
        // sanitizing): number them in a fixed order.
        group.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        group.forEach((p, i) => {
          let n = i + 1;
          let candidate = pathOf(p, n === 1 ? shortId(p.id, length) : `${shortId(p.id, length)}-${n}`);
          while (taken.has(foldName(candidate))) {
            n += 1;
            candidate = pathOf(p, `${shortId(p.id, length)}-${n}`);
          }
          taken.add(foldName(candidate));
          paths.set(p.id, candidate);
        });
      } else {
        appendAll(next, group);
      }
    }
    pending = next;
    length += 4;
  }
  return paths;
}
