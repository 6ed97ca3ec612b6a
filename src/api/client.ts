// The one HTTP client: auth header, timeouts, retries with backoff, rate-limit pacing, error envelopes
// and response validation. Every API call of mtg goes through ApiClient.request().

import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { ExitCode, InterruptedError, MtgError } from '../shared/errors.js';
import { parseJsonExact, stringifyExact } from '../shared/exact.js';
import { sanitizeOneLine } from '../shared/sanitize.js';
import { boundDepth, MAX_JSON_DEPTH } from './depth.js';
import {
  ApiError,
  type ApiIssue,
  NetworkError,
  RateLimitExhaustedError,
  ResponseShapeError,
  WRITE_MAY_HAVE_BEEN_APPLIED,
} from './errors.js';
import { type Attempt, RequestHooks } from './hooks.js';
import { ProxyError, proxyFor, refusedTunnelStatus, tunnelPoolFactory } from './proxy.js';
import { parseRateLimitHeaders, parseRetryAfter, RateLimiter, type WaitInfo } from './ratelimit.js';
import {
  backoffMs,
  isCertificateError,
  isIdempotent,
  mayHaveReachedServer,
  retryAfterJitterMs,
  shouldRetryNetworkError,
  shouldRetryStatus,
} from './retry.js';
import type { UnlistedCheck } from './schemas.js';
import { endpointUrl, isLoopbackHost, type Query } from './url.js';

export interface ClientOptions {
  baseUrl: URL;
  apiKey: string;
  userAgent: string;
  timeoutMs: number;
  maxRetries: number;
  maxWaitMs: number;
  /** One line per request, status, timing and rate-limit state (--verbose). Never given the key. */
  log?: (line: string) => void;
  /** Warnings for people (stderr, even with --quiet): an enum value the spec does not list. */
  warn?: (line: string) => void;
  /** Rate-limit waits, for the spinner or a stderr line. */
  onWait?: (info: WaitInfo) => void;
  /** Aborts in-flight requests and waits (Ctrl-C). */
  signal?: AbortSignal;
  random?: () => number;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (the run's env); none given: no proxy. */
  env?: Record<string, string | undefined>;
  /** Pace with another client's limiter (one account's windows), keeping this client's own hooks. */
  limiterOf?: ApiClient;
}

export interface RequestOptions<S extends z.ZodType = z.ZodType> {
  method: string;
  /** An endpoint path under the base URL... */
  path?: string;
  query?: Query;
  /** ...or an absolute URL (a Link rel="next" target), which must be on the base URL's origin. */
  url?: URL;
  body?: unknown;
  schema?: S;
  /** Finds an enum value the spec does not list in a valid body: warned about once per client. */
  unlisted?: UnlistedCheck;
}

export interface ApiResponse<T> {
  status: number;
  /** The body exactly as the server sent it (validated against the schema when one was given). */
  data: T;
  headers: Record<string, string | string[] | undefined>;
  url: URL;
  /**
   * A write answered 2xx with no body (204, or 200/201 empty): the write was applied and `data` is
   * undefined. The spec does not show success statuses, and any 2xx is success (assumptions.ts).
   */
  noBody?: boolean;
}

// Only the dispatchers: the build bundles a lean undici without the top-level helpers (fetch, ...).
type Undici = Pick<typeof import('undici'), 'Agent' | 'EnvHttpProxyAgent' | 'Pool'>;
let undiciModule: Promise<Undici> | undefined;
// undici is loaded on the first request, not at start-up (`mtg --help` never needs it).
const loadUndici = () => {
  // undici is CommonJS: in the split bundle its exports arrive as the default export.
  undiciModule ??= import('undici').then((m) => ('Agent' in m ? m : (m as { default: Undici }).default));
  return undiciModule;
};

/** A 429 is waited out, not counted as a retry; this only bounds a server that never stops. */
const MAX_REFUSALS = 1000;
/** A 429 with Retry-After: 0 still waits a little, so that a storm of them cannot spin. */
const MIN_REFUSAL_WAIT_S = 0.05;

export class ApiClient {
  readonly limiter: RateLimiter;
  /** Subscribe to see, count or refuse each HTTP attempt (hooks.ts); each returns its unsubscribe. */
  readonly hooks = new RequestHooks((err) =>
    this.options.warn?.(
      `warning: a request hook failed: ${sanitizeOneLine(err instanceof Error ? err.message : String(err))}`,
    ),
  );
  private dispatcher: Dispatcher | undefined;
  private plainHeaders: Record<string, string> | undefined;
  private jsonHeaders: Record<string, string> | undefined;
  private readonly random: () => number;
  private warnedUnlisted = false;
  /** Writes (any method but GET/HEAD) the server answered with 2xx: they were applied. */
  appliedWrites = 0;

