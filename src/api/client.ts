// The one HTTP client: auth header, timeouts, retries with backoff, rate-limit pacing, error envelopes
// and response validation. Every API call of mtg goes through ApiClient.request(), a loop of
// attempts (attempt(): hooks, the limiter's turn, one exchange through the Transport) whose every
// next step is decide()'s (decide.ts, pure); the body is decoded apart (decode.ts), and every word
// it says is errors.ts's.

import type { z } from 'zod';
import { type Clock, realClock } from '../shared/clock.js';
import { InterruptedError } from '../shared/errors.js';
import { stringifyExact } from '../shared/exact.js';
import { decide, type Outcome, type RequestFacts, type Tries } from './decide.js';
import { decodeBody } from './decode.js';
import {
  type ApiError,
  clientLog,
  clientWarning,
  RateLimitExhaustedError,
  refusedOriginError,
  waitAfterRefusalError,
} from './errors.js';
import { type Attempt, RequestHooks } from './hooks.js';
import {
  parseRateLimitHeaders,
  parseRetryAfter,
  RateLimiter,
  type RateLimitHeaders,
  type Ticket,
  type WaitInfo,
} from './ratelimit.js';
import { fileReports } from './ratelimit-file.js';
import { mayHaveReachedServer } from './retry.js';
import type { UnlistedCheck } from './schemas.js';
import { exchange, headerValue, type Transport, undiciTransport } from './transport.js';
import { endpointUrl, type Query } from './url.js';

// Moved with the loop's split; imported from here by tests and callers.
export { apiErrorFrom, MAX_RESPONSE_BYTES, ResponseTooLargeError } from './errors.js';

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
  /** The backoff's and Retry-After's waits, the attempts' deadlines, the limiter's time (default: the real one). */
  clock?: Clock;
  /** How requests travel (default: undici, with the proxy variables of `env`). */
  transport?: Transport;
  /** The data folder: the limiter shares its reports with other mtg processes on this key there (ratelimit-file.ts). */
  dataDir?: string;
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

export class ApiClient {
  readonly limiter: RateLimiter;
  /** Subscribe to see, count or refuse each HTTP attempt (hooks.ts); each returns its unsubscribe. */
  readonly hooks = new RequestHooks((err) => this.options.warn?.(clientWarning.hookFailed(err)));
  private readonly transport: Transport;
  private readonly clock: Clock;
  private plainHeaders: Record<string, string> | undefined;
  private jsonHeaders: Record<string, string> | undefined;
  private readonly random: () => number;
  private warnedUnlisted = false;
  /** Writes (any method but GET/HEAD) the server answered with 2xx: they were applied. */
  appliedWrites = 0;

  constructor(readonly options: ClientOptions) {
    this.random = options.random ?? Math.random;
    this.clock = options.clock ?? realClock;
    this.transport = options.transport ?? undiciTransport(options);
    // The limiter reads the same clock; its waits go through the client's sleep (Ctrl-C rejects).
    const limiterOptions = {
      maxWaitMs: options.maxWaitMs,
      onWait: options.onWait,
      clock: this.clock,
      sleep: (ms: number, cancel?: AbortSignal) => this.sleep(ms, cancel),
      shared: options.limiterOf || !options.dataDir ? undefined : this.sharedReports(options.dataDir),
    };
    this.limiter = options.limiterOf?.limiter ?? new RateLimiter(limiterOptions);
  }

  private sharedReports(dataDir: string) {
    const { baseUrl, apiKey, log } = this.options;
    return fileReports({ dataDir, origin: baseUrl.origin, apiKey, clock: this.clock, onTrouble: log });
  }

  get baseUrl(): URL {
    return this.options.baseUrl;
  }

