// `mtg meetings view` in a terminal: one meeting as a readable page (details, attendees, notes,
// action items, insights, sharing) rather than a table. Every server string is sanitized.
import type { ChalkInstance } from 'chalk';
import type { Meeting } from '../api/schemas.js';
import { appendAll } from '../shared/append.js';
import { sanitizeOneLine } from '../shared/sanitize.js';
import { createChalk } from './color.js';
import { renderMarkdown, visibleWidth, wrap } from './markdown.js';
import { humanDate, humanDuration, padToWidth } from './text.js';
import { formatClock } from './transcript.js';

export interface MeetingPageOptions {
  color: boolean;
  /** Terminal columns; notes are wrapped to fit. */
  width: number;
  /** The meeting's page in the web app, when an app URL is configured. */
  webUrl?: string;
  /** Time zone for the date (default: the local one); tests pin it. */
  timeZone?: string;
  /** The time "3 days ago" counts from (ms; default: now; io.now()). */
  now?: number;
}

const INDENT = '  ';
const MAX_WIDTH = 100;
const text1 = (s: string | null | undefined): string => sanitizeOneLine(s ?? '').trim();

/** The tables' rule: 1996 -> "33m 16s", 3725 -> "1h 02m", 42 -> "42s". */
export const formatDuration = humanDuration;

/**
 * "2024-05-01 14:30 UTC+02:00" in the given (or local) time zone, "2024-05-01 12:30 UTC" when that
 * zone is UTC; the raw text if it is no date.
 */
export function formatDate(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return text1(iso);
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'longOffset',
  }).formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  // Intl names the zero offset "GMT" or "GMT+00:00": both are plain UTC.
  const zone = get('timeZoneName')
    .replace(/^GMT(?:[+-]00:00)?$/, 'UTC')
    .replace(/^GMT/, 'UTC');
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')} ${zone}`;
}

/** The full date, and within the last week also the tables' relative form: "… (3 days ago)". */
function withRelative(iso: string, timeZone?: string, now?: number): string {
  const relative = humanDate(iso, now);
  return relative.endsWith(' ago') || relative === 'just now'
    ? `${formatDate(iso, timeZone)} (${relative})`
    : formatDate(iso, timeZone);
}

/**
 * `text` word-wrapped to the page: the first line starts with `first`, the others with `rest` (a
 * hanging indent). Lines the terminal would wrap itself break words mid-way ("imp/rove").
 */
function wrapLine(
  text: string,
  width: number,
  first: string,
  rest = ' '.repeat(visibleWidth(first)),
): string[] {
  return wrap(text, width, first, rest);
}

/** Aligned "key  value" lines; rows without a value are left out. */
function details(rows: [string, string | undefined][], c: ChalkInstance, width: number): string[] {
  const shown = rows.filter((r): r is [string, string] => r[1] !== undefined && r[1] !== '');
  const keyWidth = Math.max(0, ...shown.map(([k]) => visibleWidth(k)));
  return shown.flatMap(([k, v]) => wrapLine(v, width, `${INDENT}${c.dim(padToWidth(k, keyWidth))}  `));
}

function section(title: string, body: string[], c: ChalkInstance): string[] {
  return body.length === 0 ? [] : ['', c.bold(title), ...body];
}

function personLine(
  p: { name: string | null; email: string | null; title?: string | null; companyName?: string | null },
  c: ChalkInstance,
): string {
  const name = text1(p.name) || text1(p.email) || 'Unknown';
  const role = [text1(p.title), text1(p.companyName)].filter(Boolean).join(', ');
  const email = p.email && text1(p.email) !== name ? ` <${text1(p.email)}>` : '';
  return `${name}${role ? c.dim(` — ${role}`) : ''}${c.dim(email)}`;
}

function attendees(m: Meeting, c: ChalkInstance, width: number): string[] {
  return m.attendees.flatMap((a) => {
    const marks = [a.isCalendarEventOrganizer ? 'organizer' : ''].filter(Boolean);
    return wrapLine(
      `${personLine(a, c)}${marks.length ? c.dim(` (${marks.join(', ')})`) : ''}`,
      width,
      `${INDENT}• `,
    );
  });
}

function notes(markdown: string | null | undefined, opts: MeetingPageOptions): string[] {
  if (!markdown || markdown.trim() === '') return [];
  const rendered = renderMarkdown(markdown, {
    color: opts.color,
    width: pageWidth(opts),
    indent: INDENT,
  });
  return rendered === '' ? [] : rendered.split('\n');
}

function statusLabel(status: string, c: ChalkInstance): string {
  const label = padToWidth(text1(status), 7);
  if (status === 'DONE') return c.green(label);
  if (status === 'PENDING') return c.yellow(label);
  return label;
}

