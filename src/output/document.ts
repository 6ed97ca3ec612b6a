// Commands whose output is one rendered document (a meeting page, a transcript, a link) write it
// here: to stdout, or atomically to -o FILE (nothing left behind when writing fails).
import { openOutput } from './sink.js';
import { writeChunk } from './stream.js';

export async function writeDocument(path: string | undefined, text: string): Promise<void> {
  const sink = await openOutput(path);
  try {
    await writeChunk(sink.stream, text);
    await sink.commit();
  } catch (err) {
    await sink.abort().catch(() => undefined);
    throw err;
  }
}
