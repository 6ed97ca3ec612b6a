// The build stores the output views as data (scripts/build.mjs, prebuiltViews) instead of deriving
// them from the zod schemas at run time (src/output/views.ts): the built CLI must print the same
// fields and columns as the source, for every resource view.
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { type MirrorEnv, mirrorEnvs } from '../mirror/helpers.js';

const mirrorEnv = mirrorEnvs();
let m: MirrorEnv;

beforeAll(async () => {
  m = await mirrorEnv();
  expect((await m.sync()).code).toBe(0);
  // A second sync after a change: `mtg changes` then has events to print.
  await m.mtg(['action-items', 'update', '1', '--status', 'DONE']);
  expect((await m.sync()).code).toBe(0);
}, 60_000);

const commands = [
  ['meetings', 'list', '--offline'],
  ['meetings', 'list', '--limit', '3'],
  ['meetings', 'transcript', '@1', '--offline', '--format', 'json'],
  ['action-items', 'list', '--offline'],
  ['action-items', 'list', '--assignee', 'anyone', '--limit', '3'],
  ['action-items', 'update', '2', '--status', 'DONE'],
  ['tags', 'create', 'views-test'],
  ['people', 'list', '--offline'],
  ['companies', 'list', '--offline'],
  ['companies', 'view', 'example.com'],
  ['find', 'the'],
  ['changes'],
];

describe('the output views of the build', () => {
  it.each(commands)('%s %s %s: the same valid fields as the source views', async (...argv) => {
    const args = [...argv, '--fields', 'nope'];
    const built = await runCli(args, { env: m.env });
    const source = await m.mtg(args);
    expect(built.stderr).toMatch(/valid fields: \w/);
    expect({ code: built.code, stderr: built.stderr }).toEqual({ code: source.code, stderr: source.stderr });
  });

  it.each(
    commands.filter(
      (c) => (c.includes('--offline') && c[1] === 'list') || c[0] === 'find' || c[0] === 'changes',
    ),
  )('%s %s %s: the same csv and table as the source views', async (...argv) => {
    for (const format of ['csv', 'table']) {
      const args = [...argv, '--format', format];
      const built = await runCli(args, { env: { ...m.env, COLUMNS: '200' } });
      const source = await m.mtg(args, { COLUMNS: '200' });
      expect(built.stdout.length).toBeGreaterThan(0);
      expect({ code: built.code, stdout: built.stdout }).toEqual({
        code: source.code,
        stdout: source.stdout,
      });
    }
  });
});
