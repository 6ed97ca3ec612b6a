// Transcript renderers for people and players: plain text, SubRip (srt), WebVTT (vtt) and Markdown.
// Every server string is sanitized here (json/ndjson go through the item writer untouched).

import { sanitizeForTerminal, sanitizeOneLine } from '../shared/sanitize.js';
import { createChalk } from './color.js';

export interface TranscriptLine {
  speaker: string;
  text: string;
  /** Seconds from the start of the meeting. */
  timestamp: number;
}

/** How long the last cue stays up: it has no next entry to end at. */
export const LAST_CUE_SECONDS = 5;

const pad2 = (n: number): string => String(n).padStart(2, '0');
const pad3 = (n: number): string => String(n).padStart(3, '0');

/** Whole seconds, never negative (a clock cannot show -3 s). */
function wholeSeconds(seconds: number): number {
  return Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
}

/**
 * 75 -> "01:15"; past an hour 3725 -> "1:02:05". With `hourDigits` the hours are always shown, padded
 * to that many digits (75, 1 -> "0:01:15"), so that the stamps of one transcript have one width.
 */
export function formatClock(seconds: number, hourDigits = 0): string {
  const total = wholeSeconds(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 || hourDigits > 0
    ? `${String(h).padStart(hourDigits, '0')}:${pad2(m)}:${pad2(s)}`
    : `${pad2(m)}:${pad2(s)}`;
}

/** The hour digits every stamp of these entries shows: 0 while all are within the first hour. */
export function clockHourDigits(entries: readonly { timestamp: number }[]): number {
  // A loop, not Math.max(...spread): a spread of ~125k+ arguments overflows the stack.
  let last = 0;
  for (const e of entries) last = Math.max(last, wholeSeconds(e.timestamp));
  return last >= 3600 ? String(Math.floor(last / 3600)).length : 0;
}

/** HH:MM:SS plus milliseconds after `separator` ("," for srt, "." for vtt). */
function cueTime(seconds: number, separator: ',' | '.'): string {
  const ms = Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : 0;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${pad2(h)}:${pad2(m)}:${pad2(s)}${separator}${pad3(ms % 1000)}`;
}

export const srtTime = (seconds: number): string => cueTime(seconds, ',');
export const vttTime = (seconds: number): string => cueTime(seconds, '.');

export interface Cue {
  start: number;
  end: number;
}

/**
 * Each entry is shown until the next one starts; the last (or one whose successor does not start
 * later) stays up LAST_CUE_SECONDS, so no cue has a zero or negative duration.
 */
export function cueTimes(entries: readonly TranscriptLine[]): Cue[] {
  return entries.map((entry, i) => {
    const start = Math.max(0, entry.timestamp);
    const next = entries[i + 1]?.timestamp;
    const end = next !== undefined && next > start ? next : start + LAST_CUE_SECONDS;
    return { start, end };
  });
}

export interface TextOptions {
  /** Dim timestamps and bold speakers (only when writing to a color terminal). */
  color?: boolean;
}

/** `[mm:ss] Speaker: text`, one entry per line; continuation lines indented under the text. */
export function renderTranscriptText(entries: readonly TranscriptLine[], opts: TextOptions = {}): string {
  const c = createChalk(opts.color ?? false);
  // Once one entry is past the hour every stamp shows hours: the text then starts in one column.
  const hourDigits = clockHourDigits(entries);
  return entries
    .map((e) => {
      const stamp = `[${formatClock(e.timestamp, hourDigits)}]`;
      const speaker = sanitizeOneLine(e.speaker).trim();
      const lines = sanitizeForTerminal(e.text).split('\n');
      const indent = ' '.repeat(stamp.length + 1);
      const body = lines.map((l, i) => (i === 0 || l === '' ? l : indent + l)).join('\n');
      const who = speaker ? `${c.bold(`${speaker}:`)} ` : '';
      return `${c.dim(stamp)} ${who}${body}`.trimEnd() + '\n';
    })
    .join('');
}

/** Cue text must not contain a blank line (it would end the cue): one line per entry. */
function cueText(text: string): string {
  return sanitizeOneLine(text).replace(/ {2,}/g, ' ').trim();
}

/**
 * SubRip has no escapes, and players (ffmpeg, VLC, libass) take any line holding "-->" for a cue's
 * timing line, which ends the cue there: the arrow in text becomes "-- >". Not "--&gt;": SubRip
 * knows a few tags but no entities, so most players would show "&gt;" as it is.
 */
function srtText(s: string): string {
  return s.replace(/-->/g, '-- >');
}

/** SubRip: numbered cues, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, "Speaker: text", blank line between. */
export function renderSrt(entries: readonly TranscriptLine[]): string {
  const cues = cueTimes(entries);
  return entries
    .map((e, i) => {
      const { start, end } = cues[i]!;
      const speaker = srtText(sanitizeOneLine(e.speaker).trim());
      const text = srtText(cueText(e.text));
      return `${i + 1}\n${srtTime(start)} --> ${srtTime(end)}\n${speaker ? `${speaker}: ` : ''}${text}\n`;
    })
    .join('\n');
}

/** WebVTT cue text escapes &, < and > (they start tags and entities); "-->" would end the timing. */
function vttEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** WebVTT: header, numbered cues, `HH:MM:SS.mmm --> HH:MM:SS.mmm`, the speaker as a voice span. */
export function renderVtt(entries: readonly TranscriptLine[]): string {
  const cues = cueTimes(entries);
  const body = entries.map((e, i) => {
    const { start, end } = cues[i]!;
    const speaker = vttEscape(sanitizeOneLine(e.speaker).trim());
    const text = vttEscape(cueText(e.text));
    return `${i + 1}\n${vttTime(start)} --> ${vttTime(end)}\n${speaker ? `<v ${speaker}>` : ''}${text}\n`;
  });
  return ['WEBVTT\n', ...body].join('\n');
}

/**
 * Backslash-escapes what Markdown would read as formatting, so server text stays literal. An
 * underscore inside a word (snake_case IDs) is left alone: it never starts emphasis.
 */
export function escapeMarkdown(s: string): string {
  return s
    .replace(/[\\`*[\]<>|~]/g, '\\$&')
    .replace(/_/g, (u, i: number, all: string) =>
      /[\p{L}\p{N}]/u.test(all[i - 1] ?? '') && /[\p{L}\p{N}]/u.test(all[i + 1] ?? '') ? u : '\\_',
    )
    .replace(/^#/, '\\#');
}

/** A Markdown document: a title, then one paragraph per entry with the speaker in bold. */
export function renderTranscriptMarkdown(entries: readonly TranscriptLine[], title: string): string {
  const head = `# ${escapeMarkdown(sanitizeOneLine(title))}\n`;
  const hourDigits = clockHourDigits(entries); // one stamp form for the whole document
  const paragraphs = entries.map((e) => {
    const speaker = escapeMarkdown(sanitizeOneLine(e.speaker).trim()) || 'Unknown speaker';
    const text = escapeMarkdown(cueText(e.text));
    return `${formatClock(e.timestamp, hourDigits)} **${speaker}:** ${text}\n`;
  });
  return [head, ...paragraphs].join('\n');
}
