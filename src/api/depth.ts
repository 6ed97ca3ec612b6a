// A bound on how deep a response body nests. JSON.parse copes with any depth, but what runs on the
// value afterwards recurses (JSON.stringify when it is printed or stored, the exact-integer walk,
// csv flattening): one item with an extra field nested 20,000 deep made every `mtg sync` fail with
// "Maximum call stack size exceeded". The API's objects nest a handful of levels.

import { jsonStringEnd } from '../shared/exact.js';

/** The deepest nesting a body may have (the page's array counts as one level). */
export const MAX_JSON_DEPTH = 256;

export interface Bounded {
  /** The body without the elements that nest too deep. */
  text: string;
  /** Their indices in the body's top-level array. */
  dropped: number[];
}

/**
 * Scans JSON text once (linear, no parse): undefined when nothing nests deeper than `max`; the
 * text of the top-level array without the elements that do; 'too-deep' when the body is not an
 * array and nests too deep. Invalid JSON is left for the parser to refuse.
 */
export function boundDepth(text: string, max = MAX_JSON_DEPTH): Bounded | 'too-deep' | undefined {
  const n = text.length;
  let depth = 0;
  let topArray = false;
  let elementStart = 0;
  let index = 0;
  const spans: [number, number][] = [];
  const deep = new Set<number>();
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = jsonStringEnd(text, i);
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth === 1) {
        topArray = c === 0x5b;
        elementStart = i + 1;
      } else if (depth > max) {
        if (!topArray) return 'too-deep';
        deep.add(index);
      }
    } else if (c === 0x5d || c === 0x7d) {
      if (depth === 1 && topArray) spans.push([elementStart, i]);
      depth--;
    } else if (c === 0x2c && depth === 1 && topArray) {
      spans.push([elementStart, i]);
      elementStart = i + 1;
      index++;
    }
  }
  if (deep.size === 0) return undefined;
  const kept = spans.filter((_, k) => !deep.has(k)).map(([a, b]) => text.slice(a, b));
  return { text: `[${kept.join(',')}]`, dropped: [...deep] };
}
