// mtg companies list: the companies whose people attend your meetings, every page.

import type { Context } from '../../cli/context.js';
import { listValues, positiveIds } from '../../cli/input.js';
import { runList } from '../../cli/list.js';
import type { Args, Opts } from '../../cli/spec.js';

export async function run(ctx: Context, _args: Args, opts: Opts): Promise<number> {
  const tags = positiveIds(listValues(opts.tag), '--tag');
  const query = { tagIds: tags.length ? tags.map(String) : undefined };
  return runList(ctx, {
    listing: (source) => source.listCompanies(query),
    resource: 'company',
    noun: ['company', 'companies'],
    command: 'companies list',
  });
}
