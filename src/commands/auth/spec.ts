// mtg auth login|logout|status, as data: store a verified key per profile, remove it, show where it
// comes from.

import { NETWORK_OPTIONS, OUTPUT_OPTIONS } from '../../cli/globals.js';
import { defineCommand, type GroupDecl } from '../../cli/spec.js';

export const group: GroupDecl = {
  name: 'auth',
  summary: 'Log in, log out and show which key is used',
};

export const login = defineCommand({
  name: 'login',
  summary: 'Store an API key for a profile after checking it with one request',
  description:
    'Store an API key for a profile. The key is read from stdin when it is not a terminal, else from a hidden prompt, ' +
    'checked with one cheap request, and stored in the config file (mode 0600).',
  options: [...NETWORK_OPTIONS],
  examples: [
    'mtg auth login --base-url https://api.example.com',
    'echo "$KEY" | mtg auth login --profile work',
  ],
});

export const logout = defineCommand({
  name: 'logout',
  summary: 'Remove the stored API key of a profile',
  examples: ['mtg auth logout', 'mtg auth logout --profile work'],
});

export const status = defineCommand({
  name: 'status',
  summary: 'Show the profile, base URL, key source, masked key and rate-limit state',
  options: [...OUTPUT_OPTIONS, ...NETWORK_OPTIONS],
  examples: ['mtg auth status', 'mtg auth status --json'],
});
