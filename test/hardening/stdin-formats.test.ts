// `--stdin` reads what mtg itself prints: every output format of a list command, piped into a
// batch command, updates exactly the listed items (in-process, against the sandbox).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { runRecordedInProcess } from '../helpers/recorded.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, limits: 'none', pageSize: 7 });
});
afterAll(async () => {
  await sandbox?.close();
});

/** mtg in this process against the sandbox, and the requests that reached it meanwhile. */
const mtg = (argv: string[], stdin?: string) => runRecordedInProcess(sandbox, argv, { input: stdin });

const LIST = ['action-items', 'list', '--assignee', 'anyone', '--status', 'all', '--limit', '12'];
const UPDATE = ['action-items', 'update', '--stdin', '--status', 'done'];

/** The IDs the list prints, read from its ndjson (the reference the other formats must match). */
async function listedIds(): Promise<string[]> {
  const r = await mtg([...LIST, '--format', 'ndjson']);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout
    .trim()
    .split('\n')
    .map((l) => String((JSON.parse(l) as { id: number }).id));
}

describe('mtg action-items list … | mtg action-items update --stdin', () => {
  it.each([
    ['--json', ['--json']],
    ['ndjson', ['--format', 'ndjson']],
    ['csv', ['--format', 'csv']],
    ['csv with a byte-order mark', ['--format', 'csv', '--bom']],
    [
      'csv, id not first, titles with commas and quotes',
      ['--format', 'csv', '--fields', 'title,description,id'],
    ],
    ['tsv', ['--format', 'tsv']],
    ['tsv, id not first', ['--format', 'tsv', '--fields', 'title,status,id']],
    ['tsv of the id alone', ['--format', 'tsv', '--fields', 'id']],
    ['--json of the id alone', ['--json', '--fields', 'id']],
  ])('%s', async (_name, format) => {
    const expected = await listedIds();
    expect(expected.length).toBe(12);
    const list = await mtg([...LIST, ...format]);
    expect(list.code, list.stderr).toBe(0);
    const update = await mtg(UPDATE, list.stdout);
    expect(update.code, update.stderr).toBe(0);
    expect(update.requests.map((q) => `${q.method} ${q.path}`).sort()).toEqual(
      expected.map((id) => `PUT /action-item/${id}`).sort(),
    );
    expect(update.requests.every((q) => (q.body as { status?: string }).status === 'DONE')).toBe(true);
  });

  it('a JSON array of IDs, and IDs one per line, are IDs', async () => {
    const ids = (await listedIds()).slice(0, 3);
    for (const input of [JSON.stringify(ids.map(Number)), JSON.stringify(ids), `${ids.join('\n')}\n`]) {
      const r = await mtg(UPDATE, input);
      expect(r.code, r.stderr).toBe(0);
      expect(r.requests.map((q) => q.path).sort()).toEqual(ids.map((id) => `/action-item/${id}`).sort());
    }
  });

  it('a table is refused, naming the formats to pipe, with nothing sent', async () => {
    const table = await mtg([...LIST, '--format', 'table']);
    expect(table.code, table.stderr).toBe(0);
    const r = await mtg(UPDATE, table.stdout);
    expect(r.requests).toEqual([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /--stdin cannot read a table: pipe .*ndjson, --json, or csv\/tsv with an "id" column/,
    );
  });

  it('a csv row without an id is exit 2, naming the line, with nothing sent', async () => {
    const r = await mtg(UPDATE, 'title,id\n"a, b",1\n"c\nd",\n');
    expect(r.requests).toEqual([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('stdin line 3: the "id" column is empty');
  });

  it.each([
    ['csv', 'createdAt,duration\n2025-01-01T10:00:00Z,3600\n', 'csv'],
    ['tsv', 'title\tstatus\nBuy milk\tPENDING\n', 'tsv'],
  ])(
    'a %s whose header row has no id column is exit 2 naming the column, with nothing sent',
    async (_name, input, kind) => {
      const r = await mtg(UPDATE, input);
      expect(r.requests).toEqual([]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`the ${kind} header row has no "id" column`);
    },
  );

  it('# comment lines in a csv or tsv are skipped, not read as IDs', async () => {
    const ids = (await listedIds()).slice(0, 2);
    for (const input of [
      `# exported today\ntitle,id\n# a note\n"x, y",${ids[0]}\n#\nz,${ids[1]}\n`,
      `# exported today\ntitle\tid\n# a note\nx\t${ids[0]}\n#\nz\t${ids[1]}\n`,
    ]) {
      const r = await mtg(UPDATE, input);
      expect(r.code, r.stderr).toBe(0);
      expect(r.requests.map((q) => q.path).sort()).toEqual(ids.map((id) => `/action-item/${id}`).sort());
    }
  });
});

describe('mtg meetings list … | mtg tags apply TAG --stdin', () => {
  it('a csv of fields without the id is exit 2, with no PUT sent', async () => {
    const list = await mtg([
      'meetings',
      'list',
      '--limit',
      '3',
      '--format',
      'csv',
      '--fields',
      'createdAt,duration',
    ]);
    expect(list.code, list.stderr).toBe(0);
    const apply = await mtg(['tags', 'apply', '3', '--stdin'], list.stdout);
    expect(apply.requests).toEqual([]);
    expect(apply.code).toBe(2);
    expect(apply.stderr).toContain('the csv header row has no "id" column');
  });

  it.each([
    ['--json', ['--json']],
    ['csv, id not first', ['--format', 'csv', '--fields', 'name,id']],
  ])('%s', async (_name, format) => {
    const ref = await mtg(['meetings', 'list', '--limit', '4', '--format', 'ndjson']);
    const expected = ref.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { id: string }).id);
    const list = await mtg(['meetings', 'list', '--limit', '4', ...format]);
    expect(list.code, list.stderr).toBe(0);
    const apply = await mtg(['tags', 'apply', '1', '--stdin'], list.stdout);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.requests.map((q) => (q.body as { meetingIds: string[] }).meetingIds)).toEqual([expected]);
  });
});

