// One typed function per endpoint of the spec (section 4). List endpoints return a PaginateOptions
// for paginate()/paginatePages(); the others send their request and return the parsed body.
// Each write is built by one `...Request` function, which both the command's real run (through
// send()) and --dry-run (which prints it) use, so what a dry run shows is what would be sent.
// Writes return undefined when the server answered 2xx with no body: the write was applied, and
// the caller reports it as such (ApiResponse.noBody).

import type { z } from 'zod';
import type { ExactId } from '../shared/exact.js';
import { type ActionItemFilter, apiQuery } from './action-item-filter.js';
import { type ActionItemStatus, type ShareAccess, TAG_APPLY_MEETINGS_FIELD } from './assumptions.js';
import type { ApiClient } from './client.js';
import type { PaginateOptions } from './paginate.js';
import * as S from './schemas.js';
import type { Query } from './url.js';

const enc = encodeURIComponent;

/** One request that changes something: sent by send(), or printed by --dry-run (src/cli/dry-run.ts). */
export interface WriteRequest<T = unknown> {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'GET';
  path: string;
  query?: Query;
  body?: unknown;
  /** The response body's schema (not printed by a dry run). */
  schema?: z.ZodType<T>;
  /** Finds enum values the spec does not list in the response (one warning, not a failure). */
  unlisted?: S.UnlistedCheck;
}

/** Sends a write; undefined when the server applied it and answered 2xx with no body. */
export async function send<T>(client: ApiClient, req: WriteRequest<T>): Promise<T | undefined> {
  return (await client.request(req)).data as T | undefined;
}

const meetingUnlisted = S.unlistedCheck(S.Meeting);

// ---- Action items --------------------------------------------------------------------------

/** GET /action-items with `filter` (src/api/action-item-filter.ts: the filters, described once). */
export function listActionItems(filter: ActionItemFilter): PaginateOptions<S.ActionItem> {
  return { path: '/action-items', query: { ...apiQuery(filter) }, item: S.ActionItem };
}

export interface ActionItemCreateBody {
  title: string;
  description?: string;
  assigneeProfileId?: ExactId;
}

export function createActionItemRequest(body: ActionItemCreateBody): WriteRequest<S.CreatedActionItem> {
  const schema = S.CreatedActionItem;
  return { method: 'POST', path: '/action-items', body, schema, unlisted: S.unlistedCheck(schema) };
}

export async function createActionItem(
  client: ApiClient,
  body: ActionItemCreateBody,
): Promise<S.CreatedActionItem | undefined> {
  return send(client, createActionItemRequest(body));
}

export interface ActionItemUpdateBody {
  title?: string;
  description?: string;
  status?: ActionItemStatus;
  assigneeProfileId?: ExactId | null;
}

export function updateActionItemRequest(
  id: ExactId,
  body: ActionItemUpdateBody,
): WriteRequest<S.UpdatedActionItem> {
  const schema = S.UpdatedActionItem;
  return { method: 'PUT', path: `/action-item/${id}`, body, schema, unlisted: S.unlistedCheck(schema) };
}

export async function updateActionItem(
  client: ApiClient,
  id: ExactId,
  body: ActionItemUpdateBody,
): Promise<S.UpdatedActionItem | undefined> {
  return send(client, updateActionItemRequest(id, body));
}

// ---- Calendar ------------------------------------------------------------------------------

export interface CalendarMeetingBody {
  privateNotes?: string;
  tagIds?: ExactId[];
}

export function setCalendarMeetingRequest(
  calendarMeetingId: string,
  body: CalendarMeetingBody,
): WriteRequest<S.Meeting> {
  return {
    method: 'PUT',
    path: `/calendar/events/${enc(calendarMeetingId)}/meeting`,
    body,
    schema: S.Meeting,
    unlisted: meetingUnlisted,
  };
}

