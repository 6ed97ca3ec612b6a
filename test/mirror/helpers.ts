// Shared bits of the mirror tests: a sandbox with a private data dir, the mirror read back with
// plain SQL (the driver directly, not mtg's mirror queries: the test checks the file), and the
// sandbox's state collected over HTTP to compare it with.
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { openDb, type SqlValue } from '../../src/mirror/driver.js';
import { type Mirror, openMirror } from '../../src/mirror/open.js';
import {
  runSync,
  type SyncOptions,
  type SyncProgressEvent,
  type SyncSummary,
} from '../../src/mirror/sync.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import type { Clock } from '../../src/shared/clock.js';
import { sandboxEnv, tempConfigDir } from '../helpers/cli.js';
import { type InProcessResult, runInProcess } from '../helpers/inprocess.js';
import { tempDir } from '../helpers/temp.js';
import type { VirtualClock } from '../helpers/virtual-clock.js';
import { collect } from '../sandbox/helpers.js';

export const SMALL = { meetings: 12, actionItems: 30, people: 14, companies: 5 };

export interface MirrorEnv {
  sandbox: Sandbox;
  dataDir: string;
  env: Record<string, string>;
  sync(args?: string[], extraEnv?: Record<string, string>): Promise<InProcessResult>;
  mtg(args: string[], extraEnv?: Record<string, string>): Promise<InProcessResult>;
  dbPath: string;
}

export type MirrorEnvOptions = Omit<SandboxOptions, 'clock'> & { clock?: VirtualClock };

/**
 * A sandbox and a data dir, mtg run against them in-process. With `clock` (a VirtualClock made with
 * realIo), the sandbox's windows and each command's waits run on it, and each command is settled on it.
 */
export async function mirrorEnv(options: MirrorEnvOptions = {}): Promise<MirrorEnv> {
  const sandbox = await startSandbox({ limits: 'none', pageSize: 5, sizes: SMALL, ...options });
  const dataDir = tempDir('mtg-mirror-test-');
  const env = sandboxEnv(sandbox, { MTG_DATA_DIR: dataDir, MTG_CONFIG_DIR: tempConfigDir() });
  const clock = options.clock;
  // In this process (run(argv, io, env)); tests that signal or kill a sync spawn it (spawnCli).
  const mtg = (args: string[], extraEnv: Record<string, string> = {}) => {
    const run = runInProcess(args, { env: { ...env, ...extraEnv }, clock });
    return clock ? clock.settle(run) : run;
  };
  return {
    sandbox,
    dataDir,
    env,
    dbPath: join(dataDir, 'default.db'),
    mtg,
    sync: (args = [], extraEnv = {}) => mtg(['sync', '--json', ...args], extraEnv),
  };
}

/**
 * mirrorEnv() for one test file, called at its top level: every sandbox it starts is stopped after
 * the file's tests.
 */
export function mirrorEnvs(): (options?: MirrorEnvOptions) => Promise<MirrorEnv> {
  const opened: MirrorEnv[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((m) => m.sandbox.close()));
  });
  return async (options = {}) => {
    const m = await mirrorEnv(options);
    opened.push(m);
    return m;
  };
}

/** The client the engine tests sync with: the sandbox's URL and key, short timeouts. */
export function clientFor(
  sb: Sandbox,
  maxWaitMs = 60_000,
  onWait?: ConstructorParameters<typeof ApiClient>[0]['onWait'],
  /** What the client and its limiter wait on (a VirtualClock: test/helpers/virtual-clock.ts). */
  clock?: Clock,
): ApiClient {
  return new ApiClient({
    onWait,
    clock,
    baseUrl: new URL(sb.baseUrl),
    apiKey: sb.apiKey,
    userAgent: 'mtg-test',
    timeoutMs: 10_000,
    maxRetries: 2,
    maxWaitMs,
  });
}

export interface EngineSync {
  summary: SyncSummary;
  events: SyncProgressEvent[];
}

/**
 * The sync engine in-process against one sandbox and one data dir: each call opens the mirror (as a
 * new `mtg sync` would), runs runSync with its progress events collected, and closes it.
 * `before` gets the open mirror first (a test that tampers with it).
 */
export function engineSync(
  sb: Sandbox,
  base: SyncOptions = {},
  clock?: Clock,
): (options?: SyncOptions, before?: (mirror: Mirror) => void) => Promise<EngineSync> {
  const client = clientFor(sb, undefined, undefined, clock);
  const dataDir = tempDir('mtg-engine-');
  return async (options = {}, before) => {
    const mirror = openMirror({ profile: 'default', dataDir, baseUrl: sb.baseUrl });
    const events: SyncProgressEvent[] = [];
    try {
      before?.(mirror);
      const summary = await runSync(client, mirror, { ...base, ...options }, (e) => events.push(e));
      return { summary, events };
    } finally {
      mirror.close();
    }
  };
}

type Row = Record<string, unknown>;

export interface MirrorContent {
  meetings: Record<string, string>;
  actionItems: Record<string, string>;
  mine: string[];
  people: Record<string, string>;
  companies: Record<string, string>;
  transcripts: Record<string, string>;
  tombstones: { meetings: string[]; actionItems: string[]; people: string[]; companies: string[] };
}

