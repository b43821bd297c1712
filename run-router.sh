#!/usr/bin/env bash
# Installs what is missing, builds Strata, and runs it in the foreground until Ctrl-C.
#
# Today this starts the IPC layer the rest of the router is built on: strata-finder and a demo
# component (strata-test-target) that answers strata-call; the processes log to stderr. From
# another shell:
#   build/bin/strata-call -l test
#   build/bin/strata-call 'finder://test/test/1.0/add?a:u32=1&b:u32=2'
# (with STRATA_RUN_DIR set as printed below).
set -euo pipefail
cd "$(dirname "$0")"
./install-deps.sh
cmake -S . -B build -G Ninja >/dev/null
cmake --build build
run_dir="${STRATA_RUN_DIR:-/tmp/strata-run}"
mkdir -p "$run_dir"
export STRATA_RUN_DIR="$run_dir"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM
build/bin/strata-finder & pids+=($!)
for _ in $(seq 100); do [[ -S "$run_dir/finder.sock" ]] && break; sleep 0.05; done
build/bin/strata-test-target -n test & pids+=($!)
for _ in $(seq 100); do build/bin/strata-call finder://test/test/1.0/ping >/dev/null 2>&1 && break; sleep 0.05; done
echo
echo "Strata is running (STRATA_RUN_DIR=$run_dir). Try, from another shell:"
echo "  STRATA_RUN_DIR=$run_dir build/bin/strata-call -l test"
echo "  STRATA_RUN_DIR=$run_dir build/bin/strata-call 'finder://test/test/1.0/add?a:u32=1&b:u32=2'"
echo "Here it answers:"
build/bin/strata-call 'finder://test/test/1.0/add?a:u32=1&b:u32=2'
build/bin/strata-call -j 'finder://finder/finder/1.0/list_targets'
echo "Ctrl-C stops everything."
wait
