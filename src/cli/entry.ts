// The bundle's entry point. `mtg --version` and help need none of the CLI: answer them here and load
// the rest (commander, the command tree, main) only for everything else. Measured by `npm run bench`
// (a) and bench/startup.mjs.
//
// Built as CommonJS (dist/mtg.cjs, see scripts/build.mjs), as is the CLI it loads (dist/cli.cjs):
// node's ES module loader is never set up. Self-contained on purpose: it requires nothing of ours
// but dist/cli.cjs.

import { answerHelpWords, type HelpAnswer, type HelpTexts } from './help-texts.js';
import { systemErrorLine } from './system-error.js';

declare const __MTG_VERSION__: string | undefined;
/** true in the standalone binary (scripts/build-binary.mjs), undefined in the package. */
declare const __MTG_SEA__: boolean | undefined;

/**
 * The stored text (dist/help.json, rendered by commander at build time: see help-texts.ts) for
 * `mtg` alone, or for command words (names or aliases) followed by one --help/-h and nothing else,
 * and `mtg help WORDS...` (a topic, a command's help, or exit 2 naming the topics: answerHelpWords).
 * Anything else — options, extra arguments, an unknown path, a missing or unreadable file — and
 * MTG_NO_HELP_CACHE=1 (forces commander, so tests can compare both paths): undefined.
 */
