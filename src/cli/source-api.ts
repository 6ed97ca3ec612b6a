// The API as a ReadSource: today's endpoints and paginatePages, unchanged.

import * as E from '../api/endpoints.js';
import type { PaginateOptions } from '../api/paginate.js';
import type * as S from '../api/schemas.js';
import type { Context } from './context.js';
import type { Listing, ReadSource } from './source.js';

function listing<T>(ctx: Context, endpoint: PaginateOptions<T>): Listing<T> {
  // The client (settings, then its chunk) and the paginator load while the caller sets up its
  // writer; a missing key is reported by ready(), before any output is opened.
  let loaded:
    | Promise<[Awaited<ReturnType<Context['client']>>, typeof import('../api/paginate.js')]>
    | undefined;
  const load = () => {
    loaded ??= Promise.all([ctx.client(), import('../api/paginate.js')]);
    return loaded;
  };
  return {
    describe: [endpoint.path, endpoint.query],
    async ready() {
      await load();
    },
    async *pages({ limit, startUrl }) {
      const [client, { paginatePages }] = await load();
      yield* paginatePages(client, { ...endpoint, limit, startUrl });
    },
  };
}

export function apiSource(ctx: Context): ReadSource {
  return {
    offline: false,
    listMeetings: (query) => listing(ctx, E.listMeetings(query)),
    searchMeetings: (query) => listing(ctx, E.searchMeetings(query)),
    async viewMeeting(id) {
      // There is no get-one-meeting endpoint: search restricted to the ID, and take the exact match.
      const client = await ctx.client();
      const { paginate } = await import('../api/paginate.js');
      for await (const meeting of paginate(client, E.searchMeetings({ meetingIds: [id] }))) {
        if (meeting.id === id) return meeting;
      }
      return undefined;
    },
    async transcript(meetingId) {
      return E.getTranscript(await ctx.client(), meetingId);
    },
    listActionItems: (query) => listing(ctx, E.listActionItems(query)),
    listPeople: (query) => listing(ctx, E.listPeople(query)),
    listCompanies: (query) => listing(ctx, E.listCompanies(query)),
    async viewCompany(domain): Promise<S.CompanyDetail> {
      return E.getCompany(await ctx.client(), domain);
    },
  };
}
