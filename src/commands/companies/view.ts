// mtg companies view: one company, its external links and its people.

import { ExitCode } from '../../api/errors.js';
import type { Context } from '../../cli/context.js';
import type { ListFormat } from '../../cli/globals.js';
import { chooseFormat, writeResult, writerSetup } from '../../cli/list.js';
import { readSource } from '../../cli/source.js';
import { defineRun } from '../../cli/spec.js';
import { writeCompanyDetail } from '../../output/company.js';
import { withOutput } from '../../output/index.js';
import { domainName } from '../people/domain.js';
import * as spec from './spec.js';

/** Table format without --fields: the company, its links and its people, readably. */
async function writeReadable(ctx: Context, company: unknown, width: number, color: boolean): Promise<void> {
  await withOutput(ctx.globals.output, (stream) => writeCompanyDetail(stream, company, { width, color }));
}

export const run = defineRun(spec.view, async (ctx, args) => {
  const domain = domainName(args.DOMAIN, 'DOMAIN');
  const format = chooseFormat(ctx) as ListFormat;
  const { options } = await writerSetup(ctx, 'companyDetail', format);
  const company = await (await readSource(ctx)).viewCompany(domain);
  if (format === 'table' && ctx.globals.fields === undefined) {
    await writeReadable(ctx, company, options.width, options.color);
  } else {
    await writeResult(ctx, 'companyDetail', company);
  }
  return ExitCode.ok;
});
