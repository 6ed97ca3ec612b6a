// Additive API changes never break a command, and values come out exactly as the server sent
// them (issue 9, points 2 and 3): an enum value the spec does not list passes with one warning per
// run, extra fields pass through, integers beyond 2^53 keep every digit; only breaking
// differences (a required field missing, a wrong type, a body that is not JSON) fail.
import { afterEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/inprocess.js';
import { actionItem, meeting, type OddServer, oddEnv, startOddServer } from './odd-server.js';

let server: OddServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const json = (v: unknown) => JSON.stringify(v);
const LIST = ['action-items', 'list', '--assignee', 'anyone', '--status', 'all'];

/** Two pages of raw item texts; the second is reached by a relative next link. */
async function serveItems(page1: string[], page2: string[]): Promise<OddServer> {
  return startOddServer((req) =>
    new URL(req.url ?? '/', 'http://x').searchParams.get('cursor') === '2'
      ? { body: `[${page2.join(',')}]` }
      : { body: `[${page1.join(',')}]`, headers: { link: '</action-items?cursor=2>; rel="next"' } },
  );
}

const meetingText = (extra: Record<string, unknown>) =>
  json(
    meeting('m1', {
      name: 'Weekly',
      actionItems: [actionItem(3, { status: 'BLOCKED' })],
      linkAccess: 'Commenter',
      sharedWith: [{ name: 'Ann', access: 'Commenter', email: 'ann@example.com' }],
      ...extra,
    }),
  );

describe('additive API changes', () => {
  it('a new action-item status passes through every format, with one warning per run', async () => {
    const items = [1, 2, 3].map((id) =>
      json(actionItem(id, { status: 'IN_PROGRESS', newField: { a: [1] } })),
    );
    server = await serveItems(items.slice(0, 2), items.slice(2));
    const nd = await runInProcess([...LIST, '--format', 'ndjson'], { env: oddEnv(server) });
    expect(nd.code).toBe(0);
    expect(nd.stdout).toBe(`${items.join('\n')}\n`);
    const warnings = nd.stderr.trim().split('\n');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warning: .*status "IN_PROGRESS"/);

    const table = await runInProcess([...LIST, '--format', 'table'], { env: oddEnv(server) });
    expect(table.code).toBe(0);
    expect(table.stdout.match(/IN_PROGRESS/g)).toHaveLength(3);
    expect(table.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a new access and linkAccess in meetings pass, with one warning', async () => {
    const m = meetingText({ brandNew: true });
    server = await startOddServer(() => ({ body: `[${m}]` }));
    const r = await runInProcess(['meetings', 'list', '--format', 'ndjson'], { env: oddEnv(server) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${m}\n`);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^warning: .*(Commenter|BLOCKED)/);
  });

  it('the values the spec lists raise no warning', async () => {
    server = await serveItems([json(actionItem(1)), json(actionItem(2, { status: 'DONE' }))], []);
    const r = await runInProcess([...LIST, '--format', 'ndjson'], { env: oddEnv(server) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('breaking differences still fail: a required field missing, a wrong type, not JSON', async () => {
    const { title: _t, ...untitled } = actionItem(1);
    for (const body of [json([untitled]), json([actionItem(1, { meetingIds: 'm1' })]), '[{"id":1,']) {
      server = await startOddServer(() => ({ body }));
      const r = await runInProcess([...LIST, '--format', 'ndjson'], { env: oddEnv(server) });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/does not match the API spec/);
      await server.close();
      server = undefined;
    }
  });
});

describe('integers beyond 2^53', () => {
  const big =
    '{"id":90071992547409931,"title":"t","description":"","assignee":{"profileId":18014398509481985,"name":null,"title":null,"companyName":null,"email":null},"status":"PENDING","meetingIds":[],"n":-123456789012345678901234567890,"f":1.5,"small":9007199254740991}';
  const plain = json(actionItem(2));

  it('ndjson and json print them byte-identical', async () => {
    server = await serveItems([big], [plain]);
    const nd = await runInProcess([...LIST, '--format', 'ndjson'], { env: oddEnv(server) });
    expect(nd.code).toBe(0);
    expect(nd.stderr).toBe('');
    expect(nd.stdout).toBe(`${big}\n${plain}\n`);
    const js = await runInProcess([...LIST, '--json'], { env: oddEnv(server) });
    expect(js.code).toBe(0);
    expect(js.stdout).toBe(`[\n${big},\n${plain}\n]\n`);
  });

  it('--fields, csv and the table print the exact digits', async () => {
    server = await serveItems([big], [plain]);
    const nd = await runInProcess([...LIST, '--format', 'ndjson', '--fields', 'id,assignee.profileId'], {
      env: oddEnv(server),
    });
    expect(nd.stdout).toBe(
      '{"id":90071992547409931,"assignee.profileId":18014398509481985}\n{"id":2,"assignee.profileId":null}\n',
    );
    const csv = await runInProcess([...LIST, '--format', 'csv', '--fields', 'id,assignee.profileId'], {
      env: oddEnv(server),
    });
    expect(csv.stdout.split(/\r?\n/)[1]).toBe('90071992547409931,18014398509481985');
    const table = await runInProcess([...LIST, '--format', 'table'], { env: oddEnv(server) });
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('90071992547409931');
  });

  it('a single document (action-items create --json) keeps them too', async () => {
    const created = big.replace(
      '"meetingIds":[]',
      '"meetingIds":[],"canEditActionItem":true,"completedAt":null,"meetings":[]',
    );
    server = await startOddServer(() => ({ status: 201, body: created }));
    const r = await runInProcess(['action-items', 'create', 't', '--json'], { env: oddEnv(server) });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"id": 90071992547409931,');
    expect(r.stdout).toContain('"n": -123456789012345678901234567890,');
    expect(JSON.stringify(JSON.parse(r.stdout))).toBe(JSON.stringify(JSON.parse(created)));
  });

  it('mtg api prints them exactly too', async () => {
    server = await startOddServer(() => ({ body: `[${big}]` }));
    const r = await runInProcess(['api', '/action-items', '--format', 'ndjson'], { env: oddEnv(server) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${big}\n`);
  });
});
