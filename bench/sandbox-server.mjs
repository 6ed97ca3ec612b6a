// The sandbox in its own process, for the benchmarks: the same startSandbox() that `mtg sandbox`
// runs, plus a line protocol on stdin so the harness can read the server's own counters (429s sent,
// requests served) without sharing the measured CLI's CPU or memory.
//
//   node bench/sandbox-server.mjs <bundled sandbox module> '<SandboxOptions as JSON>'
//   -> stdout: {"baseUrl":...,"apiKey":...}        (once listening)
//   <- "stats"  -> {"count429":n,"requests":n,"byStatus":{...},"transcripts":n}
//   <- EOF      -> closes the server and exits
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const [modulePath, optionsJson] = process.argv.slice(2);
const { startSandbox } = await import(pathToFileURL(modulePath).href);
const sandbox = await startSandbox(JSON.parse(optionsJson ?? '{}'));
process.stdout.write(`${JSON.stringify({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey })}\n`);

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.trim() !== 'stats') return;
  const byStatus = {};
  let transcripts = 0;
  for (const r of sandbox.requests) {
    byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
    if (r.path.endsWith('/transcript')) transcripts++;
  }
  const stats = { count429: sandbox.count429, requests: sandbox.requests.length, byStatus, transcripts };
  process.stdout.write(`${JSON.stringify(stats)}\n`);
});
lines.on('close', async () => {
  await sandbox.close();
  process.exit(0);
});
