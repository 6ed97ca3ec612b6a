// The API as a ReadSource (the mirror's twin is src/mirror/reads.ts): the endpoints and
// paginatePages. It takes the way to get a client, not the command line's Context: the client is
// built (settings, key) only when a read needs it.

import type { ApiClient } from './client.js';
import * as E from './endpoints.js';
import type { PaginateOptions } from './paginate.js';
import type { Listing, ReadSource } from './read-source.js';
import type * as S from './schemas.js';

/** The client to read with; called on first use, and as often as needed (the caller caches it). */
export type ClientProvider = () => Promise<ApiClient>;

function listing<T>(client: ClientProvider, endpoint: PaginateOptions<T>): Listing<T> {
  // The client (settings, then its chunk) and the paginator load while the caller sets up its
  // writer; a missing key is reported by ready(), before any output is opened.
  let loaded: Promise<[ApiClient, typeof import('./paginate.js')]> | undefined;
  const load = () => {
    loaded ??= Promise.all([client(), import('./paginate.js')]);
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

export function apiSource(client: ClientProvider): ReadSource {
  return {
    offline: false,
    listMeetings: (query) => listing(client, E.listMeetings(query)),
    searchMeetings: (query) => listing(client, E.searchMeetings(query)),
    async viewMeeting(id) {
      // There is no get-one-meeting endpoint: search restricted to the ID, and take the exact match.
      const api = await client();
      const { paginate } = await import('./paginate.js');
      for await (const meeting of paginate(api, E.searchMeetings({ meetingIds: [id] }))) {
        if (meeting.id === id) return meeting;
      }
      return undefined;
    },
    async transcript(meetingId) {
      return E.getTranscript(await client(), meetingId);
    },
    listActionItems: (query) => listing(client, E.listActionItems(query)),
    listPeople: (query) => listing(client, E.listPeople(query)),
    listCompanies: (query) => listing(client, E.listCompanies(query)),
    async viewCompany(domain): Promise<S.CompanyDetail> {
      return E.getCompany(await client(), domain);
    },
  };
}
