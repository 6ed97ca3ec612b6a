// `npm run demo`: a short tour of mtg against a local sandbox. Starts `mtg sandbox --json`, runs the
// main commands one by one (each shown as "$ mtg ..." and then its output), takes real IDs from
// earlier answers, and stops the sandbox. The sandbox runs the Pro plan's limits (20/s, 300/min) so
// that the mirror's first sync takes seconds, not the minutes the Free plan's 20 a minute would.
// Everything happens in a temporary folder (config, mirror and exported files) that is removed at
// the end; nothing is left running.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'mtg.js');
const MAX_LINES = 14; // of each output: enough to see what a command does
const color = process.stdout.isTTY && !process.env.NO_COLOR && process.env.TERM !== 'dumb';
const bold = (s) => (color ? `\u001b[1m${s}\u001b[22m` : s);
const dim = (s) => (color ? `\u001b[2m${s}\u001b[22m` : s);

const work = mkdtempSync(join(tmpdir(), 'mtg-demo-'));
const env = { ...process.env, MTG_CONFIG_DIR: join(work, 'config'), MTG_DATA_DIR: join(work, 'data') };
for (const key of ['MTG_PROFILE', 'MTG_APP_URL', 'MTG_BASE_URL', 'MTG_API_KEY', 'MTG_OFFLINE'])
  delete env[key];
// The tour captures each output to shorten it; keep the colors a terminal would show.
if (color && env.FORCE_COLOR === undefined) env.FORCE_COLOR = '1';
// Its tables are captured too (mtg would fit them to 80 columns): fit them to this terminal, less
// the tour's indent, or to 100 columns when the tour itself is piped.
env.COLUMNS ??= String(Math.max(60, (process.stdout.columns || 102) - 2));

/** Runs mtg with `args`; resolves with its exit code and output. */
function mtg(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env,
      cwd: work,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const shellWord = (w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `"${w.replace(/(["\\$`])/g, '\\$1')}"`);

function show(text, style = (line) => line) {
  const lines = text.replace(/\n$/, '').split('\n');
  for (const line of lines.slice(0, MAX_LINES)) console.log(`  ${style(line)}`);
  if (lines.length > MAX_LINES) console.log(dim(`  … ${lines.length - MAX_LINES} more lines`));
}

/** Data from a file is shown as text: control characters (escape sequences) as their symbols. */
const visible = (line) =>
  line.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) =>
    c === '\u007f' ? '␡' : c < ' ' ? String.fromCharCode(0x2400 + c.charCodeAt(0)) : '�',
  );

let failures = 0;

/** One step of the tour: its title, the command shown and run, and its output. */
async function step(title, args) {
  console.log(`\n${bold(`== ${title}`)}`);
  console.log(bold(`$ mtg ${args.map(shellWord).join(' ')}`));
  const result = await mtg(args);
  if (result.code === 2 && /unknown command/.test(result.stderr)) {
    console.log(dim('  (skipped: this command is not in this build yet)'));
    return undefined;
  }
  if (result.stdout) show(result.stdout);
  if (result.stderr) show(result.stderr, dim);
  if (result.code !== 0) {
    failures++;
    console.log(dim(`  (exit ${result.code})`));
    return undefined;
  }
  return result.stdout;
}

/** An answer as data, for IDs the next steps use (not shown). */
async function json(args) {
  const result = await mtg([...args, '--json', '--quiet']);
  if (result.code !== 0)
    throw new Error(`mtg ${args.join(' ')} failed (exit ${result.code}): ${result.stderr}`);
  return JSON.parse(result.stdout);
}

function startSandbox() {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--json', '--plan', 'Pro'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (text) => resolve(JSON.parse(text)));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`mtg sandbox exited (${code}) before it was listening`)));
  });
  return { child, line };
}

