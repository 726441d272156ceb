#!/usr/bin/env bash
# setup.sh - install everything TiGrIS needs on a fresh Debian 12.
#
# Idempotent: when every package is already installed it touches neither the
# network nor apt, so scripts/test.sh and scripts/serve.sh can call it on
# every run at no cost. Needs root (or sudo) only when something is missing.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

PACKAGES=(
  # host build
  build-essential cmake ninja-build pkg-config git ccache
  # clang for the fuzz preset: libFuzzer and sanitizer runtimes live in libclang-rt
  clang libclang-rt-14-dev llvm
  # host libraries
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  liblz4-dev lz4 nlohmann-json3-dev libcli11-dev libcpp-httplib-dev
  # tigris export writes TFLite files with FlatBufferBuilder (header-only)
  libflatbuffers-dev
  # gRPC service; grpc-proto carries the health and reflection .proto files
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler grpc-proto
  python3-grpcio python3-protobuf
  # the TLS tests make a throw-away CA and certificates with the openssl command
  openssl
  # Cortex-M firmware and its emulator
  gcc-arm-none-eabi libnewlib-arm-none-eabi picolibc-arm-none-eabi qemu-system-arm
  # Xtensa lx106 firmware and its emulator (qemu-system-misc has qemu-system-xtensa);
  # gcc-12-source: GCC's Xtensa soft-float, which Debian's lx106 libgcc leaves out
  # (emu/boards/sim-lx106/libgcc.cmake)
  gcc-xtensa-lx106 binutils-xtensa-lx106 picolibc-xtensa-lx106-elf qemu-system-misc gcc-12-source
  # the Slurm fleet of emulated devices and its tests' throw-away cluster
  # (tests/cluster/cluster.sh, docs/cluster.md): munged, slurmctld, slurmd, sbatch ...
  slurm-wlm slurm-client munge
  # WebAssembly viewer and its headless browser tests
  emscripten chromium chromium-driver
)

# emscripten and the web tests need node >= 18. An existing newer node (for
# example one installed from upstream) must not be replaced by Debian's.
node_major() {
  command -v node >/dev/null 2>&1 || { echo 0; return; }
  local v
  v="$(node --version 2>/dev/null || echo v0)"
  v="${v#v}"
  echo "${v%%.*}"
}
if [ "$(node_major)" -lt 18 ]; then
  PACKAGES+=(nodejs npm)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  status="$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)"
  case "$status" in
    ii*) ;;
    *) missing+=("$p") ;;
  esac
done

if [ "${#missing[@]}" -gt 0 ]; then
  SUDO=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || {
      echo "setup: missing packages (${missing[*]}) and not root; rerun as root" >&2
      exit 1
    }
    SUDO=(sudo)
  fi
  echo "setup: installing ${#missing[@]} package(s): ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update
  "${SUDO[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "setup: all ${#PACKAGES[@]} Debian packages present"
fi

# The browser tests' node modules; only once the web viewer has a lockfile.
if [ -f "$ROOT/web/package-lock.json" ]; then
  if [ ! -d "$ROOT/web/node_modules" ] || [ "$ROOT/web/package-lock.json" -nt "$ROOT/web/node_modules" ]; then
    echo "setup: npm ci in web/"
    (cd "$ROOT/web" && npm ci --no-audit --no-fund)
    touch "$ROOT/web/node_modules"
  fi
fi

echo "setup: done"
