// mtg people list, as data: the people attending your meetings.

import { LIST_OPTIONS, NETWORK_OPTIONS, OUTPUT_OPTIONS, withFields } from '../../cli/globals.js';
import { defineCommand, type GroupDecl } from '../../cli/spec.js';

export const group: GroupDecl = {
  name: 'people',
  summary: 'List the people attending your meetings',
};

export const list = defineCommand({
  name: 'list',
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
    ...withFields(OUTPUT_OPTIONS, 'id,email,companyName'),
    ...LIST_OPTIONS,
    ...NETWORK_OPTIONS,
  ],
  examples: [
    'mtg people list',
    'mtg people list --domain acme.com --domain globex.com --json',
    'mtg people list --tag 3 --format csv -o people.csv',
  ],
});
