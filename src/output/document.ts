// Commands whose output is one document (a meeting page, a transcript, a link, one object) write it
// here: to stdout, or atomically to -o FILE (nothing left behind when writing fails).
import { openOutput } from './sink.js';
import { writeChunk } from './stream.js';

export async function withOutput(
  stdout: NodeJS.WritableStream,
  path: string | undefined,
  write: (stream: NodeJS.WritableStream) => Promise<void>,
): Promise<void> {
  const sink = await openOutput(stdout, path);
  try {
    await write(sink.stream);
    await sink.commit();
  } catch (err) {
    await sink.abort().catch(() => undefined);
    throw err;
  }
}

export function writeDocument(
  stdout: NodeJS.WritableStream,
  path: string | undefined,
  text: string,
): Promise<void> {
  return withOutput(stdout, path, (stream) => writeChunk(stream, text));
}
