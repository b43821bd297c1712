#!/usr/bin/env bash
# Installs the Debian packages Strata builds and tests with. Run as root on Debian 12.
# Packages already installed are skipped, so a second run costs a few dpkg queries.
set -euo pipefail
pkgs=(
  build-essential cmake ninja-build ccache pkg-config
  libboost-dev libboost-system-dev
  libprotobuf-dev libprotoc-dev protobuf-compiler libgrpc++-dev protobuf-compiler-grpc libabsl-dev
  libfmt-dev libspdlog-dev libcli11-dev libmnl-dev nlohmann-json3-dev libssl-dev
  libgtest-dev libgmock-dev libbenchmark-dev libreadline-dev
  clang-format iproute2 procps
  clang libclang-rt-14-dev
  bird2 frr gobgpd exabgp
  librtr-dev stayrtr
)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
