// Our requests of the last two longest periods, by the limiter's clock: what a per-second window's
// 429 can have counted of ours (docs/rate-limits.md has the model). The limiter's own record (Sent)
// goes by order and keeps only what some window's count still needs; this keeps times, for that.

import type { RateLimitHeaders } from './ratelimit-headers.js';
import type { Hold } from './ratelimit-turns.js';
import { type Pace, periodMs, type Window, windowKey } from './ratelimit-window.js';

interface Recent {
  seq: number;
  sentAt: number;
  /** When its answer came back (undefined: still out). */
  doneAt?: number;
  /** When an answer came back: the server decided it before (undefined: none yet, or it ended without one). */
  heardAt?: number;
  /** The per-second window whose report counted it alone: it began a period there. */
  began?: Window;
}

export class RecentRequests {
  /** `fastestMs`: the shortest round trip the limiter has seen (ms), kept there. */
  constructor(private readonly fastestMs: () => number = () => Number.POSITIVE_INFINITY) {}

  private list: Recent[] = [];
  /** Round trips of reported answers (ms), by when they came back: kept as long as the list's answers. */
  private trips: { at: number; ms: number }[] = [];
  /** Two longest periods (what the list keeps). */
  private keepMs = 0;
  /**
   * An answer came back while a request that left before it was still out: answers reorder. It does
   * not lapse: ours spread go one at a time, and then no answer can overtake another.
   */
  reordered = false;

  /** The longest round trip of the answers kept; one longer than a period measures no window, and is left out. */
  slowestMs(): number {
    return Math.max(0, ...this.trips.filter((t) => t.ms <= this.keepMs / 2).map((t) => t.ms));
  }

  /**
   * A request let out at `now`. Answers from before two longest periods of `windows` ahead of the
   * oldest request still out (or of `now`) tell nothing of a refusal of it or a later one, and go.
   */
  sent(seq: number, now: number, windows: Iterable<Window>): void {
    const keepMs = 2 * Math.max(0, ...[...windows].map(periodMs));
    let oldest = now;
    for (const r of this.list) if (r.doneAt === undefined) oldest = Math.min(oldest, r.sentAt);
    this.list = this.list.filter((r) => r.doneAt === undefined || r.doneAt >= oldest - keepMs);
    this.trips = this.trips.filter((t) => t.at >= now - keepMs);
    this.keepMs = keepMs;
    this.list.push({ seq, sentAt: now });
  }

  /**
   * Its answer came back at `now` (`answer`: or it ended without one, which tells nothing of the
   * order answers come in); a refused one (429) was not counted, and goes.
   */
  answered(seq: number, now: number, refused: boolean, answer = true): void {
    if (answer && this.list.some((r) => r.seq < seq && r.doneAt === undefined)) this.reordered = true;
    if (refused) this.list = this.list.filter((r) => r.seq !== seq);
    else
      for (const r of this.list)
        if (r.seq === seq && r.doneAt === undefined)
          Object.assign(r, { doneAt: now, heardAt: answer ? now : undefined });
  }

  /**
   * The round trip past a window's end bound before a refill is found (`fastestMs`: the shortest seen):
   * with answers reordered, the longest, as a report that came back late bounds its end that late.
   */
  roundTripMs(fastestMs: number): number {
    return this.reordered ? this.slowestMs() : fastestMs;
  }

  /**
   * The spread of our requests' way out (ms), taken as half that of the round trips (the slowest kept,
   * the fastest seen; both legs vary alike): a way out alone is never measured.
   */
  outSpreadMs(): number {
    return Math.max(0, this.slowestMs() - this.fastestMs()) / 2;
  }

  /**
   * The least gap between ours spread beside a sure other client, from the windows the spread starves
   * (`paced`): each one's allowance less the other's slot per its period plus the way out's spread
   * (sent further apart, no more of ours land in one of its periods). Ours fall behind the spread's
   * schedule so, and catch up once its end is bounded (spreadAt()): a second's last slot is taken only
   * while behind, where the other's request lands less often than among ours going evenly at 2 a
   * second (3/1s beside 20/10s, answers reordered). With it, the way out's spread (`landMs`, spreadAt()).
   */
  pace(paced: readonly Window[]): Pace {
    const gapMs = Math.max(0, ...paced.map((w) => (periodMs(w) + this.outSpreadMs()) / (w.limit! - 1)));
    return { gapMs, landMs: paced.length ? this.outSpreadMs() : undefined };
  }

