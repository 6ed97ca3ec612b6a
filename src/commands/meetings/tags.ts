// --tag of meetings list and search.

import { listValues } from '../../cli/input.js';
import type { Opts } from '../../cli/spec.js';
import { positiveIds } from '../../shared/ids.js';

/** Validated tag IDs, as the strings the query carries. */
export function tagIds(opts: Opts): string[] | undefined {
  const ids = positiveIds(listValues(opts.tag, '--tag'), 'Tag ID').map(String);
  return ids.length ? ids : undefined;
}
