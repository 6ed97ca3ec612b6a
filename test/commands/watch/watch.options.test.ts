// `mtg watch` in this process: its terminal lines fit 60 to 200 columns with the ID never cut (one
// pass with --once), and bad values exit 2 before any request. (The stream: test/e2e/watch-stream.test.ts.)
import { afterEach, describe, expect, it } from 'vitest';
import { visibleWidth } from '../../../src/output/text.js';
import { runInProcess } from '../../helpers/inprocess.js';
import { mirrorEnv, SMALL, sql } from '../../mirror/helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('mtg watch', () => {
  it('terminal lines fit 60 to 200 columns; the ID is never cut, the name or title is', async () => {
    const m = await mirrorEnv({ seed: 17 });
    cleanups.push(() => m.sandbox.close());
    const ids = new Set<string>();
    for (const columns of [60, 80, 200]) {
      const r = await runInProcess(
        ['watch', '--once', '--from-start', '--consumer', `c${columns}`, '--no-transcripts'],
        {
          env: m.env,
          tty: true,
          columns,
        },
      );
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines.length).toBeGreaterThan(SMALL.meetings);
      for (const line of lines) {
        expect(visibleWidth(line), line).toBeLessThanOrEqual(columns);
        // time  #seq  change  resource  id  [label]
        const id = /^\S+\s+#\d+\s+\S+\s+\S+\s+(\S+)/.exec(line)?.[1];
        expect(id, line).toBeDefined();
        ids.add(id!);
      }
      if (columns === 200) expect(lines.some((l) => l.includes('…'))).toBe(false);
      if (columns === 60) expect(lines.some((l) => l.endsWith('…'))).toBe(true);
    }
    // Every ID as stored: none was cut.
    const stored = new Set(sql<{ id: string }>(m.dbPath, 'SELECT id FROM changes').map((r) => String(r.id)));
    for (const id of ids) expect(stored.has(id), id).toBe(true);
  }, 60_000);

  it('bad values exit 2 before any request', async () => {
    const m = await mirrorEnv();
    cleanups.push(() => m.sandbox.close());
    for (const args of [
      ['--interval', '5x'],
      ['--interval', '0s'],
      ['--format', 'csv'],
      ['--consumer', 'a b'],
    ]) {
      const r = await m.mtg(['watch', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect((await m.mtg(['watch', '--interval', '5x'])).stderr).toMatch(/such as 30s, 5m or 1h/);
    expect(m.sandbox.requests).toHaveLength(0);
  });
});
