// `npm run demo` end to end: the tour runs every section against its own sandbox, exits 0, and
// leaves nothing running (the sandbox it started no longer answers).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv } from '../helpers/cli.js';

const DEMO = join(import.meta.dirname, '..', '..', 'scripts', 'demo.mjs');

const SECTIONS = [
  ['Search meetings', 'mtg meetings search roadmap --limit 3'],
  ['View one meeting', 'mtg meetings view mtg_'],
  ['List action items (a table)', 'mtg action-items list --assignee anyone'],
  ['Create an action item', 'mtg action-items create "Send the demo recap"'],
  ['Mark it done', '--status DONE'],
  ['Create a tag', 'mtg tags create demo-'],
  ['Tag the meeting', 'mtg tags apply '],
  ['Share the meeting', 'mtg meetings share mtg_'],
  ['Private notes on a calendar event', 'mtg calendar set-notes '],
  ['Read the transcript', 'mtg meetings transcript mtg_'],
  ['Export to CSV', '--format csv -o export.csv'],
  ['Mirror everything locally', 'mtg sync'],
  ['Search the mirror (transcripts too)', 'mtg find "was the budget approved?"'],
  ['Read offline (no request sent)', 'mtg meetings list --offline'],
  ['What the last sync changed', 'mtg changes'],
  ['Export the meetings as Markdown', 'mtg export markdown vault'],
] as const;

function runDemo(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // A process group of its own: past the bound, the demo and the sandbox it started are stopped
    // together (a SIGKILLed demo cannot stop its sandbox, which ran on after a loaded CI run).
    const child = spawn(process.execPath, [DEMO], {
      env: baseEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    // A bound, not a target: the demo's own commands take a few seconds on a quiet machine, minutes
    // on a loaded 2-core one.
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, 150_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('npm run demo', () => {
  it('tours every section, exits 0 and stops its sandbox', { timeout: 180_000 }, async () => {
    const { code, stdout, stderr } = await runDemo();
    expect(stderr).toBe('');
    expect(code).toBe(0);
    for (const [title, command] of SECTIONS) {
      expect(stdout).toContain(`== ${title}\n$ `);
      expect(stdout).toContain(command);
    }
    expect(stdout).not.toContain('skipped');
    expect(stdout).not.toMatch(/\(exit \d+\)/);
    // Real data flowed: the item was marked done, and the export's header row was shown.
    expect(stdout).toMatch(/\d+\s+DONE\s+Send the demo recap/);
    expect(stdout).toContain('id,title,description,');
    // The mirror: a complete sync, a transcript hit, offline rows, and a Markdown file with front matter.
    expect(stdout).toMatch(/Synced: \d+ meetings/);
    expect(stdout).toMatch(/transcript · .+ · \d\d:\d\d/);
    expect(stdout).toMatch(/\bcreated\tmeetings\tmtg_/);
    expect(stdout).toMatch(/Exported to .*: \d+ written, 0 unchanged/);
    expect(stdout).toMatch(/\$ head -14 "vault\/\d{4}\/.+\.md"\n {2}---\n {2}id: mtg_/);
    expect(stdout).toContain('== Done');
    // How to go on from a clone: after `npm ci` no `mtg` is on PATH, so the commands offered run
    // the clone's own bin. Each works from the project's folder (here with --version).
    const next = stdout.slice(stdout.indexOf('== Done'));
    expect(next).not.toMatch(/^Try it yourself: mtg /m);
    const offered = [...next.matchAll(/^ {2}(node bin\/mtg\.js|npx mtg) sandbox\b/gm)].map((m) => m[1]!);
    expect(offered).toContain('node bin/mtg.js');
    const version = await new Promise<number | null>((resolve) => {
      const [cmd, ...args] = 'node bin/mtg.js --version'.split(' ');
      spawn(cmd === 'node' ? process.execPath : cmd!, args, { cwd: join(import.meta.dirname, '..', '..') })
        .on('close', resolve)
        .on('error', () => resolve(null));
    });
    expect(version).toBe(0);
    // Piped: no escape codes from the demo, and the export's hostile cells shown as symbols.
    expect(stdout).not.toContain('\u001b');

    const baseUrl = /serving the API at (\S+);/.exec(stdout)?.[1];
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await expect(fetch(`${baseUrl}/meetings`)).rejects.toThrow();
  });
});
