// The export's YAML front matter with hostile server strings: C1 controls (which PyYAML refuses raw:
// "special characters are not allowed") are written as \u escapes in double quotes, and U+2028/2029
// (line breaks to YAML 1.1) are double-quoted; every value reads back as the server sent it.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { meetingView } from '../../src/export/render.js';

const C1 = Array.from({ length: 32 }, (_, i) => String.fromCharCode(0x80 + i));
const HOSTILE = [...C1, '\u2028', '\u2029'];

function frontMatter(name: string, tag: string, attendee: string): string {
  const meeting = {
    id: 'm1',
    name,
    createdAt: '2026-03-04T09:30:00.000Z',
    tags: [{ id: 1, name: tag, description: null }],
    attendees: [{ profileId: 7, name: attendee, companyName: `Acme${C1[29]}`, email: null }],
  };
  return meetingView({ id: 'm1', meeting }, { transcripts: false, privateNotes: false }).frontMatter;
}

describe('export front matter', () => {
  it.each(HOSTILE.map((c) => [`U+${c.charCodeAt(0).toString(16).padStart(4, '0')}`, c]))(
    '%s in a name, a tag and an attendee: no raw C1, read back the same',
    (_name, c) => {
      const forms = [c, `a${c}b`, `${c}: x`, `- ${c}`, `x\n${c}`];
      for (const s of forms) {
        const yaml = frontMatter(s, `tag ${s}`, `Ada ${s}.`);
        expect(yaml).not.toMatch(/[\u0080-\u009f]/);
        const back = parse(yaml) as {
          name: string;
          tags: string[];
          attendees: string[];
          companies: string[];
        };
        expect(back.name).toBe(s);
        expect(back.tags).toEqual([`tag ${s}`]);
        expect(back.attendees).toEqual([`Ada ${s}.`]);
        expect(back.companies).toEqual([`Acme${C1[29]}`]);
      }
    },
  );

  it('an 8-bit OSC 52 in the name is an escape in double quotes', () => {
    expect(frontMatter('Sync \u009d52;c;cm0gLXJm\u0007', 't', 'Ada')).toContain(
      'name: "Sync \\u009d52;c;cm0gLXJm\\a"',
    );
  });

  it('U+2028 in a name is double-quoted (a plain scalar would be cut at it by PyYAML)', () => {
    expect(frontMatter('a\u2028b', 't', 'Ada')).toContain('name: "a\u2028b"');
  });
});
