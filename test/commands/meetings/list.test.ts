// `mtg meetings list`: in-process against the sandbox over real HTTP (paging, formats, filters).
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { Meeting } from '../../../src/api/schemas.js';
import { CONTROL, meetings, mtg, useMeetingsSandbox } from './helpers.js';

useMeetingsSandbox();

describe.concurrent('meetings list', () => {
  it('pages through every meeting in each format', async () => {
    const [json, ndjson, csv, tsv, table] = await Promise.all([
      mtg(['meetings', 'list', '--json']),
      mtg(['meeting', 'list', '--format', 'ndjson']),
      mtg(['meetings', 'list', '--format', 'csv']),
      mtg(['meetings', 'list', '--limit', '3']),
      mtg(['meetings', 'list', '--format', 'table', '--limit', '2']),
    ]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(meetings);
    expect(json.requests.length).toBe(Math.ceil(meetings.length / 10));

    const lines = ndjson.stdout.trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as Meeting).id)).toEqual(meetings.map((m) => m.id));

    const rows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.id)).toEqual(meetings.map((m) => m.id));
    expect(rows[0]!.tags).toBe(meetings[0]!.tags.map((t) => t.name).join(';'));

    const tsvLines = tsv.stdout.trimEnd().split('\n');
    expect(tsvLines[0]!.split('\t')[0]).toBe('id');
    expect(tsvLines.slice(1).map((l) => l.split('\t')[0])).toEqual(meetings.slice(0, 3).map((m) => m.id));
    expect(tsv.requests).toHaveLength(1);

    expect(table.stdout.split('\n')[0]).toMatch(/^id\s+name\s+createdAt\s+duration\s+tags$/);
    expect(table.stdout).toContain(meetings[0]!.id);
    expect(table.stdout).not.toMatch(CONTROL);
  });

  it('sends --tag values as repeated tagIds', async () => {
    const res = await mtg(['meetings', 'list', '--tag', '1', '--tag', '2,3', '--json']);
    expect(res.code).toBe(0);
    expect(res.requests[0]!.path).toBe('/meetings');
    expect(res.requests[0]!.query.getAll('tagIds')).toEqual(['1', '2', '3']);
    for (const m of JSON.parse(res.stdout) as Meeting[]) {
      expect(m.tags.some((t) => [1, 2, 3].includes(t.id))).toBe(true);
    }
  });

  it('rejects a bad tag ID before sending anything', async () => {
    const res = await mtg(['meetings', 'list', '--tag', 'x']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/Tag ID must be a positive whole number/);
    expect(res.requests).toHaveLength(0);
  });

  it("--fields attendees.name gives each attendee's name, joined with ; in csv and a list in json", async () => {
    const [csv, json] = await Promise.all([
      mtg(['meetings', 'list', '--format', 'csv', '--fields', 'id,attendees.name', '--limit', '5']),
      mtg(['meetings', 'list', '--json', '--fields', 'id,attendees.email', '--limit', '5']),
    ]);
    expect(csv.code, csv.stderr).toBe(0);
    const rows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(rows).toEqual(
      meetings
        .slice(0, 5)
        .map((m) => ({ id: m.id, 'attendees.name': m.attendees.map((a) => a.name ?? '').join(';') })),
    );
    expect(rows.some((r) => r['attendees.name']!.includes(';'))).toBe(true);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(
      meetings
        .slice(0, 5)
        .map((m) => ({ id: m.id, 'attendees.email': m.attendees.map((a) => a.email ?? null) })),
    );
  });

  it('a field that no attendee has is still an unknown field (exit 2, listing the valid ones)', async () => {
    const r = await mtg(['meetings', 'list', '--fields', 'attendees.nope']);
    expect(r.code).toBe(2);
    expect(r.requests).toHaveLength(0);
    expect(r.stderr).toMatch(/unknown field for meeting: attendees\.nope; valid fields: .*attendees\.name/);
  });
});
