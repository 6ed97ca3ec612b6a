// One source of data for the read commands: the API (src/api/source.ts) or, under --offline /
// MTG_OFFLINE=1, the local mirror (src/mirror/reads.ts). The commands keep one implementation of
// their filters and output (cli/list.ts runList and friends) and only choose where the data comes
// from (Context.source()). The interfaces live here, below both twins, so that neither the API nor
// the mirror depends on the command line, and `mtg mcp` reads through the same ones.

import type { ActionItemFilter } from './action-item-filter.js';
import type { SearchQuery } from './endpoints.js';
import type * as S from './schemas.js';

/** One page of a listing, from the API or from the mirror. */
export interface SourcePage<T> {
  items: T[];
  /** The API's next page (checkpoints record it); undefined for the last page and offline. */
  next: URL | undefined;
  /** 1-based page number within this run. */
  number: number;
  /** More items exist beyond what was yielded (past --limit, or on later pages). */
  more: boolean;
}

export interface Listing<T> {
  /** What identifies this listing in a checkpoint (path and query). */
  readonly describe: unknown;
  /** Everything that can fail before the first item (a missing key, no mirror), without sending anything. */
  ready(): Promise<void>;
  /** Pages in the API's order; `limit` stops early, `startUrl` resumes (API only). */
  pages(options: { limit?: number; startUrl?: URL }): AsyncIterable<SourcePage<T>> | Iterable<SourcePage<T>>;
}

export interface MeetingsQuery {
  tagIds?: readonly string[];
}
export interface PeopleQuery {
  domains?: readonly string[];
  tagIds?: readonly string[];
}
export interface CompaniesQuery {
  tagIds?: readonly string[];
}

export interface ReadSource {
  /**
   * True for the mirror: commands mention it where output may differ (docs/mirror.md, "Offline
   * reads, search and SQL").
   */
  readonly offline: boolean;
  listMeetings(query: MeetingsQuery): Listing<S.Meeting>;
  searchMeetings(query: SearchQuery): Listing<S.Meeting>;
  /** One meeting, or undefined when there is none with this ID. */
  viewMeeting(id: string): Promise<S.Meeting | undefined>;
  transcript(meetingId: string): Promise<S.TranscriptEntry[]>;
  listActionItems(filter: ActionItemFilter): Listing<S.ActionItem>;
  listPeople(query: PeopleQuery): Listing<S.Person>;
  listCompanies(query: CompaniesQuery): Listing<S.CompanySummary>;
  viewCompany(domain: string): Promise<S.CompanyDetail>;
}

/**
 * Companies the mirror answered without their detail (GET /company/{domain} not fetched yet: a
 * mirror synced by an mtg before it fetched details): the summary and its people, without
 * externalLinks. `companies view` says so on stderr.
 */
export const companyDetailNotSynced = new WeakSet<object>();
