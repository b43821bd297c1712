#!/usr/bin/env bash
# Strata lab: one Strata router between a BIRD and an FRR speaker, in network namespaces.
#
#   lab.sh up       create the namespaces and links, start BIRD, FRR and strata-rtrmgr
#   lab.sh down     stop every lab process, delete the namespaces and the lab directory
#   lab.sh status   show sessions and routes of all three routers
#   lab.sh check    up, wait until the routes converge, verify them, down (exit 0: all good,
#                   1: a check failed, 77: cannot run here: not root, or bird/FRR missing)
#
# Run as root. Binaries come from $STRATA_BIN_DIR, else <repo>/build/bin. Everything the lab
# creates lives in $STRATA_LAB_DIR (default /tmp/strata-lab) and in the namespaces
# strata-lab-router, strata-lab-bird and strata-lab-frr. See README.md beside this script.
set -u

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "${SCRIPT_DIR}/../.." && pwd)"
readonly SCRIPT_DIR REPO_DIR
readonly BIN_DIR="${STRATA_BIN_DIR:-${REPO_DIR}/build/bin}"
readonly LAB_DIR="${STRATA_LAB_DIR:-/tmp/strata-lab}"
readonly CHECK_TIMEOUT="${STRATA_LAB_TIMEOUT:-40}"  # seconds to wait for convergence

readonly NS_ROUTER=strata-lab-router
readonly NS_BIRD=strata-lab-bird
readonly NS_FRR=strata-lab-frr
readonly ALL_NS=("${NS_ROUTER}" "${NS_BIRD}" "${NS_FRR}")

readonly TABLE_ID=100
readonly BIRD_PREFIX=203.0.113.0/24   # originated by BIRD
readonly FRR_PREFIX=198.51.100.0/24   # originated by FRR
readonly BIRD_ADDR=10.0.1.2
readonly FRR_ADDR=10.0.2.2

readonly FRR_LIB=/usr/lib/frr
readonly SKIP=77

log() { echo "lab: $*" >&2; }

# ---- prerequisites ---------------------------------------------------------------------------

# Returns 77 (skip) if the lab cannot run on this machine, 1 if Strata is not built.
check_prereqs() {
  if [[ "$(id -u)" != 0 ]]; then
    log "must run as root (network namespaces)"
    return "${SKIP}"
  fi
  local tool
  for tool in ip bird birdc vtysh "${FRR_LIB}/zebra" "${FRR_LIB}/bgpd"; do
    if ! command -v "${tool}" >/dev/null 2>&1; then
      log "${tool} not found: install bird2 and frr"
      return "${SKIP}"
    fi
  done
  if ! id frr >/dev/null 2>&1; then
    log "user frr does not exist (zebra runs as frr)"
    return "${SKIP}"
  fi
  local bin
  for bin in strata-rtrmgr strata-finder strata-fea strata-rib strata-bgp strata-sh; do
    if [[ ! -x "${BIN_DIR}/${bin}" ]]; then
      log "${BIN_DIR}/${bin} missing: build Strata or set STRATA_BIN_DIR"
      return 1
    fi
  done
  return 0
}

# ---- helpers ---------------------------------------------------------------------------------

in_ns() {
  local ns="$1"
  shift
  ip netns exec "${ns}" "$@"
}

# Starts a long-running command in a namespace, detached, output to LOG.
spawn() {
  local ns="$1" log="$2"
  shift 2
  setsid ip netns exec "${ns}" "$@" >"${log}" 2>&1 </dev/null &
}

# Polls COMMAND... every 0.2 s until it succeeds or SECONDS pass.
wait_for() {
  local seconds="$1"
  shift
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    ((SECONDS >= deadline)) && return 1
    sleep 0.2
  done
}

strata_sh() { in_ns "${NS_ROUTER}" env STRATA_RUN_DIR="${LAB_DIR}/strata" "${BIN_DIR}/strata-sh" -c "$1"; }
birdc_lab() { birdc -s "${LAB_DIR}/bird/bird.ctl" "$@"; }
vtysh_lab() { vtysh --vty_socket "${LAB_DIR}/frr" -d bgpd -c "$1"; }

ns_exists() { ip netns list | awk '{print $1}' | grep -qx "$1"; }

# ---- up --------------------------------------------------------------------------------------

make_links() {
  local ns
  for ns in "${ALL_NS[@]}"; do
    ip netns add "${ns}" || return 1
    in_ns "${ns}" ip link set lo up || return 1
  done
  in_ns "${NS_ROUTER}" sysctl -qw net.ipv4.ip_forward=1 || return 1
  # veth-bird (router) <-> eth0 (bird), veth-frr (router) <-> eth0 (frr).
  local spec peer_ns name addr peer_addr
  for spec in "${NS_BIRD} veth-bird 10.0.1.1/30 ${BIRD_ADDR}/30" \
              "${NS_FRR} veth-frr 10.0.2.1/30 ${FRR_ADDR}/30"; do
    read -r peer_ns name addr peer_addr <<<"${spec}"
    ip -n "${NS_ROUTER}" link add "${name}" type veth peer name eth0 netns "${peer_ns}" || return 1
    ip -n "${NS_ROUTER}" addr add "${addr}" dev "${name}" || return 1
    ip -n "${NS_ROUTER}" link set "${name}" up || return 1
    ip -n "${peer_ns}" addr add "${peer_addr}" dev eth0 || return 1
    ip -n "${peer_ns}" link set eth0 up || return 1
  done
}

