// A walk that starts over after the server rejected its saved cursor counts only the pages of the
// new start: the next sync's "requests left" (and so its ETA) comes from that count.
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { openMirror } from '../../src/mirror/open.js';
import { runSync, type SyncOptions, type SyncProgressEvent } from '../../src/mirror/sync.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { tempDir } from '../helpers/temp.js';

const sandboxes: Sandbox[] = [];
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
});

describe('a walk restarted from page 1', () => {
  it("leaves the next sync counting down from the restarted walk's own pages", async () => {
    const sb = await startSandbox({
      seed: 5,
      limits: 'none',
      pageSize: 5,
      sizes: { meetings: 12, actionItems: 3, people: 3, companies: 2 },
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
    const dataDir = tempDir('mtg-restart-');
    const meetingsOnly: SyncOptions = { only: ['meetings'], transcripts: false };
    const sync = async (options: SyncOptions, before?: (m: ReturnType<typeof openMirror>) => void) => {
      const mirror = openMirror({ profile: 'default', dataDir, baseUrl: sb.baseUrl });
      const events: SyncProgressEvent[] = [];
      try {
        before?.(mirror);
        const summary = await runSync(client, mirror, { ...meetingsOnly, ...options }, (e) => events.push(e));
        return { summary, events };
      } finally {
        mirror.close();
      }
    };
    // Interrupted after its first pages, then its saved cursor goes stale (tampered here).
    expect((await sync({ budget: 2 })).summary.complete).toBe(false);
    const restarted = await sync({}, (mirror) => {
      mirror.db
        .prepare(
          "UPDATE walks SET next_url = replace(next_url, 'cursor=', 'cursor=x') WHERE completed_at IS NULL",
        )
        .run();
    });
    expect(restarted.summary.complete).toBe(true);

    const next = await sync({});
    const pages = next.events.filter((e) => e.phase === 'meetings' && !e.done);
    expect(pages.length).toBeGreaterThan(1);
    // After its first page, the walk has as many pages left as the last complete walk had, less one.
    expect(pages[0]!.requestsLeft).toBe(pages.length - 1);
    expect(pages.at(-1)!.requestsLeft).toBe(0);
  }, 30_000);
});
