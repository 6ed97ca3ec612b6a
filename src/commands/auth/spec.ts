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
    'Store an API key for a profile. The key is the --api-key value if given, else read from stdin when it is not a terminal, else from a hidden prompt, ' +
    'checked with one cheap request, and stored in the OS credential store (macOS Keychain, Windows Credential Manager, ' +
    'the Secret Service on Linux; service "mtg", one entry per profile). Where no store is reachable it goes to the ' +
    'config file (mode 0600), and mtg says so.',
  options: [
    {
      flags: '--insecure-storage',
      description: 'store the key in the config file (plain text, mode 0600), not the credential store',
    },
    {
      flags: '--move-to-keychain',
      description: "move the profile's key from the config file to the credential store (no prompt)",
    },
    ...NETWORK_OPTIONS,
  ],
  examples: [
    'mtg auth login --base-url https://api.example.com',
    'echo "$KEY" | mtg auth login --profile work',
    'mtg auth login --move-to-keychain',
  ],
});

export const logout = defineCommand({
  name: 'logout',
  // It removes the stored key and sends nothing: --offline could change nothing.
  without: ['--offline'],
  summary: 'Remove the stored API key of a profile (credential store and config file)',
  examples: ['mtg auth logout', 'mtg auth logout --profile work'],
});

export const status = defineCommand({
  name: 'status',
  summary: 'Show the profile, base URL, key source, masked key and rate-limit state',
  options: [...OUTPUT_OPTIONS, ...NETWORK_OPTIONS],
  examples: ['mtg auth status', 'mtg auth status --json'],
});
