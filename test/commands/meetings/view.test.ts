// `mtg meetings view ID`: the meeting page, its hostile text sanitized, json exact, --web.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { Meeting } from '../../../src/api/schemas.js';
import { HOSTILE, HOSTILE_MEETING_ID } from '../../../src/sandbox/index.js';
import { api, CONTROL, escapeRegExp, mtg, rich, useMeetingsSandbox } from './helpers.js';

useMeetingsSandbox();

describe.concurrent('meetings view', () => {
  it('shows a readable page with notes, action items and both insight forms', async () => {
    const res = await mtg(['meetings', 'view', rich.id, '--format', 'table']);
    expect(res.code).toBe(0);
    expect(res.requests).toHaveLength(1);
    expect(res.requests[0]!.path).toBe('/search');
    expect(res.requests[0]!.query.getAll('meetingIds')).toEqual([rich.id]);

    const page = res.stdout;
    expect(page).not.toMatch(CONTROL);
    expect(page.split('\n')[0]).toBe(rich.name ?? 'Untitled meeting');
    expect(page).toMatch(new RegExp(`^  ID\\s+${rich.id}$`, 'm'));
    expect(page).toMatch(/^ {2}Date\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC/m);
    for (const a of rich.attendees) if (a.name) expect(page).toContain(a.name);
    // Notes as clean text: no Markdown markers left over.
    expect(page).toMatch(/^Notes$/m);
    expect(page).toMatch(/^ {2}• /m);
    expect(page).not.toContain('**');
    expect(page).not.toMatch(/^ {2}## /m);
    // Action items with their status.
    for (const item of rich.actionItems) {
      expect(page).toMatch(new RegExp(`^ {2}${item.status}\\s+${escapeRegExp(item.title)}`, 'm'));
    }
    // Insights: strings as bullets, custom fields as key: value lines.
    expect(page).toMatch(/^Insights$/m);
    for (const [name, results] of Object.entries(rich.insights)) {
      expect(page).toContain(`  ${name}`);
      for (const r of results) {
        if (typeof r.insight === 'string') expect(page).toContain(`• ${r.insight}`);
        else {
          for (const [k, v] of Object.entries(r.insight)) {
            expect(page).toMatch(new RegExp(`${k}: ${v === null ? '—' : escapeRegExp(String(v))}$`, 'm'));
          }
        }
      }
    }
    expect(page).toMatch(/^Shared with$/m);
    for (const s of rich.sharedWith ?? []) expect(page).toContain(s.name);
  });

  it('colors statuses only when color is on, and then only with SGR codes', async () => {
    const res = await mtg(['meetings', 'view', HOSTILE_MEETING_ID, '--format', 'table'], {
      env: { FORCE_COLOR: '1' },
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('\u001b[33mPENDING');
    expect(res.stdout).toContain('\u001b[32mDONE');
    const withoutSgr = res.stdout.replace(/\u001b\[[0-9;]*m/g, '');
    expect(withoutSgr).not.toMatch(CONTROL);

    const plain = await mtg(['meetings', 'view', HOSTILE_MEETING_ID, '--format', 'table', '--no-color'], {
      env: { FORCE_COLOR: '1' },
    });
    expect(plain.stdout).not.toContain('\u001b');
  });

  it('sanitizes the hostile meeting in the page but keeps it byte-exact in --json', async () => {
    const table = await mtg(['meetings', 'view', HOSTILE_MEETING_ID, '--format', 'table']);
    expect(table.code).toBe(0);
    expect(table.stdout).not.toMatch(CONTROL);
    expect(table.stdout).not.toContain('evil.example/'); // the OSC 8 link target is gone
    expect(table.stdout.split('\n')[0]).toBe('RED ALERT Board prep ding');
    expect(table.stdout).toContain('click me');

    const { body } = await api<Meeting[]>(`/search?meetingIds=${HOSTILE_MEETING_ID}`);
    const json = await mtg(['meetings', 'view', HOSTILE_MEETING_ID, '--json']);
    const parsed = JSON.parse(json.stdout) as Meeting;
    expect(parsed).toEqual(body[0]);
    expect(JSON.stringify(parsed)).toBe(JSON.stringify(body[0])); // same keys in the same order
    expect(parsed.name).toBe(`${HOSTILE.ansiRed} ${HOSTILE.oscTitle}Board prep ${HOSTILE.bell}`);
    expect(parsed.notes).toContain(HOSTILE.oscLink);

    const ndjson = await mtg(['meetings', 'view', HOSTILE_MEETING_ID, '--format', 'ndjson']);
    expect(ndjson.stdout.endsWith('\n')).toBe(true);
    expect(ndjson.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(ndjson.stdout)).toEqual(body[0]);
  });

  it('gives one row in csv and tsv', async () => {
    const csv = await mtg(['meetings', 'view', rich.id, '--format', 'csv']);
    const rows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(rich.id);
    const tsv = await mtg(['meetings', 'view', rich.id, '--fields', 'id,duration']);
    expect(tsv.stdout).toBe(`id\tduration\n${rich.id}\t${rich.duration ?? ''}\n`);
  });

  it('exits 4 for a meeting that does not exist', async () => {
    const res = await mtg(['meetings', 'view', 'mtg_nope']);
    expect(res.code).toBe(4);
    expect(res.stderr).toBe('mtg: Meeting mtg_nope not found\n');
    expect(res.stdout).toBe('');
  });

  it('--web prints the web-app link and sends nothing', async () => {
    const res = await mtg(['meetings', 'view', rich.id, '--web'], {
      env: { MTG_APP_URL: 'https://app.example.com/' },
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`https://app.example.com/meetings/${rich.id}\n`);
    expect(res.requests).toHaveLength(0);
  });

  // --web with --jq: test/e2e/jq.test.ts (jq-web does not load in-process under vitest).
  it('--web refuses --json, --format and --fields (one line, nothing sent)', async () => {
    const env = { MTG_APP_URL: 'https://app.example.com' };
    for (const extra of [['--json'], ['--format', 'csv'], ['--fields', 'id']]) {
      const res = await mtg(['meetings', 'view', rich.id, '--web', ...extra], { env });
      expect(res.code, extra.join(' ')).toBe(2);
      expect(res.stderr).toBe(
        'mtg: --web prints the link only: it takes no --json, --format, --fields or --jq\n',
      );
      expect(res.stdout).toBe('');
      expect(res.requests).toHaveLength(0);
    }
  });

  it('--web without an app URL says how to set one', async () => {
    const res = await mtg(['meetings', 'view', rich.id, '--web']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/MTG_APP_URL/);
    expect(res.stderr).toMatch(/mtg config set app-url/);
    expect(res.requests).toHaveLength(0);
  });
});
