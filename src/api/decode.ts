// What the client does with a body once the request loop is done with it: read it within a size
// bound, bound its depth, parse it (exact integers), validate it against the endpoint's schema, and
// find enum values the spec does not list. No retries, no rate limits here (client.ts, decide.ts).

import type { z } from 'zod';
import { parseJsonExact } from '../shared/exact.js';
import { boundDepth, MAX_JSON_DEPTH } from './depth.js';
import {
  clientWarning,
  MAX_RESPONSE_BYTES,
  notJsonError,
  ResponseTooLargeError,
  schemaError,
} from './errors.js';
import type { UnlistedCheck } from './schemas.js';

/** A response body as the transport reads it (undici's BodyReadable is one). */
export interface BodyStream extends AsyncIterable<Buffer> {
  destroy(err?: Error): unknown;
}

/**
 * The body as text, its bytes counted as they arrive: past MAX_RESPONSE_BYTES (or a Content-Length
 * above it) the connection is dropped before more is read. When `signal` aborts, the body is
 * destroyed (the deadline covers its last byte). Decoded as undici's text() does (UTF-8, a leading
 * BOM skipped).
 */
export async function boundedText(
  body: BodyStream,
  declaredLength: string | undefined,
  signal: AbortSignal,
  what: string,
): Promise<string> {
  const declared = Number(declaredLength ?? Number.NaN);
  if (declared > MAX_RESPONSE_BYTES) {
    body.destroy();
    throw new ResponseTooLargeError(what, declared);
  }
  const stop = () => body.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
  if (signal.aborted) stop();
  signal.addEventListener('abort', stop, { once: true });
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > MAX_RESPONSE_BYTES) {
        body.destroy();
        throw new ResponseTooLargeError(what, undefined);
      }
      chunks.push(chunk);
    }
    return utf8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
  } finally {
    signal.removeEventListener('abort', stop);
  }
}
const utf8 = new TextDecoder();

export interface DecodeOptions {
  schema?: z.ZodType;
  /** Looks for an enum value the spec does not list; omitted once the client has warned. */
  unlisted?: UnlistedCheck;
  warn?: (line: string) => void;
}

/**
 * A 2xx body's data: bounded in depth, parsed, validated. Returns the unlisted value found, if any,
 * so that the client warns once for all its requests.
 */
export function decodeBody(
  text: string,
  what: string,
  options: DecodeOptions,
): { data: unknown; unlisted?: string } {
  const data = parseJson(withinDepth(text, what, options.warn), what);
  if (options.schema) validate(options.schema, data, what);
  return { data, unlisted: options.unlisted?.(data) };
}

/**
 * The body, bounded in depth before it is parsed (src/api/depth.ts): what nests past the bound is
 * cut, the items holding it kept, with one warning naming the first item and field cut; the schema
 * then judges the body as cut.
 */
function withinDepth(text: string, what: string, warn: ((line: string) => void) | undefined): string {
  const bounded = boundDepth(text);
  if (bounded === undefined) return text;
  warn?.(clientWarning.tooDeep(what, bounded.cuts, MAX_JSON_DEPTH));
  return bounded.text;
}

function parseJson(text: string, what: string): unknown {
  if (text === '') return undefined;
  try {
    return parseJsonExact(text);
  } catch {
    throw notJsonError(what);
  }
}

function validate(schema: z.ZodType, data: unknown, what: string): void {
  // validate() answers yes/no without building the parsed copy that safeParse returns (we return
  // the body as sent, so that copy was garbage: ~300,000 objects for a 100,000-item export); a
  // schema made with z.compile() (paginate.ts) answers from generated code. Only a rejected body
  // is parsed again, for the issues.
  if (schema.validate(data)) return;
  const result = schema.safeParse(data);
  if (result.success) return;
  throw schemaError(what, result.error.issues);
}
