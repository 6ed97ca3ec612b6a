// `mtg meetings share ID`: targets in batches of 50, failures by their place, --stdin of every format.
import { describe, expect, it } from 'vitest';
import { HOSTILE_MEETING_ID } from '../../../src/sandbox/index.js';
import { meetings, mtg, rich, useMeetingsSandbox } from './helpers.js';

useMeetingsSandbox();

describe.concurrent('meetings share', () => {
  /** A different plain meeting per test, so tests running in parallel do not share one. */
  const target = (n: number) =>
    meetings.filter((m) => m.id !== rich.id && m.id !== HOSTILE_MEETING_ID)[n]!.id;

  it('sends 51 targets in two batches and reports a failure by its place in the whole list', async () => {
    const emails = Array.from({ length: 50 }, (_, i) => `person${i + 1}@batch.example`);
    const input = `${emails.join('\n')}\n{"email":"bob@x.invalid"}\n`;
    const res = await mtg(['meetings', 'share', target(0), '--stdin', '--json'], { input });
    expect(res.code).toBe(6);
    const puts = res.requests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(2);
    expect((puts[0]!.body as unknown[]).length).toBe(50);
    expect(puts[1]!.body).toEqual([{ email: 'bob@x.invalid', access: 'Viewer' }]);
    expect(res.stderr).toContain('target index 50 (bob@x.invalid): Unknown email domain: x.invalid');
    expect(res.stderr).toMatch(/with 50 of 51 targets; 1 failed/);
    const shared = (JSON.parse(res.stdout) as { sharedWith: { email?: string }[] }).sharedWith;
    expect(shared.map((s) => s.email)).toEqual(expect.arrayContaining(emails));
  });

  it('keeps indexes of the first batch, takes teams and NDJSON, and matches access case-insensitively', async () => {
    const res = await mtg(
      [
        'meetings',
        'share',
        target(1),
        '--email',
        'ann@ok.example,zed@nowhere.invalid',
        '--team',
        '2',
        '--stdin',
        '--access',
        'editor',
        '--format',
        'tsv',
      ],
      { input: '{"teamId": 3}\n# a comment\n\n1\n' },
    );
    expect(res.code).toBe(6);
    expect(res.requests).toHaveLength(1);
    expect(res.requests[0]!.body).toEqual([
      { email: 'ann@ok.example', access: 'Editor' },
      { email: 'zed@nowhere.invalid', access: 'Editor' },
      { teamId: 2, access: 'Editor' },
      { teamId: 3, access: 'Editor' },
      { teamId: 1, access: 'Editor' },
    ]);
    expect(res.stderr).toContain('target index 1 (zed@nowhere.invalid): Unknown email domain');
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('profileId\tname\taccess\temail\tteamId');
    expect(lines.some((l) => l.includes('ann@ok.example\t') && l.includes('\tEditor\t'))).toBe(true);
  });

  it('prints the sharing list as a table and exits 0 when everything applied', async () => {
    const res = await mtg(['meetings', 'share', target(2), '--team', '1', '--format', 'table']);
    expect(res.code).toBe(0);
    expect(res.stdout.split('\n')[0]).toMatch(/^name\s+email\s+teamId\s+access$/);
    expect(res.stdout).toMatch(/Engineering\s+1\s+Viewer/);
    expect(res.stderr).toMatch(/with 1 of 1 target\./);
  });

  it('exits 1 when every target failed', async () => {
    const res = await mtg(['meetings', 'share', target(3), '--email', 'a@b.invalid']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('target index 0 (a@b.invalid)');
  });

  it.each([
    ['--json', ['--json']],
    ['ndjson', ['--format', 'ndjson']],
    ['csv with an email column, not first', ['--format', 'csv', '--fields', 'firstName,email']],
    ['tsv', ['--format', 'tsv']],
  ])('shares with the people `people list %s` prints, piped into --stdin', async (_name, format) => {
    const ref = await mtg(['people', 'list', '--limit', '3', '--format', 'ndjson']);
    expect(ref.code, ref.stderr).toBe(0);
    const emails = ref.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { email: string }).email);
    expect(emails).toHaveLength(3);
    const list = await mtg(['people', 'list', '--limit', '3', ...format]);
    expect(list.code, list.stderr).toBe(0);
    const res = await mtg(['meetings', 'share', target(5), '--stdin', '--json'], { input: list.stdout });
    expect(res.stderr).not.toMatch(/^mtg: /m);
    const puts = res.requests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0]!.body).toEqual(emails.map((email) => ({ email, access: 'Viewer' })));
  });

  it('rejects a malformed email, no targets, and bad stdin before sending anything', async () => {
    const cases: [string[], string | undefined, RegExp][] = [
      [['--email', 'ok@fine.example,not-an-email'], undefined, /Invalid email address "not-an-email"/],
      [[], undefined, /Nothing to share with/],
      [['--stdin'], 'ok@fine.example\nnonsense\n', /stdin line 2: expected an email address or a team ID/],
      [['--stdin'], '{"name":"x"}\n', /stdin line 1: .*"email" or "teamId"/],
      [
        ['--stdin'],
        'name,createdAt\nAnn,2025-01-01\n',
        /the csv header row has no "email" or "teamId" column/,
      ],
      [['--stdin'], 'name,email\nAnn,ann@nodot\n', /stdin line 2: Invalid email address "ann@nodot"/],
      [['--team', '0'], undefined, /Team ID must be a positive whole number/],
      [['--email', 'a@b.example', '--access', 'Owner'], undefined, /Invalid access "Owner"/],
    ];
    const results = await Promise.all(
      cases.map(([flags, input]) => mtg(['meetings', 'share', target(4), ...flags], { input })),
    );
    results.forEach((res, i) => {
      const [flags, , message] = cases[i]!;
      expect(res.code, flags.join(' ')).toBe(2);
      expect(res.stderr).toMatch(message);
      expect(res.requests).toHaveLength(0);
    });
  });

  it('a JSON-quoted line on --stdin (jq without -r) is the same error as for every --stdin', async () => {
    const res = await mtg(['meetings', 'share', target(5), '--stdin', '--dry-run'], {
      input: '"ann@example.com"\n',
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(
      /^mtg: stdin line 1: .* is a JSON string, not an? .*: pipe bare values \(jq -r\) or NDJSON objects with an? "\w+"/,
    );
  });
});
