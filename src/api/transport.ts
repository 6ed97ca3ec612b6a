// One HTTP attempt and nothing else: the call, bounded by --timeout from connecting to the body's
// last byte, and its failure classified once (TransportFailure). Retries, rate limits and words are
// the client's and decide()'s. The Transport is the one seam a test or a lighter build may replace;
// the default sends through undici, loaded on the first request, not at start-up.

import type { Dispatcher } from 'undici';
import type { Clock } from '../shared/clock.js';
import { type BodyStream, boundedText } from './decode.js';
import { ResponseTooLargeError, type TransportFailure } from './errors.js';
import { refusedTunnelStatus, tunnelPoolFactory } from './proxy.js';
import { isLoopbackHost } from './url.js';

export type Headers = Record<string, string | string[] | undefined>;

export interface TransportRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  timeoutMs: number;
  /** Aborts the call (Ctrl-C, or the attempt's deadline). */
  signal: AbortSignal;
  /** The request named for people ("GET /meetings"), for the body-size error. */
  what: string;
}

export interface TransportAnswer {
  status: number;
  headers: Headers;
  text: string;
}

export interface Transport {
  /** Loads what sending needs (undici), before any attempt's deadline starts counting. */
  ready(): Promise<void>;
  /**
   * Sends the request and reads the whole body. `onHeaders` hears the status as soon as the
   * headers arrive, so that a body that fails afterwards is told from no answer at all.
   */
  send(req: TransportRequest, onHeaders: (status: number) => void): Promise<TransportAnswer>;
  /** Drops keep-alive sockets so the process can exit promptly. */
  close(): Promise<void>;
}

/** How one attempt ended, as decide() reads it. */
export type Exchange =
  | ({ kind: 'answered' } & TransportAnswer)
  /** No HTTP answer (or one whose body did not arrive): `status` when its headers had. */
  | { kind: 'failed'; failure: TransportFailure; status?: number }
  /** A body over the size bound: not read further. */
  | { kind: 'too-large'; error: ResponseTooLargeError };

/**
 * One attempt. undici's headersTimeout starts once the request is on a socket, and its bodyTimeout
 * starts again with every chunk: neither bounds a connection that never completes or a body that
 * trickles. This deadline bounds the whole attempt, from connecting to the body's last byte; it
 * starts once the transport is ready, so that it never counts the one-time load of undici (over a
 * second on a loaded machine).
 */
export async function exchange(
  transport: Transport,
  req: Omit<TransportRequest, 'signal'>,
  clock: Clock,
  interrupt: AbortSignal | undefined,
): Promise<Exchange> {
  await transport.ready();
  const deadline = new AbortController();
  const cancel = clock.timeout(() => deadline.abort(), req.timeoutMs);
  const signal = interrupt ? AbortSignal.any([interrupt, deadline.signal]) : deadline.signal;
  let status: number | undefined;
  try {
    const answer = await transport.send({ ...req, signal }, (s) => {
      status = s;
    });
    return { kind: 'answered', ...answer };
  } catch (error) {
    if (error instanceof ResponseTooLargeError) return { kind: 'too-large', error };
    return { kind: 'failed', failure: classify(error, deadline.signal.aborted, status), status };
  } finally {
    cancel();
  }
}

function classify(error: unknown, timedOut: boolean, status: number | undefined): TransportFailure {
  const code = timedOut
    ? status !== undefined
      ? 'UND_ERR_BODY_TIMEOUT'
      : 'UND_ERR_HEADERS_TIMEOUT'
    : errorCode(error);
  // A proxy that answers CONNECT with an error status will answer the same again.
  return { code, error, timedOut, tunnelRefused: refusedTunnelStatus(error) };
}

