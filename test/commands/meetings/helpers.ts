// The meetings command tests' sandbox: one per test file, of 10-item pages, with the meetings as
// the API sends them (paged once, straight from the sandbox) and one rich meeting. Each run of
// `mtg()` gets its own API key (all of one account), so the requests it caused can be told apart
// while runs go on in parallel.
import { afterAll, beforeAll } from 'vitest';
import type { Meeting } from '../../../src/api/schemas.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { sandboxEnv } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inprocess.js';
import { fetchAll } from '../../helpers/recorded.js';

export let sandbox: Sandbox;
export let env: Record<string, string>;
/** Every meeting, as the API sends them. */
export let meetings: Meeting[];
/** A meeting whose insights have both forms: plain strings and custom-field objects. */
export let rich: Meeting;

// Anything a terminal would interpret: ESC, BEL, C1 controls, CR.
export const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const KEYS = Array.from({ length: 200 }, (_, i) => `mtg_sk_meetings_test_${i}`);
let nextKey = 1;

/** Starts the sandbox before the file's tests and stops it after them. */
export function useMeetingsSandbox(): void {
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, limits: 'none', pageSize: 10, apiKeys: KEYS });
    env = sandboxEnv(sandbox);
    meetings = (await fetchAll(sandbox, '/meetings')) as Meeting[];
    const found = meetings.find((m) => {
      const results = Object.values(m.insights).flat();
      return (
        results.some((r) => typeof r.insight === 'string') &&
        results.some((r) => typeof r.insight === 'object') &&
        m.actionItems.length > 0 &&
        m.notes
      );
    });
    if (!found) throw new Error('the sandbox has no meeting with both insight forms');
    rich = found;
  });
  afterAll(async () => {
    await sandbox?.close();
  });
}

/** One GET straight to the sandbox: the parsed body and its text. */
export async function api<T>(path: string): Promise<{ body: T; text: string; link: string | null }> {
  const res = await fetch(`${sandbox.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${sandbox.apiKey}` },
  });
  const text = await res.text();
  return { body: JSON.parse(text) as T, text, link: res.headers.get('link') };
}

/** Runs mtg in-process and returns what it did, with the requests that reached the sandbox because of it. */
export async function mtg(args: string[], options: { input?: string; env?: Record<string, string> } = {}) {
  const key = KEYS[nextKey++]!;
  const result = await runInProcess(args, {
    env: { ...env, MTG_API_KEY: key, ...options.env },
    stdin: options.input,
  });
  const requests = sandbox.requests.filter((r) => r.headers.authorization === `Bearer ${key}`);
  return { ...result, requests };
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
