// API keys in the OS credential store (cli-contract.md, "Keys in the credential store"): the macOS
// Keychain, Windows Credential Manager, the Secret Service on Linux; service "mtg", one entry
// (account) per profile, through @napi-rs/keyring.
//
// Every call runs in a short-lived child node process that this process can kill. The library's
// calls block the thread they run on, without a bound: opening the Secret Service does the D-Bus
// handshake synchronously in the constructor (a bus that accepts and never answers blocked the
// main thread for good), and an unlock prompt that nobody answers waits "one year". Neither the
// async API (its constructor connects on the calling thread) nor a worker thread helps: node's
// exit joins a worker or libuv thread that is stuck in native code, so process.exit() hung too.
// A child costs about one bare node start (bench/keyring.mjs) and only commands that read a
// stored key pay it: a key given by --api-key or MTG_API_KEY never reaches this module.
//
// On Linux the entry is pinned to the Secret Service: the library's default silently falls back
// to the kernel keyring, which does not survive a reboot (a key stored there is lost).

import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ExitCode, InterruptedError, MtgError } from '../shared/errors.js';

export const SERVICE = 'mtg';
/** "Within a few seconds": a store that takes longer is taken as not answering. */
export const STORE_TIMEOUT_MS = 5_000;

/** Where the key in use came from, as `auth status` names it. */
export type KeySource = 'flag' | 'env' | 'keychain' | 'config file' | 'none';

/** The store's answer, or why there is no store here (then keys live in the config file). */
export type StoreAnswer<T> = { value: T } | { unavailable: string };

export interface CredentialStore {
  /** For messages: "the macOS Keychain", "the Secret Service". */
  readonly name: string;
  get(profile: string): Promise<StoreAnswer<string | undefined>>;
  set(profile: string, key: string): Promise<StoreAnswer<true>>;
  /** True when an entry was removed. */
  remove(profile: string): Promise<StoreAnswer<boolean>>;
}

// The child's whole program (CommonJS, run with `node -e`): open the entry, do one operation, write
// one JSON line. The key to store comes on stdin, never in argv (visible in `ps`).
const HELPER = `(() => {
  const [, modulePath, op, service, account] = process.argv;
  const reply = (o) => process.stdout.write(JSON.stringify(o));
  let Entry;
  try {
    ({ Entry } = require(modulePath));
  } catch (err) {
    return reply({ stage: 'load', error: String(err && err.message) });
  }
  let entry;
  try {
    entry = new Entry(service, account, { linux: { store: 'secret-service' } });
  } catch (err) {
    return reply({ stage: 'open', error: String(err && err.message) });
  }
  try {
    if (op === 'get') reply({ value: entry.getPassword() });
    else if (op === 'set') {
      entry.setPassword(require('fs').readFileSync(0, 'utf8'));
      reply({ value: true });
    } else reply({ value: entry.deletePassword() });
  } catch (err) {
    reply({ stage: 'op', error: String(err && err.message) });
  }
})();`;

type HelperReply = { value: unknown } | { stage: 'load' | 'open' | 'op'; error: string };

/** Names the helper may see: what the stores need to be found, never MTG_* (MTG_API_KEY holds a key). */
const HELPER_ENV =
  /^(PATH|HOME|USER|LOGNAME|TMPDIR|LANG|LC_[A-Z]+|DBUS_SESSION_BUS_ADDRESS|XDG_RUNTIME_DIR|NAPI_RS_[A-Z_]+|SYSTEMROOT|WINDIR|USERPROFILE|USERNAME|USERDOMAIN|APPDATA|LOCALAPPDATA|TEMP|TMP|PATHEXT|COMSPEC)$/i;

/**
 * The helper's environment: the bus, home and system folders it needs (Linux: the session bus;
 * macOS: HOME, USER, TMPDIR for the login keychain; Windows: the profile and system folders), and
 * NAPI_RS_* (where the native part is, for packagers). Nothing else: no key, no NODE_OPTIONS hooks.
 */
export function helperEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && HELPER_ENV.test(name) && !/^MTG_/i.test(name)) out[name] = value;
  }
  return out;
}

function storeName(): string {
  if (process.platform === 'darwin') return 'the macOS Keychain';
  if (process.platform === 'win32') return 'Windows Credential Manager';
  return 'the Secret Service';
}

/** Where the store was looked for, for an error: the bus address matters when it hangs. */
function storeWhere(env: NodeJS.ProcessEnv): string {
  if (process.platform === 'darwin' || process.platform === 'win32') return '';
  const bus = env.DBUS_SESSION_BUS_ADDRESS?.split(',')[0];
  return ` (on the D-Bus session bus${bus ? ` at ${bus}` : ''})`;
}

function unlockAdvice(): string {
  if (process.platform === 'darwin') return 'unlock it with `security unlock-keychain`';
  if (process.platform === 'win32') return 'sign in to Windows again';
  return 'unlock it by logging in to the desktop session, or on a headless box with `gnome-keyring-daemon --unlock` (the keyring password on stdin)';
}

const OR_ELSE = 'or give the key in MTG_API_KEY';

/** libdbus finds the session bus in DBUS_SESSION_BUS_ADDRESS, else at $XDG_RUNTIME_DIR/bus. */
function sessionBus(env: NodeJS.ProcessEnv): boolean {
  if (env.DBUS_SESSION_BUS_ADDRESS) return true;
  if (!env.XDG_RUNTIME_DIR) return false;
  try {
    return statSync(join(env.XDG_RUNTIME_DIR, 'bus')).isSocket();
  } catch {
    return false;
  }
}

