// mtg config get|set|unset|list, as data: the stored settings of each profile.

import { INSECURE_OPTIONS, OUTPUT_OPTIONS, withFields } from '../../cli/globals.js';
import { defineCommand, type GroupDecl } from '../../cli/spec.js';
import { CONFIG_KEYS } from '../../config/store.js';

const keyArg = {
  name: 'KEY',
  description: `one of ${CONFIG_KEYS.join(', ')}`,
  required: true,
  choices: CONFIG_KEYS,
} as const;

export const group: GroupDecl = {
  name: 'config',
  summary: 'Read and change stored settings (per profile)',
};

export const get = defineCommand({
  name: 'get',
  // The config file only: nothing is sent, no mirror read.
  without: ['--offline'],
  summary: 'Print one stored setting of the profile',
  args: [keyArg],
  examples: ['mtg config get base-url', 'mtg config get base-url --profile work'],
});

export const set = defineCommand({
  name: 'set',
  // The config file only: nothing is sent, no mirror read.
  without: ['--offline'],
  summary: 'Store a setting in the profile',
  args: [keyArg, { name: 'VALUE', description: 'the value', required: true }],
  options: [...INSECURE_OPTIONS],
  examples: [
    'mtg config set base-url https://api.example.com',
    'mtg config set app-url https://app.example.com --profile work',
  ],
});

export const unset = defineCommand({
  name: 'unset',
  // The config file only: nothing is sent, no mirror read.
  without: ['--offline'],
  summary: 'Remove a setting from the profile',
  args: [keyArg],
  examples: ['mtg config unset app-url'],
});

export const list = defineCommand({
  name: 'list',
  // The config file only: nothing is sent, no mirror read.
  without: ['--offline'],
  summary: 'List every stored profile and its settings (keys masked)',
  options: [...withFields(OUTPUT_OPTIONS, 'profile,key,value')],
  examples: ['mtg config list', 'mtg config list --json'],
});
