// A bound on how deep a response body nests. JSON.parse copes with any depth, but what runs on the
// value afterwards recurses (JSON.stringify when it is printed or stored, the exact-integer walk,
// csv flattening): one item with an extra field nested 20,000 deep made every `mtg sync` fail with
// "Maximum call stack size exceeded". The API's objects nest a handful of levels.
//
// What nests past the bound is cut, not the item that holds it: an extra field passes through (the
// contract), so the item is kept with the too-deep part of its value replaced by a marker. Leaving
// the item out made a sync's walk look complete without it, and the sync then marked it deleted.
// The schema still judges the cut body: the spec's fields nest far above the bound, so a cut lands
// in an extra field, or in a field of the spec that is not what the spec says (then the page fails,
// like any breaking difference, and a walk that fails deletes nothing).

import { jsonStringEnd } from '../shared/exact.js';

/** The deepest nesting a body may have (the page's array counts as one level). */
export const MAX_JSON_DEPTH = 256;

/** What stands where a value nested deeper than the bound was cut. */
export const TOO_DEEP_MARK = `[cut: nested deeper than ${MAX_JSON_DEPTH} levels]`;

/** Where a cut was made: the item of the page (a body that is an array), the field holding it. */
export interface DepthCut {
  /** The index in the body's top-level array; undefined when the body is not an array. */
  item?: number;
  /** The field of the item (or of the body, when it is an object) the cut lies in, as sent. */
  field?: string;
}

export interface Bounded {
  /** The body with every value that starts past the bound replaced by TOO_DEEP_MARK. */
  text: string;
  /** One entry per item cut (per body, when the body is not an array), in order. */
  cuts: DepthCut[];
}

/**
 * Scans JSON text once (linear, no parse, no recursion): undefined when nothing nests deeper than
 * `max`; otherwise the text with each object or array that opens past `max` replaced by
 * TOO_DEEP_MARK (as a JSON string), and where the cuts were. Invalid JSON is left for the parser to
 * refuse (a value never closed is cut all the same, so what is left is refused).
 */
export function boundDepth(text: string, max = MAX_JSON_DEPTH): Bounded | undefined {
  const n = text.length;
  const mark = JSON.stringify(TOO_DEEP_MARK);
  let depth = 0;
  let topArray = false;
  // The level whose keys name a field: an item's (2) in a page, the body's own (1) otherwise.
  let fieldLevel = 1;
  let fieldLevelIsObject = false;
  let expectKey = false;
  let key: [number, number] | undefined;
  let item = 0;
  let cutFrom = -1;
  let copied = 0;
  const pieces: string[] = [];
  const cuts: DepthCut[] = [];
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = jsonStringEnd(text, i);
      if (expectKey && depth === fieldLevel && cutFrom < 0) {
        key = [i, end + 1];
        expectKey = false;
      }
      i = end;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth === 1) {
        topArray = c === 0x5b;
        fieldLevel = topArray ? 2 : 1;
      }
      if (depth === fieldLevel) {
        fieldLevelIsObject = c === 0x7b;
        expectKey = fieldLevelIsObject;
        key = undefined;
      }
      if (depth > max && cutFrom < 0) {
        cutFrom = i;
        const at: DepthCut = {
          ...(topArray ? { item } : {}),
          ...(key ? { field: keyText(text, key) } : {}),
        };
        const last = cuts[cuts.length - 1];
        // One entry per item (per body): a second cut in the same item adds nothing to say.
        if (!last || (topArray && last.item !== item)) cuts.push(at);
      }
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
      if (cutFrom >= 0 && depth === max) {
        pieces.push(text.slice(copied, cutFrom), mark);
        copied = i + 1;
        cutFrom = -1;
      }
    } else if (c === 0x2c) {
      if (depth === 1 && topArray) item++;
      else if (depth === fieldLevel && fieldLevelIsObject) expectKey = true;
    }
  }
  if (cuts.length === 0) return undefined;
  // A value never closed: cut all the same (the rest is not JSON; the parser refuses it).
  pieces.push(cutFrom >= 0 ? `${text.slice(copied, cutFrom)}${mark}` : text.slice(copied));
  return { text: pieces.join(''), cuts };
}

/** A key as sent (its escapes read); the raw text when it does not read. */
function keyText(text: string, [start, end]: [number, number]): string {
  const raw = text.slice(start, end);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw;
  }
}
