// `mtg meetings search`: the term and filters sent to GET /search, in every format.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { Meeting } from '../../../src/api/schemas.js';
import { HOSTILE_MEETING_ID } from '../../../src/sandbox/index.js';
import { api, mtg, rich, useMeetingsSandbox } from './helpers.js';

useMeetingsSandbox();

describe.concurrent('meetings search', () => {
  it('sends the term and every filter to GET /search', async () => {
    const attendee = rich.attendees[0]!.profileId;
    const res = await mtg([
      'meetings',
      'search',
      'the',
      '--tag',
      '1,2',
      '--attendee',
      String(attendee),
      '--meeting',
      rich.id,
      '--meeting',
      HOSTILE_MEETING_ID,
      '--json',
    ]);
    expect(res.code).toBe(0);
    const q = res.requests[0]!.query;
    expect(res.requests[0]!.path).toBe('/search');
    expect(q.get('searchTerm')).toBe('the');
    expect(q.getAll('tagIds')).toEqual(['1', '2']);
    expect(q.getAll('attendeeProfileIds')).toEqual([String(attendee)]);
    expect(q.getAll('meetingIds')).toEqual([rich.id, HOSTILE_MEETING_ID]);
    expect(Array.isArray(JSON.parse(res.stdout))).toBe(true);
  });

  it('finds meetings by term in every format', async () => {
    const term = 'SSO';
    const { body: expected } = await api<Meeting[]>(`/search?searchTerm=${term}`);
    const json = await mtg(['meetings', 'search', term, '--json', '--limit', '10']);
    expect((JSON.parse(json.stdout) as Meeting[]).map((m) => m.id)).toEqual(expected.map((m) => m.id));

    const csv = await mtg([
      'meetings',
      'search',
      term,
      '--format',
      'csv',
      '--fields',
      'id,name',
      '--limit',
      '10',
    ]);
    expect(parse(csv.stdout, { columns: true })).toEqual(
      expected.map((m) => ({ id: m.id, name: m.name ?? '' })),
    );
    const table = await mtg(['meetings', 'search', term, '--format', 'table', '--limit', '10']);
    expect(table.stdout).toContain(expected[0]!.id);
  });

  it('rejects a bad attendee ID before sending anything', async () => {
    const res = await mtg(['meetings', 'search', '--attendee', '0']);
    expect(res.code).toBe(2);
    expect(res.requests).toHaveLength(0);
  });
});