// IDs beyond 2^53 are printed exactly (src/shared/exact.ts), so they must be accepted back exactly.
describe('IDs beyond 2^53 go into paths and bodies exactly', () => {
  const BIG = '90071992547409931'; // Number(BIG) is 90071992547409940
  const OTHER = '90071992547409933';

  it('action-items update: argument, --stdin json and --assignee, in the dry run', async () => {
    const r = await mtg(
      ['action-items', 'update', BIG, '--stdin', '--status', 'done', '--assignee', OTHER, '--dry-run'],
      `{"id":${BIG}}\n{"id":${BIG}0}\n`,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.requests).toEqual([]);
    expect(r.stdout).toBe(
      `PUT /action-item/${BIG} {"status":"DONE","assigneeProfileId":${OTHER}}\n` +
        `PUT /action-item/${BIG}0 {"status":"DONE","assigneeProfileId":${OTHER}}\n`,
    );
  });

  it('the same ID twice (argument and stdin) is sent once', async () => {
    const r = await mtg(
      ['action-items', 'update', BIG, '--stdin', '--status', 'done', '--dry-run'],
      `${BIG}\n`,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([`PUT /action-item/${BIG} {"status":"DONE"}`]);
  });

  it('action-items update sends the exact path to the server', async () => {
    const r = await mtg(['action-items', 'update', BIG, '--status', 'done']);
    expect(r.requests.map((q) => q.path)).toEqual([`/action-item/${BIG}`]);
  });

  it('action-items create --assignee, tags update and tags apply, in the dry run', async () => {
    const create = await mtg(['action-items', 'create', 'Call', '--assignee', BIG, '--dry-run', '--json']);
    expect(create.code, create.stderr).toBe(0);
    expect(create.stdout).toContain(`"assigneeProfileId":${BIG}}`);
    const update = await mtg(['tags', 'update', BIG, '--name', 'x', '--dry-run']);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toContain(`/${BIG} `);
    const apply = await mtg(['tags', 'apply', BIG, 'm1', '--dry-run']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain(`{"tagId":${BIG},`);
    const share = await mtg(['meetings', 'share', 'm1', '--team', BIG, '--dry-run']);
    expect(share.code, share.stderr).toBe(0);
    expect(share.stdout).toContain(`"teamId":${BIG},`);
    const notes = await mtg(['calendar', 'set-notes', 'ev1', '--tag', `3,${BIG}`, '--dry-run']);
    expect(notes.code, notes.stderr).toBe(0);
    expect(notes.stdout).toContain(`"tagIds":[3,${BIG}]`);
    const fromStdin = await mtg(['meetings', 'share', 'm1', '--stdin', '--dry-run'], `{"teamId":${OTHER}}\n`);
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(fromStdin.stdout).toContain(`"teamId":${OTHER},`);
  });

  it('a normal ID is still a plain number, and a non-number is still exit 2', async () => {
    const ok = await mtg(['action-items', 'update', '5', '--assignee', '7', '--status', 'done', '--dry-run']);
    expect(ok.stdout).toBe('PUT /action-item/5 {"status":"DONE","assigneeProfileId":7}\n');
    for (const bad of ['0', '-3', '1.5', '12a', '']) {
      const r = await mtg(['action-items', 'update', bad, '--status', 'done']);
      expect(r.code, bad).toBe(2);
      expect(r.requests).toEqual([]);
    }
  });
  it('a JSON number that was rounded (not written as digits) is exit 2, never another ID', async () => {
    // 90071992547409931.0 and 9.0071992547409931e16 parse to 90071992547409940: another item.
    for (const [text, args] of [
      [`[{"id":${BIG}.0}]`, ['action-items', 'update', '--stdin', '--status', 'done']],
      [`{"id":9.0071992547409931e16}\n`, ['action-items', 'update', '--stdin', '--status', 'done']],
      [`[${BIG}.0]`, ['tags', 'apply', '3', '--stdin']],
      [`{"teamId":${BIG}.0}\n`, ['meetings', 'share', 'm1', '--stdin']],
    ] as const) {
      const r = await mtg([...args], text);
      expect(r.code, text).toBe(2);
      expect(r.stderr, text).toMatch(/not a whole number that JSON carries exactly/);
      expect(r.requests, text).toEqual([]);
    }
  });
});
