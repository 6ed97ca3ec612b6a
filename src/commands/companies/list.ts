// mtg companies list: the companies whose people attend your meetings, every page.

import { listValues } from '../../cli/input.js';
import { runList } from '../../cli/list.js';
import { defineRun } from '../../cli/spec.js';
import { positiveIds } from '../../shared/ids.js';
import * as spec from './spec.js';

export const run = defineRun(spec.list, async (ctx, _args, opts) => {
  const tags = positiveIds(listValues(opts.tag, '--tag'), '--tag');
  const query = { tagIds: tags.length ? tags.map(String) : undefined };
  return runList(ctx, {
    listing: (source) => source.listCompanies(query),
    resource: 'company',
    noun: ['company', 'companies'],
    command: 'companies list',
  });
});
