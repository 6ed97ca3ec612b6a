// mtg people list: the people attending your meetings, every page.

import type { Context } from '../../cli/context.js';
import { listValues, positiveIds } from '../../cli/input.js';
import { runList } from '../../cli/list.js';
import type { Args, Opts } from '../../cli/spec.js';
import { domainName } from './domain.js';

export async function run(ctx: Context, _args: Args, opts: Opts): Promise<number> {
  const domains = listValues(opts.domain).map((d) => domainName(d, '--domain'));
  const tags = positiveIds(listValues(opts.tag), '--tag');
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
}
