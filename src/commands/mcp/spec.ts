// mtg mcp, as data: the local mirror served to AI assistants over the Model Context Protocol.

import { NETWORK_OPTIONS } from '../../cli/globals.js';
import { defineCommand } from '../../cli/spec.js';

export const mcp = defineCommand({
  name: 'mcp',
  summary: 'Serve the local mirror to AI assistants (a Model Context Protocol server on stdio)',
  description:
    'A Model Context Protocol server on stdin/stdout for assistants such as Claude Code, Claude Desktop, ' +
    'Cursor and VS Code (`claude mcp add mtg -- mtg mcp`). Its tools (search, list_meetings, get_meeting, ' +
    'get_transcript, list_action_items, get_person, changes, sql, mirror_status) answer from the local mirror and send ' +
    'no request; `sync` runs one paced sync (not with --offline); --allow-writes adds create_action_item ' +
    'and update_action_item. stdout carries only protocol messages. See docs/mcp.md.',
  options: [
    {
      flags: '--sync-every <duration>',
      description: 'also sync in the background at start and every interval: 30s, 10m, 1h',
    },
    { flags: '--allow-writes', description: 'offer the tools that create and update action items' },
    ...NETWORK_OPTIONS,
  ],
  examples: ['mtg mcp', 'mtg mcp --offline', 'mtg mcp --sync-every 10m --allow-writes'],
});
