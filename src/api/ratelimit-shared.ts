// mtg processes of one user on one machine (same API origin and key) pacing as one client
// (docs/rate-limits.md, "Processes on one machine"): each limiter writes the requests it lets out and
// their answers to a store the others read, and reads theirs as its own, in the order they happened,
// before it decides. A new process starts from what the others heard instead of a blind request.

import type { RateLimitHeaders } from './ratelimit-headers.js';
import type { Hold, Ticket } from './ratelimit-turns.js';
import { longestPeriodMs, openedUnseen, type Window } from './ratelimit-window.js';

/** How long to look again while another process's request is out, its answer unseen (ms): the limiter's margin. */
const LOOK_AGAIN_MS = 50;

/** A request one limiter let out: when it left and, once it ended, when, with the answer's report. */
export interface SharedRequest {
  seq: number;
  /** Wall-clock times (ms): processes on one machine share the clock. */
  sentAt: number;
  doneAt?: number;
  limit?: number;
  remaining?: number;
  /** RateLimit-Reset (seconds), as the answer said it. */
  reset?: number;
  /** A 429's Retry-After (seconds): the server did not count it. */
  retryAfter?: number;
}

/** One limiter's requests still of use to a window's count, as it last wrote them. */
export interface SharedLog {
  /** Which limiter wrote it (a process may have several). */
  writer: string;
  requests: SharedRequest[];
}

/** Where the limiters of one API origin and key meet: any failure there only loses the sharing. */
export interface SharedReports {
  /** The other limiters' logs. */
  read(): SharedLog[];
  /** This limiter's log, in place of the one it wrote before (and the right to decide given back). */
  write(requests: SharedRequest[]): void;
  /**
   * The right to decide, which one limiter holds at a time while it reads the others' logs, decides
   * and writes its own (else two that look at once both spend the last slot); false: another holds it.
   * None: deciding is one step already (a store in memory).
   */
  claim?(): boolean;
  release?(): void;
}

/** The limiter (ratelimit.ts) as sharing sees it: another's request ends as one of its own would. */
export interface Limiter {
  observe(ticket: Ticket, headers: RateLimitHeaders, refusedForSeconds: number | undefined, at: number): void;
  settle(ticket: Ticket, at: number): void;
}

/** And what it lets sharing do inside it: what holds a request at a time, let one out then, its windows. */
export interface Replay {
  hold(at: number): Hold | undefined;
  send(at: number): Ticket;
  windows(): Iterable<Window>;
}

/**
 * How long another command's answer holds this one at most (s): the spec's longest window is a
 * minute, and a Retry-After or Reset of an hour (a proxy's, or a log planted or gone wrong) must not
 * shut the key for an hour, least of all after the command that heard it ended. A longer wait the
 * server really asks for, this command then hears itself.
 */
export const SHARED_HOLD_S = 65;

/** The most requests one log keeps (the newest): a Pro plan's minute is 300. */
export const SHARED_LOG_MAX = 1000;

export class Sharing {
  private readonly mine = new Map<number, SharedRequest>();
  /** Others' requests replayed here: their ticket, and whether their end was replayed too. */
  private readonly replayed = new Map<string, { ticket: { seq: number }; sentAt: number; ended: boolean }>();

  constructor(
    private readonly store: SharedReports | undefined,
    private readonly limiter: Limiter,
    private readonly replay: Replay,
  ) {}

  /** What holds our next request, others' requests and answers replayed first; one of theirs out may free it when answered. */
  hold(now: number): Hold | undefined {
    if (this.store?.claim?.() === false) return { ms: LOOK_AGAIN_MS, reason: 'shared' };
    this.sync(now);
    const hold = this.replay.hold(now);
    // Nothing goes: no log to write, the right to decide goes back (else sent() writes and gives it back).
    if (hold) this.store?.release?.();
    return hold && hold.ms === undefined && this.othersOut()
      ? { ...hold, ms: LOOK_AGAIN_MS, reason: 'shared' }
      : hold;
  }

