// The mirror's read side, for every reader: the read commands under --offline (as a ReadSource:
// objects exactly as the API last sent them, the `json` column, in the API's order, `position` of
// the last walk), `find`, `changes`, `sql`, `mirror status`, and the long-running `mtg mcp`.
// Filters the mirror cannot answer are refused with one line. Nothing here knows the command line:
// it takes an open Mirror (src/mirror/open.ts), and every call reads the last committed state
// (no read transaction outlives the call or the iteration it returns: SQLite's WAL gives each
// statement the newest commit, even while a sync writes).

import { type ActionItemFilter, assigneeIsMe, hasMeetingFilter } from '../api/action-item-filter.js';
import type { SearchQuery } from '../api/endpoints.js';
import { companyDetailNotSynced, type Listing, type ReadSource } from '../api/read-source.js';
import type * as S from '../api/schemas.js';
import { ExitCode, MtgError, UsageError } from '../shared/errors.js';
import { actionItemRows, checkMirrorCanFilter } from './action-item-sql.js';
import { type ChangeEvent, type ChangesQuery, checkAfter, checkRunExists, readChanges } from './changes.js';
import type { Db } from './driver.js';
import { idText, LIVE_MEETINGS, meetingMatches, parse, rows } from './filters.js';
import type { Mirror } from './open.js';
import { mapFilter, pagesOf } from './pages.js';
import {
  type FindOptions,
  findMeetings,
  findPassages,
  type MeetingHit,
  type PassageHit,
  planSearch,
  rankedMeetingIds,
  type SearchPlan,
  toMatchExpression,
} from './search.js';
import {
  type BoundedSqlOptions,
  type BoundedSqlRows,
  boundedSqlRows,
  type SqlRows,
  sqlRows,
  sqlSchema,
} from './sql.js';
import type { MirrorStatus } from './status.js';

type Obj = Record<string, unknown>;

/** The list walks of a sync; 'my-action-items' is the default-assignee walk that marks `mine`. */
type Walked = 'meetings' | 'action-items' | 'my-action-items' | 'people' | 'companies';

/** The lists a listing of action items with `f` needs walked to their end: the user's own for "mine", the meetings for their filters. */
export function walksFor(f: ActionItemFilter): Walked[] {
  const needs: Walked[] = ['action-items'];
  const type = f.assigneeType ?? 'Me';
  if (type === 'Me' || type === 'NotMe' || f.mine !== undefined || assigneeIsMe(f))
    needs.push('my-action-items');
  if (hasMeetingFilter(f)) needs.push('meetings');
  return needs;
}

export class MirrorReads implements ReadSource {
  readonly offline = true;
  private opened: Mirror | undefined;

  /**
   * `mirror`: an open mirror (read-only is enough), or how to open it on the first read (the
   * --offline source opens it only when a read needs it, so that a refused filter is reported
   * first). The caller closes it.
   */
  constructor(private readonly mirror: Mirror | (() => Mirror)) {}

  private db(): Db {
    this.opened ??= typeof this.mirror === 'function' ? this.mirror() : this.mirror;
    return this.opened.db;
  }

  /** `query` (its search syntax: search.ts) planned on this mirror; exit 2 on a bad query. */
  plan(query: string, options: { exact?: boolean } = {}): SearchPlan {
    return planSearch(this.db(), query, options);
  }

  /** `mtg find`: passages matching `query` (or its plan), best first. Exit 2 on a bad query. */
  find(query: string | SearchPlan, options: FindOptions = {}): Generator<PassageHit> {
    return findPassages(this.db(), typeof query === 'string' ? this.plan(query) : query, options);
  }

  /** `mtg find --by meeting`: meetings matching `query` (or its plan), best first, with their best passages. */
  findMeetings(query: string | SearchPlan, options: FindOptions = {}): Generator<MeetingHit> {
    return findMeetings(this.db(), typeof query === 'string' ? this.plan(query) : query, options);
  }

