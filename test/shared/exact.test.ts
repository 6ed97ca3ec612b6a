// parseJsonExact/stringifyExact (src/shared/exact.ts): only unsafe integer literals change form.

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as S from '../../src/api/schemas.js';
import { ExactInteger, parseJsonExact, stringifyExact } from '../../src/shared/exact.js';

describe('exact integers', () => {
  it('keeps unsafe integer literals, leaves strings, floats and safe integers alone', () => {
    const text =
      '{"s":"12345678901234567890","q":"a\\"99999999999999999\\\\","n":12345678901234567890,' +
      '"neg":-90071992547409931,"max":9007199254740991,"over":9007199254740992,"f":1.2345678901234567890,' +
      '"e":12345678901234567e2,"arr":[18014398509481985,1]}';
    const v = parseJsonExact(text) as Record<string, unknown>;
    expect(v.s).toBe('12345678901234567890');
    expect(v.q).toBe('a"99999999999999999\\');
    expect(v.n).toBeInstanceOf(ExactInteger);
    expect(String(v.neg)).toBe('-90071992547409931');
    expect(v.max).toBe(9007199254740991);
    expect(v.over).toBeInstanceOf(ExactInteger);
    expect(typeof v.f).toBe('number');
    expect(typeof v.e).toBe('number');
    expect(stringifyExact(v)).toBe(
      text
        .replace('1.2345678901234567890', String(1.2345678901234567))
        .replace('12345678901234567e2', String(Number('12345678901234567e2'))),
    );
  });

  it('a body without a run of 16 digits is plain JSON.parse', () => {
    const text = '[{"id":1,"t":"2025-06-01T11:11:00.000Z","x":123456789012345}]';
    expect(parseJsonExact(text)).toEqual(JSON.parse(text));
  });

  it('number fields accept them, signs checked; every page schema still compiles (no runtime fallback)', () => {
    const item = {
      id: new ExactInteger('90071992547409931'),
      title: 't',
      description: '',
      assignee: null,
      status: 'X',
      meetingIds: [],
    };
    expect(S.ActionItem.safeParse(item).success).toBe(true);
    expect(S.ActionItem.safeParse({ ...item, id: new ExactInteger('-90071992547409931') }).success).toBe(
      false,
    );
    for (const schema of [S.ActionItem, S.Meeting, S.Person, S.CompanySummary, S.Tag]) {
      expect(() => z.compile(z.array(schema), { strict: true })).not.toThrow();
    }
  });
});

describe('exact integers under odd keys', () => {
  it('a "__proto__" key holding one stays an own property', () => {
    const text = '{"__proto__":90071992547409931,"a":[{"__proto__":{"b":90071992547409931}}]}';
    const v = parseJsonExact(text);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(stringifyExact(v)).toBe(text);
  });
});

describe('C1 controls in JSON text', () => {
  it('are written as \\u escapes; the value parses back the same, exact integers kept', () => {
    const c1 = Array.from({ length: 32 }, (_, i) => String.fromCharCode(0x80 + i)).join('');
    const text = `{"osc52":"\u009d52;c;cm0gLXJmIH4=\\u0007","all":${JSON.stringify(c1)},"k\u0085":1,"id":90071992547409931}`;
    const value = parseJsonExact(text);
    const out = stringifyExact(value)!;
    expect(out).not.toMatch(/[\u0080-\u009f]/);
    expect(out).toContain('"osc52":"\\u009d52;c;');
    expect(out).toContain('"k\\u0085":1');
    expect(out).toContain('"id":90071992547409931');
    expect(JSON.parse(out)).toEqual(JSON.parse(text));
    expect(stringifyExact({ all: c1 }, 2)).toBe(
      `{\n  "all": "${[...c1].map((c) => `\\u00${c.charCodeAt(0).toString(16)}`).join('')}"\n}`,
    );
  });
});
