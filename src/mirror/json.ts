// How the mirror turns an object the API sent into the text of a `json` column, and back. One
// place, so that lossless handling of integers beyond 2^53 (src/output/json.ts) is one edit away.

/** The object as JSON text, exactly as the API sent it. */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value);
}

export function fromJsonText(text: string): unknown {
  return JSON.parse(text);
}