  /**
   * `mtg changes`: the change log, oldest first. A run or sequence number the mirror never had is
   * exit 2 here, before the first event (`afterName`: how the caller calls `after`, default `--after`).
   */
  changes(query: ChangesQuery = {}, afterName?: string): Generator<ChangeEvent> {
    const db = this.db();
    if (query.since?.kind === 'run') checkRunExists(db, query.since.run);
    if (query.after !== undefined) checkAfter(db, query.after, afterName);
    return readChanges(db, query);
  }

  /** IDs of the live meetings whose transcript the mirror holds. */
  meetingIdsWithTranscript(): Set<string> {
    const sql =
      'SELECT t.meeting_id AS id FROM transcripts t JOIN meetings m ON m.id = t.meeting_id WHERE m.deleted_at IS NULL';
    return new Set(
      this.db()
        .prepare<{ id: string }>(sql)
        .all()
        .map((r) => r.id),
    );
  }

  /** IDs of the live action items the key's own default listing returns ("mine"). */
  myActionItemIds(): Set<string> {
    const sql = 'SELECT id FROM action_items WHERE mine = 1 AND deleted_at IS NULL';
    return new Set(
      this.db()
        .prepare<{ id: string }>(sql)
        .all()
        .map((r) => r.id),
    );
  }

  /**
   * `mtg sql`: one read-only statement; its columns now, its rows when iterated (exit 2 on SQL
   * errors). `caller` names the reader in the refusals (default "mtg sql").
   */
  sql(query: string, caller?: string): SqlRows {
    return sqlRows(this.db(), query, caller);
  }

  /**
   * A user's statement (`mtg sql`, the MCP sql tool): checked now (exit 2), run in a child process
   * when its rows are iterated, within `options.timeoutMs` and stopped by `options.signal`.
   */
  boundedSql(query: string, caller: string, options: BoundedSqlOptions): BoundedSqlRows {
    return boundedSqlRows(this.db(), query, caller, options);
  }

  /** `mtg sql --schema`: the CREATE statements of mtg's tables and indexes. */
  schema(): string[] {
    return sqlSchema(this.db());
  }

  /**
   * `mtg mirror status`: what the mirror holds and when it was last synced. Loaded on first use:
   * it counts pending transcripts with the sync engine's query, which no other read needs to load.
   */
  async status(): Promise<MirrorStatus> {
    this.db();
    const { mirrorStatus } = await import('./status.js');
    return mirrorStatus(this.opened!);
  }

  private listing<T>(
    what: string,
    query: unknown,
    needs: readonly Walked[],
    produce: () => Iterable<T>,
  ): Listing<T> {
    return {
      describe: ['mirror', what, query],
      ready: async () => {
        for (const w of needs) this.requireWalked(w);
      },
      pages: ({ limit }) => pagesOf(produce(), limit),
    };
  }

  /**
   * A list the mirror has never walked to its end (a sync stopped by --budget, an error or Ctrl-C
   * before its last page, or never synced with --only) cannot answer: what it lacks would look
   * like "none" to a script. Exit 2 before any output, as for other filters it cannot answer.
   */
  private requireWalked(w: Walked): void {
    const mine = w === 'my-action-items';
    const resource = mine ? 'action-items' : w;
    const done = this.db()
      .prepare<{ n: number }>(
        `SELECT count(*) AS n FROM walks WHERE resource = ? AND completed_at IS NOT NULL AND query ${mine ? '' : 'NOT '}LIKE '%"mine"]'`,
      )
      .get(resource)!.n;
    if (done > 0) return;
    const label = mine ? 'your action items' : resource.replace('-', ' ');
    throw new UsageError(
      `The mirror has no complete copy of ${label} yet (no sync has finished that list): run \`mtg sync\``,
    );
  }

  /** For a lookup by ID: "not found" only when the mirror has the whole list, else incomplete. */
  private notFound(w: Walked, message: string): never {
    this.requireWalked(w);
    throw new MtgError(message, ExitCode.notFound);
  }

