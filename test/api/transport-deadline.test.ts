// An attempt's --timeout bounds the request, not the one-time load of undici (src/api/transport.ts):
// on a loaded machine the load took over a second, and on the tests' virtual clock it let the clock
// reach the deadline before the request was even sent. Here a loader that is slow on the clock.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { exchange, loadUndici, type Undici, undiciTransport } from '../../src/api/transport.js';
import { VirtualClock } from '../helpers/virtual-clock.js';

it('a request whose transport is still loading undici past its --timeout is answered, not timed out', async () => {
  const server = createServer((_req, res) => res.end('{"ok":true}'));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const baseUrl = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const clock = new VirtualClock(0);
  const timeoutMs = 1_000;
  // Loaded once, as mtg's own loader does; meanwhile twice the --timeout passes on the clock.
  let loading: Promise<Undici> | undefined;
  const load = () =>
    (loading ??= (async () => {
      const undici = await loadUndici();
      await clock.advance(2 * timeoutMs);
      return undici;
    })());
  const transport = undiciTransport({ baseUrl, timeoutMs, load });
  try {
    const url = new URL('/meetings', baseUrl);
    const request = { url, method: 'GET', headers: {}, body: undefined, timeoutMs, what: 'GET /meetings' };
    const outcome = await exchange(transport, request, clock, undefined);
    expect(outcome).toMatchObject({ kind: 'answered', status: 200, text: '{"ok":true}' });
  } finally {
    await transport.close();
    server.close();
    await once(server, 'close');
  }
});
