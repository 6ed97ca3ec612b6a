// The HTTP side of the sandbox (node:http only): auth, rate limits, faults, latency, recording,
// body parsing and the error envelope around the pure handlers.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { PLAN_LIMITS, PLANS, type Plan } from '../api/assumptions.js';
import type { Clock } from '../shared/clock.js';
import { Churner, type ChurnReport, parseChurn, type SandboxSnapshot, snapshotOf } from './churn.js';
import { Paginator } from './cursor.js';
import { generateStore, type Sizes } from './data.js';
import { ApiError, envelope, validationError } from './errors.js';
import { FaultPicker, parseFaults } from './faults.js';
import type { Reply } from './handlers/context.js';
import type { Store } from './model.js';
import {
  describeWindow,
  type LimitWindow,
  parseLimits,
  type RateDecision,
  RateLimiter,
} from './ratelimit.js';
import { matchRoute } from './routes.js';

export interface SandboxOptions {
  port?: number;
  host?: string;
  plan?: Plan;
  /** e.g. "5/1s,40/10s": replaces the plan's windows; "none" disables limiting. */
  limits?: string;
  /** What the rate-limit windows count time by (default: the real clock); tests pass a virtual one. */
  clock?: Clock;
  seed?: number;
  pageSize?: number;
  /** Delay added to each response; timers, so other requests are not blocked. */
  latencyMs?: number;
  /** e.g. "500:0.05,reset:0.02,stall:0.01". */
  faults?: string;
  sizes?: Partial<Sizes>;
  /** Serve this store (e.g. loadDataFile's) instead of generating one from the seed and sizes. */
  store?: Store;
  /** Path prefix such as "/v1" (default ""). */
  basePath?: string;
  /** Accepted keys, all of one account. Default: one random key per run (never derived from the seed,
   * which anyone can know). */
  apiKeys?: string[];
  /** e.g. "2/1s": rounds of data changes while serving (see churn.ts); absent: the data only changes
   * through the API and `churn()`. */
  churn?: string;
}

export interface RecordedRequest {
  method: string;
  /** Pathname as received, including any base path. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, the raw text when it was not JSON, undefined when empty. */
  body: unknown;
  /** Status sent; 0 while pending or when the connection was reset on purpose. */
  status: number;
  at: number;
  /**
   * How many other requests the sandbox was still answering (received, response not yet over)
   * when this one arrived: what was in flight together, without reading clocks (tests).
   */
  inFlight: number;
}

export interface Sandbox {
  baseUrl: string;
  apiKey: string;
  /** Accepted syntactically but answered with 403 FORBIDDEN: `${apiKey}${REVOKED_KEY_SUFFIX}`. */
  revokedApiKey: string;
  plan: Plan;
  requests: RecordedRequest[];
  count429: number;
  /** Applies `rounds` rounds of data changes now (deterministic from the seed); returns what changed. */
  churn(rounds?: number): ChurnReport;
  /** The whole current state in API shapes, exactly as complete walks of the endpoints return it. */
  snapshot(): SandboxSnapshot;
  close(): Promise<void>;
}

/**
 * Any accepted key with this suffix appended is treated as a revoked key of the same account:
 * authenticated (and counted against the account's limits) but answered 403 FORBIDDEN.
 */
export const REVOKED_KEY_SUFFIX = '_revoked';
const MAX_BODY_BYTES = 1_000_000;
const MAX_PAGE_SIZE = 10_000;
/** Items per page when the sandbox is started without --page-size (the client never assumes one). */
const DEFAULT_PAGE_SIZE = 25;
/** Recorded requests kept; the oldest are dropped past this so a long-running sandbox stays small. */
const MAX_RECORDED = 200_000;
const STALL_PREFIX = '[{"id":';

interface Resolved {
  host: string;
  port: number;
  plan: Plan;
  windows: readonly LimitWindow[];
  seed: number;
  pageSize: number;
  latencyMs: number;
  basePath: string;
}

