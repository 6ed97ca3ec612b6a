// RFC 8288 Link header parsing. Targets may contain commas and semicolons (inside <...>), parameters
// may be quoted or bare, and one rel may name several relation types ("next last").

export interface Link {
  target: string;
  params: Record<string, string>;
}

export function parseLinkHeader(header: string | string[] | undefined): Link[] {
  if (header === undefined) return [];
  const text = Array.isArray(header) ? header.join(', ') : header;
  const links: Link[] = [];
  let i = 0;
  const n = text.length;
  const skipSpace = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
  };
  while (i < n) {
    skipSpace();
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text[i] !== '<') {
      // Malformed member: skip to the next top-level comma.
      i = skipToComma(text, i);
      continue;
    }
    const close = text.indexOf('>', i + 1);
    if (close < 0) break;
    const link: Link = { target: text.slice(i + 1, close).trim(), params: {} };
    i = close + 1;
    for (;;) {
      skipSpace();
      if (text[i] !== ';') break;
      i++;
      skipSpace();
      const nameStart = i;
      while (i < n && /[^=;,\s]/.test(text[i]!)) i++;
      const name = text.slice(nameStart, i).toLowerCase();
      skipSpace();
      let value = '';
      if (text[i] === '=') {
        i++;
        skipSpace();
        if (text[i] === '"') {
          i++;
          while (i < n && text[i] !== '"') {
            if (text[i] === '\\' && i + 1 < n) i++;
            value += text[i];
            i++;
          }
          i++; // closing quote
        } else {
          const valueStart = i;
          while (i < n && text[i] !== ';' && text[i] !== ',') i++;
          value = text.slice(valueStart, i).trim();
        }
      }
      // RFC 8288: occurrences after the first of the same parameter are ignored.
      if (name && !(name in link.params)) link.params[name] = value;
    }
    links.push(link);
    i = skipToComma(text, i);
  }
  return links;
}

function skipToComma(text: string, from: number): number {
  let i = from;
  let quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (c === '\\' && quoted) i++;
    else if (c === ',' && !quoted) return i + 1;
    i++;
  }
  return i;
}

/** The target of the first link whose rel includes `rel`, resolved against the request URL. */
export function findLink(
  header: string | string[] | undefined,
  rel: string,
  base: string | URL,
): URL | undefined {
  const wanted = rel.toLowerCase();
  for (const link of parseLinkHeader(header)) {
    const rels = (link.params.rel ?? '').toLowerCase().split(/\s+/);
    if (rels.includes(wanted)) return new URL(link.target, base);
  }
  return undefined;
}
