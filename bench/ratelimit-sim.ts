// The rate limiter (src/api/ratelimit.ts) judged by simulation: clients pacing with it against the
// sandbox's own windows (src/sandbox/ratelimit.ts), in one process on a VirtualClock, through a fake
// transport whose way out and way back take virtual time. Minutes of pacing take milliseconds.
// Used by test/api/ratelimit-simulation.test.ts (the targets) and bench/ratelimit-sim.mjs (the figures).

import { RateLimiter } from '../src/api/ratelimit.js';
import { MemoryReports } from '../src/api/ratelimit-shared.js';
import { retryAfterJitterMs } from '../src/api/retry.js';
import { type LimitWindow, RateLimiter as ServerWindows } from '../src/sandbox/ratelimit.js';
import { VirtualClock } from '../test/helpers/virtual-clock.js';
import { dispatchTimes } from './theory.mjs';

export interface Shape {
  name: string;
  windows: LimitWindow[];
  /** Requests per client. */
  requests: number;
  /** Clients on the same key, each with its own limiter, all at once. */
  clients?: number;
  /** Requests of the clients after the first, when fewer than `requests`: each stops (leaves the key) once they are sent. */
  othersSend?: number;
  /**
   * A plain second client on the same key, without a limiter (a script, another tool): one request at
   * a time, `trickleEveryMs` apart (from its answer to the next; its first after a part of that drawn
   * from the seed); a 429 is waited out (Retry-After plus jitter) and the same request sent again,
   * which brings it back at the refill the server names, where ours go too. It stops once ours are
   * answered.
   */
  trickleEveryMs?: number;
  /** The trickle begins this long after ours (plus its phase) and stops at trickleStopMs (default: with ours). */
  trickleStartMs?: number;
  trickleStopMs?: number;
  /**
   * A second mtg client on the key with its own RateLimiter: `batch` requests, `concurrency` at a time,
   * every `everyMs` (start to start, or at the end of the batch before if later; its first after a
   * part of that drawn from the seed). `fresh`: a new limiter per batch (a new process each time, as
   * cron runs mtg); else one for all (mtg watch). It stops once ours are answered.
   */
  companion?: {
    everyMs: number;
    batch: number;
    concurrency: number;
    fresh?: boolean;
    /** Its processes share a data folder of their machine's, not ours (cron's runs one after another: an ended run's answers hold the next). */
    ownStore?: boolean;
    outMs?: number | [number, number];
    backMs?: number | [number, number];
  };
  /**
   * The mtg clients (ours, the others, a companion) run on one machine and share the newest reports
   * (src/api/ratelimit-shared.ts); else each on a machine of its own.
   */
  shared?: boolean;
  /** Requests each client has in flight at most (the CLI's batches: 8). */
  concurrency: number;
  /** Each leg's latency (ms): fixed, or drawn anew per request between the two bounds (answers reorder). */
  outMs: number | [number, number];
  backMs: number | [number, number];
  /**
   * Where the model falls short of the targets (>= 95% of the minimum's rate, <= 5 429s per 1,000)
   * today, what the test holds it to instead, so that it does not get worse unseen.
   */
  holds?: { throughput?: number; per1000?: number };
}

export interface Outcome {
  shape: string;
  requests: number;
  elapsedMs: number;
  minimumMs: number;
  /** The theoretical minimum's rate over the rate reached (1 = as fast as the windows allow). */
  throughput: number;
  refused: number;
  per1000: number;
  /** Requests of a trickling client or a companion the server admitted while ours ran. */
  theirs: number;
  /** The companion mtg client's requests admitted while ours ran, and its 429s. */
  companion: number;
  companionRefused: number;
  trickleRefused: number;
}

const FREE: LimitWindow[] = [
  { limit: 3, windowMs: 1_000 },
  { limit: 20, windowMs: 60_000 },
];
const SHORT: LimitWindow[] = [
  { limit: 3, windowMs: 1_000 },
  { limit: 20, windowMs: 10_000 },
];

