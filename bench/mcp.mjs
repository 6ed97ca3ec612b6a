// `node bench/mcp.mjs` (after `npm run build`): the figures of `mtg mcp` on the 5,000-meeting bench
// mirror (bench/mirror-fixture.ts, ~20 KB of transcript per meeting):
//   - a `search` call and a `get_transcript` page: median in-process latency, request to response
//     (the SDK's Client over its in-memory transport, mtg's server in the same process), <= 30 ms
//   - process start to the first `tools/list` answer, `mtg mcp` vs the SDK's own minimal stdio
//     server (whole processes, interleaved, medians), <= 1.5x
//   - peak RSS of an `mtg mcp` process after 1,000 mixed calls, <= 150 MB, and its RSS after a
//     second 1,000 (flat: no growth); under node 26, the same for the standalone binary when
//     dist-binary/mtg exists (`npm run build:binary`) or MTG_BENCH_BINARY names one
// Prints figures and never fails on a missed target. BENCH_QUICK=1: 500 meetings, few runs (a smoke test).

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMirrorFixture, loadSourceText } from './bundle.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const QUICK = process.env.BENCH_QUICK === '1';
const MEETINGS = QUICK ? 500 : 5000;
const LATENCY_CALLS = QUICK ? 30 : 200;
const START_RUNS = QUICK ? 3 : 15;
const MIXED_CALLS = QUICK ? 200 : 1000;
// The standalone binary (its node is 26: measured beside the package only under node 26).
const BINARY = process.version.startsWith('v26.')
  ? process.env.MTG_BENCH_BINARY ||
    (existsSync(join(ROOT, 'dist-binary', 'mtg')) ? join(ROOT, 'dist-binary', 'mtg') : undefined)
  : undefined;

