// The end of .ci/run's output says what failed, because the end is what a CI page shows first:
// for each vitest run given as REPORT=STATUS[=LOG], the failed tests and files (from vitest's
// JSON report) and, for a run that exited non-zero with no failed test in its report (or none), the
// lines of its log that say why (a temp-folder leak, an unhandled error, a failed hook, npm ci).
// Prints nothing when all passed, and each line as it goes: nothing here can hide the closing line.
// Usage: node scripts/ci-digest.mjs .tmp/vitest-report.json=1=.tmp/vitest-main.log ...
import { readFileSync } from 'node:fs';

const WHY = /left \d+ item|Unhandled|error during close|Error:|ERR_|failed|Timed out|timeout/i;
const plain = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');
const relative = (name) => String(name).replace(`${process.cwd()}/`, '');
let headed = false;
const say = (line) => {
  if (!headed) console.log('\n== what failed');
  headed = true;
  console.log(line);
};

for (const arg of process.argv.slice(2)) {
  const [report, status, log] = arg.split('=');
  if (Number(status) === 0) continue;
  say(`${report}: exit ${status}`);
  let named = 0;
  let read = false;
  try {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    for (const file of r.testResults ?? []) {
      const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
      for (const a of failed) {
        named++;
        const first = plain(String(a.failureMessages?.[0] ?? '')).split('\n')[0];
        say(`  ✗ ${relative(file.name)} > ${a.fullName}: ${first}`);
      }
      if (file.status === 'failed' && failed.length === 0) {
        named++;
        const first = plain(String(file.message ?? ''))
          .split('\n')
          .slice(0, 3)
          .join(' | ');
        say(`  ✗ ${relative(file.name)} (the file, not a test): ${first}`);
      }
    }
    read = true;
  } catch (err) {
    say(`  no readable report (${String(err?.message ?? err).split('\n')[0]})`);
  }
  if (named > 0 || !log) continue;
  try {
    const lines = plain(readFileSync(log, 'utf8'))
      .split('\n')
      .filter((l) => WHY.test(l) && !/✓/.test(l));
    say(read ? '  every test in its report passed; what its log says:' : '  what its log says:');
    for (const l of lines.slice(-15)) say(`    ${l.trim().slice(0, 300)}`);
  } catch (err) {
    say(`  no readable log (${String(err?.message ?? err).split('\n')[0]})`);
  }
}
