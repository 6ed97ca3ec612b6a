// The sync engine: walks every list of the API into the mirror and fetches the transcripts of new
// and changed meetings. Everything goes through the one ApiClient (its limiter paces every request,
// its retries handle faults) and paginatePages(). In parts, by concept:
//   sync/run.ts          one run: the runs table, the lock, the request meter, the summary
//   sync/pass.ts         the pass, stored: the open one every run goes on with, its lists
//   sync/pass-walks.ts   the walks of one run in its pass, recorded in it and the progress
//   sync/walk.ts         one list walk: pages, upserts, tombstones, from its saved cursor
//   sync/tables.ts       the table descriptors and the walks of each list
//   sync/details.ts      the company details queue
//   sync/transcripts.ts  the transcript queue
//   sync/state.ts        what the parts share, and the progress estimate
//   sync/types.ts        options, progress events, summary
//   sync/writes.ts       a write the API applied, stored as the next sync would store it
//   sync/stored-progress.ts  a running sync's progress, read by another process

export { runSync, syncStopped } from './sync/run.js';
export { type StoredSyncProgress, storedSyncProgress } from './sync/stored-progress.js';
export { pendingTranscriptCount } from './sync/transcripts.js';
export {
  type ResourceCounts,
  SYNC_RESOURCES,
  type SyncOptions,
  type SyncPhase,
  type SyncProgress,
  type SyncProgressEvent,
  type SyncResource,
  type SyncStopped,
  type SyncSummary,
} from './sync/types.js';
export { storeWrittenActionItem, type WrittenActionItem } from './sync/writes.js';
