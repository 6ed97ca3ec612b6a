// parseJsonExact/stringifyExact (src/api/exact.ts): only unsafe integer literals change form.

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ExactInteger, parseJsonExact, stringifyExact } from '../../src/api/exact.js';
import * as S from '../../src/api/schemas.js';

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
