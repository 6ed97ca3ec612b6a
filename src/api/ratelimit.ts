// Client-side pacing from RateLimit-Limit/Remaining/Reset and Retry-After (the model: docs/rate-limits.md).
// One limiter is shared by every request of a command; callers take turns through acquire().

import { type Clock, realClock } from '../shared/clock.js';
import type { RateLimitHeaders } from './ratelimit-headers.js';
import { RecentRequests } from './ratelimit-recent.js';
import { type Share, settleOthers, shareCap } from './ratelimit-share.js';
import { type SharedReports, Sharing } from './ratelimit-shared.js';
import { type Hold, longer, type Ticket, Turns, type WaitInfo } from './ratelimit-turns.js';
import type { Sent, Window } from './ratelimit-window.js';
import * as win from './ratelimit-window.js';

export { parseRateLimitHeaders, parseRetryAfter, type RateLimitHeaders } from './ratelimit-headers.js';
export type { Ticket, WaitInfo } from './ratelimit-turns.js';

/** Past a window's reported end before it counts as refilled: Reset is whole seconds, clocks differ. */
export const RESET_MARGIN_MS = 50;

export interface RateLimiterOptions {
  /** The most a command may wait on rate limits in all (--max-wait). */
  maxWaitMs: number;
  clock?: Clock;
  /** Sleeps `ms`, ending early when `cancel` aborts; may throw to stop every waiter (Ctrl-C). Default: the clock's. */
  sleep?: (ms: number, cancel?: AbortSignal) => Promise<void>;
  onWait?: (info: WaitInfo) => void;
  /** Other mtg processes' requests and answers on the same key (ratelimit-shared.ts). */
  shared?: SharedReports;
}

/**
 * Admits requests in their callers' order, each when every window has room for it after counting
 * the requests sent since its newest report. A window's last slot goes alone, so that the report
 * that says it is full is of the newest request. A 429 pauses everyone for its Retry-After and the
 * refused request keeps its place at the head (acquire(order)).
 */
export class RateLimiter {
  readonly clock: Clock;
  private readonly windows = new Map<string, Window>();
  /** Requests let out and still of use to some window's count: in flight, or answered after its report left. */
  private sent: Sent[] = [];
  private readonly recent = new RecentRequests(() => this.fastestMs);
  private seq = 0;
  /** Counts sends and answers: their order, which the clock may not tell (one instant, or its resolution). */
  private step = 0;
  private pausedUntil = 0;
  private heardBack = false;
  /** When the newest answer came back (or a request ended without one): every earlier decision was before it. */
  private lastDoneAt = Number.NEGATIVE_INFINITY;
  /** The shortest round trip seen (ms): both legs of any request take at least as long in all. */
  private fastestMs = Number.POSITIVE_INFINITY;
  /** Another client spending the same windows, as far as it shows (docs/rate-limits.md: the model). */
  private others: 'none' | 'maybe' | 'sure' = 'none';
  private readonly turns: Turns<Ticket>;
  private share?: Share; // the newest report
  private readonly sharing: Sharing;

  constructor(options: RateLimiterOptions) {
    this.clock = options.clock ?? realClock;
    const { maxWaitMs, onWait, sleep } = options;
    const windows = () => this.windows.values();
    const replay = { hold: (at: number) => this.hold(at), send: (at: number) => this.send(at, 0), windows };
    this.sharing = new Sharing(options.shared, this, replay);
    const send = (now: number, order: number) => this.sharing.sent(this.send(now, order), now);
    this.turns = new Turns(this.clock, maxWaitMs, (now) => this.sharing.hold(now), send, onWait, sleep);
  }

  /** A new --max-wait allowance: a long-running command (mtg watch) grants one per unit of work. */
  resetWaited = (): void => this.turns.resetWaited();

  /** Wait for our turn and for room in every window; `order` (from an earlier ticket) keeps a retry's place. */
  acquire = (order?: number): Promise<Ticket> => this.turns.take(order);

  /**
   * An answer, in one call: its report, of the window closest to exhaustion, and for a 429 its wait
   * (`refusedForSeconds`: the server did not count it; nobody sends until then). The server decided
   * after the request left and before its answer came back: the window ends within Reset of that,
   * and a request sent one fastest round trip before that bound reaches the server after it.
   */
  observe(ticket: Ticket, headers: RateLimitHeaders, refusedForSeconds?: number, at = this.clock.now()) {
    this.sharing.ended(ticket.seq, at, { ...headers, retryAfter: refusedForSeconds });
    this.record(ticket, headers, refusedForSeconds !== undefined, at);
    if (refusedForSeconds !== undefined) {
      this.done(ticket, at, true);
      if (this.others === 'none') this.others = 'maybe';
      this.pausedUntil = Math.max(this.pausedUntil, at + refusedForSeconds * 1000);
    }
    this.turns.notify();
  }

