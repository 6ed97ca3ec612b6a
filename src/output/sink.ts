// Where the data goes: stdout, or a file written atomically (-o) or appended to (--checkpoint).
// Atomic: shared/atomic-file.ts (a temp file in the target's folder, fsync'd and renamed over the
// target on commit, removed on abort and, as a last resort, on process exit), written as a stream
// so that a large output is never held in memory. Only a regular file (or the file a symlink
// resolves to) is replaced that way: a device, FIFO or terminal is written in place
// (destination.ts decides), so it is never replaced by a regular file.
import { constants } from 'node:fs';
import { type FileHandle, open, rename, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Writable } from 'node:stream';
import { openAtomicFile, syncFolder } from '../shared/atomic-file.js';
import { UsageError } from '../shared/errors.js';
import { resolveDestination, writeFailure } from './destination.js';

export interface OutputSink {
  stream: NodeJS.WritableStream;
  /** Bytes handed to the OS so far (for a file: including the kept prefix of an appended file). */
  readonly bytesWritten: number;
  /** Waits until everything written so far is in the file (and fsync'd); no-op for stdout. */
  flush(): Promise<void>;
  /** Success: finish the file (atomic output: fsync + rename over the target). */
  commit(): Promise<void>;
  /** Failure or interruption: atomic output removes its temp file, the target stays as it was. */
  abort(): Promise<void>;
}

/** A Writable over a FileHandle that knows exactly how many bytes reached the file. */
class FileSink extends Writable {
  position: number;
  constructor(
    readonly fh: FileHandle,
    start: number,
    /** The path as the user gave it, for error messages. */
    readonly shown: string,
    /** false for pipes, terminals and devices: no offsets there (pwrite would fail with ESPIPE). */
    readonly positional = true,
  ) {
    super({ decodeStrings: true });
    this.position = start;
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.writeAll(chunk).then(
      () => cb(),
      (err) => cb(writeFailure(err, this.shown) as Error),
    );
  }
  override _writev(chunks: { chunk: Buffer }[], cb: (err?: Error | null) => void): void {
    this.writeAll(Buffer.concat(chunks.map((c) => c.chunk))).then(
      () => cb(),
      (err) => cb(writeFailure(err, this.shown) as Error),
    );
  }
  private async writeAll(buf: Buffer): Promise<void> {
    let off = 0;
    while (off < buf.length) {
      const at = this.positional ? this.position : null;
      const { bytesWritten } = await this.fh.write(buf, off, buf.length - off, at);
      off += bytesWritten;
      this.position += bytesWritten;
    }
  }
  /** Resolves when every chunk written so far has been written to the file. */
  settle(): Promise<void> {
    if (this.errored) return Promise.reject(this.errored);
    if (this.writableLength === 0) return Promise.resolve();
    return new Promise((res, rej) => this.write(Buffer.alloc(0), (err) => (err ? rej(err) : res())));
  }
  /** Rejects with the first write error (ENOSPC...), even one that happened before end(). */
  finish(): Promise<void> {
    return new Promise((res, rej) => {
      if (this.errored) return rej(this.errored);
      if (this.writableFinished) return res();
      this.end((err?: Error | null) => {
        const failed = err ?? this.errored;
        if (failed) rej(failed);
        else res();
      });
    });
  }
}

function stdoutSink(out: NodeJS.WritableStream): OutputSink {
  // stdout itself, not a wrapper: renderers need its isTTY and columns.
  return {
    stream: out,
    get bytesWritten() {
      return (out as { bytesWritten?: number }).bytesWritten ?? 0;
    },
    flush: async () => {},
    commit: async () => {}, // stdout is never closed
    abort: async () => {},
  };
}

/**
 * A stage between a command and its output (--jq, src/cli/jq.ts): given the real output, opened
 * as without it, it returns what the command writes to instead. Carried by the output plan.
 */
export type OutputStage = (target: OutputSink) => OutputSink;

/**
 * `path` undefined, "-" or /dev/stdout: `stdout` (the run's, io.out). A device, FIFO or terminal:
 * written in place. Otherwise an atomic file at `path` (for a symlink, at the file it resolves to;
 * the link stays a link).
 */
export async function openOutput(
  stdout: NodeJS.WritableStream,
  path?: string,
  stage?: OutputStage,
): Promise<OutputSink> {
  const target = await openTarget(stdout, path);
  return stage ? stage(target) : target;
}

async function openTarget(stdout: NodeJS.WritableStream, path: string | undefined): Promise<OutputSink> {
  if (path === undefined) return stdoutSink(stdout);
  const dest = await resolveDestination(path, '-o');
  if (dest.kind === 'stdout') return stdoutSink(stdout);
  if (dest.kind === 'special') return inPlaceSink(dest.path, path);
  // Keeps the mode of a file being replaced (e.g. someone made it 0600).
  const file = await openAtomicFile(dest.path, { mode: 0o644, keepMode: true, syncFolder: true });
  const sink = new FileSink(file.handle, 0, path);
  sink.on('error', () => {}); // surfaced through write()/commit(); an unhandled 'error' would crash
  let state: 'open' | 'committed' | 'aborted' = 'open';
  return {
    stream: sink,
    get bytesWritten() {
      return sink.position;
    },
    flush: async () => {
      try {
        await sink.settle();
        await file.handle.sync();
      } catch (err) {
        throw writeFailure(err, path);
      }
    },
    async commit() {
      if (state !== 'open') return;
      state = 'committed';
      try {
        await sink.finish();
      } catch (err) {
        await file.abort();
        throw writeFailure(err, path);
      }
      await file.commit().catch((err) => {
        throw writeFailure(err, path);
      });
    },
    async abort() {
      if (state !== 'open') return;
      state = 'aborted';
      sink.destroy();
      await file.abort();
    },
  };
}

