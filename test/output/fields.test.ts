import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldsOfSchema, getPath, OutputUsageError, parseFields, project } from '../../src/output/fields.js';
import { viewFor } from '../../src/output/views.js';

describe('fieldsOfSchema', () => {
  it('walks nested, nullable, optional and extended objects; arrays and records are leaves', () => {
    const Base = z.looseObject({ id: z.number(), who: z.object({ name: z.string().nullable() }).nullable() });
    const S = Base.extend({
      tags: z.array(z.object({ name: z.string() })),
      meta: z.record(z.string(), z.number()).optional(),
      deep: z
        .object({ a: z.object({ b: z.boolean() }).optional() })
        .nullable()
        .optional(),
    });
    expect(fieldsOfSchema(S)).toEqual(['id', 'who.name', 'tags', 'meta', 'deep.a.b']);
  });

  it('builds the action item view from the API schema', () => {
    const v = viewFor('actionItem');
    expect(v.fields).toEqual([
      'id',
      'title',
      'description',
      'assignee.profileId',
      'assignee.name',
      'assignee.title',
      'assignee.companyName',
      'assignee.email',
      'status',
      'meetingIds',
    ]);
    for (const c of v.tableColumns) expect(v.fields).toContain(c);
  });

  it('every view has table columns that are valid fields', () => {
    for (const r of [
      'meeting',
      'tag',
      'person',
      'company',
      'companyDetail',
      'transcript',
      'sharedWith',
    ] as const) {
      const v = viewFor(r);
      expect(v.fields.length).toBeGreaterThan(0);
      for (const c of v.tableColumns) expect(v.fields).toContain(c);
    }
    expect(viewFor('meeting').fields).toContain('calendarEvent.icalUid');
  });
});

describe('parseFields', () => {
  const view = viewFor('actionItem');
  it('keeps order, trims, drops duplicates', () => {
    expect(parseFields(' title, id ,assignee.name,id', view)).toEqual(['title', 'id', 'assignee.name']);
  });
  it('accepts an object path that prefixes leaves', () => {
    expect(parseFields('assignee', view)).toEqual(['assignee']);
  });
  it('rejects unknown fields and lists the valid ones', () => {
    let err: unknown;
    try {
      parseFields('id,nope,assignee.nam', view);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(OutputUsageError);
    const msg = (err as Error).message;
    expect(msg).toContain('nope, assignee.nam');
    expect(msg).toContain('action item');
    expect(msg).toContain('valid fields: id, title, description, assignee.profileId');
  });
  it('rejects an empty list', () => {
    expect(() => parseFields(' , ', view)).toThrow(OutputUsageError);
  });
  it('the raw view accepts anything', () => {
    expect(parseFields('a.b,c', viewFor('raw'))).toEqual(['a.b', 'c']);
  });
});

describe('getPath / project', () => {
  const item = { id: 1, assignee: { name: 'Ann' }, nothing: null };
  it('resolves dotted paths and stops at non-objects', () => {
    expect(getPath(item, 'assignee.name')).toBe('Ann');
    expect(getPath(item, 'nothing.name')).toBeUndefined();
    expect(getPath(item, 'id.x')).toBeUndefined();
  });
  it('projects to flat keys in order, missing -> null', () => {
    expect(JSON.stringify(project(item, ['assignee.name', 'id', 'missing']))).toBe(
      '{"assignee.name":"Ann","id":1,"missing":null}',
    );
  });
});