function errorCode(err: unknown): string | undefined {
  if (err && typeof err === 'object') {
    const e = err as { code?: unknown; cause?: { code?: unknown } };
    if (typeof e.code === 'string') return e.code;
    if (e.cause && typeof e.cause.code === 'string') return e.cause.code;
  }
  return undefined;
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

// Only the dispatchers: the build bundles a lean undici without the top-level helpers (fetch, ...).
export type Undici = Pick<typeof import('undici'), 'Agent' | 'EnvHttpProxyAgent' | 'Pool'>;
let undiciModule: Promise<Undici> | undefined;
// undici is loaded on the first request, not at start-up (`mtg --help` never needs it).
export const loadUndici = () => {
  // undici is CommonJS: in the split bundle its exports arrive as the default export.
  undiciModule ??= import('undici').then((m) => ('Agent' in m ? m : (m as { default: Undici }).default));
  return undiciModule;
};

export interface UndiciTransportOptions {
  baseUrl: URL;
  timeoutMs: number;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read; none given: no proxy. */
  env?: Record<string, string | undefined>;
  /** Loads undici (default: loadUndici, once per process); a test gives a slow one. */
  load?: () => Promise<Undici>;
}

/** The transport of every command: undici's dispatchers, a proxy honoured off loopback. */
export function undiciTransport(options: UndiciTransportOptions): Transport {
  // A client is built only to send requests: start loading undici now, while the caller loads
  // what else it needs (list.ts), rather than at the first request. A failure surfaces there.
  const load = options.load ?? loadUndici;
  load().catch(() => undefined);
  let dispatcher: Dispatcher | undefined;
  // close() drops the dispatcher; a request sent after it builds a new one.
  const ensureDispatcher = async (): Promise<Dispatcher> => {
    dispatcher ??= dispatcherFor(await load(), options);
    return dispatcher;
  };
  return {
    async ready() {
      await ensureDispatcher();
    },
    async send(req, onHeaders) {
      const pool = await ensureDispatcher();
      // Dispatcher.request (what undici.request calls): the build bundles a lean undici that
      // has the dispatchers but not the top-level helpers (scripts/build.mjs).
      const res = await settleOnAbort(
        pool.request({
          origin: req.url.origin,
          path: `${req.url.pathname}${req.url.search}`,
          method: req.method as Dispatcher.HttpMethod,
          headers: req.headers,
          body: req.body,
          headersTimeout: req.timeoutMs,
          bodyTimeout: req.timeoutMs,
          signal: req.signal,
        }),
        req.signal,
      );
      onHeaders(res.statusCode);
      const length = headerValue(res.headers['content-length']);
      const text = await boundedText(res.body as BodyStream, length, req.signal, req.what);
      return { status: res.statusCode, headers: res.headers, text };
    },
    /**
     * destroy(), not close(): close() waits for queued requests, and after Ctrl-C or a failed
     * connection undici may still hold one.
     */
    async close() {
      const d = dispatcher;
      dispatcher = undefined;
      if (d) await d.destroy().catch(() => undefined);
    },
  };
}

function dispatcherFor(undici: Undici, options: UndiciTransportOptions): Dispatcher {
  const opts = { headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs, connections: 16 };
  // Loopback never goes through a proxy; elsewhere HTTPS_PROXY/HTTP_PROXY/NO_PROXY are honored.
  // The tunnel's own pool is bounded (proxy.ts): a proxy that drops CONNECT fails the attempt.
  // The variables are given explicitly ('' = none): undici would read process.env otherwise.
  const env = options.env ?? {};
  return isLoopbackHost(options.baseUrl.hostname)
    ? new undici.Agent(opts)
    : new undici.EnvHttpProxyAgent({
        ...opts,
        httpProxy: env.http_proxy ?? env.HTTP_PROXY ?? '',
        httpsProxy: env.https_proxy ?? env.HTTPS_PROXY ?? '',
        noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
        clientFactory: tunnelPoolFactory(undici.Pool, options.timeoutMs),
      } as ConstructorParameters<typeof undici.EnvHttpProxyAgent>[0]);
}

/**
 * The request, or a rejection as soon as `signal` aborts. undici only acts on an abort once the
 * request is on a socket: one still waiting for its connection (a proxy tunnel that never opens)
 * ignored Ctrl-C and the deadline. The abandoned request is dropped with the dispatcher (close()).
 */
function settleOnAbort<T extends Dispatcher.ResponseData>(
  pending: Promise<T>,
  signal: AbortSignal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error('aborted'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (res) => {
        signal.removeEventListener('abort', onAbort);
        // Settled after the abort: nobody reads this body.
        if (signal.aborted) res.body.destroy();
        resolve(res);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
