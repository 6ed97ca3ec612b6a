import { describe, expect, it } from 'vitest';
import { parseField, planRequest, splitPath, typedValue } from '../../src/commands/api/request.js';

describe('mtg api request planning', () => {
  it('types -F values like gh: numbers, booleans, null; the rest stays text', () => {
    expect([typedValue('12'), typedValue('-1.5'), typedValue('true'), typedValue('null')]).toEqual([
      12,
      -1.5,
      true,
      null,
    ]);
    expect([typedValue('012'), typedValue('1e'), typedValue('abc'), typedValue('9007199254740993')]).toEqual([
      '012',
      '1e',
      'abc',
      '9007199254740993',
    ]);
    expect(parseField('n=5', false).value).toBe('5');
    expect(parseField('a=b=c', true)).toEqual({ key: 'a', raw: 'b=c', value: 'b=c', array: false });
    expect(parseField('ids[]=3', true)).toEqual({ key: 'ids', raw: '3', value: 3, array: true });
  });

  it('splits a path from its query string', () => {
    expect(splitPath('/people?domains=a.com&domains=b.com&limit=2')).toEqual({
      path: '/people',
      query: { domains: ['a.com', 'b.com'], limit: '2' },
    });
    expect(() => splitPath('people')).toThrow(/must start with/);
  });

  it('fields imply POST with a body; GET and --paginate make them query parameters', () => {
    const fields = [parseField('title=x', true), parseField('ids[]=1', true)];
    expect(planRequest({ path: '/a', fields, paginate: false })).toEqual({
      method: 'POST',
      path: '/a',
      query: {},
      body: { title: 'x', ids: [1] },
    });
    expect(planRequest({ path: '/a', method: 'get', fields, paginate: false })).toEqual({
      method: 'GET',
      path: '/a',
      query: { title: 'x', ids: ['1'] },
      body: undefined,
    });
    expect(planRequest({ path: '/a?b=1', fields, paginate: true }).method).toBe('GET');
    expect(
      planRequest({ path: '/a', method: 'PUT', fields, inputBody: { value: { z: 1 } }, paginate: false }),
    ).toEqual({ method: 'PUT', path: '/a', query: { title: 'x', ids: ['1'] }, body: { z: 1 } });
    expect(() => planRequest({ path: '/a', method: 'DELETE', fields: [], paginate: true })).toThrow(
      /--paginate/,
    );
  });
});
