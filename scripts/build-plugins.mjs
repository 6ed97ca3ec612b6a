// What scripts/build.mjs (the npm package) and scripts/build-binary.mjs (the standalone binary)
// bundle alike: the same stand-ins and trims of dependencies, the same defines, and the output
// views stored as data. Each plugin says why it exists.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));

// commander requires node:child_process at load time, only to run stand-alone executable
// subcommands, which mtg never declares. Loading that builtin (it pulls in net, dgram, ...) costs
// 2-3 ms of every start (median of 15 cold `require('node:child_process')`, against a budget of
// about 15 ms over bare node): give commander a stand-in that loads the real module on first use.
export const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(b) {
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: 'lazy-child-process', namespace: 'mtg-lazy' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'mtg-lazy' }, () => ({
      contents:
        'let real; module.exports = new Proxy({}, { get: (_, key) => (real ??= require("node:child_process"))[key] });',
      loader: 'js',
    }));
  },
};

// zod's namespace object (`import { z } from 'zod'`) re-exports every locale (`z.locales`), and a
// namespace object cannot be tree-shaken: 264 of the 456 kB of the zod chunk, compiled by every
// API command (bench figure b). mtg uses only English, the default that zod registers itself from
// locales/en.js: give `z.locales` just that one.
export const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /[\\/]locales[\\/]index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: resolve(args.resolveDir, args.path), namespace: 'mtg-zod-locales' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'mtg-zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), 'en.js'))};`,
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

// undici's index.js loads everything it offers (fetch, WebSocket, caches, mocks, ...): 535 kB that
// every API command compiled before its first request (bench figure b), where the client needs two
// dispatchers and Dispatcher.request. Give the client's transport (src/api/client.ts, or
// transport.ts once the request loop is split) just those, set up as index.js does
// (the api methods mixed into Dispatcher.prototype): 320 kB. Deep requires, so an undici that moves
// these files fails this build rather than mtg at run time.
export const leanUndici = {
  name: 'lean-undici',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, (args) =>
      /[\\/]src[\\/]api[\\/](client|transport)\.ts$/.test(args.importer)
        ? { path: 'lean-undici', namespace: 'mtg-lean-undici' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'mtg-lean-undici' }, () => ({
      // Only request() is loaded with the dispatchers; connect() (a proxy's CONNECT tunnel) and the
      // other api methods, and the proxy agent (not used for loopback), on first use.
      contents: [
        "const Dispatcher = require('undici/lib/dispatcher/dispatcher');",
        "Dispatcher.prototype.request = require('undici/lib/api/api-request');",
        'const lazyApi = {',
        "  stream: () => require('undici/lib/api/api-stream'),",
        "  pipeline: () => require('undici/lib/api/api-pipeline'),",
        "  upgrade: () => require('undici/lib/api/api-upgrade'),",
        "  connect: () => require('undici/lib/api/api-connect'),",
        '};',
        'for (const [name, load] of Object.entries(lazyApi)) {',
        '  Object.defineProperty(Dispatcher.prototype, name, {',
        '    configurable: true,',
        '    get() {',
        '      const method = load();',
        '      Object.defineProperty(Dispatcher.prototype, name, { value: method, writable: true, configurable: true });',
        '      return method;',
        '    },',
        '  });',
        '}',
        'module.exports = {',
        "  Agent: require('undici/lib/dispatcher/agent'),",
        "  get EnvHttpProxyAgent() { return require('undici/lib/dispatcher/env-http-proxy-agent'); },",
        "  get Pool() { return require('undici/lib/dispatcher/pool'); },",
        '};',
        // The V8 flags of a process that sends (src/cli/v8-flags.ts), once undici and the node
        // modules it requires have loaded: not at start, because any flag V8 is given at run time
        // changes the hash its code caches are checked against, and node's own modules (their code
        // cache is built into node) were then compiled from source, 30-40 M instructions of a command.
        `require(${JSON.stringify(fileURLToPath(new URL('../src/cli/v8-flags.ts', import.meta.url)))}).setV8Flags();`,
      ].join('\n'),
      resolveDir: process.cwd(),
      loader: 'js',
    }));
  },
};