  constructor(readonly options: ClientOptions) {
    // A client is built only to send requests: start loading undici now, while the caller loads
    // what else it needs (list.ts), rather than at the first request. A failure surfaces there.
    loadUndici().catch(() => undefined);
    this.random = options.random ?? Math.random;
    this.limiter =
      options.limiterOf?.limiter ??
      new RateLimiter({
        maxWaitMs: options.maxWaitMs,
        onWait: options.onWait,
        sleep: (ms, cancel) => this.sleep(ms, cancel),
      });
  }

  get baseUrl(): URL {
    return this.options.baseUrl;
  }

  async request<S extends z.ZodType = z.ZodType<unknown>>(
    req: RequestOptions<S>,
  ): Promise<ApiResponse<z.output<S>>> {
    const url = req.url ?? endpointUrl(this.options.baseUrl, req.path ?? '/', req.query);
    if (url.origin !== this.options.baseUrl.origin) {
      // The key goes only to the configured origin.
      throw new MtgError(
        `Refusing to follow a link to ${url.origin}: it is not the configured origin ${this.options.baseUrl.origin}`,
        ExitCode.api,
      );
    }
    const what = `${req.method} ${url.pathname}`;
    // -v shows the filters sent too; a query parameter named like a secret is never shown.
    const shown = this.options.log ? `${req.method} ${url.pathname}${redactedSearch(url)}` : what;
    const undici = await loadUndici();
    const dispatcher = this.getDispatcher(undici);
    // stringifyExact: an ID beyond 2^53 (exactId) is sent as its digits, not rounded.
    const body = req.body === undefined ? undefined : stringifyExact(req.body);
    const maxRetries = this.options.maxRetries;
    // Tries that count against --max-retries; a 429 is waited out instead and does not count.
    let attempt = 0;
    let refusals = 0;
    let order: number | undefined;
    let lastError: MtgError | undefined;
    const write = req.method !== 'GET' && req.method !== 'HEAD';
    // A write the server answered 2xx whose body then failed: it was most likely applied.
    let acceptedStatus: number | undefined;

    // Bounded: each pass returns, throws, spends a retry, or is a 429 (at most MAX_REFUSALS, each
    // waited out within --max-wait).
    for (;;) {
      this.throwIfAborted();
      const hooked: Attempt = { method: req.method, url };
      try {
        this.hooks.runBefore(hooked);
      } catch (err) {
        this.hooks.runAfter(hooked, { kind: 'not-sent', error: err });
        throw err;
      }
      const ticket = await this.limiter.acquire(order).catch((err: unknown) => {
        this.hooks.runAfter(hooked, { kind: 'not-sent', error: err });
        // --max-wait ends the wait after a 429: say what the server said too.
        if (
          err instanceof RateLimitExhaustedError &&
          lastError instanceof ApiError &&
          lastError.status === 429
        )
          throw new RateLimitExhaustedError(`${lastError.message} — ${err.message}`);
        throw err;
      });
      order = ticket.order;
      this.hooks.runSent(hooked);
      const started = performance.now();
      let res: Dispatcher.ResponseData | undefined;
      let text: string;
      // undici's headersTimeout starts once the request is on a socket, and its bodyTimeout starts
      // again with every chunk: neither bounds a connection that never completes or a body that
      // trickles. This deadline bounds the whole attempt, from connecting to the body's last byte.
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), this.options.timeoutMs);
      const signal = this.options.signal
        ? AbortSignal.any([this.options.signal, deadline.signal])
        : deadline.signal;
      try {
        // Dispatcher.request (what undici.request calls): the build bundles a lean undici that
        // has the dispatchers but not the top-level helpers (scripts/build.mjs).
        res = await settleOnAbort(
          dispatcher.request({
            origin: url.origin,
            path: `${url.pathname}${url.search}`,
            method: req.method as Dispatcher.HttpMethod,
            headers: this.headers(body !== undefined),
            body,
            headersTimeout: this.options.timeoutMs,
            bodyTimeout: this.options.timeoutMs,
            signal,
          }),
          signal,
        );
        text = await bodyText(res, signal, what);
        clearTimeout(timer);
      } catch (err) {
        clearTimeout(timer);
        this.limiter.settle(ticket);
        this.hooks.runAfter(hooked, { kind: 'failed' });
        this.throwIfAborted();
        if (err instanceof ResponseTooLargeError) throw err;
        const code = deadline.signal.aborted
          ? res
            ? 'UND_ERR_BODY_TIMEOUT'
            : 'UND_ERR_HEADERS_TIMEOUT'
          : errorCode(err);
        // A proxy that answers CONNECT with an error status will answer the same again.
        const refused = refusedTunnelStatus(err);
        if (write && res && res.statusCode >= 200 && res.statusCode < 300) acceptedStatus = res.statusCode;
        const problem =
          acceptedStatus !== undefined
            ? `the server answered HTTP ${acceptedStatus} but ${
                deadline.signal.aborted
                  ? `its body did not arrive within ${this.options.timeoutMs / 1000} s (--timeout)`
                  : 'its body was cut off'
              }; ${WRITE_MAY_HAVE_BEEN_APPLIED}`
            : refused === undefined
              ? describeNetworkError(
                  err,
                  this.options.timeoutMs,
                  code,
                  proxyFor(url, this.options.env ?? {}),
                  url,
                ) +
                // Not sent again (retry.ts): whoever runs it again must know it may have been applied.
                (write && !isIdempotent(req.method) && mayHaveReachedServer(code)
                  ? `; ${WRITE_MAY_HAVE_BEEN_APPLIED}`
                  : '')
              : `the proxy at ${proxyFor(url, this.options.env ?? {}) ?? 'the configured proxy'} refused the tunnel (HTTP ${refused})`;
        lastError = new NetworkError(
          `${what} failed: ${problem} (after ${attempt + 1} ${attempt ? 'tries' : 'try'})`,
          code,
        );
        this.log(`${shown} -> ${code ?? 'network error'} after ${elapsed(started)}`);
        if (
          attempt < maxRetries &&
          refused === undefined &&
          shouldRetryNetworkError(req.method, code, attempt)
        ) {
          await this.backoff(attempt++, what);
          continue;
        }
        if (acceptedStatus !== undefined) this.appliedWrites++;
        throw lastError;
      }

