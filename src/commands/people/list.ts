// mtg people list: the people attending your meetings, every page.

import { listValues } from '../../cli/input.js';
import { runList } from '../../cli/list.js';
import { defineRun } from '../../cli/spec.js';
import { positiveIds } from '../../shared/ids.js';
import { domainName } from './domain.js';
import * as spec from './spec.js';

export const run = defineRun(spec.list, async (ctx, _args, opts) => {
  const domains = listValues(opts.domain, '--domain').map((d) => domainName(d, '--domain'));
  const tags = positiveIds(listValues(opts.tag, '--tag'), '--tag');
  const query = {
    domains: domains.length ? domains : undefined,
    tagIds: tags.length ? tags.map(String) : undefined,
  };
  return runList(ctx, {
    listing: (source) => source.listPeople(query),
    resource: 'person',
    noun: ['person', 'people'],
    command: 'people list',
  });
});
