// What the newest report says of the windows it does not name (spec section 8: every response reports
// the window closest to exhaustion), for the limiter (ratelimit.ts) when another client shares them.

import { countedSince, othersShown, periodMs, type Sent, type Window } from './ratelimit-window.js';

/** A report (Remaining of Limit) of window `of`, and its request. */
export interface Share {
  remaining: number;
  limit: number;
  seq: number;
  of: Window;
}

/**
 * What a window not reported since its refill can count on, at most, from the newest report (of
 * another window), counted from that report's request on; and until when. The server reports the
 * window closest to exhaustion, so every other one has at least that share left, and with another
 * client on the key, no more is sure. It holds until the reported window refills or this one's own
 * period ends. Undefined when it says nothing of `w`.
 */
export function shareCap(w: Window, share: Share | undefined, now: number) {
  if (w.resetAt !== undefined || !w.limit || !share || share.seq <= w.seq) return undefined;
  const until = Math.min(share.of.resetAt ?? now, (w.startedAt ?? now) + periodMs(w));
  if (now >= until) return undefined;
  return { left: Math.ceil((share.remaining * w.limit) / share.limit), seq: share.seq, until };
}

/**
 * Whether a report (`remaining` of `limit`) of another window leaves room in `w` for another
 * client's requests, `ours` of ours counted in it since its newest report: `w` has at least the
 * report's share left, and fewer than ours alone would leave may be that share. A report of the
 * per-second window that counts ours alone then says nothing of a longer window.
 */
export function leavesRoom(w: Window, remaining: number, limit: number, ours: number): boolean {
  return w.limit !== undefined && Math.ceil((remaining * w.limit) / limit) < w.remaining - ours;
}

/**
 * What a new period's first report of `w` (`remaining` of `limit`) says of another client after a
 * 429, or after another window's report left `w` unsettled (undefined: nothing). Nobody else spent
 * `w`; another window it does not name may have counted another's requests within the share it
 * leaves, unseen: that one is left unsettled, for its own first report of a period to say.
 */
export function settleOthers(
  w: Window,
  remaining: number,
  limit: number | undefined,
  sent: readonly Sent[],
  windows: Map<string, Window>,
): 'none' | 'sure' | undefined {
  const shown = othersShown(w, remaining, sent);
  if (shown === 'none' && limit)
    for (const other of windows.values())
      if (other !== w && leavesRoom(other, remaining, limit, countedSince(sent, other)))
        other.unsettled = true;
  return shown;
}