function actionItems(m: Meeting, c: ChalkInstance, width: number): string[] {
  const under = `${INDENT}${' '.repeat(9)}`; // under the title, past the status
  return m.actionItems.flatMap((item) => {
    const who = item.assignee ? text1(item.assignee.name) || text1(item.assignee.email) : 'unassigned';
    const head = wrapLine(
      `${text1(item.title)}${c.dim(` — ${who}`)}`,
      width,
      `${INDENT}${statusLabel(item.status, c)}  `,
      under,
    );
    const description = text1(item.description);
    return description ? [...head, ...wrapLine(c.dim(description), width, under)] : head;
  });
}

function insightValue(v: unknown): string {
  if (v === null || v === undefined) return '—';
  return text1(String(v));
}

/** String results as bullets; custom-field results as "key: value" lines under a bullet. */
function insights(m: Meeting, c: ChalkInstance, width: number): string[] {
  const lines: string[] = [];
  for (const [name, results] of Object.entries(m.insights)) {
    lines.push(`${INDENT}${c.underline(text1(name) || 'Insight')}`);
    for (const r of results) {
      const where = [text1(r.speaker), r.timestamp === null ? '' : formatClock(r.timestamp)].filter(Boolean);
      const source = where.length ? c.dim(` (${where.join(' at ')})`) : '';
      if (typeof r.insight === 'string') {
        appendAll(lines, wrapLine(`${text1(r.insight)}${source}`, width, `${INDENT}  • `));
        continue;
      }
      const entries = Object.entries(r.insight);
      if (entries.length === 0) lines.push(`${INDENT}  • —${source}`);
      entries.forEach(([key, value], i) => {
        const bullet = i === 0 ? '• ' : '  ';
        const head = `${INDENT}  ${bullet}${c.dim(`${text1(key)}:`)} `;
        lines.push(
          ...wrapLine(`${insightValue(value)}${i === 0 ? source : ''}`, width, head, `${INDENT}    `),
        );
      });
    }
  }
  return lines;
}

function sharedWith(m: Meeting, c: ChalkInstance, width: number): string[] {
  const rows: [string, string][] = (m.sharedWith ?? []).map((s) => {
    const who =
      s.teamId !== undefined
        ? `${text1(s.name)}${c.dim(` (team ${s.teamId})`)}`
        : personLine({ name: s.name, email: s.email ?? null }, c);
    return [who, text1(s.access)];
  });
  if (m.linkAccess) rows.push([c.dim('Anyone with the link'), text1(m.linkAccess)]);
  const whoWidth = Math.max(0, ...rows.map(([who]) => visibleWidth(who)));
  const accessWidth = Math.max(0, ...rows.map(([, access]) => visibleWidth(access)));
  // Two aligned columns when they fit; else one wrapped line each ("Name <email> (Viewer)").
  if (visibleWidth(INDENT) + whoWidth + 2 + accessWidth <= width) {
    return rows.map(([who, access]) => `${INDENT}${padToWidth(who, whoWidth)}  ${access}`);
  }
  return rows.flatMap(([who, access]) => wrapLine(`${who} (${access})`, width, INDENT, `${INDENT}  `));
}

/** The page's width: the terminal's (or COLUMNS), at most MAX_WIDTH so long lines stay readable. */
function pageWidth(opts: MeetingPageOptions): number {
  return Math.min(opts.width, MAX_WIDTH);
}

/** The whole page, ending with a newline. */
export function renderMeetingPage(m: Meeting, opts: MeetingPageOptions): string {
  const c = createChalk(opts.color);
  const width = pageWidth(opts);
  const tags = m.tags.map((t) => text1(t.name)).join(', ');
  const lines = [
    ...wrapLine(c.bold(text1(m.name) || 'Untitled meeting'), width, ''),
    ...details(
      [
        ['ID', text1(m.id)],
        ['Date', withRelative(m.createdAt, opts.timeZone, opts.now)],
        ['Duration', m.duration === null ? undefined : formatDuration(m.duration)],
        ['Link', m.url ? text1(m.url) : undefined],
        ['Recording', m.recordingUrl ? `${text1(m.recordingUrl)} ${c.dim('(valid 24 h)')}` : undefined],
        ['Web', opts.webUrl],
        ['Tags', tags || undefined],
      ],
      c,
      width,
    ),
    ...section(`Attendees (${m.attendees.length})`, attendees(m, c, width), c),
    ...section('Notes', notes(m.notes, opts), c),
    ...section('Private notes', notes(m.privateNotes, opts), c),
    ...section(`Action items (${m.actionItems.length})`, actionItems(m, c, width), c),
    ...section('Insights', insights(m, c, width), c),
    ...section('Shared with', sharedWith(m, c, width), c),
  ];
  return lines.join('\n') + '\n';
}