  private record(ticket: Ticket, headers: RateLimitHeaders, refused: boolean, receivedAt: number): void {
    const mine = this.done(ticket, receivedAt);
    this.heardBack = true;
    const { limit, remaining, reset } = headers;
    if (remaining === undefined || reset === undefined) return;
    const sentAt = ticket.at ?? receivedAt;
    this.fastestMs = win.noteRoundTrip(this.windows.values(), this.fastestMs, receivedAt - sentAt);
    const bound = receivedAt + reset * 1000 - this.fastestMs;
    if (!refused && this.others === 'none')
      for (const other of this.windows.values()) win.noteStart(other, sentAt, receivedAt, this.fastestMs);
    if (win.firstShowsOthers(this.windows, limit, remaining, this.seq, refused)) this.others = 'sure';
    const key = win.windowKey(limit, reset);
    const w = this.windows.get(key) ?? win.newWindow(limit);
    this.windows.set(key, w);
    if (this.recent.reported(ticket.seq, { sentAt, receivedAt, refused }, headers, this.windows))
      this.others = 'sure';
    if (limit) this.share = { remaining, limit, seq: ticket.seq, of: w };
    if (mine) Object.assign(mine, { named: w, share: limit ? remaining / limit : undefined });
    // Bounds of one period lie within a second of each other (Reset is whole seconds, rounded up).
    const slack = 1000 + RESET_MARGIN_MS;
    if (!refused && this.pacing()) win.lastSecondBound(w, this.windows, sentAt, bound, slack);
    if (sentAt < w.since || (w.resetAt !== undefined && bound < w.resetAt - slack)) return; // a period before
    if (
      w.resetAt === undefined ||
      w.estimated ||
      // Surely a later decision (its request left after that report came back), with a later end or a lower count.
      (this.sentStep(ticket) > (w.heardStep ?? Number.POSITIVE_INFINITY) &&
        (bound > w.resetAt + slack || remaining > w.remaining))
    ) {
      // A new period. One whose start this limiter saw (after a refill) shows the window's whole length,
      // and, after a 429, whether another client spent some of it.
      if (w.since > Number.NEGATIVE_INFINITY) w.learned = true;
      if (w.learned && (this.others === 'maybe' || (w.unsettled && this.others === 'none')))
        this.others = settleOthers(w, remaining, limit, this.sent, this.windows) ?? this.others;
      w.unsettled = false;
      win.newPeriod(w, w.resetAt === undefined);
      Object.assign(w, { remaining, seq: ticket.seq, resetAt: bound, estimated: false }, this.mark(ticket));
    } else if (remaining < w.remaining || ticket.seq > w.seq) {
      // Counted more than this limiter can have had counted since the report before: another client.
      // A refused request (429) that left after a report came back is not in the count.
      const refusedAt = refused ? this.sentStep(ticket) : undefined;
      if (win.countsMore(w, remaining, this.sent, refusedAt)) this.others = 'sure';
      // Within a period the server's count only grows: the lowest Remaining is the newest.
      if (remaining < w.remaining) Object.assign(w, { remaining }, this.mark(ticket));
      w.seq = Math.max(w.seq, ticket.seq);
      w.resetAt = Math.min(w.resetAt, bound);
    }
    w.longestResetMs = Math.max(w.longestResetMs ?? 0, reset * 1000);
    // Beside ours spread, a starved window counts at most one of the other's: it began by the earlier of ours it holds.
    if (!refused && limit && win.starved(w, this.spread(), this.overheadMs()))
      win.endsBy(w, this.recent.decidedBy(limit - remaining - 1, receivedAt) - this.fastestMs);
    const at = { reportSeq: ticket.seq, reportSentStep: this.sentStep(ticket), heardStep: this.step };
    win.noteReport(w, { ...at, remaining }, refused, sentAt + (reset - 1) * 1000);
    if (this.others === 'none' && w.kept && w.othersSeen) this.others = 'sure'; // took the slot kept
  }

  /** The request ended (answered, or without a usable report: a network error, a timeout). */
  settle(ticket: Ticket, at = this.clock.now()): void {
    this.sharing.ended(ticket.seq, at, {});
    this.done(ticket, at, false, false);
    this.turns.notify();
  }

  private done(ticket: Ticket, at: number, refused = false, answer = true): Sent | undefined {
    const sent = this.sent.find((s) => s.seq === ticket.seq);
    this.recent.answered(ticket.seq, at, refused, answer);
    this.lastDoneAt = at;
    return sent && Object.assign(sent, { doneStep: sent.doneStep ?? ++this.step, refused });
  }

  /** Requests let out and not yet settled (answered, failed or refused). */
  inFlight = (): number => this.sent.filter((s) => s.doneStep === undefined).length;