function resolveOptions(opts: SandboxOptions): Resolved {
  const plan = opts.plan ?? 'Pro';
  if (!PLANS.includes(plan)) throw new Error(`unknown plan "${plan}" (expected one of ${PLANS.join(', ')})`);
  const port = opts.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port ${port}`);
  const seed = opts.seed ?? 1;
  if (!Number.isSafeInteger(seed)) throw new Error(`seed must be an integer, got ${seed}`);
  const pageSize = opts.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    throw new Error(`page size must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${pageSize}`);
  }
  const latencyMs = opts.latencyMs ?? 0;
  if (!Number.isFinite(latencyMs) || latencyMs < 0 || latencyMs > 600_000) {
    throw new Error(`latency must be from 0 to 600000 ms, got ${latencyMs}`);
  }
  let basePath = opts.basePath ?? '';
  if (basePath.endsWith('/')) basePath = basePath.slice(0, -1);
  if (basePath !== '' && !/^(\/[A-Za-z0-9._~-]+)+$/.test(basePath)) {
    throw new Error(`base path must look like "/v1", got "${opts.basePath}"`);
  }
  return {
    host: opts.host ?? '127.0.0.1',
    port,
    plan,
    windows: opts.limits === undefined ? PLAN_LIMITS[plan] : parseLimits(opts.limits),
    seed,
    pageSize,
    latencyMs,
    basePath,
  };
}

function rateHeaders(decision: RateDecision | undefined): Record<string, string> {
  if (!decision) return {};
  const h: Record<string, string> = {
    'RateLimit-Limit': String(decision.state.limit),
    'RateLimit-Remaining': String(decision.state.remaining),
    'RateLimit-Reset': String(decision.state.resetSeconds),
  };
  if (!decision.allowed) h['Retry-After'] = String(decision.retryAfterSeconds);
  return h;
}

function readBody(req: IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge }));
    req.on('error', reject);
  });
}

function parseJsonBody(req: IncomingMessage, text: string): unknown {
  if (text === '') return undefined;
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (type !== 'application/json') {
    throw validationError([{ path: '', message: `Content-Type must be application/json, got "${type}"` }]);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw validationError([{ path: '', message: 'request body is not valid JSON' }]);
  }
}

/** Responses sent after the sandbox's latency, on timers that close() cancels. */
class Replies {
  readonly timers = new Set<NodeJS.Timeout>();
  constructor(private readonly latencyMs: number) {}

  /** Runs `fn` after the latency (at once without one); other requests are not blocked meanwhile. */
  later(fn: () => void): void {
    if (this.latencyMs === 0) {
      fn();
      return;
    }
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, this.latencyMs);
    this.timers.add(t);
  }

  send(res: ServerResponse, rec: RecordedRequest, reply: Reply, rate: Record<string, string>): void {
    const json = JSON.stringify(reply.body);
    rec.status = reply.status;
    this.later(() => {
      if (res.destroyed || res.writableEnded) return;
      res.writeHead(reply.status, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': String(Buffer.byteLength(json)),
        ...rate,
        ...reply.headers,
      });
      res.end(json);
    });
  }

  /** The error in the API's envelope. */
  error(res: ServerResponse, rec: RecordedRequest, err: ApiError, headers: Record<string, string>): void {
    this.send(res, rec, { status: err.status, body: envelope(err) }, headers);
  }

  cancel(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

/** What one running sandbox serves from and counts with, built once by startSandbox. */
interface Serving {
  o: Resolved;
  sandbox: Sandbox;
  store: Store;
  pages: Paginator;
  faults: FaultPicker;
  /** Rounds of data changes while serving (--churn), if any. */
  churnRate: ReturnType<typeof parseChurn> | undefined;
  accepted: ReadonlySet<string>;
  /** Requests are counted per account across its keys; requests without a valid key share another bucket. */
  accountLimiter: RateLimiter;
  anonymousLimiter: RateLimiter;
  replies: Replies;
  /** Requests received whose response is not over yet (RecordedRequest.inFlight). */
  open: number;
  /** The Host values that name this sandbox (set once listening; see hostsOf). */
  hosts: Set<string>;
}

/** The request, recorded (the oldest records dropped past MAX_RECORDED) and counted in flight. */
function recordRequest(s: Serving, req: IncomingMessage, res: ServerResponse, url: URL): RecordedRequest {
  const rec: RecordedRequest = {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    headers: req.headers,
    body: undefined,
    status: 0,
    at: Date.now(),
    inFlight: s.open,
  };
  s.open++;
  res.once('close', () => s.open--);
  const log = s.sandbox.requests;
  log.push(rec);
  if (log.length > MAX_RECORDED) log.splice(0, log.length - MAX_RECORDED + MAX_RECORDED / 10);
  return rec;
}

/**
 * The refusal of a request not addressed to this sandbox: a web page that rebinds its own name to
 * 127.0.0.1 (DNS rebinding) still sends its own name as Host.
 */
function foreignHostError(s: Serving, req: IncomingMessage): ApiError | undefined {
  const host = String(req.headers.host ?? '').toLowerCase();
  if (s.hosts.has(host)) return undefined;
  const shown = JSON.stringify(host.slice(0, 100));
  const expected = [...s.hosts].filter((h) => /:\d+$/.test(h)).join(' or ');
  return new ApiError(403, `Host ${shown} is not this sandbox's address (${expected}): refused`);
}

/** The request's body text, also recorded (as JSON when it is JSON). */
async function readRecordedBody(
  req: IncomingMessage,
  rec: RecordedRequest,
): Promise<{ text: string; tooLarge: boolean }> {
  const body = await readBody(req);
  if (body.text !== '') {
    try {
      rec.body = JSON.parse(body.text);
    } catch {
      rec.body = body.text;
    }
  }
  return body;
}

