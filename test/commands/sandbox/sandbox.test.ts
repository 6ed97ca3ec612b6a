// `mtg sandbox` in-process: options it refuses before it starts (the running server and SIGINT:
// test/e2e/sandbox-sigint.test.ts).
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../../helpers/inprocess.js';

describe('mtg sandbox', () => {
  it('refuses a host that is not loopback (exit 2)', async () => {
    const r = await runInProcess(['sandbox', '--host', '0.0.0.0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('loopback');
  });
});