export async function setCalendarMeeting(
  client: ApiClient,
  calendarMeetingId: string,
  body: CalendarMeetingBody,
): Promise<S.Meeting | undefined> {
  return send(client, setCalendarMeetingRequest(calendarMeetingId, body));
}

// ---- Companies and people ------------------------------------------------------------------

export async function getCompany(client: ApiClient, domain: string): Promise<S.CompanyDetail> {
  return (await client.request({ method: 'GET', path: `/company/${enc(domain)}`, schema: S.CompanyDetail }))
    .data;
}

export function listCompanies(query: { tagIds?: readonly string[] }): PaginateOptions<S.CompanySummary> {
  return { path: '/companies', query: { ...query }, item: S.CompanySummary };
}

export function listPeople(query: {
  domains?: readonly string[];
  tagIds?: readonly string[];
  limit?: number;
}): PaginateOptions<S.Person> {
  return { path: '/people', query: { ...query }, item: S.Person };
}

// ---- Meetings ------------------------------------------------------------------------------

export function listMeetings(query: { tagIds?: readonly string[] }): PaginateOptions<S.Meeting> {
  return { path: '/meetings', query: { ...query }, item: S.Meeting };
}

export interface SearchQuery {
  searchTerm?: string;
  meetingIds?: readonly string[];
  tagIds?: readonly string[];
  attendeeProfileIds?: readonly string[];
}

export function searchMeetings(query: SearchQuery): PaginateOptions<S.Meeting> {
  return { path: '/search', query: { ...query }, item: S.Meeting };
}

export async function getTranscript(client: ApiClient, meetingId: string): Promise<S.TranscriptEntry[]> {
  const path = `/meeting/${enc(meetingId)}/transcript`;
  return (await client.request({ method: 'GET', path, schema: S.arrayOf(S.TranscriptEntry) })).data;
}

export type ShareTarget = { email: string; access: ShareAccess } | { teamId: ExactId; access: ShareAccess };

export function shareMeetingRequest(meetingId: string, targets: ShareTarget[]): WriteRequest<S.Meeting> {
  return {
    method: 'PUT',
    path: `/meeting/${enc(meetingId)}/share`,
    body: targets,
    schema: S.Meeting,
    unlisted: meetingUnlisted,
  };
}

export async function shareMeeting(
  client: ApiClient,
  meetingId: string,
  targets: ShareTarget[],
): Promise<S.Meeting | undefined> {
  return send(client, shareMeetingRequest(meetingId, targets));
}

// ---- Tags ----------------------------------------------------------------------------------

export function createTagRequest(body: { name: string; description?: string }): WriteRequest<S.Tag> {
  return { method: 'POST', path: '/tag', body, schema: S.Tag };
}

export async function createTag(
  client: ApiClient,
  body: { name: string; description?: string },
): Promise<S.Tag | undefined> {
  return send(client, createTagRequest(body));
}

export function updateTagRequest(
  tagId: ExactId,
  body: { name?: string; description?: string },
): WriteRequest<S.Tag> {
  return { method: 'PUT', path: `/tag/${tagId}`, body, schema: S.Tag };
}

export async function updateTag(
  client: ApiClient,
  tagId: ExactId,
  body: { name?: string; description?: string },
): Promise<S.Tag | undefined> {
  return send(client, updateTagRequest(tagId, body));
}

export function applyTagRequest(tagId: ExactId, meetingIds: string[]): WriteRequest<S.Meeting[]> {
  return {
    method: 'PUT',
    path: '/tag',
    body: { tagId, [TAG_APPLY_MEETINGS_FIELD]: meetingIds },
    schema: S.arrayOf(S.Meeting),
    unlisted: S.unlistedInArray(S.Meeting),
  };
}

export async function applyTag(
  client: ApiClient,
  tagId: ExactId,
  meetingIds: string[],
): Promise<S.Meeting[] | undefined> {
  return send(client, applyTagRequest(tagId, meetingIds));
}
