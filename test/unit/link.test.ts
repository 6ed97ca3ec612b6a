import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findLink, parseLinkHeader } from '../../src/api/link.js';

const base = 'https://api.example.com/v1/action-items?status=ALL';

describe('Link header (RFC 8288)', () => {
  it('finds rel="next" among several links in one header', () => {
    const header = '</v1/action-items?cursor=abc>; rel="prev", </v1/action-items?cursor=def>; rel="next"';
    expect(findLink(header, 'next', base)?.href).toBe('https://api.example.com/v1/action-items?cursor=def');
  });

  it('accepts an unquoted rel, any case, and a rel naming several types', () => {
    expect(findLink('</a?cursor=1>; rel=next', 'next', base)?.pathname).toBe('/a');
    expect(findLink('</a?cursor=1>; REL="Next"', 'next', base)?.search).toBe('?cursor=1');
    expect(findLink('</b>; rel="last next"', 'next', base)?.pathname).toBe('/b');
  });

  it('resolves relative targets against the request URL and keeps absolute ones', () => {
    expect(findLink('<page2?cursor=x>; rel="next"', 'next', base)?.href).toBe(
      'https://api.example.com/v1/page2?cursor=x',
    );
    expect(findLink('<https://other.example/x>; rel="next"', 'next', base)?.origin).toBe(
      'https://other.example',
    );
  });

  it('keeps commas and semicolons inside the target, and never edits the cursor', () => {
    const header = '</items?cursor=a%2Cb,c;d&tagIds=3&tagIds=7>; rel="next"; title="x, y"';
    const next = findLink(header, 'next', base)!;
    expect(next.search).toBe('?cursor=a%2Cb,c;d&tagIds=3&tagIds=7');
  });

  it('reads several header lines and quoted parameters with escapes', () => {
    const links = parseLinkHeader(['</a>; rel="prev"; title="a \\"quoted\\" title"', '</b>; rel="next"']);
    expect(links.map((l) => l.target)).toEqual(['/a', '/b']);
    expect(links[0]!.params.title).toBe('a "quoted" title');
  });

  it('returns nothing for a missing, empty or malformed header', () => {
    expect(findLink(undefined, 'next', base)).toBeUndefined();
    expect(findLink('', 'next', base)).toBeUndefined();
    expect(findLink('garbage; rel=next', 'next', base)).toBeUndefined();
    expect(findLink('</a>; rel="prev"', 'next', base)).toBeUndefined();
  });

  it('finds the next link wherever it stands among arbitrary other links (property)', () => {
    const segment = fc.stringMatching(/^[a-z0-9=&%,;._-]{0,12}$/);
    fc.assert(
      fc.property(
        fc.array(segment, { maxLength: 4 }),
        segment,
        fc.array(segment, { maxLength: 4 }),
        (before, next, after) => {
          const member = (s: string, rel: string) => `</p?c=${s}>; rel="${rel}"`;
          const header = [
            ...before.map((s) => member(s, 'prev')),
            member(next, 'next'),
            ...after.map((s) => member(s, 'last')),
          ].join(', ');
          const found = findLink(header, 'next', base);
          expect(found?.href).toBe(new URL(`/p?c=${next}`, base).href);
        },
      ),
    );
  });

  it('never throws on arbitrary input (property)', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(() => parseLinkHeader(s)).not.toThrow();
      }),
    );
  });
});