      const get = (name: string) => headerValue(res.headers[name]);
      const rate = parseRateLimitHeaders(get);
      this.limiter.observe(ticket, rate);
      this.hooks.runAfter(hooked, { kind: 'answered', status: res.statusCode, rate });
      // Built only under --verbose: this runs for every page of an export.
      if (this.options.log) {
        this.log(
          `${shown} -> ${res.statusCode} in ${elapsed(started)}` +
            (rate.remaining !== undefined
              ? ` (rate limit ${rate.remaining}/${rate.limit ?? '?'} left, resets in ${rate.reset ?? '?'} s)`
              : ''),
        );
      }

      if (res.statusCode >= 200 && res.statusCode < 300) {
        if (write) this.appliedWrites++;
        if (write && text.trim() === '') {
          this.log(`${what}: the server returned no body (HTTP ${res.statusCode}); the write was applied`);
          return {
            status: res.statusCode,
            data: undefined as z.output<S>,
            headers: res.headers,
            url,
            noBody: true,
          };
        }
        const data = parseJson(this.withinDepth(text, what), what);
        if (req.schema) validate(req.schema, data, what);
        if (req.unlisted && !this.warnedUnlisted) this.warnUnlisted(req.unlisted(data), what);
        return { status: res.statusCode, data: data as z.output<S>, headers: res.headers, url };
      }

