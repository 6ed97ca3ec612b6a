// Hostile text from the server (escape sequences, OSC links, BEL, C1 controls, formula prefixes):
// stripped from everything printed for people, kept byte-exact in json/ndjson, formula-guarded in csv.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HOSTILE,
  HOSTILE_ACTION_ITEM_ID,
  HOSTILE_MEETING_ID,
  HOSTILE_PERSON_ID,
  HOSTILE_TAG_ID,
  type Sandbox,
  startSandbox,
} from '../../src/sandbox/index.js';
import { sandboxEnv } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { tempDir } from '../helpers/temp.js';

let sandbox: Sandbox;
// Colors off, so any ESC in the output came from the server, not from us.
const env = () => sandboxEnv(sandbox, { NO_COLOR: '1' });
// C0 controls other than \t and \n (ESC, BEL, CR...), DEL and C1 (0x80-0x9f), bidi overrides and
// isolates, zero-width characters.
const TERMINAL_CONTROL =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;

async function raw(path: string): Promise<unknown> {
  const res = await fetch(`${sandbox.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${sandbox.apiKey}` },
  });
  expect(res.status).toBe(200);
  return res.json();
}

beforeAll(async () => {
  sandbox = await startSandbox({ limits: 'none', pageSize: 100 });
});
afterAll(async () => {
  await sandbox.close();
});

