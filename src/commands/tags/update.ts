// mtg tags update: rename a tag or change its description.

import { updateTag, updateTagRequest } from '../../api/endpoints.js';
import { UsageError } from '../../api/errors.js';
import { checkOutputOptions, NO_BODY } from '../../cli/bulk.js';
import type { Context } from '../../cli/context.js';
import { isDryRun, printDryRun } from '../../cli/dry-run.js';
import { positiveId } from '../../cli/input.js';
import { writeResult } from '../../cli/list.js';
import type { Args, Opts } from '../../cli/spec.js';
import { nameConflict, tagName } from './names.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export async function run(ctx: Context, args: Args, opts: Opts): Promise<number> {
  const tagId = positiveId(String(args.TAG_ID ?? ''), 'TAG_ID');
  const name = str(opts.name);
  const description = str(opts.description);
  if (name === undefined && description === undefined) {
    throw new UsageError('nothing to update: give --name or --description');
  }
  const body = {
    ...(name !== undefined ? { name: tagName(name, '--name') } : {}),
    ...(description !== undefined ? { description } : {}),
  };
  if (isDryRun(opts)) return printDryRun(ctx, [updateTagRequest(tagId, body)]);
  await checkOutputOptions(ctx, 'tag');
  const tag = await updateTag(await ctx.client(), tagId, body).catch((err: unknown) => {
    throw nameConflict(err, name ?? '');
  });
  if (tag === undefined) ctx.progress.note(`Updated tag ${tagId}; ${NO_BODY}`);
  // With no body, what is known: the ID and what was sent.
  await writeResult(ctx, 'tag', tag ?? { id: tagId, ...body });
  return 0;
}
