// `mtg sandbox --port`: a port outside 0-65535 is a usage error before anything listens; a port
// already in use is one line naming it, never "unexpected error".
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/inprocess.js';

let busy: Server;
let busyPort: number;

beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  busyPort = (busy.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => busy.close(resolve));
});

describe('mtg sandbox --port', () => {
  it.each(['99999', '65536', '-1', '80.5', 'http'])('--port %s is exit 2, one line', async (port) => {
    const r = await runInProcess(['sandbox', '--port', port]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--port must be a whole number from 0 to 65535/);
    expect(r.stderr).not.toMatch(/unexpected/);
  });

  it('a busy port is exit 1, one line naming it', async () => {
    const r = await runInProcess(['sandbox', '--port', String(busyPort)]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`port ${busyPort} is in use`);
    expect(r.stderr).not.toMatch(/unexpected/);
  });
});
