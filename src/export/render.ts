// One meeting of the mirror as a Markdown file: YAML front matter (written by the `yaml` package,
// never by hand), then the body from a Mustache template — the built-in one or --template FILE.
// The template gets prepared values (see MeetingView); the front matter arrives ready-made, so a
// template cannot produce invalid YAML. The kept region is added by the writer, not the template.

import { createHash } from 'node:crypto';
import { Document, Scalar, visit } from 'yaml';
import { formatClock } from '../output/transcript.js';
import { escapeC1 } from '../shared/exact.js';
import { sanitizeForTerminal } from '../shared/sanitize.js';
import defaultTemplate from './default-template.mustache';

export { defaultTemplate };

/** The line below which a file's text is the user's and survives every rewrite. */
export const KEPT_MARKER = '<!-- mtg: notes below this line are kept -->';

export interface RenderOptions {
  transcripts: boolean;
  privateNotes: boolean;
  /** The web app's base URL (app-url / MTG_APP_URL), without a trailing slash. */
  appUrl?: string;
}

export interface ExportMeeting {
  id: string;
  /** The Meeting as the API last sent it (parsed from the mirror's json column). */
  meeting: Record<string, unknown>;
  /** TranscriptEntry[] as sent, when the mirror holds one. */
  transcript?: unknown[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Server text as file text: no terminal escapes, no stray control characters; the marker defused. */
export function cleanText(s: string): string {
  return sanitizeForTerminal(s.replace(/\r\n?/g, '\n')).replaceAll(KEPT_MARKER, '<!-- mtg: (marker) -->');
}
const oneLine = (s: string) => cleanText(s).replace(/\s+/g, ' ').trim();

function personName(p: Obj): string {
  return str(p.name)?.trim() || str(p.email) || String(p.profileId ?? '');
}

/** The front matter object: the mirror's values as sent (strings, numbers, null), lists of names. */
export function frontMatterOf(m: Obj, id: string, appUrl?: string): Obj {
  const attendees = arr(m.attendees).filter(isObj);
  const companies = [...new Set(attendees.map((a) => str(a.companyName)).filter((c): c is string => !!c))];
  const fm: Obj = {
    id,
    name: str(m.name) ?? null,
    date: str(m.createdAt) ?? null,
    updated: str(m.updatedAt) ?? null,
    duration: typeof m.duration === 'number' ? m.duration : null,
    url: str(m.url) ?? null,
    tags: arr(m.tags)
      .filter(isObj)
      .map((t) => str(t.name))
      .filter((t): t is string => t !== undefined),
    attendees: attendees.map(personName),
    companies,
  };
  if (appUrl) fm.link = `${appUrl}/meetings/${encodeURIComponent(id)}`;
  return fm;
}

// C1 controls and U+2028/U+2029, which YAML 1.1 readers (PyYAML) refuse or take for line breaks.
const UNSAFE_IN_PLAIN_YAML = /[\u0080-\u009f\u2028\u2029]/;

/**
 * The front matter as YAML that PyYAML and the `yaml` package both read back as the same values:
 * a string holding a C1 control or U+2028/U+2029 is double-quoted, and in double quotes each C1
 * control is written as its \u escape (PyYAML refuses them raw: "special characters are not
 * allowed"). `yaml` writes no C1 control outside double quotes, so every one is in such a string.
 */
export function frontMatterYaml(fm: Obj): string {
  const doc = new Document(fm);
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && UNSAFE_IN_PLAIN_YAML.test(node.value))
        node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  return escapeC1(doc.toString({ lineWidth: 0 }));
}

export interface MeetingView {
  id: string;
  title: string;
  date: string;
  frontMatter: string;
  link?: string;
  notes?: string;
  privateNotes?: string;
  hasActionItems: boolean;
  actionItems: {
    id: string;
    check: 'x' | ' ';
    done: boolean;
    status: string;
    title: string;
    assignee?: string;
  }[];
  hasInsights: boolean;
  insights: { name: string; results: { text: string; where?: string }[] }[];
  hasTranscript: boolean;
  transcript: { speaker: string; time: string; text: string }[];
  meeting: Obj;
}

function insightText(v: unknown): string {
  if (typeof v === 'string') return oneLine(v);
  // The custom-field form: field name -> value.
  if (isObj(v))
    return Object.entries(v)
      .map(([k, x]) => `**${oneLine(k)}**: ${oneLine(String(x ?? ''))}`)
      .join('; ');
  return oneLine(JSON.stringify(v) ?? '');
}

export function meetingView(e: ExportMeeting, options: RenderOptions): MeetingView {
  const m = e.meeting;
  const fm = frontMatterOf(m, e.id, options.appUrl);
  const frontMatter = frontMatterYaml(fm);
  const items = arr(m.actionItems)
    .filter(isObj)
    .map((a) => {
      const status = str(a.status) ?? '';
      const done = status === 'DONE';
      const assignee = isObj(a.assignee) ? oneLine(personName(a.assignee)) : undefined;
      return {
        id: String(a.id),
        check: done ? ('x' as const) : (' ' as const),
        done,
        status,
        title: oneLine(str(a.title) ?? '') || '(untitled)',
        ...(assignee ? { assignee } : {}),
      };
    });
  const insights = Object.entries(isObj(m.insights) ? m.insights : {}).map(([name, results]) => ({
    name: oneLine(name),
    results: arr(results)
      .filter(isObj)
      .map((r) => {
        const where = [
          str(r.speaker) ? oneLine(r.speaker as string) : '',
          typeof r.timestamp === 'number' ? formatClock(r.timestamp) : '',
        ]
          .filter(Boolean)
          .join(', ');
        return { text: insightText(r.insight), ...(where ? { where } : {}) };
      }),
  }));
  const transcript =
    options.transcripts && e.transcript
      ? e.transcript.filter(isObj).map((t) => ({
          speaker: oneLine(str(t.speaker) ?? '') || 'Unknown',
          time: formatClock(typeof t.timestamp === 'number' ? t.timestamp : 0),
          text: oneLine(str(t.text) ?? ''),
        }))
      : [];
  const notes = str(m.notes) ? cleanText(m.notes as string).trim() : '';
  const privateNotes =
    options.privateNotes && str(m.privateNotes) ? cleanText(m.privateNotes as string).trim() : '';
  return {
    id: e.id,
    title: oneLine(str(m.name) ?? '') || 'Untitled meeting',
    date: str(m.createdAt) ?? '',
    frontMatter,
    ...(typeof fm.link === 'string' ? { link: fm.link } : {}),
    ...(notes ? { notes } : {}),
    ...(privateNotes ? { privateNotes } : {}),
    hasActionItems: items.length > 0,
    actionItems: items,
    hasInsights: insights.length > 0,
    insights,
    hasTranscript: transcript.length > 0,
    transcript,
    meeting: m,
  };
}

type Mustache = typeof import('mustache')['default'];
let mustache: Mustache | undefined;

/** Loads the template engine (kept out of start-up: only the export needs it). */
export async function loadTemplateEngine(): Promise<void> {
  mustache ??= (await import('mustache')).default;
}

/** Markdown is not HTML: values go in as they are (already cleaned of control characters). */
const noEscape = (s: string) => s;

/** The generated part of a file (everything above the kept marker). loadTemplateEngine() first. */
export function renderMeeting(e: ExportMeeting, options: RenderOptions, template = defaultTemplate): string {
  if (!mustache) throw new Error('renderMeeting() before loadTemplateEngine()');
  const body = mustache.render(template, meetingView(e, options), {}, { escape: noEscape });
  // One trailing newline, then the marker: the generated part always ends the same way.
  return `${cleanTemplateOutput(body)}\n${KEPT_MARKER}\n`;
}

function cleanTemplateOutput(s: string): string {
  return (
    s
      .replaceAll(KEPT_MARKER, '<!-- mtg: (marker) -->')
      .replace(/\n{3,}/g, '\n\n')
      .replace(/\s+$/, '') + '\n'
  );
}

/** Splits a file at the first marker line: [generated part incl. the marker line, kept text]. */
export function splitKept(file: string): { generated: string; kept: string } | undefined {
  const at = file.indexOf(`${KEPT_MARKER}\n`);
  if (at < 0) {
    if (file.endsWith(KEPT_MARKER)) return { generated: `${file}\n`, kept: '' };
    return undefined;
  }
  const end = at + KEPT_MARKER.length + 1;
  return { generated: file.slice(0, end), kept: file.slice(end) };
}

export function contentHash(s: string): string {
  return createHash('sha256').update(s).digest('base64url').slice(0, 22);
}
