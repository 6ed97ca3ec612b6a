// GET /people, GET /companies and GET /company/{domain}.
import { notFound, validationError } from '../errors.js';
import type { Store } from '../model.js';
import { companyDetail, companySummary, person } from '../serialize.js';
import { parseQuery } from '../validate.js';
import { type Ctx, list, meetingFilter, ok, type Reply } from './context.js';

const DOMAIN_RE =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;

/** Profiles attending the meetings that pass `tagIds` (every meeting when no tags are given). */
function attendeesOf(store: Store, tagIds: number[] | undefined): Set<number> {
  const meetings = meetingFilter(store, { tagIds });
  const out = new Set<number>();
  for (const m of store.meetings) {
    if (meetings && !meetings.has(m.id)) continue;
    for (const a of m.attendees) out.add(a.profileId);
  }
  return out;
}

const PEOPLE_QUERY = {
  cursor: { kind: 'string' },
  domains: { kind: 'stringArray' },
  limit: { kind: 'posInt' },
  tagIds: { kind: 'posIntArray' },
} as const;

export function listPeople(ctx: Ctx): Reply {
  const q = parseQuery(ctx.query, PEOPLE_QUERY);
  const bad = (q.domains ?? []).flatMap((d, i) =>
    DOMAIN_RE.test(d) ? [] : [{ path: `domains.${i}`, message: `not a domain name: "${d}"` }],
  );
  if (bad.length > 0) throw validationError(bad);
  const { store } = ctx;
  const page = ctx.pages.page({
    route: 'GET /people',
    pathname: ctx.pathname,
    query: ctx.query,
    version: store.version,
    compute: () => {
      const attending = q.tagIds ? attendeesOf(store, q.tagIds) : undefined;
      const domains = q.domains ? new Set(q.domains.map((d) => d.toLowerCase())) : undefined;
      const companyIds = domains
        ? new Set(store.companies.filter((c) => domains.has(c.domain)).map((c) => c.id))
        : undefined;
      const matches = store.people.filter(
        (p) =>
          (!attending || attending.has(p.id)) &&
          (!companyIds ||
            (p.companyId !== null && companyIds.has(p.companyId)) ||
            (p.email !== null && domains!.has(p.email.slice(p.email.lastIndexOf('@') + 1).toLowerCase()))),
      );
      // `limit` caps the total across all pages, not the page size.
      return q.limit === undefined ? matches : matches.slice(0, q.limit);
    },
  });
  return list(page, (p) => person(store, p));
}

export function listCompanies(ctx: Ctx): Reply {
  const q = parseQuery(ctx.query, { cursor: { kind: 'string' }, tagIds: { kind: 'posIntArray' } });
  const { store } = ctx;
  const page = ctx.pages.page({
    route: 'GET /companies',
    pathname: ctx.pathname,
    query: ctx.query,
    version: store.version,
    compute: () => {
      const attending = attendeesOf(store, q.tagIds);
      const companyIds = new Set<number>();
      for (const id of attending) {
        const c = store.profiles.get(id)?.companyId;
        if (c !== undefined && c !== null) companyIds.add(c);
      }
      return store.companies
        .filter((c) => companyIds.has(c.id))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
    },
  });
  return list(page, companySummary);
}

export function getCompany(ctx: Ctx): Reply {
  parseQuery(ctx.query, {});
  const domain = ctx.params.domain!;
  if (!DOMAIN_RE.test(domain))
    throw validationError([{ path: 'domain', message: `not a domain name: "${domain}"` }]);
  const c = ctx.store.companies.find((x) => x.domain === domain.toLowerCase());
  if (!c) throw notFound(`Company ${domain} not found`);
  return ok(companyDetail(ctx.store, c));
}
