#!/usr/bin/env bash
# Builds the libFuzzer harnesses (clang, ASan, UBSan) into build-fuzz, writes their seed corpora,
# and runs each harness for SECONDS (default 60) on its corpus. Exits non-zero on any finding:
# a crash, leak, sanitizer report, failed property, timeout or out-of-memory; the input that
# caused it is left in build-fuzz/findings/HARNESS/ and the log in build-fuzz/logs/HARNESS.log.
#   fuzz/run.sh 30                 CI: every harness for 30 s
#   fuzz/run.sh 3600 bgp_message   a long run of one harness
#   JOBS=2 fuzz/run.sh 600         two libFuzzer processes per harness
# The corpora grow across runs in build-fuzz/corpus/HARNESS (kept: a long run builds on the last).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
harnesses=("$@")
((${#harnesses[@]})) || harnesses=(bgp_message xrl frame netlink config bfd_packet)
dir=build-fuzz
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
CXX=clang++ CC=clang cmake -S . -B "$dir" -G Ninja -DSTRATA_FUZZ=ON -DSTRATA_WERROR=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$dir" --target fuzzers
"$dir/fuzz/strata-fuzz-seeds" "$dir/seeds"
mkdir -p "$dir/seeds/config"
for f in examples/*.conf rtrmgr/config/testdata/bad/*; do
  [[ -f $f ]] && cp "$f" "$dir/seeds/config/$(echo "$f" | tr / _)"
done
status=0
for h in "${harnesses[@]}"; do
  mkdir -p "$dir/corpus/$h" "$dir/findings/$h" "$dir/logs"
  flags=()
  [[ -f fuzz/dict/$h.dict ]] && flags+=(-dict="fuzz/dict/$h.dict")
  # Parallel runs write one fuzz-N.log per worker in the working directory: run them in logs/.
  ((${JOBS:-1} > 1)) && flags+=(-jobs="$JOBS" -workers="$JOBS")
  echo "== $h: ${seconds}s"
  if ! "$dir/fuzz/${h}_fuzzer" "$dir/corpus/$h" "$dir/seeds/$h" "${flags[@]}" \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
      -print_final_stats=1 \
      -artifact_prefix="$dir/findings/$h/" >"$dir/logs/$h.log" 2>&1; then
    echo "FINDING in $h (log: $dir/logs/$h.log, inputs: $dir/findings/$h/)"
    tail -40 "$dir/logs/$h.log"
    status=1
  fi
  grep -E "stat::number_of_executed_units|cov: " "$dir/logs/$h.log" | tail -2 || true
done
exit $status
