// The credential store's helper process (src/config/keychain.ts) gets no MTG_* variable: the key in
// MTG_API_KEY stays in mtg. Read from /proc/<pid>/environ of the helper, a child of a real mtg
// process; the "bus" is a unix socket that accepts and never answers, which keeps the helper alive.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { baseEnv, mtgCommand, tempConfigDir } from '../helpers/cli.js';
import { type SilentBus, startSilentBus } from '../helpers/silent-bus.js';
import { tempDir } from '../helpers/temp.js';

const KEY = 'mtg_sk_test_St0reSt0reSt0re0123';
let sandbox: Sandbox;
let work: string;
let bus: SilentBus;
let busAddress: string;

beforeAll(async () => {
  sandbox = await startSandbox({ limits: 'none', apiKeys: [KEY] });
  work = tempDir('mtg-test-store-');
  bus = await startSilentBus(work);
  busAddress = bus.address;
});
afterAll(async () => {
  await bus.close();
  await sandbox.close();
});

/** The pid of a child process of `pid` (from /proc), or undefined. */
function childOf(pid: number): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the parent's pid (after the command name in parentheses).
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) return Number(entry);
    } catch {
      // The process ended while the folder was read.
    }
  }
  return undefined;
}

const readEnviron = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);

/** A config folder whose file holds this profile's key (as `auth login` wrote it before the store). */
function fileWithKey(): string {
  const dir = tempConfigDir();
  const profiles = { default: { 'api-key': KEY, 'base-url': sandbox.baseUrl } };
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 });
  return dir;
}

describe('a session bus that accepts connections and never answers', () => {
  it('the helper process gets no MTG_* variable (the key in MTG_API_KEY stays in mtg)', async () => {
    // auth logout asks the store even when MTG_API_KEY is set; the silent bus keeps its helper alive
    // long enough to read its environment.
    const mtg = mtgCommand(['auth', 'logout']);
    const cli = spawn(mtg.command, mtg.args, {
      env: {
        ...baseEnv(),
        MTG_CONFIG_DIR: fileWithKey(),
        MTG_API_KEY: KEY,
        MTG_PROFILE: 'default',
        DBUS_SESSION_BUS_ADDRESS: busAddress,
      } as NodeJS.ProcessEnv,
      stdio: 'ignore',
    });
    const closed = new Promise((resolve) => cli.on('close', resolve));
    try {
      let environ: string[] | undefined;
      for (let i = 0; i < 200 && !environ; i++) {
        await new Promise((r) => setTimeout(r, 20));
        const child = childOf(cli.pid!);
        if (child !== undefined && bus.connections() > 0) environ = readEnviron(child);
      }
      expect(environ, 'the helper process was not found').toBeDefined();
      expect(environ!.filter((v) => v.startsWith('MTG_'))).toEqual([]);
      expect(environ!.join('\n')).not.toContain(KEY);
      expect(environ).toContain(`DBUS_SESSION_BUS_ADDRESS=${busAddress}`);
    } finally {
      cli.kill('SIGKILL');
      await closed;
    }
  });
});
