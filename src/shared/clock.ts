// Time as mtg reads it. Everything that waits or measures (the client's backoff, the rate limiter,
// the sandbox's windows, sync's estimate, watch's interval, the MCP server's --sync-every) takes a
// Clock instead of reading Date.now() and real timers, so that tests run them on a virtual clock
// (test/helpers/virtual-clock.ts) in milliseconds instead of waiting through real windows.

export interface Clock {
  /** Milliseconds since the Unix epoch, as Date.now(). */
  now(): number;
  /**
   * Resolves after `ms`; when `signal` aborts first, resolves at once (callers that must tell the
   * difference check `signal.aborted`). Never rejects.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Calls `fn` after `ms`; the returned function cancels it. The timer never holds the process open. */
  timeout(fn: () => void, ms: number): () => void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep(ms, signal) {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener('abort', done, { once: true });
    });
  },
  timeout(fn, ms) {
    const timer = setTimeout(fn, Math.max(0, ms));
    timer.unref?.();
    return () => clearTimeout(timer);
  },
};
