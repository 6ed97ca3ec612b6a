// mtg companies list|view: the companies whose people attend your meetings.

import type { Context } from '../cli/context.js';
import type { ListFormat } from '../cli/globals.js';
import { listValues, positiveIds } from '../cli/input.js';
import type { GroupSpec } from '../cli/spec.js';
import { domainName } from './people.js';

/** Table format without --fields: the company, its links and its people, readably. */
async function writeReadable(ctx: Context, company: unknown, width: number, color: boolean): Promise<void> {
  const { withOutput } = await import('../output/index.js');
  const { writeCompanyDetail } = await import('../output/company.js');
  await withOutput(ctx.io.out, ctx.globals.output, (stream) =>
    writeCompanyDetail(stream, company, { width, color }),
  );
}

export const companiesGroup: GroupSpec = {
  name: 'companies',
  summary: 'List companies and show one with its links and people',
  commands: [
    {
      name: 'list',
      list: true,
      summary: 'List the companies whose people attend your meetings (every page)',
      options: [
        {
          flags: '--tag <id>',
          description: 'only companies of meetings with this tag (repeatable, comma lists)',
          repeatable: true,
        },
      ],
      examples: ['mtg companies list', 'mtg companies list --tag 3 --json'],
      async run(ctx, _args, opts) {
        const tags = positiveIds(listValues(opts.tag), '--tag');
        const query = { tagIds: tags.length ? tags.map(String) : undefined };
        const { runList } = await import('../cli/list.js');
        return runList(ctx, {
          listing: (source) => source.listCompanies(query),
          resource: 'company',
          noun: ['company', 'companies'],
          command: 'companies list',
        });
      },
    },
    {
      name: 'view',
      summary: 'Show a company: its external links and its people',
      args: [{ name: 'DOMAIN', description: 'the company domain, e.g. acme.com', required: true }],
      examples: ['mtg companies view acme.com', 'mtg companies view acme.com --json'],
      async run(ctx, args) {
        const domain = domainName(String(args.DOMAIN ?? ''), 'DOMAIN');
        const { chooseFormat, writerSetup, writeResult } = await import('../cli/list.js');
        const format = chooseFormat(ctx) as ListFormat;
        const { options } = await writerSetup(ctx, 'companyDetail', format);
        const { readSource } = await import('../cli/source.js');
        const company = await (await readSource(ctx)).viewCompany(domain);
        if (format === 'table' && ctx.globals.fields === undefined) {
          await writeReadable(ctx, company, options.width, options.color);
        } else {
          await writeResult(ctx, 'companyDetail', company);
        }
        return 0;
      },
    },
  ],
};
