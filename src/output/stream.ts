// Writing with backpressure: resolve at once while the stream has room, otherwise on 'drain'.
// 'error' and 'close' also settle the wait, so a consumer that went away (EPIPE from `| head`)
// rejects instead of hanging forever.

export function writeChunk(out: NodeJS.WritableStream, chunk: string): Promise<void> {
  if (chunk === '') return Promise.resolve();
  if (out.write(chunk)) return Promise.resolve();
  // Already failed (a write error such as ENOSPC was emitted before anyone listened): no 'drain' or
  // 'error' will come again, so waiting would hang.
  const dead = out as NodeJS.WritableStream & { destroyed?: boolean; errored?: Error | null };
  if (dead.destroyed) return Promise.reject(dead.errored ?? new Error('output stream closed'));
  return new Promise<void>((resolve, reject) => {
    const done = (err?: unknown): void => {
      out.off('drain', onDrain);
      out.off('error', onError);
      out.off('close', onClose);
      if (err) reject(err);
      else resolve();
    };
    const onDrain = (): void => done();
    const onError = (err: unknown): void => done(err ?? new Error('output stream error'));
    const onClose = (): void => done(new Error('output stream closed'));
    out.on('drain', onDrain);
    out.on('error', onError);
    out.on('close', onClose);
  });
}

/** Best-effort write for interruptions: never waits, never throws, skips a dead stream. */
export function writeNoWait(out: NodeJS.WritableStream, chunk: string): void {
  const w = out as NodeJS.WritableStream & { destroyed?: boolean; writableEnded?: boolean };
  if (chunk === '' || w.destroyed || w.writableEnded) return;
  try {
    out.write(chunk);
  } catch {}
}

/** Turns items into text; `index` counts from the first item of the whole document. */
export interface Encoder {
  item(item: unknown, index: number): string;
  /** Text that completes the document; `total` includes resumed items. */
  finish(total: number): string;
}

/** The streaming ItemWriter shared by json, ndjson, csv and tsv. */
export function streamWriter(out: NodeJS.WritableStream, enc: Encoder, continueAfter = 0) {
  let count = 0;
  let closed = false;
  const check = (): void => {
    if (closed) throw new Error('write after end');
  };
  return {
    get count() {
      return count;
    },
    // async: a write after end rejects rather than throws; the body up to writeChunk still runs
    // synchronously, so chunks go out in call order even when callers do not await.
    async write(item: unknown): Promise<void> {
      check();
      return writeChunk(out, enc.item(item, continueAfter + count++));
    },
    async writeMany(items: readonly unknown[]): Promise<void> {
      check();
      let text = '';
      for (const item of items) text += enc.item(item, continueAfter + count++);
      return writeChunk(out, text);
    },
    end(): Promise<void> {
      if (closed) return Promise.resolve();
      closed = true;
      return writeChunk(out, enc.finish(continueAfter + count));
    },
    abort(interrupted = false): Promise<void> {
      // Every item went out as one complete chunk, so finishing the document is all it takes;
      // no waiting for 'drain': the consumer may be the thing that stopped.
      if (closed) return Promise.resolve();
      closed = true;
      // A command that fails before its first item (no server, a bad key) prints no data at all,
      // not a lone csv header or an empty array that a script could take for an empty result.
      // Ctrl-C is not a failure: exit 130's output is well-formed (the contract), so it prints
      // what an empty list does ("[]", the csv header), as it closes a list it cut short.
      if (interrupted || continueAfter + count > 0) writeNoWait(out, enc.finish(continueAfter + count));
      return Promise.resolve();
    },
  };
}