/** A device, FIFO or terminal: opened as it is (never created, truncated or replaced). */
async function inPlaceSink(target: string, shown: string): Promise<OutputSink> {
  const fh = await open(target, constants.O_WRONLY | (constants.O_NOCTTY ?? 0)).catch((err) => {
    throw writeFailure(err, shown);
  });
  const sink = new FileSink(fh, 0, shown, false);
  sink.on('error', () => {}); // surfaced through commit()
  let closed = false;
  const close = async (keepError: boolean): Promise<void> => {
    if (closed) return;
    closed = true;
    try {
      await sink.finish();
    } catch (err) {
      if (keepError) throw writeFailure(err, shown);
    } finally {
      await fh.close().catch(() => {});
    }
  };
  return {
    stream: sink,
    get bytesWritten() {
      return sink.position;
    },
    flush: async () => {
      await sink.settle().catch((err) => {
        throw writeFailure(err, shown);
      });
    },
    commit: () => close(true),
    abort: () => close(false),
  };
}

export interface AppendOptions {
  /**
   * The file the rows become when the export completes: commit() renames `path` onto it (in the
   * same folder), with its mode. Absent: `path` itself is the result (a version 1 checkpoint).
   */
  finalTarget?: string;
}

/** The mode of an existing file, or undefined when there is none. */
async function modeOf(path: string): Promise<number | undefined> {
  return stat(path).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  );
}

/**
 * The partial file of a checkpointed export (FILE.mtg-partial, beside FILE, perhaps in a folder others
 * write to): never through a link, and never one this user did not make. A new export makes it anew
 * (O_EXCL, whatever was left under its name removed first); a resumed one opens only a regular file
 * of this user's with no other name (a planted file or link would take the rows, or be renamed onto FILE).
 */
async function openPartial(
  path: string,
  truncateToBytes: number,
  mode: number | undefined,
): Promise<FileHandle> {
  const { O_RDWR, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;
  if (truncateToBytes === 0) {
    await unlink(path).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT')
        throw new UsageError(`${path} is in the way and cannot be removed (${err.code}): remove it`);
    });
    return open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, mode ?? 0o644);
  }
  const fh = await open(path, O_RDWR | O_NOFOLLOW).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ELOOP')
      throw new UsageError(
        `${path} is a link, not the partial file mtg wrote: remove it and the checkpoint to start over`,
      );
    throw err;
  });
  const st = await fh.stat();
  const uid = process.geteuid?.();
  if (!st.isFile() || st.nlink !== 1 || (uid !== undefined && st.uid !== uid)) {
    await fh.close();
    throw new UsageError(
      `${path} is not the partial file mtg wrote (another owner, type or name): remove it and the checkpoint to start over`,
    );
  }
  return fh;
}

/**
 * A checkpointed export: keeps the first `truncateToBytes` bytes of `path` (what the checkpoint
 * recorded as complete), drops the rest (a half-written page), and appends after it. abort() keeps
 * what was written, for the next run; commit() finishes it and, with `finalTarget`, renames it
 * onto that file, so the final name only ever holds a complete export.
 */
export async function openAppendOutput(
  path: string,
  truncateToBytes: number,
  options: AppendOptions = {},
): Promise<OutputSink> {
  if (!Number.isSafeInteger(truncateToBytes) || truncateToBytes < 0) {
    throw new RangeError(`invalid resume offset: ${truncateToBytes}`);
  }
  const { finalTarget } = options;
  // A new partial file gets the mode the final file would have (someone made it 0600).
  const finalMode = finalTarget === undefined ? undefined : await modeOf(finalTarget);
  const partial = finalTarget !== undefined && finalTarget !== path;
  const fh = await (partial ? openPartial(path, truncateToBytes, finalMode) : open(path, 'r+')).catch(
    (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' && truncateToBytes === 0) return open(path, 'w', finalMode ?? 0o644);
      if (err.code === 'ENOENT') {
        throw new UsageError(
          `${path} is missing (ENOENT), but the checkpoint records ${truncateToBytes} bytes written there; remove the checkpoint to start over`,
        );
      }
      throw err;
    },
  );
  try {
    const { size } = await fh.stat();
    if (size < truncateToBytes) {
      throw new UsageError(
        `${path} has ${size} bytes, fewer than the ${truncateToBytes} the checkpoint recorded; remove the checkpoint to start over`,
      );
    }
    await fh.truncate(truncateToBytes);
    if (truncateToBytes === 0 && finalMode !== undefined) await fh.chmod(finalMode);
  } catch (err) {
    await fh.close();
    throw err;
  }
  const sink = new FileSink(fh, truncateToBytes, path);
  sink.on('error', () => {});
  let closed = false;
  const close = async (complete: boolean): Promise<void> => {
    if (closed) return;
    closed = true;
    try {
      await sink.finish();
      if (complete && finalTarget !== undefined) {
        const mode = await modeOf(finalTarget);
        if (mode !== undefined) await fh.chmod(mode);
      }
      await fh.sync();
    } catch (err) {
      throw writeFailure(err, path);
    } finally {
      await fh.close().catch(() => {});
    }
    if (!complete || finalTarget === undefined || finalTarget === path) return;
    await rename(path, finalTarget).catch((err) => {
      throw writeFailure(err, finalTarget);
    });
    await syncFolder(dirname(finalTarget));
  };
  return {
    stream: sink,
    get bytesWritten() {
      return sink.position;
    },
    flush: async () => {
      try {
        await sink.settle();
        await fh.sync();
      } catch (err) {
        throw writeFailure(err, path);
      }
    },
    commit: () => close(true),
    abort: () => close(false),
  };
}
