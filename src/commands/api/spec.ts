// mtg api, as data: any request to the API with the same auth, retries, pacing and pagination as
// the other commands (after `gh api`).

import { DRY_RUN_OPTION } from '../../cli/dry-run.js';
import { DOCUMENT_OUTPUT_OPTIONS, LIMIT_OPTIONS, NETWORK_OPTIONS, withFormats } from '../../cli/globals.js';
import { defineCommand } from '../../cli/spec.js';

export const API_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type ApiMethod = (typeof API_METHODS)[number];
export const API_FORMATS = ['json', 'ndjson'] as const;

export const api = defineCommand({
  name: 'api',
  summary: 'Send any request to the API (same auth, retries, pacing and pagination)',
  description:
    'Send a request to PATH under the base URL and print the response body as JSON (indented on a ' +
    'terminal, one line when piped; --format ndjson prints an array one element per line).\n' +
    'Like `gh api`: --field/--raw-field or --input make the default method POST (GET with ' +
    '--paginate). With GET (or ' +
    'next to --input) fields are query parameters; otherwise they form a JSON object body. ' +
    '--field types true, false, null and numbers; --raw-field keeps strings. Repeat a key, or write ' +
    'key[]=value, for an array. --paginate follows Link rel="next" and prints every item of every ' +
    'page as one JSON array (or ndjson); --limit N stops after N of them (it needs --paginate). HTTP errors exit with the usual codes (3, 4, 5, 1).',
  args: [
    {
      name: 'PATH',
      description: 'endpoint path, e.g. /people or "/action-items?status=ALL"',
      required: true,
    },
  ],
  options: [
    {
      flags: '-X, --method <method>',
      description: `${API_METHODS.join('|')} (default: GET, or POST with --field/--input unless --paginate)`,
      choices: API_METHODS,
    },
    {
      flags: '-F, --field <key=value>',
      description: 'a parameter, typed: numbers, true, false, null (repeatable)',
      repeatable: true,
    },
    {
      flags: '-f, --raw-field <key=value>',
      description: 'a string parameter (repeatable)',
      repeatable: true,
    },
    { flags: '--input <file>', description: 'the JSON request body from FILE, or - for stdin' },
    { flags: '--paginate', description: 'GET: follow every next page and print all items as one array' },
    { ...DRY_RUN_OPTION, description: 'print the request it would send (method, path, body); send nothing' },
    ...withFormats(DOCUMENT_OUTPUT_OPTIONS, API_FORMATS, 'json (default), ndjson'),
    { ...LIMIT_OPTIONS[0], description: 'with --paginate: stop after N items (and stop fetching pages)' },
    ...NETWORK_OPTIONS,
  ],
  examples: [
    'mtg api /people --paginate',
    'mtg api /action-items -X GET -F assigneeType=Anyone -F status=ALL',
    'mtg api /tag -F name=Hiring -f description="Interview loops" --dry-run',
  ],
});
