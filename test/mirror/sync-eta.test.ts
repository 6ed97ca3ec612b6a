import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { openMirror } from '../../src/mirror/open.js';
import { runSync, type SyncProgressEvent } from '../../src/mirror/sync.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { tempDir } from '../helpers/temp.js';

const sandboxes: Sandbox[] = [];
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
});

describe('sync progress under "5/1s,30/10s"', () => {
  it('estimates at the pace of the 10 s window from the first transcript on, and shows transcripts left in the list phases after meetings', async () => {
    const sb = await startSandbox({
      seed: 41,
      limits: '5/1s,30/10s',
      pageSize: 10,
      sizes: { meetings: 40, actionItems: 12, people: 8, companies: 3 },
    });
    sandboxes.push(sb);
    const client = new ApiClient({
      baseUrl: new URL(sb.baseUrl),
      apiKey: sb.apiKey,
      userAgent: 'mtg-test',
      timeoutMs: 10_000,
      maxRetries: 2,
      maxWaitMs: 60_000,
    });
    const mirror = openMirror({
      profile: 'default',
      dataDir: tempDir('mtg-eta-'),
      baseUrl: sb.baseUrl,
    });
    const events: SyncProgressEvent[] = [];
    try {
      const summary = await runSync(client, mirror, {}, (e) => events.push(e));
      expect(summary.complete).toBe(true);
    } finally {
      mirror.close();
    }
    expect(sb.count429).toBe(0);
    // After the meetings walk, every list phase knows the transcripts to come.
    const later = events.filter((e) => e.phase !== 'meetings' && e.phase !== 'transcripts');
    expect(later.length).toBeGreaterThan(0);
    for (const e of later) expect(e.left).toBe(40);
    expect(events.filter((e) => e.phase === 'meetings').every((e) => e.left === undefined)).toBe(true);
    // The list walks already met both windows (the 30-request one is reported once the 5/1s one
    // runs out): from the first transcript on, the ETA is at the 10 s window's pace (about 3/s; the
    // longest Reset seen is 9 s, so 300 ms a request), not the 5/s a short burst shows.
    const transcripts = events.filter((e) => e.phase === 'transcripts' && (e.left ?? 0) > 0);
    expect(transcripts.length).toBeGreaterThan(30);
    for (const e of transcripts) expect(e.etaMs!).toBeGreaterThanOrEqual(e.left! * 290);
  }, 90_000);
});
