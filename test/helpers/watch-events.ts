// What `mtg watch` tests read back from its mirror and stream: run counts, the last seq, and its
// events against `mtg changes` (the process tests in test/e2e/watch-stream.test.ts, the in-process
// ones in test/commands/watch/).
import { expect } from 'vitest';
import { type ChangeEvent, type MirrorEnv, sql } from '../mirror/helpers.js';

/** A number from the mirror; 0 while the watch has not created it yet. */
export function mirrorCount(m: MirrorEnv, query: string): number {
  try {
    return sql<{ n: number | null }>(m.dbPath, query)[0]!.n ?? 0;
  } catch {
    return 0;
  }
}
export const finishedRuns = (m: MirrorEnv) =>
  mirrorCount(m, 'SELECT count(*) AS n FROM runs WHERE finished_at IS NOT NULL');
export const completeRuns = (m: MirrorEnv) =>
  mirrorCount(m, 'SELECT count(*) AS n FROM runs WHERE complete = 1');
export const lastSeq = (m: MirrorEnv) => mirrorCount(m, 'SELECT max(seq) AS n FROM changes');

/** The events of a watch's NDJSON stdout. */
export const eventsOf = (stdout: string): ChangeEvent[] =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ChangeEvent);

/**
 * The watch's events against `mtg changes` read afterwards: the same events in the same order;
 * `item` is the object as the mirror holds it when read, so it is compared where the mirror has not
 * changed it since: at the last event of each object.
 */
export function expectSameEvents(got: ChangeEvent[], expected: ChangeEvent[]): void {
  const strip = ({ item: _i, ...rest }: ChangeEvent) => rest;
  expect(got.map(strip)).toEqual(expected.map(strip));
  const last = new Map<string, number>();
  for (const [i, e] of expected.entries()) last.set(`${e.resource}/${e.id}`, i);
  for (const i of last.values()) expect(got[i]!.item).toEqual(expected[i]!.item);
  for (let i = 1; i < got.length; i++) expect(got[i]!.seq).toBeGreaterThan(got[i - 1]!.seq);
}

/** `mtg changes --after AFTER --json` of the mirror. */
export async function changesAfter(
  m: MirrorEnv,
  after: number,
  extra: string[] = [],
): Promise<ChangeEvent[]> {
  const r = await m.mtg(['changes', '--after', String(after), '--json', ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as ChangeEvent[];
}
