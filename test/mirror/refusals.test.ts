// What the mirror commands refuse, before any request and without touching a file: options that
// would do nothing (sync, mirror status, sql --schema), an MTG_DATA_DIR that is a file, and --offline
// reads of a list no sync has finished (exit 2 naming the list, never an empty or partial answer).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mirrorEnvs } from './helpers.js';

/** mirrorEnv(), each stopped after this file's tests. */
const env = mirrorEnvs();

describe('options that would do nothing are refused', () => {
  it('sync: an empty --only value, -o without --json, --fields and --limit: exit 2 before any request; -o with --json writes the summary', async () => {
    const m = await env({ seed: 25 });
    for (const args of [
      ['sync', '--only', ''],
      ['sync', '--only', 'meetings,,people'],
      ['sync', '-o', join(m.dataDir, 'summary.json')],
      ['sync', '--fields', 'id'],
      ['sync', '--limit', '3'],
    ]) {
      const r = await m.mtg(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    expect(m.sandbox.requests).toHaveLength(0);
    expect(existsSync(join(m.dataDir, 'summary.json'))).toBe(false);
    const file = join(m.dataDir, 'summary.json');
    const r = await m.mtg(['sync', '--json', '-o', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(JSON.parse(readFileSync(file, 'utf8')).complete).toBe(true);
  });

  it('mirror status and sql --schema: --fields, --limit and formats they cannot print are refused', async () => {
    const m = await env({ seed: 26 });
    expect((await m.sync()).code).toBe(0);
    for (const args of [
      ['mirror', 'status', '--fields', 'path'],
      ['mirror', 'status', '--limit', '1'],
      ['mirror', 'status', '--format', 'csv'],
      ['sql', '--schema', '--limit', '1'],
      ['sql', '--schema', '--json'],
    ]) {
      const r = await m.mtg(args);
      expect(r.code, args.join(' ')).toBe(2);
    }
  });
});

describe('MTG_DATA_DIR pointing at a file', () => {
  it('every mirror command says so (exit 2) and leaves the file alone', async () => {
    const m = await env({ seed: 27 });
    const file = join(m.dataDir, 'afile');
    writeFileSync(file, 'not a folder\n');
    for (const args of [
      ['sync'],
      ['changes'],
      ['mirror', 'status'],
      ['mirror', 'reset'],
      ['find', 'roadmap'],
      ['sql', 'SELECT 1'],
      ['meetings', 'list', '--offline'],
    ]) {
      const r = await m.mtg(args, { MTG_DATA_DIR: file });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain(`MTG_DATA_DIR ${file} is a file, not a folder`);
    }
    expect(readFileSync(file, 'utf8')).toBe('not a folder\n');
    expect(m.sandbox.requests).toHaveLength(0);
  });
});

describe('--offline reads of a list no sync has finished', () => {
  it('are exit 2 naming the list, not an empty or partial answer; a finished sync answers', async () => {
    const m = await env({ seed: 30, pageSize: 5 });
    // Meetings only: action items, people and companies were never walked.
    expect((await m.sync(['--only', 'meetings', '--no-transcripts'])).code).toBe(0);
    const items = await m.mtg(['action-items', 'list', '--offline', '--json']);
    expect(items.code).toBe(2);
    expect(items.stdout).toBe('');
    expect(items.stderr).toMatch(/no complete copy of action items yet.*mtg sync/);
    const people = await m.mtg(['people', 'list', '--offline', '--json']);
    expect(people.code).toBe(2);
    expect(people.stderr).toMatch(/no complete copy of people/);
    expect((await m.mtg(['meetings', 'list', '--offline', '--json'])).code).toBe(0);

    // A first meetings walk stopped by --budget: a partial list is refused, and so is "not found".
    const p = await env({ seed: 31, pageSize: 5 });
    const partial = await p.sync(['--only', 'meetings', '--no-transcripts', '--budget', '1']);
    expect(partial.code, partial.stderr).toBe(0);
    expect(JSON.parse(partial.stdout).complete).toBe(false);
    const list = await p.mtg(['meetings', 'list', '--offline', '--json']);
    expect(list.code).toBe(2);
    expect(list.stderr).toMatch(/no complete copy of meetings yet/);
    const view = await p.mtg(['meetings', 'view', 'mtg_nope', '--offline', '--json']);
    expect(view.code).toBe(2);
    expect((await p.sync(['--only', 'meetings', '--no-transcripts'])).code).toBe(0);
    expect((await p.mtg(['meetings', 'list', '--offline', '--json'])).code).toBe(0);
    expect((await p.mtg(['meetings', 'view', 'mtg_nope', '--offline', '--json'])).code).toBe(4);
  });
});