  /** Others' requests and answers since the last look, replayed in the order they happened, up to `now`. */
  sync(now: number): void {
    if (!this.store) return;
    let logs: SharedLog[];
    try {
      logs = this.store.read();
    } catch {
      return;
    }
    const events: { at: number; id: string; request: SharedRequest; end: boolean }[] = [];
    const seen = new Set<string>();
    const longest = longestPeriodMs(this.replay.windows());
    for (const log of logs)
      for (const request of log.requests) {
        // Answered a longest period ago and its report's window refilled: no window counts it any more.
        if (!stillCounts(request, now, longest)) continue;
        const id = `${log.writer}\u0000${request.seq}`;
        seen.add(id);
        const known = this.replayed.get(id);
        if (!known && request.sentAt <= now) events.push({ at: request.sentAt, id, request, end: false });
        if (!known?.ended && request.doneAt !== undefined && request.doneAt <= now)
          events.push({ at: request.doneAt, id, request, end: true });
      }
    events.sort((a, b) => a.at - b.at || Number(a.end) - Number(b.end));
    for (const e of events) {
      if (!e.end) {
        // Let out where this limiter would have held it: the other's view differs, and its request may
        // have opened a window's next period unseen, so that period's start bounds nothing.
        if (this.replay.hold(e.at)) openedUnseen(this.replay.windows());
        this.replayed.set(e.id, { ticket: this.replay.send(e.at), sentAt: e.at, ended: false });
        continue;
      }
      const known = this.replayed.get(e.id);
      if (!known || known.ended) continue;
      known.ended = true;
      this.replayEnd(known.ticket, e.at, e.request);
    }
    // A request gone from its log unanswered (its writer ended), or out longer than a longest period
    // (no request waits for its answer that long: --timeout), is over: it counts as one without an answer.
    for (const [id, known] of this.replayed) {
      if (known.ended && !seen.has(id)) this.replayed.delete(id);
      else if (!known.ended && (!seen.has(id) || now - known.sentAt > longest)) {
        known.ended = true;
        this.limiter.settle(known.ticket, now);
      }
    }
  }

  private replayEnd(ticket: Ticket, at: number, r: SharedRequest): void {
    if (r.remaining === undefined && r.retryAfter === undefined) this.limiter.settle(ticket, at);
    else {
      const held = (s?: number) => (s === undefined ? undefined : Math.min(s, SHARED_HOLD_S));
      const headers = { limit: r.limit, remaining: r.remaining, reset: held(r.reset) };
      this.limiter.observe(ticket, headers, held(r.retryAfter), at);
    }
  }

  private othersOut(): boolean {
    for (const known of this.replayed.values()) if (!known.ended) return true;
    return false;
  }

  /** One of ours left (`at`). */
  sent(ticket: Ticket, at: number): Ticket {
    if (!this.store) return ticket;
    this.mine.set(ticket.seq, { seq: ticket.seq, sentAt: at });
    this.publish(at);
    return ticket;
  }

  /** One of ours ended (`at`), with its report or without one. */
  ended(seq: number, at: number, report: Omit<SharedRequest, 'seq' | 'sentAt'>): void {
    const request = this.mine.get(seq);
    if (!this.store || !request || request.doneAt !== undefined) return;
    Object.assign(request, report, { doneAt: at });
    // Written with our next request (the log is whole each time), or now when none of ours is out, or
    // for a 429 (its pause holds the others): half the writes of a busy batch (1.5-4 ms each on a
    // loaded machine), and a request whose answer is not written yet only counts as out for a while.
    const out = [...this.mine.values()].some((r) => r.doneAt === undefined);
    if (!out || report.retryAfter !== undefined) this.publish(at);
  }

  private publish(now: number): void {
    const longest = longestPeriodMs(this.replay.windows());
    for (const [seq, r] of this.mine) if (!stillCounts(r, now, longest)) this.mine.delete(seq);
    const requests = [...this.mine.values()].slice(-SHARED_LOG_MAX);
    try {
      this.store?.write(requests);
    } catch {
      // Only the sharing is lost.
    }
  }
}

/**
 * Whether a request still says something to a limiter: out, answered within the longest period it
 * knows, or answered with a report (a Reset, a 429's Retry-After) whose window has not refilled yet.
 * A new process knows no window (its longest period is a second): the report of a batch waiting for
 * a refill 30 s away must still reach it, or its first request goes blind into the empty window.
 */
function stillCounts(r: SharedRequest, now: number, longest: number): boolean {
  if (r.doneAt === undefined) return true;
  return now - r.doneAt <= longest || refilledAt(r) > now;
}

/**
 * When the window an answered request's report named has refilled for the others (ms; never while
 * unanswered), as the report says (its Reset, a 429's Retry-After), SHARED_HOLD_S at most.
 */
export function refilledAt(r: SharedRequest): number {
  const heldS = Math.min(SHARED_HOLD_S, Math.max(r.reset ?? 0, r.retryAfter ?? 0));
  return (r.doneAt ?? Number.POSITIVE_INFINITY) + 1000 * heldS;
}

/** A store in memory: limiters of one process (the simulation, tests) share it, each with its own handle. */
export class MemoryReports {
  private readonly logs = new Map<string, SharedRequest[]>();
  private writers = 0;

  handle(): SharedReports {
    const writer = String(++this.writers);
    return {
      read: () =>
        [...this.logs]
          .filter(([w]) => w !== writer)
          .map(([w, requests]) => ({ writer: w, requests: requests.map((r) => ({ ...r })) })),
      write: (requests) => {
        this.logs.set(
          writer,
          requests.map((r) => ({ ...r })),
        );
      },
    };
  }
}
