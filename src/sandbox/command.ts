// `mtg sandbox`: start the server, print one line to stdout, run until SIGINT/SIGTERM, then close.
import { type SandboxOptions, startSandbox } from './server.js';

export interface SandboxCommandIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Stops the sandbox like a signal does (for tests and embedding). */
  signal?: AbortSignal;
}

export async function runSandboxCommand(
  opts: SandboxOptions & { json?: boolean },
  io: SandboxCommandIo,
): Promise<void> {
  const { json, ...options } = opts;
  const sandbox = await startSandbox(options);
  const line = json
    ? JSON.stringify({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, plan: sandbox.plan })
    : `Sandbox listening on ${sandbox.baseUrl} (plan ${sandbox.plan}) — export MTG_BASE_URL=${sandbox.baseUrl} MTG_API_KEY=${sandbox.apiKey}`;
  io.stdout.write(`${line}\n`);
  if (!json) {
    io.stderr.write(`A revoked key (answers 403): ${sandbox.revokedApiKey}\nPress Ctrl-C to stop.\n`);
  }
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      io.signal?.removeEventListener('abort', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (io.signal?.aborted) stop();
    else io.signal?.addEventListener('abort', stop, { once: true });
  });
  await sandbox.close();
}
