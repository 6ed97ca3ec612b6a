// `npm run bundle:mcpb`'s script end to end: the bundle is built, its manifest passes the official
// validator (@anthropic-ai/mcpb), and the server starts from the unpacked bundle, with nothing of
// the project beside it, and answers tools/list and prompts/list.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MCPB = join(ROOT, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');

const node = (args: string[]) => spawnSync(process.execPath, args, { encoding: 'utf8', cwd: ROOT });

// Builds, packs and unpacks the whole bundle with three node processes: over a minute on a loaded machine.
it('the bundle is built, validated, unpacked, and its server answers tools/list', {
  timeout: 180_000,
}, async () => {
  const work = tempDir('mtg-mcpb-test-');
  const file = join(work, 'mtg.mcpb');
  const built = node([join(ROOT, 'scripts', 'bundle-mcpb.mjs'), '--out', file]);
  expect(built.stderr).toBe('');
  expect(built.status).toBe(0);
  expect(existsSync(file)).toBe(true);

  const unpacked = join(work, 'unpacked');
  expect(node([MCPB, 'unpack', file, unpacked]).status).toBe(0);
  const valid = node([MCPB, 'validate', join(unpacked, 'manifest.json')]);
  expect(valid.status, valid.stdout + valid.stderr).toBe(0);
  // Only what the bundle carries: no project node_modules on the way up from a temp folder.
  expect(existsSync(join(unpacked, 'node_modules', '@napi-rs', 'keyring'))).toBe(true);

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(unpacked, 'bin', 'mtg.js'), 'mcp', '--offline'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: work,
      MTG_DATA_DIR: join(work, 'data'),
      MTG_CONFIG_DIR: join(work, 'config'),
    },
    cwd: work,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'mtg-mcpb-test', version: '1' });
  await client.connect(transport);
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(
      expect.arrayContaining(['search', 'list_action_items', 'get_person', 'mirror_status']),
    );
    const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
    expect(prompts).toContain('prepare_for_person');
    const status = (await client.callTool({ name: 'mirror_status', arguments: {} })) as {
      structuredContent: { note?: string };
    };
    expect(status.structuredContent.note).toMatch(/no mirror/);
  } finally {
    await client.close();
  }
});
