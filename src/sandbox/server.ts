// The HTTP side of the sandbox (node:http only): auth, rate limits, faults, latency, recording,
// body parsing and the error envelope around the pure handlers.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { PLAN_LIMITS, PLANS, type Plan } from '../api/assumptions.js';
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

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
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
  const accepted = new Set(apiKeys);
  const pages = new Paginator(`mtg-sandbox-cursor-${o.seed}`, o.pageSize);
  // Requests are counted per account across its keys; requests without a valid key share another bucket.
  const accountLimiter = new RateLimiter(o.windows);
  const anonymousLimiter = new RateLimiter(o.windows);

  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let closing = false;

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

  const later = (fn: () => void): void => {
    if (o.latencyMs === 0) {
      fn();
      return;
    }
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, o.latencyMs);
    timers.add(t);
  };

  const send = (
    res: ServerResponse,
    rec: RecordedRequest,
    reply: Reply,
    rate: Record<string, string>,
  ): void => {
    const json = JSON.stringify(reply.body);
    rec.status = reply.status;
    later(() => {
      if (res.destroyed || res.writableEnded) return;
      res.writeHead(reply.status, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': String(Buffer.byteLength(json)),
        ...rate,
        ...reply.headers,
      });
      res.end(json);
    });
  };

  const errorReply = (err: ApiError): Reply => ({ status: err.status, body: envelope(err) });

  /** Requests received whose response is not over yet (RecordedRequest.inFlight). */
  let open = 0;
  /** The Host values that name this sandbox (set once listening; see hostsOf). */
  let hosts = new Set<string>();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const method = req.method ?? 'GET';
    const rec: RecordedRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: undefined,
      status: 0,
      at: Date.now(),
      inFlight: open,
    };
    open++;
    res.once('close', () => open--);
    const log = sandbox.requests;
    log.push(rec);
    if (log.length > MAX_RECORDED) log.splice(0, log.length - MAX_RECORDED + MAX_RECORDED / 10);
    // Only requests addressed to this sandbox: a web page that rebinds its own name to 127.0.0.1
    // (DNS rebinding) still sends its own name as Host. Before anything else (no fault drawn, no
    // rate-limit slot taken).
    const host = String(req.headers.host ?? '').toLowerCase();
    if (!hosts.has(host)) {
      const shown = JSON.stringify(host.slice(0, 100));
      const expected = [...hosts].filter((h) => /:\d+$/.test(h)).join(' or ');
      const err = new ApiError(403, `Host ${shown} is not this sandbox's address (${expected}): refused`);
      return send(res, rec, errorReply(err), {});
    }
    // Drawn for every request in arrival order, so the fault sequence depends only on seed and order.
    const fault = faults.next();
    const { text, tooLarge } = await readBody(req);
    if (text !== '') {
      try {
        rec.body = JSON.parse(text);
      } catch {
        rec.body = text;
      }
    }

    const auth = /^Bearer +([^\s]+) *$/i.exec(String(req.headers.authorization ?? ''));
    const key = auth?.[1];
    const revoked =
      key?.endsWith(REVOKED_KEY_SUFFIX) === true && accepted.has(key!.slice(0, -REVOKED_KEY_SUFFIX.length));
    const known = key !== undefined && accepted.has(key);
    const now = Date.now();
    const decision = (known || revoked ? accountLimiter : anonymousLimiter).take(now);
    const rate = rateHeaders(decision);

    if (decision && !decision.allowed) {
      sandbox.count429++;
      const err = new ApiError(
        429,
        `Rate limit exceeded for the ${o.plan} plan (${describeWindow(decision.window)})`,
      );
      return send(res, rec, errorReply(err), rate);
    }
    if (!known && !revoked) {
      const why =
        key === undefined
          ? 'Missing or malformed Authorization header (expected "Bearer <API key>")'
          : 'Invalid API key';
      return send(res, rec, errorReply(new ApiError(401, why)), { ...rate, 'WWW-Authenticate': 'Bearer' });
    }
    if (revoked) return send(res, rec, errorReply(new ApiError(403, 'This API key has been revoked')), rate);

    // Faults strike before any handler runs, so a failed request never changes data.
    if (fault === '500') {
      return send(res, rec, errorReply(new ApiError(500, 'Injected fault: internal server error')), rate);
    }
    if (fault === 'reset') {
      rec.status = 0;
      return later(() => req.socket.destroy());
    }
    if (fault === 'stall') {
      rec.status = 200;
      return later(() => {
        if (res.destroyed) return;
        res.writeHead(200, {
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': '4096',
          ...rate,
        });
        res.write(STALL_PREFIX);
      });
    }

    try {
      if (tooLarge) {
        throw validationError([{ path: '', message: `request body is larger than ${MAX_BODY_BYTES} bytes` }]);
      }
      let path = url.pathname;
      if (o.basePath !== '') {
        if (!path.startsWith(`${o.basePath}/`)) throw new ApiError(404, `No route for ${method} ${path}`);
        path = path.slice(o.basePath.length);
      }
      const match = matchRoute(method, path);
      if (match.kind === 'wrong-method') {
        throw new ApiError(
          404,
          `No route for ${method} ${url.pathname} (allowed: ${match.allowed.join(', ')})`,
        );
      }
      if (match.kind === 'none') throw new ApiError(404, `No route for ${method} ${url.pathname}`);
      const body = method === 'GET' || method === 'HEAD' ? undefined : parseJsonBody(req, text);
      const reply = match.handler({
        store,
        pages,
        pathname: url.pathname,
        query: url.searchParams,
        params: match.params,
        body,
        now,
      });
      send(res, rec, reply, rate);
    } catch (err) {
      const apiErr =
        err instanceof ApiError
          ? err
          : new ApiError(500, `Internal sandbox error: ${(err as Error).message}`);
      send(res, rec, errorReply(apiErr), rate);
    }
  };

  const server = createServer({ keepAlive: true }, (req, res) => {
    if (closing) {
      res.destroy();
      return;
    }
    handle(req, res).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // Errors on a single client socket (e.g. a reset mid-write) must not crash the sandbox.
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : o.port;
  const hostForUrl = o.host.includes(':') ? `[${o.host}]` : o.host;
  sandbox.baseUrl = `http://${hostForUrl}:${port}${o.basePath}`;
  hosts = hostsOf(o.host, typeof address === 'object' && address ? address.address : o.host, port);
  // Rounds run between requests (handlers are synchronous), so no response sees half a round.
  const churnTimer = churnRate
    ? setInterval(() => churner.run(1), churnRate.windowMs / churnRate.rounds)
    : undefined;
  churnTimer?.unref();

  let closed: Promise<void> | undefined;
  sandbox.close = () => {
    closed ??= new Promise<void>((resolve) => {
      closing = true;
      clearInterval(churnTimer);
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.close(() => resolve());
      server.closeAllConnections();
      // Stalled responses and idle keep-alive sockets would otherwise hold close() open.
      for (const s of sockets) s.destroy();
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
