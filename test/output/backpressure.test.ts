import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createItemWriter, viewFor } from '../../src/output/index.js';

/** A consumer that takes one chunk per macrotask, with a small buffer. */
function slowSink() {
  let bytes = 0;
  let chunks = 0;
  let maxBuffered = 0;
  const stream = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _enc, cb) {
      bytes += chunk.length;
      chunks++;
      setImmediate(cb);
    },
  });
  stream.on('drain', () => {});
  const sample = () => {
    maxBuffered = Math.max(maxBuffered, stream.writableLength);
  };
  return { stream, sample, stats: () => ({ bytes, chunks, maxBuffered }) };
}

describe('backpressure', () => {
  it.each(['json', 'ndjson', 'csv', 'tsv'] as const)(
    '%s: 100k items keep the buffer bounded',
    async (format) => {
      const sink = slowSink();
      const w = createItemWriter(sink.stream, viewFor('tag'), { format, color: false });
      let waited = 0;
      for (let i = 0; i < 100_000; i++) {
        const consumedBefore = sink.stats().chunks;
        await w.write({ id: i + 1, name: `tag number ${i}`, description: i % 3 ? null : 'some, "text"' });
        sink.sample();
        if (sink.stats().chunks > consumedBefore) waited++;
      }
      await w.end();
      await new Promise<void>((res) => sink.stream.end(res));
      const { maxBuffered, bytes } = sink.stats();
      expect(bytes).toBeGreaterThan(2_000_000);
      // Never more than the high-water mark plus one item waiting in memory.
      expect(maxBuffered).toBeLessThan(16 * 1024 + 256);
      // The writer really waited for the consumer (write() promises did not all resolve at once).
      expect(waited).toBeGreaterThan(100);
    },
  );
});

describe('a consumer that goes away', () => {
  it('rejects the pending write instead of hanging', async () => {
    const stream = new Writable({
      highWaterMark: 1,
      write(_chunk, _enc, cb) {
        setTimeout(() => cb(Object.assign(new Error('EPIPE'), { code: 'EPIPE' })), 5);
      },
    });
    stream.on('error', () => {});
    const w = createItemWriter(stream, viewFor('tag'), { format: 'ndjson', color: false });
    await expect(w.write({ id: 1, name: 'x', description: null })).rejects.toThrow(/EPIPE|closed/);
    await w.abort(); // must not throw or hang
  });
});
