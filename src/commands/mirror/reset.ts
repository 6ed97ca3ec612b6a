// mtg mirror reset: delete this profile's mirror (the next `mtg sync` starts over).

import { defineRun } from '../../cli/spec.js';
import { resetMirror } from '../../mirror/reset.js';
import { ExitCode } from '../../shared/errors.js';
import * as spec from './spec.js';

export const run = defineRun(spec.reset, async (ctx, _args, opts) => {
  const { profile, dataDir: dir } = await ctx.mirrorTarget({ readonly: true, anyBaseUrl: true });
  const { path, deleted } = resetMirror({ profile, dataDir: dir, force: opts.force === true });
  if (!deleted) {
    ctx.progress.note(`No mirror for profile ${profile} (${path}): nothing to delete.`);
    return ExitCode.ok;
  }
  ctx.progress.note(`Deleted the mirror of profile ${profile} (${path}).`);
  return ExitCode.ok;
});
