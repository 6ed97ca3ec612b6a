// mtg people list: the people attending your meetings.

import { UsageError } from '../api/errors.js';
import { listValues, positiveIds } from '../cli/input.js';
import type { GroupSpec } from '../cli/spec.js';

/** A company domain such as acme.com (no scheme, path or @). */
export function domainName(value: string, what: string): string {
  const trimmed = value.trim().toLowerCase();
  if (!/^[^\s/@:?#]+\.[^\s/@:?#]+$/.test(trimmed)) {
    throw new UsageError(`${what} must be a domain name such as acme.com, got "${value}"`);
  }
  return trimmed;
}

export const peopleGroup: GroupSpec = {
  name: 'people',
  summary: 'List the people attending your meetings',
  commands: [
    {
      name: 'list',
      list: true,
      summary: 'List people, most recent meeting first (every page)',
      options: [
        {
          flags: '--domain <domain>',
          description: 'only people of these company domains (repeatable, comma lists)',
          repeatable: true,
        },
        {
          flags: '--tag <id>',
          description: 'only attendees of meetings with this tag (repeatable, comma lists)',
          repeatable: true,
        },
      ],
      examples: [
        'mtg people list',
        'mtg people list --domain acme.com --domain globex.com --json',
        'mtg people list --tag 3 --format csv -o people.csv',
      ],
      async run(ctx, _args, opts) {
        const domains = listValues(opts.domain).map((d) => domainName(d, '--domain'));
        const tags = positiveIds(listValues(opts.tag), '--tag');
        const query = {
          domains: domains.length ? domains : undefined,
          tagIds: tags.length ? tags.map(String) : undefined,
        };
        const { runList } = await import('../cli/list.js');
        return runList(ctx, {
          listing: (source) => source.listPeople(query),
          resource: 'person',
          noun: ['person', 'people'],
          command: 'people list',
        });
      },
    },
  ],
};
