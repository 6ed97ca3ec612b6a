// Helpers for integration tests of commands: run the CLI against a sandbox and see which requests
// reached it meanwhile; page an endpoint directly to know what a list command should print.
import type { RecordedRequest, Sandbox } from '../../src/sandbox/index.js';
import { type RunResult, runCli, sandboxEnv } from './cli.js';

export interface Recorded extends RunResult {
  requests: RecordedRequest[];
}

export async function runRecorded(
  sandbox: Sandbox,
  args: string[],
  options: { input?: string; env?: Record<string, string> } = {},
): Promise<Recorded> {
  const before = sandbox.requests.length;
  const result = await runCli(args, { env: sandboxEnv(sandbox, options.env), input: options.input });
  return { ...result, requests: sandbox.requests.slice(before) };
}

/** A request's query as { key: [values...] } (repeated parameters kept). */
export function queryOf(r: RecordedRequest): Record<string, string[]> {
  return Object.fromEntries([...new Set(r.query.keys())].map((k) => [k, r.query.getAll(k)]));
}

/** Every item of a list endpoint, paged directly with fetch (not through the CLI). */
export async function fetchAll(sandbox: Sandbox, path: string): Promise<unknown[]> {
  const items: unknown[] = [];
  let url: string | undefined = sandbox.baseUrl + path;
  while (url) {
    const res = await fetch(url, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    items.push(...((await res.json()) as unknown[]));
    const next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '');
    url = next ? new URL(next[1]!, sandbox.baseUrl).href : undefined;
  }
  return items;
}

/** One GET, parsed. */
export async function fetchJson(sandbox: Sandbox, path: string): Promise<unknown> {
  const res = await fetch(sandbox.baseUrl + path, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
  return res.json();
}
