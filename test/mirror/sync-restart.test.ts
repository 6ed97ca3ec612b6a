// A walk that starts over after the server rejected its saved cursor counts only the pages of the
// new start: the next sync's "requests left" (and so its ETA) comes from that count.
import { describe, expect } from 'vitest';
import { sandboxesTest as it } from '../helpers/fixtures.js';
import { engineSync } from './helpers.js';

describe('a walk restarted from page 1', () => {
  it("leaves the next sync counting down from the restarted walk's own pages", async ({ openSandbox }) => {
    const sb = await openSandbox({
      seed: 5,
      limits: 'none',
      pageSize: 5,
      sizes: { meetings: 12, actionItems: 3, people: 3, companies: 2 },
    });
    const sync = engineSync(sb, { only: ['meetings'], transcripts: false });
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
