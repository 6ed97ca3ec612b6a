// Issue 20, item 7: `mtg changes` gave an action item's id as the string "1" while its item.id was
// the number 1. An event's id now has the API's type: numbers for action items and people (integers
// beyond 2^53 with every digit), strings for meeting ids, company domains and transcripts (by meeting).
import { afterAll, describe, expect, it } from 'vitest';
import { openMirror } from '../../../src/mirror/open.js';
import { tempConfigDir } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inprocess.js';
import { tempDir } from '../../helpers/temp.js';
import { type MirrorEnv, mirrorEnv, parseChanges } from '../../mirror/helpers.js';

let m: MirrorEnv | undefined;
afterAll(async () => {
  await m?.sandbox.close();
});

describe('mtg changes: the id of an event', () => {
  it('has the type of the item’s own id after a real sync (action items and people: numbers)', async () => {
    m = await mirrorEnv({ seed: 43 });
    expect((await m.sync(['--no-transcripts'])).code).toBe(0);
    const events = parseChanges((await m.mtg(['changes', '--json'])).stdout);
    const seen = new Set<string>();
    for (const e of events) {
      const item = e.item as Record<string, unknown>;
      const own = e.resource === 'companies' ? item.domain : item.id;
      expect(e.id, `${e.resource} ${e.id}`).toStrictEqual(own);
      seen.add(`${e.resource}:${typeof e.id}`);
    }
    expect([...seen].sort()).toEqual([
      'action-items:number',
      'companies:string',
      'meetings:string',
      'people:number',
    ]);
  });

  it('keeps every digit of an id beyond 2^53, also for a deleted item and in ndjson', async () => {
    const dataDir = tempDir('mtg-changes-id-');
    const mirror = openMirror({ profile: 'default', dataDir, baseUrl: 'https://api.example.com' });
    const big = '90071992547409931';
    const item = `{"id":${big},"title":"Ship it","status":"PENDING"}`;
    const person = '{"id":7,"firstName":"Ana"}';
    mirror.db.exec("INSERT INTO runs(id, started_at, complete) VALUES (1, '2026-01-01T00:00:00Z', 1)");
    mirror.db
      .prepare('INSERT INTO action_items(id, json, status) VALUES (?, ?, ?)')
      .run(big, item, 'PENDING');
    const change = mirror.db.prepare(
      "INSERT INTO changes(run, at, resource, id, change, fields, item) VALUES (1, '2026-01-01T00:00:00Z', ?, ?, ?, '[]', ?)",
    );
    change.run('action-items', big, 'created', null);
    change.run('people', '7', 'deleted', person);
    change.run('action-items', '12', 'deleted', null); // no object known: the id's digits decide
    change.run('transcripts', 'mtg_1', 'created', null);
    mirror.close();
    const env = { MTG_DATA_DIR: dataDir, MTG_CONFIG_DIR: tempConfigDir() };
    const json = await runInProcess(['changes', '--json'], { env });
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).toContain(`"id":${big},"change"`);
    expect(json.stdout).toContain(`"item":{"id":${big},`);
    const nd = await runInProcess(['changes', '--format', 'ndjson'], { env });
    const lines = nd.stdout.trim().split('\n');
    expect(lines[0]).toContain(`"id":${big},`);
    expect(lines[1]).toContain('"id":7,');
    expect(lines[2]).toContain('"id":12,');
    expect(lines[3]).toContain('"id":"mtg_1",');
  });
});
