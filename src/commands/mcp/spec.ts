// mtg mcp, as data: the local mirror served to AI assistants over the Model Context Protocol, and
// `mtg mcp install|uninstall CLIENT`, which add it to (or remove it from) an assistant's own
// configuration (the words are arguments of the one command, so `mtg mcp [options]` still serves).

import { NETWORK_OPTIONS } from '../../cli/globals.js';
import { defineCommand } from '../../cli/spec.js';
import { CLIENT_NAMES } from '../../mcp/clients.js';

export const ACTIONS = ['install', 'uninstall'] as const;

export const mcp = defineCommand({
  name: 'mcp',
  summary: 'Serve the local mirror to AI assistants (a Model Context Protocol server on stdio)',
  description:
    'A Model Context Protocol server on stdin/stdout for assistants such as Claude Code, Claude Desktop, ' +
    'Cursor and VS Code. Its tools (search, list_meetings, get_meeting, get_transcript, list_action_items, ' +
    'get_person, changes, sql, mirror_status) answer from the local mirror and send no request; `sync` ' +
    'runs one paced sync (not with --offline); --allow-writes adds create_action_item and ' +
    'update_action_item; a statement of the sql tool runs at most --timeout seconds. stdout carries only ' +
    'protocol messages. `mtg mcp install CLIENT` adds this server ' +
    "to the assistant's own configuration file (absolute paths of node and mtg; --profile, --sync-every " +
    'and --allow-writes passed on, and MTG_DATA_DIR and MTG_CONFIG_DIR when the data or config folder is not the default; every other entry kept; a backup beside it; --print to see it first); ' +
    '`mtg mcp uninstall CLIENT` removes it. See docs/mcp.md.',
  args: [
    {
      name: 'ACTION',
      description: 'install or uninstall: add the server to an assistant, or remove it (none: serve)',
      choices: ACTIONS,
    },
    {
      name: 'CLIENT',
      description: `the assistant: ${CLIENT_NAMES.join(', ')}`,
      choices: CLIENT_NAMES,
    },
  ],
  options: [
    {
      flags: '--sync-every <duration>',
      description: 'also sync in the background at start and every interval: 30s, 10m, 1h',
    },
    { flags: '--allow-writes', description: 'offer the tools that create and update action items' },
    { flags: '--print', description: 'with install or uninstall: show the change, write nothing' },
    ...NETWORK_OPTIONS,
  ],
  examples: [
    'mtg mcp install claude-desktop',
    'mtg mcp install cursor --sync-every 10m --print',
    'mtg mcp --offline',
  ],
});
