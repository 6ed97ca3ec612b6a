#!/usr/bin/env bash
# CI's check of the standalone binary (.ci/run, beside the main suite): build it (`npm run
# build:binary`), run the tests that start mtg as a process with it (MTG_TEST_BIN: test/helpers/cli.ts
# runs the binary instead of node bin/mtg.js; the credential-store tests on a private bus too, when
# dbus and gnome-keyring are there), then use it where no node exists at all: an empty environment
# whose PATH leads nowhere, `mtg sandbox` of the binary itself, a sync and a find.
#
#   scripts/binary-check.sh     reports: $MTG_BINARY_REPORTS (default .tmp/) vitest-binary*.json
#
# With MTG_CI_GATE (scripts/ci-gate.sh), .ci/run starts it early: it builds, then waits for the go.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 1
reports="${MTG_BINARY_REPORTS:-$repo/.tmp}"
mkdir -p "$reports"
rm -f "$reports"/vitest-binary*.json
# The tests of real processes (the in-process tests never start mtg, so the binary changes nothing
# for them).
BINARY_TESTS=(test/e2e/prebuilt-views.test.ts test/e2e/mcp.test.ts test/e2e/sync-killed.test.ts
  test/e2e/sync-lock.test.ts test/e2e/read-during-sync.test.ts test/e2e/watch-stream.test.ts
  test/e2e/interrupts.test.ts test/e2e/checkpoint-resume.test.ts test/e2e/config-processes.test.ts
  test/e2e/keychain-helper.test.ts test/e2e/export-killed.test.ts test/e2e/dev-stdout.test.ts)
status=0
t0=$(date +%s)

npm run --silent build:binary || { echo "build:binary failed"; exit 1; }
bin="$repo/dist-binary/mtg"
echo "built in $(($(date +%s) - t0))s: $(du -h "$bin" | cut -f1)"
# shellcheck source=scripts/ci-gate.sh
source "$repo/scripts/ci-gate.sh"
t1=$(date +%s)
wait_for_gate || exit 1
[ -z "${MTG_CI_GATE:-}" ] || echo "waited $(($(date +%s) - t1))s for the go"

MTG_TEST_BIN="$bin" npx vitest run "${BINARY_TESTS[@]}" --reporter=dot --reporter=json \
  --outputFile="$reports/vitest-binary.json" || status=1
if command -v dbus-run-session >/dev/null && command -v gnome-keyring-daemon >/dev/null; then
  MTG_TEST_BIN="$bin" sh test/keyring/run-private-bus.sh --reporter=dot --reporter=json \
    --outputFile="$reports/vitest-binary-keyring.json" || status=1
fi

# No node anywhere: an empty environment, PATH a folder that does not exist.
work=$(mktemp -d "${TMPDIR:-/tmp}/mtg-binary.XXXXXX")
sandbox_pid=""
cleanup() { [ -n "$sandbox_pid" ] && kill "$sandbox_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
bare() { env -i PATH=/nonexistent HOME="$work" MTG_CONFIG_DIR="$work/config" MTG_DATA_DIR="$work/data" "$@"; }
smoke() {
  set -e
  version=$(bare "$bin" --version)
  [ "$version" = "$(node -p 'require("./package.json").version')" ] || { echo "--version: $version"; return 1; }
  # exec: $! is the sandbox itself, not a shell around it. smoke runs in a subshell, so its own
  # EXIT trap stops the sandbox (the script's cleanup never saw this sandbox_pid: it was left running).
  (exec env -i PATH=/nonexistent HOME="$work" MTG_CONFIG_DIR="$work/config" MTG_DATA_DIR="$work/data" \
    "$bin" sandbox --json --limits none) >"$work/sandbox.json" 2>"$work/sandbox.err" &
  sandbox_pid=$!
  trap 'kill "$sandbox_pid" 2>/dev/null' EXIT
  for _ in $(seq 50); do [ -s "$work/sandbox.json" ] && break; sleep 0.2; done
  url=$(node -p "require('$work/sandbox.json').baseUrl")
  key=$(node -p "require('$work/sandbox.json').apiKey")
  bare MTG_BASE_URL="$url" MTG_API_KEY="$key" "$bin" sync >/dev/null
  hits=$(bare "$bin" find roadmap --json | node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).length')
  [ "$hits" -gt 0 ] || { echo "find found nothing after sync"; return 1; }
  bare MTG_BASE_URL="$url" MTG_API_KEY="$key" "$bin" people list --limit 2 --jq '.[0].id' >/dev/null
  echo "no node on PATH: --version, sandbox, sync, find ($hits hits), --jq: ok"
}
(smoke) || { echo "smoke test without node failed"; cat "$work/sandbox.err" 2>/dev/null; status=1; }
echo "binary check: $([ $status -eq 0 ] && echo passed || echo FAILED) in $(($(date +%s) - t0))s"
exit $status