  listMeetings(query: { tagIds?: readonly string[] }): Listing<S.Meeting> {
    return this.listing('meetings', query, ['meetings'], () =>
      mapFilter(rows(this.db(), LIVE_MEETINGS), (json) => {
        const m = parse<S.Meeting>(json);
        return meetingMatches(m, query) ? m : undefined;
      }),
    );
  }

  searchMeetings(query: SearchQuery): Listing<S.Meeting> {
    const term = query.searchTerm?.trim() ? query.searchTerm : undefined;
    // Checked now, before any output is opened.
    const match = term === undefined ? undefined : toMatchExpression(term);
    const wanted = query.meetingIds ? new Set(query.meetingIds) : undefined;
    const keep = (m: S.Meeting) => (!wanted || wanted.has(m.id)) && meetingMatches(m, query);
    return this.listing('search', query, ['meetings'], () => {
      if (match === undefined) {
        return mapFilter(rows(this.db(), LIVE_MEETINGS), (json) => {
          const m = parse<S.Meeting>(json);
          return keep(m) ? m : undefined;
        });
      }
      // Relevance: the meeting's best passage (name, notes, transcript, action items, attendees).
      const one = this.db().prepare<{ json: string }>(
        'SELECT json FROM meetings WHERE id = ? AND deleted_at IS NULL',
      );
      return mapFilter(rankedMeetingIds(this.db(), match), (id) => {
        const row = one.get(id);
        if (!row) return undefined;
        const m = parse<S.Meeting>(row.json);
        return keep(m) ? m : undefined;
      });
    });
  }

  async viewMeeting(id: string): Promise<S.Meeting | undefined> {
    const row = this.db()
      .prepare<{ json: string }>('SELECT json FROM meetings WHERE id = ? AND deleted_at IS NULL')
      .get(id);
    if (!row) this.requireWalked('meetings');
    return row ? parse<S.Meeting>(row.json) : undefined;
  }

  async transcript(meetingId: string): Promise<S.TranscriptEntry[]> {
    const row = this.db()
      .prepare<{ json: string | null; live: number }>(
        'SELECT t.json AS json, 1 AS live FROM meetings m LEFT JOIN transcripts t ON t.meeting_id = m.id' +
          ' WHERE m.id = ? AND m.deleted_at IS NULL',
      )
      .get(meetingId);
    if (!row) this.notFound('meetings', `Meeting ${meetingId} not found in the mirror`);
    if (row.json === null) {
      throw new UsageError(
        `The mirror holds no transcript of meeting ${meetingId} yet (synced with --no-transcripts, or not finished): run \`mtg sync\``,
      );
    }
    return parse<S.TranscriptEntry[]>(row.json);
  }

  /** `action-items list --offline`: every filter in one statement (action-item-sql.ts). */
  listActionItems(filter: ActionItemFilter): Listing<S.ActionItem> {
    checkMirrorCanFilter(filter);
    return this.listing('action-items', filter, walksFor(filter), () =>
      mapFilter(actionItemRows(this.db(), filter), (row) => parse<S.ActionItem>(row.json)),
    );
  }

  /** Domain → company name, for matching people to companies (people carry a name, not a domain). */
  private companyNames(): Map<string, string> {
    const names = new Map<string, string>();
    for (const json of rows(this.db(), 'SELECT json FROM companies WHERE deleted_at IS NULL')) {
      const c = parse<Obj>(json);
      if (typeof c.domain === 'string' && typeof c.name === 'string')
        names.set(c.domain.toLowerCase(), c.name);
    }
    return names;
  }

  /** A person of one of these domains: by email domain, or by the name of the company of that domain. */
  private personOfDomains(domains: readonly string[]): (p: Obj) => boolean {
    const wanted = new Set(domains.map((d) => d.toLowerCase()));
    const all = this.companyNames();
    const names = new Set([...wanted].flatMap((d) => (all.has(d) ? [all.get(d)!] : [])));
    return (p) => {
      const email = typeof p.email === 'string' ? p.email : '';
      const at = email.lastIndexOf('@');
      return (
        (at >= 0 && wanted.has(email.slice(at + 1).toLowerCase())) ||
        (typeof p.companyName === 'string' && names.has(p.companyName))
      );
    };
  }

