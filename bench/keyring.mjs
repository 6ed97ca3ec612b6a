// The cost of a key kept in the OS credential store (issue #24): the start-up of a one-page API
// command whose key comes from the Secret Service, beside the same command given MTG_API_KEY (which
// never touches the store) and the same with the key in the config file and no session bus (the
// fallback, no store asked). Also the library's own load and call cost, in process.
//
//   npm run build && node bench/keyring.mjs        (BENCH_QUICK=1: one round, a smoke test)
//
// It starts its own private session bus and an unlocked GNOME Keyring in a throw-away home
// (dbus-run-session, gnome-keyring-daemon): never the keyring of the machine's user. Without them
// it says so and exits 0. Medians of interleaved rounds (the order rotates each round); wall time
// from spawn to exit. It prints figures and never fails on them.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin', 'mtg.js');
const QUICK = process.env.BENCH_QUICK === '1';
const ROUNDS = QUICK ? 1 : 15;

if (!process.env.MTG_BENCH_PRIVATE_BUS) {
  // Outer run: start the private bus and keyring, then run this script again inside it.
  const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter(
    (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0,
  );
  if (missing.length > 0) {
    console.log(`keyring bench skipped: ${missing.join(' and ')} not installed (Debian: dbus gnome-keyring)`);
    process.exit(0);
  }
  if (!existsSync(join(ROOT, 'dist', 'mtg.cjs'))) {
    console.error('build first: npm run build');
    process.exit(1);
  }
  const home = mkdtempSync(join(tmpdir(), 'mtg-bench-keyring-'));
  const inner = spawnSync(
    'dbus-run-session',
    [
      '--',
      'sh',
      '-c',
      'eval "$(printf pw | gnome-keyring-daemon --unlock --components=secrets)"; exec "$0" "$1"',
      process.execPath,
      fileURLToPath(import.meta.url),
    ],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, HOME: home, XDG_DATA_HOME: join(home, 'data'), MTG_BENCH_PRIVATE_BUS: '1' },
    },
  );
  rmSync(home, { recursive: true, force: true });
  process.exit(inner.status ?? 1);
}

// Inner run, on the private bus.
const home = process.env.HOME;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => `${ms.toFixed(0)} ms`;

function run(args, env, input) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: performance.now() - started, code, stderr }));
    child.stdin.end(input ?? '');
  });
}

// The sandbox, in its own process.
const sandbox = spawn(process.execPath, [BIN, 'sandbox', '--json', '--port', '0', '--limits', 'none'], {
  env: { PATH: process.env.PATH, HOME: home, MTG_CONFIG_DIR: join(home, 'sandbox-config') },
  stdio: ['ignore', 'pipe', 'ignore'],
});
const info = await new Promise((resolve) => {
  let out = '';
  sandbox.stdout.setEncoding('utf8').on('data', (d) => {
    out += d;
    if (out.includes('\n')) resolve(JSON.parse(out));
  });
});

const base = { PATH: process.env.PATH, HOME: home, MTG_BASE_URL: info.baseUrl };
const bus = { DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS };
const storeDir = join(home, 'config-store');
const fileDir = join(home, 'config-file');
const login = await run([BIN, 'auth', 'login'], { ...base, ...bus, MTG_CONFIG_DIR: storeDir }, info.apiKey);
const loginFile = await run(
  [BIN, 'auth', 'login', '--insecure-storage'],
  { ...base, MTG_CONFIG_DIR: fileDir },
  info.apiKey,
);
if (login.code !== 0 || !/Secret Service/.test(login.stderr) || loginFile.code !== 0) {
  console.error(`login failed:\n${login.stderr}\n${loginFile.stderr}`);
  sandbox.kill();
  process.exit(1);
}

const command = [BIN, 'people', 'list', '--limit', '1', '--json'];
const cases = [
  ['node -e ""', ['-e', ''], base],
  [
    'MTG_API_KEY (store never asked)',
    command,
    { ...base, ...bus, MTG_CONFIG_DIR: storeDir, MTG_API_KEY: info.apiKey },
  ],
  ['key in the Secret Service', command, { ...base, ...bus, MTG_CONFIG_DIR: storeDir }],
  ['key in the config file, no session bus', command, { ...base, MTG_CONFIG_DIR: fileDir }],
];
const times = cases.map(() => []);
for (const [, args, env] of cases) await run(args, env); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < cases.length; k++) {
    const i = (k + round) % cases.length;
    const r = await run(cases[i][1], cases[i][2]);
    if (r.code !== 0) throw new Error(`${cases[i][0]} failed: ${r.stderr}`);
    times[i].push(r.ms);
  }
}
sandbox.kill();

// The library in process: load, open the entry (the D-Bus handshake), read the key.
const probe = spawnSync(
  process.execPath,
  [
    '-e',
    `const t0 = performance.now();
     const { Entry } = require(${JSON.stringify(createRequire(import.meta.url).resolve('@napi-rs/keyring'))});
     const t1 = performance.now();
     const e = new Entry('mtg', 'default', { linux: { store: 'secret-service' } });
     const t2 = performance.now();
     e.getPassword();
     const t3 = performance.now();
     console.log(JSON.stringify({ load: t1 - t0, open: t2 - t1, get: t3 - t2 }));`,
  ],
  { env: { ...base, ...bus }, encoding: 'utf8' },
);
const lib = JSON.parse(probe.stdout);

const baseline = median(times[1]);
console.log(
  `keyring bench: \`mtg people list --limit 1 --json\`, median of ${ROUNDS} interleaved rounds${QUICK ? ' (BENCH_QUICK: not figures to quote)' : ''}`,
);
for (const [i, [name]] of cases.entries()) {
  const m = median(times[i]);
  const spread = `${fmt(Math.min(...times[i]))}-${fmt(Math.max(...times[i]))}`;
  const vs =
    i === 0
      ? ''
      : `  ${(m / baseline).toFixed(2)}x MTG_API_KEY, ${m >= baseline ? '+' : '-'}${fmt(Math.abs(m - baseline))}`;
  console.log(`  ${name.padEnd(40)} ${fmt(m).padStart(7)}  (${spread})${vs}`);
}
console.log(
  `  @napi-rs/keyring in process (one run): load ${fmt(lib.load)}, open the Secret Service ${fmt(lib.open)}, read ${fmt(lib.get)}`,
);
