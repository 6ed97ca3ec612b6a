// mtg sandbox, as data: serve the whole API locally from seeded data.

import { PLANS } from '../../api/assumptions.js';
import { FORMAT_OPTIONS } from '../../cli/globals.js';
import { oneOf, port } from '../../cli/input.js';
import { defineCommand } from '../../cli/spec.js';
import { positiveId, wholeNumber } from '../../shared/ids.js';

export const sandbox = defineCommand({
  name: 'sandbox',
  // It serves its own seeded data: it reads no config profile and no mirror.
  without: ['--offline', '--profile'],
  summary: 'Serve the whole API locally from seeded data, to try every command without an account',
  description:
    'Serve the whole API on loopback from deterministic seeded data. Prints one line when listening ' +
    '(with --json: {"baseUrl","apiKey","plan"}) and runs until Ctrl-C. It enforces auth, the plan\'s rate limits, ' +
    'pagination with opaque cursors and the error envelope, like the real service. Its key is random per run ' +
    '(take it from the line), and it answers only requests addressed to it (Host: its own address).',
  options: [
    {
      flags: '--port <n>',
      description: 'port to listen on (0 = any free port)',
      defaultValue: '0',
      parse: (v: string) => port(v, '--port'),
    },
    {
      flags: '--host <host>',
      description: 'address to listen on (loopback only)',
      defaultValue: '127.0.0.1',
    },
    {
      flags: '--plan <plan>',
      description: 'rate-limit plan',
      choices: PLANS,
      defaultValue: 'Pro',
      parse: (v: string) => oneOf(v, PLANS, '--plan'),
    },
    { flags: '--limits <spec>', description: 'replace the plan\'s windows, e.g. "5/1s,40/10s", or "none"' },
    {
      flags: '--seed <n>',
      description: 'seed of the generated data',
      defaultValue: '1',
      parse: (v: string) => wholeNumber(v, '--seed'),
    },
    {
      flags: '--page-size <n>',
      description: 'items per page of list endpoints',
      defaultValue: '25',
      parse: (v: string) => positiveId(v, '--page-size'),
    },
    {
      flags: '--latency <ms>',
      description: 'delay added to each response',
      defaultValue: '0',
      parse: (v: string) => wholeNumber(v, '--latency'),
    },
    { flags: '--faults <spec>', description: 'inject faults, e.g. "500:0.05,reset:0.02,stall:0.01"' },
    {
      flags: '--churn <spec>',
      description:
        'change the data while serving, e.g. "2/1s" (2 rounds a second): meetings, transcripts, action items, people, companies created, edited and deleted, deterministic from --seed',
    },
    {
      flags: '--action-items <n>',
      description: 'number of action items to generate (e.g. 100000 for benchmarks)',
      parse: (v: string) => wholeNumber(v, '--action-items'),
    },
    {
      flags: '--meetings <n>',
      description: 'number of meetings to generate',
      parse: (v: string) => wholeNumber(v, '--meetings', 1),
    },
    {
      flags: '--data <file>',
      description:
        "serve the meetings, transcripts, people, companies, action items and tags of a JSON file in the API's shapes (gzip or not) instead of generated data",
    },
    { flags: '--base-path <path>', description: 'serve under a path prefix, e.g. /v1' },
    ...FORMAT_OPTIONS,
  ],
  examples: [
    'mtg sandbox',
    'mtg sandbox --json --port 0 --limits "5/1s,40/10s" --churn 2/1s --seed 7',
    'mtg sandbox --data ../shared/bench/qmsum/corpus.json.gz --limits none',
  ],
});
