// Hooks on the client's requests (after Octokit's `hook.before/after`): a caller that wants to see,
// count or refuse the HTTP attempts of one client subscribes for as long as it needs and then
// unsubscribes; nothing wraps or replaces the client's or the limiter's methods. Each attempt
// (a retry and a resend after 429 included) is one event of each kind.

import type { RateLimitHeaders } from './ratelimit.js';

/** One HTTP attempt; the same object is passed to every hook of that attempt. */
export interface Attempt {
  method: string;
  url: URL;
}

/** How an attempt ended. */
export type AttemptOutcome =
  /** The server answered (any status, 429 included), with its rate-limit report. */
  | { kind: 'answered'; status: number; rate: RateLimitHeaders }
  /** Sent, but no answer: a network error or a timeout. */
  | { kind: 'failed' }
  /** Never sent: a `before` hook or the limiter (--max-wait, Ctrl-C) refused it. */
  | { kind: 'not-sent'; error: unknown };

export type Unsubscribe = () => void;

export class RequestHooks {
  /**
   * `onError` hears a `sent` or `after` subscriber that threw. Those do not propagate: the attempt
   * is under way or over, so the client must still settle its limiter ticket and answer the
   * caller, and the other subscribers must still hear of it (a meter stays reserved otherwise).
   */
  constructor(private readonly onError: (err: unknown) => void = () => undefined) {}

  private readonly beforeFns = new Set<(attempt: Attempt) => void>();
  private readonly sentFns = new Set<(attempt: Attempt) => void>();
  private readonly afterFns = new Set<(attempt: Attempt, outcome: AttemptOutcome) => void>();

  /**
   * Before the attempt waits for its turn at the limiter. A hook that throws refuses it: nothing is
   * sent, the request rejects with that error, and the `after` hooks hear `not-sent`.
   */
  before(fn: (attempt: Attempt) => void): Unsubscribe {
    return subscribe(this.beforeFns, fn);
  }

  /** The limiter let the attempt out: it is being sent now. A hook that throws is reported only. */
  sent(fn: (attempt: Attempt) => void): Unsubscribe {
    return subscribe(this.sentFns, fn);
  }

  /** The attempt ended (answered, failed or never sent). A hook that throws is reported only. */
  after(fn: (attempt: Attempt, outcome: AttemptOutcome) => void): Unsubscribe {
    return subscribe(this.afterFns, fn);
  }

  /** @internal The client's side. A copy: a hook may unsubscribe (itself or another) while called. */
  runBefore(attempt: Attempt): void {
    for (const fn of [...this.beforeFns]) fn(attempt);
  }

  /** @internal */
  runSent(attempt: Attempt): void {
    for (const fn of [...this.sentFns]) this.guarded(() => fn(attempt));
  }

  /** @internal */
  runAfter(attempt: Attempt, outcome: AttemptOutcome): void {
    for (const fn of [...this.afterFns]) this.guarded(() => fn(attempt, outcome));
  }

  private guarded(call: () => void): void {
    try {
      call();
    } catch (err) {
      try {
        this.onError(err);
      } catch {
        // Reporting is best effort: the attempt must still be settled and answered.
      }
    }
  }
}

function subscribe<F>(set: Set<F>, fn: F): Unsubscribe {
  // Wrapped in its own entry: the same function subscribed twice is called twice, and each
  // unsubscribe removes only its own subscription.
  const entry = ((...args: unknown[]) => (fn as (...a: unknown[]) => void)(...args)) as F;
  set.add(entry);
  return () => {
    set.delete(entry);
  };
}

/** Raised by a request budget's hook when the attempt would go past it. */
export class RequestBudgetReached extends Error {
  constructor(readonly budget: number) {
    super(`The request budget of ${budget} is spent`);
  }
}

export interface RequestMeter {
  /** Attempts counted so far (admitted by the budget and not refused before they were sent). */
  count(): number;
  /** Recent pace: ms per request over the last 30 sent (undefined before two were). */
  msPerRequest(): number | undefined;
  /** Stops counting (and limiting). */
  stop: Unsubscribe;
}

/**
 * Counts every HTTP attempt of the client from now on (retries included) and, with a `budget`,
 * refuses the one past it before it waits or is sent (RequestBudgetReached).
 */
export function meterRequests(hooks: RequestHooks, budget?: number): RequestMeter {
  let reserved = 0;
  const counted = new WeakSet<Attempt>();
  const times: number[] = [];
  const offs = [
    hooks.before((attempt) => {
      if (budget !== undefined && reserved >= budget) throw new RequestBudgetReached(budget);
      // Reserved before the wait: requests in flight together cannot pass the budget between them.
      reserved++;
      counted.add(attempt);
    }),
    hooks.sent((attempt) => {
      if (!counted.has(attempt)) return;
      times.push(Date.now());
      if (times.length > 30) times.shift();
    }),
    hooks.after((attempt, outcome) => {
      if (outcome.kind === 'not-sent' && counted.delete(attempt)) reserved--;
    }),
  ];
  return {
    count: () => reserved,
    msPerRequest: () => {
      if (times.length < 2) return undefined;
      return (times[times.length - 1]! - times[0]!) / (times.length - 1);
    },
    stop: () => {
      for (const off of offs) off();
    },
  };
}