start_bird() {
  local dir="${LAB_DIR}/bird"
  mkdir -p "${dir}"
  sed "s|@DIR@|${dir}|g" "${SCRIPT_DIR}/bird.conf" >"${dir}/bird.conf" || return 1
  spawn "${NS_BIRD}" "${dir}/bird.out" \
    bird -f -c "${dir}/bird.conf" -s "${dir}/bird.ctl" -P "${dir}/bird.pid"
  if ! wait_for 10 birdc_lab show status; then
    log "bird did not start; see ${dir}/bird.out"
    return 1
  fi
}

start_frr() {
  local dir="${LAB_DIR}/frr"
  mkdir -p "${dir}"
  # zebra drops to user frr, so its directory must be writable by frr.
  chown frr:frr "${dir}" && chmod 0777 "${dir}" || return 1
  sed "s|@DIR@|${dir}|g" "${SCRIPT_DIR}/frr.conf" >"${dir}/bgpd.conf" || return 1
  printf 'hostname lab-frr\nlog file %s/zebra.log\n' "${dir}" >"${dir}/zebra.conf"
  spawn "${NS_FRR}" "${dir}/zebra.out" \
    "${FRR_LIB}/zebra" -u frr -g frr -f "${dir}/zebra.conf" -i "${dir}/zebra.pid" \
    --vty_socket "${dir}" -z "${dir}/zserv.api" -P 0
  if ! wait_for 10 test -S "${dir}/zserv.api"; then
    log "zebra did not start; see ${dir}/zebra.out"
    return 1
  fi
  spawn "${NS_FRR}" "${dir}/bgpd.out" \
    "${FRR_LIB}/bgpd" -S -f "${dir}/bgpd.conf" -i "${dir}/bgpd.pid" \
    --vty_socket "${dir}" -z "${dir}/zserv.api" -P 0
  if ! wait_for 10 vtysh_lab "show version"; then
    log "bgpd did not start; see ${dir}/bgpd.out"
    return 1
  fi
}

start_strata() {
  local dir="${LAB_DIR}/strata"
  mkdir -p "${dir}/state" "${dir}/logs"
  spawn "${NS_ROUTER}" "${dir}/rtrmgr.log" \
    env STRATA_RUN_DIR="${dir}" STRATA_BIN_DIR="${BIN_DIR}" "${BIN_DIR}/strata-rtrmgr" \
    -c "${SCRIPT_DIR}/strata-lab.conf" --state-dir "${dir}/state" --log-dir "${dir}/logs"
  if ! wait_for 20 strata_sh "show bgp summary"; then
    log "BGP did not start; see ${dir}/rtrmgr.log and ${dir}/logs/"
    return 1
  fi
}

lab_exists() {
  ns_exists "${NS_ROUTER}" || ns_exists "${NS_BIRD}" || ns_exists "${NS_FRR}" || [[ -e "${LAB_DIR}" ]]
}

do_up() {
  mkdir -p "${LAB_DIR}" && chmod 0755 "${LAB_DIR}" || return 1
  log "creating namespaces and links"
  make_links || { log "cannot create the namespaces and links"; return 1; }
  log "starting BIRD (AS 65010) in ${NS_BIRD}"
  start_bird || return 1
  log "starting FRR (AS 65020) in ${NS_FRR}"
  start_frr || return 1
  log "starting strata-rtrmgr (AS 65001) in ${NS_ROUTER}"
  start_strata || return 1
  log "lab is up in ${LAB_DIR}; try '$0 status'"
}

# ---- down ------------------------------------------------------------------------------------

