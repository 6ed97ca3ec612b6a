// The SDK's stdio transport as `mtg mcp` uses it: one write at a time, and a line of stdin that is
// not a message answered. The SDK skips a line that is not JSON without a word (its ReadBuffer drops
// what JSON.parse refuses, and calls no onerror); JSON-RPC answers it with a parse error (-32700,
// id null). So the transport looks at each line before the SDK reads the same bytes, and says so on
// stdout (the answer) and on stderr (the log); a line that is JSON but no JSON-RPC message (the SDK
// calls onerror) is answered -32600 likewise.

import type { Readable, Writable } from 'node:stream';
import { type JSONRPCMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { clipText } from '../shared/clip.js';
import { sanitizeOneLine } from '../shared/sanitize.js';

/** The lines of a byte stream as they complete, each given to `line` (its bytes, without the newline). */
export function lineSplitter(line: (text: string) => void, maxBytes = STDIO_DEFAULT_MAX_BUFFER_SIZE) {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  return (chunk: Buffer): void => {
    let from = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, from)) {
      const bytes = Buffer.concat([...pending, chunk.subarray(from, nl)]);
      pending = [];
      pendingBytes = 0;
      from = nl + 1;
      line(bytes.toString('utf8').replace(/\r$/, ''));
    }
    pendingBytes += chunk.length - from;
    // Past the SDK's own bound it gives up the connection: nothing to check then.
    if (pendingBytes > maxBytes) {
      pending = [];
      pendingBytes = 0;
    } else if (from < chunk.length) pending.push(chunk.subarray(from));
  };
}

/** Why `text` is not JSON, or undefined when it is (a blank line is nothing: no answer). */
export function notJson(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  try {
    JSON.parse(text);
    return undefined;
  } catch (err) {
    return clipText(sanitizeOneLine(err instanceof Error ? err.message : String(err)), 200);
  }
}

/**
 * The SDK's stdio transport, one write at a time (it waits for 'drain' with a listener per message
 * written under backpressure, and many answers at once, a slow client's, would pass Node's listener
 * limit), answering a line that is not JSON with -32700 and saying it through `log`.
 */
export class McpStdioTransport extends StdioServerTransport {
  private writing: Promise<void> = Promise.resolve();

  constructor(stdin: Readable, stdout: Writable, log: (line: string) => void) {
    super(stdin, stdout);
    const check = lineSplitter((text) => {
      const why = notJson(text);
      if (why === undefined) return;
      log(`mtg mcp: a line of stdin is not JSON (${why}); answered a parse error (-32700)`);
      this.answer(-32700, `Parse error: ${why}`);
    });
    // Kept by the Protocol when it connects: what the SDK reports of the transport (a line that is
    // JSON but no JSON-RPC message, a line past its buffer's bound), otherwise said nowhere.
    this.onerror = (err) => {
      const issues = (err as { issues?: { message?: string }[] }).issues;
      if (!Array.isArray(issues)) {
        log(`mtg mcp: ${clipText(sanitizeOneLine(err.message), 300)}`);
        return;
      }
      // The schema refused the line: JSON-RPC's Invalid Request, its id unknown (null).
      const why = clipText(sanitizeOneLine(issues[0]?.message ?? 'not a JSON-RPC message'), 200);
      log(`mtg mcp: a line of stdin is no JSON-RPC message (${why}); answered an invalid request (-32600)`);
      this.answer(-32600, `Invalid Request: ${why}`);
    };
    const read = this._ondata;
    // start() subscribes this property to stdin's 'data'; the SDK reads the same bytes after.
    this._ondata = (chunk: Buffer) => {
      check(chunk);
      read(chunk);
    };
  }

  /** An error answer to a line whose id could not be read: JSON-RPC's id null. */
  private answer(code: number, message: string): void {
    const error = { jsonrpc: '2.0', id: null, error: { code, message } };
    this.send(error as unknown as JSONRPCMessage).catch(() => undefined);
  }

  override send(...args: Parameters<StdioServerTransport['send']>): Promise<void> {
    const sent = this.writing.then(() => super.send(...args));
    this.writing = sent.catch(() => undefined);
    return sent;
  }
}
