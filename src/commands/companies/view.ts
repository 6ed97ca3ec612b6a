// mtg companies view: one company, its external links and its people.

import { companyDetailNotSynced } from '../../api/read-source.js';
import { planOutput } from '../../cli/output-plan.js';
import { defineRun } from '../../cli/spec.js';
import { writeCompanyDetail } from '../../output/company.js';
import { ExitCode } from '../../shared/errors.js';
import { domainName } from '../people/domain.js';
import * as spec from './spec.js';

export const run = defineRun(spec.view, async (ctx, args) => {
  const domain = domainName(args.DOMAIN, 'DOMAIN');
  const plan = await planOutput(ctx, 'companyDetail');
  const company = await (await ctx.source()).viewCompany(domain);
  if (companyDetailNotSynced.has(company)) {
    ctx.progress.note(
      `The mirror has not fetched ${domain}'s detail yet (its external links): it arrives with the next \`mtg sync\`.`,
    );
  }
  // Table format without --fields: the company, its links and its people, readably.
  if (plan.readable) {
    await plan.document((stream) =>
      writeCompanyDetail(stream, company, { width: plan.width, color: plan.color }),
    );
  } else {
    await plan.one(company);
  }
  return ExitCode.ok;
});