  /** Nobody sends until `seconds` from now. */
  pause(seconds: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + seconds * 1000);
    this.turns.notify();
  }

  /** The least time `requests` more take under the windows seen so far (ms; undefined: none known). */
  minimumMs = (requests: number) =>
    win.leastMsOfAll(this.windows, requests, this.clock.now(), (w) => this.usedSince(w.seq));

  /** Requests per second the windows seen so far allow indefinitely (undefined before any is known). */
  sustainableRate = (): number | undefined => win.sustainableRate(this.windows.values());

  /** The window whose allowance ours spread (a shorter one's period is found over at its bound plus the margin and a round trip). */
  private spread = () => win.binding(this.windows.values(), this.overheadMs());
  private overheadMs = () => RESET_MARGIN_MS + this.recent.roundTripMs(this.fastestMs);
  /** Beside a sure other, answers reordered: ours go by our sends (hold()), a longer window's last second bounds its end. */
  private pacing = () => this.others === 'sure' && this.recent.reordered;
  /** The time one request takes at the sustainable rate (ms). */
  sustainableMsPerRequest = () => (this.sustainableRate() ? 1000 / this.sustainableRate()! : undefined);

  /** The request behind a window's newest count, and when its answer came back. */
  private mark(ticket?: Ticket): Partial<Window> {
    const sentStep = ticket ? this.sentStep(ticket) : this.step;
    return { reportSeq: ticket?.seq, reportSentStep: sentStep, heardStep: this.step };
  }

  private usedSince = (seq: number) => win.used(this.sent, seq);
  private sentStep = (t: Ticket) => this.sent.find((s) => s.seq === t.seq)?.sentStep ?? this.step;

  /** What keeps the next request back, or undefined when it may go now. */
  private hold(now: number): Hold | undefined {
    if (this.pausedUntil > now) return { ms: this.pausedUntil - now, reason: 'retry-after' };
    const inFlight = this.sent.some((s) => s.doneStep === undefined);
    // Nothing known yet: one request finds out what the windows are before others follow it.
    if (!this.heardBack && inFlight) return { ms: undefined, reason: 'window' };
    let hold: Hold | undefined;
    // Ours spread the binding window's allowance beside a light client, or alone while answers keep their order.
    const spread = this.others === 'sure' || !this.recent.reordered ? this.spread() : undefined;
    const burst = this.others === 'sure' ? 1 : win.burst(this.windows.values(), spread, this.overheadMs());
    // Beside a sure other, answers reordered: the windows the spread starves go by our sends (recent.pace).
    const pacing = this.pacing();
    const paced = pacing ? win.starving(this.windows.values(), spread, this.overheadMs()) : [];
    for (const [key, w] of this.windows) {
      if (now >= (win.endOf(w) ?? win.staleAt(w, this.lastDoneAt)) + RESET_MARGIN_MS) {
        // Refilled: the next report says anew (without its allowance it cannot be counted). Another
        // client may be gone once a whole period of the longest window was ours alone: the next says.
        if (this.others === 'sure' && win.oursAlone(w, this.usedSince(w.seq), this.windows))
          this.others = 'maybe';
        win.closePeriod(w, this.usedSince(w.seq), this.others === 'none' ? this.fastestMs : undefined);
        if (w.limit === undefined) this.windows.delete(key);
        else win.refill(w, this.seq, now, this.mark(), this.recent.answeredAfter(w.endAfter));
        continue;
      }
      if (paced.includes(w) || (pacing && win.lastSecondOf(w, this.windows))) continue; // held below; a last second by its window
      // A refilled window's first request goes alone: maybe beside another, until an answer says what it left;
      // a slot kept (slotsKept), until a report names the window (its count tells whether the other took it).
      const alone = w.kept || (this.others !== 'none' && !win.heardSince(this.sent, w));
      if (alone && w.resetAt === undefined && inFlight) return { ms: undefined, reason: 'window' };
      // Slots left to others, unseen since the report (slotsKept); one unreported since its refill has its share.
      const cap = this.others === 'sure' ? shareCap(w, this.share, now) : undefined;
      const counted = this.usedSince(w.seq) + win.unplaced(this.sent, w);
      const left = Math.min(w.remaining - counted, cap ? cap.left - this.usedSince(cap.seq) : Infinity);
      const full = left <= win.slotsKept(w, this.windows, this.others, !!spread, this.recent.reordered, now);
      const spreadAt = w === spread ? win.spreadAt(w, counted, burst, this.recent.pace(paced)) : undefined;
      if (!full && (spreadAt === undefined || spreadAt <= now)) continue;
      // Full with no end known: its reports are still to come, or it is guessed from its period.
      if (full && w.resetAt === undefined && !cap && !inFlight)
        Object.assign(w, { resetAt: (w.startedAt ?? now) + win.periodMs(w), estimated: true });
      const end = full ? (cap?.until ?? win.endOf(w)) : spreadAt;
      const ms = end === undefined ? undefined : end - now + RESET_MARGIN_MS;
      hold = longer(hold, { ms, reason: 'window', limit: w.limit, estimated: w.estimated });
    }
    for (const w of paced) hold = longer(hold, this.recent.room(w, now));
    return hold;
  }

  private send(now: number, order: number): Ticket {
    this.sent = win.stillOfUse(this.sent, this.windows.values());
    const ticket: Ticket = { seq: ++this.seq, at: now, order };
    this.sent.push({ seq: ticket.seq, sentStep: ++this.step, refused: false });
    this.recent.sent(ticket.seq, now, this.windows.values());
    for (const w of this.windows.values()) win.noteSend(w, now);
    return ticket;
  }
}
