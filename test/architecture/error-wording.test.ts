// No error is recognized by its wording (issue 31): mtg's own errors say what went wrong by their
// class and data (src/ops/errors.ts, WordedError in src/api/errors.ts), so a message can be
// reworded without breaking whoever catches it. Only foreign errors that carry no code may be
// read by their words, each listed below with why.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';
import { SRC } from './imports.js';

/** A message taken apart: `….message.includes(`, `message.startsWith(`, `/…/.test(err.message)`, … */
const BY_WORDING = [
  /\bmessage\s*\.\s*(?:includes|startsWith|endsWith|match|matchAll|search|indexOf|lastIndexOf)\s*\(/,
  /\.\s*(?:test|exec)\s*\(\s*[\w.]*\bmessage\b/,
];

/** file → the matching line's text (a part of it) → why it may read a foreign error's words. */
const FOREIGN: Record<string, Record<string, string>> = {
  'config/keychain.ts': {
    'NO_SECRET_SERVICE.test(message)':
      "secret-tool's and D-Bus's messages: the Secret Service tools exit 1 for every failure, with no code",
    'LOCKED.test(message)': 'the same: a locked keyring is told only in the Secret Service tool’s words',
  },
  'mirror/driver.ts': {
    '/\\bSQLite\\b/.test(warning.message)':
      "Node's ExperimentalWarning for node:sqlite has no code of its own",
    '/[\'"]better-sqlite3[\'"]/.test(message)':
      "MODULE_NOT_FOUND says a module is missing; only Node's message says which one",
    '/Could not locate the bindings file|better_sqlite3\\.node/.test(message)':
      "the `bindings` package's error for a missing native build has no code",
    '/NODE_MODULE_VERSION (\\d+)/.exec(message)':
      "ERR_DLOPEN_FAILED's code says a native module failed to load; only Node's message says for which Node",
  },
  'api/proxy.ts': {
    '/^Proxy response \\((\\d+)\\) !== 200/.exec(message)':
      "undici's ProxyAgent tells the proxy's refusal (407, 403, …) only in its message's words",
  },
  'mcp/tools/define.ts': {
    'issue.message.startsWith(`':
      "a zod issue does not say whether its message is the schema's own (naming the argument) or zod's default",
  },
  'commands/tags/names.ts': {
    'err.message.includes(`"':
      "the service's 409 text (no code for it): whether the server already named the tag, so it is said once",
  },
};

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

it('no file of src/ recognizes an error by its wording (foreign errors with no code excepted)', () => {
  const files = tsFiles(SRC);
  expect(files.length).toBeGreaterThan(100);
  const found: string[] = [];
  const excused = new Set<string>();
  for (const path of files) {
    const file = relative(SRC, path).split('\\').join('/');
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (!BY_WORDING.some((re) => re.test(line))) return;
        const known = Object.keys(FOREIGN[file] ?? {}).find((part) => line.includes(part));
        if (known !== undefined) excused.add(`${file}: ${known}`);
        else found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
  expect(found).toEqual([]);
  // Every exception still exists: one whose code is gone must go too.
  const listed = Object.entries(FOREIGN).flatMap(([file, parts]) =>
    Object.keys(parts).map((p) => `${file}: ${p}`),
  );
  expect(listed.filter((e) => !excused.has(e))).toEqual([]);
});

it('the check sees the ways a message is taken apart', () => {
  const seen = (line: string) => BY_WORDING.some((re) => re.test(line));
  expect(seen("if (err.message.includes('No mirror')) return;")).toBe(true);
  expect(seen("err.message.startsWith('SQL error: ')")).toBe(true);
  expect(seen('/^(No mirror|The mirror \\S+ is empty)/.test(err.message)')).toBe(true);
  expect(seen('const m = (e as Error).message.match(/--since/);')).toBe(true);
  expect(seen('NO_SECRET.test(message)')).toBe(true);
  expect(seen('if (err instanceof NoMirrorFileError) throw new NoMirrorError(profile);')).toBe(false);
  expect(seen("io.err.write('mtg: ' + err.message);")).toBe(false);
});
