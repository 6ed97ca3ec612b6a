// Property tests that complete the existing ones (test/unit/link.test.ts, test/unit/pacing.test.ts,
// test/output/*): csv with --fields over nested values, tsv that can be read back exactly,
// resumed writers that produce the same bytes as one uninterrupted writer (what --checkpoint relies
// on), and the one-line sanitizer.
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createItemWriter, sanitizeForTerminal, sanitizeOneLine, viewFor } from '../../src/output/index.js';
import { collector } from '../output/helpers.js';

const view = viewFor('actionItem');

const text = fc.oneof(
  fc.string({
    unit: fc.constantFrom(
      'a',
      'Z',
      ' ',
      ',',
      '"',
      '\n',
      '\r',
      '\t',
      '\\',
      '=',
      '-',
      '+',
      '@',
      'é',
      '🎉',
      "'",
    ),
  }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
);
const nullableText = fc.option(text, { nil: null });
// Meeting IDs never contain the ";" that joins arrays, so a joined cell can be split back.
const meetingId = fc.stringMatching(/^mtg_[a-z0-9]{1,8}$/);
const assignee = fc.option(
  fc.record({
    profileId: fc.integer({ min: 1, max: 1_000_000 }),
    name: nullableText,
    title: nullableText,
    companyName: nullableText,
    email: nullableText,
  }),
  { nil: null },
);
const actionItem = fc.record({
  id: fc.integer({ min: 1, max: 2 ** 31 }),
  title: text,
  description: text,
  assignee,
  status: fc.constantFrom('PENDING', 'DONE'),
  meetingIds: fc.array(meetingId, { maxLength: 3 }),
});
type Item = typeof actionItem extends fc.Arbitrary<infer T> ? T : never;
// A non-empty selection of the view's fields in any order (what --fields gives).
const fieldChoice = fc.shuffledSubarray([...view.fields], { minLength: 1 });

function valueAt(item: Item, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (v, k) => (v === null || v === undefined ? undefined : (v as Record<string, unknown>)[k]),
      item,
    );
}
/** The cell the contract promises: "" for null, numbers as text, arrays joined with ";", formula guard. */
function expectedCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const s = Array.isArray(value) ? value.join(';') : String(value);
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

async function render(
  format: 'csv' | 'tsv' | 'json' | 'ndjson',
  items: unknown[],
  fields?: string[],
  continueAfter = 0,
  end = true,
) {
  const c = collector();
  const w = createItemWriter(c.stream, view, { format, fields, color: false, continueAfter });
  await w.writeMany(items);
  if (end) await w.end();
  return c.text();
}

describe('csv with --fields over nested values', () => {
  it('property: every chosen field of every item comes back from csv-parse as the contract says', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(actionItem, { maxLength: 15 }), fieldChoice, async (items, fields) => {
        const rows = parse(await render('csv', items, fields), { relax_column_count: false }) as string[][];
        expect(rows[0]).toEqual(fields);
        expect(rows.slice(1)).toEqual(items.map((item) => fields.map((f) => expectedCell(valueAt(item, f)))));
      }),
      { numRuns: 200 },
    );
  });
});

describe('tsv', () => {
  const unescapeCell = (cell: string) =>
    cell.replace(/\\(.)/g, (_m, c: string) => ({ t: '\t', n: '\n', r: '\r', '\\': '\\' })[c] ?? `\\${c}`);

  it('property: one line per item, and unescaping each cell gives the exact (guarded) value back', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(actionItem, { maxLength: 15 }), fieldChoice, async (items, fields) => {
        const lines = (await render('tsv', items, fields)).split('\n');
        expect(lines.pop()).toBe('');
        expect(lines).toHaveLength(items.length + 1);
        const cells = lines.slice(1).map((l) => l.split('\t').map(unescapeCell));
        expect(cells).toEqual(items.map((item) => fields.map((f) => expectedCell(valueAt(item, f)))));
      }),
      { numRuns: 200 },
    );
  });
});

describe('a resumed export (--checkpoint) writes the same bytes as one uninterrupted run', () => {
  it.each(['csv', 'tsv', 'json', 'ndjson'] as const)('property: %s, split at any item', async (format) => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(actionItem, { minLength: 1, maxLength: 12 }),
        fc.nat(),
        fc.option(fieldChoice, { nil: undefined }),
        async (items, at, fields) => {
          const k = at % (items.length + 1);
          const whole = await render(format, items, fields);
          // The first run stops after k items without finishing the document (killed: its tail is
          // truncated away on resume); the second continues after k.
          const first = k === 0 ? '' : await render(format, items.slice(0, k), fields, 0, false);
          const rest = await render(format, items.slice(k), fields, k);
          expect(first + rest).toBe(whole);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('sanitizeOneLine', () => {
  const hostile = fc.string({
    unit: fc.oneof(
      fc.constantFrom(
        '\u001b',
        '\u0007',
        '\u009b',
        '\u009d',
        '\u009c',
        '[',
        ']',
        ';',
        '\\',
        '\n',
        '\t',
        '\r',
        '8',
        'm',
      ),
      fc.string({ unit: 'grapheme', maxLength: 1 }),
      fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)),
    ),
  });

  it('property: one line, no control characters, idempotent, and no more than sanitizeForTerminal keeps', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const once = sanitizeOneLine(s);
        expect(once).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
        expect(sanitizeOneLine(once)).toBe(once);
        expect(once.length).toBeLessThanOrEqual(sanitizeForTerminal(s).length);
      }),
      { numRuns: 1000 },
    );
  });

  it('property: sanitizing pieces separately never lets a sequence through when joined', () => {
    // A sequence split across two server strings (name + notes printed side by side) must not
    // reassemble: each piece is sanitized on its own, so the joined text has no ESC/C1 at all.
    fc.assert(
      fc.property(hostile, hostile, (a, b) => {
        const joined = sanitizeForTerminal(a) + sanitizeForTerminal(b);
        expect(joined).not.toMatch(/[\u001b\u0007\u0080-\u009f]/);
      }),
      { numRuns: 1000 },
    );
  });
});