interface Admission {
  /** The rate-limit headers every answer to this request carries. */
  rate: Record<string, string>;
  /** Why the request is refused before any fault or handler (429, 401, 403 revoked). */
  refusal?: { err: ApiError; headers: Record<string, string> };
}

/**
 * The key's account (a revoked key counts against its account too) takes a rate-limit slot; then
 * the request is refused when over the limit, without a known key, or with a revoked one.
 */
function admit(s: Serving, req: IncomingMessage): Admission {
  const auth = /^Bearer +([^\s]+) *$/i.exec(String(req.headers.authorization ?? ''));
  const key = auth?.[1];
  const revoked =
    key?.endsWith(REVOKED_KEY_SUFFIX) === true && s.accepted.has(key!.slice(0, -REVOKED_KEY_SUFFIX.length));
  const known = key !== undefined && s.accepted.has(key);
  const decision = (known || revoked ? s.accountLimiter : s.anonymousLimiter).take();
  const rate = rateHeaders(decision);

  if (decision && !decision.allowed) {
    s.sandbox.count429++;
    const err = new ApiError(
      429,
      `Rate limit exceeded for the ${s.o.plan} plan (${describeWindow(decision.window)})`,
    );
    return { rate, refusal: { err, headers: rate } };
  }
  if (!known && !revoked) {
    const why =
      key === undefined
        ? 'Missing or malformed Authorization header (expected "Bearer <API key>")'
        : 'Invalid API key';
    return {
      rate,
      refusal: { err: new ApiError(401, why), headers: { ...rate, 'WWW-Authenticate': 'Bearer' } },
    };
  }
  if (revoked)
    return { rate, refusal: { err: new ApiError(403, 'This API key has been revoked'), headers: rate } };
  return { rate };
}

/** Plays the drawn fault, if any; true when it answered (or cut) the request. */
function playFault(
  s: Serving,
  fault: ReturnType<FaultPicker['next']>,
  req: IncomingMessage,
  res: ServerResponse,
  rec: RecordedRequest,
  rate: Record<string, string>,
): boolean {
  if (fault === '500') {
    s.replies.error(res, rec, new ApiError(500, 'Injected fault: internal server error'), rate);
    return true;
  }
  if (fault === 'reset') {
    rec.status = 0;
    s.replies.later(() => req.socket.destroy());
    return true;
  }
  if (fault === 'stall') {
    rec.status = 200;
    s.replies.later(() => {
      if (res.destroyed) return;
      res.writeHead(200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': '4096',
        ...rate,
      });
      res.write(STALL_PREFIX);
    });
    return true;
  }
  return false;
}

/** The handler's reply for the route the request names; an ApiError for a bad request or route. */
function routeReply(
  s: Serving,
  req: IncomingMessage,
  url: URL,
  body: { text: string; tooLarge: boolean },
  now: number,
): Reply {
  const method = req.method ?? 'GET';
  if (body.tooLarge) {
    throw validationError([{ path: '', message: `request body is larger than ${MAX_BODY_BYTES} bytes` }]);
  }
  let path = url.pathname;
  if (s.o.basePath !== '') {
    if (!path.startsWith(`${s.o.basePath}/`)) throw new ApiError(404, `No route for ${method} ${path}`);
    path = path.slice(s.o.basePath.length);
  }
  const match = matchRoute(method, path);
  if (match.kind === 'wrong-method') {
    throw new ApiError(404, `No route for ${method} ${url.pathname} (allowed: ${match.allowed.join(', ')})`);
  }
  if (match.kind === 'none') throw new ApiError(404, `No route for ${method} ${url.pathname}`);
  return match.handler({
    store: s.store,
    pages: s.pages,
    pathname: url.pathname,
    query: url.searchParams,
    params: match.params,
    body: method === 'GET' || method === 'HEAD' ? undefined : parseJsonBody(req, body.text),
    now,
  });
}

/**
 * One request, in this order: recorded; refused when not addressed to this sandbox (before a fault
 * is drawn or a rate-limit slot taken); a fault drawn (for every request in arrival order, so the
 * sequence depends only on seed and order); rate limits and the key; the fault played (before any
 * handler runs, so a failed request never changes data); the handler.
 */
async function handleRequest(s: Serving, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
  const rec = recordRequest(s, req, res, url);
  const foreign = foreignHostError(s, req);
  if (foreign) return s.replies.error(res, rec, foreign, {});
  const fault = s.faults.next();
  const body = await readRecordedBody(req, rec);
  const now = Date.now();
  const { rate, refusal } = admit(s, req);
  if (refusal) return s.replies.error(res, rec, refusal.err, refusal.headers);
  if (playFault(s, fault, req, res, rec, rate)) return;
  try {
    s.replies.send(res, rec, routeReply(s, req, url, body, now), rate);
  } catch (err) {
    const apiErr =
      err instanceof ApiError ? err : new ApiError(500, `Internal sandbox error: ${(err as Error).message}`);
    s.replies.error(res, rec, apiErr, rate);
  }
}