  async request<S extends z.ZodType = z.ZodType<unknown>>(
    req: RequestOptions<S>,
  ): Promise<ApiResponse<z.output<S>>> {
    const url = req.url ?? endpointUrl(this.options.baseUrl, req.path ?? '/', req.query);
    // The key goes only to the configured origin.
    if (url.origin !== this.options.baseUrl.origin) throw refusedOriginError(url, this.options.baseUrl);
    // Loaded before the request takes its turn in the limiter (exchange() awaits it too, before
    // its deadline): a loaded machine takes a while.
    await this.transport.ready();
    // stringifyExact: an ID beyond 2^53 (exactId) is sent as its digits, not rounded.
    const body = req.body === undefined ? undefined : stringifyExact(req.body);
    const facts: RequestFacts = {
      method: req.method,
      url,
      maxRetries: this.options.maxRetries,
      timeoutMs: this.options.timeoutMs,
      env: this.options.env ?? {},
      random: this.random,
    };
    // An earlier try may have been applied (answered other than 429, or cut off after it may have
    // reached the server): Ctrl-C while waiting to try again says so; after only 429s it says
    // nothing was applied (a batch reports the item not sent, src/cli/bulk.ts).
    let mayHaveApplied = false;
    try {
      return await this.attemptUntilDone(req, url, facts, body, () => {
        mayHaveApplied = true;
      });
    } catch (err) {
      throw mayHaveApplied && err instanceof InterruptedError && !err.sent ? new InterruptedError(true) : err;
    }
  }

  /** request()'s loop of attempts; `sentMaybeApplied` is told of each try that may have been applied. */
  private async attemptUntilDone<S extends z.ZodType>(
    req: RequestOptions<S>,
    url: URL,
    facts: RequestFacts,
    body: string | undefined,
    sentMaybeApplied: () => void,
  ): Promise<ApiResponse<z.output<S>>> {
    const what = `${req.method} ${url.pathname}`;
    let tries: Tries = { retries: 0, refusals: 0 };
    let ticket: Ticket | undefined;
    // The 429 just waited out, if the last attempt was one (for --max-wait's message).
    let refusal: ApiError | undefined;
    // Bounded: each pass returns, throws, spends a retry, or is a 429 (at most MAX_REFUSALS, each
    // waited out within --max-wait).
    for (;;) {
      let outcome: Outcome;
      let rate: RateLimitHeaders | undefined;
      [outcome, ticket, rate] = await this.attempt(req.method, url, body, ticket?.order, refusal);
      if (mayHaveBeenApplied(outcome)) sentMaybeApplied();
      const decision = decide(outcome, tries, facts);
      // The limiter hears how it ended in one call: the answer's report and, for a 429 waited out,
      // that the server did not count it and everyone waits (it keeps its place: acquire(order)).
      if (rate) this.limiter.observe(ticket, rate, decision.action === 'wait' ? decision.seconds : undefined);
      if (decision.action === 'return')
        return this.answer(outcome as Outcome & { kind: 'answered' }, req, url);
      if (decision.action === 'fail') {
        if (decision.applied) this.appliedWrites++;
        throw decision.error;
      }
      if (decision.action === 'retry') {
        this.log(clientLog.retrying(what, decision.afterMs));
        await this.sleep(decision.afterMs);
      } else {
        // Refused before it was applied: the limiter holds everyone (within --max-wait), and the
        // next attempt sends it again in its turn.
        this.log(clientLog.rateLimited(what, decision.seconds));
      }
      refusal = decision.action === 'wait' ? decision.error : undefined;
      tries = decision.tries;
    }
  }

