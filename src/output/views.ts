// Views of each resource, built from the zod schemas so --fields and csv columns follow the API.
// The build (scripts/build.mjs) runs this module once and bundles its views as plain data instead,
// so that a command loads neither zod nor the schemas to print (an offline read validates nothing).
import { z } from 'zod';
import * as S from '../api/schemas.js';
import { fieldsOfSchema, schemaPaths } from './fields.js';
import type { ResourceView } from './types.js';

export type ResourceName =
  | 'meeting'
  | 'actionItem'
  | 'updatedActionItem'
  | 'tag'
  | 'person'
  | 'company'
  | 'companyDetail'
  | 'transcript'
  | 'sharedWith'
  | 'change'
  | 'hit'
  | 'raw';

/** An event of the mirror's change log (`mtg changes`, src/mirror/changes.ts). */
const ChangeEvent = z.object({
  seq: z.number(),
  run: z.number(),
  at: z.string(),
  resource: z.string(),
  id: z.string(),
  change: z.string(),
  fields: z.array(z.string()),
  item: z.unknown(),
});

/** A passage that `mtg find` matched (src/mirror/search.ts). */
const PassageHit = z.object({
  meetingId: z.string(),
  meetingName: z.string().nullable(),
  createdAt: z.string().nullable(),
  in: z.string(),
  speaker: z.string().nullable(),
  timestamp: z.number().nullable(),
  snippet: z.string(),
  rank: z.number(),
  matched: z.array(z.string()),
});

const ARRAY_LABELS = { tags: 'name' };

function build(
  name: string,
  schema: Parameters<typeof fieldsOfSchema>[0],
  tableColumns: string[],
  dimColumns: string[] = [],
): ResourceView {
  return {
    name,
    ...schemaPaths(schema),
    tableColumns,
    dimColumns,
    arrayLabels: ARRAY_LABELS,
  };
}

const builders: Record<ResourceName, () => ResourceView> = {
  meeting: () =>
    build('meeting', S.Meeting, ['id', 'name', 'createdAt', 'duration', 'tags'], ['id', 'createdAt']),
  actionItem: () =>
    build(
      'action item',
      S.ActionItem,
      ['id', 'status', 'title', 'assignee.name', 'meetingIds'],
      ['id', 'meetingIds'],
    ),
  updatedActionItem: () => {
    // PUT /action-item/{id} answers without the assignee (spec 4.2): its columns are the response's,
    // so that no blank assignee reads as "unassigned". --fields may still name any action item field
    // (a server that sends more); the table also shows an assignee whenever one was sent.
    const view = viewFor('actionItem');
    const sent = fieldsOfSchema(S.UpdatedActionItem).filter((f) => !f.startsWith('assignee.'));
    return { ...view, flatColumns: sent };
  },
  tag: () => build('tag', S.Tag, ['id', 'name', 'description'], ['id', 'description']),
  person: () =>
    build(
      'person',
      S.Person,
      ['id', 'firstName', 'lastName', 'email', 'companyName', 'title'],
      ['id', 'title'],
    ),
  company: () => build('company', S.CompanySummary, ['domain', 'name'], ['domain']),
  companyDetail: () =>
    build('company', S.CompanyDetail, ['domain', 'name', 'externalLinks', 'people'], ['externalLinks']),
  transcript: () =>
    build('transcript entry', S.TranscriptEntry, ['timestamp', 'speaker', 'text'], ['timestamp']),
  sharedWith: () => build('share', S.SharedWith, ['name', 'email', 'teamId', 'access'], ['email', 'teamId']),
  change: () => {
    // `item` is whichever object changed: its fields are those of every synced resource.
    const view = build(
      'change',
      ChangeEvent,
      ['seq', 'at', 'resource', 'id', 'change', 'fields'],
      ['seq', 'at'],
    );
    const itemFields = [S.Meeting, S.ActionItem, S.Person, S.CompanySummary].flatMap((schema) =>
      fieldsOfSchema(schema).map((f) => `item.${f}`),
    );
    return {
      ...view,
      // csv/tsv leave `item` out: flattened it would be ~50 columns, most empty on any one row (each
      // resource has its own fields); --fields item.title,… picks some, json/ndjson carry it whole.
      flatColumns: view.fields.filter((f) => f !== 'item'),
      fields: [...new Set([...view.fields.filter((f) => f !== 'item'), ...itemFields])],
    };
  },
  hit: () =>
    build(
      'hit',
      PassageHit,
      ['meetingName', 'createdAt', 'in', 'speaker', 'timestamp', 'snippet'],
      ['createdAt'],
    ),
  raw: () => ({ name: 'response', fields: [], tableColumns: [], arrayLabels: ARRAY_LABELS, open: true }),
};

/** Every resource that has a view (the build stores each one's view). */
export const RESOURCE_NAMES = Object.keys(builders) as ResourceName[];

/** A fresh view each call (callers may adjust it without affecting others). */
export function viewFor(resource: ResourceName): ResourceView {
  return builders[resource]();
}
