#!/usr/bin/env bash
# fuzz.sh - a long libFuzzer session on one target (default fuzz_plan_load).
#
#   ./scripts/fuzz.sh [target] [libFuzzer options...]
#   ./scripts/fuzz.sh fuzz_plan_load -runs=10000000
#
# Builds the fuzz preset (clang, libFuzzer, ASan + UBSan), writes the plan
# builder's seeds, and fuzzes from them, the saved reproducers and the shared
# corpus (../shared, when present). Without options it runs for an hour. New
# interesting inputs accumulate in tests/fuzz/corpus-work/<target>/ (ignored
# by git); a crash is copied to tests/fuzz/regressions/<target>/, where the
# ordinary test builds replay it from then on.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"  # cmake --preset reads CMakePresets.json from the working directory
BUILD_ROOT="${TIGRIS_BUILD_ROOT:-$ROOT/build}"
JOBS="${TIGRIS_JOBS:-2}"
SHARED="${TIGRIS_SHARED_DIR:-$ROOT/../shared}"
TARGET="${1:-fuzz_plan_load}"
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- -max_total_time=3600

if [ "${TIGRIS_SKIP_SETUP:-0}" != 1 ]; then
  "$ROOT/scripts/setup.sh"
fi

FUZZ_BUILD="$BUILD_ROOT/fuzz"
HOST_BUILD="$BUILD_ROOT/host"
cmake --preset fuzz -B "$FUZZ_BUILD" >/dev/null
cmake --build "$FUZZ_BUILD" -j "$JOBS" --target "$TARGET"

seeds="$FUZZ_BUILD/seeds"
mkdir -p "$seeds"
cmake --preset host -B "$HOST_BUILD" >/dev/null
if cmake --build "$HOST_BUILD" -j "$JOBS" --target tigris_make_seeds >/dev/null; then
  "$HOST_BUILD/tests/fuzz/tigris_make_seeds" "$seeds"
else
  echo "fuzz: no seed writer (plan builder missing?); starting without builder seeds" >&2
fi

work="$ROOT/tests/fuzz/corpus-work/$TARGET"
artifacts="$FUZZ_BUILD/artifacts/$TARGET/"
regressions="$ROOT/tests/fuzz/regressions/$TARGET"
mkdir -p "$work" "$artifacts" "$regressions"
dirs=("$work" "$seeds" "$regressions")
[ -d "$SHARED/corpus" ] && dirs+=("$SHARED/corpus")
[ -d "$SHARED/corpus/negative" ] && dirs+=("$SHARED/corpus/negative")

rc=0
# With -jobs, libFuzzer writes fuzz-<n>.log into the working directory.
cd "$FUZZ_BUILD"
"$FUZZ_BUILD/tests/fuzz/$TARGET" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$artifacts" "$@" "${dirs[@]}" || rc=$?

shopt -s nullglob
for f in "$artifacts"crash-* "$artifacts"leak-* "$artifacts"timeout-* "$artifacts"oom-*; do
  cp -n "$f" "$regressions/"
  echo "fuzz: reproducer saved as tests/fuzz/regressions/$TARGET/$(basename "$f")"
done
exit $rc
