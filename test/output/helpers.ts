import { Writable } from 'node:stream';

/** A Writable that collects everything written to it. */
export function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk);
      cb();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

export const ANSI = /\u001b\[[0-9;]*m/;
