// The registry of `mtg mcp`'s tools, one file each, in the order tools/list shows them, and the
// resource template mtg://meetings/{id}.

import type { McpServer } from '@modelcontextprotocol/server';
import { ResourceNotFoundError, ResourceTemplate } from '@modelcontextprotocol/server';
import { UnknownMeetingError } from '../../ops/errors.js';
import * as ops from '../../ops/meetings.js';
import { type MirrorAccess, NoMirrorError } from '../mirror-access.js';
import { boundedMeetingMarkdown } from '../resource.js';
import { changes } from './changes.js';
import { createActionItem } from './create-action-item.js';
import { type Obj, registerTool, type ToolDef, type ToolsOptions } from './define.js';
import { getMeeting } from './get-meeting.js';
import { getPerson } from './get-person.js';
import { getTranscript } from './get-transcript.js';
import { listActionItems } from './list-action-items.js';
import { listMeetings } from './list-meetings.js';
import { mirrorStatus } from './mirror-status.js';
import { search } from './search.js';
import { sql } from './sql.js';
import { sync } from './sync.js';
import { updateActionItem } from './update-action-item.js';

export type { ToolsOptions } from './define.js';
export { meetingUri } from './define.js';

export const TOOLS: readonly ToolDef[] = [
  search,
  listMeetings,
  getMeeting,
  getTranscript,
  listActionItems,
  getPerson,
  changes,
  sql,
  mirrorStatus,
  sync,
  createActionItem,
  updateActionItem,
] as unknown as readonly ToolDef[];

export function registerTools(server: McpServer, access: MirrorAccess, options: ToolsOptions): void {
  for (const tool of TOOLS) {
    if (tool.offered && !tool.offered(options)) continue;
    registerTool(server, tool, access, options);
  }
  server.registerResource(
    'meeting',
    new ResourceTemplate('mtg://meetings/{id}', { list: undefined }),
    {
      title: 'A meeting as Markdown',
      description:
        'A meeting of the mirror as Markdown (the layout of `mtg export markdown`, without transcript)',
      mimeType: 'text/markdown',
    },
    async (uri, variables) => {
      const raw = variables.id;
      const id = decodeURIComponent(String(Array.isArray(raw) ? raw[0] : raw));
      const { meeting } = await access
        .read((r) => ops.getMeeting(r.mirror, id))
        .catch((err: unknown) => {
          // A miss is the protocol's resource-not-found (SEP-2164: -32602 with data {uri}; the SDK
          // encodes it), not an internal error.
          if (err instanceof UnknownMeetingError || err instanceof NoMirrorError) {
            throw new ResourceNotFoundError(uri.href, `resource ${uri.href} not found: ${err.message}`);
          }
          throw err;
        });
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: 'text/markdown',
            text: await boundedMeetingMarkdown(id, meeting as Obj, (m) => options.renderMeeting(id, m)),
          },
        ],
      };
    },
  );
}