const PRO: LimitWindow[] = [
  { limit: 20, windowMs: 1_000 },
  { limit: 300, windowMs: 60_000 },
];

/** An mtg watch beside: one request every 10 s, one limiter for all. */
const WATCH = { everyMs: 10_000, batch: 1, concurrency: 1 };

/** Ours (3,000 requests, 4 at once, legs of 10 ms) and other mtg clients on the same machine (`shared`). */
function sameMachine(name: string, windows: LimitWindow[], other: Partial<Shape>): Shape {
  const base = { requests: 3000, concurrency: 4, outMs: 10, backMs: 10, shared: true };
  return { name: `${name}, same machine`, windows, ...base, ...other };
}

export const SHAPES: Shape[] = [
  {
    name: 'Free plan 3/1s+20/1m, 8 at once',
    windows: FREE,
    requests: 300,
    concurrency: 8,
    outMs: 10,
    backMs: 10,
  },
  {
    name: 'Free plan, one at a time (pages)',
    windows: FREE,
    requests: 300,
    concurrency: 1,
    outMs: 10,
    backMs: 10,
  },
  { name: '3/1s+20/10s, 8 at once', windows: SHORT, requests: 1000, concurrency: 8, outMs: 10, backMs: 10 },
  {
    name: '3/1s+20/10s, two clients on one key',
    windows: SHORT,
    requests: 500,
    clients: 2,
    concurrency: 8,
    outMs: 10,
    backMs: 10,
  },
  {
    name: '3/1s+20/10s, a second client that leaves',
    windows: SHORT,
    requests: 1000,
    clients: 2,
    othersSend: 100,
    concurrency: 8,
    outMs: 10,
    backMs: 10,
  },
  {
    name: '3/1s+20/10s, slow answers (0.3 s + 0.6 s)',
    windows: SHORT,
    requests: 1000,
    concurrency: 8,
    outMs: 300,
    backMs: 600,
  },
  {
    name: '3/1s+20/10s, reordered answers (10-400 ms each way)',
    windows: SHORT,
    requests: 1000,
    concurrency: 8,
    outMs: [10, 400],
    backMs: [10, 400],
  },
  // A plain client trickling on the same key (review of #31): refused while our minute window is
  // full, it comes back at the refill its Retry-After names, where ours go too.
  ...[20_000, 10_000, 5_000].map(
    (trickleEveryMs): Shape => ({
      name: `Free plan, a second client trickling ${60_000 / trickleEveryMs}/min`,
      windows: FREE,
      requests: 3000,
      trickleEveryMs,
      concurrency: 4,
      outMs: 10,
      backMs: 10,
    }),
  ),
  {
    name: 'Free plan, a second client trickling 6/min, legs 10-100 ms',
    windows: FREE,
    requests: 3000,
    trickleEveryMs: 10_000,
    concurrency: 4,
    outMs: [10, 100],
    backMs: [10, 100],
  },
  // The second review's shapes (#31): a plain client trickling beside 3/1s+20/10s or beside pages,
  // or another mtg client with a limiter of its own (`companion`: mtg watch, or cron's burst).
  {
    name: 'Free plan, one at a time (pages), a second client trickling 1/min',
    windows: FREE,
    requests: 3000,
    trickleEveryMs: 60_000,
    concurrency: 1,
    outMs: 10,
    backMs: 10,
  },
  {
    name: 'Free plan, a second client trickling 12/min from 5 to 15 min',
    windows: FREE,
    requests: 3000,
    trickleEveryMs: 5_000,
    trickleStartMs: 300_000,
    trickleStopMs: 900_000,
    concurrency: 4,
    outMs: 10,
    backMs: 10,
  },
  {
    name: '3/1s+20/10s, 8 at once, a second client trickling 30/min',
    windows: SHORT,
    requests: 3000,
    trickleEveryMs: 2_000,
    concurrency: 8,
    outMs: 10,
    backMs: 10,
  },
  // A slow second client beside 3/1s+20/10s: leaving it the last slot of each second starved the 10 s
  // window (which needs 2 of each second's 3); ours spread that window's allowance at its rate instead.
  // Alone, ours spread it too (after a second's 3) while answers keep their order: mtg watch beside,
  // refused each time it came back while ours knew nothing of it, shows in no count.
  {
    name: '3/1s+20/10s, a second client trickling 6/min',
    windows: SHORT,
    requests: 3000,
    trickleEveryMs: 10_000,
    concurrency: 4,
    outMs: 10,
    backMs: 10,
  },
  {
    name: '3/1s+20/10s, mtg watch beside (1 request each 10 s)',
    windows: SHORT,
    requests: 3000,
    companion: { everyMs: 10_000, batch: 1, concurrency: 1 },
    concurrency: 4,
    outMs: 10,
    backMs: 10,
  },
  // Answers reordered beside the trickle: each second is found over only at its end's bound from an
  // answer up to 0.8 s late, and ours took 2 of its 3 (~65% of the rate); then ours spread the 10 s
  // window there too (86%, 7-13 per 1,000), the per-second window held ours by our own sends alone, 2 a
  // second until behind the spread (92-93%, 3-8 per 1,000), a refilled 10 s window no longer holds ours
  // one at a time once an answer since came back (93.4-94.1%, 2-6), and now the 10 s window's last
  // second (a per-second key) no longer holds ours past that window's end, a period's last request
  // lands in it, and our answers bound when their requests reached the server (94.9-95.6%, 2-6; 7 of
  // seeds 1-8 meet both targets).
  {
    name: '3/1s+20/10s, a second client trickling 6/min, reordered answers (10-400 ms each way)',
    windows: SHORT,
    requests: 3000,
    trickleEveryMs: 10_000,
    concurrency: 4,
    outMs: [10, 400],
    backMs: [10, 400],
    holds: { throughput: 0.948, per1000: 6 },
  },
  // A new process each time, on another machine: its first request is sent blind, just after the run
  // before took its last slot, and met a full second about every other run (~9 per 1,000); ours and the
  // running one now leave each second two slots beside the minute window (leftToOthers), and it finds
  // room (14-34 -> 1.9-14.7 per 1,000, seeds 1-8). A run refused while ours are alone (a 429 is
  // counted in no window) was unseen, and came back at each minute's refill after ours took the second
  // (seed 3: 83 429s at the start); ours alone now keep one slot of the minute's first second for it
  // (slotsKept: 0.2-2.4 per 1,000). Left: a new run's first answer names the minute only, and its next
  // requests go at once into a second it does not know of (seed 14: 6.0). On the same machine they
  // share their reports (below).
  {
    name: 'Free plan, cron running mtg beside (20 requests, 8 at once, each 2 min)',
    windows: FREE,
    requests: 3000,
    companion: { everyMs: 120_000, batch: 20, concurrency: 8, fresh: true },
    concurrency: 4,
    outMs: 10,
    backMs: 10,
  },
  // The same cron on a machine of its own whose runs share that machine's data folder (#31): a run
  // that ended leaves its answers for the next (ratelimit-file.ts), so a run starts blind only when the
  // one before heard nothing that still holds. A first run refused while ours, alone, took every slot
  // was unseen by ours (seed 3: 15.9 per 1,000; now 0.5, as above).
  {
    name: 'Free plan, cron on another machine, its runs sharing their data folder',
    windows: FREE,
    requests: 3000,
    companion: { everyMs: 120_000, batch: 20, concurrency: 8, fresh: true, ownStore: true },
    concurrency: 4,
    outMs: 10,
    backMs: 10,
  },
  // The same machine (#31): the second mtg shares the newest reports with ours (ratelimit-shared.ts).
  sameMachine('Free plan, cron running mtg beside', FREE, {
    companion: { everyMs: 120_000, batch: 20, concurrency: 8, fresh: true },
  }),
  sameMachine('Free plan, a second mtg syncing 20 each 2 min beside', FREE, {
    companion: { everyMs: 120_000, batch: 20, concurrency: 8 },
  }),
  sameMachine('Free plan, mtg watch beside (1 request each 10 s)', FREE, { companion: WATCH }),
  sameMachine('Free plan, two mtg on one key and a client trickling 6/min', FREE, {
    requests: 1500,
    clients: 2,
    trickleEveryMs: 10_000,
  }),
  sameMachine('3/1s+20/10s, two clients on one key', SHORT, { requests: 500, clients: 2, concurrency: 8 }),
  sameMachine('3/1s+20/10s, mtg watch beside', SHORT, { companion: WATCH }),
  sameMachine('Pro plan 20/1s+300/1m, 8 at once, mtg watch beside', PRO, {
    requests: 6000,
    concurrency: 8,
    companion: WATCH,
  }),
  {
    name: 'Pro plan 20/1s+300/1m, reordered answers',
    windows: [
      { limit: 20, windowMs: 1_000 },
      { limit: 300, windowMs: 60_000 },
    ],
    requests: 1000,
    concurrency: 8,
    outMs: [10, 150],
    backMs: [10, 150],
  },
];

