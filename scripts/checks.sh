#!/usr/bin/env bash
# npm test's static checks (types, lint, dependency rules) at once: one after the other they took about a minute, and
# most of it one core. Each one's output is shown only when it fails, whole, as it would read alone.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
checks=(check:types lint check:dependencies)
pids=()
for check in "${checks[@]}"; do
  npm run "$check" --silent >"$logs/$check" 2>&1 &
  pids+=($!)
done
failed=0
for i in "${!checks[@]}"; do
  if ! wait "${pids[$i]}"; then
    failed=1
    echo "npm run ${checks[$i]} failed:" >&2
    cat "$logs/${checks[$i]}" >&2
  fi
done
exit "$failed"
