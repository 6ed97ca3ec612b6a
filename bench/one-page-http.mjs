// A yardstick of bench figure g: the least any Node client does for a one-page API command. One GET
// with node:http, the body parsed, its first item printed as one JSON line.
//
//   MTG_BASE_URL=... MTG_API_KEY=... node bench/one-page-http.mjs '/action-items?assigneeType=Anyone'
import { get } from 'node:http';

const url = new URL(process.argv[2], process.env.MTG_BASE_URL);
const headers = { authorization: `Bearer ${process.env.MTG_API_KEY}`, accept: 'application/json' };
get(url, { headers }, (res) => {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk) => {
    text += chunk;
  });
  res.on('end', () => {
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
    process.stdout.write(`${JSON.stringify(JSON.parse(text)[0])}\n`);
  });
});
