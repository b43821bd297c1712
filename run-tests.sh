#!/usr/bin/env bash
# Installs what is missing, builds Strata, and runs every test through ctest.
#   STRATA_SANITIZE=1 ./run-tests.sh   builds into build-asan with ASan and UBSan.
set -euo pipefail
cd "$(dirname "$0")"
./install-deps.sh
# Share compiler cache hits between clones of the repository.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
if [[ "${STRATA_SANITIZE:-0}" == 1 ]]; then
  dir=build-asan
  extra=(-DSTRATA_SANITIZE=ON)
else
  dir=build
  extra=()
fi
# Warnings are errors here (CI and developers); a plain `cmake` build leaves them warnings.
cmake -S . -B "$dir" -G Ninja -DSTRATA_WERROR=ON "${extra[@]}"
cmake --build "$dir"
ctest --test-dir "$dir" --output-on-failure -j2 --timeout 300
