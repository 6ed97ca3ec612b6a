// jq-web ships no types: the part of its API that src/cli/jq.ts uses.
declare module 'jq-web' {
  export interface JqWeb {
    /** Runs jq with `flags` and `filter` over `input` (JSON text); returns stdout, undefined when empty. */
    raw(input: string | Uint8Array, filter: string, flags?: string[]): string | undefined;
  }
  const jq: Promise<JqWeb>;
  export default jq;
}
