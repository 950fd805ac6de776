# Shared by scripts/run, scripts/test and scripts/bench: install what is missing, configure, build.
# Sourced, not executed.
set -euo pipefail
GPUSOC_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GPUSOC_BUILD="${GPUSOC_BUILD:-$GPUSOC_ROOT/build}"
GPUSOC_JOBS="${GPUSOC_JOBS:-2}"

GPUSOC_PACKAGES=(cmake g++ make pkg-config libsystemc-dev libboost-dev libboost-program-options-dev
  libgtest-dev libspdlog-dev libfmt-dev nlohmann-json3-dev libbenchmark-dev)
# What the tests need beyond building: the scripts' Python, their plots, scripts/sweep's Dask and
# the browser that renders scripts/report's page (scripts/test adds them).
GPUSOC_TEST_PACKAGES=(python3 python3-matplotlib python3-distributed chromium)

gpusoc_log() { echo "[gpusoc] $*" >&2; }

# gpusoc_ensure_packages [more packages...]: GPUSOC_PACKAGES and those, installed if missing.
gpusoc_ensure_packages() {
  local missing=()
  for p in "${GPUSOC_PACKAGES[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    gpusoc_log "missing packages: ${missing[*]}"
    gpusoc_log "install them with: sudo apt-get install ${missing[*]}"
    exit 1
  fi
  gpusoc_log "installing: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# gpusoc_build [extra cmake args...]: configure once, then an incremental build.
gpusoc_build() {
  gpusoc_ensure_packages
  if [ ! -f "$GPUSOC_BUILD/CMakeCache.txt" ]; then
    cmake -S "$GPUSOC_ROOT" -B "$GPUSOC_BUILD" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  fi
  # Progress lines are dropped; warnings and errors show. pipefail keeps the build's status.
  cmake --build "$GPUSOC_BUILD" -j "$GPUSOC_JOBS" -- --no-print-directory 2>&1 |
    { grep -v -E '^\[ *[0-9]+%\]' || true; }
}