function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function tour() {
  await step('Search meetings', ['meetings', 'search', 'roadmap', '--limit', '3', '--format', 'table']);
  const [meeting] = await json(['meetings', 'search', 'roadmap', '--limit', '1']);

  await step('View one meeting', ['meetings', 'view', meeting.id, '--format', 'table']);

  await step('List action items (a table)', [
    'action-items',
    'list',
    '--assignee',
    'anyone',
    '--status',
    'all',
    '--limit',
    '6',
    '--format',
    'table',
  ]);

  const created = await step('Create an action item', [
    'action-items',
    'create',
    'Send the demo recap',
    '--description',
    'Summary and next steps for the team',
    '--json',
  ]);
  const itemId = created ? JSON.parse(created).id : undefined;

  if (itemId !== undefined) {
    await step('Mark it done', [
      'action-items',
      'update',
      String(itemId),
      '--status',
      'DONE',
      '--format',
      'table',
    ]);
  }

  const tag = await step('Create a tag', ['tags', 'create', `demo-${process.pid}`, '--json']);
  const tagId = tag ? JSON.parse(tag).id : undefined;
  if (tagId !== undefined) {
    await step('Tag the meeting', ['tags', 'apply', String(tagId), meeting.id, '--format', 'table']);
  }

  await step('Share the meeting', [
    'meetings',
    'share',
    meeting.id,
    '--email',
    'alex@example.com',
    '--access',
    'Viewer',
    '--format',
    'table',
  ]);

  await step('Private notes on a calendar event', [
    'calendar',
    'set-notes',
    String(meeting.calendarEvent.id),
    '--notes',
    'Ask about the Q3 budget',
    '--fields',
    'id,name,privateNotes',
    '--format',
    'table',
  ]);

  await step('Read the transcript', ['meetings', 'transcript', meeting.id]);

  const exported = await step('Export to CSV', [
    'action-items',
    'list',
    '--assignee',
    'anyone',
    '--status',
    'all',
    '--format',
    'csv',
    '-o',
    'export.csv',
  ]);
  if (exported !== undefined) {
    console.log(bold('$ head -4 export.csv'));
    show(readFileSync(join(work, 'export.csv'), 'utf8').split('\n').slice(0, 4).join('\n'), visible);
  }

  // The local mirror: one sync, then search, reads and an export that send no request.
  await step('Mirror everything locally', ['sync']);
  await step('Search the mirror (transcripts too)', [
    'find',
    'was the budget approved?',
    '--in',
    'transcript',
    '--limit',
    '3',
    '--format',
    'table',
  ]);
  await step('Read offline (no request sent)', [
    'meetings',
    'list',
    '--offline',
    '--limit',
    '4',
    '--fields',
    'id,name,createdAt',
    '--format',
    'table',
  ]);
  await step('What the last sync changed', [
    'changes',
    '--limit',
    '3',
    '--fields',
    'seq,change,resource,id',
    '--format',
    'tsv',
  ]);
  const vault = await step('Export the meetings as Markdown', ['export', 'markdown', 'vault']);
  if (vault !== undefined) {
    const year = readdirSync(join(work, 'vault'))
      .filter((name) => /^\d{4}$/.test(name))
      .sort()[0];
    const file = year && readdirSync(join(work, 'vault', year)).sort()[0];
    if (file) {
      console.log(bold(`$ head -14 "vault/${year}/${file}"`));
      show(
        readFileSync(join(work, 'vault', year, file), 'utf8')
          .split('\n')
          .slice(0, 14)
          .join('\n'),
        visible,
      );
    }
  }
}

const sandbox = startSandbox();
const onSignal = () => {
  stop(sandbox.child).finally(() => process.exit(130));
};
process.once('SIGINT', onSignal);
process.once('SIGTERM', onSignal);
try {
  const { baseUrl, apiKey, plan } = await sandbox.line;
  env.MTG_BASE_URL = baseUrl;
  env.MTG_API_KEY = apiKey;
  console.log(bold('== mtg demo'));
  console.log(
    `A sandbox (plan ${plan}) is serving the API at ${baseUrl}; MTG_BASE_URL and MTG_API_KEY point at it.`,
  );
  await tour();
  console.log(`\n${bold('== Done')}`);
  if (failures) console.log(`${failures} step(s) failed.`);
  else {
    // From a clone `npm ci` puts no `mtg` on PATH: offer what runs here (`npm link` or
    // `npm install -g .` would put mtg on PATH). Not `npx mtg`: run outside this folder, npx would
    // fetch the registry's `mtg`, someone else's package.
    console.log('Try it yourself from this folder, in two terminals:');
    console.log(`  node bin/mtg.js sandbox       ${dim('# or, after npm link: mtg sandbox')}`);
    console.log(
      `  node bin/mtg.js meetings list ${dim('# after the export line it prints; any command above')}`,
    );
  }
} catch (err) {
  failures++;
  console.error(`demo: ${err instanceof Error ? err.message : err}`);
} finally {
  await stop(sandbox.child);
  rmSync(work, { recursive: true, force: true });
}
process.exitCode = failures ? 1 : 0;
