// One document (a summary, a link, a dry run) to stdout, or atomically to -o FILE (nothing left
// behind when writing fails). Commands with an output plan (plan.ts) use plan.document().
import { openOutput } from './sink.js';
import { writeChunk } from './stream.js';

export async function writeDocument(
  stdout: NodeJS.WritableStream,
  path: string | undefined,
  text: string,
): Promise<void> {
  const sink = await openOutput(stdout, path);
  try {
    await writeChunk(sink.stream, text);
    await sink.commit();
  } catch (err) {
    await sink.abort().catch(() => undefined);
    throw err;
  }
}