      const retryAfter = parseRetryAfter(get('retry-after'), Date.now());
      lastError = apiErrorFrom(res.statusCode, text, retryAfter, req.method, url.pathname);
      if (res.statusCode >= 300 && res.statusCode < 400) {
        // Redirects are not followed: the key must not travel to wherever Location points.
        throw new ApiError(
          res.statusCode,
          undefined,
          `${what} answered with a redirect (${res.statusCode}) to ${get('location') ?? 'nowhere'}; redirects are not followed`,
          [],
          undefined,
          req.method,
          url.pathname,
        );
      }
      if (res.statusCode === 429) {
        // Refused before it was applied: wait it out (the limiter holds everyone, within
        // --max-wait) and send it again in its turn. It spends no retry.
        if (++refusals > MAX_REFUSALS) {
          throw new RateLimitExhaustedError(
            `${lastError.message} — still rate-limited after ${refusals} refusals`,
          );
        }
        const seconds =
          Math.max(
            retryAfter ?? backoffMs(Math.min(refusals - 1, 5), this.random) / 1000,
            MIN_REFUSAL_WAIT_S,
          ) +
          retryAfterJitterMs(this.random) / 1000;
        this.log(`${what}: rate-limited, waiting ${seconds.toFixed(1)} s`);
        this.limiter.refused(ticket, seconds);
        continue;
      }
      if (attempt < maxRetries && shouldRetryStatus(req.method, res.statusCode)) {
        await this.backoff(attempt++, what);
        continue;
      }
      if (res.statusCode >= 500 && !isIdempotent(req.method)) {
        // Not sent again (retry.ts), and a server error may come after the write was applied.
        throw new ApiError(
          res.statusCode,
          (lastError as ApiError).code,
          `${what} failed with HTTP ${res.statusCode}: ${lastError.message}; ${WRITE_MAY_HAVE_BEEN_APPLIED}`,
          (lastError as ApiError).issues,
          retryAfter,
          req.method,
          url.pathname,
        );
      }
      if (attempt > 0) {
        throw new ApiError(
          res.statusCode,
          (lastError as ApiError).code,
          // Name the request: the server's own message ("internal error") does not say which one.
          `${lastError.message.startsWith(what) ? '' : `${what} failed with HTTP ${res.statusCode}: `}${lastError.message} (after ${attempt + 1} tries)`,
          (lastError as ApiError).issues,
          retryAfter,
          req.method,
          url.pathname,
        );
      }
      throw lastError;
    }
  }

  /**
   * Drop keep-alive sockets so the process can exit promptly. destroy(), not close(): close()
   * waits for queued requests, and after Ctrl-C or a failed connection undici may still hold one.
   */
  async close(): Promise<void> {
    const d = this.dispatcher;
    this.dispatcher = undefined;
    if (d) await d.destroy().catch(() => undefined);
  }

  // Built once per client, not per request (undici only reads them).
  private headers(hasBody: boolean): Record<string, string> {
    if (!this.plainHeaders) {
      this.plainHeaders = {
        authorization: `Bearer ${this.options.apiKey}`,
        accept: 'application/json',
        'user-agent': this.options.userAgent,
      };
      this.jsonHeaders = { ...this.plainHeaders, 'content-type': 'application/json' };
    }
    return hasBody ? this.jsonHeaders! : this.plainHeaders;
  }

  private getDispatcher(undici: Undici): Dispatcher {
    if (!this.dispatcher) {
      const opts = {
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        connections: 16,
      };
      // Loopback never goes through a proxy; elsewhere HTTPS_PROXY/HTTP_PROXY/NO_PROXY are honored.
      // The tunnel's own pool is bounded (proxy.ts): a proxy that drops CONNECT fails the attempt.
      // The variables are given explicitly ('' = none): undici would read process.env otherwise.
      const env = this.options.env ?? {};
      this.dispatcher = isLoopbackHost(this.options.baseUrl.hostname)
        ? new undici.Agent(opts)
        : new undici.EnvHttpProxyAgent({
            ...opts,
            httpProxy: env.http_proxy ?? env.HTTP_PROXY ?? '',
            httpsProxy: env.https_proxy ?? env.HTTPS_PROXY ?? '',
            noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
            clientFactory: tunnelPoolFactory(undici.Pool, this.options.timeoutMs),
          } as ConstructorParameters<typeof undici.EnvHttpProxyAgent>[0]);
    }
    return this.dispatcher;
  }

  private async backoff(attempt: number, what: string): Promise<void> {
    const ms = backoffMs(attempt, this.random);
    this.log(`${what}: retrying in ${ms} ms`);
    await this.sleep(ms);
  }

  /** Sleeps `ms`, or less when `cancel` aborts; Ctrl-C rejects. */
  private sleep(ms: number, cancel?: AbortSignal): Promise<void> {
    const signal = this.options.signal;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new InterruptedError());
      const timer = setTimeout(done, ms);
      function cleanup() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        cancel?.removeEventListener('abort', done);
      }
      function done() {
        cleanup();
        resolve();
      }
      function onAbort() {
        cleanup();
        reject(new InterruptedError());
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      cancel?.addEventListener('abort', done, { once: true });
    });
  }

  private throwIfAborted(): void {
    if (this.options.signal?.aborted) throw new InterruptedError();
  }

  /**
   * The body, bounded in depth before it is parsed (src/api/depth.ts): an element of a list nested
   * too deep is left out with a warning naming it (the rest of the page is used); any other body
   * nested too deep does not match the spec.
   */
  private withinDepth(text: string, what: string): string {
    const bounded = boundDepth(text);
    if (bounded === undefined) return text;
    const problem = `nested deeper than ${MAX_JSON_DEPTH} levels`;
    if (bounded === 'too-deep') throw new ResponseShapeError(what, [`(body): ${problem}`]);
    for (const index of bounded.dropped) {
      this.options.warn?.(
        `warning: unexpected response from ${what}: item [${index}] of the page does not match the API spec (${problem}); it is left out`,
      );
    }
    return bounded.text;
  }

  /** One warning per command run, however many items hold unlisted values. */
  private warnUnlisted(found: string | undefined, what: string): void {
    if (!found) return;
    this.warnedUnlisted = true;
    this.options.warn?.(
      // The value is the server's text: through the one sanitizer, shortened.
      `warning: ${what} returned a value the API spec does not list (${sanitizeOneLine(found.slice(0, 80))}); ` +
        'values like it are printed as they came (this warning is shown once)',
    );
  }

  private log(line: string): void {
    this.options.log?.(line);
  }
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

