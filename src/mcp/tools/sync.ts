// `sync` (absent with --offline): one sync in this process, with progress notifications when asked.

import type { ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { BUDGET_DESCRIPTION, SYNC_DESCRIPTION, type SyncProgressReport } from '../sync-tool.js';
import { defineTool, type Obj, ok, wholeIn } from './define.js';

export const sync = defineTool({
  name: 'sync',
  title: 'Sync the mirror',
  description: SYNC_DESCRIPTION,
  input: z.strictObject({
    budget: wholeIn('budget', 1, 1_000_000).optional().describe(BUDGET_DESCRIPTION),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  offered: (options) => options.sync !== undefined,
  run: async (a, { options, request }) =>
    ok((await options.sync!(a.budget, progressReporter(request))) as Obj),
});

/** Progress notifications for a call that asked for them (a progressToken), else none. */
function progressReporter(request: ServerContext): ((p: SyncProgressReport) => void) | undefined {
  const token = request.mcpReq._meta?.progressToken;
  if (token === undefined) return undefined;
  return (p) => {
    request.mcpReq
      .notify({ method: 'notifications/progress', params: { progressToken: token, ...p } })
      // A client gone away: the sync goes on, and its result will say the rest.
      .catch(() => undefined);
  };
}
