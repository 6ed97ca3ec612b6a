// Theoretical minimum time of N requests under the sandbox's fixed windows (src/sandbox/ratelimit.ts):
// a window opens at the first request at or after the previous window's end and admits `limit`
// requests until `start + windowMs`; a request is admitted only when every window admits it.
//
// Formula: dispatch each request at the earliest instant every window admits it (greedy):
//   t_1 = 0;  t_k = max(t_{k-1} + gap, max over windows i full at that time of (start_i + windowMs_i))
// with gap = the latency when requests are sequential (each waits for the previous answer, as pages
// do) and 0 with enough concurrency; the minimum elapsed time is t_N + latency (the last answer).
// Greedy is optimal here: sending a request later never lets any later request go earlier, because
// a window's end only depends on when it opened, and opening it later only delays its end.
//
// "5/1s,30/10s", 40 sequential pages, latency 0: 5 per second until the 10 s window's 30 are used
// (t = 0..5 s), then 5 at t = 10 s and the last 5 at t = 11 s: 11.0 s.
// "20/1s,1000/1m", 200 concurrent requests, latency 100 ms: 20 per second, last at t = 9 s: 9.1 s.
// "3/1s,20/1m" (the Free plan), 30 concurrent requests, latency 20 ms: 3 per second until the minute
// window's 20 are used (t = 0..6 s), then 3 a second from t = 60 s, the last at t = 63 s: 63.02 s.

/** "5/1s,30/10s" -> [{ limit: 5, windowMs: 1000 }, ...] (the sandbox's syntax). */
export function parseWindows(spec) {
  const units = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  if (spec.trim() === 'none') return [];
  return spec.split(',').map((part) => {
    const m = /^(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)$/.exec(part.trim());
    if (!m) throw new Error(`bad window ${part}`);
    return { limit: Number(m[1]), windowMs: Number(m[2]) * units[m[3]] };
  });
}

/** Earliest dispatch times (ms from the first request) of `count` requests. */
export function dispatchTimes(count, windows, { gapMs = 0 } = {}) {
  const starts = windows.map(() => Number.NEGATIVE_INFINITY);
  const counts = windows.map(() => 0);
  const times = [];
  let t = 0;
  for (let k = 0; k < count; k++) {
    if (k > 0) t += gapMs;
    // Wait until every window admits the request at t.
    for (;;) {
      let waitUntil = t;
      windows.forEach((w, i) => {
        const open = t < starts[i] + w.windowMs;
        if (open && counts[i] >= w.limit) waitUntil = Math.max(waitUntil, starts[i] + w.windowMs);
      });
      if (waitUntil === t) break;
      t = waitUntil;
    }
    windows.forEach((w, i) => {
      if (t >= starts[i] + w.windowMs) {
        starts[i] = t;
        counts[i] = 0;
      }
      counts[i]++;
    });
    times.push(t);
  }
  return times;
}

/** Minimum elapsed ms: the last dispatch plus its answer's latency. */
export function minimumMs(count, windows, { latencyMs = 0, sequential = false } = {}) {
  const times = dispatchTimes(count, windows, { gapMs: sequential ? latencyMs : 0 });
  return times[times.length - 1] + latencyMs;
}