describe('text for people carries no terminal control characters', () => {
  const commands: [string[], string][] = [
    [['meetings', 'list', '--format', 'table'], 'Board prep'],
    [['meetings', 'search', '--meeting', HOSTILE_MEETING_ID, '--format', 'table'], 'RED ALERT'],
    [['meetings', 'view', HOSTILE_MEETING_ID, '--format', 'table'], 'click me'],
    [['meetings', 'transcript', HOSTILE_MEETING_ID], 'is red'],
    [['meetings', 'transcript', HOSTILE_MEETING_ID, '--format', 'srt'], 'is red'],
    [['meetings', 'transcript', HOSTILE_MEETING_ID, '--format', 'vtt'], 'is red'],
    [['meetings', 'transcript', HOSTILE_MEETING_ID, '--format', 'md'], 'is red'],
    [['action-items', 'list', '--assignee', 'anyone', '--status', 'all', '--format', 'table'], 'HYPERLINK'],
    [['people', 'list', '--tag', String(HOSTILE_TAG_ID), '--format', 'table'], 'Mallory'],
    [['companies', 'list', '--format', 'table'], ''],
    // The notes hold "Pay \u202eevil\u202c in\u200bvoice": the override would show "evil" reversed.
    [['meetings', 'view', HOSTILE_MEETING_ID, '--format', 'table'], 'Pay evil invoice'],
  ];
  it.each(commands)('mtg %j', async (args, visible) => {
    // Wide enough that the visible text is not cut (a pipe's tables are 80 columns unless COLUMNS says).
    const r = await runInProcess(args, { env: { ...env(), COLUMNS: '160' } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(0);
    const bad = TERMINAL_CONTROL.exec(r.stdout);
    expect(bad && JSON.stringify(r.stdout.slice(Math.max(0, bad.index - 20), bad.index + 20))).toBeNull();
    expect(r.stdout).toContain(visible); // the text itself survives, only the controls go
  });

  it('the hostile meeting as a page: OSC link target and window title are gone, not just their ESC', async () => {
    const r = await runInProcess(['meetings', 'view', HOSTILE_MEETING_ID, '--format', 'table'], {
      env: env(),
    });
    expect(r.stdout).not.toContain('https://evil.example/'); // the OSC 8 target (a title also names evil.example)
    expect(r.stdout).not.toContain(']8;;');
    expect(r.stdout).not.toContain('pwned');
    expect(r.stdout).not.toContain('[31m');
  });
});

describe('json and ndjson keep server strings byte-exact', () => {
  it('action-items list --json: the hostile item equals what the API sent', async () => {
    const r = await runInProcess(
      ['action-items', 'list', '--assignee', 'anyone', '--status', 'all', '--json'],
      {
        env: env(),
      },
    );
    expect(r.code).toBe(0);
    const item = (JSON.parse(r.stdout) as { id: number }[]).find((i) => i.id === HOSTILE_ACTION_ITEM_ID);
    const api = (
      (await raw('/action-items?assigneeType=Anyone&status=ALL')) as { id: number; description: string }[]
    ).find((i) => i.id === HOSTILE_ACTION_ITEM_ID)!;
    expect(item).toEqual(api);
    expect(api.description).toContain(HOSTILE.oscLink);
  });

  // C1 controls (an 8-bit CSI in the hostile notes and transcript) are escaped ("\u009b"): the
  // same values for JSON.parse, and nothing a terminal showing the JSON would act on.
  describe('C1 controls are written as escapes, values unchanged', () => {
    const C1 = /[\u0080-\u009f]/;
    let dataDir: string;
    beforeAll(async () => {
      dataDir = tempDir('mtg-hostile-mirror-');
      const r = await runInProcess(['sync'], { env: { ...env(), MTG_DATA_DIR: dataDir } });
      expect(r.stderr === '' || r.code === 0).toBe(true);
    });
    const meeting = async () =>
      ((await raw(`/search?meetingIds=${HOSTILE_MEETING_ID}`)) as { notes: string }[])[0]!;
    it.each([
      [['meetings', 'view', HOSTILE_MEETING_ID, '--json']],
      [['meetings', 'view', HOSTILE_MEETING_ID, '--format', 'ndjson']],
      [['meetings', 'search', '--meeting', HOSTILE_MEETING_ID, '--json']],
      [['api', `/search?meetingIds=${HOSTILE_MEETING_ID}`]],
      [['meetings', 'transcript', HOSTILE_MEETING_ID, '--json']],
      [
        [
          'sql',
          `SELECT json ->> '$.notes' AS notes FROM meetings WHERE id = '${HOSTILE_MEETING_ID}'`,
          '--json',
        ],
      ],
      [['meetings', 'view', HOSTILE_MEETING_ID, '--offline', '--json']],
    ])('mtg %j', async (args) => {
      const r = await runInProcess(args, { env: { ...env(), MTG_DATA_DIR: dataDir } });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const bad = C1.exec(r.stdout);
      expect(bad && JSON.stringify(r.stdout.slice(Math.max(0, bad.index - 20), bad.index + 20))).toBeNull();
      expect(r.stdout).toContain('\\u009b');
      // Nothing lost: the escaped text parses to the server's string.
      const parsed = JSON.stringify(JSON.parse(args.includes('ndjson') ? r.stdout.trim() : r.stdout));
      expect(parsed).toContain(JSON.stringify(HOSTILE.c1Csi).slice(1, -1));
      if (args[0] === 'meetings' && args[1] === 'view' && !args.includes('--offline'))
        expect(JSON.parse(r.stdout)).toEqual(await meeting());
    });
  });

  // The search index holds a text as a terminal shows it (schema 8): find's snippets are what the
  // passage reads once its controls are gone, not the raw value escaped (the other fields, such as
  // meetingName, stay the server's values, escaped as above).
  it('find --json: the hostile meeting found, its snippets free of every control', async () => {
    const dataDir = tempDir('mtg-hostile-find-');
    const synced = await runInProcess(['sync'], { env: { ...env(), MTG_DATA_DIR: dataDir } });
    expect(synced.code, synced.stderr).toBe(0);
    const r = await runInProcess(['find', '"starts with a tab"', '--json'], {
      env: { ...env(), MTG_DATA_DIR: dataDir },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const hits = JSON.parse(r.stdout) as { meetingId: string; snippet: string }[];
    expect(hits.map((h) => h.meetingId)).toContain(HOSTILE_MEETING_ID);
    for (const h of hits) expect(h.snippet).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('meetings view --format ndjson and transcript --json equal the API response', async () => {
    const view = await runInProcess(['meetings', 'view', HOSTILE_MEETING_ID, '--format', 'ndjson'], {
      env: env(),
    });
    const fromApi = ((await raw(`/search?meetingIds=${HOSTILE_MEETING_ID}`)) as unknown[])[0] as {
      name: string;
      notes: string;
    };
    expect(JSON.parse(view.stdout)).toEqual(fromApi);
    expect(fromApi.notes).toContain(HOSTILE.c1Csi);
    expect(fromApi.name).toContain(HOSTILE.oscTitle);

    const tr = await runInProcess(['meetings', 'transcript', HOSTILE_MEETING_ID, '--json'], { env: env() });
    expect(JSON.parse(tr.stdout)).toEqual(await raw(`/meeting/${HOSTILE_MEETING_ID}/transcript`));
  });
});

describe('csv guards spreadsheet formulas', () => {
  const FORMULA_START = /^[=+\-@\t\r]/;

  it("cells starting with = + - @ or tab get a leading '; nothing else changes", async () => {
    const items = await runInProcess(
      ['action-items', 'list', '--assignee', 'anyone', '--status', 'all', '--format', 'csv'],
      {
        env: env(),
      },
    );
    const people = await runInProcess(
      ['people', 'list', '--tag', String(HOSTILE_TAG_ID), '--format', 'csv'],
      {
        env: env(),
      },
    );
    const tags = await runInProcess(
      ['meetings', 'search', '--meeting', HOSTILE_MEETING_ID, '--format', 'csv'],
      {
        env: env(),
      },
    );
    for (const r of [items, people, tags]) {
      expect(r.code).toBe(0);
      const rows = parse(r.stdout, { columns: true }) as Record<string, string>[];
      for (const row of rows) for (const cell of Object.values(row)) expect(cell).not.toMatch(FORMULA_START);
    }
    const itemRows = parse(items.stdout, { columns: true }) as Record<string, string>[];
    const hostile = itemRows.find((r) => r.id === String(HOSTILE_ACTION_ITEM_ID))!;
    expect(hostile.title).toBe(`'${HOSTILE.formulaEq}`);
    expect(hostile.description?.startsWith(`'${HOSTILE.formulaPlus} `)).toBe(true);
    const person = (parse(people.stdout, { columns: true }) as Record<string, string>[]).find(
      (r) => r.id === String(HOSTILE_PERSON_ID),
    )!;
    expect(person.firstName).toBe(`'${HOSTILE.formulaAt}`);
    expect(person.title).toBe(`'${HOSTILE.formulaEq}`);
  });

  it('--raw-cells leaves them as sent', async () => {
    const r = await runInProcess(
      ['action-items', 'list', '--assignee', 'anyone', '--status', 'all', '--format', 'csv', '--raw-cells'],
      { env: env() },
    );
    const row = (parse(r.stdout, { columns: true }) as Record<string, string>[]).find(
      (x) => x.id === String(HOSTILE_ACTION_ITEM_ID),
    )!;
    expect(row.title).toBe(HOSTILE.formulaEq);
  });
});
