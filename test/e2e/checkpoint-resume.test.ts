// --checkpoint: an export killed outright (SIGKILL: no cleanup at all) continues where the last
// complete page left it when the same command runs again, and the file holds every item once. The
// killed or interrupted run is a real process; the reference export and the resumed run are in-process.
import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { EXPORT_ARGS, ndjsonIds, sameIdsOnce, spawnCli, waitUntil } from '../hardening/helpers.js';
import { sandboxEnv } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { tempDir } from '../helpers/temp.js';

const SIZES = { actionItems: 5000 };
const PAGES = 50;
let slow: Sandbox;
let expected: number[];

beforeAll(async () => {
  const fast = await startSandbox({ pageSize: 100, limits: 'none', sizes: SIZES });
  try {
    const r = await runInProcess([...EXPORT_ARGS, '--format', 'ndjson'], { env: sandboxEnv(fast) });
    expected = ndjsonIds(r.stdout);
  } finally {
    await fast.close();
  }
  expect(expected.length).toBe(5000);
  // 50 pages at 40 ms: about 2 s, slow enough to kill midway.
  slow = await startSandbox({ pageSize: 100, limits: 'none', sizes: SIZES, latencyMs: 40 });
});
afterAll(async () => {
  await slow.close();
});

function idsOf(format: string, text: string): number[] {
  if (format === 'ndjson') return ndjsonIds(text);
  if (format === 'json') return (JSON.parse(text) as { id: number }[]).map((i) => i.id);
  const rows = parse(text, { columns: true }) as { id: string }[];
  return rows.map((r) => Number(r.id));
}

describe.each(['ndjson', 'json', 'csv'])('--checkpoint with %s', (format) => {
  it('resumes after SIGKILL: fewer requests than a full export, every item exactly once', async () => {
    const dir = tempDir('mtg-ck-');
    const out = join(dir, `out.${format}`);
    const ck = join(dir, 'ck.json');
    const args = [...EXPORT_ARGS, '--format', format, '-o', out, '--checkpoint', ck];
    const env = sandboxEnv(slow);

    const first = spawnCli(args, env);
    const progress = () => {
      try {
        return (JSON.parse(readFileSync(ck, 'utf8')) as { items: number }).items;
      } catch {
        return 0;
      }
    };
    await waitUntil(() => progress() >= 1000, 10_000, 'the checkpoint to record 1,000 items');
    first.child.kill('SIGKILL');
    await first.done;
    const recorded = progress();
    expect(recorded).toBeLessThan(5000);

    const before = slow.requests.length;
    const second = await runInProcess(args, { env });
    expect(second.stderr).toMatch(/Resuming from checkpoint/);
    expect(second.code).toBe(0);
    const requests = slow.requests.length - before;
    expect(requests).toBe(PAGES - recorded / 100);
    expect(existsSync(ck)).toBe(false); // done: the checkpoint is removed

    const text = readFileSync(out, 'utf8');
    expect(sameIdsOnce(idsOf(format, text), expected)).toBe(true);
    if (format === 'csv') expect(text.split('\n').filter((l) => l.startsWith('id,')).length).toBe(1);
  });
});

it('json: after Ctrl-C the file is a closed array, and the resumed run still gives every item once', async () => {
  const dir = tempDir('mtg-ck-');
  const out = join(dir, 'out.json');
  const ck = join(dir, 'ck.json');
  const args = [...EXPORT_ARGS, '--format', 'json', '-o', out, '--checkpoint', ck];
  const first = spawnCli(args, sandboxEnv(slow));
  await waitUntil(() => existsSync(ck), 10_000, 'the first checkpoint');
  first.child.kill('SIGINT');
  expect((await first.done).code).toBe(130);
  expect(first.stderr()).toMatch(/run the same command again to resume/);
  // FILE waits for the whole export; the partial file is well-formed: the array was closed (the
  // resume cuts that "]" off again).
  expect(existsSync(out)).toBe(false);
  const partial = JSON.parse(readFileSync(`${out}.mtg-partial`, 'utf8')) as unknown[];
  expect(partial.length).toBeLessThan(5000);
  const second = await runInProcess(args, { env: sandboxEnv(slow) });
  expect(second.code).toBe(0);
  expect(sameIdsOnce(idsOf('json', readFileSync(out, 'utf8')), expected)).toBe(true);
});

/** Starts the export, kills it outright (SIGKILL) once the checkpoint records `items`, returns the record. */
async function killedExport(args: string[], ck: string, items = 1000): Promise<Record<string, unknown>> {
  const first = spawnCli(args, sandboxEnv(slow));
  const record = () => {
    try {
      return JSON.parse(readFileSync(ck, 'utf8')) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  };
  await waitUntil(() => ((record()?.items as number) ?? 0) >= items, 10_000, 'the checkpoint');
  first.child.kill('SIGKILL');
  await first.done;
  return record()!;
}

it('-o FILE is never a partial result: the rows go to FILE.mtg-partial until the export completes', async () => {
  const dir = tempDir('mtg-ck-');
  const out = join(dir, 'ai.csv');
  const ck = join(dir, 'ck.json');
  // An existing FILE (made private by its owner) stays as it was until the export completes.
  writeFileSync(out, 'the previous export\n');
  chmodSync(out, 0o600);
  const args = [...EXPORT_ARGS, '--format', 'csv', '-o', out, '--checkpoint', ck];
  const record = await killedExport(args, ck);

  expect(readFileSync(out, 'utf8')).toBe('the previous export\n');
  const partial = join(realpathSync(dir), 'ai.csv.mtg-partial');
  expect(record.partial).toBe(partial);
  expect(statSync(partial).mode & 0o777).toBe(0o600); // the mode FILE has
  expect(statSync(partial).size).toBeGreaterThanOrEqual(record.bytes as number);

  const second = await runInProcess(args, { env: sandboxEnv(slow) });
  expect(second.code).toBe(0);
  expect(sameIdsOnce(idsOf('csv', readFileSync(out, 'utf8')), expected)).toBe(true);
  expect(statSync(out).mode & 0o777).toBe(0o600);
  expect(existsSync(partial)).toBe(false); // renamed onto FILE
  expect(existsSync(ck)).toBe(false);
  expect(readdirSync(dir)).toEqual(['ai.csv']);
});

it('a checkpoint of the previous version (rows in FILE itself) still resumes, every item once', async () => {
  const dir = tempDir('mtg-ck-');
  const out = join(dir, 'ai.csv');
  const ck = join(dir, 'ck.json');
  const args = [...EXPORT_ARGS, '--format', 'csv', '-o', out, '--checkpoint', ck];
  const record = await killedExport(args, ck);
  // What version 1 left: the rows appended to FILE, and a record without `partial`.
  renameSync(record.partial as string, out);
  const { partial: _, ...old } = record;
  writeFileSync(ck, `${JSON.stringify({ ...old, version: 1 })}\n`);

  const second = await runInProcess(args, { env: sandboxEnv(slow) });
  expect(second.stderr).toMatch(/Resuming from checkpoint/);
  expect(second.code).toBe(0);
  expect(sameIdsOnce(idsOf('csv', readFileSync(out, 'utf8')), expected)).toBe(true);
  expect(readdirSync(dir)).toEqual(['ai.csv']);
});
