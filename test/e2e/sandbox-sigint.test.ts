// `mtg sandbox` as a real process: its one JSON line, the API it serves, and a clean stop on SIGINT.
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';

describe('mtg sandbox', () => {
  it('prints its one JSON line, serves the API, and stops on SIGINT', async () => {
    const { child } = spawnCli(['sandbox', '--json', '--port', '0']);
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (out.includes('\n')) resolve(out);
      });
      child.on('error', reject);
      setTimeout(() => reject(new Error(`no line in time: ${out}`)), 10_000);
    });
    const info = JSON.parse(line) as { baseUrl: string; apiKey: string; plan: string };
    expect(Object.keys(info)).toEqual(['baseUrl', 'apiKey', 'plan']);
    expect(info.plan).toBe('Pro');
    const res = await fetch(`${info.baseUrl}/people?limit=1`, {
      headers: { authorization: `Bearer ${info.apiKey}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).not.toBeNull();
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });
});
