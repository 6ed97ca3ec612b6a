// `mtg watch --exec` with hostile IDs and hooks that cannot start: a NUL in a meeting ID (an
// environment variable cannot hold one) stopped the watch for good ("must be a string without null
// bytes", exit 1, the event never handled, every later event blocked). Now MTG_EVENT_ID holds \0
// for it, and a hook that cannot be started is a failed hook: reported, handled, the watch goes on.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadDataFile } from '../../../src/sandbox/file-data.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { sandboxEnv } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inprocess.js';
import { tempDir } from '../../helpers/temp.js';

const NUL_ID = 'mtg_nul\u0000tail';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** A sandbox serving three meetings, the second with a NUL in its ID. */
async function nulSandbox(): Promise<{ env: Record<string, string>; dir: string }> {
  const generated = await startSandbox({
    limits: 'none',
    sizes: { meetings: 3, actionItems: 3, people: 4, companies: 2 },
  });
  const meetings = generated.snapshot().meetings.slice(0, 3);
  await generated.close();
  meetings[1] = { ...meetings[1]!, id: NUL_ID };
  const dir = tempDir('mtg-watch-exec-');
  const file = join(dir, 'data.json');
  writeFileSync(file, JSON.stringify({ meetings }));
  sandbox = await startSandbox({ limits: 'none', store: loadDataFile(file) });
  return { env: sandboxEnv(sandbox, { MTG_DATA_DIR: join(dir, 'data') }), dir };
}

const WATCH = ['watch', '--once', '--from-start', '--resource', 'meetings', '--no-transcripts'];

describe('mtg watch --exec', () => {
  it('a NUL in a meeting ID: MTG_EVENT_ID holds \\0, every event runs, exit 0', async () => {
    const { env, dir } = await nulSandbox();
    const seen = join(dir, 'seen.txt');
    const r = await runInProcess(
      [...WATCH, '--exec', `printf '%s|' "$MTG_EVENT_ID" >> '${seen}'; cat >> '${seen}'`],
      {
        env,
      },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(3);
    const runs = readFileSync(seen, 'utf8').trim().split('\n');
    expect(runs).toHaveLength(3);
    const nul = runs.find((line) => line.startsWith('mtg_nul'))!;
    // The variable: the two characters \0; the JSON on stdin: the exact ID.
    expect(nul.slice(0, nul.indexOf('|'))).toBe('mtg_nul\\0tail');
    expect((JSON.parse(nul.slice(nul.indexOf('|') + 1)) as { id: string }).id).toBe(NUL_ID);
    // Handled: a second run hands nothing over again.
    const again = await runInProcess([...WATCH.filter((a) => a !== '--from-start'), '--exec', 'true'], {
      env,
    });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('');
  });

  it('a hook that cannot be started is reported, counts as handled, and the watch goes on', async () => {
    const { env } = await nulSandbox();
    // No sh on this PATH: spawn fails for every event.
    const r = await runInProcess([...WATCH, '--exec', 'true'], { env: { ...env, PATH: '/nonexistent' } });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(3);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines)
      expect(line).toMatch(/^mtg: --exec for event \d+ \(meetings \S+ created\) could not be started: /);
    expect(r.stderr).not.toContain('\u0000');
  });
});