  /**
   * What holds one more of ours back with at most `w`'s allowance of ours within one of its periods at
   * the server. The one `w.limit` back, and each sent before it, reached the server by its send plus
   * the way out's spread, or by its answer once back (sooner when the way back was slow): the next,
   * which reaches it no sooner than it leaves, goes a period after the latest of those. Refused ones
   * (429) left the list: the server did not count them.
   */
  room(w: Window, now: number): Hold | undefined {
    const spreadMs = this.outSpreadMs();
    const sends = this.list.map((r) => r.sentAt).filter((at) => at > now - periodMs(w) - spreadMs);
    if (!w.limit || sends.length < w.limit) return undefined;
    const nth = sends.sort((a, b) => a - b)[sends.length - w.limit]!;
    const reached = (r: Recent) => Math.min(r.sentAt + spreadMs, r.heardAt ?? Number.POSITIVE_INFINITY);
    const at = Math.max(...this.list.filter((r) => r.sentAt <= nth).map(reached)) + periodMs(w);
    return at > now ? { ms: Math.ceil(at - now), reason: 'window', limit: w.limit } : undefined;
  }

  /** Ours answered after `at`, or still out: a period that began by then may count them (none when `at` is unknown). */
  answeredAfter(at: number | undefined): number {
    if (at === undefined) return 0;
    return this.list.filter((r) => (r.doneAt ?? Number.POSITIVE_INFINITY) > at).length;
  }

  /**
   * When the `k`-th latest of our requests the server had decided by the answer back at `at` was
   * decided, at the latest: its answer (those still out then may be among them, unseen: they count
   * first). Infinity: fewer were answered.
   */
  decidedBy(k: number, at: number): number {
    const out = this.list.filter((r) => r.sentAt < at && (r.doneAt === undefined || r.doneAt > at)).length;
    const answered = this.list.filter((r) => r.doneAt !== undefined && r.doneAt <= at).map((r) => r.doneAt!);
    return answered.sort((a, b) => b - a)[k - 1 - out] ?? Number.POSITIVE_INFINITY;
  }

  /**
   * The answer to request `seq`, when it names a per-second window `w` (undefined: it does not):
   * an admitted request counted alone began a period there, which a later refusal's count leaves
   * out once over; a refusal (429) shows another client when it counts more than our requests can
   * make. Not when a longer window of its allowance is known: its last second says Reset 1 too.
   */
  reported(
    seq: number,
    at: { sentAt: number; receivedAt: number; refused: boolean },
    { limit, remaining, reset }: RateLimitHeaders,
    windows: Map<string, Window>,
  ): boolean {
    this.trips.push({ at: at.receivedAt, ms: at.receivedAt - at.sentAt });
    if (!limit || remaining === undefined || reset === undefined || reset > 1) return false;
    const w = windows.get(windowKey(limit, reset));
    if (!w || windows.has(windowKey(limit, Number.POSITIVE_INFINITY))) return false;
    if (at.refused) return this.showsOthers(seq, at, limit - remaining, w);
    if (remaining === limit - 1) for (const r of this.list) if (r.seq === seq) r.began = w;
    return false;
  }

  /**
   * Whether a 429 of per-second window `w` that counted `count` requests counts more than ours can
   * make. The server's period that refused it began less than a period before its decision, and
   * after every period that began with one of ours and was over when the refused one left, so only
   * ours answered since the later of its send less a period and those periods' ends (their first's
   * send plus a period), and sent before its answer came back, can be in its count.
   */
  private showsOthers(
    seq: number,
    { sentAt, receivedAt }: { sentAt: number; receivedAt: number },
    count: number,
    w: Window,
  ): boolean {
    const period = periodMs(w);
    let since = sentAt - period;
    for (const first of this.list)
      if (first.began === w && first.doneAt !== undefined && first.doneAt + period <= sentAt)
        since = Math.max(since, first.sentAt + period);
    const ours = this.list.filter(
      (r) => r.seq !== seq && r.sentAt < receivedAt && (r.doneAt ?? Number.POSITIVE_INFINITY) > since,
    );
    return ours.length < count;
  }
}
