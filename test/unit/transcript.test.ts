import { describe, expect, it } from 'vitest';
import {
  cueTimes,
  escapeMarkdown,
  formatClock,
  LAST_CUE_SECONDS,
  renderSrt,
  renderTranscriptMarkdown,
  renderTranscriptText,
  renderVtt,
  srtTime,
  vttTime,
} from '../../src/output/transcript.js';

const ESC = '\u001b';
const BEL = '\u0007';
const entries = [
  { speaker: 'Ann', text: 'Hello there.', timestamp: 0 },
  { speaker: 'Bob', text: `Hi ${ESC}[31mred${ESC}[0m & <b>bold</b>`, timestamp: 4.5 },
  { speaker: `Eve${BEL}`, text: 'line one\n\nline two', timestamp: 3725.25 },
];

describe('clock and cue times', () => {
  it('formats mm:ss, and h:mm:ss past an hour', () => {
    expect(formatClock(0)).toBe('00:00');
    expect(formatClock(75.9)).toBe('01:15');
    expect(formatClock(3599)).toBe('59:59');
    expect(formatClock(3725)).toBe('1:02:05');
    expect(formatClock(-3)).toBe('00:00');
  });

  it('formats srt and vtt timestamps with milliseconds', () => {
    expect(srtTime(3725.25)).toBe('01:02:05,250');
    expect(vttTime(4.5)).toBe('00:00:04.500');
    expect(srtTime(0.0004)).toBe('00:00:00,000');
  });

  it('ends each cue at the next entry and the last a few seconds later', () => {
    expect(cueTimes(entries)).toEqual([
      { start: 0, end: 4.5 },
      { start: 4.5, end: 3725.25 },
      { start: 3725.25, end: 3725.25 + LAST_CUE_SECONDS },
    ]);
  });

  it('never makes a cue of zero or negative length', () => {
    const same = [
      { speaker: 'A', text: 'a', timestamp: 10 },
      { speaker: 'B', text: 'b', timestamp: 10 },
      { speaker: 'C', text: 'c', timestamp: 2 },
    ];
    for (const cue of cueTimes(same)) expect(cue.end).toBeGreaterThan(cue.start);
  });

  it('renders a transcript of 200,000 entries (more than a call can take as arguments)', () => {
    const many = Array.from({ length: 200_000 }, (_, i) => ({ speaker: 'A', text: 'a', timestamp: i }));
    const text = renderTranscriptText(many);
    // The last stamp is 55:33:19 (199,999 s): hours shown with two digits on every line.
    expect(text.split('\n')[0]).toContain('00:00:00');
    expect(text).toContain('55:33:19');
  });
});

describe('text', () => {
  it('prints [mm:ss] Speaker: text, sanitized, with continuation lines indented', () => {
    const text = renderTranscriptText(entries);
    expect(text).toBe(
      // One entry past the hour: every stamp is h:mm:ss, so the text starts in one column.
      '[0:00:00] Ann: Hello there.\n' +
        '[0:00:04] Bob: Hi red & <b>bold</b>\n' +
        '[1:02:05] Eve: line one\n\n          line two\n',
    );
    expect(text).not.toMatch(/[\u001b\u0007]/);
  });

  it('keeps [mm:ss] while every entry is within the hour, and one width past ten hours', () => {
    expect(renderTranscriptText(entries.slice(0, 2))).toBe(
      '[00:00] Ann: Hello there.\n[00:04] Bob: Hi red & <b>bold</b>\n',
    );
    const long = renderTranscriptText([
      { speaker: 'A', text: 'a', timestamp: 59 },
      { speaker: 'B', text: 'b', timestamp: 4000 },
      { speaker: 'C', text: 'c', timestamp: 36_005 },
    ]);
    expect(long).toBe('[00:00:59] A: a\n[01:06:40] B: b\n[10:00:05] C: c\n');
  });

  it('is empty for an empty transcript', () => {
    expect(renderTranscriptText([])).toBe('');
  });
});

describe('srt', () => {
  it('numbers cues from 1 with comma timestamps and one text line each', () => {
    const srt = renderSrt(entries);
    const blocks = srt.trimEnd().split('\n\n');
    expect(blocks).toHaveLength(3);
    expect(blocks[0]).toBe('1\n00:00:00,000 --> 00:00:04,500\nAnn: Hello there.');
    expect(blocks[1]).toBe('2\n00:00:04,500 --> 01:02:05,250\nBob: Hi red & <b>bold</b>');
    expect(blocks[2]).toBe('3\n01:02:05,250 --> 01:02:10,250\nEve: line one line two');
    expect(srt).not.toMatch(/[\u001b\u0007]/);
  });

  it('never leaves "-->" in cue text: players read a line with it as a new timing line', () => {
    const srt = renderSrt([
      { speaker: 'Ann', text: 'deploy --> prod, then a-->b', timestamp: 0 },
      { speaker: 'x --> y', text: 'ok', timestamp: 2 },
    ]);
    const lines = srt.split('\n');
    const timing = /^\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}$/;
    for (const line of lines) if (line.includes('-->')) expect(line).toMatch(timing);
    expect(lines[2]).toBe('Ann: deploy -- > prod, then a-- >b');
    expect(lines[6]).toBe('x -- > y: ok');
  });
});

describe('vtt', () => {
  it('starts with WEBVTT, uses dot timestamps, voice spans and escapes markup', () => {
    const vtt = renderVtt(entries);
    const [header, ...cues] = vtt.trimEnd().split('\n\n');
    expect(header).toBe('WEBVTT');
    expect(cues).toHaveLength(3);
    expect(cues[0]).toBe('1\n00:00:00.000 --> 00:00:04.500\n<v Ann>Hello there.');
    expect(cues[1]).toBe('2\n00:00:04.500 --> 01:02:05.250\n<v Bob>Hi red &amp; &lt;b&gt;bold&lt;/b&gt;');
    expect(vtt).not.toMatch(/[\u001b\u0007]/);
  });

  it('is just the header for an empty transcript', () => {
    expect(renderVtt([])).toBe('WEBVTT\n');
  });
});

describe('markdown', () => {
  it('writes a title and one paragraph per entry with the speaker in bold', () => {
    const md = renderTranscriptMarkdown(entries, 'Transcript of meeting mtg_abc_1');
    const paragraphs = md.trimEnd().split('\n\n');
    expect(paragraphs[0]).toBe('# Transcript of meeting mtg_abc_1');
    expect(paragraphs[1]).toBe('0:00:00 **Ann:** Hello there.');
    expect(paragraphs[2]).toBe('0:00:04 **Bob:** Hi red & \\<b\\>bold\\</b\\>');
    expect(paragraphs[3]).toBe('1:02:05 **Eve:** line one line two');
    expect(md).not.toMatch(/[\u001b\u0007]/);
  });

  it('escapes what Markdown would format, but not underscores inside words', () => {
    expect(escapeMarkdown('*a* _b_ snake_case `c` [d](e) # x')).toBe(
      '\\*a\\* \\_b\\_ snake_case \\`c\\` \\[d\\](e) # x',
    );
    expect(escapeMarkdown('# title')).toBe('\\# title');
  });
});
