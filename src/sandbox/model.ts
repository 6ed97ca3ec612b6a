// The sandbox's internal records. They hold references (ids), not nested copies, so one mutation is
// seen by every response; serialize.ts turns them into the API's shapes.
import type { ActionItemStatus } from '../api/assumptions.js';
import type { ExternalLink, InsightResult, TranscriptEntry } from '../api/schemas.js';

export interface CompanyRec {
  id: number;
  name: string;
  domain: string;
  avatarUrl: string | null;
  externalLinks: ExternalLink[];
}

/** A profile: the sandbox user ("me") or a person met in meetings. */
export interface ProfileRec {
  id: number;
  firstName: string | null;
  lastName: string | null;
  title: string | null;
  companyId: number | null;
  email: string | null;
  /** Newest createdAt (ms) of a meeting this profile attends; orders GET /people. */
  lastMeetingAt: number;
}

export interface TeamRec {
  id: number;
  name: string;
  memberIds: number[];
}

export interface TagRec {
  id: number;
  name: string;
  description: string | null;
}

export interface AttendeeRec {
  profileId: number;
  isCalendarEventOrganizer: boolean;
  isCalendarInvitee: boolean;
  /** Participants who joined without an invite have no email shown. */
  showEmail: boolean;
}

export interface ShareRec {
  profileId?: number;
  teamId?: number;
  name: string;
  email?: string;
  access: string;
}

export interface CalendarEventRec {
  id: number;
  icalUid: string;
  description: string;
  platform: string;
  platformId: string;
}

export interface MeetingRec {
  id: string;
  name: string | null;
  createdAt: number;
  updatedAt: number;
  duration: number | null;
  url: string | null;
  /** undefined: recordings disabled, so the field is absent. */
  recordingUrl?: string | null;
  tagIds: number[];
  icalUid: string | null;
  attendees: AttendeeRec[];
  notes: string | null;
  privateNotes: string;
  actionItemIds: number[];
  insights: Record<string, InsightResult[]>;
  linkAccess: string;
  calendarEvent: CalendarEventRec | null;
  sharedWith: ShareRec[];
  transcript: TranscriptEntry[];
}

export interface ActionItemRec {
  id: number;
  title: string;
  description: string;
  assigneeId: number | null;
  status: ActionItemStatus;
  completedAt: number | null;
  meetingIds: string[];
}

export interface Store {
  meId: number;
  /** The company of the sandbox user's workspace. */
  workspaceCompanyId: number;
  companies: CompanyRec[];
  companiesById: Map<number, CompanyRec>;
  profiles: Map<number, ProfileRec>;
  /** People shown by GET /people (every profile except "me" and share-only profiles). */
  people: ProfileRec[];
  teams: Map<number, TeamRec>;
  tags: Map<number, TagRec>;
  /** Newest first. */
  meetings: MeetingRec[];
  meetingsById: Map<string, MeetingRec>;
  actionItems: ActionItemRec[];
  actionItemsById: Map<number, ActionItemRec>;
  nextIds: {
    tag: number;
    actionItem: number;
    profile: number;
    calendarEvent: number;
    meeting: number;
    company: number;
  };
  /** Bumped by every mutation; list caches are keyed by it. */
  version: number;
}
