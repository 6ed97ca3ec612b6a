// Ctrl-C during a long export: exit 130, output written so far well-formed, an -o target untouched.
// A real process: SIGINT, as the terminal sends it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { EXPORT_ARGS, spawnCli, waitUntil } from '../hardening/helpers.js';
import { sandboxEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

let sandbox: Sandbox;

beforeAll(async () => {
  // 60 pages at 40 ms each: a few seconds, long enough to interrupt midway.
  sandbox = await startSandbox({ pageSize: 50, limits: 'none', latencyMs: 40, sizes: { actionItems: 3000 } });
});
afterAll(async () => {
  await sandbox.close();
});

/** Starts an export, waits until `progressed()` says it is midway, sends SIGINT. */
async function interrupt(args: string[], progressed: (stdout: string) => boolean) {
  const run = spawnCli([...EXPORT_ARGS, ...args], sandboxEnv(sandbox));
  await waitUntil(() => progressed(run.stdout()), 10_000, 'the export to make progress').catch((e) => {
    throw new Error(`${e.message}: stdout ${run.stdout().length} bytes, stderr ${run.stderr()}`);
  });
  run.child.kill('SIGINT');
  const { code } = await run.done;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

describe('SIGINT during an export', () => {
  it('ndjson: exit 130, every line complete', async () => {
    const r = await interrupt(['--format', 'ndjson'], (out) => out.split('\n').length > 120);
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/Interrupted\.\n$/);
    expect(r.stdout.endsWith('\n')).toBe(true);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.length).toBeLessThan(3000);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('csv: exit 130, ends on a complete row that parses', async () => {
    const r = await interrupt(['--format', 'csv'], (out) => out.split('\n').length > 120);
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/Interrupted\.\n$/);
    expect(r.stdout.endsWith('\n')).toBe(true);
    const rows = parse(r.stdout, { columns: true }) as Record<string, string>[];
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.length).toBeLessThan(3000);
    for (const row of rows) expect(row.id).toMatch(/^\d+$/);
  });

  it('json: exit 130, the array is closed and parses', async () => {
    const r = await interrupt(['--format', 'json'], (out) => out.length > 20_000);
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/Interrupted\.\n$/);
    const items = JSON.parse(r.stdout) as { id: number }[];
    expect(Array.isArray(items)).toBe(true);
    expect(items.length).toBeGreaterThan(0);
    expect(items.length).toBeLessThan(3000);
  });

  it('-o FILE: an existing FILE is left untouched and no temp file remains', async () => {
    const dir = tempDir('mtg-int-');
    const target = join(dir, 'out.ndjson');
    writeFileSync(target, 'previous export\n');
    const run = spawnCli([...EXPORT_ARGS, '--format', 'ndjson', '-o', target], sandboxEnv(sandbox));
    // Midway: the temp file next to the target has grown.
    await waitUntil(
      () => readdirSync(dir).some((f) => f.endsWith('.tmp') && readFileSync(join(dir, f)).length > 10_000),
      10_000,
      'the temp file to grow',
    );
    run.child.kill('SIGINT');
    const { code } = await run.done;
    expect(code).toBe(130);
    expect(readFileSync(target, 'utf8')).toBe('previous export\n');
    // A clean stop, not a forced one: conf's exit hook used to re-send SIGINT, which the CLI took
    // for a second Ctrl-C and exited at once, before removing the temp file.
    expect(run.stderr()).toMatch(/Interrupted\.\n$/);
    expect(readdirSync(dir)).toEqual(['out.ndjson']);
  });

  it('-o FILE: two Ctrl-C at once (as `timeout -s INT` sends them) leave no temp file either', async () => {
    const dir = tempDir('mtg-int2-');
    const target = join(dir, 'out.ndjson');
    writeFileSync(target, 'previous export\n');
    for (let round = 0; round < 5; round++) {
      const run = spawnCli([...EXPORT_ARGS, '--format', 'ndjson', '-o', target], sandboxEnv(sandbox));
      await waitUntil(
        () => readdirSync(dir).some((f) => f.endsWith('.tmp') && readFileSync(join(dir, f)).length > 1_000),
        10_000,
        'the temp file to grow',
      );
      // The second one exits at once, whatever the first one's abort is doing (a few ms apart:
      // signals sent together merge into one).
      run.child.kill('SIGINT');
      await new Promise((r) => setTimeout(r, [1, 3, 6, 10, 20][round]));
      run.child.kill('SIGINT');
      expect((await run.done).code).toBe(130);
      expect(readFileSync(target, 'utf8')).toBe('previous export\n');
      expect(readdirSync(dir)).toEqual(['out.ndjson']);
    }
  });
});
