// `meetings share` tells scripts which targets failed: in --json one document with "sharedWith" and
// "errors" (zero-based index in the caller's whole list, across batches of 50, the target, the
// error), in ndjson typed lines; stderr names the same zero-based index; exit 6 on partial failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_MEETING_ID, type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { sandboxEnv } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inprocess.js';

let sandbox: Sandbox;
let ids: string[];

beforeAll(async () => {
  sandbox = await startSandbox({ limits: 'none', pageSize: 100 });
  const res = await runInProcess(
    ['meetings', 'list', '--limit', '10', '--format', 'ndjson', '--fields', 'id'],
    {
      env: sandboxEnv(sandbox),
    },
  );
  ids = res.stdout
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { id: string }).id)
    .filter((id) => id !== HOSTILE_MEETING_ID);
});
afterAll(async () => {
  await sandbox.close();
});

// 60 targets: two batches; index 1 fails in the first, 55 (team 999 does not exist) in the second.
const emails = Array.from({ length: 59 }, (_, i) => `p${i}@ok.example`);
emails[1] = 'zed@nowhere.invalid';
const input = [...emails.slice(0, 55), '999', ...emails.slice(55)].join('\n') + '\n';

describe('meetings share reports failures machine-readably', () => {
  it('--json: one document with sharedWith and zero-based errors across batches; exit 6', async () => {
    const res = await runInProcess(['meetings', 'share', ids[0]!, '--stdin', '--json'], {
      env: sandboxEnv(sandbox),
      stdin: input,
    });
    expect(res.code).toBe(6);
    const doc = JSON.parse(res.stdout) as {
      sharedWith: { email?: string }[];
      errors: { index: number; target: unknown; error: string }[];
    };
    expect(doc.errors).toEqual([
      {
        index: 1,
        target: { email: 'zed@nowhere.invalid' },
        error: expect.stringContaining('Unknown email domain'),
      },
      { index: 55, target: { teamId: 999 }, error: expect.stringContaining('999') },
    ]);
    expect(doc.sharedWith.map((s) => s.email)).toContain('p0@ok.example');
    expect(doc.sharedWith.map((s) => s.email)).not.toContain('zed@nowhere.invalid');
    expect(res.stderr).toContain('target index 1 (zed@nowhere.invalid)');
    expect(res.stderr).toContain('target index 55 (team 999)');
  });

  it('ndjson: typed lines, errors with the same zero-based index', async () => {
    const res = await runInProcess(['meetings', 'share', ids[1]!, '--stdin', '--format', 'ndjson'], {
      env: sandboxEnv(sandbox),
      stdin: input,
    });
    expect(res.code).toBe(6);
    const lines = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; index?: number; value?: { email?: string } });
    expect(lines.filter((l) => l.type === 'error').map((l) => l.index)).toEqual([1, 55]);
    expect(lines.filter((l) => l.type === 'sharedWith').some((l) => l.value?.email === 'p2@ok.example')).toBe(
      true,
    );
    expect(lines.every((l) => l.type === 'error' || l.type === 'sharedWith')).toBe(true);
  });

  it('everything applied: --json still one object, with an empty errors list; exit 0', async () => {
    const res = await runInProcess(['meetings', 'share', ids[2]!, '--team', '1', '--json'], {
      env: sandboxEnv(sandbox),
    });
    expect(res.code).toBe(0);
    const doc = JSON.parse(res.stdout) as { sharedWith: unknown[]; errors: unknown[] };
    expect(doc.errors).toEqual([]);
    expect(doc.sharedWith.length).toBeGreaterThan(0);
  });
});
