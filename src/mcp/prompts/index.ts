// The registry of `mtg mcp`'s prompts (prompts/list, prompts/get), one file each, in the order a
// client lists them.

import type { McpServer } from '@modelcontextprotocol/server';
import type { MirrorAccess } from '../mirror-access.js';
import { briefMeeting } from './brief-meeting.js';
import { type PromptDef, registerPrompt } from './define.js';
import { openCommitments } from './open-commitments.js';
import { prepareForPerson } from './prepare-for-person.js';
import { sinceLastSync } from './since-last-sync.js';

export const PROMPTS: readonly PromptDef[] = [
  briefMeeting,
  prepareForPerson,
  openCommitments,
  sinceLastSync,
] as unknown as readonly PromptDef[];

export function registerPrompts(server: McpServer, access: MirrorAccess): void {
  for (const prompt of PROMPTS) registerPrompt(server, prompt, access);
}