/** The options' store, keys, pages, faults and limiters, before anything listens. */
function servingFrom(opts: SandboxOptions): Serving {
  const o = resolveOptions(opts);
  const faults = new FaultPicker(parseFaults(opts.faults ?? ''), o.seed);
  const churnRate = opts.churn === undefined ? undefined : parseChurn(opts.churn);
  const store = opts.store ?? generateStore(o.seed, opts.sizes);
  const churner = new Churner(store, o.seed);
  // Random per run: a key derived from the seed could be computed by anyone (a web page included).
  const apiKeys = opts.apiKeys ?? [`mtg_sk_sandbox_${randomBytes(12).toString('hex')}`];
  if (apiKeys.length === 0 || apiKeys.some((k) => !/^[\x21-\x7e]+$/.test(k))) {
    throw new Error('apiKeys must be non-empty strings of visible ASCII characters');
  }
  const sandbox: Sandbox = {
    baseUrl: '',
    apiKey: apiKeys[0]!,
    revokedApiKey: `${apiKeys[0]}${REVOKED_KEY_SUFFIX}`,
    plan: o.plan,
    requests: [],
    count429: 0,
    churn: (rounds = 1) => churner.run(rounds),
    snapshot: () => snapshotOf(store),
    close: async () => {},
  };
  return {
    o,
    sandbox,
    store,
    pages: new Paginator(`mtg-sandbox-cursor-${o.seed}`, o.pageSize),
    faults,
    churnRate,
    accepted: new Set(apiKeys),
    accountLimiter: new RateLimiter(o.windows, opts.clock),
    anonymousLimiter: new RateLimiter(o.windows, opts.clock),
    replies: new Replies(o.latencyMs),
    open: 0,
    hosts: new Set<string>(),
  };
}

/** Listens on the options' host and port; the address it got. */
async function listen(server: Server, o: Resolved): Promise<{ address: string; port: number }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return typeof address === 'object' && address
    ? { address: address.address, port: address.port }
    : { address: o.host, port: o.port };
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const s = servingFrom(opts);
  const { o, sandbox, churnRate } = s;
  const sockets = new Set<Socket>();
  let closing = false;

  const server = createServer({ keepAlive: true }, (req, res) => {
    if (closing) {
      res.destroy();
      return;
    }
    handleRequest(s, req, res).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // Errors on a single client socket (e.g. a reset mid-write) must not crash the sandbox.
  server.on('clientError', (_err, socket) => socket.destroy());

  const { address, port } = await listen(server, o);
  const hostForUrl = o.host.includes(':') ? `[${o.host}]` : o.host;
  sandbox.baseUrl = `http://${hostForUrl}:${port}${o.basePath}`;
  s.hosts = hostsOf(o.host, address, port);
  // Rounds run between requests (handlers are synchronous), so no response sees half a round.
  const churnTimer = churnRate
    ? setInterval(() => sandbox.churn(1), churnRate.windowMs / churnRate.rounds)
    : undefined;
  churnTimer?.unref();

  let closed: Promise<void> | undefined;
  sandbox.close = () => {
    closed ??= new Promise<void>((resolve) => {
      closing = true;
      clearInterval(churnTimer);
      s.replies.cancel();
      server.close(() => resolve());
      server.closeAllConnections();
      // Stalled responses and idle keep-alive sockets would otherwise hold close() open.
      for (const socket of sockets) socket.destroy();
    });
    return closed;
  };
  return sandbox;
}

/** `127.x.x.x`, `::1` (or IPv4-mapped 127.x.x.x): addresses only this machine reaches. */
function isLoopback(address: string): boolean {
  return /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(address) || address === '::1';
}

/**
 * The Host header values that name a sandbox listening on `bound` (the address it got for `given`,
 * e.g. 127.0.0.1 for "localhost") at `port`: that address and the name it was given, and
 * `localhost` when the address is loopback; with the port, and also without it on port 80 (where a
 * client may leave it out). Lower case: host names are compared without case.
 */
export function hostsOf(given: string, bound: string, port: number): Set<string> {
  const names = new Set([given.toLowerCase(), bound.toLowerCase()]);
  if (isLoopback(bound)) names.add('localhost');
  const out = new Set<string>();
  for (const name of names) {
    const h = name.includes(':') ? `[${name}]` : name;
    out.add(`${h}:${port}`);
    if (port === 80) out.add(h);
  }
  return out;
}