# Stops every process in the lab namespaces (TERM, then KILL), then deletes the namespaces.
# Works after a partial up: whatever is missing is skipped.
do_down() {
  local ns pids
  for ns in "${ALL_NS[@]}"; do
    ns_exists "${ns}" || continue
    mapfile -t pids < <(ip netns pids "${ns}" 2>/dev/null)
    ((${#pids[@]} > 0)) && kill -TERM "${pids[@]}" 2>/dev/null
  done
  local deadline=$((SECONDS + 5))
  for ns in "${ALL_NS[@]}"; do
    ns_exists "${ns}" || continue
    while [[ -n "$(ip netns pids "${ns}" 2>/dev/null)" ]] && ((SECONDS < deadline)); do
      sleep 0.1
    done
    mapfile -t pids < <(ip netns pids "${ns}" 2>/dev/null)
    ((${#pids[@]} > 0)) && kill -KILL "${pids[@]}" 2>/dev/null
  done
  for ns in "${ALL_NS[@]}"; do
    ns_exists "${ns}" || continue
    # A just-killed process may still hold the namespace for a moment.
    local tries=0
    until ip netns del "${ns}" 2>/dev/null || ((++tries >= 20)); do sleep 0.1; done
    ns_exists "${ns}" && log "could not delete namespace ${ns}"
  done
  rm -rf "${LAB_DIR}"
  log "lab is down"
  ! ns_exists "${NS_ROUTER}" && ! ns_exists "${NS_BIRD}" && ! ns_exists "${NS_FRR}"
}

# ---- status ----------------------------------------------------------------------------------

do_status() {
  if ! ns_exists "${NS_ROUTER}"; then
    log "the lab is not up"
    return 1
  fi
  echo "=== Strata (AS 65001): show bgp summary"
  strata_sh "show bgp summary"
  echo "=== Strata: kernel table ${TABLE_ID} in ${NS_ROUTER}"
  ip -n "${NS_ROUTER}" route show table "${TABLE_ID}"
  echo "=== BIRD (AS 65010): birdc show protocols; show route"
  birdc_lab show protocols
  birdc_lab show route
  echo "=== FRR (AS 65020): show bgp summary; show bgp ipv4 unicast"
  vtysh_lab "show bgp summary"
  vtysh_lab "show bgp ipv4 unicast"
}

# ---- check -----------------------------------------------------------------------------------

# Each probe succeeds once its part of the lab has converged.
kernel_has() {  # PREFIX: in table 100 of the router namespace, installed by Strata (proto 201)
  ip -n "${NS_ROUTER}" route show table "${TABLE_ID}" "$1" proto 201 | grep -Eq "^$1 (nhid [0-9]+ )?via "
}
bird_learned_frr_prefix() {  # through Strata: AS path 65001 65020, from protocol strata
  local out
  out="$(birdc_lab show route all "${FRR_PREFIX}" protocol strata)" || return 1
  grep -q "^${FRR_PREFIX} .* unicast \[strata " <<<"${out}" &&
    grep -q "BGP.as_path: 65001 65020$" <<<"${out}"
}
frr_learned_bird_prefix() {  # through Strata: AS path 65001 65010, valid and best
  local out
  out="$(vtysh_lab "show bgp ipv4 unicast ${BIRD_PREFIX}")" || return 1
  grep -q "^  65001 65010" <<<"${out}" && grep -q "valid, external, best" <<<"${out}"
}
strata_peer_established() {  # ADDRESS: its line in show bgp summary says Established
  strata_sh "show bgp summary" | grep -E "(^|[[:space:]])$1([[:space:]]|$)" | grep -q Established
}

CHECKS=(
  "strata_peer_established ${BIRD_ADDR}"
  "strata_peer_established ${FRR_ADDR}"
  "kernel_has ${BIRD_PREFIX}"
  "kernel_has ${FRR_PREFIX}"
  "bird_learned_frr_prefix"
  "frr_learned_bird_prefix"
)

do_check() {
  trap 'do_down' EXIT
  trap 'exit 1' INT TERM
  local start=${SECONDS}
  do_up || { log "FAIL: lab did not come up"; dump_logs; return 1; }
  local deadline=$((SECONDS + CHECK_TIMEOUT)) pending c
  while :; do
    pending=()
    for c in "${CHECKS[@]}"; do
      ${c} >/dev/null 2>&1 || pending+=("${c}")
    done
    ((${#pending[@]} == 0)) && break
    if ((SECONDS >= deadline)); then
      for c in "${pending[@]}"; do log "FAIL: ${c}"; done
      do_status
      dump_logs
      return 1
    fi
    sleep 0.5
  done
  for c in "${CHECKS[@]}"; do log "ok: ${c}"; done
  echo "=== converged after $((SECONDS - start)) s"
  do_status
  log "PASS"
}

dump_logs() {
  local f
  for f in "${LAB_DIR}"/strata/rtrmgr.log "${LAB_DIR}"/strata/logs/*.log "${LAB_DIR}"/bird/bird.log \
           "${LAB_DIR}"/frr/bgpd.log "${LAB_DIR}"/frr/zebra.out; do
    [[ -f "${f}" ]] || continue
    echo "--- tail ${f}"
    tail -n 30 "${f}"
  done
}

# ---- main ------------------------------------------------------------------------------------

usage() {
  echo "usage: $0 up|down|status|check" >&2
  exit 2
}

[[ $# -eq 1 ]] || usage
case "$1" in
  up | check)
    check_prereqs
    rc=$?
    ((rc == 0)) || exit "${rc}"
    # Never tear down a lab this run did not create.
    if lab_exists; then
      log "a lab is already up (or left over): run '$0 down' first"
      exit 1
    fi
    if [[ "$1" == up ]]; then
      if ! do_up; then
        dump_logs
        log "up failed; tearing down what was created"
        do_down
        exit 1
      fi
    else
      do_check
    fi
    ;;
  down) do_down ;;
  status) do_status ;;
  *) usage ;;
esac
