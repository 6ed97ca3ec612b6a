// The end of .ci/run's output says what failed, because the end is what a CI page shows first:
// for each vitest run given as REPORT=STATUS[=LOG], the failed tests and files (from vitest's
// JSON report) and, for a run that exited non-zero with every test passing, the lines of its log
// that say why (a temp-folder leak, an unhandled error, a failed hook). Prints nothing when all passed.
// Usage: node scripts/ci-digest.mjs .tmp/vitest-report.json=1=.tmp/vitest-main.log ...
import { existsSync, readFileSync } from 'node:fs';

const WHY = /left \d+ item|Unhandled|error during close|Error:|ERR_|failed|Timed out|timeout/i;
const plain = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');
const out = [];

for (const arg of process.argv.slice(2)) {
  const [report, status, log] = arg.split('=');
  if (Number(status) === 0) continue;
  out.push(`${report}: exit ${status}`);
  let failedSomething = false;
  try {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    for (const file of r.testResults ?? []) {
      const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
      for (const a of failed) {
        failedSomething = true;
        const first = plain(String(a.failureMessages?.[0] ?? '')).split('\n')[0];
        out.push(`  ✗ ${file.name.replace(process.cwd() + '/', '')} > ${a.fullName}: ${first}`);
      }
      if (file.status === 'failed' && failed.length === 0) {
        failedSomething = true;
        const first = plain(String(file.message ?? ''))
          .split('\n')
          .slice(0, 3)
          .join(' | ');
        out.push(`  ✗ ${file.name.replace(process.cwd() + '/', '')} (the file, not a test): ${first}`);
      }
    }
  } catch (err) {
    out.push(`  no readable report (${err.message.split('\n')[0]})`);
  }
  if (!failedSomething && log && existsSync(log)) {
    const lines = plain(readFileSync(log, 'utf8'))
      .split('\n')
      .filter((l) => WHY.test(l) && !/✓/.test(l));
    out.push('  every test passed; what its log says:');
    for (const l of lines.slice(-15)) out.push(`    ${l.trim().slice(0, 300)}`);
  }
}

if (out.length) console.log(`\n== what failed\n${out.join('\n')}`);
