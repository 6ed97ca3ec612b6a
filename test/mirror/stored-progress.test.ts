// A running sync's progress as another process reads it from the mirror (what `mtg mcp`'s sync tool
// answers while a sync of another process runs): at each of the run's progress events, the stored
// figures are the event's; once the run has finished there is none.
import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/mirror/driver.js';
import { openMirror } from '../../src/mirror/open.js';
import { runSync, type StoredSyncProgress, storedSyncProgress } from '../../src/mirror/sync.js';
import { clientFor, mirrorEnvs } from './helpers.js';

const env = mirrorEnvs();
const PHASES = [
  'meetings',
  'action-items',
  'my-action-items',
  'people',
  'companies',
  'company-details',
  'transcripts',
];

describe('storedSyncProgress', () => {
  it("at every event of a running sync: its phase, the walk's pages and items, lists done; none after it", async () => {
    const m = await env();
    const mirror = openMirror({ profile: 'default', dataDir: m.dataDir, baseUrl: m.sandbox.baseUrl });
    let reader: ReturnType<typeof openDb> | undefined;
    const seen: { event: string; stored: StoredSyncProgress | undefined }[] = [];
    try {
      await runSync(clientFor(m.sandbox), mirror, {}, (e) => {
        if (e.refreshed || e.walkedInPass) return;
        reader ??= openDb(m.dbPath, { readonly: true });
        const stored = storedSyncProgress(reader);
        seen.push({ event: `${e.phase}${e.done ? ' done' : ''}`, stored });
        expect(stored?.requests).toBe(e.requests);
        if (e.done) return;
        // A list's last page commits with its completion: the stored phase is a later one by then.
        if (stored?.phase !== e.phase) {
          expect(PHASES.indexOf(stored!.phase!)).toBeGreaterThan(PHASES.indexOf(e.phase));
          return;
        }
        if (e.phase !== 'transcripts' && e.phase !== 'company-details') {
          expect(stored).toMatchObject({ pages: e.pages, items: e.items });
        } else if (e.phase === 'transcripts') {
          expect(stored?.transcripts).toEqual({ fetched: e.items, pending: e.left });
        }
      });
      expect(seen.map((s) => s.event)).toContain('action-items');
      expect(seen.map((s) => s.event)).toContain('transcripts');
      const lastList = seen.find((s) => s.event === 'transcripts')!.stored!;
      expect(lastList.lists).toEqual({ done: 6, total: 7 });
      expect(storedSyncProgress(reader!)).toBeUndefined();
    } finally {
      reader?.close();
      mirror.close();
    }
  });
});
