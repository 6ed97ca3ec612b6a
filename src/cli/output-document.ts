// One document (a summary, a link, a dry run) to stdout, or atomically to -o FILE (nothing left
// behind when writing fails), through the --jq stage when there is one. Commands with an output
// plan (output-plan.ts) use plan.document().
import { type OutputStage, openOutput } from '../output/sink.js';
import { writeChunk } from '../output/stream.js';

/** What a run's output needs to know of it (a Context is one). */
export interface RunOutput {
  io: { out: NodeJS.WritableStream; err: NodeJS.WritableStream };
  globals: { output?: string; jq?: string };
}

/** The run's --jq stage, or undefined without --jq (main.ts compiled EXPR before any request). */
export async function outputStage(run: RunOutput): Promise<OutputStage | undefined> {
  if (run.globals.jq === undefined) return undefined;
  const { jqStage } = await import('./jq.js');
  return jqStage(run.globals.jq, run.io.err);
}

export async function writeDocument(run: RunOutput, text: string): Promise<void> {
  const sink = await openOutput(run.io.out, run.globals.output, await outputStage(run));
  try {
    await writeChunk(sink.stream, text);
    await sink.commit();
  } catch (err) {
    await sink.abort().catch(() => undefined);
    throw err;
  }
}