// chalk's own colour detection (its vendored supports-color) runs tty.isatty() at load, and
// node:tty loads node:net and the stream modules: 20 node modules for every command that prints,
// the mirror's included, even into a pipe. mtg never uses chalk's detected level: each Chalk is
// made with the level mtg decided (src/output/color.ts, io.color).
export const chalkWithoutDetection = {
  name: 'chalk-without-detection',
  setup(b) {
    b.onResolve({ filter: /^#supports-color$/ }, (args) =>
      /[\\/]node_modules[\\/]chalk[\\/]/.test(args.importer)
        ? { path: 'no-supports-color', namespace: 'mtg-no-supports-color' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'mtg-no-supports-color' }, () => ({
      contents: 'export default { stdout: false, stderr: false };',
      loader: 'js',
    }));
  },
};

// undici requires node:assert in 33 files, only to call assert(value[, message]) on its own
// invariants; loading it (its AssertionError, diff and source-reading helpers) cost every API
// command about 1.5 ms of CPU on node 26. Give undici a function that loads the real one only when
// a check fails, and fail this build if undici uses anything else of it.
export const lazyAssertForUndici = {
  name: 'lazy-assert-for-undici',
  setup(b) {
    b.onResolve({ filter: /^(node:)?assert$/ }, async (args) => {
      if (!/[\\/]node_modules[\\/]undici[\\/]/.test(args.importer)) return undefined;
      if (/\bassert\.\w/.test(await readFile(args.importer, 'utf8')))
        throw new Error(
          `${args.importer} uses more of node:assert: see lazyAssertForUndici in scripts/build-plugins.mjs`,
        );
      return { path: 'lazy-assert', namespace: 'mtg-lazy-assert' };
    });
    b.onLoad({ filter: /.*/, namespace: 'mtg-lazy-assert' }, () => ({
      contents:
        'module.exports = function assert(value, message) { if (!value) require("node:assert")(value, message); };',
      loader: 'js',
    }));
  },
};

// undici requires node:http at load (~5 ms of CPU on node 26, and the http modules it loads) for
// two things: http.maxHeaderSize (client.js, the default of its maxHeaderSize option, read at load)
// and IncomingMessage (core/util.js, compared with a stream's constructor in destroy()). mtg speaks
// HTTP through undici's own parser and never needs node's http otherwise. Give undici a node:http
// whose maxHeaderSize is node's default unless --max-http-header-size was given (the real module
// answers then), and whose IncomingMessage is compared only with a constructor of that name (http
// is loaded already when one exists). A changed undici fails this build, not mtg at run time.
export const undiciWithoutHttp = {
  name: 'undici-without-http',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]undici[\\/]lib[\\/]core[\\/]util\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const from = "const { IncomingMessage } = require('node:http')";
      const use = 'Object.getPrototypeOf(stream).constructor === IncomingMessage';
      if (!text.includes(from) || !text.includes(use))
        throw new Error(
          'undici/lib/core/util.js changed: see undiciWithoutHttp in scripts/build-plugins.mjs',
        );
      return {
        contents: text
          .replace(from, '')
          .replace(
            use,
            "Object.getPrototypeOf(stream).constructor?.name === 'IncomingMessage' && Object.getPrototypeOf(stream).constructor === require('node:http').IncomingMessage",
          ),
        loader: 'js',
      };
    });
    b.onLoad(
      { filter: /[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/ },
      async (args) => {
        const text = await readFile(args.path, 'utf8');
        const from = "const http = require('node:http')";
        const uses = text.match(/\bhttp\.\w+/g) ?? [];
        if (!text.includes(from) || !uses.every((use) => use === 'http.maxHeaderSize'))
          throw new Error(
            'undici/lib/dispatcher/client.js changed: see undiciWithoutHttp in scripts/build-plugins.mjs',
          );
        return {
          contents: text.replace(
            from,
            // node's default (16 KiB) unless the option was given on the command line or in NODE_OPTIONS.
            // biome-ignore lint/suspicious/noTemplateCurlyInString: source text for the bundle, its template read there
            "const http = /max-http-header-size/.test(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`) ? require('node:http') : { maxHeaderSize: 16384 }",
          ),
          loader: 'js',
        };
      },
    );
  },
};

