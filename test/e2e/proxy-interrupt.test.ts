// A proxy that never opens the tunnel (issue 16, point 9): the first SIGINT or SIGTERM stops mtg at
// once with exit 130 (before, undici reconnected forever and ignored it). A real process: signals.
import { afterEach, describe, expect, it } from 'vitest';
import { spawnCli, waitUntil } from '../hardening/helpers.js';
import { type Behaviour, closeProxy, type LocalProxy, startProxy } from '../hardening/proxy.js';

let proxy: LocalProxy | undefined;
afterEach(async () => {
  if (proxy) await closeProxy(proxy);
  proxy = undefined;
});

async function proxyThat(behaviour: Behaviour): Promise<LocalProxy> {
  proxy = await startProxy(behaviour);
  return proxy;
}

const env = (url: string) => ({ MTG_API_KEY: 'mtg_sk_proxyloop', HTTPS_PROXY: url, HTTP_PROXY: url });

describe('a proxy that does not open the tunnel', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} while the tunnel never opens stops at once: exit 130`, async () => {
      const p = await proxyThat((socket) => socket.resume());
      const run = spawnCli(
        ['people', 'list', '--max-retries', '1', '--timeout', '30', '--base-url', 'https://example.invalid'],
        env(p.url),
      );
      try {
        await waitUntil(() => p.connections() > 0, 10_000, 'the CONNECT');
        run.child.kill(signal);
        const killer = setTimeout(() => run.child.kill('SIGKILL'), 5_000);
        const end = await run.done;
        clearTimeout(killer);
        expect(end.code).toBe(130);
      } finally {
        run.child.kill('SIGKILL');
      }
    });
  }
});
