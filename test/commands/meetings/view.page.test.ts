// `mtg meetings view` is a page for people: every line fits the width (COLUMNS, the terminal, else
// 80) and wraps at word boundaries with its indent kept, so the terminal never breaks a word
// ("imp/rove"). Into a pipe or a file it is the same page as plain text (no colors); --json, or
// --fields for a tsv row, are what scripts ask for. Run in-process against a sandbox of a fixed seed.
import { stripVTControlCharacters } from 'node:util';
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Meeting } from '../../../src/api/schemas.js';
import { renderMeetingPage } from '../../../src/output/meeting-view.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { sandboxEnv } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inprocess.js';

process.env.TZ = 'UTC';
const NOW = new Date('2025-06-04T12:00:00Z');
let sandbox: Sandbox;
let env: Record<string, string>;
let meeting: Meeting;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, limits: 'none', seed: 7 });
  env = sandboxEnv(sandbox, { NO_COLOR: '1' });
  const listed = await runInProcess(['meetings', 'list', '--limit', '1', '--json'], { env });
  const id = (JSON.parse(listed.stdout) as { id: string }[])[0]!.id;
  meeting = JSON.parse((await runInProcess(['meetings', 'view', id, '--json'], { env })).stdout) as Meeting;
});

afterAll(async () => {
  await sandbox?.close();
});

/** Every word of the meeting's people, action items and notes (as the page shows them). */
function words(m: Meeting): string[] {
  const texts = [
    ...m.attendees.flatMap((a) => [a.name, a.email, a.title, a.companyName]),
    ...m.actionItems.flatMap((i) => [i.title, i.description]),
  ];
  return texts.flatMap((t) => (t ?? '').split(/\s+/)).filter((w) => w.length > 1);
}

function expectFitted(page: string, width: number): void {
  const lines = page.trimEnd().split('\n');
  for (const line of lines) {
    if (stringWidth(line) <= width) continue;
    // A word longer than the line is left whole (a link stays one piece to copy), after at most
    // its label ("  Link      https://…").
    const last = line.slice(line.lastIndexOf(' ') + 1);
    expect(stringWidth(last), line).toBeGreaterThan(width - 20);
    expect(stringWidth(line.slice(0, line.lastIndexOf(' ')).trim()), line).toBeLessThanOrEqual(20);
  }
  const shown = new Set(page.split(/[\s<>(),]+/));
  for (const word of words(meeting)) expect(shown, word).toContain(word.replace(/[<>(),]/g, ''));
}

describe('meetings view wraps at word boundaries', () => {
  for (const width of [60, 80]) {
    it(`on a terminal of ${width} columns every line fits and no word is cut`, async () => {
      const r = await runInProcess(['meetings', 'view', meeting.id], {
        env,
        tty: true,
        columns: width,
        now: NOW,
      });
      expect(r.code).toBe(0);
      expect(r.stdout.split('\n')[0]).toBe(meeting.name);
      expectFitted(r.stdout, width);
    });
  }

  it('an unsized terminal takes COLUMNS', async () => {
    const r = await runInProcess(['meetings', 'view', meeting.id], {
      env: { ...env, COLUMNS: '50' },
      tty: true,
      columns: 0,
      now: NOW,
    });
    expect(r.code).toBe(0);
    expectFitted(r.stdout, 50);
  });

  it('a continued line keeps its indent', async () => {
    const r = await runInProcess(['meetings', 'view', meeting.id], { env, tty: true, columns: 60, now: NOW });
    const lines = r.stdout.split('\n');
    const attendees = lines.indexOf(`Attendees (${meeting.attendees.length})`);
    const block = lines.slice(attendees + 1, lines.indexOf('', attendees));
    expect(block.length).toBeGreaterThan(meeting.attendees.length); // some were continued
    for (const line of block) expect(line).toMatch(/^ {2}(• | {2})\S/);
  });
});

describe('meetings view wraps text written without spaces (CJK)', () => {
  // 144 characters, 288 columns: breaks are allowed between any two of them.
  const CJK = '我们讨论了第三季度的预算和招聘计划，下周再确认。'.repeat(6);
  for (const color of [false, true]) {
    it(`private notes fit 60 columns, every character kept in order${color ? ', in color' : ''}`, () => {
      const page = renderMeetingPage(
        { ...meeting, name: `季度回顾${'会议'.repeat(40)}`, privateNotes: `**私人:** ${CJK}` },
        { color, width: 60, now: NOW.getTime(), timeZone: 'UTC' },
      );
      const plain = stripVTControlCharacters(page);
      const lines = plain.trimEnd().split('\n');
      for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(60);
      const at = lines.indexOf('Private notes');
      const block = lines.slice(at + 1, lines.indexOf('', at + 1));
      expect(block.length).toBeGreaterThan(4);
      for (const line of block) expect(line).toMatch(/^ {2}\S/); // the notes' indent kept
      expect(
        block
          .map((l) => l.trim())
          .join('')
          .replace(' ', ''),
      ).toBe(`私人:${CJK}`);
      expect(lines[0]!.startsWith('季度回顾会议')).toBe(true);
    });
  }

  it('a long URL still stays whole on its own line', () => {
    const url = `https://example.com/${'a'.repeat(90)}`;
    const page = renderMeetingPage({ ...meeting, privateNotes: `见 ${url}` }, { color: false, width: 60 });
    expect(page.split('\n')).toContain(`  ${url}`);
  });
});

describe('meetings view into a pipe', () => {
  it('prints the page as plain text, wrapped to 80 columns (COLUMNS when set)', async () => {
    const r = await runInProcess(['meetings', 'view', meeting.id], {
      env: { ...env, NO_COLOR: '' },
      now: NOW,
    });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(meeting.name);
    expect(r.stdout).toMatch(/^Notes$/m);
    expect(r.stdout).not.toContain('\t');
    expect(r.stdout).not.toContain('\u001b');
    expectFitted(r.stdout, 80);
    const narrow = await runInProcess(['meetings', 'view', meeting.id], {
      env: { ...env, COLUMNS: '60' },
      now: NOW,
    });
    expectFitted(narrow.stdout, 60);
  });

  it('--json is the meeting as the API sent it; --fields is one tsv row', async () => {
    const json = await runInProcess(['meetings', 'view', meeting.id, '--json'], { env });
    expect((JSON.parse(json.stdout) as Meeting).id).toBe(meeting.id);
    const tsv = await runInProcess(['meetings', 'view', meeting.id, '--fields', 'id,duration'], { env });
    expect(tsv.stdout).toBe(`id\tduration\n${meeting.id}\t${meeting.duration ?? ''}\n`);
  });
});
