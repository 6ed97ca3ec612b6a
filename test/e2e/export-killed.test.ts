// An export killed midway (SIGKILL: no cleanup at all) and rerun writes the same files as one clean
// run. A real process: it is killed.
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, mtgCommand } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { type MirrorEnv, mirrorEnv } from '../mirror/helpers.js';

interface FileState {
  content: string;
  mtimeMs: number;
}

/** Every file under DIR (relative path -> content and mtime), the manifest included. */
function tree(dir: string): Map<string, FileState> {
  const out = new Map<string, FileState>();
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(dir, r));
      if (st.isDirectory()) walk(r);
      else out.set(r, { content: readFileSync(join(dir, r), 'utf8'), mtimeMs: st.mtimeMs });
    }
  };
  walk('');
  return out;
}

const envs: MirrorEnv[] = [];
afterAll(async () => {
  for (const e of envs) await e.sandbox.close();
});

describe('mtg export markdown', () => {
  it('an export killed midway (SIGKILL) and rerun equals one clean run', async () => {
    const e = await mirrorEnv({
      sizes: { meetings: 600, actionItems: 300, people: 30, companies: 8 },
      pageSize: 200,
    });
    envs.push(e);
    expect((await e.sync(['--no-transcripts'])).code).toBe(0);
    const killedDir = tempDir('mtg-export-killed-');
    const cleanDir = tempDir('mtg-export-clean-');

    const mtg = mtgCommand(['export', 'markdown', killedDir]);
    const child = spawn(mtg.command, mtg.args, {
      env: { ...baseEnv(), ...e.env },
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_c, sig) => resolve(sig)),
    );
    // Kill once some files are written (the journal has lines) and before the export finishes.
    const journal = join(killedDir, '.mtg-export.journal');
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && child.exitCode === null) {
      if (existsSync(journal) && statSync(journal).size > 20 * 60) {
        child.kill('SIGKILL');
        break;
      }
      await new Promise((r) => setTimeout(r, 1));
    }
    expect(await exited).toBe('SIGKILL');
    expect(existsSync(join(killedDir, '.mtg-export.json'))).toBe(false);

    const rerun = await e.mtg(['export', 'markdown', killedDir, '--json']);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect((await e.mtg(['export', 'markdown', cleanDir])).code).toBe(0);

    const strip = (t: Map<string, FileState>) => new Map([...t].map(([k, v]) => [k, v.content]));
    const killed = strip(tree(killedDir));
    expect(killed.size).toBe(601);
    expect(killed).toEqual(strip(tree(cleanDir)));
  });
});
