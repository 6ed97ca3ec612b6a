// The baseline of figure (b): the least a client can do to export a list. An undici loop that
// fetches a page, JSON.parses it, writes one line per item (one write per page, honoring
// backpressure) and follows Link rel="next". No validation, no retries, no pacing.
//
//   MTG_BASE_URL=... MTG_API_KEY=... node bench/min-client.mjs '/action-items?assigneeType=Anyone&status=ALL'
import { Agent, request } from 'undici';

const base = new URL(process.env.MTG_BASE_URL);
const headers = { authorization: `Bearer ${process.env.MTG_API_KEY}`, accept: 'application/json' };
const dispatcher = new Agent({ connections: 1 });
const NEXT = /<([^>]*)>\s*;[^,]*\brel="?next"?/;

const write = (text) =>
  process.stdout.write(text) ? undefined : new Promise((resolve) => process.stdout.once('drain', resolve));

let url = new URL(process.argv[2], base);
let items = 0;
while (url) {
  const res = await request(url, { headers, dispatcher });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode} from ${url}: ${text.slice(0, 200)}`);
  const page = JSON.parse(text);
  let out = '';
  for (const item of page) out += `${JSON.stringify(item)}\n`;
  items += page.length;
  await write(out);
  const link = res.headers.link;
  const next = NEXT.exec(Array.isArray(link) ? link.join(', ') : (link ?? ''));
  url = next ? new URL(next[1], url) : undefined;
}
await dispatcher.close();
process.stderr.write(`${items} items\n`);
