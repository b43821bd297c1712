#!/usr/bin/env bash
# Installs what is missing, builds Strata, and runs the router in the foreground until Ctrl-C.
#
# strata-rtrmgr reads examples/strata.conf (two virtual routers, red and blue, exchanging routes
# by BGP over 127.0.0.2/127.0.0.3 port 1179, no kernel routes), starts the Finder,
# the FEA, a RIB and a BGP speaker per VR, and configures them. From another shell:
#   STRATA_RUN_DIR=/tmp/strata-run build/bin/strata-sh                    (interactive)
#   STRATA_RUN_DIR=/tmp/strata-run build/bin/strata-sh -c "show route"
# Ctrl-C stops every process. See docs/operator-guide.md.
set -euo pipefail
cd "$(dirname "$0")"
./install-deps.sh
cmake -S . -B build -G Ninja >/dev/null
cmake --build build
run_dir="${STRATA_RUN_DIR:-/tmp/strata-run}"
mkdir -p "$run_dir"
export STRATA_RUN_DIR="$run_dir"
config="${1:-examples/strata.conf}"
if [[ ! -x build/bin/strata-bgp ]]; then
  echo "*** strata-bgp is not built: running the example WITHOUT BGP (examples/strata-statics.conf)."
  echo "*** The VRs get their static routes only; 'show bgp ...' will find no speaker."
  config=examples/strata-statics.conf
fi
build/bin/strata-rtrmgr --check "$config"
echo
echo "Strata is starting (STRATA_RUN_DIR=$run_dir, config $config). From another shell:"
echo "  STRATA_RUN_DIR=$run_dir build/bin/strata-sh"
echo "  STRATA_RUN_DIR=$run_dir build/bin/strata-sh -c 'show processes'"
echo "  STRATA_RUN_DIR=$run_dir build/bin/strata-sh -c 'show route'"
echo "  STRATA_RUN_DIR=$run_dir build/bin/strata-sh -c 'show bgp summary'"
echo "Ctrl-C stops everything."
exec build/bin/strata-rtrmgr -c "$config" --no-kernel --state-dir "$run_dir/state"