// undici's client.js requires client-h2.js, which requires node:http2 at load time (and with it
// tls, http and crypto): on node 26, 20-50 ms of a one-page command that never speaks HTTP/2
// (undici negotiates h2 only with `allowH2`, which mtg never sets). Bundle it as is, but evaluate
// it on the first h2 connection: client.js calls it only then.
export const lazyUndiciHttp2 = {
  name: 'lazy-undici-http2',
  setup(b) {
    b.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/.test(args.importer)
        ? { path: join(args.resolveDir, 'client-h2.js'), namespace: 'mtg-lazy-h2' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'mtg-lazy-h2' }, (args) => ({
      contents: `let real; module.exports = function connectH2(...args) { return (real ??= require(${JSON.stringify(args.path)}))(...args); };`,
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

/**
 * Our modules (src/) get, for a builtin, functions of the names listed that load it on first call.
 * A name not listed fails the build ("No matching export").
 */
function lazyBuiltinForSrc(specifier, names) {
  const namespace = `mtg-lazy-${specifier.replace(/\W/g, '-')}`;
  return {
    name: `lazy-${specifier}`,
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${specifier}$`) }, (args) =>
        /[\\/]src[\\/]/.test(args.importer) ? { path: specifier, namespace } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace }, () => ({
        contents: [
          `const real = () => process.getBuiltinModule(${JSON.stringify(specifier)});`,
          ...names.map((name) => `export function ${name}(...args) { return real().${name}(...args); }`),
        ].join('\n'),
        loader: 'js',
      }));
    },
  };
}

// node:crypto costs 5-15 ms to load on node 26 (its module graph grew: webcrypto's algorithm
// tables, argon2, ...), and modules on every command's path import it for temporary file names
// (config/store.ts, output/sink.ts; the export's and the sandbox's hashes too).
export const lazyCrypto = lazyBuiltinForSrc('node:crypto', [
  'randomBytes',
  'createHash',
  'createHmac',
  'timingSafeEqual',
]);

// node:child_process (with dgram, net's socket list, the process and spawn bindings: 2-3 ms, see
// lazyChildProcessForCommander) was loaded by every mirror command through src/mirror/sql-runner.ts
// (mtg sql's child), and is needed only when mtg starts a child: sql, watch --exec, the credential
// store's helper.
export const lazyChildProcess = lazyBuiltinForSrc('node:child_process', ['spawn']);

// node:fs/promises brings ~25 of node's modules with it on node 26 (its FileHandle's streams, the
// readline interface of readLines and with it the REPL's history, fs.watch's watchers), loaded by
// every command through the modules on its path (config/store.ts, output/sink.ts,
// shared/atomic-file.ts), while a read such as find calls none of its functions.
export const lazyFsPromises = lazyBuiltinForSrc('node:fs/promises', [
  'access',
  'chmod',
  'lstat',
  'mkdir',
  'open',
  'readFile',
  'readlink',
  'realpath',
  'rename',
  'rm',
  'stat',
  'unlink',
  'writeFile',
]);

// Some CommonJS dependencies call require(); give the ESM bundle of help-build.ts one.
export const requireBanner =
  "import { createRequire as __mtgCreateRequire } from 'node:module'; const require = __mtgCreateRequire(import.meta.url);";
export const define = { __MTG_VERSION__: JSON.stringify(pkg.version) };

/** Bundles one of our modules as an ES module, with the build's defines, and imports it here. */
export async function importBundled(entry) {
  const bundled = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    loader: { '.mustache': 'text' },
    target: 'node20.18',
    define,
    banner: { js: requireBanner },
    logLevel: 'warning',
  });
  const dir = await mkdtemp(join(tmpdir(), 'mtg-build-'));
  try {
    const file = join(dir, 'module.mjs');
    await writeFile(file, bundled.outputFiles[0].contents);
    return await import(pathToFileURL(file).href);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// The output views (src/output/views.ts) as data: that module derives each resource's fields from
// the API's zod schemas, which made every command that prints anything build zod and all the
// schemas (~30 ms of CPU on node 26; `find` and `meetings list --offline` validate nothing else).
// The build runs it once and bundles what it returns instead: the same views, each call a fresh
// object as before, and no zod (test/e2e/prebuilt-views.test.ts compares them).
export async function prebuiltViews() {
  const { RESOURCE_NAMES, viewFor } = await importBundled('src/output/views.ts');
  const views = RESOURCE_NAMES.map(
    (name) => `  ${JSON.stringify(name)}: () => (${JSON.stringify(viewFor(name))}),`,
  );
  const contents = [
    '// Generated by scripts/build.mjs from src/output/views.ts.',
    `const views = {\n${views.join('\n')}\n};`,
    `export const RESOURCE_NAMES = ${JSON.stringify(RESOURCE_NAMES)};`,
    'export function viewFor(resource) { return views[resource](); }',
  ].join('\n');
  return {
    name: 'prebuilt-views',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/]output[\\/]views\.ts$/ }, () => ({ contents, loader: 'js' }));
    },
  };
}

// The response validators where the client validates (src/api/endpoints.ts and paginate.ts import
// schemas.ts): generated at build time from the zod schemas (scripts/validators.ts), so that a
// command whose responses are valid loads neither zod nor the schemas. Elsewhere (the sandbox, the
// MCP server, auth) schemas.ts is bundled as it is. `schemas` is what the generated module requires
// for the zod schemas on the first body its code rejects: in the package, a file of its own (the
// build's entry chunks/api-schemas.cjs, left external here: bundled in, esbuild would load it and
// zod with the validators); in the binary's one file, schemas.ts itself (a lazy initialiser there).
export async function prebuiltValidators({ schemas = resolve('src/api/schemas.ts'), external = false } = {}) {
  const { validatorsModule } = await importBundled('scripts/validators.ts');
  const api = resolve('src/api');
  const contents = validatorsModule({
    exactChecks: join(api, 'exact-checks.ts'),
    unlisted: join(api, 'unlisted.ts'),
    schemas,
  });
  return {
    name: 'prebuilt-validators',
    setup(b) {
      b.onResolve({ filter: /^\.\/schemas\.js$/ }, (args) =>
        /[\\/]src[\\/]api[\\/](endpoints|paginate)\.ts$/.test(args.importer)
          ? { path: 'validators', namespace: 'mtg-validators' }
          : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'mtg-validators' }, () => ({
        contents,
        resolveDir: api,
        loader: 'js',
      }));
      if (external)
        b.onResolve({ filter: /^\.\/api-schemas\.cjs$/ }, (args) => ({ path: args.path, external: true }));
    },
  };
}

// A regular expression literal, its body and its flags (a class may hold a '/'). In our sources a
// division never holds the `\p{` that explicitUnicodeProperties looks for.
export const REGEX_LITERAL = /\/((?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n[])+)\/([dgimsuyv]*)/g;

/**
 * A source file's regular expression literals with their Unicode property escapes (`\p{L}`,
 * `\p{sc=Han}`) written out as the code point ranges they stand for, computed by `node` (its ICU):
 * in literals with the u flag and neither i nor v, and no `\P{`, each class that is not negated and
 * holds a property, and each property outside a class, become one class of sorted ranges.
 */
export function unicodePropertiesWrittenOut(node) {
  const sets = new Map();
  /** The class (`[...]` or a lone `\p{...}`) as sorted ranges, from `node`'s own matching. */
  const explicit = (source) => {
    if (!sets.has(source)) {
      const script = `const re = new RegExp('^(?:' + process.argv[1] + ')$', 'u');
const esc = (c) => '\\\\u{' + c.toString(16) + '}';
let out = '', start = -1;
for (let cp = 0; cp <= 0x110000; cp++) {
  const hit = cp <= 0x10ffff && re.test(String.fromCodePoint(cp));
  if (hit && start < 0) start = cp;
  if (!hit && start >= 0) { out += start === cp - 1 ? esc(start) : esc(start) + '-' + esc(cp - 1); start = -1; }
}
process.stdout.write('[' + out + ']');`;
      sets.set(source, execFileSync(node, ['-e', script, source], { encoding: 'utf8' }));
    }
    return sets.get(source);
  };
  const rewrite = (body) => {
    let out = '';
    for (let i = 0; i < body.length; ) {
      if (body.startsWith('\\p{', i)) {
        const end = body.indexOf('}', i) + 1;
        out += explicit(body.slice(i, end));
        i = end;
      } else if (body[i] === '\\') {
        out += body.slice(i, i + 2);
        i += 2;
      } else if (body[i] === '[') {
        let end = i + 1;
        while (end < body.length && body[end] !== ']') end += body[end] === '\\' ? 2 : 1;
        const cls = body.slice(i, end + 1);
        out += cls.includes('\\p{') && !cls.startsWith('[^') ? explicit(cls) : cls;
        i = end + 1;
      } else out += body[i++];
    }
    return out;
  };
  return (text) =>
    text.replace(REGEX_LITERAL, (literal, body, flags) =>
      body.includes('\\p{') && flags.includes('u') && !/[iv]/.test(flags) && !body.includes('\\P{')
        ? `/${rewrite(body)}/${flags}`
        : literal,
    );
}

/**
 * The binary's regular expressions with their Unicode property escapes written out
 * (unicodePropertiesWrittenOut) by `node`, the node the binary is built from, so the sets are the
 * ones it would build. V8 builds a property's set from ICU's tables, and merges the sets of a class,
 * each time it parses a literal: when the literal is created and again when it first runs (find
 * parsed 12 such properties at every start: ~10 M instructions and ~300 page faults). Our own
 * sources (src/) only.
 */
export function explicitUnicodeProperties(node) {
  const writeOut = unicodePropertiesWrittenOut(node);
  return {
    name: 'explicit-unicode-properties',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        return text.includes('\\p{') ? { contents: writeOut(text), loader: 'ts' } : undefined;
      });
    },
  };
}