  /** Profiles attending live meetings with any of these tags. */
  private attendeesOfTags(tagIds: readonly string[]): { profiles: Set<string>; attendees: Obj[] } {
    const profiles = new Set<string>();
    const attendees: Obj[] = [];
    for (const json of rows(this.db(), LIVE_MEETINGS)) {
      const m = parse<Obj>(json);
      if (!meetingMatches(m, { tagIds })) continue;
      for (const a of (m.attendees as Obj[] | undefined) ?? []) {
        const id = idText(a.profileId);
        if (id !== undefined) profiles.add(id);
        attendees.push(a);
      }
    }
    return { profiles, attendees };
  }

  listPeople(query: { domains?: readonly string[]; tagIds?: readonly string[] }): Listing<S.Person> {
    return this.listing('people', query, query.tagIds ? ['people', 'meetings'] : ['people'], () => {
      const ofDomain = query.domains ? this.personOfDomains(query.domains) : undefined;
      const attending = query.tagIds ? this.attendeesOfTags(query.tagIds).profiles : undefined;
      return mapFilter(
        rows(this.db(), 'SELECT json FROM people WHERE deleted_at IS NULL ORDER BY position, id'),
        (json) => {
          const p = parse<S.Person>(json);
          if (attending && !attending.has(String(p.id))) return undefined;
          if (ofDomain && !ofDomain(p as Obj)) return undefined;
          return p;
        },
      );
    });
  }

  listCompanies(query: { tagIds?: readonly string[] }): Listing<S.CompanySummary> {
    return this.listing('companies', query, query.tagIds ? ['companies', 'meetings'] : ['companies'], () => {
      let keep: ((c: Obj) => boolean) | undefined;
      if (query.tagIds) {
        // Companies of the people attending those meetings: by the attendee's company name or email domain.
        const { attendees } = this.attendeesOfTags(query.tagIds);
        const names = new Set<string>();
        const domains = new Set<string>();
        for (const a of attendees) {
          if (typeof a.companyName === 'string') names.add(a.companyName);
          const email = typeof a.email === 'string' ? a.email : '';
          if (email.includes('@')) domains.add(email.slice(email.lastIndexOf('@') + 1).toLowerCase());
        }
        keep = (c) =>
          (typeof c.name === 'string' && names.has(c.name)) ||
          (typeof c.domain === 'string' && domains.has(c.domain.toLowerCase()));
      }
      return mapFilter(
        rows(this.db(), 'SELECT json FROM companies WHERE deleted_at IS NULL ORDER BY position, domain'),
        (json) => {
          const c = parse<S.CompanySummary>(json);
          return !keep || keep(c as Obj) ? c : undefined;
        },
      );
    });
  }

  async viewCompany(domain: string): Promise<S.CompanyDetail> {
    const row = this.db()
      .prepare<{ json: string; detail: string | null }>(
        'SELECT json, CASE WHEN detail_for IS json THEN detail_json END AS detail FROM companies WHERE domain = ? AND deleted_at IS NULL',
      )
      .get(domain.toLowerCase());
    if (!row) this.notFound('companies', `Company ${domain} not found in the mirror`);
    // The detail as GET /company/{domain} sent it for the company's current summary (sync/details.ts).
    if (row.detail !== null) return parse<S.CompanyDetail>(row.detail);
    // Not fetched yet: the detail form from what the lists carry, the summary and the people of
    // that company, without externalLinks.
    const ofDomain = this.personOfDomains([domain]);
    const people: S.Person[] = [];
    for (const json of rows(
      this.db(),
      'SELECT json FROM people WHERE deleted_at IS NULL ORDER BY position, id',
    )) {
      const p = parse<S.Person>(json);
      if (ofDomain(p as Obj)) people.push(p);
    }
    const company = { ...parse<S.CompanySummary>(row.json), people } as S.CompanyDetail;
    companyDetailNotSynced.add(company);
    return company;
  }
}
