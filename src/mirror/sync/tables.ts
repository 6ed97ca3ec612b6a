// The four mirrored lists as descriptors: which table, which key, which columns besides the JSON,
// and which walks fill them. The walk and the summary read these instead of asking per table.

import * as E from '../../api/endpoints.js';
import type { PaginateOptions } from '../../api/paginate.js';
import type { ChangeResource } from '../changes.js';
import type { SqlValue } from '../driver.js';
import { toJsonText } from '../json.js';
import type { SyncPhase, SyncResource, SyncSummary } from './types.js';

type Item = Record<string, unknown>;

export interface TableDescriptor {
  resource: ChangeResource & SyncResource;
  table: 'meetings' | 'action_items' | 'people' | 'companies';
  /** The item's key, stored as TEXT. */
  key: 'id' | 'domain';
  /** Its counts in the summary. */
  summaryKey: Exclude<keyof SyncSummary, 'complete' | 'requests' | 'durationMs' | 'transcripts'>;
  /** Columns copied out of the item for queries, in this order. */
  columns: readonly { name: string; value: (item: Item) => SqlValue }[];
  /** A `status` column whose PENDING <-> DONE change is a `completed`/`reopened` event. */
  status?: boolean;
  /** Its rows have search passages (meetings) to rewrite and remove with them. */
  passages?: boolean;
}

const text = (name: string, field: string) => ({
  name,
  value: (item: Item): SqlValue => (typeof item[field] === 'string' ? (item[field] as string) : null),
});

export const TABLES: Record<SyncResource, TableDescriptor> = {
  meetings: {
    resource: 'meetings',
    table: 'meetings',
    key: 'id',
    summaryKey: 'meetings',
    columns: [text('name', 'name'), text('created_at', 'createdAt'), text('updated_at', 'updatedAt')],
    passages: true,
  },
  'action-items': {
    resource: 'action-items',
    table: 'action_items',
    key: 'id',
    summaryKey: 'actionItems',
    columns: [text('status', 'status')],
    status: true,
  },
  people: { resource: 'people', table: 'people', key: 'id', summaryKey: 'people', columns: [] },
  companies: {
    resource: 'companies',
    table: 'companies',
    key: 'domain',
    summaryKey: 'companies',
    columns: [],
  },
};

/** One walk of a list: every page of one endpoint into one table. */
export interface ListDef {
  phase: SyncPhase;
  table: TableDescriptor;
  endpoint: PaginateOptions<unknown>;
  /** The default-assignee walk of action items: marks `mine`, leaves order and tombstones alone. */
  mine?: boolean;
}

const WALKS: readonly {
  resource: SyncResource;
  phase: SyncPhase;
  endpoint: () => PaginateOptions<unknown>;
  mine?: boolean;
}[] = [
  { resource: 'meetings', phase: 'meetings', endpoint: () => E.listMeetings({}) },
  {
    resource: 'action-items',
    phase: 'action-items',
    endpoint: () => E.listActionItems({ assigneeType: 'Anyone', status: 'ALL' }),
  },
  // No assigneeType: the server's default assignee (the key's owner) decides what is "mine".
  {
    resource: 'action-items',
    phase: 'my-action-items',
    endpoint: () => E.listActionItems({ status: 'ALL' }),
    mine: true,
  },
  { resource: 'people', phase: 'people', endpoint: () => E.listPeople({}) },
  { resource: 'companies', phase: 'companies', endpoint: () => E.listCompanies({}) },
];

/** The walks of the lists asked for, in the order they run. */
export function listDefs(only: ReadonlySet<SyncResource>): ListDef[] {
  return WALKS.filter((w) => only.has(w.resource)).map((w) => ({
    phase: w.phase,
    table: TABLES[w.resource],
    endpoint: w.endpoint(),
    ...(w.mine && { mine: true }),
  }));
}

/** The walk's identity: its path and query (undefined values left out), stable across runs. */
export function walkQuery(def: ListDef): string {
  const q = Object.entries(def.endpoint.query ?? {})
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  return toJsonText([def.endpoint.path, q, def.mine ? 'mine' : 'all']);
}

/** An item's key as TEXT, keeping an integer's exact digits. */
export function keyOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  // A lossless integer wrapper (src/output/json.ts) prints its digits through toString/toJSON.
  if (v !== null && typeof v === 'object') return String((v as { toString(): string }).toString());
  throw new Error(`An item without an id: ${toJsonText(v)}`);
}
