// `mtg meetings transcript ID`: text, srt, vtt, Markdown, json exact, -o FILE.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../../src/api/schemas.js';
import { HOSTILE, HOSTILE_MEETING_ID } from '../../../src/sandbox/index.js';
import { tempDir } from '../../helpers/temp.js';
import { api, CONTROL, escapeRegExp, mtg, rich, useMeetingsSandbox } from './helpers.js';

useMeetingsSandbox();

describe.concurrent('meetings transcript', () => {
  let hostile: { body: TranscriptEntry[]; text: string };
  let normal: TranscriptEntry[];

  beforeAll(async () => {
    hostile = await api<TranscriptEntry[]>(`/meeting/${HOSTILE_MEETING_ID}/transcript`);
    normal = (await api<TranscriptEntry[]>(`/meeting/${rich.id}/transcript`)).body;
  });

  it('defaults to text: [mm:ss] Speaker: text, sanitized', async () => {
    const res = await mtg(['meetings', 'transcript', rich.id]);
    expect(res.code).toBe(0);
    expect(res.requests.map((r) => r.path)).toEqual([`/meeting/${rich.id}/transcript`]);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(normal.length);
    lines.forEach((line, i) => {
      const e = normal[i]!;
      expect(line).toMatch(/^\[(\d+:)?\d\d:\d\d\] /);
      expect(line.endsWith(`${e.speaker}: ${e.text}`)).toBe(true);
    });
    const h = await mtg(['meetings', 'transcript', HOSTILE_MEETING_ID]);
    expect(h.stdout).not.toMatch(/[\u001b\u0007\u009b\r]/);
    expect(h.stdout.split('\n')[0]).toBe('[00:00] Mallory: RED ALERT is red');
  });

  it('writes srt with numbered cues ending at the next entry', async () => {
    const res = await mtg(['meetings', 'transcript', rich.id, '--format', 'srt']);
    expect(res.code).toBe(0);
    const cues = parseCues(res.stdout, ',');
    expect(cues.map((c) => c.index)).toEqual(normal.map((_, i) => i + 1));
    cues.forEach((cue, i) => {
      expect(cue.start).toBeCloseTo(normal[i]!.timestamp, 3);
      const next = normal[i + 1];
      if (next) expect(cue.end).toBeCloseTo(next.timestamp, 3);
      else expect(cue.end).toBeGreaterThan(cue.start);
      expect(cue.text).toBe(`${normal[i]!.speaker}: ${normal[i]!.text}`);
    });
    const h = await mtg(['meetings', 'transcript', HOSTILE_MEETING_ID, '--format', 'srt']);
    expect(h.stdout).not.toMatch(CONTROL);
    expect(parseCues(h.stdout, ',')).toHaveLength(hostile.body.length);
  });

  it('writes vtt with a header, voice spans and dot timestamps', async () => {
    const res = await mtg(['meetings', 'transcript', rich.id, '--format', 'vtt']);
    expect(res.code).toBe(0);
    expect(res.stdout.startsWith('WEBVTT\n\n')).toBe(true);
    const cues = parseCues(res.stdout.slice('WEBVTT\n\n'.length), '.');
    expect(cues).toHaveLength(normal.length);
    cues.forEach((cue, i) => {
      expect(cue.start).toBeCloseTo(normal[i]!.timestamp, 3);
      expect(cue.text).toBe(`<v ${vttEscape(normal[i]!.speaker)}>${vttEscape(normal[i]!.text)}`);
    });
    const h = await mtg(['meetings', 'transcript', HOSTILE_MEETING_ID, '--format', 'vtt']);
    expect(h.stdout).not.toMatch(CONTROL);
  });

  it('writes Markdown with the speakers in bold', async () => {
    const res = await mtg(['meetings', 'transcript', rich.id, '--format', 'md']);
    const paragraphs = res.stdout.trimEnd().split('\n\n');
    expect(paragraphs[0]).toBe(`# Transcript of meeting ${rich.id}`);
    expect(paragraphs).toHaveLength(normal.length + 1);
    paragraphs.slice(1).forEach((p, i) => {
      expect(p).toMatch(
        new RegExp(`^(\\d+:)?\\d\\d:\\d\\d \\*\\*${escapeRegExp(normal[i]!.speaker)}:\\*\\* `),
      );
    });
    const h = await mtg(['meetings', 'transcript', HOSTILE_MEETING_ID, '--format', 'md']);
    expect(h.stdout).not.toMatch(CONTROL);
  });

  it('keeps json and ndjson exactly as sent, control characters included', async () => {
    const json = await mtg(['meetings', 'transcript', HOSTILE_MEETING_ID, '--json']);
    expect(JSON.parse(json.stdout)).toEqual(hostile.body);
    expect(JSON.stringify(JSON.parse(json.stdout))).toBe(JSON.stringify(JSON.parse(hostile.text)));
    expect((JSON.parse(json.stdout) as TranscriptEntry[])[0]!.text).toBe(`${HOSTILE.ansiRed} is red`);

    const ndjson = await mtg(['meetings', 'transcript', HOSTILE_MEETING_ID, '--format', 'ndjson']);
    const lines = ndjson.stdout.trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual(hostile.body);
  });

  it('writes any format to -o FILE atomically', async () => {
    const dir = tempDir('mtg-transcript-');
    const formats = ['text', 'srt', 'vtt', 'md', 'json', 'ndjson'];
    const results = await Promise.all(
      formats.map((f) => mtg(['meetings', 'transcript', rich.id, '--format', f, '-o', join(dir, `t.${f}`)])),
    );
    results.forEach((res, i) => {
      expect(res.code).toBe(0);
      expect(res.stdout).toBe('');
      expect(readFileSync(join(dir, `t.${formats[i]}`), 'utf8').length).toBeGreaterThan(0);
    });
    expect(readFileSync(join(dir, 't.srt'), 'utf8').startsWith('1\n')).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('rejects a list-only format before sending anything, and exits 4 for an unknown meeting', async () => {
    const bad = await mtg(['meetings', 'transcript', rich.id, '--format', 'csv']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/text, json, ndjson, srt, vtt, md/);
    expect(bad.requests).toHaveLength(0);
    const missing = await mtg(['meetings', 'transcript', 'mtg_nope']);
    expect(missing.code).toBe(4);
  });

  it('refuses --fields in every format but json and ndjson, the default text too', async () => {
    for (const format of [
      [],
      ['--format', 'text'],
      ['--format', 'md'],
      ['--format', 'vtt'],
      ['--format', 'srt'],
    ]) {
      const res = await mtg(['meetings', 'transcript', rich.id, ...format, '--fields', 'speaker']);
      expect(res.code, format.join(' ')).toBe(2);
      expect(res.stderr).toMatch(/^mtg: --fields applies to --format json and ndjson only, not \w+\n$/);
      expect(res.stdout).toBe('');
      expect(res.requests).toHaveLength(0);
    }
  });
});

function vttEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

interface ParsedCue {
  index: number;
  start: number;
  end: number;
  text: string;
}

/** Parses srt (or the cues of vtt): index line, "start --> end" line, text lines, blank line. */
function parseCues(text: string, separator: ',' | '.'): ParsedCue[] {
  const time = (s: string): number => {
    const m = new RegExp(`^(\\d\\d):(\\d\\d):(\\d\\d)\\${separator}(\\d{3})$`).exec(s);
    if (!m) throw new Error(`bad timestamp "${s}"`);
    return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000;
  };
  expect(text.endsWith('\n')).toBe(true);
  return text
    .trimEnd()
    .split('\n\n')
    .map((block) => {
      const [index, timing, ...lines] = block.split('\n');
      expect(index).toMatch(/^\d+$/);
      const [start, end] = timing!.split(' --> ');
      expect(lines.length).toBeGreaterThan(0);
      return { index: Number(index), start: time(start!), end: time(end!), text: lines.join('\n') };
    });
}
