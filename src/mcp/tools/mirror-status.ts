// `mirror_status`: which mirror this server reads and how fresh it is; answers with no mirror too.

import { z } from 'zod';
import { defineTool, LIVE_ROWS, ok, READ } from './define.js';

export const mirrorStatus = defineTool({
  name: 'mirror_status',
  title: 'Mirror status',
  description:
    'Which mirror this server reads and how fresh it is: {profile, path, baseUrl, lastSync: {at, complete} ' +
    'or null, counts: {meetings, actionItems, people, companies, transcripts} (what exists now), ' +
    'transcriptsPending, lastSeq, sqlNote}.',
  input: z.strictObject({}),
  annotations: READ,
  run: async (_a, { access }) => {
    const s = access.status();
    if (!s) {
      return ok({
        profile: access.profile,
        path: access.path,
        baseUrl: null,
        lastSync: null,
        counts: { meetings: 0, actionItems: 0, people: 0, companies: 0, transcripts: 0 },
        transcriptsPending: 0,
        lastSeq: 0,
        sqlNote: LIVE_ROWS,
        note: `no mirror for profile ${access.profile} yet: run \`mtg sync\``,
      });
    }
    return ok({
      profile: s.profile,
      path: s.path,
      baseUrl: s.baseUrl,
      lastSync: s.lastSync
        ? { at: s.lastSync.finishedAt ?? s.lastSync.startedAt, complete: s.lastSync.complete }
        : null,
      counts: s.counts,
      transcriptsPending: s.transcriptsPending,
      lastSeq: s.lastSeq,
      sqlNote: LIVE_ROWS,
      ...(s.syncRunningPid !== null ? { syncRunningPid: s.syncRunningPid } : {}),
    });
  },
});
