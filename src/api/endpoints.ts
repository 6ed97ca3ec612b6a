// One typed function per endpoint of the spec (section 4). List endpoints return a PaginateOptions
// for paginate()/paginatePages(); the others send their request and return the parsed body.
// Writes return undefined when the server answered 2xx with no body: the write was applied, and
// the caller reports it as such (ApiResponse.noBody).

import { z } from 'zod';
import {
  type ActionItemStatus,
  type AssigneeType,
  type ShareAccess,
  TAG_APPLY_MEETINGS_FIELD,
} from './assumptions.js';
import type { ApiClient } from './client.js';
import type { PaginateOptions } from './paginate.js';
import * as S from './schemas.js';

const enc = encodeURIComponent;

// ---- Action items --------------------------------------------------------------------------

export interface ActionItemsQuery {
  assigneeType?: AssigneeType;
  assigneeProfileId?: number;
  assigneeTeamId?: number;
  status?: string;
  attendeeProfileIds?: readonly string[];
  tagIds?: readonly string[];
}

export function listActionItems(query: ActionItemsQuery): PaginateOptions<S.ActionItem> {
  return { path: '/action-items', query: { ...query }, item: S.ActionItem };
}

export interface ActionItemCreateBody {
  title: string;
  description?: string;
  assigneeProfileId?: number;
}

export async function createActionItem(
  client: ApiClient,
  body: ActionItemCreateBody,
): Promise<S.CreatedActionItem | undefined> {
  const schema = S.CreatedActionItem;
  return (
    await client.request({
      method: 'POST',
      path: '/action-items',
      body,
      schema,
      unlisted: S.unlistedCheck(schema),
    })
  ).data;
}

export interface ActionItemUpdateBody {
  title?: string;
  description?: string;
  status?: ActionItemStatus;
  assigneeProfileId?: number | null;
}

export async function updateActionItem(
  client: ApiClient,
  id: number,
  body: ActionItemUpdateBody,
): Promise<S.UpdatedActionItem | undefined> {
  const schema = S.UpdatedActionItem;
  const path = `/action-item/${id}`;
  return (await client.request({ method: 'PUT', path, body, schema, unlisted: S.unlistedCheck(schema) }))
    .data;
}

// ---- Calendar ------------------------------------------------------------------------------

export interface CalendarMeetingBody {
  privateNotes?: string;
  tagIds?: number[];
}

export async function setCalendarMeeting(
  client: ApiClient,
  calendarMeetingId: string,
  body: CalendarMeetingBody,
): Promise<S.Meeting | undefined> {
  const path = `/calendar/events/${enc(calendarMeetingId)}/meeting`;
  return (await client.request({ method: 'PUT', path, body, schema: S.Meeting, unlisted: meetingUnlisted }))
    .data;
}

// ---- Companies and people ------------------------------------------------------------------

const meetingUnlisted = S.unlistedCheck(S.Meeting);

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
  return (await client.request({ method: 'GET', path, schema: z.array(S.TranscriptEntry) })).data;
}

export type ShareTarget = { email: string; access: ShareAccess } | { teamId: number; access: ShareAccess };

export async function shareMeeting(
  client: ApiClient,
  meetingId: string,
  targets: ShareTarget[],
): Promise<S.Meeting | undefined> {
  const path = `/meeting/${enc(meetingId)}/share`;
  return (
    await client.request({ method: 'PUT', path, body: targets, schema: S.Meeting, unlisted: meetingUnlisted })
  ).data;
}

// ---- Tags ----------------------------------------------------------------------------------

export async function createTag(
  client: ApiClient,
  body: { name: string; description?: string },
): Promise<S.Tag | undefined> {
  return (await client.request({ method: 'POST', path: '/tag', body, schema: S.Tag })).data;
}

export async function updateTag(
  client: ApiClient,
  tagId: number,
  body: { name?: string; description?: string },
): Promise<S.Tag | undefined> {
  return (await client.request({ method: 'PUT', path: `/tag/${tagId}`, body, schema: S.Tag })).data;
}

export async function applyTag(
  client: ApiClient,
  tagId: number,
  meetingIds: string[],
): Promise<S.Meeting[] | undefined> {
  return (
    await client.request({
      method: 'PUT',
      path: '/tag',
      body: { tagId, [TAG_APPLY_MEETINGS_FIELD]: meetingIds },
      schema: z.array(S.Meeting),
      unlisted: S.unlistedInArray(S.Meeting),
    })
  ).data;
}