/** The body's text, cut off (the body destroyed) when `signal` aborts: the deadline covers the last byte. */
/**
 * The largest response body mtg reads: far above any real page (a page of 100 meetings with long
 * notes is a few MB), and low enough that the process never holds more than a few hundred MB for
 * one (the bytes, then the text, then the parsed objects). A 400 MB page grew it to 3.4 GB.
 */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** A response body over MAX_RESPONSE_BYTES: not read further, not retried (it would be as large again). */
export class ResponseTooLargeError extends MtgError {
  constructor(what: string, declaredBytes: number | undefined) {
    super(
      `${what} answered with a body ${
        declaredBytes === undefined ? 'of more than' : `of ${megabytes(declaredBytes)} (Content-Length), over`
      } ${megabytes(MAX_RESPONSE_BYTES)}, the most mtg reads in one response; stopped reading it`,
      ExitCode.api,
    );
  }
}

function megabytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0
    ? `${bytes / (1024 * 1024)} MiB`
    : `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/**
 * The body as text, its bytes counted as they arrive: past MAX_RESPONSE_BYTES (or a Content-Length
 * above it) the connection is dropped before more is read. Decoded as undici's text() does (UTF-8,
 * a leading BOM skipped).
 */
async function bodyText(res: Dispatcher.ResponseData, signal: AbortSignal, what: string): Promise<string> {
  const declared = Number(headerValue(res.headers['content-length']) ?? Number.NaN);
  if (declared > MAX_RESPONSE_BYTES) {
    res.body.destroy();
    throw new ResponseTooLargeError(what, declared);
  }
  const stop = () => res.body.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
  if (signal.aborted) stop();
  signal.addEventListener('abort', stop, { once: true });
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_RESPONSE_BYTES) {
        res.body.destroy();
        throw new ResponseTooLargeError(what, undefined);
      }
      chunks.push(chunk);
    }
    return utf8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
  } finally {
    signal.removeEventListener('abort', stop);
  }
}
const utf8 = new TextDecoder();

/** Query parameters whose value is never printed (-v): a key or token sent in the URL. */
const SECRET_PARAM = /key|token|secret|passw|auth|signature|session|credential/i;

/** The URL's query for -v, each parameter named like a secret shown as "***". */
export function redactedSearch(url: URL): string {
  if (url.search === '') return '';
  const parts: string[] = [];
  for (const [name, value] of url.searchParams) {
    const shown = SECRET_PARAM.test(name) ? '***' : value;
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(shown).replaceAll('%2C', ',')}`);
  }
  return `?${parts.join('&')}`;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function elapsed(started: number): string {
  return `${Math.round(performance.now() - started)} ms`;
}