const work = mkdtempSync(join(tmpdir(), 'mtg-bench-mcp-'));
const dataDir = join(work, 'data');
mkdirSync(dataDir, { recursive: true, mode: 0o700 });
const env = {
  PATH: process.env.PATH,
  HOME: work,
  MTG_DATA_DIR: dataDir,
  MTG_CONFIG_DIR: join(work, 'config'),
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const row = (label, value, target, met) =>
  console.log(`| ${label} | ${value} | ${target} | ${met ? 'yes' : 'NO'} |`);

/** mtg's server and the SDK's Client, in this process (bundled from the sources for this run). */
async function inProcess() {
  return (
    await loadSourceText(`
        import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
        import { Context } from './src/cli/context.js';
        import { parseGlobals } from './src/cli/globals.js';
        import { testIO } from './src/cli/io.js';
        import { mirrorAccess } from './src/mcp/mirror-access.js';
        import { createMcpServer } from './src/mcp/server.js';
        export async function start(env) {
          const io = testIO();
          io.decideColors(env, true);
          const ctx = new Context(parseGlobals({ offline: true }), io, env, new AbortController().signal);
          const server = createMcpServer(await mirrorAccess(ctx), { version: 'bench', offline: true, allowWrites: false, log: () => {} });
          const [a, b] = InMemoryTransport.createLinkedPair();
          await server.connect(a);
          const client = new Client({ name: 'bench', version: '1' });
          await client.connect(b);
          return { client, close: async () => { await client.close(); await server.close(); } };
        }`)
  ).start;
}

/** A line-delimited JSON-RPC session with a child process on stdio (node running argv, or cmd). */
function session(argv, cmd = process.execPath) {
  const child = spawn(cmd, argv, { env, stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map();
  let buffer = '';
  let id = 0;
  child.stdout.setEncoding('utf8').on('data', (d) => {
    buffer += d;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const msg = JSON.parse(line);
      waiting.get(msg.id)?.(msg);
      waiting.delete(msg.id);
    }
  });
  const request = (method, params) =>
    new Promise((resolve) => {
      const n = ++id;
      waiting.set(n, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: n, method, params })}\n`);
    });
  const notify = (method) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  const closed = new Promise((resolve) => child.on('close', resolve));
  const end = () => {
    child.stdin.end();
    return closed;
  };
  return { child, request, notify, end };
}

const INIT = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } };

/** ms from spawn to the answer of the first tools/list. */
async function startToToolsList(argv) {
  const started = performance.now();
  const s = session(argv);
  await s.request('initialize', INIT);
  s.notify('notifications/initialized');
  await s.request('tools/list', {});
  const ms = performance.now() - started;
  await s.end();
  return ms;
}

function rssKb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

async function main() {
  const buildFixture = await loadMirrorFixture();
  const t0 = performance.now();
  buildFixture({
    dataDir,
    meetings: MEETINGS,
    transcriptBytes: 20_000,
    seed: 1,
    rareEvery: 250,
    rareWord: 'zanzibarium',
  });
  console.log(`Mirror of ${MEETINGS} meetings built in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  console.log('| figure | measured | target | met |');
  console.log('|---|---|---|---|');

  // 1. In-process latency.
  const start = await inProcess();
  const { client, close } = await start(env);
  const ids = (
    await client.callTool({
      name: 'sql',
      arguments: { query: 'SELECT id FROM meetings ORDER BY id LIMIT 200' },
    })
  ).structuredContent.rows.map((r) => r.id);
  const time = async (fn) => {
    const xs = [];
    for (let i = 0; i < LATENCY_CALLS; i++) {
      const t = performance.now();
      const r = await fn(i);
      xs.push(performance.now() - t);
      if (r.isError) throw new Error(r.content[0].text);
    }
    return median(xs);
  };
  const queries = ['"pricing proposal"', 'budget approval', 'roadmap', 'zanzibarium', 'security review'];
  await time((i) => client.callTool({ name: 'search', arguments: { query: queries[i % queries.length] } }));
  const search = await time((i) =>
    client.callTool({ name: 'search', arguments: { query: queries[i % queries.length] } }),
  );
  const page = await time((i) =>
    client.callTool({ name: 'get_transcript', arguments: { id: ids[i % ids.length] } }),
  );
  // Per query: a common word ranks every passage holding it (the cost of `mtg find` itself).
  const perQuery = [];
  for (const query of queries) {
    const q = await time(() => client.callTool({ name: 'search', arguments: { query } }));
    perQuery.push(`${query} ${q.toFixed(1)} ms`);
  }
  await close();
  row(
    'search call, median in-process latency (default limit 20)',
    `${search.toFixed(1)} ms`,
    '<= 30 ms',
    search <= 30,
  );
  row(
    'get_transcript page (maxChars 40,000), median in-process latency',
    `${page.toFixed(1)} ms`,
    '<= 30 ms',
    page <= 30,
  );

  console.log(`|   search per query: ${perQuery.join('; ')} | | | |`);

  // 2. Start to the first tools/list: mtg mcp vs the SDK's minimal stdio server.
  const minimal = join(ROOT, 'bench', `.mcp-minimal-${process.pid}.mjs`);
  writeFileSync(
    minimal,
    `import { McpServer } from '@modelcontextprotocol/server';
     import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
     import { z } from 'zod';
     const server = new McpServer({ name: 'minimal', version: '1' });
     server.registerTool('echo', { description: 'echo', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
     await server.connect(new StdioServerTransport());\n`,
  );
  try {
    const mtg = [];
    const sdk = [];
    await startToToolsList([join(ROOT, 'bin', 'mtg.js'), 'mcp']); // warm the page cache
    await startToToolsList([minimal]);
    for (let i = 0; i < START_RUNS; i++) {
      sdk.push(await startToToolsList([minimal]));
      mtg.push(await startToToolsList([join(ROOT, 'bin', 'mtg.js'), 'mcp']));
    }
    const ratio = median(mtg) / median(sdk);
    row(
      `start to first tools/list: mtg mcp ${median(mtg).toFixed(0)} ms vs the SDK's minimal stdio server ${median(sdk).toFixed(0)} ms (median of ${START_RUNS}, interleaved)`,
      `${ratio.toFixed(2)}x`,
      '<= 1.5x',
      ratio <= 1.5,
    );
  } finally {
    rmSync(minimal, { force: true });
  }

  // 3. Memory of one server over MIXED_CALLS mixed calls, twice: the package's, and the binary's.
  await memory('', [join(ROOT, 'bin', 'mtg.js'), 'mcp'], process.execPath, ids, queries);
  if (BINARY) await memory('binary: ', ['mcp'], BINARY, ids, queries);
}

async function memory(label, argv, cmd, ids, queries) {
  const s = session(argv, cmd);
  await s.request('initialize', INIT);
  s.notify('notifications/initialized');
  const calls = [
    (i) => ['search', { query: queries[i % queries.length] }],
    () => ['list_meetings', { limit: 100 }],
    (i) => ['get_meeting', { id: ids[i % ids.length] }],
    (i) => ['get_transcript', { id: ids[(i * 7) % ids.length], maxChars: 80_000 }],
    () => ['list_action_items', { status: 'all', limit: 200 }],
    () => ['changes', { limit: 1000 }],
    () => ['sql', { query: 'SELECT id, json FROM meetings ORDER BY created_at DESC', limit: 50 }],
    () => ['mirror_status', {}],
  ];
  const mixed = async () => {
    for (let i = 0; i < MIXED_CALLS; i++) {
      const [name, args] = calls[i % calls.length](i);
      const r = await s.request('tools/call', { name, arguments: args });
      if (r.result?.isError || r.error)
        throw new Error(`${name}: ${JSON.stringify(r.error ?? r.result.content)}`);
    }
    return rssKb(s.child.pid);
  };
  const first = await mixed();
  const second = await mixed();
  await s.end();
  const mb = (kb) => (kb / 1024).toFixed(0);
  row(
    `${label}peak RSS after ${MIXED_CALLS} mixed calls`,
    `${mb(first.peak)} MB`,
    '<= 150 MB',
    first.peak <= 150 * 1024,
  );
  const growth = (second.rss - first.rss) / first.rss;
  row(
    `${label}RSS after a second ${MIXED_CALLS} (${mb(first.rss)} MB -> ${mb(second.rss)} MB; peak ${mb(first.peak)} -> ${mb(second.peak)} MB)`,
    `${(growth * 100).toFixed(1)}%`,
    'flat (<= 5%)',
    growth <= 0.05,
  );
}

try {
  await main();
} finally {
  rmSync(work, { recursive: true, force: true });
}
