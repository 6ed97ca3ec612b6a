// Shared bits of the `mtg mcp` tests: a mirror synced from a sandbox (in-process, by the engine of
// `mtg sync`), and an MCP client connected to mtg's server, in-process over the SDK's in-memory
// transport. The end-to-end test (test/e2e/mcp.test.ts) spawns the built binary instead.
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { test } from 'vitest';
import { Context } from '../../src/cli/context.js';
import { parseGlobals } from '../../src/cli/globals.js';
import { testIO } from '../../src/cli/io.js';
import { mirrorAccess } from '../../src/mcp/mirror-access.js';
import { createMcpServer, InProcessSync } from '../../src/mcp/server.js';
import { openDb } from '../../src/mirror/driver.js';
import { openMirror } from '../../src/mirror/open.js';
import { runSync } from '../../src/mirror/sync.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { tempConfigDir } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { clientFor, SMALL } from '../mirror/helpers.js';

export interface McpEnv {
  sandbox: Sandbox;
  dataDir: string;
  env: Record<string, string>;
  /** One `mtg sync` of the sandbox into dataDir, in-process. */
  sync(): Promise<void>;
}

export async function mcpEnv(options: SandboxOptions = {}, synced = true): Promise<McpEnv> {
  const sandbox = await startSandbox({ limits: 'none', pageSize: 5, sizes: SMALL, ...options });
  const dataDir = tempDir('mtg-mcp-test-');
  const env = {
    MTG_DATA_DIR: dataDir,
    MTG_CONFIG_DIR: tempConfigDir(),
    MTG_BASE_URL: sandbox.baseUrl,
    MTG_API_KEY: sandbox.apiKey,
  };
  const sync = async () => {
    const mirror = openMirror({ profile: 'default', dataDir, baseUrl: sandbox.baseUrl });
    try {
      await runSync(clientFor(sandbox), mirror);
    } finally {
      mirror.close();
    }
  };
  if (synced) await sync();
  return { sandbox, dataDir, env, sync };
}

export interface Connected {
  client: Client;
  /** Calls a tool; the result's structuredContent, or the error text of an isError result. */
  call(
    name: string,
    args?: Record<string, unknown>,
    // biome-ignore lint/suspicious/noExplicitAny: tool results are JSON, read by path in assertions
  ): Promise<{ isError: boolean; data: any; text: string }>;
  close(): Promise<void>;
}

/** mtg's MCP server over `env` (flags as `mtg mcp` takes them), and a client connected to it. */
export async function connect(
  env: Record<string, string>,
  flags: {
    offline?: boolean;
    allowWrites?: boolean;
    syncTimeBoundMs?: number;
    /** The sql tool's bound on one statement (`--timeout`), in ms. */
    sqlTimeoutMs?: number;
    /** The server's log lines (its stderr in `mtg mcp`). */
    log?: (line: string) => void;
  } = {},
): Promise<Connected> {
  const io = testIO();
  io.decideColors(env, true);
  const controller = new AbortController();
  const ctx = new Context(parseGlobals({ offline: flags.offline }), io, env, controller.signal);
  const access = await mirrorAccess(ctx);
  const server = createMcpServer(
    access,
    {
      version: 'test',
      offline: !!flags.offline,
      allowWrites: !!flags.allowWrites,
      log: flags.log ?? (() => {}),
      sqlTimeoutMs: flags.sqlTimeoutMs,
      // As serveStdio: closing ends a statement still running.
      stopping: controller.signal,
    },
    flags.offline ? undefined : new InProcessSync(access, { timeBoundMs: flags.syncTimeBoundMs }),
  );
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'mtg-test', version: '1' });
  await client.connect(clientSide);
  return {
    client,
    async call(name, args = {}) {
      const result = (await client.callTool({ name, arguments: args })) as {
        isError?: boolean;
        structuredContent?: unknown;
        content: { type: string; text?: string }[];
      };
      const text = result.content.find((c) => c.type === 'text')?.text ?? '';
      return { isError: !!result.isError, data: result.structuredContent, text };
    },
    async close() {
      controller.abort();
      await client.close();
      await server.close();
      access.close();
      await ctx.dispose();
    },
  };
}

/** Runs one statement that changes the mirror in dataDir, as a sync would have stored it. */
export function updateMirror(dataDir: string, sql: string, ...values: unknown[]): void {
  const db = openDb(`${dataDir}/default.db`);
  try {
    db.prepare(sql).run(...(values as never[]));
  } finally {
    db.close();
  }
}

/** Replaces one meeting's stored transcript (as a sync would store it) with `entries`. */
export function storeTranscript(dataDir: string, meetingId: string, entries: unknown[]): void {
  updateMirror(
    dataDir,
    'UPDATE transcripts SET json = ? WHERE meeting_id = ?',
    JSON.stringify(entries),
    meetingId,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: tool results are JSON, read by path in assertions
export type Obj = Record<string, any>;

/**
 * Tests against one synced mirror and one client connected to mtg's MCP server per file, as vitest
 * fixtures: `m` (mcpEnv(): the sandbox, its synced data folder, the env) and `c` (connect(m.env)),
 * set up when a test first names them and closed after the file's last test.
 *
 *   it('lists', async ({ m, c }) => { const r = await c.call('list_meetings'); … });
 */
export const mcpTest = test
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern (none)
  .extend('m', { scope: 'file' }, async ({}, { onCleanup }) => {
    const m = await mcpEnv();
    onCleanup(() => m.sandbox.close());
    return m;
  })
  .extend('c', { scope: 'file' }, async ({ m }, { onCleanup }) => {
    const c = await connect(m.env);
    onCleanup(() => c.close());
    return c;
  });
