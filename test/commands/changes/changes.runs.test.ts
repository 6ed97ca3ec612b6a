// `mtg changes`: --since names a sync run (one that does not exist is exit 2 naming the latest),
// --after a seq (past the last change is exit 2, not silence); the table shows times for people and
// csv/tsv leave the item out unless --fields picks from it (mirror status shows times the same way).
import { describe, expect, it } from 'vitest';
import { mirrorEnvs } from '../../mirror/helpers.js';

/** mirrorEnv(), each stopped after this file's tests. */
const env = mirrorEnvs();

describe('mtg changes --since', () => {
  it('a run that does not exist is exit 2 naming the latest; a bad value lists last and a run number', async () => {
    const m = await env({ seed: 28 });
    expect((await m.sync()).code).toBe(0);
    const missing = await m.mtg(['changes', '--since', '99', '--json']);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/no sync run 99 \(the latest is 1\)/);
    expect((await m.mtg(['changes', '--since', '1', '--json'])).code).toBe(0);
    const bogus = await m.mtg(['changes', '--since', 'bogus']);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toMatch(/last/);
    expect(bogus.stderr).toMatch(/run number/);
    expect(bogus.stderr).toMatch(/7d/);
  });
});

describe('times and items for people', () => {
  it('changes: the table shows `at` as a human time, csv/tsv leave item out (--fields item.… picks some); mirror status too', async () => {
    const m = await env({ seed: 31 });
    expect((await m.sync()).code).toBe(0);
    const table = await m.mtg(['changes', '--format', 'table', '--limit', '3'], { COLUMNS: '60' });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/just now|seconds? ago|minutes? ago/);
    expect(table.stdout).not.toMatch(/\d{4}-\d\d-\d\dT/);
    for (const format of ['csv', 'tsv']) {
      const flat = await m.mtg(['changes', '--format', format, '--limit', '2']);
      expect(flat.code).toBe(0);
      const [header, row] = flat.stdout.split('\n');
      expect(header!.split(format === 'csv' ? ',' : '\t')).toEqual([
        'seq',
        'run',
        'at',
        'resource',
        'id',
        'change',
        'fields',
      ]);
      expect(row).not.toContain('{');
    }
    const picked = await m.mtg(['changes', '--format', 'csv', '--fields', 'seq,item.name', '--limit', '1']);
    expect(picked.stdout.split('\n')[0]).toBe('seq,item.name');
    const status = await m.mtg(['mirror', 'status']);
    expect(status.stdout).toMatch(/last sync\s+(just now|\d+ seconds? ago)/);
  });
});

describe('mtg changes --after', () => {
  it('a seq past the last change of this mirror (saved from a mirror since reset) is exit 2, not silence', async () => {
    const m = await env({ seed: 29 });
    expect((await m.sync()).code).toBe(0);
    const last = Number(
      (await m.mtg(['sql', 'SELECT max(seq) AS n FROM changes', '--format', 'tsv', '--fields', 'n'])).stdout
        .trim()
        .split('\n')
        .at(-1),
    );
    expect(last).toBeGreaterThan(0);
    const atLast = await m.mtg(['changes', '--after', String(last), '--json']);
    expect(atLast.code, atLast.stderr).toBe(0);
    expect(JSON.parse(atLast.stdout)).toEqual([]);
    const past = await m.mtg(['changes', '--after', String(last + 1), '--json']);
    expect(past.code).toBe(2);
    expect(past.stdout).toBe('');
    expect(past.stderr).toContain(`--after ${last + 1} is past the last change of this mirror (seq ${last})`);
  });
});
