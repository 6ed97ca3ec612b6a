// Helpers for integration tests of commands: run the CLI against a sandbox and see which requests
// reached it meanwhile; page an endpoint directly to know what a list command should print.
import type { RecordedRequest, Sandbox } from '../../src/sandbox/index.js';
import { type RunResult, runCli, sandboxEnv } from './cli.js';
import { type InProcessResult, runInProcess } from './inprocess.js';

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

/** runRecorded in this process (run(argv, io, env)): no build, no child process. */
export async function runRecordedInProcess(
  sandbox: Sandbox,
  args: string[],
  options: { input?: string; env?: Record<string, string | undefined> } = {},
): Promise<InProcessResult & { requests: RecordedRequest[] }> {
  const before = sandbox.requests.length;
  const result = await runInProcess(args, {
    env: { ...sandboxEnv(sandbox), ...options.env },
    stdin: options.input,
  });
  return { ...result, requests: sandbox.requests.slice(before) };
}

/** A request's query as { key: [values...] } (repeated parameters kept). */
export function queryOf(r: RecordedRequest): Record<string, string[]> {
  return Object.fromEntries([...new Set(r.query.keys())].map((k) => [k, r.query.getAll(k)]));
}

/**
 * Every item of a list endpoint, paged directly with fetch (not through the CLI), following the
 * Link rel="next" the sandbox sends (read strictly: another form is an error). The one pager of
 * the tests (test/sandbox/helpers.ts `collect` is this); at most `maxPages` pages.
 */
export async function fetchAll(sandbox: Sandbox, path: string, maxPages = 10_000): Promise<unknown[]> {
  const items: unknown[] = [];
  let url: string | undefined = sandbox.baseUrl + path;
  for (let page = 0; url !== undefined; page++) {
    if (page === maxPages) break;
    const res = await fetch(url, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
    if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
    items.push(...((await res.json()) as unknown[]));
    const next = nextPath(res.headers);
    url = next === undefined ? undefined : new URL(next, sandbox.baseUrl).href;
  }
  return items;
}

/** The path+query of the Link rel="next" target, or undefined on the last page. */
export function nextPath(headers: Headers): string | undefined {
  const link = headers.get('link');
  if (!link) return undefined;
  const m = /^<([^>]+)>; rel="next"$/.exec(link);
  if (!m) throw new Error(`unexpected Link header: ${link}`);
  return m[1];
}

/** One GET, parsed. */
export async function fetchJson(sandbox: Sandbox, path: string): Promise<unknown> {
  const res = await fetch(sandbox.baseUrl + path, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
  return res.json();
}
