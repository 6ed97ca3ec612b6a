# Sourced by scripts/node-lines.sh and scripts/binary-check.sh. With MTG_CI_GATE set (a file path),
# .ci/run starts them early, so their installs and builds overlap its own steps, and lets their tests
# begin once its own build is done, beside its suite: wait_for_gate waits (bounded: an hour; CI's whole run has
# 90 minutes) for that file to say "go", and fails on "stop" (the run failed before its tests) or
# when the process that would write it has ended. Without MTG_CI_GATE it returns at once.
ci_gate_caller=$PPID
wait_for_gate() {
  [ -n "${MTG_CI_GATE:-}" ] || return 0
  local _
  for _ in $(seq 3600); do
    case "$(cat "$MTG_CI_GATE" 2>/dev/null)" in
      go) return 0 ;;
      stop) echo "stopped before the tests: the run failed earlier"; return 1 ;;
    esac
    kill -0 "$ci_gate_caller" 2>/dev/null || { echo "stopped before the tests: the caller ended"; return 1; }
    sleep 1
  done
  echo "stopped before the tests: no go within an hour"
  return 1
}