/** The mirror's content with plain SQL: live objects as stored JSON text, tombstoned keys. */
export function readMirror(path: string): MirrorContent {
  const db = openDb(path, { readonly: true });
  try {
    const live = (sql: string) =>
      Object.fromEntries((db.prepare(sql).all() as Row[]).map((r) => [String(r.k), String(r.json)]));
    const dead = (table: string, key = 'id') =>
      (
        db.prepare(`SELECT ${key} AS k FROM ${table} WHERE deleted_at IS NOT NULL ORDER BY 1`).all() as Row[]
      ).map((r) => String(r.k));
    return {
      meetings: live('SELECT id AS k, json FROM meetings WHERE deleted_at IS NULL'),
      actionItems: live('SELECT id AS k, json FROM action_items WHERE deleted_at IS NULL'),
      mine: (
        db
          .prepare('SELECT id FROM action_items WHERE mine = 1 AND deleted_at IS NULL ORDER BY 1')
          .all() as Row[]
      ).map((r) => String(r.id)),
      people: live('SELECT id AS k, json FROM people WHERE deleted_at IS NULL'),
      companies: live('SELECT domain AS k, json FROM companies WHERE deleted_at IS NULL'),
      transcripts: live(
        'SELECT t.meeting_id AS k, t.json FROM transcripts t JOIN meetings m ON m.id = t.meeting_id WHERE m.deleted_at IS NULL',
      ),
      tombstones: {
        meetings: dead('meetings'),
        actionItems: dead('action_items'),
        people: dead('people'),
        companies: dead('companies', 'domain'),
      },
    };
  } finally {
    db.close();
  }
}

export function sql<T = Row>(path: string, query: string, ...params: unknown[]): T[] {
  const db = openDb(path, { readonly: true });
  try {
    return db.prepare(query).all(...(params as SqlValue[])) as T[];
  } finally {
    db.close();
  }
}

export function integrityCheck(path: string): string {
  const db = openDb(path, { mustExist: true });
  try {
    return String(db.pragma('integrity_check'));
  } finally {
    db.close();
  }
}

const byKey = (items: unknown[], key: string) =>
  Object.fromEntries(items.map((i) => [String((i as Row)[key]), JSON.stringify(i)]));

/** What the sandbox serves now, collected over HTTP (unlimited sandboxes only: it sends requests). */
export async function serverContent(sb: Sandbox): Promise<Omit<MirrorContent, 'tombstones'>> {
  const meetings = await collect(sb, '/meetings');
  const transcripts: Record<string, string> = {};
  for (const m of meetings as Row[]) {
    const res = await fetch(`${sb.baseUrl}/meeting/${encodeURIComponent(String(m.id))}/transcript`, {
      headers: { Authorization: `Bearer ${sb.apiKey}` },
    });
    transcripts[String(m.id)] = JSON.stringify(await res.json());
  }
  const mine = await collect(sb, '/action-items?status=ALL');
  return {
    meetings: byKey(meetings, 'id'),
    actionItems: byKey(await collect(sb, '/action-items?assigneeType=Anyone&status=ALL'), 'id'),
    mine: mine.map((i) => String((i as Row).id)).sort(),
    people: byKey(await collect(sb, '/people'), 'id'),
    companies: byKey(await collect(sb, '/companies'), 'domain'),
    transcripts,
  };
}

/** Transcript requests the sandbox answered, per meeting id, from request index `from` on. */
export function transcriptRequests(sb: Sandbox, from = 0): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of sb.requests.slice(from)) {
    const m = /^\/meeting\/([^/]+)\/transcript$/.exec(r.path);
    if (m && r.method === 'GET')
      counts.set(decodeURIComponent(m[1]!), (counts.get(decodeURIComponent(m[1]!)) ?? 0) + 1);
  }
  return counts;
}

export interface ChangeEvent {
  seq: number;
  run: number;
  at: string;
  resource: string;
  id: string | number;
  change: string;
  fields: string[];
  item: unknown;
}

export function parseChanges(stdout: string): ChangeEvent[] {
  return JSON.parse(stdout) as ChangeEvent[];
}

/** Removes undefined so that the mirror and the server compare key for key. */
export function withoutTombstones(c: MirrorContent): Omit<MirrorContent, 'tombstones'> {
  const { tombstones: _t, ...rest } = c;
  return rest;
}

/** The sandbox's own account of its state (`sandbox.snapshot()`) in the shape of serverContent(). */
export function snapshotContent(sb: Sandbox): Omit<MirrorContent, 'tombstones'> {
  const snap = sb.snapshot();
  return {
    meetings: byKey(snap.meetings, 'id'),
    actionItems: byKey(snap.actionItems, 'id'),
    mine: snap.myActionItems.map((i) => String(i.id)).sort(),
    people: byKey(snap.people, 'id'),
    companies: byKey(snap.companies, 'domain'),
    transcripts: Object.fromEntries(
      Object.entries(snap.transcripts).map(([id, t]) => [id, JSON.stringify(t)]),
    ),
  };
}
