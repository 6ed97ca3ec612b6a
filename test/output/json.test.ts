import { describe, expect, it } from 'vitest';
import { createItemWriter, viewFor, writeOne } from '../../src/output/index.js';
import { collector } from './helpers.js';

const view = viewFor('actionItem');
const items = [
  {
    id: 1,
    title: 'Ship "v2", then rest',
    status: 'DONE',
    assignee: { profileId: 3, name: 'Zoë' },
    meetingIds: ['m1'],
  },
  {
    z: 1,
    a: 2,
    id: 2,
    title: 'line\nbreak \u001b[31m kept exact',
    status: 'PENDING',
    assignee: null,
    meetingIds: [],
  },
  { id: 3, title: '会议 🎉', status: 'PENDING', extra: { nested: [1, { x: null }] } },
];

async function run(format: 'json' | 'ndjson', input: unknown[], fields?: string[], many = false) {
  const c = collector();
  const w = createItemWriter(c.stream, view, { format, color: false, fields });
  if (many) await w.writeMany(input);
  else for (const it of input) await w.write(it);
  await w.end();
  expect(w.count).toBe(input.length);
  return c.text();
}

describe('json', () => {
  it.each([0, 1, 3])('%i items parse back to the input', async (n) => {
    const input = items.slice(0, n);
    const text = await run('json', input);
    expect(JSON.parse(text)).toEqual(input);
  });

  it('is "[]" for no items, and keeps key order and strings byte-exact', async () => {
    expect(await run('json', [])).toBe('[]\n');
    const text = await run('json', items);
    expect(text).toBe('[\n' + items.map((i) => JSON.stringify(i)).join(',\n') + '\n]\n');
  });

  it('writeMany writes the same document', async () => {
    expect(await run('json', items, undefined, true)).toBe(await run('json', items));
  });

  it('--fields: flat keys in the requested order, missing -> null', async () => {
    const text = await run('json', items, ['assignee.name', 'id']);
    expect(text.split('\n')[1]).toBe('{"assignee.name":"Zoë","id":1},');
    expect(JSON.parse(text)).toEqual([
      { 'assignee.name': 'Zoë', id: 1 },
      { 'assignee.name': null, id: 2 },
      { 'assignee.name': null, id: 3 },
    ]);
  });

  it('abort closes the array', async () => {
    const c = collector();
    const w = createItemWriter(c.stream, view, { format: 'json', color: false });
    await w.write(items[0]);
    await w.abort();
    expect(JSON.parse(c.text())).toEqual([items[0]]);
    await expect(w.write(items[1])).rejects.toThrow();
  });

  it('abort before the first item writes nothing in any format (a failed command prints no data)', async () => {
    for (const format of ['json', 'ndjson', 'csv', 'tsv', 'table'] as const) {
      const c = collector();
      const w = createItemWriter(c.stream, view, { format, color: false, bom: true });
      await w.abort();
      expect(c.text()).toBe('');
    }
  });

  it('abort(interrupted) before the first item writes what an empty list does, in every format (exit 130 is well-formed)', async () => {
    for (const format of ['json', 'ndjson', 'csv', 'tsv', 'table'] as const) {
      const empty = collector();
      await createItemWriter(empty.stream, view, { format, color: false, bom: true }).end();
      const c = collector();
      const w = createItemWriter(c.stream, view, { format, color: false, bom: true });
      await w.abort(true);
      expect(c.text(), format).toBe(empty.text());
    }
    const c = collector();
    await createItemWriter(c.stream, view, { format: 'json', color: false }).abort(true);
    expect(c.text()).toBe('[]\n');
  });

  it('continueAfter resumes inside an existing array', async () => {
    const first = collector();
    const w1 = createItemWriter(first.stream, view, { format: 'json', color: false });
    await w1.write(items[0]);
    const prefix = first.text(); // what a checkpoint would have kept
    const second = collector();
    const w2 = createItemWriter(second.stream, view, { format: 'json', color: false, continueAfter: 1 });
    await w2.write(items[1]);
    await w2.end();
    expect(JSON.parse(prefix + second.text())).toEqual(items.slice(0, 2));
  });

  it('writeOne prints one object', async () => {
    const c = collector();
    await writeOne(c.stream, items[0], view, { format: 'json', color: false });
    expect(JSON.parse(c.text())).toEqual(items[0]);
  });
});

describe('ndjson', () => {
  it('one object per line', async () => {
    const text = await run('ndjson', items);
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l))).toEqual(items);
    expect(await run('ndjson', [])).toBe('');
  });
  it('--fields and writeOne', async () => {
    const text = await run('ndjson', items.slice(0, 1), ['id', 'status']);
    expect(text).toBe('{"id":1,"status":"DONE"}\n');
    const c = collector();
    await writeOne(c.stream, items[1], view, { format: 'ndjson', color: false });
    expect(c.text()).toBe(JSON.stringify(items[1]) + '\n');
  });
});