function preRenderedHelp(argv: string[]): HelpAnswer | undefined {
  if (process.env.MTG_NO_HELP_CACHE === '1') return undefined;
  // `mtg help WORDS...`: a topic or a command's help (answerHelpWords; `mtg help` alone: commander).
  const helpWords = argv[0] === 'help' && argv.length > 1 ? argv.slice(1) : undefined;
  if (helpWords?.some((w) => w === '' || w.startsWith('-') || /\s/.test(w))) return undefined;
  const flag = argv[argv.length - 1];
  const bare = argv.length === 0;
  if (!bare && !helpWords && flag !== '--help' && flag !== '-h') return undefined;
  const words = argv.slice(0, -1);
  // Plain words only ("-x", "" or a word with a space are for commander to judge).
  if (!helpWords && (words.length > 2 || words.some((w) => w === '' || w.startsWith('-') || /\s/.test(w))))
    return undefined;
  try {
    // getBuiltinModule (node >= 20.16), not `import 'node:fs'`: a static ESM import of a builtin
    // costs about 1 ms of every start, --version's included.
    const { readFileSync } = process.getBuiltinModule('node:fs');
    const help = JSON.parse(readFileSync(`${__dirname}/help.json`, 'utf8')) as HelpTexts;
    if (bare) return typeof help.bare === 'string' ? { out: help.bare, err: '', code: 0 } : undefined;
    // (A help.json without topics, of an older build: commander answers.)
    if (helpWords)
      return typeof help.topics === 'object' && help.topics ? answerHelpWords(helpWords, help) : undefined;
    const path = words.join(' ');
    const key = Object.hasOwn(help.paths, path) ? help.paths[path] : undefined;
    const text = key !== undefined && Object.hasOwn(help.texts, key) ? help.texts[key] : undefined;
    return typeof text === 'string' ? { out: text, err: '', code: 0 } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Node >= 22.1 keeps the code it compiles on disk (module.enableCompileCache()), which spares every
 * later run most of compiling the CLI (dist/cli.cjs and its chunks). Where: NODE_COMPILE_CACHE if
 * the user set it (their choice: node turns it on at start), else compileCacheFolder()
 * below, a folder of this user's own. Never node's default, node-compile-cache in the OS temp dir:
 * that folder is shared by every user of the machine, and node (src/compile_cache.cc,
 * CompileCacheHandler::Enable) makes it, and the per-uid subfolder it reads, with mode 0777 less the
 * umask, takes one that exists without asking whose it is or whether it is a link, and accepts an
 * entry whose checksums (crc32) match: another user who made it first could hand V8 code caches to
 * deserialize as ours. NODE_DISABLE_COMPILE_CACHE=1 turns it off. A cache that cannot be made or
 * trusted is skipped silently (it is only an optimization; node's call returns a status, the try is
 * for a node that throws anyway). Node 20 has no such API; the standalone binary carries its own
 * code caches (sea-cli.ts), so it turns nothing on (node's would cache nothing there).
 */
function enableCompileCache(): void {
  if (typeof __MTG_SEA__ === 'boolean' && __MTG_SEA__) return;
  try {
    const { enableCompileCache: enable } = process.getBuiltinModule('node:module') as {
      enableCompileCache?: (directory?: string) => unknown;
    };
    const env = process.env;
    // NODE_COMPILE_CACHE: node has used it (or found it unusable) at start already. Not enable()
    // without a folder: node 22 ignores the variable there and takes the temp dir.
    if (!enable || env.NODE_DISABLE_COMPILE_CACHE === '1' || env.NODE_COMPILE_CACHE) return;
    const folder = compileCacheFolder(env);
    if (folder !== undefined) enable(folder);
  } catch {
    // Caching is an optimization only.
  }
}

/**
 * mtg's folder in the user's cache directory (as env-paths names it: $XDG_CACHE_HOME/mtg or
 * ~/.cache/mtg, ~/Library/Caches/mtg on macOS, %LOCALAPPDATA%\mtg\Cache on Windows), plus
 * node-compile-cache; made 0700 when missing. Undefined unless it and the folder that holds it are
 * real folders (not links) of this user that no one else may write (so no one else can swap it
 * after this check, unless the folder above those two, ~/.cache, is writable by others); on Windows, folders and not links. HOME is read from the environment only,
 * as for the config and data folders: no absolute one, no cache. Two lstat calls when it exists.
 */
function compileCacheFolder(env: NodeJS.ProcessEnv): string | undefined {
  const { isAbsolute, join } = process.getBuiltinModule('node:path');
  const { lstatSync, mkdirSync } = process.getBuiltinModule('node:fs');
  const absolute = (path: string | undefined) => (path && isAbsolute(path) ? path : undefined);
  const home = absolute(env.HOME);
  let app: string | undefined;
  if (process.platform === 'win32') {
    const local =
      absolute(env.LOCALAPPDATA) ?? absolute(env.USERPROFILE && join(env.USERPROFILE, 'AppData', 'Local'));
    app = local && join(local, 'mtg', 'Cache');
  } else if (process.platform === 'darwin') {
    app = home && join(home, 'Library', 'Caches', 'mtg');
  } else {
    const base = absolute(env.XDG_CACHE_HOME) ?? (home && join(home, '.cache'));
    app = base && join(base, 'mtg');
  }
  if (app === undefined) return undefined;
  const folder = join(app, 'node-compile-cache');
  const uid = process.getuid?.();
  const trusted = (path: string): boolean => {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (!stat?.isDirectory()) return false; // missing, a file, or a link (lstat: not followed)
    return uid === undefined || (stat.uid === uid && (stat.mode & 0o022) === 0);
  };
  if (!trusted(folder)) {
    // Missing: made (and the folders above it), 0700. One that exists and is not trusted stays as
    // it is, unused.
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    if (!trusted(folder)) return undefined;
  }
  return trusted(app) ? folder : undefined;
}

const argv = process.argv.slice(2);
const version = argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V');
const help = version ? undefined : preRenderedHelp(argv);
if (version || help !== undefined) {
  // Help into a full disk (or a closed pipe): one line, as the CLI says it (src/cli/main.ts).
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') process.stderr.write(`mtg: ${systemErrorLine(err) ?? err.message}\n`);
    process.exitCode = err.code === 'EPIPE' ? 0 : 1;
  });
}
if (version) {
  // Same output as commander's version option (see buildProgram): the version and a newline.
  process.stdout.write(`${typeof __MTG_VERSION__ === 'string' ? __MTG_VERSION__ : '0.0.0-dev'}\n`);
} else if (help !== undefined) {
  if (help.out) process.stdout.write(help.out);
  if (help.err) process.stderr.write(help.err);
  process.exitCode = help.code;
} else {
  enableCompileCache();
  // A real require() of the CLI bundle (kept by the build), which runs it.
  require('./cli.cjs');
}
