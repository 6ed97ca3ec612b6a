// mtg companies list|view, as data: the companies whose people attend your meetings.

import { LIST_OPTIONS, NETWORK_OPTIONS, OUTPUT_OPTIONS, withFields } from '../../cli/globals.js';
import { defineCommand, type GroupDecl } from '../../cli/spec.js';

export const group: GroupDecl = {
  name: 'companies',
  summary: 'List companies and show one with its links and people',
};

export const list = defineCommand({
  name: 'list',
  summary: 'List the companies whose people attend your meetings (every page)',
  options: [
    {
      flags: '--tag <id>',
      description: 'only companies of meetings with this tag (repeatable, comma lists)',
      repeatable: true,
    },
    ...withFields(OUTPUT_OPTIONS, 'domain,name'),
    ...LIST_OPTIONS,
    ...NETWORK_OPTIONS,
  ],
  examples: ['mtg companies list', 'mtg companies list --tag 3 --json'],
});

export const view = defineCommand({
  name: 'view',
  summary: 'Show a company: its external links and its people',
  args: [{ name: 'DOMAIN', description: 'the company domain, e.g. acme.com', required: true }],
  options: [...withFields(OUTPUT_OPTIONS, 'domain,name,people'), ...NETWORK_OPTIONS],
  examples: ['mtg companies view acme.com', 'mtg companies view acme.com --json'],
});