/** A small seeded generator (mulberry32): the same run every time. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function simulate(shape: Shape, seed = 1): Promise<Outcome> {
  const clock = new VirtualClock(0);
  const random = seeded(seed);
  const server = new ServerWindows(shape.windows);
  const leg = (ms: number | [number, number]) =>
    typeof ms === 'number' ? ms : ms[0] + random() * (ms[1] - ms[0]);
  let refused = 0;
  const store = new MemoryReports();
  const companionStore = new MemoryReports();
  const newLimiter = (own?: MemoryReports) =>
    new RateLimiter({
      maxWaitMs: Number.POSITIVE_INFINITY,
      clock,
      shared: shape.shared ? store.handle() : own?.handle(),
    });

  // One request as the client sends it (src/api/client.ts): a turn, the way out, the server's
  // decision, the way back; a 429 waits out Retry-After plus its jitter and keeps its place.
  let companionRefused = 0;
  const companionAdmitted: number[] = [];
  const request = async (limiter: RateLimiter, mine = true) => {
    let order: number | undefined;
    for (;;) {
      const ticket = await limiter.acquire(order);
      order = ticket.order;
      await clock.sleep(leg(mine ? shape.outMs : (shape.companion?.outMs ?? shape.outMs)));
      const decision = server.take(clock.now())!;
      if (!mine && decision.allowed) companionAdmitted.push(clock.now());
      await clock.sleep(leg(mine ? shape.backMs : (shape.companion?.backMs ?? shape.backMs)));
      if (decision.allowed) {
        const { limit, remaining, resetSeconds } = decision.state;
        limiter.observe(ticket, { limit, remaining, reset: resetSeconds });
        return;
      }
      if (mine) refused++;
      else companionRefused++;
      // Every response carries the headers (spec section 8), a 429 too: the client observes them.
      const { limit, remaining, resetSeconds } = decision.state;
      limiter.observe(
        ticket,
        { limit, remaining, reset: resetSeconds },
        decision.retryAfterSeconds + retryAfterJitterMs(random) / 1000,
      );
    }
  };
  const client = async (requests: number) => {
    const limiter = newLimiter();
    let left = requests;
    const worker = async () => {
      while (left > 0) {
        left--;
        await request(limiter);
      }
    };
    await Promise.all(Array.from({ length: shape.concurrency }, worker));
  };
  const clients = shape.clients ?? 1;
  const sends = Array.from({ length: clients }, (_, i) =>
    i === 0 ? shape.requests : (shape.othersSend ?? shape.requests),
  );
  // The trickling client, until ours are answered; the times the server admitted its requests.
  const trickled: number[] = [];
  const ours = new AbortController();
  let trickleRefused = 0;
  const stopAt = shape.trickleStopMs ?? Number.POSITIVE_INFINITY;
  const trickle = async (everyMs: number) => {
    await clock.sleep((shape.trickleStartMs ?? 0) + random() * everyMs, ours.signal);
    while (!ours.signal.aborted && clock.now() < stopAt) {
      for (;;) {
        await clock.sleep(leg(shape.outMs));
        const decision = server.take(clock.now())!;
        if (decision.allowed) trickled.push(clock.now());
        else trickleRefused++;
        await clock.sleep(leg(shape.backMs));
        if (decision.allowed) break;
        const waitMs = decision.retryAfterSeconds * 1000 + retryAfterJitterMs(random);
        await clock.sleep(waitMs, ours.signal);
        if (ours.signal.aborted) return;
      }
      await clock.sleep(everyMs, ours.signal);
    }
  };
  const companion = async (c: NonNullable<Shape['companion']>) => {
    let limiter = newLimiter();
    await clock.sleep(random() * c.everyMs, ours.signal);
    while (!ours.signal.aborted) {
      const began = clock.now();
      if (c.fresh) limiter = newLimiter(c.ownStore ? companionStore : undefined);
      let left = c.batch;
      const worker = async () => {
        while (left > 0 && !ours.signal.aborted) {
          left--;
          await request(limiter, false);
        }
      };
      await Promise.all(Array.from({ length: c.concurrency }, worker));
      await clock.sleep(Math.max(0, began + c.everyMs - clock.now()), ours.signal);
    }
  };
  let oursEnd = 0;
  const all = Promise.all(sends.map((n) => client(n))).then(() => {
    oursEnd = clock.now();
    ours.abort();
  });
  const others = shape.trickleEveryMs === undefined ? [] : [trickle(shape.trickleEveryMs)];
  if (shape.companion) others.push(companion(shape.companion));
  await clock.settle(Promise.all([all, ...others]), { maxTimers: 10_000_000 });
  const elapsedMs = oursEnd;

  // The windows are the key's, not a client's: the least time for all that was sent is the same
  // whoever sent it, so a client that leaves changes only the total (its phase and the one alone after
  // it, back to back at the windows' rate, are that total's minimum).
  // A trickling client's requests the server admitted count as sent (the windows' rate, less what it
  // took, is what was left to ours); its 429s do not count (it paces nothing), ours only.
  const trickleAdmitted = trickled.filter((at) => at <= elapsedMs).length;
  const companionIn = companionAdmitted.filter((at) => at <= elapsedMs).length;
  const theirs = trickleAdmitted + companionIn;
  const total = sends.reduce((a, b) => a + b, 0) + theirs;
  const mean = (ms: number | [number, number]) => (typeof ms === 'number' ? ms : (ms[0] + ms[1]) / 2);
  // The least time: every request decided at the earliest instant the windows allow (bench/theory.mjs),
  // one at a time spaced by the round trip, plus the first way out and the last way back.
  const gapMs = shape.concurrency === 1 && clients === 1 ? mean(shape.outMs) + mean(shape.backMs) : 0;
  const times = dispatchTimes(total, shape.windows, { gapMs });
  const minimumMs = times[times.length - 1]! + mean(shape.outMs) + mean(shape.backMs);
  return {
    shape: shape.name,
    requests: total,
    theirs,
    elapsedMs,
    minimumMs,
    throughput: minimumMs / elapsedMs,
    refused,
    // A companion is an mtg client too: its 429s count with ours, per 1,000 of both (as two clients' do).
    per1000: ((refused + companionRefused) / (total - trickleAdmitted)) * 1000,
    companion: companionIn,
    companionRefused,
    trickleRefused,
  };
}
