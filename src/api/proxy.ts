// The tunnel through HTTPS_PROXY/HTTP_PROXY, bounded. undici's ProxyAgent sends CONNECT through a
// Pool to the proxy; when the proxy closes the connection instead of answering, that pool's error
// is a socket error, which undici's Client treats as recoverable and answers by connecting again
// at once: over 100,000 CONNECTs in 40 s, never failing the request, so neither --max-retries nor
// --timeout nor Ctrl-C ended it. Here the proxy's pool turns every failed CONNECT into an error
// of its own code, so the request fails on its first attempt and ApiClient's retry loop counts it.
import type { Dispatcher, Pool } from 'undici';

/** A CONNECT the proxy closed, or a proxy that could not be reached. */
export const PROXY_CLOSED = 'MTG_PROXY_CLOSED';

export class ProxyError extends Error {
  constructor(
    message: string,
    readonly code: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'ProxyError';
  }
}

/** The proxy undici's EnvHttpProxyAgent picks for `target`, without credentials; undefined = direct. */
export function proxyFor(target: URL, env: Record<string, string | undefined>): string | undefined {
  const http = env.http_proxy ?? env.HTTP_PROXY;
  const raw = target.protocol === 'https:' ? (env.https_proxy ?? env.HTTPS_PROXY ?? http) : http;
  if (!raw || !shouldProxy(target, env.no_proxy ?? env.NO_PROXY ?? '')) return undefined;
  try {
    const u = new URL(raw);
    return `${u.protocol}//${u.host}`; // never the user:password part
  } catch {
    return 'the configured proxy';
  }
}

// The same NO_PROXY rules as undici's EnvHttpProxyAgent (so that the message names the right proxy).
function shouldProxy(target: URL, noProxy: string): boolean {
  const entries = noProxy.split(/[,\s]/).filter(Boolean);
  if (entries.length === 0) return true;
  if (noProxy === '*') return false;
  const hostname = target.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(target.port, 10) || (target.protocol === 'https:' ? 443 : 80);
  for (const entry of entries) {
    const parsed = /^(.+):(\d+)$/.exec(entry);
    const host = (parsed ? parsed[1]! : entry).replace(/^\*?\./, '').toLowerCase();
    if (parsed && Number.parseInt(parsed[2]!, 10) !== port) continue;
    if (hostname === host || hostname.endsWith(`.${host}`)) return false;
  }
  return true;
}

/**
 * The clientFactory for ProxyAgent: a Pool to the proxy whose CONNECTs are bounded by the
 * timeout, never retried inside undici, and fail with a plain message.
 */
export function tunnelPoolFactory(PoolClass: typeof Pool, timeoutMs: number) {
  // A subclass, not a replaced method: ProxyAgent calls connect(params) in its promise form, whose
  // failure is named here; the callback form passes through.
  class TunnelPool extends PoolClass {
    private readonly proxyName: string;
    constructor(origin: URL, opts: Pool.Options) {
      super(origin, opts);
      this.proxyName = `${origin.protocol}//${origin.host}`; // never the user:password part
    }
    // One implementation for both of Pool's connect() overloads (the callback form returns nothing).
    override connect(...args: unknown[]): Promise<Dispatcher.ConnectData> {
      const connect = super.connect as (...a: unknown[]) => Promise<Dispatcher.ConnectData> | undefined;
      const pending = connect.apply(this, args);
      return pending?.catch((err: unknown) => {
        throw new ProxyError(proxyProblem(this.proxyName, err, timeoutMs), PROXY_CLOSED, err);
      }) as Promise<Dispatcher.ConnectData>;
    }
  }
  return (origin: URL, opts: object): Dispatcher =>
    new TunnelPool(origin, {
      ...opts,
      connectTimeout: timeoutMs,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    } as Pool.Options);
}

function proxyProblem(name: string, err: unknown, timeoutMs: number): string {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (code === 'ECONNREFUSED') return `the proxy at ${name} refused the connection (is it running?)`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `the proxy at ${name} was not found`;
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT')
    return `the proxy at ${name} did not answer within ${timeoutMs / 1000} s (--timeout)`;
  return `the proxy at ${name} closed the connection`;
}

/** undici's wording for a tunnel the proxy refused ("Proxy response (403) !== 200 when HTTP Tunneling"). */
export function refusedTunnelStatus(err: unknown): number | undefined {
  const message = err instanceof Error ? err.message : '';
  const m = /^Proxy response \((\d+)\) !== 200/.exec(message);
  return m ? Number(m[1]) : undefined;
}