/** A Linux bus without a Secret Service, or no bus at all: there is no store, not a broken one. */
const NO_SECRET_SERVICE =
  /ServiceUnknown|not provided by any \.service|autolaunch|Failed to connect to socket|No such file or directory|Connection refused|Unable to autolaunch/i;
/** keyring's NoStorageAccess (a locked keychain or collection, a dismissed unlock prompt). */
const LOCKED = /Couldn't access platform storage|locked|prompt was dismissed/i;

/** The credential store of this machine, or why there is none (no code is loaded or run here). */
export function credentialStore(
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): CredentialStore | { unavailable: string } {
  const unix = process.platform !== 'darwin' && process.platform !== 'win32';
  // Without a session bus there is no Secret Service: say so without starting a child (CI, containers).
  if (unix && !sessionBus(env))
    return { unavailable: 'no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)' };
  let modulePath: string;
  try {
    modulePath = createRequire(import.meta.url).resolve('@napi-rs/keyring');
  } catch {
    return { unavailable: 'the @napi-rs/keyring module is not installed' };
  }
  const name = storeName();
  const call = async <T>(
    op: 'get' | 'set' | 'delete',
    profile: string,
    input?: string,
  ): Promise<StoreAnswer<T>> => {
    const reply = await runHelper(modulePath, op, profile, input, env, name + storeWhere(env), signal);
    if ('value' in reply) return { value: reply.value as T };
    const message = reply.error.split('\n')[0]!;
    // The JS part is there but its native binary is not (installed with --omit=optional, another
    // platform's node_modules): no store here, as when the module is missing.
    if (reply.stage === 'load') {
      return { unavailable: `the @napi-rs/keyring module cannot be loaded (${message})` };
    }
    if (reply.stage === 'open' && unix && NO_SECRET_SERVICE.test(message)) {
      return { unavailable: `no Secret Service on the session bus (${message})` };
    }
    if (LOCKED.test(message)) {
      throw new MtgError(
        `${capitalized(name)} is locked (${message}): ${unlockAdvice()}, ${OR_ELSE}`,
        ExitCode.api,
      );
    }
    throw new MtgError(`${capitalized(name)} failed: ${message}`, ExitCode.api);
  };
  return {
    name,
    get: async (profile) => {
      const answer = await call<string | null>('get', profile);
      return 'value' in answer ? { value: answer.value ?? undefined } : answer;
    },
    set: (profile, key) => call<true>('set', profile, key),
    remove: (profile) => call<boolean>('delete', profile),
  };
}

const capitalized = (text: string) => text[0]!.toUpperCase() + text.slice(1);

/** One operation in a child that is killed when it outlives STORE_TIMEOUT_MS or the command is interrupted. */
function runHelper(
  modulePath: string,
  op: string,
  profile: string,
  input: string | undefined,
  env: NodeJS.ProcessEnv,
  name: string,
  signal: AbortSignal | undefined,
): Promise<HelperReply> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', HELPER, modulePath, op, SERVICE, profile], {
      env: helperEnv(env),
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    let out = '';
    let err = '';
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(() =>
        reject(
          new MtgError(
            `${capitalized(name)} did not answer within ${STORE_TIMEOUT_MS / 1000} s; nothing was ${op === 'get' ? 'read' : 'changed'}. If it is locked or waiting on a password prompt, ${unlockAdvice()}; ${OR_ELSE}`,
            ExitCode.api,
          ),
        ),
      );
    }, STORE_TIMEOUT_MS);
    const onAbort = () => {
      child.kill('SIGKILL');
      finish(() => reject(new InterruptedError()));
    };
    signal?.addEventListener('abort', onAbort);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    child.on('error', (e) =>
      finish(() => reject(new MtgError(`Cannot ask ${name}: ${e.message}`, ExitCode.api))),
    );
    child.on('close', (code, sig) => {
      finish(() => {
        try {
          resolve(JSON.parse(out) as HelperReply);
        } catch {
          const why = err.trim().split('\n')[0] || (sig ? `signal ${sig}` : `exit code ${code}`);
          reject(new MtgError(`${capitalized(name)} could not be asked: ${why}`, ExitCode.api));
        }
      });
    });
    child.stdin.on('error', () => {
      // The child died before reading the key: its exit is reported above.
    });
    child.stdin.end(input ?? '');
    if (signal?.aborted) onAbort();
  });
}

/**
 * The stored key of a profile, first the credential store, then the config file's `api-key`
 * (a key from before the store, or where there is none). `storeName` is set when a store answered.
 * A store that fails (hangs, is locked) stops the command only when the file has no key: with one
 * it is a warning and the file's key is used (cli-contract.md: a key in the config file keeps working).
 */
export async function storedKey(
  env: NodeJS.ProcessEnv,
  profile: string,
  fileKey: string | undefined,
  signal?: AbortSignal,
  warn: (line: string) => void = () => {},
): Promise<{ key?: string; source: KeySource; storeName?: string }> {
  const fromFile = { key: fileKey, source: fileKey ? ('config file' as const) : ('none' as const) };
  const store = credentialStore(env, signal);
  if ('unavailable' in store) return fromFile;
  let answer: StoreAnswer<string | undefined>;
  try {
    answer = await store.get(profile);
  } catch (err) {
    if (!fileKey || err instanceof InterruptedError || !(err instanceof MtgError)) throw err;
    warn(`mtg: warning: ${err.message.split('; ')[0]}; using the key in the config file`);
    return fromFile;
  }
  if ('unavailable' in answer) return fromFile;
  if (answer.value) return { key: answer.value, source: 'keychain', storeName: store.name };
  return { ...fromFile, storeName: store.name };
}
