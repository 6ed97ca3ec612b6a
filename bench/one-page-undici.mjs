// A yardstick of bench figure g: the same one-page request as bench/one-page-http.mjs with undici's
// request(), as a minimal script would write it (the whole undici package, node's default flags).
//
//   MTG_BASE_URL=... MTG_API_KEY=... node bench/one-page-undici.mjs '/action-items?assigneeType=Anyone'
import { request } from 'undici';

const url = new URL(process.argv[2], process.env.MTG_BASE_URL);
const headers = { authorization: `Bearer ${process.env.MTG_API_KEY}`, accept: 'application/json' };
const res = await request(url, { headers });
const text = await res.body.text();
if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
process.stdout.write(`${JSON.stringify(JSON.parse(text)[0])}\n`);
