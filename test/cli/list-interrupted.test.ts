// A list cut short before its first page (src/cli/list.ts, the output plan's writers): Ctrl-C is
// exit 130 with well-formed output (cli-contract.md), so stdout holds what an empty list prints —
// "[]" for json, the header for csv/tsv, nothing for ndjson — not an empty stream that no JSON
// reader takes. A failure before the first item (--max-wait, a refused key) still prints no data
// at all: an empty array there would read as an empty result. In-process, against a local server
// that answers an empty list or holds the request until the test sends the Ctrl-C.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testIO } from '../../src/cli/io.js';
import { run } from '../../src/cli/main.js';
import { waitUntil } from '../hardening/helpers.js';
import { tempConfigDir } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

type Answer = 'empty' | 'hold' | 'rate-limited';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A server whose every list request gets `answer`; `received` counts the requests. */
async function listServer(answer: Answer): Promise<{ env: Record<string, string>; received: () => number }> {
  let received = 0;
  server = createServer((req, res) => {
    received++;
    req.resume();
    if (answer === 'hold') return; // no answer until the client gives up
    if (answer === 'rate-limited') {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3600' });
      res.end(JSON.stringify({ error: { code: 'rate_limited', message: 'Too many requests' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('[]');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    env: { MTG_BASE_URL: `http://127.0.0.1:${port}`, MTG_API_KEY: 'k', MTG_CONFIG_DIR: tempConfigDir() },
    received: () => received,
  };
}

/** mtg in this process; with `interruptAfterRequest`, a Ctrl-C once the first request is in. */
async function mtg(args: string[], answer: Answer, interruptAfterRequest = false) {
  const { env, received } = await listServer(answer);
  const io = testIO();
  const ctrlC = new AbortController();
  const done = run(args, io, env, { interrupt: ctrlC.signal });
  if (interruptAfterRequest) {
    await waitUntil(() => received() === 1, 10_000, 'the first page to be asked for');
    ctrlC.abort('SIGINT');
  }
  const code = await done;
  server?.closeAllConnections();
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

const LISTS = [
  ['meetings', 'list'],
  ['action-items', 'list'],
];

describe('Ctrl-C before the first page', () => {
  for (const list of LISTS) {
    for (const format of ['json', 'ndjson', 'csv', 'tsv']) {
      it(`${list.join(' ')} --format ${format}: exit 130, stdout as an empty list prints it`, async () => {
        const args = [...list, '--format', format];
        const empty = await mtg(args, 'empty');
        expect(empty.code, empty.stderr).toBe(0);
        const r = await mtg(args, 'hold', true);
        expect(r.code, r.stderr).toBe(130);
        expect(r.stderr).toMatch(/Interrupted\.\n$/);
        expect(r.stdout).toBe(empty.stdout);
        if (format === 'json') expect(JSON.parse(r.stdout)).toEqual([]);
        if (format === 'csv' || format === 'tsv') expect(r.stdout).toMatch(/^id[,\t].*\n$/);
        if (format === 'ndjson') expect(r.stdout).toBe('');
      });
    }
  }

  it('--json (the alias) prints []', async () => {
    const r = await mtg(['meetings', 'list', '--json'], 'hold', true);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stdout).toBe('[]\n');
  });

  it('Ctrl-C before the output was opened (while the source was set up) prints [] too', async () => {
    const io = testIO();
    const ctrlC = new AbortController();
    ctrlC.abort('SIGINT');
    const env = { MTG_CONFIG_DIR: tempConfigDir(), MTG_DATA_DIR: tempDir('mtg-list-int-data-') };
    const code = await run(['meetings', 'list', '--json', '--offline'], io, env, { interrupt: ctrlC.signal });
    expect(code, io.stderr()).toBe(130);
    expect(io.stdout()).toBe('[]\n');
  });

  it('mtg api --paginate (json, its default) prints [] too', async () => {
    const args = ['api', '/meetings', '--paginate'];
    expect((await mtg(args, 'empty')).stdout).toBe('[]\n');
    const r = await mtg(args, 'hold', true);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stdout).toBe('[]\n');
  });

  it('--checkpoint: no file, no partial file and no checkpoint; the same command again exports the list', async () => {
    const dir = tempDir('mtg-list-int-');
    const file = join(dir, 'out.json');
    const checkpoint = join(dir, 'export.checkpoint');
    const args = ['meetings', 'list', '--json', '-o', file, '--checkpoint', checkpoint];
    const r = await mtg(args, 'hold', true);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stdout).toBe('');
    // Nothing was recorded, so nothing is kept to resume; FILE is only ever a complete export.
    expect(readdirSync(dir)).toEqual([]);
    const again = await mtg(args, 'empty');
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('[]\n');
  });

  it('-o FILE (no checkpoint): nothing is written and no file is made, as for any interrupted -o', async () => {
    const dir = tempDir('mtg-list-int-');
    const file = join(dir, 'out.json');
    const r = await mtg(['meetings', 'list', '--json', '-o', file], 'hold', true);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stdout).toBe('');
    expect(existsSync(file)).toBe(false);
  });
});

describe('a failure before the first item prints no data', () => {
  it('--max-wait (exit 5): stdout stays empty, not an [] that reads as an empty result', async () => {
    const r = await mtg(['meetings', 'list', '--json', '--max-wait', '1'], 'rate-limited');
    expect(r.code, r.stderr).toBe(5);
    expect(r.stdout).toBe('');
  });
});
