// A 2xx without a body is the write applied (issue 16, point 3): reported as applied, exit 0,
// what is known printed, never "does not match the API spec", never counted as failed.
import { afterEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/inprocess.js';
import { actionItem, type OddServer, oddEnv, startOddServer } from './odd-server.js';

let server: OddServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const noBody = (status: number) => () => ({ status });

function expectApplied(r: { code: number | null; stderr: string }) {
  expect(r.code).toBe(0);
  expect(r.stderr).not.toMatch(/does not match|failed|unexpected/i);
}

describe('a 2xx with no body on a write', () => {
  it('action-items update: 204 is applied; the ID is printed; nothing counted as failed', async () => {
    server = await startOddServer(noBody(204));
    const r = await runInProcess(['action-items', 'update', '5', '--status', 'DONE', '--format', 'ndjson'], {
      env: oddEnv(server),
    });
    expectApplied(r);
    expect(r.stdout).toBe('{"id":5}\n');
    expect(r.stderr).toContain('Updated 1 of 1 action item (the server returned no body for 1)');
    expect(server.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['PUT /action-item/5']);
  });

  it('a batch mixing 204, an empty 200 and a body: all three applied, exit 0', async () => {
    server = await startOddServer((req) => {
      if (req.url === '/action-item/1') return { status: 204 };
      if (req.url === '/action-item/2') return { status: 200, body: '' };
      return { body: JSON.stringify(actionItem(3, { status: 'DONE' })) };
    });
    const r = await runInProcess(
      ['action-items', 'update', '1', '2', '3', '--status', 'DONE', '--format', 'ndjson'],
      {
        env: oddEnv(server),
      },
    );
    expectApplied(r);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; status?: string });
    expect(lines.map((l) => l.id)).toEqual([1, 2, 3]);
    expect(lines[2]!.status).toBe('DONE');
    expect(r.stderr).toContain('Updated 3 of 3 action items');
  });

  it('action-items create: an empty 201 is the item created, sent once, exit 0', async () => {
    server = await startOddServer(noBody(201));
    const r = await runInProcess(['action-items', 'create', 'Send the roadmap', '--json'], {
      env: oddEnv(server),
    });
    expectApplied(r);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('the server returned no body');
    expect(server.requests).toHaveLength(1);
  });

  it('tags create, update and apply', async () => {
    server = await startOddServer(noBody(204));
    const env = oddEnv(server);
    const created = await runInProcess(['tags', 'create', 'Hiring'], { env });
    expectApplied(created);
    expect(created.stderr).toContain('the server returned no body');

    const updated = await runInProcess(['tags', 'update', '7', '--name', 'Calls', '--format', 'ndjson'], {
      env,
    });
    expectApplied(updated);
    expect(JSON.parse(updated.stdout)).toEqual({ id: 7, name: 'Calls' });

    const applied = await runInProcess(['tags', 'apply', '7', 'm1', 'm2', '--format', 'ndjson'], { env });
    expectApplied(applied);
    expect(applied.stdout).toBe('{"id":"m1"}\n{"id":"m2"}\n');
    expect(applied.stderr).toContain('Tagged 2 of 2 meetings');
  });

  it('meetings share and calendar set-notes', async () => {
    server = await startOddServer(noBody(204));
    const env = oddEnv(server);
    const shared = await runInProcess(['meetings', 'share', 'm1', '--email', 'ann@example.com'], { env });
    expectApplied(shared);
    const notes = await runInProcess(['calendar', 'set-notes', '8812', '--notes', 'agenda'], { env });
    expectApplied(notes);
    expect(notes.stderr).toContain('the server returned no body');
    expect(server.requests.map((q) => q.method)).toEqual(['PUT', 'PUT']);
  });
});
