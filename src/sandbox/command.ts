// `mtg sandbox`: start the server, print one line to stdout, run until SIGINT/SIGTERM, then close.
import { ExitCode, MtgError } from '../shared/errors.js';
import { type Sandbox, type SandboxOptions, startSandbox } from './server.js';

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
  const sandbox = await listen(options);
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

/**
 * startSandbox, with the reasons listen() fails said in one line. Exit 1, not 2: the command line
 * is valid and works once the port is free; what failed is the machine's state, as for a network
 * error.
 */
async function listen(options: SandboxOptions): Promise<Sandbox> {
  try {
    return await startSandbox(options);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const port = options.port ?? 0;
    const host = options.host ?? '127.0.0.1';
    const reason =
      code === 'EADDRINUSE'
        ? `port ${port} is in use on ${host}: stop what listens there, or pick another --port (0 picks a free one)`
        : code === 'EACCES'
          ? `port ${port} needs privileges on this system: pick another --port (0 picks a free one)`
          : code === 'EADDRNOTAVAIL'
            ? `cannot listen on ${host}: the address is not available on this machine`
            : undefined;
    if (reason === undefined) throw err;
    throw new MtgError(`sandbox: ${reason}`, ExitCode.api);
  }
}