function errorCode(err: unknown): string | undefined {
  if (err && typeof err === 'object') {
    const e = err as { code?: unknown; cause?: { code?: unknown } };
    if (typeof e.code === 'string') return e.code;
    if (e.cause && typeof e.cause.code === 'string') return e.cause.code;
  }
  return undefined;
}

function describeNetworkError(
  err: unknown,
  timeoutMs: number,
  code: string | undefined,
  proxy: string | undefined,
  url: URL,
): string {
  if (err instanceof ProxyError) return err.message;
  const through = proxy ? ` through the proxy at ${proxy}` : '';
  if (code === 'UND_ERR_HEADERS_TIMEOUT')
    return `no answer within ${timeoutMs / 1000} s (--timeout)${through}`;
  // The server did answer, but its body never finished (or trickled): say so, not "no answer".
  if (code === 'UND_ERR_BODY_TIMEOUT') {
    return `the answer did not arrive in full within ${timeoutMs / 1000} s (--timeout)${through}`;
  }
  if (code === 'ECONNREFUSED') return `connection refused by ${url.host} (is the server running?)`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'the connection was dropped';
  if (code === 'ENOTFOUND') return `host not found: ${url.hostname} does not resolve (check the base URL)`;
  const message = sanitizeOneLine((err instanceof Error ? err.message : String(err)).split('\n')[0]!);
  if (code !== undefined && isCertificateError(code)) {
    return `the TLS certificate of ${url.host} was refused: ${message} (${code})`;
  }
  return message;
}

function parseJson(text: string, what: string): unknown {
  if (text === '') return undefined;
  try {
    return parseJsonExact(text);
  } catch {
    throw new ResponseShapeError(what, ['the body is not valid JSON']);
  }
}

function validate(schema: z.ZodType, data: unknown, what: string): void {
  // validate() answers yes/no without building the parsed copy that safeParse returns (we return
  // the body as sent, so that copy was garbage: ~300,000 objects for a 100,000-item export); a
  // schema made with z.compile() (paginate.ts) answers from generated code. Only a rejected body
  // is parsed again, for the issues.
  if (schema.validate(data)) return;
  const result = schema.safeParse(data);
  if (result.success) return;
  const problems = result.error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.length
      ? issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')
      : '(body)';
    return `${path.replace(/^\./, '')}: ${issue.message}`;
  });
  if (result.error.issues.length > 5) problems.push(`…and ${result.error.issues.length - 5} more`);
  throw new ResponseShapeError(what, problems);
}

/** Build the error from the envelope; tolerate servers (or proxies) that send something else. */
export function apiErrorFrom(
  status: number,
  text: string,
  retryAfter: number | undefined,
  method: string,
  path: string,
): ApiError {
  let code: string | undefined;
  let message = `${method} ${path} failed with HTTP ${status}`;
  let issues: ApiIssue[] = [];
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    if (body && typeof body === 'object') {
      if (typeof body.code === 'string') code = body.code;
      if (typeof body.error === 'string' && body.error) message = body.error;
      if (Array.isArray(body.issues)) {
        issues = body.issues
          .filter((i): i is Record<string, unknown> => !!i && typeof i === 'object')
          .map((i) => ({ message: String(i.message ?? ''), path: String(i.path ?? '') }));
      }
    }
  } catch {
    // Not the envelope (a proxy's HTML page, say): keep the generic message.
  }
  const hint = status === 401 ? ' (check the API key: `mtg auth status`)' : '';
  return new ApiError(status, code, `${message}${hint}`, issues, retryAfter, method, path);
}
