// The cheapest request there is, for login (to verify a key) and status (the rate-limit state).

import { z } from 'zod';
import { Person } from '../../api/schemas.js';
import type { Context } from '../../cli/context.js';

/** One person. Used to verify a key and to read the rate-limit state. */
export async function probe(ctx: Context, apiKey?: string, baseUrl?: URL) {
  const client = await ctx.client(apiKey || baseUrl ? { apiKey, baseUrl } : undefined);
  try {
    return await client.request({
      method: 'GET',
      path: '/people',
      query: { limit: 1 },
      schema: z.array(Person),
    });
  } finally {
    if (apiKey || baseUrl) await client.close();
  }
}