  /**
   * One attempt: the hooks, the limiter's turn (`order` keeps a retried request's place), one
   * exchange, and the hooks told how it ended; an answer's rate-limit report is returned for the
   * limiter, which hears it with the decision (request()).
   */
  private async attempt(
    method: string,
    url: URL,
    body: string | undefined,
    order: number | undefined,
    refusal: ApiError | undefined,
  ): Promise<[Outcome, Ticket, RateLimitHeaders?]> {
    this.throwIfAborted();
    const hooked: Attempt = { method, url };
    try {
      this.hooks.runBefore(hooked);
    } catch (err) {
      this.hooks.runAfter(hooked, { kind: 'not-sent', error: err });
      throw err;
    }
    const ticket = await this.limiter.acquire(order).catch((err: unknown) => {
      this.hooks.runAfter(hooked, { kind: 'not-sent', error: err });
      throw refusal && err instanceof RateLimitExhaustedError ? waitAfterRefusalError(refusal, err) : err;
    });
    this.hooks.runSent(hooked);
    const what = `${method} ${url.pathname}`;
    const started = this.clock.now();
    const request = { url, method, headers: this.headers(body !== undefined), body, what };
    const sent = await exchange(
      this.transport,
      { ...request, timeoutMs: this.options.timeoutMs },
      this.clock,
      this.options.signal,
    );
    // -v shows the filters sent too; a query parameter named like a secret is never shown.
    const shown = () => `${what}${redactedSearch(url)}`;
    if (sent.kind !== 'answered') {
      this.limiter.settle(ticket);
      this.hooks.runAfter(hooked, { kind: 'failed' });
      // Cut off in flight: it may have reached the server.
      if (this.options.signal?.aborted) throw new InterruptedError(true);
      if (sent.kind === 'failed' && this.options.log)
        this.log(clientLog.failed(shown(), sent.failure.code, this.clock.now() - started));
      return [sent, ticket];
    }
    const get = (name: string) => headerValue(sent.headers[name]);
    const now = this.clock.now();
    const rate = parseRateLimitHeaders(get);
    this.hooks.runAfter(hooked, { kind: 'answered', status: sent.status, rate });
    // Built only under --verbose: this runs for every page of an export.
    if (this.options.log) this.log(clientLog.answered(shown(), sent.status, now - started, rate));
    return [{ ...sent, retryAfter: parseRetryAfter(get('retry-after'), now) }, ticket, rate];
  }

  /** A 2xx: the write counted as applied, the body decoded and validated. */
  private answer<S extends z.ZodType>(
    outcome: Outcome & { kind: 'answered' },
    req: RequestOptions<S>,
    url: URL,
  ): ApiResponse<z.output<S>> {
    const { status, headers, text } = outcome;
    const what = `${req.method} ${url.pathname}`;
    const write = req.method !== 'GET' && req.method !== 'HEAD';
    if (write) this.appliedWrites++;
    if (write && text.trim() === '') {
      this.log(clientLog.noBody(what, status));
      return { status, data: undefined as z.output<S>, headers, url, noBody: true };
    }
    const decoded = decodeBody(text, what, {
      schema: req.schema,
      unlisted: this.warnedUnlisted ? undefined : req.unlisted,
      warn: this.options.warn,
    });
    // One warning per command run, however many items hold unlisted values.
    if (decoded.unlisted) {
      this.warnedUnlisted = true;
      this.options.warn?.(clientWarning.unlisted(what, decoded.unlisted));
    }
    return { status, data: decoded.data as z.output<S>, headers, url };
  }

  /**
   * Drop keep-alive sockets so the process can exit promptly.
   */
  async close(): Promise<void> {
    await this.transport.close();
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

  /** Sleeps `ms` on the client's clock, or less when `cancel` aborts; Ctrl-C rejects. */
  private async sleep(ms: number, cancel?: AbortSignal): Promise<void> {
    this.throwIfAborted();
    const signal = this.options.signal;
    // One signal for both, unhooked after: the run's signal lives as long as the command.
    const woken = new AbortController();
    const wake = () => woken.abort();
    signal?.addEventListener('abort', wake, { once: true });
    cancel?.addEventListener('abort', wake, { once: true });
    try {
      await this.clock.sleep(ms, woken.signal);
    } finally {
      signal?.removeEventListener('abort', wake);
      cancel?.removeEventListener('abort', wake);
    }
    this.throwIfAborted();
  }

  private throwIfAborted(): void {
    if (this.options.signal?.aborted) throw new InterruptedError();
  }

  private log(line: string): void {
    this.options.log?.(line);
  }
}

/** Whether a try's end leaves the request possibly applied: anything but a 429 or a failure before the server. */
function mayHaveBeenApplied(outcome: Outcome): boolean {
  if (outcome.kind === 'answered') return outcome.status !== 429;
  return outcome.kind !== 'failed' || mayHaveReachedServer(outcome.failure.code);
}

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
